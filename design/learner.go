package design

import (
	"context"

	"github.com/featmap/featmap/fmap"
)

// Learner is the learning a design of a learned map starts with: from the
// labelled rows to fit of a problem's data (the held-out rows are never
// seen), what the map is designed for, the learned kernel and, where
// learning makes them, the method and dimension. A learn section's σ is
// learned for rff and nystroem, a kernels section's combined kernel by
// rff-group-lasso (package learn's Sigma and RFFGroupLasso; learn.For
// finds a method's). The caller runs every learner alike: it hands it the
// options of the spec section the learner names (Section) and designs
// for what it returns.
type Learner interface {
	// Section is the spec section the learner learns from: "learn" (a
	// kernel's σ) or "kernels" (a combination of kernels).
	Section() string
	// Learn learns from l.Problem's data.
	Learn(ctx context.Context, l Learning) (*Learned, error)
}

// Learning is what a Learner learns from.
type Learning struct {
	// Problem is the spec's problem, its data read.
	Problem *fmap.Problem
	// Dim is the map's D (target.dim) for a learn section, 0 without.
	Dim int
	// Options are the options of the learner's section, of the type the
	// learner takes (learn.LearnOptions for σ, []learn.KernelGroup for
	// the group lasso).
	Options any
	// Progress, if not nil, hears how far learning is.
	Progress func(string)
}

// Learned is what a Learner learned.
type Learned struct {
	// Kernel is the learned kernel (σ learned, or the combined kernel).
	Kernel fmap.Kernel
	// Method, if not nil, designs the map in place of the spec's, of
	// dimension Dim (rff-group-lasso with the kept kernels' blocks).
	Method Method
	Dim    int
	// LearnDim is the number of random features σ was learned with.
	LearnDim int
	// Seed is the seed of the method the map is designed by, which a
	// model's choice of λ on the map's own features draws its folds by.
	Seed int64
	// Result is the learner's own account of what it learned
	// (learn.Results reads package learn's).
	Result any
}

// Describer is a method whose words in a design's description are its
// own rather than its options' label (rff-group-lasso: its features per
// kernel, λ and seed).
type Describer interface {
	Describe() string
}

// SectionError is an error at one key of the spec section a learner
// learns from, found by the section's decoder (a kernels section's:
// package learn's Kernels), which names keys, not lines: the spec decoder
// places it in the spec (file:line: key: message), as it places an
// OptionError.
type SectionError struct {
	// Key is the key path the error names: kernels[1].columns,
	// method.dim_per_kernel, data.label_column.
	Key string
	// Missing says that Key is a required key its mapping lacks: the
	// error is at that mapping, and Msg says what the key holds ("missing
	// required key (Msg)").
	Missing bool
	// Value places the error at Key's value rather than at the key (a
	// list's errors at the list).
	Value bool
	// Ref, if set, is another key the message refers to, whose line the
	// spec decoder adds: "Msg (Ref, line N)".
	Ref string
	Msg string
}

// Error names the key: "key: msg", "key: missing required key (msg)".
func (e *SectionError) Error() string {
	switch {
	case e.Missing:
		return e.Key + ": missing required key (" + e.Msg + ")"
	case e.Ref != "":
		return e.Key + ": " + e.Msg + " (" + e.Ref + ")"
	}
	return e.Key + ": " + e.Msg
}
