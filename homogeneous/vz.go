package homogeneous

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// VLFeatPeriod returns VLFeat's default period Λ of vl_homkermap for kernel
// k, window w ("" means Rectangular) and order n (the map has 2n+1
// dimensions), including VLFeat's final Λ = max(Λ, 1):
//
//	uniform:     χ² 5.86√n + 3.65,        JS 6.64√n + 7.24,     intersection 2.38 ln(n+0.8) + 5.6
//	rectangular: χ² 8.80√(n+4.44) − 12.6, JS 9.63√(n+1) − 2.93, intersection 2.00 ln(n+0.99) + 3.52
//
// Hellinger has no period (its map is exact), which is an error, as are an
// unknown window and n < 0.
func VLFeatPeriod(k string, w Window, n int) (float64, error) {
	if err := checkType(k); err != nil {
		return 0, err
	}
	if k == fmap.Hellinger {
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
		case fmap.Chi2:
			p = 5.86*math.Sqrt(o) + 3.65
		case fmap.JS:
			p = 6.64*math.Sqrt(o) + 7.24
		case fmap.Intersection:
			p = 2.38*math.Log(o+0.8) + 5.6
		}
	case Rectangular:
		switch k {
		case fmap.Chi2:
			p = 8.80*math.Sqrt(o+4.44) - 12.6
		case fmap.JS:
			p = 9.63*math.Sqrt(o+1.00) - 2.93
		case fmap.Intersection:
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
	Kernel string // the kernel type, e.g. fmap.Chi2
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
func NewVZSpectrum(k string, n int, period float64, w Window) (*VZSpectrum, error) {
	if err := checkType(k); err != nil {
		return nil, err
	}
	if k == fmap.Hellinger {
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
		return s.Step * Spectrum(s.Kernel, omega)
	}
	half := s.Period / 2
	f := func(l float64) float64 { return signature(s.Kernel, l) * math.Cos(omega*l) }
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

// Window is the spectral window of the Vedaldi–Zisserman map.
type Window string

// The windows of VLFeat's vl_homkermap.
const (
	Uniform     Window = "uniform"
	Rectangular Window = "rectangular"
)

// VZOptions tune the Vedaldi–Zisserman map.
type VZOptions struct {
	// Period is Λ; 0 selects VLFeat's default formula for the kernel,
	// window and order (VLFeatPeriod).
	Period float64 `yaml:"period" spec:"positive"`
	// Window is the spectral window; "" means Rectangular (VLFeat's MATLAB
	// default).
	Window Window `yaml:"window" spec:"enum=uniform|rectangular,label"`
}

// SetDefaults fills in the default window.
func (o *VZOptions) SetDefaults() {
	if o.Window == "" {
		o.Window = Rectangular
	}
}

// VZ is the Vedaldi–Zisserman homogeneous kernel map (method "vz"; TPAMI
// 2012, §4–§5, as VLFeat's vl_homkermap): a Fourier map in log x of
// dimension 2n+1 with terms (0, κ̂₀) and (f_jL, 2κ̂_j), j = 1..n, of
// NewVZSpectrum, so that its components are VLFeat's
// [√κ̂₀ x^{γ/2}, cos₁, sin₁, cos₂, sin₂, …]. The period is Opts.Period, or
// VLFeatPeriod when it is 0. For the Hellinger kernel the map is the exact
// x^{γ/2} of dimension 1.
type VZ struct{ Opts VZOptions }

// The interfaces VZ implements (design/doc.go lists them).
var (
	_ design.Method       = (*VZ)(nil)
	_ design.SeriesMethod = (*VZ)(nil)
	_ design.Defaulter    = (*VZOptions)(nil)
)

// Name returns "vz".
func (*VZ) Name() string { return "vz" }

// OneInputSeries marks VZ maps as Fourier stages (design.SeriesMethod).
func (*VZ) OneInputSeries() {}

// Options returns the options.
func (m *VZ) Options() any { return &m.Opts }

// Applies accepts the homogeneous kernels on one input axis.
func (*VZ) Applies(p *fmap.Problem) error {
	if !p.Kernel.Homogeneous() {
		return fmt.Errorf("vz needs a homogeneous kernel (%s), not %s", strings.Join(fmap.HomogeneousTypes(), ", "), p.Kernel.Type)
	}
	return nil
}

// Dims: odd dimensions.
func (*VZ) Dims(*fmap.Problem) design.Dims {
	d := design.ClosedFormDims("vz", "vz makes odd dimensions only")
	d.Odd = true
	return d
}

// Design returns the map of dimension dim.
func (m *VZ) Design(_ context.Context, p *fmap.Problem, dim int, _ design.Settings) (*design.Result, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	opt := m.Opts
	opt.SetDefaults()
	w := opt.Window
	if w != Uniform && w != Rectangular {
		return nil, fmt.Errorf("homogeneous: unknown vz window %q (want %q or %q)", string(w), string(Uniform), string(Rectangular))
	}
	if opt.Period != 0 && (!(opt.Period > 0) || math.IsInf(opt.Period, 1)) {
		return nil, fmt.Errorf("homogeneous: vz period %v must be positive and finite (0 selects VLFeat's default)", opt.Period)
	}
	k := p.Kernel
	f := &fmap.Fourier{Form: fmap.FourierForm, Transform: fmap.Log, Gamma: gammaOf(k), Negative: p.Negative}
	if k.Type == fmap.Hellinger {
		if dim != 1 {
			return nil, fmt.Errorf("homogeneous: vz for hellinger is the exact 1-dimensional map x^{γ/2}; dimension %d is not possible", dim)
		}
		f.Terms = []fmap.Term{{Freq: []float64{0}, Weight: 1}}
		return result(fmap.NewFourierMap(k, p.Domain, "vz", f))
	}
	if dim < 1 || dim%2 == 0 {
		return nil, fmt.Errorf("homogeneous: vz makes odd dimensions only: %d or %d", dim-1, dim+1)
	}
	n := (dim - 1) / 2
	period := opt.Period
	if period == 0 {
		var err error
		if period, err = VLFeatPeriod(k.Type, w, n); err != nil {
			return nil, err
		}
	}
	s, err := NewVZSpectrum(k.Type, n, period, w)
	if err != nil {
		return nil, err
	}
	f.Terms = make([]fmap.Term, n+1)
	f.Terms[0] = fmap.Term{Freq: []float64{0}, Weight: s.Kappa[0]}
	for j := 1; j <= n; j++ {
		f.Terms[j] = fmap.Term{Freq: []float64{float64(s.Freq[j]) * s.Step}, Weight: 2 * s.Kappa[j]}
	}
	return result(fmap.NewFourierMap(k, p.Domain, "vz", f))
}

// result validates a closed-form map and wraps it.
func result(m *fmap.Map) (*design.Result, error) {
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return &design.Result{Map: m}, nil
}

// gammaOf is the homogeneity degree γ of a kernel (0 means 1).
func gammaOf(k fmap.Kernel) float64 {
	if k.Gamma == 0 {
		return 1
	}
	return k.Gamma
}
