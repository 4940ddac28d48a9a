package design

import (
	"fmt"
	"slices"
	"strings"

	"github.com/featmap/featmap/fmap"
)

// Dims is the set of output dimensions a method makes for a problem.
type Dims struct {
	// Only, if not nil, lists every dimension it makes.
	Only []int
	// Odd and Even restrict it to odd or to even dimensions.
	Odd, Even bool
	// Max, if positive, is the largest dimension (a size limit).
	Max int
	// Min, if above 1, is the smallest dimension but for those Below
	// lists (the polynomial kernel's constant map at D = 1 below the
	// dimensions its every degree needs).
	Min   int
	Below []int
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
// is gained: at D = 255 vz's and li's χ² maps are at float64's rounding
// (docs/results.md, "Near the limits", gives the measured errors).
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
	top, why := MaxVerifiedDim(m, p)
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

// EvalCoster is implemented by methods whose maps cost more than D·n
// multiply-adds per input to evaluate (a D × D projection, more random
// features than D, an inner map per coordinate): EvalCost says how much,
// for the verification budget (fmap.VerifyCostOf).
type EvalCoster interface {
	EvalCost(p *fmap.Problem) *fmap.EvalCost
}

// MaxVerifiedDim is fmap.MaxVerifiedDimOf for m's maps of p: the largest D
// whose verification is within the budget, priced by m's EvalCost when it
// has one, and why a larger one is not.
func MaxVerifiedDim(m Method, p *fmap.Problem) (int, string) {
	if ec, ok := m.(EvalCoster); ok {
		return fmap.MaxVerifiedDimOf(p, ec.EvalCost(p))
	}
	return fmap.MaxVerifiedDim(p)
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
	case d < s.Min && !slices.Contains(s.Below, d):
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
	case d < s.Min && !slices.Contains(s.Below, d):
		var low []string
		for _, b := range s.Below {
			low = append(low, fmt.Sprint(b))
		}
		if len(low) > 0 {
			return fmt.Sprintf("%s or at least %d", strings.Join(low, " or "), s.Min)
		}
		return fmt.Sprintf("at least %d", s.Min)
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
