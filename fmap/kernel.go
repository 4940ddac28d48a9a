package fmap

import (
	"fmt"
	"math"
	"strings"
)

// The kernel types.
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
	// RBF is the multiplicative Gaussian kernel
	// Π_i exp(−(x_i − y_i)²/(2σ_i²)) with a diagonal Σ.
	RBF = "rbf"
	// SkewedChi2 is Π_i sech(σ_i(log(x_i+c) − log(y_i+c))); σ = ½ gives
	// 2√((x+c)(y+c))/(x+y+2c) (Li, Ionescu, Sminchisescu 2010; Băzăvan et
	// al., Table 1).
	SkewedChi2 = "skewed-chi2"
	// SkewedIntersection is Π_i min(((x_i+c)/(y_i+c))^σ_i, ((y_i+c)/(x_i+c))^σ_i)
	// = exp(−Σ_i σ_i|log(x_i+c) − log(y_i+c)|).
	SkewedIntersection = "skewed-intersection"
	// ExpChi2 is exp(−β Σ_i (x_i−y_i)²/(x_i+y_i)), terms with x_i + y_i = 0
	// being 0 (scikit-learn's chi2_kernel; Li et al., Algorithm 2).
	ExpChi2 = "exp-chi2"
	// Poly is the polynomial kernel (scale·x·y + offset)^degree
	// (scikit-learn's polynomial_kernel with gamma = scale, coef0 =
	// offset), degree an integer 1..MaxPolyDegree, scale > 0, offset ≥ 0.
	Poly = "poly"
	// Laplacian is exp(−Σ_i |x_i − y_i|/σ_i), one σ per input axis: the
	// L1 distance, scaled per axis.
	Laplacian = "laplacian"
	// Matern is scikit-learn's Matern(length_scale = σ, nu = ν) of the
	// scaled Euclidean distance r = ‖(x − y)/σ‖ (one σ per axis), ν in
	// {0.5, 1.5, 2.5}: e^{−r}, (1 + √3r)e^{−√3r}, (1 + √5r + 5r²/3)e^{−√5r}.
	Matern = "matern"
)

// KernelTypes lists every kernel type the spec decoder reads, in
// documentation order.
func KernelTypes() []string {
	return []string{Chi2, Intersection, JS, Hellinger, RBF, SkewedChi2, SkewedIntersection, ExpChi2, Poly, Laplacian, Matern}
}

// HomogeneousTypes lists the γ-homogeneous kernel types.
func HomogeneousTypes() []string { return []string{Chi2, Intersection, JS, Hellinger} }

// Kernel is the kernel a map approximates.
//
// A homogeneous kernel (χ², intersection, Jensen–Shannon, Hellinger) of
// degree γ is, per input coordinate,
//
//	K_γ(x, y) = (xy)^{γ/2} · k(log(y/x)),   x, y > 0,   K_γ(0, ·) = 0,
//
// with the signature k(λ) of its type (Vedaldi–Zisserman, TPAMI 2012, §3),
// summed over the coordinates of vector inputs (an additive kernel). The
// RBF kernel is exp(−Σ_i (x_i − y_i)²/(2σ_i²)), with one σ per input axis.
type Kernel struct {
	Type  string    `json:"type"`
	Gamma float64   `json:"gamma,omitempty"` // homogeneity degree γ (homogeneous kernels; 0 means 1)
	Sigma []float64 `json:"sigma,omitempty"` // RBF width, or skewed kernels' σ, per input axis
	C     float64   `json:"c,omitempty"`     // skewed kernels' offset c
	Beta  float64   `json:"beta,omitempty"`  // exp-χ²'s β
	// Degree, Scale and Offset are the polynomial kernel's (Poly).
	Degree int     `json:"degree,omitempty"`
	Scale  float64 `json:"scale,omitempty"`
	Offset float64 `json:"offset,omitempty"`
	// Nu is the Matérn kernel's smoothness ν (Matern).
	Nu float64 `json:"nu,omitempty"`
	// Parts are the terms of a Combined kernel (nil for the others).
	Parts []KernelPart `json:"parts,omitempty"`
}

// Clone returns a deep copy of k.
func (k Kernel) Clone() Kernel {
	k.Sigma = append([]float64(nil), k.Sigma...)
	if k.Parts != nil {
		parts := make([]KernelPart, len(k.Parts))
		for i, p := range k.Parts {
			p.Kernel = p.Kernel.Clone()
			parts[i] = p
		}
		k.Parts = parts
	}
	return k
}

// Homogeneous reports whether k is one of the γ-homogeneous kernels.
func (k Kernel) Homogeneous() bool {
	switch k.Type {
	case Chi2, Intersection, JS, Hellinger:
		return true
	}
	return false
}

// Skewed reports whether k is a skewed kernel: shift-invariant in
// t = log(x + c) per axis.
func (k Kernel) Skewed() bool { return k.Type == SkewedChi2 || k.Type == SkewedIntersection }

// ShiftInvariant reports whether k is a function of the differences
// t(x_i) − t(y_i): t = x for RBF, the Laplacian and the Matérn kernels,
// t = log(x + c) for the skewed kernels. All but Matérn are products over
// the axes of a function of one difference; Matérn's is a function of the
// scaled Euclidean norm of the differences.
func (k Kernel) ShiftInvariant() bool {
	return k.Type == RBF || k.Skewed() || k.Type == Laplacian || k.Type == Matern
}

// T is the argument t(x) of a shift-invariant kernel's signature: x, or
// log(x + c) for the skewed kernels.
func (k Kernel) T(x float64) float64 {
	if k.Skewed() {
		return math.Log(x + k.C)
	}
	return x
}

// gamma is γ with 0 meaning 1.
func (k Kernel) gamma() float64 {
	if k.Gamma == 0 {
		return 1
	}
	return k.Gamma
}

// MinSigma and MaxSigma bound a kernel's width σ: the kernel divides by
// σ², which float64 holds (a normal number, finite) only between them;
// below, exp(−0/0) made the kernel NaN at x = y. SigmaRange says so.
const (
	MinSigma   = 1e-150
	MaxSigma   = 1e150
	SigmaRange = "sigma must lie in [1e-150, 1e150], where σ² is a normal float64 (the kernel divides by it)"
)

// Check reports why k is not a kernel of n input axes, or nil: every key
// in its range and no key of another kernel (checkKeys), the errors a
// *KeyError naming the key.
func (k Kernel) Check(n int) error { return k.checkKeys(n) }

// Eval returns the exact kernel K(x, y) for inputs of equal length: the sum
// of the per-coordinate K_γ for a homogeneous kernel, the product of the
// per-axis factors for RBF and the skewed kernels, exp-χ² for exp-chi2.
func (k Kernel) Eval(x, y []float64) float64 {
	s := 0.0
	switch {
	case k.Homogeneous():
		for i := range x {
			s += k.Eval1(x[i], y[i])
		}
		return s
	case k.Type == ExpChi2:
		for i := range x {
			if t := x[i] + y[i]; t != 0 {
				d := x[i] - y[i]
				s += d * d / t
			}
		}
		return math.Exp(-k.Beta * s)
	case k.Type == Combined:
		return k.evalCombined(x, y)
	case k.Type == Poly:
		return k.evalPoly(x, y)
	case k.Type == Laplacian:
		for i := range x {
			s += math.Abs(x[i]-y[i]) / k.Sigma[i]
		}
		return math.Exp(-s)
	case k.Type == Matern:
		return k.maternOf(x, y)
	case k.Skewed():
		l := make([]float64, len(x))
		for i := range x {
			a, b := x[i]+k.C, y[i]+k.C
			l[i] = logRatio(max(a, b), min(a, b)) // ≥ 0 either way round: symmetric to the bit
		}
		return k.Signature(l)
	}
	for i := range x {
		d := x[i] - y[i]
		s += d * d / (2 * k.Sigma[i] * k.Sigma[i])
	}
	return math.Exp(-s)
}

// Signature returns the signature k(λ) of the kernel: for a homogeneous
// kernel the one-dimensional k(λ[0]) with λ = log(y/x), for RBF
// Π_i exp(−λ_i²/(2σ_i²)) with λ = x − y, for the skewed kernels
// Π_i sech(σ_i λ_i) and exp(−Σ_i σ_i|λ_i|) with λ = t(x) − t(y), for the
// Laplacian exp(−Σ_i |λ_i|/σ_i) and for Matérn its function of
// r = ‖λ/σ‖, λ = x − y. exp-χ² and the polynomial kernel have none (NaN).
func (k Kernel) Signature(lambda []float64) float64 {
	s := 0.0
	switch k.Type {
	case Chi2, Intersection, JS, Hellinger:
		return homogeneousSignature(k.Type, lambda[0])
	case RBF:
		for i, v := range lambda {
			s += v * v / (2 * k.Sigma[i] * k.Sigma[i])
		}
		return math.Exp(-s)
	case SkewedChi2:
		p := 1.0
		for i, v := range lambda {
			p *= homogeneousSignature(Chi2, 2*k.Sigma[i]*v) // sech(a/2) at a = 2σλ
		}
		return p
	case SkewedIntersection:
		for i, v := range lambda {
			s += k.Sigma[i] * math.Abs(v)
		}
		return math.Exp(-s)
	case Laplacian:
		for i, v := range lambda {
			s += math.Abs(v) / k.Sigma[i]
		}
		return math.Exp(-s)
	case Matern:
		for i, v := range lambda {
			u := v / k.Sigma[i]
			s += u * u
		}
		return MaternOf(k.Nu, math.Sqrt(s))
	}
	return math.NaN()
}

// Signature1 returns the signature of a one-dimensional kernel at λ (see
// Signature). It is even in λ and finite for every non-NaN λ, ±Inf
// included; NaN gives NaN, and so does an unknown kernel type.
func (k Kernel) Signature1(lambda float64) float64 {
	if k.Homogeneous() {
		return homogeneousSignature(k.Type, lambda)
	}
	if len(k.Sigma) == 0 || math.IsNaN(lambda) {
		return math.NaN()
	}
	if k.Type == RBF {
		return math.Exp(-lambda * lambda / (2 * k.Sigma[0] * k.Sigma[0]))
	}
	return k.Signature([]float64{lambda})
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
	amp := math.Pow(x, gamma/2) * math.Pow(y, gamma/2)
	if k.Type == Hellinger {
		return amp
	}
	return amp * homogeneousSignature(k.Type, logRatio(y, x))
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

// Describe names the kernel in words, e.g. "χ² kernel (γ = 1)" or
// "RBF kernel (σ = 0.3, 0.2)".
func (k Kernel) Describe() string {
	names := map[string]string{
		Chi2: "χ²", Intersection: "intersection", JS: "Jensen–Shannon", Hellinger: "Hellinger", RBF: "RBF",
		SkewedChi2: "skewed χ²", SkewedIntersection: "skewed intersection", Laplacian: "Laplacian",
	}
	name := names[k.Type]
	if name == "" {
		name = k.Type
	}
	if k.Homogeneous() {
		return fmt.Sprintf("%s kernel (γ = %g)", name, k.gamma())
	}
	if k.Type == ExpChi2 {
		return fmt.Sprintf("exp-χ² kernel (β = %g)", k.Beta)
	}
	if k.Type == Poly {
		return fmt.Sprintf("polynomial kernel (scale·x·y + offset)^%d (scale = %g, offset = %g)", k.Degree, k.Scale, k.Offset)
	}
	if k.Type == Combined {
		return k.describeCombined()
	}
	sig := make([]string, len(k.Sigma))
	for i, v := range k.Sigma {
		sig[i] = fmt.Sprint(v)
	}
	if len(sig) > 4 && slicesEqual(k.Sigma) {
		sig = sig[:1]
	}
	if k.Skewed() {
		return fmt.Sprintf("%s kernel (σ = %s, c = %g)", name, strings.Join(sig, ", "), k.C)
	}
	if k.Type == Matern {
		return fmt.Sprintf("Matérn kernel (ν = %g, σ = %s)", k.Nu, strings.Join(sig, ", "))
	}
	return fmt.Sprintf("%s kernel (σ = %s)", name, strings.Join(sig, ", "))
}

// slicesEqual reports whether every value of v is the first.
func slicesEqual(v []float64) bool {
	for _, x := range v {
		if x != v[0] {
			return false
		}
	}
	return true
}
