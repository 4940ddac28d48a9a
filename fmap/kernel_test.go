package fmap

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestKernelExactRefs checks Eval1 against the exact_* rows of
// formula_refs.csv (K(x, 0.5), γ = 1, 30-digit values rounded to double) to
// 4e-15 relative, and its symmetry to 4e-16.
func TestKernelExactRefs(t *testing.T) {
	names := map[string]string{"exact_chi2": Chi2, "exact_inters": Intersection, "exact_js": JS, "exact_hell": Hellinger}
	rows := formulaRefs(t, "exact_")
	for _, r := range rows {
		typ, ok := names[r.method]
		if !ok {
			t.Fatalf("unknown method %q", r.method)
		}
		k := Kernel{Type: typ, Gamma: 1}
		y, ok := strings.CutPrefix(r.component, "K(y=")
		if !ok {
			t.Fatalf("component %q", r.component)
		}
		x, yv := mustFloat(t, r.x), mustFloat(t, strings.TrimSuffix(y, ")"))
		got := k.Eval1(x, yv)
		if e := relErr(got, r.value); e > 4e-15 {
			t.Errorf("%s(%v, %v) = %.17g, want %.17g (rel. %.2g > 4e-15)", typ, x, yv, got, r.value, e)
		}
		if got2 := k.Eval1(yv, x); relErr(got2, got) > 4e-16 {
			t.Errorf("%s is not symmetric at (%v, %v): %.17g and %.17g", typ, x, yv, got, got2)
		}
	}
}

// closedForm returns the γ = 1 kernels written directly in x and y (the
// definitions of the table of docs/formulas.md §1.1, JS with log1p), for
// comparison.
func closedForm(typ string, x, y float64) float64 {
	switch typ {
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

// signatureForm returns (xy)^{γ/2}·k(log(y/x)) for x, y > 0: the definition
// of a homogeneous kernel (Vedaldi–Zisserman, TPAMI 2012, §3), computed
// from Signature1 independently of Eval1's γ = 1 direct forms. log(y/x) is
// taken with logRatio, which stays finite where y/x overflows or
// underflows (x = 1e-300, y = 1e300).
func signatureForm(k Kernel, x, y float64) float64 {
	g := k.gamma()
	return math.Pow(x, g/2) * math.Pow(y, g/2) * k.Signature1(logRatio(y, x))
}

// TestKernelEval checks Eval1 against the closed forms for γ = 1 on a grid
// (4e-15 relative), its γ = 1 direct forms against the signature form
// (4e-15 + 2e-16|λ| relative, extreme ratios included: exp amplifies the
// rounding of λ), homogeneity K_γ(tx, ty) = t^γ K_γ(x, y) for γ = 0.5, 1,
// 2 (1e-14 relative), the zero and invalid-input cases, γ = 0 meaning 1, and
// finiteness at the ends of the float64 range.
func TestKernelEval(t *testing.T) {
	pts := []float64{1e-12, 1e-6, 0.003, 0.1, 0.25, 0.5, 0.9, 1, 3, 255, 1e6}
	for _, typ := range HomogeneousTypes() {
		k1 := Kernel{Type: typ, Gamma: 1}
		for _, x := range pts {
			for _, y := range pts {
				if e := relErr(k1.Eval1(x, y), closedForm(typ, x, y)); e > 4e-15 {
					t.Errorf("%s(%g, %g): Eval1 %.17g, closed form %.17g (rel. %.2g)", typ, x, y, k1.Eval1(x, y), closedForm(typ, x, y), e)
				}
				for _, g := range []float64{0.5, 1, 2} {
					kg := Kernel{Type: typ, Gamma: g}
					for _, s := range []float64{1e-3, 7, 1e4} {
						want := math.Pow(s, g) * kg.Eval1(x, y)
						if e := relErr(kg.Eval1(s*x, s*y), want); e > 1e-14 {
							t.Errorf("%s γ=%g: K(%g·%g, %g·%g) = %.17g, t^γ K = %.17g (rel. %.2g)", typ, g, s, x, s, y, kg.Eval1(s*x, s*y), want, e)
						}
					}
				}
			}
			if v := k1.Eval1(0, x); v != 0 {
				t.Errorf("%s(0, %g) = %g, want 0", typ, x, v)
			}
			if v := (Kernel{Type: typ, Gamma: 0.5}).Eval1(x, 0); v != 0 {
				t.Errorf("%s(%g, 0) = %g, want 0", typ, x, v)
			}
		}
		// The γ = 1 direct forms agree with the signature form.
		for _, x := range append(pts, 1e-300, 1e300, 7e-200) {
			for _, y := range append(pts, 1e-300, 1e300, 3e150) {
				// The signature form loses |λ|·ulp(log y) to exp's argument.
				tol := 4e-15 + 2e-16*math.Abs(math.Log(y)-math.Log(x))
				if e := relErr(k1.Eval1(x, y), signatureForm(k1, x, y)); e > tol {
					t.Errorf("%s(%g, %g): Eval1 %.17g, signature form %.17g (rel. %.2g)", typ, x, y, k1.Eval1(x, y), signatureForm(k1, x, y), e)
				}
			}
		}
		for _, bad := range [][3]float64{{-1, 1, 1}, {1, math.NaN(), 1}, {math.Inf(1), 1, 1}, {1, 1, -1}, {1, 1, math.Inf(1)}, {1, 1, math.NaN()}} {
			if v := (Kernel{Type: typ, Gamma: bad[2]}).Eval1(bad[0], bad[1]); !math.IsNaN(v) {
				t.Errorf("%s.Eval1(%v, %v) with γ=%v = %v, want NaN", typ, bad[0], bad[1], bad[2], v)
			}
		}
		big, tiny := math.MaxFloat64, math.SmallestNonzeroFloat64
		for _, p := range [][2]float64{{big, big}, {tiny, big}, {big, tiny}, {tiny, tiny}, {1e-300, 1e300}} {
			v := k1.Eval1(p[0], p[1])
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				t.Errorf("%s(%g, %g) = %v, want finite and ≥ 0", typ, p[0], p[1], v)
			}
		}
		if (Kernel{Type: typ}).Eval1(0.3, 0.7) != k1.Eval1(0.3, 0.7) {
			t.Errorf("%s: gamma 0 does not mean 1", typ)
		}
		if v := k1.Eval1(big, big); relErr(v, big) > 4e-16 {
			t.Errorf("%s(max, max) = %g, want %g", typ, v, big)
		}
		// The vector kernel is the sum of the per-coordinate ones.
		x, y := []float64{0.2, 3, 0}, []float64{0.7, 1, 5}
		want := k1.Eval1(0.2, 0.7) + k1.Eval1(3, 1) + k1.Eval1(0, 5)
		if got := k1.Eval(x, y); got != want {
			t.Errorf("%s: Eval(%v, %v) = %v, want the sum %v", typ, x, y, got, want)
		}
	}
	if v := (Kernel{Type: "x"}).Eval1(1, 1); !math.IsNaN(v) {
		t.Errorf("unknown kernel Eval1 = %v, want NaN", v)
	}
}

// TestSignatureExtreme checks that the signatures are finite, nonnegative
// and even for |λ| up to and beyond 700 (where e^{|λ|} overflows), that they
// follow their asymptotic forms there (χ²: 2e^{−a/2}, intersection e^{−a/2},
// JS: e^{−a/2}(a+1)/(2 ln 2), each to 1e-14 relative; Hellinger 1), that
// k(λ) = K_1(e^{λ/2}, e^{−λ/2}) for moderate λ (1e-14 relative), that
// Signature of a one-element λ is Signature1, and that NaN propagates.
func TestSignatureExtreme(t *testing.T) {
	for _, typ := range HomogeneousTypes() {
		k := Kernel{Type: typ}
		for _, a := range []float64{700, 710, 745, 1000, 1500, 1e4, 1e308, math.Inf(1)} {
			v, w := k.Signature1(a), k.Signature1(-a)
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v != w {
				t.Errorf("%s: k(±%g) = %v, %v; want equal, finite and ≥ 0", typ, a, v, w)
			}
			var want float64
			switch typ {
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
				t.Errorf("%s: k(%g) = %.17g, asymptotic form %.17g", typ, a, v, want)
			}
		}
		for _, l := range []float64{-30, -5, -1, -0.3, 0, 1e-9, 0.3, 1, 2.5, 5, 10, 30} {
			want := k.Eval1(math.Exp(l/2), math.Exp(-l/2))
			if e := relErr(k.Signature1(l), want); e > 1e-14 {
				t.Errorf("%s: k(%g) = %.17g, K(e^{λ/2}, e^{−λ/2}) = %.17g (rel. %.2g)", typ, l, k.Signature1(l), want, e)
			}
			if k.Signature([]float64{l}) != k.Signature1(l) {
				t.Errorf("%s: Signature([%g]) = %v, Signature1 %v", typ, l, k.Signature([]float64{l}), k.Signature1(l))
			}
		}
		if !math.IsNaN(k.Signature1(math.NaN())) {
			t.Errorf("%s: NaN does not propagate", typ)
		}
	}
}

// TestHomogeneousEvalSumsEval1 holds the additive kernels' Eval to the sum
// of Eval1 over the coordinates, bit for bit, on every kind of coordinate
// pair: the direct forms for positive finite pairs take a loop of their
// own, which must compute the same operations and round each term before
// it is added, as the emitted kernels do (a multiply-add fused into the
// sum, which GOAMD64=v3 allows, moves the last bits).
func TestHomogeneousEvalSumsEval1(t *testing.T) {
	edges := []float64{0, math.Copysign(0, -1), -1, 1, 0.5, 3, 0x1p-1074, 0x1p-1022, math.MaxFloat64, math.MaxFloat64 / 2, math.Inf(1), math.Inf(-1), math.NaN()}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		edges = append(edges, rng.Float64(), math.Exp(60*rng.NormFloat64()))
	}
	for _, typ := range []string{Chi2, Intersection, JS, Hellinger} {
		for _, g := range []float64{0, 1, 0.5} {
			k := Kernel{Type: typ, Gamma: g}
			for _, a := range edges {
				// The sum over the defined pairs (a NaN term would hide
				// every other), then each pair alone.
				x, y := make([]float64, 0, len(edges)), make([]float64, 0, len(edges))
				want := 0.0
				for _, b := range edges {
					if v := k.Eval1(a, b); !math.IsNaN(v) {
						x, y = append(x, a), append(y, b)
						want += float64(v) // each term rounded, never fused into the sum
					}
				}
				if got := k.Eval(x, y); math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Fatalf("%s γ = %v, x = %v against the edges: Eval %v, Σ Eval1 %v", typ, g, a, got, want)
				}
				for _, b := range edges {
					got, want := k.Eval([]float64{a}, []float64{b}), k.Eval1(a, b)
					if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
						t.Fatalf("%s γ = %v: Eval(%v, %v) = %v, Eval1 %v", typ, g, a, b, got, want)
					}
				}
			}
		}
	}
}

// BenchmarkAdditiveEval: the χ² kernel of two 64-bin histograms (a tenth
// of the bins empty) by Eval against the sum of Eval1 over the bins, the
// path every coordinate took before Eval's loop of direct forms.
func BenchmarkAdditiveEval(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	x, y := make([]float64, 64), make([]float64, 64)
	for i := range x {
		if rng.IntN(10) > 0 {
			x[i], y[i] = rng.Float64(), rng.Float64()
		}
	}
	k := Kernel{Type: Chi2}
	var sink float64
	b.Run("eval", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			sink += k.Eval(x, y)
		}
	})
	b.Run("sum-of-eval1", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s := 0.0
			for i := range x {
				s += k.Eval1(x[i], y[i])
			}
			sink += s
		}
	})
	_ = sink
}
