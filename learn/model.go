package learn

import (
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/design/learnplan"
	"github.com/featmap/featmap/fmap"
)

// This file trains the model a learned map carries: the ridge fit on the
// designed map's own features, measured on the held-out rows.

// GroupLassoRidge is the ridge λ of the model an rff-group-lasso map
// carries: the learn section's default.
const GroupLassoRidge = 1e-3

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

// ModelRidge chooses the ridge λ of a designed map's model on the map's
// own features: the rows to fit are split as LearnSigma splits them
// (a seeded split, by class for classes: fraction validation of them
// validate, seed seeds it), and the λ of learnplan.RidgeGrid whose ridge fit on the
// training part has the least validation error (the mean squared residual
// of the coded targets, the first of equals) is returned with that error.
// LearnSigma's own ridge: auto chooses λ on the random features it learns
// with; a map of other features (a Nyström map's) needs its own.
func ModelRidge(m *fmap.Map, d *fmap.Data, classes bool, validation float64, seed int64) (float64, float64, error) {
	rows, labels := d.Fit, d.FitLabels
	if len(rows) < 4 || len(rows) != len(labels) {
		return 0, 0, fmt.Errorf("learn: ridge auto: %d rows and %d labels (want as many, at least 4)", len(rows), len(labels))
	}
	if seed == 0 {
		seed = 1
	}
	l := &learner{}
	l.split(labels, classes, validation, seed)
	if len(l.train) == 0 || len(l.val) == 0 {
		return 0, 0, fmt.Errorf("learn: ridge auto: %d training and %d validation rows: want some of each", len(l.train), len(l.val))
	}
	z := make([][]float64, len(rows))
	for i, x := range rows {
		z[i] = make([]float64, m.Dim)
		m.Eval(z[i], x)
	}
	pick := func(idx []int) ([][]float64, []float64) {
		zs, ys := make([][]float64, len(idx)), make([]float64, len(idx))
		for j, i := range idx {
			zs[j], ys[j] = z[i], labels[i]
		}
		return zs, ys
	}
	zt, yt := pick(l.train)
	zv, yv := pick(l.val)
	_, k, yvc := codeTargets(yv, classes)
	if classes {
		// The validation rows' targets coded over the training rows'
		// classes: a class the training part lacks scores −1 everywhere.
		cls, _, _ := codeTargets(yt, true)
		k = len(cls)
		yvc = make([]float64, len(yv)*k)
		for i, v := range yv {
			for c := range k {
				yvc[i*k+c] = -1
			}
			if c, ok := slices.BinarySearch(cls, v); ok {
				yvc[i*k+c] = 1
			}
		}
	}
	best, bestErr := 0.0, math.Inf(1)
	sc := make([]float64, k)
	for _, lam := range learnplan.RidgeGrid() {
		r, err := Ridge(zt, yt, classes, lam, m.Dim, func(dst, x []float64) { copy(dst, x) })
		if err != nil {
			continue
		}
		mod := fmap.LinearModel{Classes: r.Classes, W: r.W, Bias: r.Bias}
		var sq float64
		for i, zi := range zv {
			mod.Scores(sc, zi)
			for c := range k {
				e := sc[c] - yvc[i*k+c]
				sq += e * e
			}
		}
		if e := sq / float64(len(zv)); e < bestErr {
			best, bestErr = lam, e
		}
	}
	if best == 0 {
		return 0, 0, fmt.Errorf("learn: ridge auto: no λ of %g … %g fits", learnplan.RidgeGrid()[0], learnplan.RidgeGrid()[len(learnplan.RidgeGrid())-1])
	}
	return best, bestErr, nil
}
