package learn

import (
	"context"
	"fmt"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/sampled"
)

// Sections are the spec sections learning learns from, as
// design.Learner's Section names them.
const (
	// SigmaSection is a learn section: a kernel's σ (Sigma).
	SigmaSection = "learn"
	// KernelsSection is a kernels section: their combination by the
	// group lasso (RFFGroupLasso).
	KernelsSection = "kernels"
)

// SigmaMethod is a method whose map is of a kernel's σ learned on random
// Fourier features (rff, nystroem): SigmaFeatures says which, for its map
// of dimension dim, so that the map designed at the learned σ has them or
// approximates their kernel.
type SigmaMethod interface {
	design.Method
	SigmaFeatures(dim int) (features int, sampling, form string, seed int64)
}

// Sigma learns a learn section's σ for its method (LearnSigma on the
// method's SigmaFeatures).
type Sigma struct{ Method SigmaMethod }

var (
	_ design.Learner   = Sigma{}
	_ design.Learner   = (*RFFGroupLasso)(nil)
	_ design.Describer = (*RFFGroupLasso)(nil)
	_ SigmaMethod      = (*sampled.RFF)(nil)
	_ SigmaMethod      = (*sampled.Nystroem)(nil)
)

// Section is SigmaSection: σ is a learn section's.
func (Sigma) Section() string { return SigmaSection }

// Learn learns σ on the rows to fit of l.Problem's data with l.Options
// (a LearnOptions) and the method's features at l.Dim.
func (s Sigma) Learn(ctx context.Context, l design.Learning) (*design.Learned, error) {
	d := l.Problem.Data
	o, ok := l.Options.(LearnOptions)
	if !ok {
		return nil, fmt.Errorf("learning σ takes learn.LearnOptions, not %T", l.Options)
	}
	o.Dim, o.Sampling, o.Features, o.Seed = s.Method.SigmaFeatures(l.Dim)
	o.Progress = l.Progress
	res, err := LearnSigma(ctx, d.Fit, d.FitLabels, o)
	if err != nil {
		return nil, err
	}
	k := l.Problem.Kernel
	k.Sigma = res.Sigma
	return &design.Learned{Kernel: k, LearnDim: o.Dim, Seed: o.Seed, Result: &res}, nil
}

// For returns the learner of method m: itself, or Sigma for a
// SigmaMethod; false for a method that learns nothing.
func For(m design.Method) (design.Learner, bool) {
	switch m := m.(type) {
	case design.Learner:
		return m, true
	case SigmaMethod:
		return Sigma{m}, true
	}
	return nil, false
}

// Results are what package learn's learners learned, from their Learned:
// σ's LearnResult (Sigma) or the group lasso's GroupLassoResult
// (RFFGroupLasso), the other nil; both nil for another learner's.
func Results(l *design.Learned) (*LearnResult, *GroupLassoResult) {
	sigma, _ := l.Result.(*LearnResult)
	gl, _ := l.Result.(*GroupLassoResult)
	return sigma, gl
}
