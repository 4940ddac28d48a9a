package homogeneous

import (
	"fmt"
	"math"
	"math/cmplx"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// TestVZSpectrumVLFeat checks NewVZSpectrum against every row of
// vlfeat_spectrum.csv (54 configurations, 162 rows, read off a compiled VLFeat
// v0.9.21: χ²/intersection/JS × uniform/rectangular × order 1–3, γ 1 and
// 0.5, default period and period 5): the default period and the step L to
// 1e-15 relative, every frequency index f_j exactly, and every κ̂_j to 1e-6
// relative for χ² and JS. The CSV's κ̂ is VLFeat's table value, which is
// our κ̂_j divided by L.
//
// For intersection with the rectangular window VLFeat's value is not the
// exact integral: VLFeat approximates (1/Λ)∫ k(λ)cos(ωλ)dλ by a truncated
// 2049-term sum of the sinc-smoothed spectrum, whose truncation loses ~1e-6
// for intersection's slowly decaying κ = (2/π)/(1+4ω²). There the exact κ̂
// (checked against its closed form in TestVZRectangularIntersectionClosedForm)
// must agree with VLFeat's within 1e-6 absolute (docs/formulas.md §1.2
// measured 9e-7), and vlfeatSmoothSpectrum, a transcription of VLFeat's sum, must
// reproduce VLFeat's number to 1e-12 relative: that shows the whole
// difference is VLFeat's sum, not a formula difference.
func TestVZSpectrumVLFeat(t *testing.T) {
	type config struct {
		kernel        string
		window        Window
		order         int
		gamma, period float64
		step          float64
		freq          []int
		kappa         []float64
	}
	var configs []*config
	index := map[string]*config{}
	for _, r := range readCSV(t, "vlfeat_spectrum.csv") {
		key := fmt.Sprint(r[0:5])
		c := index[key]
		if c == nil {
			k := r[0]
			if err := checkType(k); err != nil {
				t.Fatal(err)
			}
			order, err := strconv.Atoi(r[2])
			if err != nil {
				t.Fatal(err)
			}
			c = &config{kernel: k, window: Window(r[1]), order: order,
				gamma: mustFloat(t, r[3]), period: mustFloat(t, r[4]), step: mustFloat(t, r[8])}
			index[key] = c
			configs = append(configs, c)
		}
		j, err := strconv.Atoi(r[5])
		if err != nil || j != len(c.freq) {
			t.Fatalf("vlfeat_spectrum.csv: %v: component %q out of order", key, r[5])
		}
		f, err := strconv.Atoi(r[6])
		if err != nil {
			t.Fatal(err)
		}
		c.freq = append(c.freq, f)
		c.kappa = append(c.kappa, mustFloat(t, r[7]))
	}
	if len(configs) != 54 {
		t.Fatalf("vlfeat_spectrum.csv has %d configurations, want 54", len(configs))
	}
	worst, worstInters := 0.0, 0.0
	for _, c := range configs {
		name := fmt.Sprintf("%s/%s/n=%d/gamma=%g/period=%g", c.kernel, c.window, c.order, c.gamma, c.period)
		if len(c.freq) != c.order+1 {
			t.Errorf("%s: %d components in the CSV, want %d", name, len(c.freq), c.order+1)
			continue
		}
		if c.period != 5 {
			p, err := VLFeatPeriod(c.kernel, c.window, c.order)
			if err != nil {
				t.Errorf("%s: %v", name, err)
			} else if relErr(p, c.period) > 1e-15 {
				t.Errorf("%s: VLFeatPeriod = %.17g, VLFeat %.17g", name, p, c.period)
			}
		}
		s, err := NewVZSpectrum(c.kernel, c.order, c.period, c.window)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if relErr(s.Step, c.step) > 1e-15 {
			t.Errorf("%s: L = %.17g, VLFeat %.17g", name, s.Step, c.step)
		}
		for j := range c.freq {
			if s.Freq[j] != c.freq[j] {
				t.Errorf("%s: f_%d = %d, VLFeat %d", name, j, s.Freq[j], c.freq[j])
			}
			got := s.Kappa[j] / s.Step
			e := relErr(got, c.kappa[j])
			if c.kernel == fmap.Intersection && c.window == Rectangular {
				worstInters = math.Max(worstInters, e)
				if d := math.Abs(s.Kappa[j] - c.kappa[j]*s.Step); d > 1e-6 {
					t.Errorf("%s: κ̂_%d = %.17g, VLFeat %.17g (abs. diff %.2g > 1e-6)", name, j, s.Kappa[j], c.kappa[j]*s.Step, d)
				}
				v := vlfeatSmoothSpectrum(c.kernel, c.period, float64(c.freq[j])*s.Step)
				if e := relErr(v, c.kappa[j]); e > 1e-12 {
					t.Errorf("%s: VLFeat's sum transcribed gives κ̂_%d/L = %.17g, VLFeat %.17g (rel. diff %.2g > 1e-12)", name, j, v, c.kappa[j], e)
				}
				continue
			}
			worst = math.Max(worst, e)
			if e > 1e-6 {
				t.Errorf("%s: κ̂_%d/L = %.17g, VLFeat %.17g (rel. diff %.2g > 1e-6)", name, j, got, c.kappa[j], e)
			}
		}
	}
	t.Logf("largest relative κ̂ difference from VLFeat: %.3g (χ², JS and uniform-window intersection), %.3g (rectangular-window intersection)", worst, worstInters)
}

// vlfeatSmoothSpectrum transcribes VLFeat v0.9.21's
// vl_homogeneouskernelmap_get_smooth_spectrum for the rectangular window:
// a Riemann sum of the spectrum convolved with the window
// (Λ/2π)·sinc(Λω/2) over |ω'| ≤ 2/(0.01Λ) in 2049 steps, clipped at 0. It
// returns VLFeat's κ̂/L. It is only used to explain VLFeat's numbers.
func vlfeatSmoothSpectrum(k string, period, omega float64) float64 {
	const epsilon = 1e-2
	omegaRange := 2.0 / (period * epsilon)
	domega := 2 * omegaRange / (2*1024.0 + 1)
	kappaHat := 0.0
	for omegap := -omegaRange; omegap <= omegaRange; omegap += domega {
		x := (period / 2.0) * omegap
		win := 1.0
		if x != 0 {
			win = math.Sin(x) / x
		}
		win *= period / (2.0 * math.Pi)
		kappaHat += win * Spectrum(k, omegap+omega)
	}
	kappaHat *= domega
	return math.Max(kappaHat, 0)
}

// TestVZRectangularIntersectionClosedForm checks the quadrature of the
// rectangular-window κ̂ against the closed form for intersection,
// (2/Λ)∫_0^{Λ/2} e^{−λ/2}cos(ωλ)dλ = (2/Λ)·Re[(1 − e^{−(1/2−iω)Λ/2})/(1/2−iω)],
// to 1e-15 absolute (κ̂ ≤ 1), for several periods and frequencies.
func TestVZRectangularIntersectionClosedForm(t *testing.T) {
	for _, period := range []float64{1, 4.896269277472802, 5, 6.287582461803544, 20, 60} {
		s, err := NewVZSpectrum(fmap.Intersection, 40, period, Rectangular)
		if err != nil {
			t.Fatal(err)
		}
		for j, f := range s.Freq {
			w := float64(f) * s.Step
			z := complex(0.5, -w)
			v := (1 - cmplx.Exp(-z*complex(period/2, 0))) / z
			want := math.Max(2/period*real(v), 0)
			if d := math.Abs(s.Kappa[j] - want); d > 1e-15 {
				t.Errorf("period %g, f=%d: κ̂ = %.17g, closed form %.17g (diff %.2g > 1e-15)", period, f, s.Kappa[j], want, d)
			}
		}
	}
}

// TestVZFrequencyRule checks the frequency-skipping rule of NewVZSpectrum
// as an invariant over many configurations (every kernel with a spectrum,
// both windows, orders 0..12 and 40, periods 1..20): f_0 = 0; the f_j
// increase; every skipped frequency index between f_{j−1} and f_j has κ̂ = 0;
// and κ̂_j > 0 unless f_j = 3j−1, VLFeat's cap. (Order 40 at period 1 reaches
// frequencies where κ(jL) underflows to 0, which exercises the cap.)
func TestVZFrequencyRule(t *testing.T) {
	skips, forced := 0, 0
	for _, k := range []string{fmap.Chi2, fmap.Intersection, fmap.JS} {
		for _, w := range []Window{Uniform, Rectangular} {
			for _, period := range []float64{1, 1.5, 2, 3, 5, 8, 13, 20} {
				for _, n := range []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 40} {
					s, err := NewVZSpectrum(k, n, period, w)
					if err != nil {
						t.Fatal(err)
					}
					name := fmt.Sprintf("%s/%s/Λ=%g/n=%d", k, w, period, n)
					if s.Freq[0] != 0 {
						t.Errorf("%s: f_0 = %d", name, s.Freq[0])
					}
					for j := 1; j <= n; j++ {
						if s.Freq[j] <= s.Freq[j-1] {
							t.Fatalf("%s: f = %v not increasing", name, s.Freq)
						}
						for f := s.Freq[j-1] + 1; f < s.Freq[j]; f++ {
							skips++
							if v := s.kappaHat(float64(f) * s.Step); v > 0 {
								t.Errorf("%s: skipped f = %d has κ̂ = %g > 0", name, f, v)
							}
						}
						if s.Freq[j] > 3*j-1 {
							t.Errorf("%s: f_%d = %d beyond VLFeat's cap 3j−1 = %d", name, j, s.Freq[j], 3*j-1)
						}
						if !(s.Kappa[j] > 0) {
							forced++
							if s.Freq[j] != 3*j-1 {
								t.Errorf("%s: κ̂_%d = %g at f = %d below the cap", name, j, s.Kappa[j], s.Freq[j])
							}
						}
					}
				}
			}
		}
	}
	if skips == 0 || forced == 0 {
		t.Errorf("the configurations exercised %d skips and %d forced zero components; want both > 0", skips, forced)
	}
	t.Logf("%d skipped frequencies, %d components forced at the cap with κ̂ = 0", skips, forced)
}

// vzParams parses a vz_* params field of formula_refs.csv: n, and either L
// or the period; gamma; the window is uniform in every row.
func vzParams(t *testing.T, params string) (n int, period, gamma float64) {
	t.Helper()
	gamma = 1
	for _, f := range strings.Split(params, ";") {
		key, val, ok := strings.Cut(f, "=")
		if !ok {
			continue
		}
		val, _, _ = strings.Cut(val, " ")
		switch key {
		case "n":
			var err error
			if n, err = strconv.Atoi(val); err != nil {
				t.Fatal(err)
			}
		case "L":
			if !strings.HasPrefix(val, "2pi/") { // else the period is given
				period = 2 * math.Pi / mustFloat(t, val)
			}
		case "period":
			period = mustFloat(t, val)
		case "gamma":
			gamma = mustFloat(t, val)
		case "window":
			if val != "uniform" {
				t.Fatalf("window %q", val)
			}
		}
	}
	return n, period, gamma
}

// TestVZFormulaRefs evaluates VZ maps with fmap's reference evaluator at
// every vz_* row of formula_refs.csv (χ² n = 1, 2, 3 with γ 1 and 0.5,
// intersection and JS n = 2 at VLFeat's uniform periods, Hellinger): each
// component to 1e-14·x^{γ/2} absolute (the component's natural scale; the
// reference values are the nearest doubles of 30-digit values, and the
// period 2π/L may round L by an ulp), and Ψ(x)·Ψ(0.5) to 1e-14 relative.
func TestVZFormulaRefs(t *testing.T) {
	rows := formulaRefs(t, "vz_")
	maps := map[string]*fmap.Map{}
	types := map[string]string{"vz_chi2": fmap.Chi2, "vz_inters": fmap.Intersection, "vz_js": fmap.JS, "vz_hell": fmap.Hellinger}
	checked := 0
	for _, r := range rows {
		m := maps[r.method+r.params]
		if m == nil {
			k, ok := types[r.method]
			if !ok {
				t.Fatalf("unknown method %q", r.method)
			}
			n, period, gamma := vzParams(t, r.params)
			p := problem(k, gamma, fmap.Domain{Lo: []float64{0}, Hi: []float64{2}})
			opt := VZOptions{Window: Uniform}
			dim := 1
			if k != fmap.Hellinger {
				dim, opt.Period = 2*n+1, period
			}
			m = design1(t, &VZ{Opts: opt}, p, dim)
			maps[r.method+r.params] = m
		}
		x := mustFloat(t, r.x)
		if y, ok := strings.CutPrefix(r.component, "dot(y="); ok {
			got := m.Dot([]float64{x}, []float64{mustFloat(t, strings.TrimSuffix(y, ")"))})
			if e := relErr(got, r.value); e > 1e-14 {
				t.Errorf("%s %s: Ψ(%s)·Ψ(%s = %.17g, want %.17g (rel. %.2g > 1e-14)", r.method, r.params, r.x, y, got, r.value, e)
			}
			checked++
			continue
		}
		c, err := strconv.Atoi(r.component)
		if err != nil {
			t.Fatal(err)
		}
		psi := make([]float64, m.Dim)
		m.Eval(psi, []float64{x})
		tol := 1e-14 * math.Pow(x, m.Fourier().Gamma/2)
		if d := math.Abs(psi[c] - r.value); d > tol {
			t.Errorf("%s %s: Ψ(%s)[%d] = %.17g, want %.17g (diff %.2g > %.2g)", r.method, r.params, r.x, c, psi[c], r.value, d, tol)
		}
		checked++
	}
	if checked != len(rows) || len(maps) != 7 {
		t.Errorf("checked %d of %d rows over %d maps, want all rows over 7 maps", checked, len(rows), len(maps))
	}
}

// TestVZTable1VLFeat reproduces the VLFeat columns of Chum (ICCV 2015)
// Table 1: VZ maps with the rectangular window and VLFeat's default period,
// measured with fmap.Verify over all 65 536 ordered pairs x, y ∈ {0..255}
// (0 included), L∞ = max|E|, RMS = √(ΣE²/65 536). The expected numbers are
// those of the closed-form map with exact κ̂; each must match within 0.1 %
// relative. Chum's printed VLFeat numbers (χ² 3.205/1.251, 0.143/0.053;
// intersection 30.119/6.679, 22.287/4.436; JS 2.911/1.203, 0.127/0.070)
// come from VLFeat's interpolated lookup table and differ from the closed
// form by up to 5.4 % (JS 7D: 0.13386 against 0.127); the last check
// asserts agreement with them within 6 %.
func TestVZTable1VLFeat(t *testing.T) {
	dom := fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}}
	tests := []struct {
		kernel         string
		dim            int
		linf, rms      float64 // closed form, exact κ̂; tolerance 0.1 %
		paperL, paperR float64 // Chum Table 1, VLFeat column; tolerance 6 %
	}{
		{fmap.Chi2, 5, 3.1874, 1.2447, 3.205, 1.251},
		{fmap.Chi2, 7, 0.14203, 0.05316, 0.143, 0.053},
		{fmap.Intersection, 5, 30.088, 6.6728, 30.119, 6.679},
		{fmap.Intersection, 7, 22.265, 4.4321, 22.287, 4.436},
		{fmap.JS, 5, 2.8979, 1.1974, 2.911, 1.203},
		{fmap.JS, 7, 0.13386, 0.07350, 0.127, 0.070},
	}
	for _, tc := range tests {
		p := problem(tc.kernel, 1, dom)
		ref, err := p.Reference()
		if err != nil {
			t.Fatal(err)
		}
		m := design1(t, &VZ{}, p, tc.dim)
		v := fmap.Verify(m, ref)
		a := v.Absolute
		t.Logf("%s %dD: L∞ %.5g, RMS %.5g (%d pairs)", tc.kernel, tc.dim, a.LInf, a.RMS, a.Points)
		if a.Points != 65536 {
			t.Errorf("%s %dD: %d pairs, want 65536", tc.kernel, tc.dim, a.Points)
		}
		if relErr(a.LInf, tc.linf) > 1e-3 || relErr(a.RMS, tc.rms) > 1e-3 {
			t.Errorf("%s %dD: L∞/RMS = %.5g/%.5g, want %.5g/%.5g within 0.1 %%", tc.kernel, tc.dim, a.LInf, a.RMS, tc.linf, tc.rms)
		}
		if relErr(a.LInf, tc.paperL) > 0.06 || relErr(a.RMS, tc.paperR) > 0.06 {
			t.Errorf("%s %dD: L∞/RMS = %.5g/%.5g, Chum's VLFeat column %.5g/%.5g: more than 6 %% apart", tc.kernel, tc.dim, a.LInf, a.RMS, tc.paperL, tc.paperR)
		}
	}
}

// TestVZMapFields checks the map VZ returns: kernel, gamma, domain,
// negative rule, method, Log transform, Fourier form, VLFeat's component
// order (terms (0, κ̂₀), (f_jL, 2κ̂_j)) and that it validates; and that
// with the default options and a kernel of γ = 0 (meaning 1) the stage has
// γ = 1, the problem's sign rule and the rectangular window.
func TestVZMapFields(t *testing.T) {
	dom := fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}}
	p := problem(fmap.JS, 0.5, dom)
	p.Negative = fmap.NegativeZero
	m := design1(t, &VZ{Opts: VZOptions{Window: Uniform, Period: 5}}, p, 7)
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
	f := m.Fourier()
	if f == nil {
		t.Fatalf("not a one-stage Fourier map: %+v", m)
	}
	if !reflect.DeepEqual(m.Kernel, p.Kernel) || m.Kernel.Type != "js" || m.Kernel.Gamma != 0.5 || f.Gamma != 0.5 || m.Method != (&VZ{}).Name() ||
		f.Transform != fmap.Log || f.Form != fmap.FourierForm || f.Negative != fmap.NegativeZero || m.Negative() != fmap.NegativeZero ||
		!m.Domain.Integer || m.Domain.Hi[0] != 255 || m.Dim != 7 || m.InDim != 1 {
		t.Errorf("map fields: %+v, stage %+v", m, f)
	}
	s, err := NewVZSpectrum(fmap.JS, 3, 5, Uniform)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Terms) != 4 || f.Terms[0].Freq[0] != 0 || f.Terms[0].Weight != s.Kappa[0] {
		t.Fatalf("terms %+v", f.Terms)
	}
	for j := 1; j <= 3; j++ {
		if f.Terms[j].Freq[0] != float64(s.Freq[j])*s.Step || f.Terms[j].Weight != 2*s.Kappa[j] {
			t.Errorf("term %d = %+v, want (%v, %v)", j, f.Terms[j], float64(s.Freq[j])*s.Step, 2*s.Kappa[j])
		}
	}
	// The defaults: γ = 0 means 1, and the window is rectangular.
	d := design1(t, &VZ{}, problem(fmap.Chi2, 0, dom), 3).Fourier()
	rect, err := NewVZSpectrum(fmap.Chi2, 1, 8.80*math.Sqrt(1+4.44)-12.6, Rectangular)
	if err != nil {
		t.Fatal(err)
	}
	if d.Gamma != 1 || d.Negative != fmap.NegativeSign || d.Terms[0].Weight != rect.Kappa[0] {
		t.Errorf("defaults: γ %v, negative %q, κ̂₀ %v (rectangular %v)", d.Gamma, d.Negative, d.Terms[0].Weight, rect.Kappa[0])
	}
}

// TestVZBadInput checks that VZ, VLFeatPeriod and NewVZSpectrum return
// errors naming the problem for bad input, never panicking.
func TestVZBadInput(t *testing.T) {
	dom := fmap.Domain{Lo: []float64{0}, Hi: []float64{1}}
	with := func(p *fmap.Problem, f func(p *fmap.Problem)) *fmap.Problem { f(p); return p }
	tests := []struct {
		name string
		p    *fmap.Problem
		dim  int
		opt  VZOptions
		want string
	}{
		{"even 6", problem(fmap.Chi2, 0, dom), 6, VZOptions{}, "vz makes odd dimensions only: 5 or 7"},
		{"even 2", problem(fmap.JS, 0, dom), 2, VZOptions{}, "vz makes odd dimensions only: 1 or 3"},
		{"hellinger 3", problem(fmap.Hellinger, 0, dom), 3, VZOptions{}, "exact 1-dimensional map"},
		{"zero dim", problem(fmap.Chi2, 0, dom), 0, VZOptions{}, "vz makes odd dimensions only"},
		{"window", problem(fmap.Chi2, 0, dom), 3, VZOptions{Window: "hann"}, "unknown vz window"},
		{"period", problem(fmap.Chi2, 0, dom), 3, VZOptions{Period: -2}, "vz period -2"},
		{"period nan", problem(fmap.Chi2, 0, dom), 3, VZOptions{Period: math.NaN()}, "vz period NaN"},
		{"gamma", problem(fmap.Chi2, math.Inf(1), dom), 3, VZOptions{}, "kernel.gamma: the homogeneity degree must be > 0 and finite, not +Inf"},
		{"kernel", with(problem(fmap.RBF, 0, dom), func(p *fmap.Problem) { p.Kernel.Sigma = []float64{1} }), 3, VZOptions{}, "unknown kernel"},
		{"unknown kernel", problem("x", 0, dom), 3, VZOptions{}, "unknown kernel"},
		{"domain", problem(fmap.Chi2, 0, fmap.Domain{}), 3, VZOptions{}, "no axes"},
		{"two axes", problem(fmap.Chi2, 0, fmap.Domain{Lo: []float64{0, 0}, Hi: []float64{1, 1}}), 3, VZOptions{}, "designed per input coordinate"},
		{"negative rule", with(problem(fmap.Chi2, 0, dom), func(p *fmap.Problem) { p.Negative = "" }), 3, VZOptions{}, "negative-input rule"},
	}
	for _, tc := range tests {
		if _, err := designErr(&VZ{Opts: tc.opt}, tc.p, tc.dim); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := VLFeatPeriod(fmap.Hellinger, Uniform, 1); err == nil {
		t.Error("VLFeatPeriod(hellinger): no error")
	}
	if _, err := VLFeatPeriod(fmap.Chi2, "x", 1); err == nil {
		t.Error("VLFeatPeriod with an unknown window: no error")
	}
	if _, err := VLFeatPeriod(fmap.Chi2, Uniform, -1); err == nil {
		t.Error("VLFeatPeriod with n < 0: no error")
	}
	if _, err := NewVZSpectrum(fmap.Chi2, 2, 0, Uniform); err == nil {
		t.Error("NewVZSpectrum with period 0: no error")
	}
	if p, err := VLFeatPeriod(fmap.Intersection, Rectangular, 0); err != nil || p != math.Max(2*math.Log(0.99)+3.52, 1) {
		t.Errorf("VLFeatPeriod(intersection, rectangular, 0) = %v, %v", p, err)
	}
}
