package chum

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// homogeneousLine is the fitting problem of a homogeneous kernel on the
// integers lo..hi with the absolute error.
func homogeneousLine(t *testing.T, typ string, gamma float64, lo, hi float64) *line {
	t.Helper()
	l, err := newLine(&fmap.Problem{
		Kernel: fmap.Kernel{Type: typ, Gamma: gamma}, Domain: fmap.Domain{Integer: true, Lo: []float64{lo}, Hi: []float64{hi}},
		Measure: fmap.Absolute, Norm: fmap.LInf, Negative: fmap.NegativeSign,
	})
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestExactSetSmallDomain enumerates the attainable λ of {0..3} by hand:
// ratios 1, 3/2, 2, 3 with largest amplitudes √(3·3), √(2·3), √(1·2), √(1·3)
// (divided by hi = 3 for the absolute error).
func TestExactSetSmallDomain(t *testing.T) {
	l := homogeneousLine(t, fmap.Chi2, 1, 0, 3)
	want := []struct{ l, w float64 }{
		{0, 1}, {math.Log(1.5), math.Sqrt(6) / 3}, {math.Log(2), math.Sqrt(2) / 3}, {math.Log(3), math.Sqrt(3) / 3},
	}
	e := l.Exact
	if e == nil || len(e.Lambda) != len(want) {
		t.Fatalf("exact set %+v, want %d points", e, len(want))
	}
	for i, w := range want {
		if math.Abs(e.Lambda[i]-w.l) > 1e-15 || math.Abs(e.Weight[i]-w.w) > 1e-15 {
			t.Errorf("point %d: λ %v weight %v, want %v %v", i, e.Lambda[i], e.Weight[i], w.l, w.w)
		}
		// The continuous weight w_A bounds the exact one from above.
		if e.Weight[i] > l.weight(e.Lambda[i])*(1+1e-15) {
			t.Errorf("point %d: exact weight %v above w_A %v", i, e.Weight[i], l.weight(e.Lambda[i]))
		}
	}
}

// TestExactSetMatchesPairs checks the exact set of {2..40} against a brute
// force over all pairs: every pair's λ is in the set, and the set's weight
// is the largest amplitude among the pairs with that λ.
func TestExactSetMatchesPairs(t *testing.T) {
	const lo, hi = 2, 40
	l := homogeneousLine(t, fmap.JS, 0.5, lo, hi)
	best := map[[2]int]float64{}
	for x := lo; x <= hi; x++ {
		for y := x; y <= hi; y++ {
			g := gcd(x, y)
			key := [2]int{x / g, y / g}
			best[key] = math.Max(best[key], math.Pow(float64(x*y), 0.25)/math.Pow(hi, 0.5))
		}
	}
	if len(best) != len(l.Exact.Lambda) {
		t.Fatalf("%d distinct ratios by brute force, %d in the exact set", len(best), len(l.Exact.Lambda))
	}
	for key, w := range best {
		lam := math.Log(float64(key[1]) / float64(key[0]))
		found := false
		for i, el := range l.Exact.Lambda {
			if math.Abs(el-lam) < 1e-14 {
				found = true
				if math.Abs(l.Exact.Weight[i]-w) > 1e-14 {
					t.Errorf("ratio %d/%d: weight %v, want %v", key[1], key[0], l.Exact.Weight[i], w)
				}
			}
		}
		if !found {
			t.Errorf("ratio %d/%d missing", key[1], key[0])
		}
	}
}

// TestMaxAbs: maxAbs(m, x) is math.Max(m, |x|) for m ≥ 0 and NaN, bit for
// bit, NaN and infinities included.
func TestMaxAbs(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1e-300, 0.5, -0.5, 2, -3, math.Inf(1), math.Inf(-1), math.NaN()}
	for _, m := range vals {
		if m < 0 || math.Signbit(m) {
			continue
		}
		for _, x := range vals {
			got, want := maxAbs(m, x), math.Max(m, math.Abs(x))
			if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
				t.Errorf("maxAbs(%g, %g) = %g, math.Max gives %g", m, x, got, want)
			}
		}
	}
}

// TestResiduals1D: the one-dimensional Fourier residuals (cos(ωz) inline)
// are phiGrad's, bit for bit, zero weights, ω = 0 and z = −0 included.
func TestResiduals1D(t *testing.T) {
	z := [][]float64{{0}, {math.Copysign(0, -1)}, {0.001}, {1.7}, {5.54}, {-2.5}, {123.25}}
	w := []float64{1, 0.5, 2, 1e-3, 7, 1, 0.25}
	f := newFitSet(fmap.FourierForm, fmap.LInf, z, w, func(p []float64) float64 { return math.Exp(-p[0] * p[0]) })
	omega := [][]float64{{0}, {0.3}, {1.1}, {math.Copysign(0, -1)}, {2.9}}
	alpha := []float64{0.5, 0.25, 0, 0.125, 1e-9}
	got := make([]float64, len(z))
	f.residuals(got, omega, alpha)
	for i, want := range phiGradResiduals(f, omega, alpha) {
		if math.Float64bits(got[i]) != math.Float64bits(want) {
			t.Errorf("point %v: residual %v, phiGrad's %v", z[i], got[i], want)
		}
	}
}

// phiGradResiduals is residuals from phiGrad point by point: w_i (k_i −
// Σ_j α_j φ(ω_j, z_i)), the terms in order.
func phiGradResiduals(f *fitSet, omega [][]float64, alpha []float64) []float64 {
	r := make([]float64, f.size())
	for i := range r {
		s := f.k[i]
		for j, a := range alpha {
			if a != 0 {
				s -= a * f.phiGrad(omega[j], f.point(i), nil)
			}
		}
		r[i] = f.w[i] * s
	}
	return r
}

// TestPhiGrads1D: the one-dimensional Fourier φ and ∂φ/∂ω at every point
// are phiGrad's, bit for bit (signed zeros included).
func TestPhiGrads1D(t *testing.T) {
	z := [][]float64{{0}, {math.Copysign(0, -1)}, {0.001}, {1.7}, {5.54}, {-2.5}, {123.25}}
	w := []float64{1, 1, 1, 1, 1, 1, 1}
	f := newFitSet(fmap.FourierForm, fmap.LInf, z, w, func(p []float64) float64 { return 1 })
	for _, om := range [][]float64{{0}, {math.Copysign(0, -1)}, {0.3}, {-1.1}, {2.9}} {
		phi, grad := make([]float64, len(z)), make([]float64, len(z))
		f.phiGrads(om, phi, grad)
		for i := range z {
			g := make([]float64, 1)
			p := f.phiGrad(om, f.point(i), g)
			if math.Float64bits(phi[i]) != math.Float64bits(p) || math.Float64bits(grad[i]) != math.Float64bits(g[0]) {
				t.Errorf("ω %v, z %v: φ %v ∂φ %v, phiGrad's %v %v", om, z[i], phi[i], grad[i], p, g[0])
			}
		}
	}
}

// TestResidualsTrig1D: residualsTrig's residuals are residuals' and the
// cosines and sines it records give phiGrads' φ and ∂φ/∂ω = −z·sin, bit
// for bit (signed zeros included); a term of weight 0 is not recorded.
func TestResidualsTrig1D(t *testing.T) {
	z := [][]float64{{0}, {math.Copysign(0, -1)}, {0.001}, {1.7}, {5.54}, {-2.5}, {123.25}, {1e6}}
	w := []float64{1, 0.5, 2, 1e-3, 7, 1, 0.25, 3}
	f := newFitSet(fmap.FourierForm, fmap.LInf, z, w, func(p []float64) float64 { return math.Exp(-p[0] * p[0]) })
	omega := [][]float64{{0}, {0.3}, {1.1}, {math.Copysign(0, -1)}, {2.9}, {-0.7}}
	alpha := []float64{0.5, 0.25, 0, 0.125, 1e-9, 0.75}
	want, got := make([]float64, len(z)), make([]float64, len(z))
	f.residuals(want, omega, alpha)
	tr := &polishTrig{}
	for range 2 { // the second call reuses the buffers
		f.residualsTrig(got, omega, alpha, tr)
		for i := range z {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Errorf("point %v: residual %v, residuals' %v", z[i], got[i], want[i])
			}
		}
		for j, om := range omega {
			if tr.known[j] != (alpha[j] != 0) {
				t.Fatalf("term %d (α %v): known %v", j, alpha[j], tr.known[j])
			}
			if !tr.known[j] {
				continue
			}
			phi, grad := make([]float64, len(z)), make([]float64, len(z))
			f.phiGrads(om, phi, grad)
			for i, p := range f.z {
				if g := -p * tr.sin[j][i]; math.Float64bits(tr.cos[j][i]) != math.Float64bits(phi[i]) || math.Float64bits(g) != math.Float64bits(grad[i]) {
					t.Errorf("ω %v, z %v: cos %v −z·sin %v, phiGrads' %v %v", om, p, tr.cos[j][i], g, phi[i], grad[i])
				}
			}
		}
		alpha[2], alpha[4] = 0.5, 0 // a term gains weight, another loses it
		f.residuals(want, omega, alpha)
	}
}

// TestPhiGradsND: in 1, 2 and 3 dimensions, for modulation and Fourier
// (projection) terms, phiGrads' φ and ∂φ/∂ω, phis' φ and the residuals
// are phiGrad's, bit for bit, on more points than one block of trigChunk
// entries holds (and a number that is no multiple of 4), with zero and
// −0 frequency coordinates, zero weights and large phases.
func TestPhiGradsND(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 7))
	for _, n := range []int{1, 2, 3} {
		for _, form := range []fmap.Form{fmap.Modulation, fmap.FourierForm} {
			npts := trigChunk + 37
			z := make([][]float64, npts)
			w := make([]float64, npts)
			for i := range z {
				z[i] = make([]float64, n)
				for c := range z[i] {
					z[i][c] = 4 * (rng.Float64() - 0.5)
				}
				w[i] = rng.Float64()
			}
			z[0][0], z[1][n-1] = 0, math.Copysign(0, -1)
			z[2][0] = 1e7
			f := newFitSet(form, fmap.LInf, z, w, func(p []float64) float64 { return math.Exp(-p[0] * p[0]) })
			var omega [][]float64
			for range 9 {
				om := make([]float64, n)
				for c := range om {
					switch rng.IntN(4) {
					case 0:
					case 1:
						om[c] = math.Copysign(0, -1)
					default:
						om[c] = 10 * (rng.Float64() - 0.3)
					}
				}
				omega = append(omega, om)
			}
			omega = append(omega, make([]float64, n))
			alpha := make([]float64, len(omega))
			for j := range alpha {
				if j%4 != 1 {
					alpha[j] = rng.Float64()
				}
			}
			for _, om := range omega {
				phi, grad, phi2 := make([]float64, npts), make([]float64, npts*n), make([]float64, npts)
				f.phiGrads(om, phi, grad)
				f.phis(om, 0, phi2)
				for i := range npts {
					g := make([]float64, n)
					p := f.phiGrad(om, f.point(i), g)
					if math.Float64bits(phi[i]) != math.Float64bits(p) || math.Float64bits(phi2[i]) != math.Float64bits(p) {
						t.Fatalf("n %d, form %v, ω %v, point %d: φ %v (phis %v), phiGrad's %v", n, form, om, i, phi[i], phi2[i], p)
					}
					for c := range g {
						if math.Float64bits(grad[i*n+c]) != math.Float64bits(g[c]) {
							t.Fatalf("n %d, form %v, ω %v, point %d: ∂φ/∂ω_%d %v, phiGrad's %v", n, form, om, i, c, grad[i*n+c], g[c])
						}
					}
				}
			}
			got := make([]float64, npts)
			f.residuals(got, omega, alpha)
			for i, want := range phiGradResiduals(f, omega, alpha) {
				if math.Float64bits(got[i]) != math.Float64bits(want) {
					t.Fatalf("n %d, form %v, point %d: residual %v, phiGrad's %v", n, form, i, got[i], want)
				}
			}
		}
	}
}
