package learn

import (
	"math"
	"slices"

	"github.com/featmap/featmap/fmap"
)

// This file trains the model a learned map carries: the ridge fit on the
// designed map's own features, measured on the held-out rows.

// MaxClasses is the most distinct labels learning treats as classes.
const MaxClasses = 256

// GroupLassoRidge is the ridge λ of the model an rff-group-lasso map
// carries: the learn section's default.
const GroupLassoRidge = 1e-3

// Classes reports whether labels are class labels: all integers, at most
// MaxClasses distinct values. Others are numeric targets.
func Classes(labels []float64) bool {
	for _, v := range labels {
		if v != math.Trunc(v) {
			return false
		}
	}
	return Distinct(labels) <= MaxClasses
}

// Distinct is the number of distinct values among labels.
func Distinct(labels []float64) int {
	return len(slices.Compact(slices.Sorted(slices.Values(labels))))
}

// Model trains the ridge model of the designed map m on the data's rows:
// on every row to fit (learning's training and validation rows both) with
// ridge λ lambda and target coding (one-vs-rest ±1 per class, or the
// numeric labels, centred: the bias), on m's own features Ψ, so that the
// model's scores are exactly w·Ψ(x) + b of the map a user ships. It is
// measured on the held-out rows, which neither learning nor the model
// saw: the fraction classified right (classes) or the RMSE (regression).
func Model(m *fmap.Map, d *fmap.Data, classes bool, lambda float64) (*fmap.LinearModel, error) {
	r, err := Ridge(d.Fit, d.FitLabels, classes, lambda, m.Dim, m.Eval)
	if err != nil {
		return nil, err
	}
	model := &fmap.LinearModel{Classes: r.Classes, W: r.W, Bias: r.Bias, Ridge: lambda, Rows: len(d.Fit), DataSHA256: d.SHA256, HeldRows: len(d.Held)}
	if len(d.Held) > 0 {
		z, sc := make([]float64, m.Dim), make([]float64, model.Outputs())
		var right, sq float64
		for i, x := range d.Held {
			m.Eval(z, x)
			model.Scores(sc, z)
			if classes {
				if model.Class(sc) == d.HeldLabels[i] {
					right++
				}
			} else {
				e := sc[0] - d.HeldLabels[i]
				sq += e * e
			}
		}
		if classes {
			model.HeldAccuracy = right / float64(len(d.Held))
		} else {
			model.HeldRMSE = math.Sqrt(sq / float64(len(d.Held)))
		}
	}
	return model, nil
}
