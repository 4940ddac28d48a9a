package fmap

import (
	"fmt"
	"math"
)

// This file is the family of the γ-homogeneous kernels (Vedaldi and
// Zisserman, TPAMI 2012, §3): χ², intersection, Jensen–Shannon and
// Hellinger, summed over the coordinates of vector inputs.

// The homogeneous kernel types.
const (
	// Chi2 is the additive χ² kernel 2xy/(x+y): k(λ) = sech(λ/2).
	Chi2 = "chi2"
	// Intersection is min(x, y): k(λ) = e^{−|λ|/2}.
	Intersection = "intersection"
	// JS is the Jensen–Shannon kernel (x/2)log₂((x+y)/x) + (y/2)log₂((x+y)/y):
	// k(λ) = (e^{λ/2}/2)log₂(1+e^{−λ}) + (e^{−λ/2}/2)log₂(1+e^{λ}).
	JS = "js"
	// Hellinger is √(xy): k(λ) = 1.
	Hellinger = "hellinger"
)

// HomogeneousTypes lists the γ-homogeneous kernel types.
func HomogeneousTypes() []string { return []string{Chi2, Intersection, JS, Hellinger} }

// Homogeneous reports whether k is one of the γ-homogeneous kernels.
func (k Kernel) Homogeneous() bool {
	switch k.Type {
	case Chi2, Intersection, JS, Hellinger:
		return true
	}
	return false
}

// gamma is γ with 0 meaning 1.
func (k Kernel) gamma() float64 {
	if k.Gamma == 0 {
		return 1
	}
	return k.Gamma
}

// homogeneousFamily is the family of the homogeneous kernels: γ.
type homogeneousFamily struct{}

// Types are chi2, intersection, js and hellinger.
func (homogeneousFamily) Types() []string { return HomogeneousTypes() }

// Keys are gamma.
func (homogeneousFamily) Keys() []string { return []string{"gamma"} }

func (homogeneousFamily) named() string { return "the homogeneous kernels" }

func (homogeneousFamily) check(k Kernel, _ int) error {
	if g := k.gamma(); !(g > 0) || math.IsInf(g, 0) {
		return &KeyError{Key: "gamma", Msg: fmt.Sprintf("the homogeneity degree must be > 0 and finite, not %v", k.Gamma)}
	}
	return nil
}

func (homogeneousFamily) eval(k Kernel, x, y []float64) float64 {
	s := 0.0
	if k.gamma() == 1 && (k.Type == Chi2 || k.Type == Intersection) {
		// Eval1's direct forms for positive finite coordinates, the same
		// operations in the same order, without its checks per
		// coordinate; every other coordinate takes Eval1 itself.
		chi2 := k.Type == Chi2
		for i, a := range x {
			b := y[i]
			if a > 0 && b > 0 && a <= math.MaxFloat64 && b <= math.MaxFloat64 {
				if !chi2 {
					s += min(a, b)
					continue
				}
				if v, ok := chi2Direct(a, b); ok {
					s += float64(v) // rounded, as Eval1's result: never fused into the sum
					continue
				}
			}
			s += k.Eval1(a, b)
		}
		return s
	}
	for i := range x {
		s += k.Eval1(x[i], y[i])
	}
	return s
}

func (homogeneousFamily) signature(k Kernel, lambda []float64) float64 {
	return homogeneousSignature(k.Type, lambda[0])
}

func (homogeneousFamily) describe(k Kernel) string {
	names := map[string]string{Chi2: "χ²", Intersection: "intersection", JS: "Jensen–Shannon", Hellinger: "Hellinger"}
	return fmt.Sprintf("%s kernel (γ = %g)", names[k.Type], k.gamma())
}

// homogeneousSignature returns k(λ) = K_1(e^{λ/2}, e^{−λ/2}) of a
// homogeneous kernel type. The signatures of χ², intersection and JS decay
// like e^{−|λ|/2} and underflow to 0 for very large |λ|; Hellinger's is 1.
func homogeneousSignature(typ string, lambda float64) float64 {
	if math.IsNaN(lambda) {
		return math.NaN()
	}
	a := math.Abs(lambda)
	switch typ {
	case Chi2:
		// sech(a/2) = 2e^{−a/2}/(1+e^{−a}): no overflow for any a.
		return 2 * math.Exp(-a/2) / (1 + math.Exp(-a))
	case Intersection:
		return math.Exp(-a / 2)
	case JS:
		if math.IsInf(a, 1) {
			return 0
		}
		// With u = e^{−a}:
		//   (e^{a/2}/2)·log₂(1+u) + (e^{−a/2}/2)·log₂(1+e^{a})
		// = e^{−a/2}/(2 ln 2) · [log1p(u)/u + a + log1p(u)].
		u := math.Exp(-a)
		r := 1.0 // log1p(u)/u → 1 as u → 0
		if u > 0 {
			r = math.Log1p(u) / u
		}
		return math.Exp(-a/2) / (2 * math.Ln2) * (r + a + math.Log1p(u))
	case Hellinger:
		return 1
	}
	return math.NaN()
}

// chi2Direct is the χ² kernel of γ = 1 at x, y > 0 finite by its direct
// form 2·min·(max/(x+y)): the ratio lies in [1/2, 1], so nothing
// underflows unless the result does; ok is false where x + y overflows.
func chi2Direct(x, y float64) (v float64, ok bool) {
	lo, hi := x, y
	if y < x {
		lo, hi = y, x
	}
	s := x + y
	return 2 * lo * (hi / s), s <= math.MaxFloat64
}

// Eval1 returns the kernel of one input coordinate. For a homogeneous kernel
// it is K_γ(x, y) = (xy)^{γ/2}·k(log(y/x)) for x, y ≥ 0, with
// K_γ(0, ·) = K_γ(·, 0) = 0; negative, infinite or NaN inputs give NaN, and
// nothing overflows in intermediate steps (x and y may be as large as the
// largest float64). For RBF it is exp(−(x−y)²/(2σ²)) with the first σ.
func (k Kernel) Eval1(x, y float64) float64 {
	if !k.Homogeneous() {
		if len(k.Sigma) == 0 {
			return math.NaN()
		}
		d := x - y
		return math.Exp(-d * d / (2 * k.Sigma[0] * k.Sigma[0]))
	}
	gamma := k.gamma()
	if !(gamma > 0) || math.IsInf(gamma, 1) || !(x >= 0) || !(y >= 0) || math.IsInf(x, 1) || math.IsInf(y, 1) {
		return math.NaN()
	}
	switch k.Type {
	case Chi2, Intersection, JS, Hellinger:
	default:
		return math.NaN()
	}
	if x == 0 || y == 0 {
		return 0
	}
	if gamma == 1 {
		// Direct forms: exact for intersection, a few ulps for χ² (and
		// several times faster than the signature form).
		switch k.Type {
		case Intersection:
			return min(x, y)
		case Chi2:
			if v, ok := chi2Direct(x, y); ok {
				return v
			}
		case Hellinger:
			return math.Sqrt(x) * math.Sqrt(y)
		}
	}
	amp := math.Pow(x, gamma/2) * math.Pow(y, gamma/2)
	if k.Type == Hellinger {
		return amp
	}
	return amp * homogeneousSignature(k.Type, logRatio(y, x))
}
