package homogeneous

import (
	"math"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// TestSpectrumTransform checks each spectrum against the Fourier transform
// of its signature, κ(ω) = (1/π)∫_0^∞ k(λ)cos(ωλ)dλ, by quadrature on
// [0, 120] (the tail is below e^{−60}), to 1e-13 absolute (κ ≤ 1.5), that
// the spectra are even and stay finite and nonnegative for huge ω, that
// Hellinger's is the delta, and that NaN (or an unknown type) gives NaN.
func TestSpectrumTransform(t *testing.T) {
	for _, k := range []string{fmap.Chi2, fmap.Intersection, fmap.JS} {
		for _, w := range []float64{0, 0.3, 1, 2.5, 4} {
			f := func(l float64) float64 { return signature(k, l) * math.Cos(w*l) }
			s := 0.0
			for p := range 120 {
				s += integrate(f, float64(p), float64(p+1), 1e-17)
			}
			got := s / math.Pi
			if d := math.Abs(got - Spectrum(k, w)); d > 1e-13 {
				t.Errorf("%s: κ(%g) = %.17g, transform of k %.17g (diff %.2g)", k, w, Spectrum(k, w), got, d)
			}
			if Spectrum(k, -w) != Spectrum(k, w) {
				t.Errorf("%s: κ is not even at %g", k, w)
			}
		}
		for _, w := range []float64{300, 1e6, 1e200, math.Inf(1)} {
			if v := Spectrum(k, w); math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Errorf("%s: κ(%g) = %v", k, w, v)
			}
		}
	}
	if !math.IsInf(Spectrum(fmap.Hellinger, 0), 1) || Spectrum(fmap.Hellinger, 0.1) != 0 {
		t.Errorf("Hellinger's spectrum is not the delta: %v, %v", Spectrum(fmap.Hellinger, 0), Spectrum(fmap.Hellinger, 0.1))
	}
	for _, k := range fmap.HomogeneousTypes() {
		if !math.IsNaN(Spectrum(k, math.NaN())) || !math.IsNaN(signature(k, math.NaN())) {
			t.Errorf("%s: NaN does not propagate", k)
		}
	}
	if v := Spectrum(fmap.RBF, 1); !math.IsNaN(v) {
		t.Errorf("Spectrum(rbf) = %v, want NaN (not a homogeneous type)", v)
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
