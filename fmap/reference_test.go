package fmap

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// homogeneousProblem is the problem of the homogeneous kernel typ with
// degree gamma on dom for the measure (L∞ norm, sign rule).
func homogeneousProblem(typ string, gamma float64, dom Domain, meas Measure) *Problem {
	return &Problem{Kernel: Kernel{Type: typ, Gamma: gamma}, Domain: dom, Measure: meas, Norm: LInf, Negative: NegativeSign}
}

// TestReferenceSets checks the verification inputs and the dense λ grid of
// a homogeneous kernel for integer and interval domains: the inputs (every
// integer, or 0 and 1500 log-spaced points with exact ends and a constant
// ratio to 1e-12), their description, the dense grid on [0, log(hi/m)] with
// step ≤ 0.001 and at least 2001 points, the measure, and that the
// reference is built once per problem.
func TestReferenceSets(t *testing.T) {
	tests := []struct {
		name      string
		dom       Domain
		nInputs   int
		m         float64 // smallest nonzero input
		inputsOn  string
		nDenseMin int
	}{
		{"8-bit", Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}}, 256, 1, "x, y ∈ {0..255}", 5543},
		{"integer from 3", Domain{Integer: true, Lo: []float64{3}, Hi: []float64{10}}, 8, 3, "x, y ∈ {3..10}", 2001},
		{"interval", Domain{Lo: []float64{1e-6}, Hi: []float64{1}}, 1501, 1e-6, "x, y ∈ {0} ∪ 1500 log-spaced points in [1e-06, 1]", 13817},
		{"short interval", Domain{Lo: []float64{0.5}, Hi: []float64{1}}, 1501, 0.5, "x, y ∈ {0} ∪ 1500 log-spaced points in [0.5, 1]", 2001},
	}
	for _, tc := range tests {
		p := homogeneousProblem(Chi2, 0, tc.dom, Absolute)
		ref, err := p.Reference()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if again, _ := p.Reference(); again != ref || ref.Problem != p {
			t.Errorf("%s: the reference is not built once per problem", tc.name)
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
		if ref.Measure != Absolute {
			t.Errorf("%s: measure %q", tc.name, ref.Measure)
		}
	}
}

// TestReferenceFunctions checks Exact, Signature and the weights of the
// three measures for the homogeneous kernels: w_A = e^{−γλ/2}, w_R =
// 1/k(λ), uniform 1 (to 1e-15 relative), for γ = 1 and 0.5.
func TestReferenceFunctions(t *testing.T) {
	dom := Domain{Lo: []float64{1e-3}, Hi: []float64{1}}
	for _, typ := range HomogeneousTypes() {
		for _, g := range []float64{1, 0.5} {
			k := Kernel{Type: typ, Gamma: g}
			for _, meas := range []Measure{Absolute, Relative, Uniform} {
				ref, err := homogeneousProblem(typ, g, dom, meas).Reference()
				if err != nil {
					t.Fatal(err)
				}
				for _, l := range []float64{0, 0.7, 3, 6.9} {
					var w float64
					switch meas {
					case Absolute:
						w = math.Exp(-g * l / 2)
					case Relative:
						w = 1 / k.Signature1(l)
					default:
						w = 1
					}
					if relErr(ref.Weight([]float64{l}), w) > 1e-15 || ref.Signature([]float64{l}) != k.Signature1(l) {
						t.Errorf("%s γ=%g %s: at λ=%g weight %v (want %v), signature %v", typ, g, meas, l, ref.Weight([]float64{l}), w, ref.Signature([]float64{l}))
					}
				}
				if got, want := ref.Exact([]float64{0.2}, []float64{0.7}), k.Eval1(0.2, 0.7); got != want {
					t.Errorf("%s γ=%g: Exact %v, want %v", typ, g, got, want)
				}
			}
		}
	}
}

// TestReferenceVerify ties the weights to Verify on a real map, the
// 5-dimensional Fourier map in log x with terms ω = 0, 0.57, 1.33 and
// weights 0.52, 0.42, 0.052 (any valid map would do). With y = hi the
// absolute kernel error of a Fourier map is hi^γ·w_A(λ)|k − k̂| and the
// relative one w_R(λ)|k − k̂|, and every other pair with the same λ has a
// smaller amplitude, so the pair L∞ can never exceed the weighted
// dense-grid L∞ (times hi^γ) by more than the grid's resolution (1e-6
// relative allowed). For χ² this map's weighted error is largest at λ = 0
// (|k − k̂| = 1 − 0.992), which the pair x = y = 255 attains, so the two
// are equal there (1e-9 relative), as they were for VLFeat's χ² 5D map.
// The exact Hellinger map has zero error to 1e-13 absolute.
func TestReferenceVerify(t *testing.T) {
	dom := Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}}
	for _, typ := range []string{Chi2, Intersection, JS} {
		p := homogeneousProblem(typ, 1, dom, Absolute)
		m := NewFourierMap(p.Kernel, dom, "test", &Fourier{
			Form: FourierForm, Transform: Log, Gamma: 1, Negative: NegativeSign,
			Terms: []Term{{Freq: []float64{0}, Weight: 0.52}, {Freq: []float64{0.57}, Weight: 0.42}, {Freq: []float64{1.33}, Weight: 0.052}},
		})
		if m.Dim != 5 {
			t.Fatalf("dim %d, want 5", m.Dim)
		}
		abs, err := p.Reference()
		if err != nil {
			t.Fatal(err)
		}
		v := Verify(m, abs)
		if v.Absolute.LInf > 255*v.Signature.LInf*(1+1e-6) {
			t.Errorf("%s: pair L∞ %v > 255 × weighted signature L∞ %v", typ, v.Absolute.LInf, v.Signature.LInf)
		}
		if typ == Chi2 && relErr(v.Absolute.LInf, 255*v.Signature.LInf) > 1e-9 {
			t.Errorf("χ² 5D: pair L∞ %v, 255 × signature L∞ %v: not equal", v.Absolute.LInf, 255*v.Signature.LInf)
		}
		rel, err := homogeneousProblem(typ, 1, dom, Relative).Reference()
		if err != nil {
			t.Fatal(err)
		}
		v = Verify(m, rel)
		if v.Reported.LInf > v.Signature.LInf*(1+1e-6) {
			t.Errorf("%s: relative pair L∞ %v > weighted signature L∞ %v", typ, v.Reported.LInf, v.Signature.LInf)
		}
	}
	p := homogeneousProblem(Hellinger, 0.5, dom, Absolute)
	m := NewFourierMap(p.Kernel, dom, "test", &Fourier{
		Form: FourierForm, Transform: Log, Gamma: 0.5, Negative: NegativeSign,
		Terms: []Term{{Freq: []float64{0}, Weight: 1}},
	})
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	if v := Verify(m, ref); v.Absolute.LInf > 1e-13 || v.Signature.LInf > 1e-15 {
		t.Errorf("hellinger: errors %v, %v; want ≈ 0", v.Absolute, v.Signature)
	}
}

// TestReferenceRBF checks the RBF references: on one axis every integer of
// an integer domain, or RBFInputs = 2001 equally spaced points of an
// interval, with the dense λ grid on [0, hi − lo] of max(2000,
// ⌈10(hi − lo)/RBFZStep⌉) + 1 points; on two axes a 15×15 grid of inputs on
// the box and a dense grid of λ = x − y over [−M₁, M₁] × [0, M₂], ten times
// denser per axis than the designer's 41-point Z, with the absolute measure
// reported as the (equal) uniform signature error. The weights of a
// shift-invariant kernel are 1 (absolute) and 1/k(λ) (relative), and Exact
// is exp(−Σ_i (x_i − y_i)²/(2σ_i²)) (1e-15 relative: the same sum in the
// same order; the product of per-axis exponentials would differ by the
// rounding of exp at arguments near 40, some 4e-15).
func TestReferenceRBF(t *testing.T) {
	tests := []struct {
		name      string
		p         *Problem
		measure   Measure
		nInputs   int
		first     []float64
		last      []float64
		inputsOn  string
		nDense    int
		lastDense []float64
		denseOn   string
	}{
		// step = min(2π/(20·5/0.5), 10/200) = 0.0314…; ⌈100/0.0314…⌉ = 3184.
		{"interval", &Problem{Kernel: Kernel{Type: RBF, Sigma: []float64{0.5}}, Domain: Domain{Lo: []float64{0}, Hi: []float64{10}}, Measure: Absolute, Norm: LInf},
			Absolute, 2001, []float64{0}, []float64{10}, "x, y on 2001 equally spaced points of [0, 10]",
			3185, []float64{10}, "3185 equally spaced λ in [0, 10]"},
		// step 1 on the integers: max(2000, 200) = 2000 steps.
		{"integers", &Problem{Kernel: Kernel{Type: RBF, Sigma: []float64{10}}, Domain: Domain{Integer: true, Lo: []float64{-5}, Hi: []float64{15}}, Measure: Relative, Norm: L1},
			Relative, 21, []float64{-5}, []float64{15}, "x, y ∈ {-5..15}",
			2001, []float64{20}, "2001 equally spaced λ in [0, 20]"},
		// Z has 41 points per axis (40 steps of π/40); ten times denser:
		// 401 points on [0, π] and 801 on [−π, π].
		{"2-D", &Problem{Kernel: Kernel{Type: RBF, Sigma: []float64{0.4, 0.6}}, Domain: Domain{Lo: []float64{0, 0}, Hi: []float64{math.Pi, math.Pi}}, Measure: Absolute, Norm: LInf},
			Uniform, 225, []float64{0, 0}, []float64{math.Pi, math.Pi}, "a 15×15 grid on the box",
			801 * 401, []float64{math.Pi, math.Pi}, "a 801×401 grid of λ = x − y over [−3.142, 3.142] × [0, 3.142]"},
	}
	for _, tc := range tests {
		ref, err := tc.p.Reference()
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if ref.Measure != tc.measure {
			t.Errorf("%s: measure %q reported, want %q", tc.name, ref.Measure, tc.measure)
		}
		in := ref.Inputs
		if len(in) != tc.nInputs || ref.InputsOn != tc.inputsOn {
			t.Errorf("%s: %d inputs on %q, want %d on %q", tc.name, len(in), ref.InputsOn, tc.nInputs, tc.inputsOn)
		}
		if !equal(in[0], tc.first) || !equal(in[len(in)-1], tc.last) {
			t.Errorf("%s: inputs from %v to %v, want %v to %v", tc.name, in[0], in[len(in)-1], tc.first, tc.last)
		}
		if tc.p.InDim() == 1 {
			step := in[1][0] - in[0][0]
			for i := 1; i < len(in); i++ {
				if math.Abs(in[i][0]-in[i-1][0]-step) > 1e-12 {
					t.Fatalf("%s: inputs %v, %v are not equally spaced", tc.name, in[i-1], in[i])
				}
			}
		}
		d := ref.Dense
		zero := make([]float64, tc.p.InDim())
		if tc.p.InDim() == 2 {
			zero[0] = -math.Pi
		}
		if len(d) != tc.nDense || ref.DenseOn != tc.denseOn || !equal(d[0], zero) || !equal(d[len(d)-1], tc.lastDense) {
			t.Errorf("%s: dense grid of %d points from %v to %v on %q, want %d from %v to %v on %q",
				tc.name, len(d), d[0], d[len(d)-1], ref.DenseOn, tc.nDense, zero, tc.lastDense, tc.denseOn)
		}
		k := tc.p.Kernel
		for _, l := range [][]float64{zero, tc.lastDense, []float64{0.3, -0.2}[:tc.p.InDim()]} {
			want := 1.0
			if tc.p.Measure == Relative {
				want = 1 / k.Signature(l)
			}
			if relErr(ref.Weight(l), want) > 1e-15 {
				t.Errorf("%s: weight at λ = %v is %v, want %v", tc.name, l, ref.Weight(l), want)
			}
		}
		x, y := in[1], in[len(in)-2]
		s := 0.0
		for i := range x {
			s += (x[i] - y[i]) * (x[i] - y[i]) / (2 * k.Sigma[i] * k.Sigma[i])
		}
		if want := math.Exp(-s); relErr(ref.Exact(x, y), want) > 1e-15 {
			t.Errorf("%s: Exact(%v, %v) = %v, want %v", tc.name, x, y, ref.Exact(x, y), want)
		}
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(a[i]-b[i]) > 1e-15*math.Max(1, math.Abs(b[i])) {
			return false
		}
	}
	return true
}

// TestReferenceBadInput checks the errors of Problem.Reference.
func TestReferenceBadInput(t *testing.T) {
	iv := Domain{Lo: []float64{0.1}, Hi: []float64{1}}
	tests := []struct {
		name string
		p    *Problem
		want string
	}{
		{"kernel", homogeneousProblem("x", 1, iv, Absolute), "unknown kernel"},
		{"gamma", homogeneousProblem(Chi2, -1, iv, Absolute), "kernel.gamma: the homogeneity degree must be > 0 and finite, not -1"},
		{"measure", homogeneousProblem(Chi2, 1, iv, "max"), "unknown error measure"},
		{"open interval", homogeneousProblem(Chi2, 1, Domain{Lo: []float64{0}, Hi: []float64{1}}, Absolute), "no smallest nonzero input"},
		{"two axes", homogeneousProblem(Chi2, 1, Domain{Lo: []float64{0.1, 0.1}, Hi: []float64{1, 1}}, Absolute), "designed per input coordinate"},
		{"negative", homogeneousProblem(Chi2, 1, Domain{Lo: []float64{-1}, Hi: []float64{1}}, Absolute), "negative inputs"},
		{"fraction", homogeneousProblem(Chi2, 1, Domain{Integer: true, Lo: []float64{0}, Hi: []float64{2.5}}, Absolute), "non-integer ends"},
		{"huge", homogeneousProblem(Chi2, 1, Domain{Integer: true, Lo: []float64{0}, Hi: []float64{1e9}}, Absolute), "more than"},
		{"infinite", homogeneousProblem(Chi2, 1, Domain{Lo: []float64{1}, Hi: []float64{math.Inf(1)}}, Absolute), "not finite"},
		{"negative rule", &Problem{Kernel: Kernel{Type: Chi2}, Domain: iv, Measure: Absolute, Norm: LInf}, "negative-input rule"},
		{"norm", &Problem{Kernel: Kernel{Type: Chi2}, Domain: iv, Measure: Absolute, Norm: "l2", Negative: NegativeSign}, "unknown norm"},
		{"rbf sigma", &Problem{Kernel: Kernel{Type: RBF}, Domain: iv, Measure: Absolute, Norm: LInf}, "kernel.sigma: has 0 values for 1 input axes"},
		{"rbf huge", &Problem{Kernel: Kernel{Type: RBF, Sigma: []float64{1}}, Domain: Domain{Integer: true, Lo: []float64{0}, Hi: []float64{5000}}, Measure: Absolute, Norm: LInf}, "more than the 4096"},
	}
	for _, tc := range tests {
		if _, err := tc.p.Reference(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

// TestReferenceSampled: on more than three axes the verification inputs
// are 1000 points drawn from the box with a fixed seed (every ordered pair,
// 10⁶, is measured), the same on every call, inside the box (integers on an
// integer domain); there is no dense grid, and the uniform error of a
// shift-invariant kernel is measured as the (equal) absolute error on
// pairs.
func TestReferenceSampled(t *testing.T) {
	for _, integer := range []bool{false, true} {
		p := &Problem{
			Kernel:  Kernel{Type: RBF, Sigma: slices.Repeat([]float64{4}, 64)},
			Domain:  Domain{Integer: integer, Lo: slices.Repeat([]float64{0}, 64), Hi: slices.Repeat([]float64{16}, 64)},
			Measure: Uniform, Norm: LInf,
		}
		ref, err := p.Reference()
		if err != nil {
			t.Fatal(err)
		}
		again, _ := (&Problem{Kernel: p.Kernel, Domain: p.Domain, Measure: Uniform, Norm: LInf}).Reference()
		if len(ref.Inputs) != SampledPoints || ref.Dense != nil || ref.Measure != Absolute || !reflect.DeepEqual(ref.Inputs, again.Inputs) {
			t.Fatalf("integer %v: %d inputs, dense %d, measure %s, deterministic %v", integer, len(ref.Inputs), len(ref.Dense), ref.Measure, reflect.DeepEqual(ref.Inputs, again.Inputs))
		}
		for _, x := range ref.Inputs {
			for _, v := range x {
				if v < 0 || v > 16 || integer && v != math.Trunc(v) {
					t.Fatalf("integer %v: input %v outside the domain", integer, v)
				}
			}
		}
	}
}
