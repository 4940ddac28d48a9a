package featmap

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/sampled"
)

// MaxLearnClasses is the most distinct labels learning treats as classes.
const MaxLearnClasses = 256

// labelClasses reports whether labels are class labels: all integers, at
// most MaxLearnClasses distinct values. Others are numeric targets.
func labelClasses(labels []float64) bool {
	for _, v := range labels {
		if v != math.Trunc(v) {
			return false
		}
	}
	return distinct(labels) <= MaxLearnClasses
}

// distinct is the number of distinct values among labels.
func distinct(labels []float64) int {
	return len(slices.Compact(slices.Sorted(slices.Values(labels))))
}

// modelConstants is the number of weights and biases of the ridge model a
// learn section's map of dimension dim carries (trainModel): D × K and K,
// K one score per class of the rows to fit (learn.Ridge's one-vs-rest
// coding) or 1 for numeric labels; 0 without a learn section. The data
// LoadSpec read fixes it before learning.
func (s *Spec) modelConstants(dim int) int {
	if s.Learn == nil {
		return 0
	}
	model, classes := s.Predictor()
	if !model {
		return 0
	}
	k := 1
	if classes {
		k = distinct(s.Problem.Data.FitLabels)
	}
	return dim*k + k
}

// LearnFromData runs the learning the spec asks for, once: a learn
// section's σ (learnSigma) or a kernels section's group lasso
// (learnGroupLasso), from the rows LoadSpec read. Design calls it first,
// so that loading a spec stays fast (gen can find its output fresh without
// learning) and ctx stops the learning; a spec without either section has
// nothing to learn. An error leaves the spec unlearned (a later call tries
// again).
func (s *Spec) LearnFromData(ctx context.Context) error {
	if s.learnt {
		return nil
	}
	if s.Learn != nil {
		if err := learnSigma(ctx, s); err != nil {
			return err
		}
	}
	if s.GroupLasso != nil {
		if err := learnGroupLasso(ctx, s); err != nil {
			return err
		}
	}
	s.learnt = true
	return nil
}

// Predictor reports whether the spec's map will carry a trained model (a
// learn or a kernels section: see trainModel), and whether its labels are
// classes (labelClasses) — known before learning, from the data read.
func (s *Spec) Predictor() (model, classes bool) {
	if s.Learn == nil && s.GroupLasso == nil || s.Problem.Data == nil {
		return false, false
	}
	return true, labelClasses(s.Problem.Data.FitLabels)
}

// learnSigma learns the rbf kernel's σ of a spec with a learn section from
// its data's rows to fit and their labels (learn.validation splits them
// again; the held-out rows, which verify the map, are never seen) with the
// rff method's sampling, features and seed at target.dim, and bakes it
// into Problem.Kernel.Sigma, so that the designed map is the learned one.
// Class labels (labelClasses) get one-vs-rest ±1 targets; other labels
// are numeric targets.
func learnSigma(ctx context.Context, s *Spec) error {
	d := s.Problem.Data
	rows, labels := d.Fit, d.FitLabels
	classes := labelClasses(labels)
	rff, ok := s.Method.Method.(*sampled.RFF)
	if !ok {
		return &SpecError{Path: s.Path, Line: s.Learn.Line, Field: "learn", Msg: "learning σ needs method rff"}
	}
	res, err := learn.LearnSigma(ctx, rows, labels, learn.LearnOptions{
		Kernel: s.Problem.Kernel, PerAxis: s.Learn.PerAxis, Validation: s.Learn.Validation, Ridge: s.Learn.Ridge, RidgeAuto: s.Learn.RidgeAuto,
		Penalty: s.Learn.Penalty, Dim: s.Target.Dim, Sampling: rff.Opts.Sampling, Features: rff.Opts.Features,
		Seed: rff.Opts.Seed, Classes: classes,
	})
	if err != nil {
		return &SpecError{Path: s.Path, Line: s.Learn.Line, Field: "learn", Msg: fmt.Sprintf("learning σ from %s: %v", d.File, err), Err: err}
	}
	s.Problem.Kernel.Sigma = res.Sigma
	s.Learned = &res
	return nil
}

// GroupLassoRidge is the ridge λ of the model an rff-group-lasso map
// carries: the learn section's default.
const GroupLassoRidge = 1e-3

// trainModel trains the ridge model of a spec's learn section on the
// designed map m (at the learned σ): on every row to fit (learning's
// training and validation rows both), with learning's ridge λ (learn.ridge,
// or with ridge: auto the λ chosen at the learned σ) and target
// coding (one-vs-rest ±1 per class, or the numeric labels, centred: the
// bias), on m's own features Ψ, so that the model's scores are exactly
// w·Ψ(x) + b of the map a user ships. It is measured on the held-out rows,
// which neither learning nor the model saw: the fraction classified right
// (classes) or the RMSE (regression). For an rff-group-lasso spec it is
// the same ridge fit on the combined map's Ψ (the kept kernels' blocks
// scaled by √d_g), with λ = GroupLassoRidge and the group lasso's target
// coding.
func trainModel(s *Spec, m *fmap.Map) (*fmap.LinearModel, error) {
	d := s.Problem.Data
	var lambda float64
	var classes bool
	var line int
	var field string
	if s.Learn != nil {
		// Learning's λ: the spec's (the parser's default 1e-3 when not
		// given), or with ridge auto the one chosen at the learned σ.
		lambda, classes, line, field = s.Learned.Ridge, s.Learned.Classes != nil, s.Learn.Line, "learn"
	} else {
		lambda, classes, line, field = GroupLassoRidge, s.GroupLassoResult.Classes != nil, s.GroupLasso.Line, "kernels"
	}
	r, err := learn.Ridge(d.Fit, d.FitLabels, classes, lambda, m.Dim, m.Eval)
	if err != nil {
		return nil, &SpecError{Path: s.Path, Line: line, Field: field, Msg: fmt.Sprintf("training the model on %s: %v", d.File, err), Err: err}
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
