package homogeneous

import (
	"fmt"
	"math"

	"github.com/featmap/featmap/design"
)

// IntervalInputs is the number of log-spaced verification inputs NewReference
// places on an interval domain (besides 0).
const IntervalInputs = 1500

// DenseStep is the largest λ step of NewReference's dense signature grid,
// and DenseMinPoints its smallest number of points.
const (
	DenseStep      = 0.001
	DenseMinPoints = 2001
)

// NewReference returns what design.Verify needs to measure a map of the
// homogeneous kernel k with degree gamma (0 means 1) on the one-dimensional
// domain dom, for the error measure (absolute, relative or uniform):
//
//   - Exact is K_γ(x, y) (Kernel.Eval);
//   - Inputs are every integer lo..hi for an integer domain (0 included
//     when lo = 0), or {0} ∪ 1500 log-spaced points from lo to hi for an
//     interval, whose lo must then be positive (it is the smallest nonzero
//     input);
//   - Signature is k(λ), and Weight the error weight of the measure:
//     e^{−γλ/2} for the absolute error (w_A: at y = hi, x = y·e^{−λ} the
//     kernel error is (xy)^{γ/2}|k − k̂| = hi^γ·e^{−γλ/2}|k − k̂|), 1/k(λ)
//     for the relative error (w_R), 1 for the uniform signature error;
//   - Dense is λ on [0, M], M = log(hi/m) with m the smallest nonzero
//     input, in steps of at most 0.001 and at least 2001 points.
func NewReference(k Kernel, gamma float64, dom design.Domain, measure design.Measure) (*design.Reference, error) {
	if err := k.check(); err != nil {
		return nil, err
	}
	g, err := normGamma(gamma)
	if err != nil {
		return nil, err
	}
	if err := checkDomain(dom); err != nil {
		return nil, err
	}
	m, err := smallestNonzero(dom)
	if err != nil {
		return nil, err
	}
	lo, hi := dom.Lo[0], dom.Hi[0]
	ref := &design.Reference{
		Measure: measure,
		Exact: func(x, y []float64) float64 {
			return k.Eval(x[0], y[0], g)
		},
		Signature: func(l []float64) float64 { return k.Signature(l[0]) },
	}
	switch measure {
	case design.Absolute:
		ref.Weight = func(l []float64) float64 { return math.Exp(-g * math.Abs(l[0]) / 2) }
	case design.Relative:
		ref.Weight = func(l []float64) float64 { return 1 / k.Signature(l[0]) }
	case design.Uniform:
		ref.Weight = func([]float64) float64 { return 1 }
	default:
		return nil, fmt.Errorf("homogeneous: unknown error measure %q (want %q, %q or %q)",
			string(measure), string(design.Absolute), string(design.Relative), string(design.Uniform))
	}
	if dom.Integer {
		n := int(hi-lo) + 1
		if n > 1<<16 {
			return nil, fmt.Errorf("homogeneous: integer domain {%g..%g} has %d inputs, more than the %d a pairwise verification can take", lo, hi, n, 1<<16)
		}
		ref.Inputs = make([][]float64, n)
		for i := range ref.Inputs {
			ref.Inputs[i] = []float64{lo + float64(i)}
		}
		ref.InputsOn = fmt.Sprintf("x, y ∈ {%g..%g}", lo, hi)
	} else {
		ref.Inputs = make([][]float64, 0, IntervalInputs+1)
		ref.Inputs = append(ref.Inputs, []float64{0})
		for _, x := range logSpace(lo, hi, IntervalInputs) {
			ref.Inputs = append(ref.Inputs, []float64{x})
		}
		ref.InputsOn = fmt.Sprintf("x, y ∈ {0} ∪ %d log-spaced points in [%g, %g]", IntervalInputs, lo, hi)
	}
	M := math.Log(hi / m)
	n := max(DenseMinPoints, int(math.Ceil(M/DenseStep))+1)
	ref.Dense = make([][]float64, n)
	for i := range ref.Dense {
		ref.Dense[i] = []float64{M * float64(i) / float64(n-1)}
	}
	ref.DenseOn = fmt.Sprintf("%d points of λ ∈ [0, log(%g/%g)] = [0, %.6g], step %.3g", n, hi, m, M, M/float64(n-1))
	return ref, nil
}

// logSpace returns n ≥ 2 points from lo to hi (both > 0) evenly spaced in
// log, with the ends exact.
func logSpace(lo, hi float64, n int) []float64 {
	out := make([]float64, n)
	r := math.Log(hi / lo)
	for i := range out {
		out[i] = lo * math.Exp(r*float64(i)/float64(n-1))
	}
	out[0], out[n-1] = lo, hi
	return out
}

// GridG returns the error grid G of the notes (formulas.md §1.3): the 61
// log-spaced points 10^{−6+i/10}, i = 0..60, from 1e-6 to 1, followed by
// i/20, i = 1..20. The two parts share 0.1 and 1, which are kept twice (a
// maximum over G is unaffected).
func GridG() []float64 {
	g := make([]float64, 0, 81)
	for i := 0; i <= 60; i++ {
		g = append(g, math.Pow(10, -6+float64(i)/10))
	}
	for i := 1; i <= 20; i++ {
		g = append(g, float64(i)/20)
	}
	return g
}
