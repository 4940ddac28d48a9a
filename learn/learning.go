package learn

import (
	"context"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/sampled"
)

// Learner learns, from the labelled rows to fit of a problem's data (the
// held-out rows are never seen), what a learned map is designed for: the
// learned kernel and, where learning makes them, the method and dimension.
// A learn section's σ is learned for rff and nystroem (Sigma, by their
// SigmaFeatures), a kernels section's combined kernel by rff-group-lasso
// (RFFGroupLasso); For finds a method's.
type Learner interface {
	Learn(ctx context.Context, l Learning) (*Learned, error)
}

// Learning is what a Learner learns from.
type Learning struct {
	// Problem is the spec's problem, its data read.
	Problem *fmap.Problem
	// Dim is the map's D (target.dim) for a learn section.
	Dim int
	// Sigma are a learn section's options for LearnSigma; the method sets
	// its features (Dim, Sampling, Features, Seed).
	Sigma LearnOptions
	// Kernels are a kernels section's kernels, for the group lasso.
	Kernels []KernelGroup
	// Progress, if not nil, hears how far learning is.
	Progress func(string)
}

// Learned is what a Learner learned.
type Learned struct {
	// Kernel is the learned kernel (σ learned, or the combined kernel).
	Kernel fmap.Kernel
	// Method, if not nil, designs the map in place of the spec's, of
	// dimension Dim (rff-group-lasso with the kept kernels' blocks).
	Method design.Method
	Dim    int
	// LearnDim is the number of random features σ was learned with.
	LearnDim int
	// Sigma is what LearnSigma learned, GroupLasso what the group lasso
	// did (one of them, by the learner).
	Sigma      *LearnResult
	GroupLasso *GroupLassoResult
}

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
	_ Learner     = Sigma{}
	_ Learner     = (*RFFGroupLasso)(nil)
	_ SigmaMethod = (*sampled.RFF)(nil)
	_ SigmaMethod = (*sampled.Nystroem)(nil)
)

// Learn learns σ on the rows to fit of l.Problem's data with l.Sigma's
// options and the method's features at l.Dim.
func (s Sigma) Learn(ctx context.Context, l Learning) (*Learned, error) {
	d, o := l.Problem.Data, l.Sigma
	o.Dim, o.Sampling, o.Features, o.Seed = s.Method.SigmaFeatures(l.Dim)
	o.Progress = l.Progress
	res, err := LearnSigma(ctx, d.Fit, d.FitLabels, o)
	if err != nil {
		return nil, err
	}
	k := l.Problem.Kernel
	k.Sigma = res.Sigma
	return &Learned{Kernel: k, LearnDim: o.Dim, Sigma: &res}, nil
}

// For returns the learner of method m: itself, or Sigma for a
// SigmaMethod; false for a method that learns nothing.
func For(m design.Method) (Learner, bool) {
	switch m := m.(type) {
	case Learner:
		return m, true
	case SigmaMethod:
		return Sigma{m}, true
	}
	return nil, false
}
