package homogeneous

import (
	"fmt"
	"math"

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
	return dp, dp.Check()
}
