package homogeneous

import (
	"errors"
	"fmt"
	"math"

	"github.com/featmap/featmap/design"
)

// MaxDim is the largest output dimension the methods of this package make
// (a guard against runaway input: useful maps have tens of dimensions).
const MaxDim = 10000

// Problem is what every closed-form method of this package is asked for: a
// feature map of dimension Dim for a homogeneous kernel on a one-dimensional
// domain of nonnegative inputs.
type Problem struct {
	// Kernel is the kernel to approximate.
	Kernel Kernel
	// Gamma is the homogeneity degree γ; 0 means 1.
	Gamma float64
	// Domain is the input domain, one axis with 0 ≤ Lo < Hi (integers when
	// Domain.Integer is set).
	Domain design.Domain
	// Dim is the target output dimension D, 1..MaxDim.
	Dim int
	// Negative is what the map does with x < 0; "" means design.NegativeSign.
	Negative design.Negative
}

// normalized returns p with its defaults filled in, or an error naming what
// is wrong with it.
func (p Problem) normalized() (Problem, error) {
	if err := p.Kernel.check(); err != nil {
		return p, err
	}
	g, err := normGamma(p.Gamma)
	if err != nil {
		return p, err
	}
	p.Gamma = g
	if err := checkDomain(p.Domain); err != nil {
		return p, err
	}
	if p.Dim < 1 || p.Dim > MaxDim {
		return p, fmt.Errorf("homogeneous: dimension %d: the target dimension must be 1..%d", p.Dim, MaxDim)
	}
	switch p.Negative {
	case "":
		p.Negative = design.NegativeSign
	case design.NegativeSign, design.NegativeZero:
	default:
		return p, fmt.Errorf("homogeneous: unknown negative-input rule %q (want %q or %q)",
			string(p.Negative), string(design.NegativeSign), string(design.NegativeZero))
	}
	return p, nil
}

// newMap returns the parts of a homogeneous map common to every method.
func (p Problem) newMap(method string) *design.Map {
	return &design.Map{
		Kernel:   p.Kernel.Design(p.Gamma),
		InDim:    1,
		Domain:   copyDomain(p.Domain),
		Gamma:    p.Gamma,
		Negative: p.Negative,
		Method:   method,
	}
}

func copyDomain(d design.Domain) design.Domain {
	return design.Domain{
		Integer: d.Integer,
		Lo:      append([]float64(nil), d.Lo...),
		Hi:      append([]float64(nil), d.Hi...),
	}
}

// checkDomain checks that d is a one-dimensional domain of nonnegative
// inputs: finite 0 ≤ lo < hi, integers for an integer domain.
func checkDomain(d design.Domain) error {
	if len(d.Lo) != 1 || len(d.Hi) != 1 {
		return errors.New("homogeneous: the domain must have exactly one axis (an additive kernel acts per input dimension)")
	}
	lo, hi := d.Lo[0], d.Hi[0]
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return fmt.Errorf("homogeneous: domain [%v, %v] is not finite", lo, hi)
	}
	if lo < 0 {
		return fmt.Errorf("homogeneous: domain [%v, %v] has negative inputs; homogeneous kernels are defined for x ≥ 0", lo, hi)
	}
	if !(hi > lo) {
		return fmt.Errorf("homogeneous: domain [%v, %v] is empty or a single point (need lo < hi)", lo, hi)
	}
	if d.Integer && (lo != math.Trunc(lo) || hi != math.Trunc(hi)) {
		return fmt.Errorf("homogeneous: integer domain [%v, %v] has non-integer ends", lo, hi)
	}
	return nil
}

// smallestNonzero returns m, the smallest nonzero input of the domain: 1
// for an integer domain starting at 0, otherwise lo. An interval starting at
// 0 has none, which is an error.
func smallestNonzero(d design.Domain) (float64, error) {
	lo := d.Lo[0]
	switch {
	case lo > 0:
		return lo, nil
	case d.Integer:
		return 1, nil
	}
	return 0, fmt.Errorf("homogeneous: the interval [0, %v] has no smallest nonzero input; give the domain a positive lower end", d.Hi[0])
}
