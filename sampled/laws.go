package sampled

import (
	"context"
	"fmt"
	"math"

	"github.com/featmap/featmap/fmap"
)

// Law is a one-dimensional law of frequencies by its quantile h(u),
// u in (0, 1): a frequency is h(u) for u uniform (docs/formulas.md §5.1).
type Law func(u float64) float64

// spectrum is how rff draws the frequencies of a kernel's random
// features: by a product of one-axis laws (law, of width σ), or by a
// spherical law drawn whole (draw: a law that is no product over the
// inputs, such as Matérn's, matern.go; exp-χ²'s, law and draw nil, is the
// Gaussian of width 1/√(2β) on its inner map's outputs, which rff draws),
// and whether that law is spherical, so that orthogonal sampling draws it.
type spectrum struct {
	law       func(sigma float64) Law
	draw      drawFunc
	spherical bool
}

// drawFunc draws m frequencies of n inputs (row-major) of kernel k at
// widths sigmas (one per input) by the sampling named; the same arguments
// give the same frequencies.
type drawFunc func(ctx context.Context, k fmap.Kernel, m, n int, sigmas []float64, sampling string, seed int64) ([]float64, error)

// spectra are the spectral laws, keyed by kernel type: every kernel rff
// draws random features of has one (TestSpectra), and it is the one place
// that names a kernel's law. A new kernel's law is an entry here with its
// quantile, or the function that draws it whole in a file named for the
// kernel; see the package doc for what else it decides.
var spectra = map[string]spectrum{
	fmap.RBF:                {law: GaussianLaw, spherical: true},
	fmap.SkewedChi2:         {law: SkewedChi2Law},
	fmap.SkewedIntersection: {law: SkewedIntersectionLaw},
	fmap.Laplacian:          {law: LaplacianLaw},
	fmap.Matern:             {draw: maternDraw, spherical: true},
	fmap.ExpChi2:            {spherical: true},
}

// drawnTypes lists the kernel types of types that rff draws random
// features of (spectra has an entry), in that order; spherical keeps only
// those of a spherical law.
func drawnTypes(types []string, spherical bool) []string {
	var out []string
	for _, typ := range types {
		if sp, ok := spectra[typ]; ok && (sp.spherical || !spherical) {
			out = append(out, typ)
		}
	}
	return out
}

// KernelFrequencies draws m frequencies of n inputs (row-major) of the
// shift-invariant kernel k at widths sigmas, one per input: by its law
// drawn whole (a spectrum's draw) or by the product of its one-axis laws
// of those widths (KernelLaw, through FrequenciesContext, which gives
// orthogonal sampling's Gaussian the widths sigmas). rff draws a map's
// frequencies at the kernel's σ, learning σ the standard ones at σ = 1.
func KernelFrequencies(ctx context.Context, k fmap.Kernel, m, n int, sigmas []float64, sampling string, seed int64) ([]float64, error) {
	sp := spectra[k.Type]
	switch {
	case len(sigmas) != n:
		return nil, fmt.Errorf("sampled: %d widths for %d inputs", len(sigmas), n)
	case sp.draw != nil:
		return sp.draw(ctx, k, m, n, sigmas, sampling, seed)
	case sp.law == nil:
		return nil, fmt.Errorf("sampled: no spectral law for %s", k.Type)
	}
	laws := make([]Law, n)
	for j, s := range sigmas {
		laws[j] = sp.law(s)
	}
	return FrequenciesContext(ctx, m, n, laws, sigmas, sampling, seed)
}

// KernelLaw is the spectral law of the factor of width sigma that the
// shift-invariant kernel of type typ has on one input (spectra): the law
// rff draws that input's frequency coordinates from, and at σ = 1 the law
// of the standard frequencies package learn scales by the widths. ok is
// false for a kernel without one (exp-χ²'s random features are the
// Gaussian's, on its inner map's outputs; a law drawn whole, such as
// Matérn's, is not a product over the inputs: KernelFrequencies draws it).
func KernelLaw(typ string, sigma float64) (law Law, ok bool) {
	if sp := spectra[typ]; sp.law != nil {
		return sp.law(sigma), true
	}
	return nil, false
}

// Spherical reports whether kernel k's spectral law is spherical (after
// scaling each axis by its width), so that orthogonal sampling draws it:
// the Gaussian of rbf and exp-chi2 and Matérn's Gaussian scale mixture;
// not the Laplacian's and the skewed kernels' products of one-axis laws.
// A kernel without random features (spectra has no entry) counts as
// spherical: orthogonal is its default sampling, which nothing draws.
func Spherical(k fmap.Kernel) bool {
	sp, ok := spectra[k.Type]
	return !ok || sp.spherical
}

// LaplacianLaw is the law of the Laplacian factor exp(−|x − y|/σ): the
// Cauchy density (1/σ)/(π(1/σ² + ω²)) of scale 1/σ, the skewed
// intersection's law at rate 1/σ (SkewedIntersectionLaw).
func LaplacianLaw(sigma float64) Law { return SkewedIntersectionLaw(1 / sigma) }

// GaussianLaw is the law of the Gaussian factor exp(−(x−y)²/(2σ²)):
// h(u) = Φ⁻¹(u)/σ.
func GaussianLaw(sigma float64) Law {
	return func(u float64) float64 { return NormalQuantile(u) / sigma }
}

// SkewedChi2Law is the law of the skewed χ² factor sech(σ(t_x − t_y)),
// t = log(x + c): density (1/(2σ)) sech(πω/(2σ)), h(u) = (2σ/π) log tan(πu/2),
// evaluated as −h(1 − u) above ½, away from the pole of tan.
func SkewedChi2Law(sigma float64) Law {
	h := func(u float64) float64 { return 2 * sigma / math.Pi * math.Log(math.Tan(math.Pi*u/2)) }
	return func(u float64) float64 {
		if u > 0.5 {
			return -h(1 - u)
		}
		return h(u)
	}
}

// SkewedIntersectionLaw is the law of the skewed intersection factor
// exp(−σ|t_x − t_y|): the Cauchy density σ/(π(σ² + ω²)),
// h(u) = σ tan(π(u − ½)), evaluated as −σ/tan(πu) (or σ/tan(π(1 − u))
// above ½), which keeps full precision in the tails where π(u − ½) is
// near the pole ±π/2.
func SkewedIntersectionLaw(sigma float64) Law {
	return func(u float64) float64 {
		if u > 0.5 {
			return sigma / math.Tan(math.Pi*(1-u))
		}
		return -sigma / math.Tan(math.Pi*u)
	}
}

// NormalQuantile is Φ⁻¹(p), the standard normal quantile, for p in (0, 1)
// (Wichura's algorithm AS 241, PPND16: about 16 digits); ±Inf at 0 and 1,
// NaN outside.
func NormalQuantile(p float64) float64 {
	switch {
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case !(p > 0 && p < 1):
		return math.NaN()
	}
	q := p - 0.5
	if math.Abs(q) <= 0.425 {
		r := 0.180625 - float64(q*q)
		return float64(q*horner(r, 2.5090809287301226727e3, 3.3430575583588128105e4, 6.7265770927008700853e4,
			4.5921953931549871457e4, 1.3731693765509461125e4, 1.9715909503065514427e3, 1.3314166789178437745e2,
			3.3871328727963666080)) /
			horner(r, 5.2264952788528545610e3, 2.8729085735721942674e4, 3.9307895800092710610e4,
				2.1213794301586595867e4, 5.3941960214247511077e3, 6.8718700749205790830e2, 4.2313330701600911252e1, 1)
	}
	r := p
	if q > 0 {
		r = 1 - p
	}
	r = math.Sqrt(-math.Log(r))
	var v float64
	if r <= 5 {
		r -= 1.6
		v = horner(r, 7.74545014278341407640e-4, 2.27238449892691845833e-2, 2.41780725177450611770e-1,
			1.27045825245236838258, 3.64784832476320460504, 5.76949722146069140550, 4.63033784615654529590,
			1.42343711074968357734) /
			horner(r, 1.05075007164441684324e-9, 5.47593808499534494600e-4, 1.51986665636164571966e-2,
				1.48103976427480074590e-1, 6.89767334985100004550e-1, 1.67638483018380384940, 2.05319162663775882187, 1)
	} else {
		r -= 5
		v = horner(r, 2.01033439929228813265e-7, 2.71155556874348757815e-5, 1.24266094738807843860e-3,
			2.65321895265761230930e-2, 2.96560571828504891230e-1, 1.78482653991729133580, 5.46378491116411436990,
			6.65790464350110377720) /
			horner(r, 2.04426310338993978564e-15, 1.42151175831644588870e-7, 1.84631831751005468180e-5,
				7.86869131145613259100e-4, 1.48753612908506148525e-2, 1.36929880922735805310e-1, 5.99832206555887937690e-1, 1)
	}
	if q < 0 {
		return -v
	}
	return v
}

// horner evaluates the polynomial with coefficients c, highest degree
// first, at r. Every product is rounded before it is added (an explicit
// conversion, which Go never fuses into a multiply-add), so the result is
// the same on every platform.
func horner(r float64, c ...float64) float64 {
	v := c[0]
	for _, k := range c[1:] {
		v = float64(v*r) + k
	}
	return v
}
