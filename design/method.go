package design

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/solver"
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

// OptionChecker is implemented by methods whose options constrain each
// other or the problem; CheckOptions returns an *OptionError naming the
// key.
type OptionChecker interface {
	CheckOptions(p *fmap.Problem) error
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

func (e *OptionError) Error() string {
	if e.Other != "" {
		return fmt.Sprintf("method.%s: conflicts with method.%s: %s", e.Key, e.Other, e.Msg)
	}
	return fmt.Sprintf("method.%s: %s", e.Key, e.Msg)
}

// Settings are how a design runs: the LP backend, where progress goes and
// how many goroutines it may use. The zero value is usable.
type Settings struct {
	// Solver is the LP backend (nil: the default, pure Go).
	Solver solver.Backend
	// Progress, if not nil, receives progress messages.
	Progress func(string)
	// Workers bounds the goroutines of one design (0: 2).
	Workers int
	// NoAhead keeps a design's discrete γ search with many near-parallel
	// columns (2-D projections) from solving the γ it will likely need
	// next on its second worker while it solves the one it needs now: for
	// designs made beside others, which have no worker to spare (featmap
	// compare). It changes no result, only the time.
	NoAhead bool
}

// Backend returns the LP backend.
func (s Settings) Backend() solver.Backend {
	if s.Solver == nil {
		return solver.Default()
	}
	return s.Solver
}

// Say reports progress.
func (s Settings) Say(msg string) {
	if s.Progress != nil {
		s.Progress(msg)
	}
}

// Quiet returns s without progress messages.
func (s Settings) Quiet() Settings {
	s.Progress = nil
	return s
}

// Result is a finished design: the map and the steps that led to it.
type Result struct {
	Map *fmap.Map
	// Steps are the intermediate designs of an optimising method, in
	// order (nil for closed forms).
	Steps []Step
	// LPs is the number of linear programs solved.
	LPs int
	// DesignSet, if set, is the evaluation set Z the method optimised on,
	// named in words: the verification measures the map on it too.
	DesignSet   [][]float64
	DesignSetOn string
	// Seconds, if set, is the time the design took, for a method that
	// makes it from earlier designs it remembers (chum's designs of the
	// dimensions below): their time counts, whoever asked for them.
	Seconds float64
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

// Step is one step of a design pipeline, e.g. Chum's discrete LP.
type Step struct {
	Name string
	Map  *fmap.Map
}

// Dims is the set of output dimensions a method makes for a problem.
type Dims struct {
	// Only, if not nil, lists every dimension it makes.
	Only []int
	// Odd and Even restrict it to odd or to even dimensions.
	Odd, Even bool
	// Max, if positive, is the largest dimension (a size limit).
	Max int
	// Why says why another dimension cannot be made, e.g. "vz makes odd
	// dimensions only" (empty when every dimension can).
	Why string
	// MaxWhy, if set, says why no dimension above Max can be made, when
	// that is another reason than Why (the verification budget: DimsFor).
	MaxWhy string
	// MaxStated says that the reason for a dimension above Max (WhyNot)
	// states Max as the largest dimension ("chum designs at most 128
	// dimensions"), so that Refusal does not suggest it again.
	MaxStated bool
}

// MaxClosedFormDim is the largest dimension of the closed-form maps of one
// input (harmonic, vz, li, chebyshev). Beyond it their verification on an
// interval's 1 501 inputs (1.1·10⁶ pairs × D) takes seconds, and nothing
// is gained: at D = 255 on [0.001, 1] vz's χ² map is at 4.6·10⁻¹³ and li's
// at 7.8·10⁻¹⁶, float64's rounding (measured, issue 18).
const MaxClosedFormDim = 256

// ClosedFormDims is the set of dimensions up to MaxClosedFormDim, for the
// named closed-form method; its Why is why, MaxWhy the size limit.
func ClosedFormDims(name, why string) Dims {
	max := fmt.Sprintf("%s makes at most %d dimensions (a closed form of one input: beyond, its verification takes seconds and vz and li are at float64's rounding)", name, MaxClosedFormDim)
	if why == "" {
		why = max
	}
	return Dims{Max: MaxClosedFormDim, Why: why, MaxWhy: max, MaxStated: true}
}

// AnyDim is the set of every dimension.
var AnyDim = Dims{}

// DimsFor is the set of dimensions m makes for p: the Hellinger kernel's
// exact map is one-dimensional, whatever the method; otherwise m.Dims(p),
// up to the largest D whose verification is within fmap.VerifyBudget
// (fmap.MaxVerifiedDim).
func DimsFor(m Method, p *fmap.Problem) Dims {
	if p.Kernel.Type == fmap.Hellinger {
		return Dims{Only: []int{1}, Why: "hellinger's exact map is 1-dimensional"}
	}
	d := m.Dims(p)
	top, why := fmap.MaxVerifiedDim(p)
	switch {
	case top < 1:
		return Dims{Only: []int{}, Why: why + ", more than the budget at any D"}
	case d.Max > 0 && d.Max <= top:
		return d
	}
	d.Max, d.MaxWhy, d.MaxStated = top, why, false
	if d.Why == "" {
		d.Why = why
	}
	return d
}

// WhyNot says why the set lacks d: MaxWhy for a d above Max when it is
// set, else Why.
func (s Dims) WhyNot(d int) string {
	if s.Max > 0 && d > s.Max && s.MaxWhy != "" {
		return s.MaxWhy
	}
	return s.Why
}

// Has reports whether d is in the set.
func (s Dims) Has(d int) bool {
	switch {
	case d < 1, s.Max > 0 && d > s.Max:
		return false
	case s.Only != nil:
		return slices.Contains(s.Only, d)
	case s.Odd:
		return d%2 == 1
	case s.Even:
		return d%2 == 0
	}
	return true
}

// Refusal says why the set lacks d (WhyNot) and the dimensions nearest
// to it (Suggest), the latter left out when the reason already states
// them (MaxStated, for a d above a Max the set has): "harmonic makes at
// most 256 dimensions (…): at most 255", but "chum designs at most 128
// dimensions (…)", not "…: at most 128".
func (s Dims) Refusal(d int) string {
	why, near := s.WhyNot(d), s.Suggest(d)
	if near == "" || s.MaxStated && s.Max > 0 && d > s.Max && s.Has(s.Max) {
		return why
	}
	return why + ": " + near
}

// Suggest names the dimensions of the set nearest to d, e.g. "5 or 7", or
// "dim must be 1" for a set of one (for use after Why in an error message).
func (s Dims) Suggest(d int) string {
	switch {
	case s.Max > 0 && d > s.Max:
		top := s.Max
		for top > 1 && !s.Has(top) {
			top--
		}
		return fmt.Sprintf("at most %d", top)
	case s.Only != nil && len(s.Only) == 0:
		return "no dimension"
	case len(s.Only) == 1:
		return fmt.Sprintf("dim must be %d", s.Only[0])
	case s.Only != nil:
		parts := make([]string, len(s.Only))
		for i, v := range s.Only {
			parts[i] = fmt.Sprint(v)
		}
		return strings.Join(parts, " or ")
	case (s.Odd || s.Even) && d > 1:
		return fmt.Sprintf("%d or %d", d-1, d+1)
	case s.Odd:
		return "1"
	case s.Even:
		return "2"
	}
	return ""
}
