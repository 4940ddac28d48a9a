package spec

import (
	"fmt"

	"github.com/featmap/featmap/design/learnplan"
)

// This file checks a learn section against its data once the data is
// read: enough rows to learn from, and learning's cost (learnplan.LearnCost)
// within learnplan.LearnBudget, so that what would fail or run for many
// minutes is refused before any work.

// minLearnRows is the fewest rows to fit learning takes (learn.LearnSigma
// splits them into rows that train and rows that validate).
const minLearnRows = 4

// checkLearn checks a learn section's rows and cost.
func checkLearn(s *Spec) error {
	l, d := s.Learn, s.Problem.Data
	if l == nil || d == nil || s.Target == nil || s.Method == nil {
		return nil
	}
	if len(d.Fit) < minLearnRows {
		held := fmt.Sprintf("%d held out: data.holdout %g", len(d.Held), s.Data.Holdout)
		if len(d.Held) > 0 {
			held += "; data.holdout: 0 learns from every row"
		}
		return &SpecError{Path: s.Path, Line: l.Line, Field: "learn",
			Msg: fmt.Sprintf("learning σ needs at least %d rows to fit, and %s has %d of its %d rows kept (%s)", minLearnRows, d.File, len(d.Fit), len(d.Fit)+len(d.Held), held)}
	}
	shape, even := learnShape(s)
	cost := learnplan.LearnCost(shape(s.Target.Dim))
	if cost <= learnplan.LearnBudget {
		return nil
	}
	top := learnplan.MaxLearnedDim(func(dim int) float64 { return learnplan.LearnCost(shape(dim)) }, even)
	how := "a shared σ"
	if l.PerAxis {
		how = "σ per axis (a shared σ, then one per axis from it, then both again on each of the folds that compare them)"
	}
	if l.RidgeAuto {
		how += " with ridge: auto"
	}
	c := shape(s.Target.Dim)
	atMost := fmt.Sprintf("at most D = %d", top)
	if top == 0 {
		atMost = "no D is (fewer rows are: data.max_rows)"
	}
	return &SpecError{Path: s.Path, Line: s.Target.line, Field: "target.dim",
		Msg: fmt.Sprintf("%d: learning %s from %d rows of %d inputs on %d random Fourier features takes about %.3g multiply-adds (each evaluation factors a %d × %d matrix), more than learning's budget of %.3g (about a minute): %s",
			s.Target.Dim, how, c.Rows, c.Inputs, c.Dim, cost, c.Dim, c.Dim, learnplan.LearnBudget, atMost)}
}

// learnShape returns the learn section's cost shape at a map dimension
// D, and whether the method makes even D only (rff's cos-sin pairs).
func learnShape(s *Spec) (func(dim int) learnplan.CostShape, bool) {
	d, l := s.Problem.Data, s.Learn
	n := s.Problem.InDim()
	k := 1
	if l.Task == TaskClassification {
		all := append(append([]float64(nil), d.FitLabels...), d.HeldLabels...)
		k = learnplan.Distinct(all)
	}
	base := learnplan.CostShape{Rows: len(d.Fit), Inputs: n, Targets: k, Validation: l.Validation, PerAxis: l.PerAxis, RidgeAuto: l.RidgeAuto, CosSin: true}
	if m, ok := s.Method.Method.(learnplan.Priced); ok {
		return m.LearnShape(base)
	}
	return func(dim int) learnplan.CostShape { c := base; c.Dim = dim; return c }, false
}
