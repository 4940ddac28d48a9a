package homogeneous

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/design"
)

// Defaults of the log-domain design problem: the pool reaches ω = 5 and Z is
// spaced 0.01 in λ (lp-design.md: enough for 8-bit data, where optimising
// on this grid is exact).
const (
	DesignOmegaMax = 5
	DesignZStep    = 0.01
)

// DesignProblem returns the signature-fitting problem that Chum's LP
// designer (and the harmonic projection) solve for a homogeneous kernel
// (Chum §5): the signature k(λ) on [0, M], M = log(hi/m) with m the smallest
// nonzero input, and the weight that turns the weighted signature error into
// the kernel error the measure asks for: w_A = e^{−γλ/2} for the absolute
// error (eq. 16), w_R = 1/k(λ) for the relative error (eq. 18), 1 for the
// uniform signature error. The problem's Reference (NewReference) measures
// the designed maps on the domain.
//
// p.Dim is not used: the designer is given the dimension per design.
func DesignProblem(p Problem, measure design.Measure, norm design.Norm) (*design.Problem, error) {
	if p.Dim == 0 {
		p.Dim = 1
	}
	p, err := p.normalized()
	if err != nil {
		return nil, err
	}
	ref, err := NewReference(p.Kernel, p.Gamma, p.Domain, measure)
	if err != nil {
		return nil, err
	}
	m, err := smallestNonzero(p.Domain)
	if err != nil {
		return nil, err
	}
	k, g := p.Kernel, p.Gamma
	dp := &design.Problem{
		Kernel:    k.Design(g),
		Domain:    copyDomain(p.Domain),
		Transform: design.Log,
		Gamma:     g,
		Negative:  p.Negative,
		Signature: k.Signature,
		M:         math.Log(p.Domain.Hi[0] / m),
		Norm:      norm,
		OmegaMax:  DesignOmegaMax,
		ZStep:     DesignZStep,
		Reference: ref,
	}
	switch measure {
	case design.Absolute:
		dp.Weight = func(l float64) float64 { return math.Exp(-g * l / 2) }
	case design.Relative:
		dp.Weight = func(l float64) float64 { return 1 / k.Signature(l) }
	case design.Uniform:
		dp.Weight = func(float64) float64 { return 1 }
	default:
		return nil, fmt.Errorf("homogeneous: unknown error measure %q", measure)
	}
	if p.Domain.Integer {
		dp.Exact = exactSet(p.Domain, g, measure, k)
	}
	return dp, dp.Check()
}

// MaxExactInput is the largest integer-domain end for which DesignProblem
// enumerates the attainable signature arguments (about 0.3·hi² of them);
// larger integer domains are optimised on the grid.
const MaxExactInput = 1024

// exactSet enumerates λ = log(b/a) over the reduced fractions b/a ≥ 1 of an
// integer domain {lo..hi} with the exact weight of each: for the absolute
// error the largest amplitude (xy)^{γ/2}/hi^γ over the pairs (x, y) =
// (ma, mb) in the domain, for the relative error 1/k(λ), else 1.
func exactSet(dom design.Domain, gamma float64, measure design.Measure, k Kernel) *design.ExactSet {
	lo, hi := int(math.Max(dom.Lo[0], 1)), int(dom.Hi[0])
	if hi > MaxExactInput {
		return nil
	}
	type point struct{ l, w float64 }
	var pts []point
	for a := 1; a <= hi; a++ { // a reduced ratio's a may lie below lo: (2, 4) → 1/2

		for b := a; b <= hi; b++ {
			if gcd(a, b) != 1 {
				continue
			}
			mMin, mMax := (lo+a-1)/a, hi/b
			if mMin > mMax {
				continue
			}
			l := math.Log(float64(b) / float64(a))
			w := 1.0
			switch measure {
			case design.Absolute:
				w = math.Pow(float64(mMax*mMax)*float64(a)*float64(b), gamma/2) / math.Pow(float64(hi), gamma)
			case design.Relative:
				w = 1 / k.Signature(l)
			}
			pts = append(pts, point{l, w})
		}
	}
	slices.SortFunc(pts, func(p, q point) int { return cmp.Compare(p.l, q.l) })
	e := &design.ExactSet{Lambda: make([]float64, len(pts)), Weight: make([]float64, len(pts))}
	for i, p := range pts {
		e.Lambda[i], e.Weight[i] = p.l, p.w
	}
	return e
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
