package homogeneous

import (
	"fmt"
	"math"
	"strings"

	"github.com/featmap/featmap/design"
)

// Kernel is one of the γ-homogeneous additive kernels of Vedaldi and
// Zisserman. With signature k(λ) it is
//
//	K_γ(x, y) = (xy)^{γ/2} · k(log(y/x)),   x, y > 0,   K_γ(0, ·) = 0,
//
// which for γ = 1 is 2xy/(x+y) (χ²), min(x, y) (intersection),
// (x/2)log₂((x+y)/x) + (y/2)log₂((x+y)/y) (Jensen–Shannon) and √(xy)
// (Hellinger). Its spectrum κ(ω) satisfies k(λ) = ∫ κ(ω) e^{−iωλ} dω.
type Kernel string

// The homogeneous kernels.
const (
	// Chi2 is the additive χ² kernel 2xy/(x+y): k(λ) = sech(λ/2),
	// κ(ω) = sech(πω).
	Chi2 Kernel = "chi2"
	// Intersection is min(x, y): k(λ) = e^{−|λ|/2}, κ(ω) = (2/π)/(1+4ω²).
	Intersection Kernel = "intersection"
	// JS is the Jensen–Shannon kernel: k(λ) = (e^{λ/2}/2)log₂(1+e^{−λ}) +
	// (e^{−λ/2}/2)log₂(1+e^{λ}), κ(ω) = (2/ln 4)·sech(πω)/(1+4ω²).
	JS Kernel = "js"
	// Hellinger is √(xy): k(λ) = 1, κ = δ (a Dirac delta at ω = 0).
	Hellinger Kernel = "hellinger"
)

// Kernels returns every homogeneous kernel, in a fixed order.
func Kernels() []Kernel { return []Kernel{Chi2, Intersection, JS, Hellinger} }

// ParseKernel returns the kernel with the given name (chi2, intersection,
// js or hellinger; surrounding space and letter case are ignored).
func ParseKernel(name string) (Kernel, error) {
	k := Kernel(strings.ToLower(strings.TrimSpace(name)))
	if err := k.check(); err != nil {
		return "", err
	}
	return k, nil
}

// check returns an error unless k is one of the homogeneous kernels.
func (k Kernel) check() error {
	switch k {
	case Chi2, Intersection, JS, Hellinger:
		return nil
	}
	return fmt.Errorf("homogeneous: unknown kernel %q (want chi2, intersection, js or hellinger)", string(k))
}

// String returns the kernel's name.
func (k Kernel) String() string { return string(k) }

// Design returns the descriptive design.Kernel of k with homogeneity degree
// gamma.
func (k Kernel) Design(gamma float64) design.Kernel {
	return design.Kernel{Type: string(k), Gamma: gamma}
}

const ln2 = math.Ln2

// Signature returns k(λ) = K_1(e^{λ/2}, e^{−λ/2}). It is even in λ and
// finite for every non-NaN λ, ±Inf included (the signatures of χ²,
// intersection and JS decay like e^{−|λ|/2} and underflow to 0 for very
// large |λ|; Hellinger's is 1). NaN gives NaN; an unknown kernel gives NaN.
func (k Kernel) Signature(lambda float64) float64 {
	if math.IsNaN(lambda) {
		return math.NaN()
	}
	a := math.Abs(lambda)
	switch k {
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
		return math.Exp(-a/2) / (2 * ln2) * (r + a + math.Log1p(u))
	case Hellinger:
		return 1
	}
	return math.NaN()
}

// Spectrum returns κ(ω), with k(λ) = ∫ κ(ω) e^{−iωλ} dω. It is even in ω,
// finite and nonnegative for every non-NaN ω. Hellinger's spectrum is the
// Dirac delta δ(ω); Spectrum returns +Inf at ω = 0 and 0 elsewhere for it
// (callers that need κ̂ must treat Hellinger separately). NaN gives NaN; an
// unknown kernel gives NaN.
func (k Kernel) Spectrum(omega float64) float64 {
	if math.IsNaN(omega) {
		return math.NaN()
	}
	w := math.Abs(omega)
	switch k {
	case Chi2:
		return sech(math.Pi * w)
	case Intersection:
		return (2 / math.Pi) / (1 + 4*w*w)
	case JS:
		return (2 / math.Log(4)) * sech(math.Pi*w) / (1 + 4*w*w)
	case Hellinger:
		if w == 0 {
			return math.Inf(1)
		}
		return 0
	}
	return math.NaN()
}

// sech returns 1/cosh(a) for a ≥ 0 without overflow.
func sech(a float64) float64 {
	e := math.Exp(-a)
	return 2 * e / (1 + e*e)
}

// Eval returns the kernel value K_γ(x, y) = (xy)^{γ/2}·k(log(y/x)) for
// x, y ≥ 0, with K_γ(0, ·) = K_γ(·, 0) = 0. gamma = 0 means the default 1.
// Negative, infinite or NaN inputs, a negative or non-finite gamma and an
// unknown kernel give NaN. The result does not overflow in intermediate
// steps (x and y may be as large as the largest float64).
func (k Kernel) Eval(x, y, gamma float64) float64 {
	if gamma == 0 {
		gamma = 1
	}
	if k.check() != nil || !(gamma > 0) || math.IsInf(gamma, 1) ||
		!(x >= 0) || !(y >= 0) || math.IsInf(x, 1) || math.IsInf(y, 1) {
		return math.NaN()
	}
	if x == 0 || y == 0 {
		return 0
	}
	if gamma == 1 {
		// Direct forms: exact for intersection, a few ulps for χ² (and
		// several times faster than the signature form).
		switch k {
		case Intersection:
			return math.Min(x, y)
		case Chi2:
			// 2·min·(max/(x+y)): the ratio lies in [1/2, 1], so nothing
			// underflows unless the result does.
			if s := x + y; s <= math.MaxFloat64 {
				return 2 * math.Min(x, y) * (math.Max(x, y) / s)
			}
		case Hellinger:
			return math.Sqrt(x) * math.Sqrt(y)
		}
	}
	return k.evalSignature(x, y, gamma)
}

// evalSignature returns (xy)^{γ/2}·k(log(y/x)) for x, y > 0.
func (k Kernel) evalSignature(x, y, gamma float64) float64 {
	amp := math.Pow(x, gamma/2) * math.Pow(y, gamma/2)
	if k == Hellinger {
		return amp
	}
	return amp * k.Signature(logRatio(y, x))
}

// logRatio returns log(y/x) for x, y > 0, accurately when y/x is a normal
// float64 and without overflow or underflow otherwise.
func logRatio(y, x float64) float64 {
	r := y / x
	if r >= 0x1p-1022 && r <= math.MaxFloat64 {
		return math.Log(r)
	}
	return math.Log(y) - math.Log(x)
}

// normGamma returns the homogeneity degree with 0 meaning the default 1, or
// an error for a negative or non-finite value.
func normGamma(gamma float64) (float64, error) {
	if gamma == 0 {
		return 1, nil
	}
	if !(gamma > 0) || math.IsInf(gamma, 1) {
		return 0, fmt.Errorf("homogeneous: gamma %v: the homogeneity degree must be positive and finite", gamma)
	}
	return gamma, nil
}
