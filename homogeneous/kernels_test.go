package homogeneous

import (
	"math"
	"strings"
	"testing"
)

// TestParseKernel checks the accepted names and the error for others.
func TestParseKernel(t *testing.T) {
	tests := []struct {
		in   string
		want Kernel
		ok   bool
	}{
		{"chi2", Chi2, true},
		{" Intersection ", Intersection, true},
		{"JS", JS, true},
		{"hellinger", Hellinger, true},
		{"rbf", "", false},
		{"", "", false},
	}
	for _, tc := range tests {
		k, err := ParseKernel(tc.in)
		if tc.ok && (err != nil || k != tc.want) {
			t.Errorf("ParseKernel(%q) = %q, %v; want %q", tc.in, k, err, tc.want)
		}
		if !tc.ok && (err == nil || !strings.Contains(err.Error(), "chi2, intersection, js or hellinger")) {
			t.Errorf("ParseKernel(%q): error %v, want one listing the kernels", tc.in, err)
		}
	}
	if len(Kernels()) != 4 {
		t.Errorf("Kernels() = %v", Kernels())
	}
}

// TestKernelExactRefs checks Eval against the exact_* rows of
// formula_refs.csv (K(x, 0.5), γ = 1, 30-digit values rounded to double) to
// 4e-15 relative.
func TestKernelExactRefs(t *testing.T) {
	names := map[string]Kernel{"exact_chi2": Chi2, "exact_inters": Intersection, "exact_js": JS, "exact_hell": Hellinger}
	rows := formulaRefs(t, "exact_")
	for _, r := range rows {
		k, ok := names[r.method]
		if !ok {
			t.Fatalf("unknown method %q", r.method)
		}
		y, ok := strings.CutPrefix(r.component, "K(y=")
		if !ok {
			t.Fatalf("component %q", r.component)
		}
		x, yv := mustFloat(t, r.x), mustFloat(t, strings.TrimSuffix(y, ")"))
		got := k.Eval(x, yv, 1)
		if e := relErr(got, r.value); e > 4e-15 {
			t.Errorf("%s(%v, %v) = %.17g, want %.17g (rel. %.2g > 4e-15)", k, x, yv, got, r.value, e)
		}
		if got2 := k.Eval(yv, x, 1); relErr(got2, got) > 4e-16 {
			t.Errorf("%s is not symmetric at (%v, %v): %.17g and %.17g", k, x, yv, got, got2)
		}
	}
}

// closedForm returns the γ = 1 kernels written directly in x and y (the
// definitions of the notes' §1.1 table, JS with log1p), for comparison.
func closedForm(k Kernel, x, y float64) float64 {
	switch k {
	case Chi2:
		return 2 * x * y / (x + y)
	case Intersection:
		return math.Min(x, y)
	case JS:
		// log₂((x+y)/x) = log1p(y/x)/ln 2, accurate also when y ≪ x.
		return (x/2*math.Log1p(y/x) + y/2*math.Log1p(x/y)) / math.Ln2
	}
	return math.Sqrt(x * y)
}

// TestKernelEval checks Eval against the closed forms for γ = 1 on a grid
// (4e-15 relative), its γ = 1 direct forms against the signature form
// (4e-15 + 2e-16|λ| relative, extreme ratios included: exp amplifies the
// rounding of λ), homogeneity K_γ(tx, ty) = t^γ K_γ(x, y) for γ = 0.5, 1,
// 2 (1e-14 relative), the zero and invalid-input cases, γ = 0 meaning 1, and finiteness at
// the ends of the float64 range.
func TestKernelEval(t *testing.T) {
	pts := []float64{1e-12, 1e-6, 0.003, 0.1, 0.25, 0.5, 0.9, 1, 3, 255, 1e6}
	for _, k := range Kernels() {
		for _, x := range pts {
			for _, y := range pts {
				if e := relErr(k.Eval(x, y, 1), closedForm(k, x, y)); e > 4e-15 {
					t.Errorf("%s(%g, %g): Eval %.17g, closed form %.17g (rel. %.2g)", k, x, y, k.Eval(x, y, 1), closedForm(k, x, y), e)
				}
				for _, g := range []float64{0.5, 1, 2} {
					for _, s := range []float64{1e-3, 7, 1e4} {
						want := math.Pow(s, g) * k.Eval(x, y, g)
						if e := relErr(k.Eval(s*x, s*y, g), want); e > 1e-14 {
							t.Errorf("%s γ=%g: K(%g·%g, %g·%g) = %.17g, t^γ K = %.17g (rel. %.2g)", k, g, s, x, s, y, k.Eval(s*x, s*y, g), want, e)
						}
					}
				}
			}
			if v := k.Eval(0, x, 1); v != 0 {
				t.Errorf("%s(0, %g) = %g, want 0", k, x, v)
			}
			if v := k.Eval(x, 0, 0.5); v != 0 {
				t.Errorf("%s(%g, 0) = %g, want 0", k, x, v)
			}
		}
		// The γ = 1 direct forms agree with the signature form.
		for _, x := range append(pts, 1e-300, 1e300, 7e-200) {
			for _, y := range append(pts, 1e-300, 1e300, 3e150) {
				// The signature form loses |λ|·ulp(log y) to exp's argument.
				tol := 4e-15 + 2e-16*math.Abs(math.Log(y)-math.Log(x))
				if e := relErr(k.Eval(x, y, 1), k.evalSignature(x, y, 1)); e > tol {
					t.Errorf("%s(%g, %g): Eval %.17g, signature form %.17g (rel. %.2g)", k, x, y, k.Eval(x, y, 1), k.evalSignature(x, y, 1), e)
				}
			}
		}
		for _, bad := range [][3]float64{{-1, 1, 1}, {1, math.NaN(), 1}, {math.Inf(1), 1, 1}, {1, 1, -1}, {1, 1, math.Inf(1)}, {1, 1, math.NaN()}} {
			if v := k.Eval(bad[0], bad[1], bad[2]); !math.IsNaN(v) {
				t.Errorf("%s.Eval(%v, %v, γ=%v) = %v, want NaN", k, bad[0], bad[1], bad[2], v)
			}
		}
		big, tiny := math.MaxFloat64, math.SmallestNonzeroFloat64
		for _, p := range [][2]float64{{big, big}, {tiny, big}, {big, tiny}, {tiny, tiny}, {1e-300, 1e300}} {
			v := k.Eval(p[0], p[1], 1)
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Errorf("%s(%g, %g) = %v, want finite and ≥ 0", k, p[0], p[1], v)
			}
		}
		if k.Eval(0.3, 0.7, 0) != k.Eval(0.3, 0.7, 1) {
			t.Errorf("%s: gamma 0 does not mean 1", k)
		}
		if v := k.Eval(big, big, 1); relErr(v, big) > 4e-16 {
			t.Errorf("%s(max, max) = %g, want %g", k, v, big)
		}
	}
	if v := Kernel("rbf").Eval(1, 1, 1); !math.IsNaN(v) {
		t.Errorf("unknown kernel Eval = %v, want NaN", v)
	}
}

// TestSignatureExtreme checks that the signatures are finite, nonnegative
// and even for |λ| up to and beyond 700 (where e^{|λ|} overflows), that they
// follow their asymptotic forms there (χ²: 2e^{−a/2}, intersection e^{−a/2},
// JS: e^{−a/2}(a+1)/(2 ln 2), each to 1e-14 relative; Hellinger 1), and
// that k(λ) = K_1(e^{λ/2}, e^{−λ/2}) for moderate λ (1e-14 relative).
func TestSignatureExtreme(t *testing.T) {
	for _, k := range Kernels() {
		for _, a := range []float64{700, 710, 745, 1000, 1500, 1e4, 1e308, math.Inf(1)} {
			v, w := k.Signature(a), k.Signature(-a)
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v != w {
				t.Errorf("%s: k(±%g) = %v, %v; want equal, finite and ≥ 0", k, a, v, w)
			}
			var want float64
			switch k {
			case Chi2:
				want = 2 * math.Exp(-a/2)
			case Intersection:
				want = math.Exp(-a / 2)
			case JS:
				want = math.Exp(-a/2) * (a + 1) / (2 * math.Ln2)
				if math.IsInf(a, 1) {
					want = 0
				}
			case Hellinger:
				want = 1
			}
			if relErr(v, want) > 1e-14 {
				t.Errorf("%s: k(%g) = %.17g, asymptotic form %.17g", k, a, v, want)
			}
		}
		for _, l := range []float64{-30, -5, -1, -0.3, 0, 1e-9, 0.3, 1, 2.5, 5, 10, 30} {
			want := k.Eval(math.Exp(l/2), math.Exp(-l/2), 1)
			if e := relErr(k.Signature(l), want); e > 1e-14 {
				t.Errorf("%s: k(%g) = %.17g, K(e^{λ/2}, e^{−λ/2}) = %.17g (rel. %.2g)", k, l, k.Signature(l), want, e)
			}
		}
		if !math.IsNaN(k.Signature(math.NaN())) || !math.IsNaN(k.Spectrum(math.NaN())) {
			t.Errorf("%s: NaN does not propagate", k)
		}
	}
}

// TestSpectrumTransform checks each spectrum against the Fourier transform
// of its signature, κ(ω) = (1/π)∫_0^∞ k(λ)cos(ωλ)dλ, by quadrature on
// [0, 120] (the tail is below e^{−60}), to 1e-13 absolute (κ ≤ 1.5), and
// that the spectra stay finite and nonnegative for huge ω.
func TestSpectrumTransform(t *testing.T) {
	for _, k := range []Kernel{Chi2, Intersection, JS} {
		for _, w := range []float64{0, 0.3, 1, 2.5, 4} {
			f := func(l float64) float64 { return k.Signature(l) * math.Cos(w*l) }
			s := 0.0
			for p := range 120 {
				s += integrate(f, float64(p), float64(p+1), 1e-17)
			}
			got := s / math.Pi
			if d := math.Abs(got - k.Spectrum(w)); d > 1e-13 {
				t.Errorf("%s: κ(%g) = %.17g, transform of k %.17g (diff %.2g)", k, w, k.Spectrum(w), got, d)
			}
			if k.Spectrum(-w) != k.Spectrum(w) {
				t.Errorf("%s: κ is not even at %g", k, w)
			}
		}
		for _, w := range []float64{300, 1e6, 1e200, math.Inf(1)} {
			if v := k.Spectrum(w); math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Errorf("%s: κ(%g) = %v", k, w, v)
			}
		}
	}
	if !math.IsInf(Hellinger.Spectrum(0), 1) || Hellinger.Spectrum(0.1) != 0 {
		t.Errorf("Hellinger's spectrum is not the delta: %v, %v", Hellinger.Spectrum(0), Hellinger.Spectrum(0.1))
	}
}

// TestGaussKronrod checks the quadrature rule: the 15-point Kronrod rule
// integrates x^k exactly (to 1e-15) for k ≤ 22 and the embedded 7-point
// Gauss rule for k ≤ 13, on [0, 1]; adaptive integration of an oscillatory
// integrand matches its closed form to 1e-15.
func TestGaussKronrod(t *testing.T) {
	for k := 0; k <= 22; k++ {
		f := func(x float64) float64 { return math.Pow(x, float64(k)) }
		kr, g, _ := gk15(f, 0, 1)
		want := 1 / float64(k+1)
		if math.Abs(kr-want) > 1e-15 {
			t.Errorf("Kronrod ∫x^%d = %.17g, want %.17g", k, kr, want)
		}
		if k <= 13 && math.Abs(g-want) > 1e-15 {
			t.Errorf("Gauss ∫x^%d = %.17g, want %.17g", k, g, want)
		}
	}
	got := integrate(func(x float64) float64 { return math.Cos(30 * x) }, 0, 2, 1e-17)
	if want := math.Sin(60) / 30; math.Abs(got-want) > 1e-15 {
		t.Errorf("∫cos(30x) over [0,2] = %.17g, want %.17g", got, want)
	}
}
