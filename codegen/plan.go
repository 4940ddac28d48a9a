package codegen

import (
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/featmap/featmap/fmap"
)

// Limits of the fast paths. They keep the emitted file and its tables
// small enough to stay in cache and to compile quickly.
const (
	// maxTableEntries caps (hi−lo+1)·D of an integer-domain table.
	maxTableEntries = 1 << 15
	// maxPolyCoefs caps the coefficients of the piecewise polynomials
	// (2¹⁵ float64 numbers). The lowest degree that meets the target within it is
	// chosen: each degree costs D multiplications and D additions per
	// input, the cheapest lever. 1<<15 lets the 7-D χ² map on [1e-4, 1]
	// (generated/chi2_hist_d7.go) take degree 2 instead of degree 3, the
	// table from L1 to L2 size, for a faster NSlice (docs/gen.md, "Why
	// the generated code is fast", has the pieces, coefficients and
	// times).
	maxPolyCoefs = 1 << 15
	// maxLinearCoefs caps the coefficients of degree-1 pieces, whose error
	// falls only as the square of the width: under maxPolyCoefs alone the
	// axes of the 2-D test maps took 2048 linear pieces instead of 128
	// quadratic ones, and a file several times larger.
	maxLinearCoefs = 1 << 14
	// budgetFraction is the share of the design's measured error that the
	// evaluation error of a fast path may add (≤ 1e-3, docs/gen.md's promise).
	budgetFraction = 1e-3
	// safety divides the polynomial error target, covering the gap between
	// the check points and the true maximum between them.
	safety = 4
)

// plan is what Generate decided for one map: its names and dimensions,
// the error budget of its fast paths and its kind's emitter, which holds
// the rest (stage.go).
type plan struct {
	m    *fmap.Map
	v    *fmap.Verification // nil for the inner map of a per-coordinate stage
	info Info
	name string // N: the exported prefix
	priv string // the prefix of unexported names
	dim  int    // D
	in   int    // n
	// budget is the evaluation error a fast path may add to the kernel:
	// budgetFraction × the measured L∞ error.
	budget float64
	// kind emits the map's kind of stages.
	kind stageEmitter
}

// axis holds the distinct frequencies |ω| > 0 of one input axis.
type axis struct {
	freqs  []float64 // ascending
	ladder *ladder   // nil: one sincos per frequency
}

// ladder says that every frequency of an axis is an integer multiple of
// base: one sincos of base·t and the angle-addition recurrence give all.
type ladder struct {
	base float64
	mult []int // mult[j]·base = freqs[j]
	top  int   // the largest multiple
}

// newPlan checks a verified map and info and plans the map's emission by
// its kind's emitter.
func newPlan(vm fmap.Verified, info Info) (*plan, error) {
	m, v := vm.Map, vm.Verification
	if m == nil {
		return nil, errors.New("codegen: nil map")
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("codegen: invalid map: %w", err)
	}
	kind, err := kindOf(m)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, errors.New("codegen: the map has no measured errors (verify it with fmap.Verify first)")
	}
	if err := checkMeasurement(v.Reported); err != nil {
		return nil, err
	}
	if err := info.check(); err != nil {
		return nil, err
	}
	for i := range m.InDim {
		lo, hi := m.Domain.Lo[i], m.Domain.Hi[i]
		if !finite(lo) || !finite(hi) || !(lo <= hi) {
			return nil, fmt.Errorf("codegen: domain axis %d is [%v, %v]", i, lo, hi)
		}
	}
	p := &plan{m: m, v: v, info: info, name: info.Name, priv: private(info.Name), dim: m.Dim, in: m.InDim, kind: kind}
	p.budget = budgetFraction * v.Reported.LInf
	if err := kind.plan(p); err != nil {
		return nil, err
	}
	return p, nil
}

// noModel refuses a map with a model in a kind that emits none: a model
// is emitted with random-feature and Nyström maps only.
func noModel(p *plan) error {
	if p.m.Model != nil {
		return errors.New("codegen: a linear model is emitted with random-feature and Nyström maps only (a learn section's rff or nystroem design)")
	}
	return nil
}

func checkMeasurement(r fmap.Measurement) error {
	if !(r.LInf >= 0) || math.IsInf(r.LInf, 0) || !(r.RMS >= 0) || math.IsInf(r.RMS, 0) {
		return fmt.Errorf("codegen: the map's measured error (L∞ %v, RMS %v) is not finite and nonnegative", r.LInf, r.RMS)
	}
	return nil
}

func finite(v float64) bool { return math.Abs(v) <= math.MaxFloat64 }

// axesOf collects the distinct nonzero |ω| of every axis and looks for a
// harmonic ladder among them.
func axesOf(m *fourierMap) []axis {
	axes := make([]axis, m.InDim)
	for i := range axes {
		seen := map[float64]bool{}
		for _, t := range m.f.Terms {
			if w := math.Abs(t.Freq[i]); w != 0 && !seen[w] {
				seen[w] = true
				axes[i].freqs = append(axes[i].freqs, w)
			}
		}
		sort.Float64s(axes[i].freqs)
		axes[i].ladder = findLadder(axes[i].freqs)
	}
	return axes
}

// findLadder returns the ladder of freqs (ascending, positive) when all of
// them are integer multiples of freqs[0]/q for a small q, to within a few
// rounding errors, and the recurrence is cheaper than one sincos per
// frequency (at most 8 steps per frequency replaced).
func findLadder(freqs []float64) *ladder {
	if len(freqs) < 2 {
		return nil
	}
	maxTop := 8 * len(freqs)
	for q := 1; q <= 16; q++ {
		base := freqs[0] / float64(q)
		l := &ladder{base: base, mult: make([]int, len(freqs))}
		ok := true
		for j, w := range freqs {
			r := w / base
			n := math.Round(r)
			if n < 1 || n > float64(maxTop) || math.Abs(r-n) > 1e-14*n {
				ok = false
				break
			}
			l.mult[j] = int(n)
		}
		if ok {
			l.top = l.mult[len(l.mult)-1]
			return l
		}
	}
	return nil
}

// sincosCount is the number of sincos calls of the per-axis evaluation.
func sincosCount(axes []axis) int {
	n := 0
	for _, a := range axes {
		if a.ladder != nil {
			n++
		} else {
			n += len(a.freqs)
		}
	}
	return n
}

// isZeroFreq reports whether every coordinate of ω is 0.
func isZeroFreq(freq []float64) bool {
	for _, w := range freq {
		if w != 0 {
			return false
		}
	}
	return true
}

func nonzeroTerms(m *fourierMap) int {
	n := 0
	for _, t := range m.f.Terms {
		for _, w := range t.Freq {
			if w != 0 {
				n++
				break
			}
		}
	}
	return n
}

// amplitudeNorm2 returns the largest ‖Ψ(x)‖² over the domain of a Fourier
// or Modulation map: Σα, times hi^γ for the log transform.
func amplitudeNorm2(m *fourierMap) float64 {
	s := 0.0
	for _, t := range m.f.Terms {
		s += t.Weight
	}
	if m.f.Transform == fmap.Log {
		s *= math.Pow(m.Domain.Hi[0], m.f.Gamma)
	}
	return s
}

// table is Ψ at the integers lo..hi of a one-dimensional integer domain.
type table struct {
	lo, hi int
	rows   [][]float64 // rows[i] = Ψ(lo+i) by the reference evaluator
}

// newTable tabulates m over its integer domain, or returns nil when the
// domain is too large for a table.
func newTable(m *fmap.Map) *table {
	lo, hi := m.Domain.Lo[0], m.Domain.Hi[0]
	if lo != math.Trunc(lo) || hi != math.Trunc(hi) || math.Abs(lo) > 1<<30 || math.Abs(hi) > 1<<30 {
		return nil
	}
	n := int(hi-lo) + 1
	if n*m.Dim > maxTableEntries {
		return nil
	}
	t := &table{lo: int(lo), hi: int(hi), rows: make([][]float64, n)}
	for i := range t.rows {
		t.rows[i] = make([]float64, m.Dim)
		m.Eval(t.rows[i], []float64{lo + float64(i)})
	}
	return t
}
