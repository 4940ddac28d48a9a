package homogeneous

import (
	"fmt"
	"math"

	"github.com/featmap/featmap/design"
)

// MethodVZ is the Method of maps made by VZ.
const MethodVZ = "vz"

// VLFeatPeriod returns VLFeat's default period Λ of vl_homkermap for kernel
// k, window w ("" means Rectangular) and order n (the map has 2n+1
// dimensions), including VLFeat's final Λ = max(Λ, 1):
//
//	uniform:     χ² 5.86√n + 3.65,        JS 6.64√n + 7.24,     intersection 2.38 ln(n+0.8) + 5.6
//	rectangular: χ² 8.80√(n+4.44) − 12.6, JS 9.63√(n+1) − 2.93, intersection 2.00 ln(n+0.99) + 3.52
//
// Hellinger has no period (its map is exact), which is an error, as are an
// unknown window and n < 0.
func VLFeatPeriod(k Kernel, w Window, n int) (float64, error) {
	if err := k.check(); err != nil {
		return 0, err
	}
	if k == Hellinger {
		return 0, fmt.Errorf("homogeneous: the hellinger kernel has no vz period (its map x^{γ/2} is exact)")
	}
	if w == "" {
		w = Rectangular
	}
	if n < 0 {
		return 0, fmt.Errorf("homogeneous: vz order %d is negative", n)
	}
	o := float64(n)
	var p float64
	switch w {
	case Uniform:
		switch k {
		case Chi2:
			p = 5.86*math.Sqrt(o) + 3.65
		case JS:
			p = 6.64*math.Sqrt(o) + 7.24
		case Intersection:
			p = 2.38*math.Log(o+0.8) + 5.6
		}
	case Rectangular:
		switch k {
		case Chi2:
			p = 8.80*math.Sqrt(o+4.44) - 12.6
		case JS:
			p = 9.63*math.Sqrt(o+1.00) - 2.93
		case Intersection:
			p = 2.00*math.Log(o+0.99) + 3.52
		}
	default:
		return 0, fmt.Errorf("homogeneous: unknown vz window %q (want %q or %q)", string(w), string(Uniform), string(Rectangular))
	}
	return math.Max(p, 1), nil
}

// VZSpectrum is the discrete spectrum of an order-n Vedaldi–Zisserman map:
// component j (j = 0..n) has frequency Freq[j]·Step and weight Kappa[j],
// and the map is
//
//	Ψ(x) = x^{γ/2} [√κ̂₀, √(2κ̂₁) cos(f₁L log x), √(2κ̂₁) sin(f₁L log x), …].
type VZSpectrum struct {
	Kernel Kernel
	Window Window
	Period float64 // Λ
	Step   float64 // L = 2π/Λ
	// Freq are VLFeat's frequency indices f_j: f_0 = 0, f_j = j unless a
	// frequency was skipped because its κ̂ was 0 (see NewVZSpectrum).
	Freq []int
	// Kappa are κ̂_j, the weights of the map's inner product
	// κ̂₀ + 2Σ κ̂_j cos(f_jLλ). They include the factor L: VLFeat's own table
	// stores κ̂_j/L.
	Kappa []float64
}

// NewVZSpectrum returns the discrete spectrum of the order-n VZ map of
// kernel k with period Λ and window w ("" means Rectangular):
//
//   - uniform window: κ̂(ω) = L·κ(ω);
//   - rectangular window: κ̂(ω) = (1/Λ)∫_{−Λ/2}^{Λ/2} k(λ) cos(ωλ) dλ, clipped
//     at 0, computed by adaptive Gauss–Kronrod quadrature to about 1e-16
//     (VLFeat approximates the same quantity by a 2049-term sum of the
//     sinc-smoothed spectrum, which differs by up to ~1e-6 for intersection).
//
// Frequencies are chosen as VLFeat's vl_homogeneouskernelmap_new does:
// component 0 is frequency 0; component i ≥ 1 takes the first frequency
// index f > f_{i−1} with κ̂(fL) > 0, except that f = 3i−1 is taken whatever
// its κ̂ if no earlier one qualified. (Only the rectangular window, whose
// clipped κ̂ can be 0, ever skips; a skipped-to component may keep κ̂ = 0.)
//
// Hellinger, whose spectrum is a delta, has no discrete spectrum: its map is
// exact in one dimension (see VZ).
func NewVZSpectrum(k Kernel, n int, period float64, w Window) (*VZSpectrum, error) {
	if err := k.check(); err != nil {
		return nil, err
	}
	if k == Hellinger {
		return nil, fmt.Errorf("homogeneous: the hellinger kernel has no vz spectrum (its map x^{γ/2} is exact)")
	}
	if w == "" {
		w = Rectangular
	}
	if w != Uniform && w != Rectangular {
		return nil, fmt.Errorf("homogeneous: unknown vz window %q (want %q or %q)", string(w), string(Uniform), string(Rectangular))
	}
	if n < 0 {
		return nil, fmt.Errorf("homogeneous: vz order %d is negative", n)
	}
	if !(period > 0) || math.IsInf(period, 1) {
		return nil, fmt.Errorf("homogeneous: vz period %v must be positive and finite", period)
	}
	s := &VZSpectrum{
		Kernel: k, Window: w, Period: period, Step: 2 * math.Pi / period,
		Freq: make([]int, n+1), Kappa: make([]float64, n+1),
	}
	f := 0
	for i := 0; i <= n; {
		s.Freq[i] = f
		s.Kappa[i] = s.kappaHat(float64(f) * s.Step)
		f++
		if s.Kappa[i] > 0 || f >= 3*i {
			i++
		}
	}
	return s, nil
}

// kappaHat returns κ̂(ω) for the spectrum's kernel, window and period.
func (s *VZSpectrum) kappaHat(omega float64) float64 {
	if s.Window == Uniform {
		return s.Step * s.Kernel.Spectrum(omega)
	}
	half := s.Period / 2
	f := func(l float64) float64 { return s.Kernel.Signature(l) * math.Cos(omega*l) }
	// The integrand is bounded by 1, so an absolute tolerance is relative
	// to the size of κ̂₀; split at every half period of the cosine so that
	// each panel starts with little oscillation.
	panels := 1
	if omega > 0 {
		panels = int(math.Ceil(half * omega / math.Pi))
	}
	sum := 0.0
	for p := range panels {
		a := half * float64(p) / float64(panels)
		b := half * float64(p+1) / float64(panels)
		sum += integrate(f, a, b, 1e-17)
	}
	return math.Max(2*sum/s.Period, 0)
}

// VZ returns the Vedaldi–Zisserman homogeneous kernel map (method "vz") of
// dimension p.Dim = 2n+1: a design.Fourier map with the Log transform and
// terms (0, κ̂₀) and (f_jL, 2κ̂_j), j = 1..n, of NewVZSpectrum, so that its
// components are VLFeat's [√κ̂₀ x^{γ/2}, cos₁, sin₁, cos₂, sin₂, …]. The
// period is opt.Period, or VLFeatPeriod when it is 0; the window is
// opt.Window ("" means Rectangular).
//
// Even dimensions are an error naming the nearest valid ones. For the
// Hellinger kernel the map is the exact x^{γ/2}, and only p.Dim = 1 is
// valid.
func VZ(p Problem, opt VZOptions) (*design.Map, error) {
	p, err := p.normalized()
	if err != nil {
		return nil, err
	}
	w := opt.Window
	if w == "" {
		w = Rectangular
	}
	if w != Uniform && w != Rectangular {
		return nil, fmt.Errorf("homogeneous: unknown vz window %q (want %q or %q)", string(w), string(Uniform), string(Rectangular))
	}
	if opt.Period != 0 && (!(opt.Period > 0) || math.IsInf(opt.Period, 1)) {
		return nil, fmt.Errorf("homogeneous: vz period %v must be positive and finite (0 selects VLFeat's default)", opt.Period)
	}
	m := p.newMap(MethodVZ)
	m.Transform = design.Log
	m.Form = design.Fourier
	if p.Kernel == Hellinger {
		if p.Dim != 1 {
			return nil, fmt.Errorf("homogeneous: vz for hellinger is the exact 1-dimensional map x^{γ/2}; dimension %d is not possible", p.Dim)
		}
		m.Terms = []design.Term{{Freq: []float64{0}, Weight: 1}}
		m.Dim = 1
		return m, m.Validate()
	}
	if p.Dim%2 == 0 {
		return nil, fmt.Errorf("homogeneous: vz makes odd dimensions only: %d or %d", p.Dim-1, p.Dim+1)
	}
	n := (p.Dim - 1) / 2
	period := opt.Period
	if period == 0 {
		if period, err = VLFeatPeriod(p.Kernel, w, n); err != nil {
			return nil, err
		}
	}
	s, err := NewVZSpectrum(p.Kernel, n, period, w)
	if err != nil {
		return nil, err
	}
	m.Terms = make([]design.Term, n+1)
	m.Terms[0] = design.Term{Freq: []float64{0}, Weight: s.Kappa[0]}
	for j := 1; j <= n; j++ {
		m.Terms[j] = design.Term{Freq: []float64{float64(s.Freq[j]) * s.Step}, Weight: 2 * s.Kappa[j]}
	}
	m.Dim = 2*n + 1
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}
