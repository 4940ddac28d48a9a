package homogeneous

import (
	"math"
	"strings"
	"testing"

	"github.com/featmap/featmap/design"
)

// TestNewReferenceSets checks the verification inputs and the dense λ grid
// for integer and interval domains: the inputs (every integer, or 0 and
// 1500 log-spaced points with exact ends and a constant ratio to 1e-12),
// their description, the dense grid on [0, log(hi/m)] with step ≤ 0.001 and
// at least 2001 points, and Z left nil.
func TestNewReferenceSets(t *testing.T) {
	tests := []struct {
		name      string
		dom       design.Domain
		nInputs   int
		m         float64 // smallest nonzero input
		inputsOn  string
		nDenseMin int
	}{
		{"8-bit", design.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}}, 256, 1, "x, y ∈ {0..255}", 5543},
		{"integer from 3", design.Domain{Integer: true, Lo: []float64{3}, Hi: []float64{10}}, 8, 3, "x, y ∈ {3..10}", 2001},
		{"interval", design.Domain{Lo: []float64{1e-6}, Hi: []float64{1}}, 1501, 1e-6, "x, y ∈ {0} ∪ 1500 log-spaced points in [1e-06, 1]", 13817},
		{"short interval", design.Domain{Lo: []float64{0.5}, Hi: []float64{1}}, 1501, 0.5, "x, y ∈ {0} ∪ 1500 log-spaced points in [0.5, 1]", 2001},
	}
	for _, tc := range tests {
		ref, err := NewReference(Chi2, 0, tc.dom, design.Absolute)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if len(ref.Inputs) != tc.nInputs || ref.InputsOn != tc.inputsOn {
			t.Errorf("%s: %d inputs on %q, want %d on %q", tc.name, len(ref.Inputs), ref.InputsOn, tc.nInputs, tc.inputsOn)
		}
		lo, hi := tc.dom.Lo[0], tc.dom.Hi[0]
		if tc.dom.Integer {
			for i, x := range ref.Inputs {
				if x[0] != lo+float64(i) {
					t.Fatalf("%s: input %d is %v", tc.name, i, x)
				}
			}
		} else {
			in := ref.Inputs
			if in[0][0] != 0 || in[1][0] != lo || in[len(in)-1][0] != hi {
				t.Errorf("%s: inputs start %v, %v and end %v", tc.name, in[0], in[1], in[len(in)-1])
			}
			ratio := math.Pow(hi/lo, 1.0/1499)
			for i := 2; i < len(in); i++ {
				if relErr(in[i][0]/in[i-1][0], ratio) > 1e-12 {
					t.Fatalf("%s: inputs %d, %d are not log-spaced: %v, %v", tc.name, i-1, i, in[i-1], in[i])
				}
			}
		}
		M := math.Log(hi / tc.m)
		d := ref.Dense
		if len(d) != tc.nDenseMin || d[0][0] != 0 || relErr(d[len(d)-1][0], M) > 1e-15 {
			t.Errorf("%s: dense grid has %d points from %v to %v, want %d on [0, %v]", tc.name, len(d), d[0], d[len(d)-1], tc.nDenseMin, M)
		}
		for i := 1; i < len(d); i++ {
			if d[i][0]-d[i-1][0] > DenseStep*(1+1e-12) {
				t.Fatalf("%s: dense step %v > %v", tc.name, d[i][0]-d[i-1][0], DenseStep)
			}
		}
		if !strings.Contains(ref.DenseOn, "points of λ ∈ [0,") {
			t.Errorf("%s: DenseOn %q", tc.name, ref.DenseOn)
		}
		if ref.Measure != design.Absolute {
			t.Errorf("%s: measure %q", tc.name, ref.Measure)
		}
	}
}

// TestNewReferenceFunctions checks Exact, Signature and the weights of the
// three measures: w_A = e^{−γλ/2}, w_R = 1/k(λ), uniform 1 (to 1e-15
// relative), for γ = 1 and 0.5.
func TestNewReferenceFunctions(t *testing.T) {
	dom := design.Domain{Lo: []float64{1e-3}, Hi: []float64{1}}
	for _, k := range Kernels() {
		for _, g := range []float64{1, 0.5} {
			for _, meas := range []design.Measure{design.Absolute, design.Relative, design.Uniform} {
				ref, err := NewReference(k, g, dom, meas)
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range []float64{0, 0.7, 3, 6.9} {
					var w float64
					switch meas {
					case design.Absolute:
						w = math.Exp(-g * l / 2)
					case design.Relative:
						w = 1 / k.Signature(l)
					default:
						w = 1
					}
					if relErr(ref.Weight([]float64{l}), w) > 1e-15 || ref.Signature([]float64{l}) != k.Signature(l) {
						t.Errorf("%s γ=%g %s: at λ=%g weight %v (want %v), signature %v", k, g, meas, l, ref.Weight([]float64{l}), w, ref.Signature([]float64{l}))
					}
				}
				if got, want := ref.Exact([]float64{0.2}, []float64{0.7}), k.Eval(0.2, 0.7, g); got != want {
					t.Errorf("%s γ=%g: Exact %v, want %v", k, g, got, want)
				}
			}
		}
	}
}

// TestNewReferenceVerify ties the weights to design.Verify on real maps.
// With y = hi the absolute kernel error of a Fourier map is
// hi^γ·w_A(λ)|k − k̂| and the relative one w_R(λ)|k − k̂|, so the pair L∞
// can never exceed the weighted dense-grid L∞ (times hi^γ) by more than
// the grid's resolution (1e-6 relative allowed); for χ² 5D on {0..255} the
// worst pair is x = y = 255, so the two are equal there (1e-9 relative).
// The exact Hellinger map has zero error to 1e-13 absolute.
func TestNewReferenceVerify(t *testing.T) {
	dom := design.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}}
	for _, k := range []Kernel{Chi2, Intersection, JS} {
		m, err := VZ(Problem{Kernel: k, Domain: dom, Dim: 5}, VZOptions{})
		if err != nil {
			t.Fatal(err)
		}
		abs, err := NewReference(k, 1, dom, design.Absolute)
		if err != nil {
			t.Fatal(err)
		}
		v := design.Verify(m, abs)
		if v.Absolute.LInf > 255*v.Signature.LInf*(1+1e-6) {
			t.Errorf("%s: pair L∞ %v > 255 × weighted signature L∞ %v", k, v.Absolute.LInf, v.Signature.LInf)
		}
		if k == Chi2 && relErr(v.Absolute.LInf, 255*v.Signature.LInf) > 1e-9 {
			t.Errorf("χ² 5D: pair L∞ %v, 255 × signature L∞ %v: not equal", v.Absolute.LInf, 255*v.Signature.LInf)
		}
		rel, err := NewReference(k, 1, dom, design.Relative)
		if err != nil {
			t.Fatal(err)
		}
		v = design.Verify(m, rel)
		if v.Reported.LInf > v.Signature.LInf*(1+1e-6) {
			t.Errorf("%s: relative pair L∞ %v > weighted signature L∞ %v", k, v.Reported.LInf, v.Signature.LInf)
		}
	}
	m, err := VZ(Problem{Kernel: Hellinger, Gamma: 0.5, Domain: dom, Dim: 1}, VZOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := NewReference(Hellinger, 0.5, dom, design.Absolute)
	if err != nil {
		t.Fatal(err)
	}
	if v := design.Verify(m, ref); v.Absolute.LInf > 1e-13 || v.Signature.LInf > 1e-15 {
		t.Errorf("hellinger: errors %v, %v; want ≈ 0", v.Absolute, v.Signature)
	}
}

// TestNewReferenceBadInput checks the errors.
func TestNewReferenceBadInput(t *testing.T) {
	iv := design.Domain{Lo: []float64{0.1}, Hi: []float64{1}}
	tests := []struct {
		name string
		k    Kernel
		g    float64
		dom  design.Domain
		meas design.Measure
		want string
	}{
		{"kernel", "rbf", 1, iv, design.Absolute, "unknown kernel"},
		{"gamma", Chi2, -1, iv, design.Absolute, "gamma -1"},
		{"measure", Chi2, 1, iv, "max", "unknown error measure"},
		{"open interval", Chi2, 1, design.Domain{Lo: []float64{0}, Hi: []float64{1}}, design.Absolute, "no smallest nonzero input"},
		{"two axes", Chi2, 1, design.Domain{Lo: []float64{0, 0}, Hi: []float64{1, 1}}, design.Absolute, "exactly one axis"},
		{"negative", Chi2, 1, design.Domain{Lo: []float64{-1}, Hi: []float64{1}}, design.Absolute, "negative inputs"},
		{"fraction", Chi2, 1, design.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{2.5}}, design.Absolute, "non-integer ends"},
		{"huge", Chi2, 1, design.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{1e9}}, design.Absolute, "more than"},
		{"infinite", Chi2, 1, design.Domain{Lo: []float64{1}, Hi: []float64{math.Inf(1)}}, design.Absolute, "not finite"},
	}
	for _, tc := range tests {
		if _, err := NewReference(tc.k, tc.g, tc.dom, tc.meas); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestGridG checks the grid of formulas.md §1.3: 61 log-spaced points from
// 1e-6 to 1 (ratio 10^{0.1} to 1e-14) and i/20, i = 1..20.
func TestGridG(t *testing.T) {
	g := GridG()
	if len(g) != 81 || g[0] != 1e-6 || g[60] != 1 || g[61] != 0.05 || g[80] != 1 {
		t.Fatalf("GridG: %d points, %v … %v", len(g), g[:2], g[len(g)-2:])
	}
	for i := 1; i <= 60; i++ {
		if relErr(g[i]/g[i-1], math.Pow(10, 0.1)) > 1e-14 {
			t.Errorf("G[%d]/G[%d] = %v", i, i-1, g[i]/g[i-1])
		}
	}
	for i := 1; i <= 20; i++ {
		if g[60+i] != float64(i)/20 {
			t.Errorf("G[%d] = %v, want %v", 60+i, g[60+i], float64(i)/20)
		}
	}
}
