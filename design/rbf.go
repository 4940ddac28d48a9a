package design

import (
	"fmt"
	"math"
)

// RBFInputs is the number of equally spaced verification inputs RBFProblem
// places on an interval domain.
const RBFInputs = 2001

// RBFProblem returns the one-dimensional shift-invariant problem for the RBF
// kernel k(x, y) = exp(−(x − y)²/(2σ²)) on dom: the signature
// k(λ) = exp(−λ²/(2σ²)) on [0, M], M = hi − lo (Chum §2), weighted by 1 for
// the uniform and absolute measures (which coincide for a shift-invariant
// kernel) and by 1/k(λ) for the relative one. The pool reaches 5/σ, where
// the spectrum has fallen to e^{−12.5}; Z has at least 20 points per period
// of the pool's largest frequency and at least 200 points.
func RBFProblem(sigma float64, dom Domain, measure Measure, norm Norm) (*Problem, error) {
	if !(sigma > 0) || math.IsInf(sigma, 0) {
		return nil, fmt.Errorf("design: RBF sigma %v must be positive and finite", sigma)
	}
	if len(dom.Lo) != 1 || len(dom.Hi) != 1 || !(dom.Hi[0] > dom.Lo[0]) || math.IsInf(dom.Hi[0]-dom.Lo[0], 0) {
		return nil, fmt.Errorf("design: RBF domain %v..%v is not a finite one-dimensional interval", dom.Lo, dom.Hi)
	}
	lo, hi := dom.Lo[0], dom.Hi[0]
	M := hi - lo
	s2 := 2 * sigma * sigma
	sig := func(l float64) float64 { return math.Exp(-l * l / s2) }
	p := &Problem{
		Kernel:    Kernel{Type: "rbf", Sigma: []float64{sigma}},
		Domain:    Domain{Integer: dom.Integer, Lo: []float64{lo}, Hi: []float64{hi}},
		Transform: Identity,
		Signature: sig,
		M:         M,
		Norm:      norm,
		OmegaMax:  5 / sigma,
		ZStep:     math.Min(2*math.Pi/(20*5/sigma), M/200),
	}
	if dom.Integer {
		p.ZStep = 1 // Z is exactly the attainable differences 0..hi−lo
	}
	var w func(float64) float64
	switch measure {
	case Uniform, Absolute:
		w = func(float64) float64 { return 1 }
	case Relative:
		w = func(l float64) float64 { return 1 / sig(l) }
	default:
		return nil, fmt.Errorf("design: unknown error measure %q", measure)
	}
	p.Weight = w
	ref := &Reference{
		Measure:   measure,
		Exact:     func(x, y []float64) float64 { d := x[0] - y[0]; return math.Exp(-d * d / s2) },
		Signature: func(l []float64) float64 { return sig(l[0]) },
		Weight:    func(l []float64) float64 { return w(l[0]) },
	}
	if dom.Integer {
		n := int(M) + 1
		if n > 4096 {
			return nil, fmt.Errorf("design: integer domain {%g..%g} has %d inputs, more than the 4096 a pairwise verification takes", lo, hi, n)
		}
		for i := range n {
			ref.Inputs = append(ref.Inputs, []float64{lo + float64(i)})
		}
		ref.InputsOn = fmt.Sprintf("x, y ∈ {%g..%g}", lo, hi)
	} else {
		for i := range RBFInputs {
			ref.Inputs = append(ref.Inputs, []float64{lo + M*float64(i)/(RBFInputs-1)})
		}
		ref.InputsOn = fmt.Sprintf("x, y on %d equally spaced points of [%g, %g]", RBFInputs, lo, hi)
	}
	ref.Dense, ref.DenseOn = DenseGrid(M, p.ZStep)
	p.Reference = ref
	return p, p.Check()
}
