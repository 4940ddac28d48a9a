package fmap

import (
	"fmt"
	"math"
)

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
	// Nu is the Matérn kernel's smoothness ν.
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

// ShiftInvariant reports whether k is a function of the differences
// t(x_i) − t(y_i): t = x for RBF, the Laplacian and the Matérn kernels,
// t = log(x + c) for the skewed kernels. All but Matérn are products over
// the axes of a function of one difference; Matérn's is a function of the
// scaled Euclidean norm of the differences.
func (k Kernel) ShiftInvariant() bool { return owns(k.Type, "sigma") }

// T is the argument t(x) of a shift-invariant kernel's signature: x, or
// log(x + c) for the skewed kernels.
func (k Kernel) T(x float64) float64 {
	if k.Skewed() {
		return math.Log(x + k.C)
	}
	return x
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
	if f := FamilyOf(k.Type); f != nil {
		return f.eval(k, x, y)
	}
	return rbfFamily{}.eval(k, x, y)
}

// Signature returns the signature k(λ) of the kernel: for a homogeneous
// kernel the one-dimensional k(λ[0]) with λ = log(y/x), for RBF
// Π_i exp(−λ_i²/(2σ_i²)) with λ = x − y, for the skewed kernels
// Π_i sech(σ_i λ_i) and exp(−Σ_i σ_i|λ_i|) with λ = t(x) − t(y), for the
// Laplacian exp(−Σ_i |λ_i|/σ_i) and for Matérn its function of
// r = ‖λ/σ‖, λ = x − y. exp-χ² and the polynomial kernel have none (NaN).
func (k Kernel) Signature(lambda []float64) float64 {
	if f := FamilyOf(k.Type); f != nil {
		return f.signature(k, lambda)
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
	if f := FamilyOf(k.Type); f != nil {
		return f.describe(k)
	}
	return fmt.Sprintf("%s kernel (σ = %s)", k.Type, sigmaWords(k))
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
