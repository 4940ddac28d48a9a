package sampled

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/featmap/featmap/fmap"
)

// Law is a one-dimensional law of frequencies by its quantile h(u),
// u in (0, 1): a frequency is h(u) for u uniform (docs/formulas.md §5.1).
type Law func(u float64) float64

// spectrum is how rff draws the frequencies of a kernel's random
// features: by a product of one-axis laws (law, of width σ), or by a
// spherical law drawn whole (draw: a law that is no product over the
// inputs, such as Matérn's, maternDraw; exp-χ²'s, law and draw nil, is the
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
// quantile, or the function that draws it whole beside the other laws
// below; see the package doc for what else it decides.
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

// maternDraw draws m frequencies of n inputs of the Matérn kernel k at
// widths sigmas (spectrum.draw): MaternFrequencies of k's ν.
func maternDraw(ctx context.Context, k fmap.Kernel, m, n int, sigmas []float64, sampling string, seed int64) ([]float64, error) {
	return MaternFrequencies(ctx, m, n, k.Nu, sigmas, sampling, seed)
}

// MaternFrequencies draws m frequencies of n inputs (row-major) of the
// Matérn kernel of smoothness ν and widths sigmas: its spectral law is the
// multivariate t law of 2ν degrees of freedom scaled by 1/σ, a Gaussian
// scale mixture, ω_j = g_j·√(2ν/V)/σ_j with g ~ N(0, I_n) and V ~ χ²_{2ν}
// (V = Σ_k g′_k² of 2ν further standard normals; 2ν is 1, 3 or 5). Random
// and qmc sampling draw the n + 2ν normals of a frequency by the quantile
// Φ⁻¹ of the n + 2ν coordinates of a point (for qmc, of the
// low-discrepancy sequence in n + 2ν dimensions); orthogonal sampling
// draws the directions of g by orthogonal blocks (Frequencies), their
// lengths and the 2ν normals of V as the n + 2ν normals of a point of a
// Latin hypercube (stratifiedNormals: each frequency's radius has its
// exact law), so that the directions of a block stay orthogonal. The same arguments give the same frequencies.
func MaternFrequencies(ctx context.Context, m, n int, nu float64, sigmas []float64, sampling string, seed int64) ([]float64, error) {
	df := int(2 * nu)
	if float64(df) != 2*nu || df < 1 || len(sigmas) != n {
		return nil, fmt.Errorf("sampled: Matérn frequencies of ν = %v and %d widths for %d inputs", nu, len(sigmas), n)
	}
	var g, v []float64 // m×n directions and m×df normals of V
	var err error
	switch sampling {
	case SamplingOrthogonal:
		if g, err = FrequenciesContext(ctx, m, n, nil, slices.Repeat([]float64{1}, n), sampling, seed); err != nil {
			return nil, err
		}
		// The radii stratified: each direction's length is that of n
		// normals and V the sum of df squared normals, the n + df normals
		// of a frequency one point of a Latin hypercube
		// (stratifiedNormals), so that every frequency's radius keeps its
		// exact law while each normal's m values spread over its law as a
		// stratified sample does.
		z := stratifiedNormals(m, n+df, rand.New(rand.NewPCG(uint64(seed), streamMixture)))
		v = make([]float64, m*df)
		for i := range m {
			row, zi := g[i*n:(i+1)*n], z[i*(n+df):(i+1)*(n+df)]
			var a, b float64
			for j := range n {
				a += float64(row[j] * row[j]) // never fused: see horner
				b += float64(zi[j] * zi[j])
			}
			f := math.Sqrt(b / a)
			for j := range row {
				row[j] *= f
			}
			copy(v[i*df:(i+1)*df], zi[n:])
		}
	default:
		all, err := FrequenciesContext(ctx, m, n+df, slices.Repeat([]Law{GaussianLaw(1)}, n+df), nil, sampling, seed)
		if err != nil {
			return nil, err
		}
		g, v = make([]float64, m*n), make([]float64, m*df)
		for i := range m {
			copy(g[i*n:(i+1)*n], all[i*(n+df):i*(n+df)+n])
			copy(v[i*df:(i+1)*df], all[i*(n+df)+n:(i+1)*(n+df)])
		}
	}
	out := make([]float64, m*n)
	for i := range m {
		var q float64
		for _, a := range v[i*df : (i+1)*df] {
			q += float64(a * a) // never fused: see horner
		}
		r := math.Sqrt(float64(df) / q)
		for j := range n {
			out[i*n+j] = g[i*n+j] * r / sigmas[j]
		}
	}
	for _, w := range out {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("sampled: a non-finite Matérn frequency %v (a kernel width too small?)", w)
		}
	}
	return out, nil
}

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
