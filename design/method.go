package design

import (
	"context"
	"fmt"
	"io"

	"github.com/featmap/featmap/fmap"
)

// Method is one way of designing a feature map. A method is a value that
// carries its options: Options returns a pointer to them, which the spec
// decoder fills (strictly, from the yaml tags of the struct it points to)
// before Design runs. A method is one file: its options, the kernels and
// dimensions it makes, and its design.
type Method interface {
	// Name is the method's name in a spec (method.name).
	Name() string
	// Applies returns nil if the method designs maps for p's kernel and
	// input dimension, else an error saying why not.
	Applies(p *fmap.Problem) error
	// Options returns a pointer to the method's options struct. Its fields
	// carry yaml tags (the spec keys) and optional spec tags with the
	// values' limits (see package featmap's decoder); the zero value of
	// every field means its documented default.
	Options() any
	// Dims says which output dimensions the method makes for p.
	Dims(p *fmap.Problem) Dims
	// Design designs a map of exactly dim outputs for p. It does not
	// verify the map: the caller measures it, and the steps, against
	// p.Reference().
	Design(ctx context.Context, p *fmap.Problem, dim int, s Settings) (*Result, error)
}

// Defaulter is implemented by options structs with defaults that do not
// depend on the problem (a window, a number of bins): SetDefaults fills
// them in, so that descriptions and labels show them.
type Defaulter interface {
	SetDefaults()
}

// FileLoader is implemented by methods with options that name files:
// LoadFiles reads them through open, which returns a file's content and
// its path as messages should name it (relative to the spec's directory),
// and returns an *OptionError naming the key.
type FileLoader interface {
	LoadFiles(open func(name string) (io.ReadCloser, string, error)) error
}

// Deprecator is implemented by methods with an option a spec should no
// longer give: Deprecated returns its key and the warning that says what
// to write instead, or "" for both when it is not given.
type Deprecator interface {
	Deprecated() (key, warning string)
}

// OptionChecker is implemented by methods whose options constrain each
// other or the problem; CheckOptions returns an *OptionError naming the
// key.
type OptionChecker interface {
	CheckOptions(p *fmap.Problem) error
}

// SeriesMethod is implemented by methods whose map of one input is a
// single Fourier or series stage, a closed-form function of that input:
// the maps a per-coordinate stage can apply to every coordinate (an
// exp-χ² map's inner map). OneInputSeries does nothing: it marks them.
type SeriesMethod interface {
	Method
	OneInputSeries()
}

// Inner is an option naming another method and its dimension, e.g. the
// one-dimensional χ² map an exp-χ² map applies to every coordinate first:
// `inner: {name: chum, dim: 5, …its options}`.
type Inner struct {
	Method Method
	Dim    int
}

// TargetChecker is implemented by methods whose options fix the dimension;
// CheckTarget returns an *OptionError naming the key when the target
// (dim > 0, or a max_error search when dim is 0) cannot be met.
type TargetChecker interface {
	CheckTarget(dim int) error
}

// OptionError is a problem with a method's option Key (its spec key). With
// Other set, Key conflicts with the option Other. Err is the underlying
// error, if any (reading a file the option names).
type OptionError struct {
	Key, Other string
	Msg        string
	Err        error
}

// Unwrap returns the underlying error.
func (e *OptionError) Unwrap() error { return e.Err }

// Error names the option by its spec key, and the one it conflicts with:
// "method.key: msg" or "method.key: conflicts with method.other: msg".
func (e *OptionError) Error() string {
	if e.Other != "" {
		return fmt.Sprintf("method.%s: conflicts with method.%s: %s", e.Key, e.Other, e.Msg)
	}
	return fmt.Sprintf("method.%s: %s", e.Key, e.Msg)
}

// Sizer is implemented by a method whose map's size the problem and D
// fix before the design (random features, Nyström, anchor tables):
// Constants returns a lower bound on the numbers its map of dimension dim
// holds — frequencies, phases, landmarks, projections, tables — or 0 where
// the design decides it. gen reads it (Spec.ConstantsAhead) to refuse,
// before designing, an output that cannot take the data file a map of
// many constants is emitted with.
type Sizer interface {
	Constants(p *fmap.Problem, dim int) int
}

// AutoVarier is implemented by a method that offers method auto, besides
// itself with default options, variants of itself at D (nystroem: more
// landmarks than D, reduced to D, with data).
type AutoVarier interface {
	// AutoVariants returns the variants for problem p at dim, none
	// where they would make nothing the default does not.
	AutoVariants(p *fmap.Problem, dim int) []Method
}

// Incremental is implemented by a method whose design of D makes every
// smaller D on the way (chum continues from D − 1): a D costs at least
// every D below it together, so a target error search walks D upward
// instead of bisecting (a bisection's overshoot would design the larger D
// and all those below it).
type Incremental interface {
	// Incremental reports whether the design of D makes every smaller D.
	Incremental() bool
}

// IsIncremental reports whether m is an Incremental method whose design
// of D makes every smaller D.
func IsIncremental(m Method) bool {
	inc, ok := m.(Incremental)
	return ok && inc.Incremental()
}

// WholeRows is implemented by a method whose map of an additive kernel
// (one spec axis, summed over the coordinates of a data row) takes whole
// rows, as Nyström's landmarks are rows (fmap.Map.WholeRows): its D is
// the number of outputs per row, where a per-coordinate map's D is per
// coordinate (D·n outputs for rows of n values). A comparison by output
// width (compare.widths) designs it at D = width.
type WholeRows interface {
	// WholeRows reports whether the method's maps of additive kernels
	// take whole rows.
	WholeRows() bool
}
