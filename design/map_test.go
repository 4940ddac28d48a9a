package design

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"
)

func homogeneousFourier() *Map {
	m := &Map{
		Kernel: Kernel{Type: "chi2", Gamma: 1}, InDim: 1,
		Domain:    Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}},
		Transform: Log, Gamma: 1, Negative: NegativeSign, Form: Fourier,
		Terms: []Term{{Freq: []float64{0}, Weight: 0.52}, {Freq: []float64{0.57}, Weight: 0.42}, {Freq: []float64{1.33}, Weight: 0.052}},
	}
	m.Dim = m.CountDim()
	return m
}

// TestFourierLogDot checks the homogeneous Fourier identity
// Ψ(x)·Ψ(y) = (xy)^{γ/2} Σ α cos(ω log(y/x)) for γ = 1 and 0.5.
func TestFourierLogDot(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, g := range []float64{1, 0.5} {
		m := homogeneousFourier()
		m.Gamma = g
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		if m.Dim != 5 {
			t.Fatalf("dim %d, want 5", m.Dim)
		}
		for range 200 {
			x, y := math.Exp(8*r.Float64()-4), math.Exp(8*r.Float64()-4)
			want := math.Pow(x*y, g/2) * m.Signature([]float64{math.Log(y / x)})
			if got := m.Dot([]float64{x}, []float64{y}); math.Abs(got-want) > 1e-13*(1+math.Abs(want)) {
				t.Fatalf("γ=%g: Ψ(%g)·Ψ(%g) = %v, want %v", g, x, y, got, want)
			}
		}
	}
}

// TestHomogeneousEdgeInputs checks x = 0, the two negative rules and
// non-finite inputs of the reference evaluator.
func TestHomogeneousEdgeInputs(t *testing.T) {
	m := homogeneousFourier()
	d := make([]float64, m.Dim)
	pos := make([]float64, m.Dim)
	m.Eval(pos, []float64{3})
	m.Eval(d, []float64{0})
	for i, v := range d {
		if v != 0 {
			t.Errorf("Ψ(0)[%d] = %v, want 0", i, v)
		}
	}
	m.Eval(d, []float64{-3})
	for i := range d {
		if d[i] != -pos[i] {
			t.Errorf("sign rule: Ψ(−3)[%d] = %v, want %v", i, d[i], -pos[i])
		}
	}
	m.Negative = NegativeZero
	m.Eval(d, []float64{-3})
	for i, v := range d {
		if v != 0 {
			t.Errorf("zero rule: Ψ(−3)[%d] = %v, want 0", i, v)
		}
	}
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		m.Eval(d, []float64{x})
		for i, v := range d {
			if !math.IsNaN(v) {
				t.Errorf("Ψ(%v)[%d] = %v, want NaN", x, i, v)
			}
		}
	}
}

// TestModulationDot checks Ψ(x)·Ψ(y) = Σ α Π cos(ω_i (x_i − y_i)) and the
// component count 2^{#nonzero ω_i} of modulation terms.
func TestModulationDot(t *testing.T) {
	m := &Map{
		Kernel: Kernel{Type: "rbf", Sigma: []float64{0.3, 0.3}}, InDim: 2,
		Domain: Domain{Lo: []float64{0, 0}, Hi: []float64{3, 3}}, Transform: Identity, Form: Modulation,
		Terms: []Term{{Freq: []float64{0, 0}, Weight: 0.1}, {Freq: []float64{1.5, 0}, Weight: 0.2}, {Freq: []float64{0.7, 2.1}, Weight: 0.3}},
	}
	m.Dim = m.CountDim()
	if m.Dim != 1+2+4 {
		t.Fatalf("dim %d, want 7", m.Dim)
	}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(2, 2))
	for range 100 {
		x := []float64{3 * r.Float64(), 3 * r.Float64()}
		y := []float64{3 * r.Float64(), 3 * r.Float64()}
		want := m.Signature([]float64{x[0] - y[0], x[1] - y[1]})
		if got := m.Dot(x, y); math.Abs(got-want) > 1e-14 {
			t.Fatalf("Ψ(%v)·Ψ(%v) = %v, want %v", x, y, got, want)
		}
	}
}

// TestProjectionDot checks the n-D Fourier (projection) form:
// Ψ(x)·Ψ(y) = Σ α cos(ω·(x − y)).
func TestProjectionDot(t *testing.T) {
	m := &Map{
		Kernel: Kernel{Type: "rbf", Sigma: []float64{0.3, 0.3}}, InDim: 2,
		Domain: Domain{Lo: []float64{0, 0}, Hi: []float64{3, 3}}, Transform: Identity, Form: Fourier,
		Terms: []Term{{Freq: []float64{0, 0}, Weight: 0.1}, {Freq: []float64{1.5, -0.5}, Weight: 0.2}},
	}
	m.Dim = m.CountDim()
	x, y := []float64{0.3, 1.7}, []float64{2.2, 0.4}
	want := 0.1 + 0.2*math.Cos(1.5*(x[0]-y[0])-0.5*(x[1]-y[1]))
	if got := m.Dot(x, y); math.Abs(got-want) > 1e-15 {
		t.Errorf("Ψ·Ψ = %v, want %v", got, want)
	}
}

// TestSeriesForms checks the Li and Chebyshev evaluators on the reference
// values of formulas.md §2.4 and §3.4.
func TestSeriesForms(t *testing.T) {
	li := &Map{Kernel: Kernel{Type: "chi2", Gamma: 1}, InDim: 1, Domain: Domain{Lo: []float64{1e-5}, Hi: []float64{1}},
		Transform: Identity, Gamma: 1, Negative: NegativeSign, Form: LiSeries, LiK: []float64{1, 0.1, 0.01, 0.001, 0.0001}, Dim: 5}
	if err := li.Validate(); err != nil {
		t.Fatal(err)
	}
	want := []float64{0.4, -0.27105237087157535, -0.04945054945054945, -0.014952322021723434, -0.0047075430149292235}
	got := make([]float64, 5)
	li.Eval(got, []float64{0.25})
	for i := range want {
		if math.Abs(got[i]-want[i]) > 4e-16 {
			t.Errorf("Li c_%d(0.25) = %v, want %v", i+1, got[i], want[i])
		}
	}
	ch := &Map{Kernel: Kernel{Type: "chi2", Gamma: 1}, InDim: 1, Domain: Domain{Lo: []float64{1e-6}, Hi: []float64{1}},
		Transform: Identity, Gamma: 1, Negative: NegativeSign, Form: Chebyshev, Dim: 4}
	d := make([]float64, 4)
	ch.Eval(d, []float64{0.25})
	wantC := []float64{0.4, 0.24962068646256577, -0.11015041993637013, 0.05080275680788509}
	for i := range wantC {
		if math.Abs(d[i]-wantC[i]) > 4e-16 {
			t.Errorf("Chebyshev d_%d(0.25) = %v, want %v", i, d[i], wantC[i])
		}
	}
	ch.Eval(d, []float64{1})
	if d[0] != 1 || d[1] != 0 || d[2] != 0 || d[3] != 0 {
		t.Errorf("Chebyshev at x = 1: %v, want [1 0 0 0]", d)
	}
}

// TestCanonical sorts terms, folds negative 1-D frequencies, merges equal
// frequencies, drops zero weights and recounts D.
func TestCanonical(t *testing.T) {
	m := homogeneousFourier()
	m.Terms = []Term{{Freq: []float64{1.33}, Weight: 0.05}, {Freq: []float64{-0.57}, Weight: 0.4}, {Freq: []float64{0.57}, Weight: 0.02}, {Freq: []float64{0}, Weight: 0.5}, {Freq: []float64{2}, Weight: 0}}
	m.Canonical()
	if len(m.Terms) != 3 || m.Terms[0].Freq[0] != 0 || m.Terms[1].Freq[0] != 0.57 || math.Abs(m.Terms[1].Weight-0.42) > 1e-15 || m.Dim != 5 {
		t.Errorf("canonical map %+v, dim %d", m.Terms, m.Dim)
	}
}

// TestValidateRejects lists inconsistent maps Validate must reject.
func TestValidateRejects(t *testing.T) {
	cases := map[string]func(m *Map){
		"wrong dim":         func(m *Map) { m.Dim = 6 },
		"negative weight":   func(m *Map) { m.Terms[1].Weight = -1 },
		"NaN frequency":     func(m *Map) { m.Terms[1].Freq[0] = math.NaN() },
		"log in 2-D":        func(m *Map) { m.InDim = 2 },
		"no gamma":          func(m *Map) { m.Gamma = 0 },
		"bad negative rule": func(m *Map) { m.Negative = "abs" },
		"unknown form":      func(m *Map) { m.Form = "wavelet" },
		"empty domain":      func(m *Map) { m.Domain.Hi[0] = m.Domain.Lo[0] },
		"infinite domain":   func(m *Map) { m.Domain.Hi[0] = math.Inf(1) },
		"li with gamma 0.5": func(m *Map) {
			m.Form, m.Transform, m.LiK, m.Gamma, m.Terms = LiSeries, Identity, []float64{1}, 0.5, nil
		},
	}
	for name, mutate := range cases {
		m := homogeneousFourier()
		mutate(m)
		if err := m.Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", name, m)
		}
	}
}

// TestMapJSONRoundTrip checks that a map survives encoding/json exactly.
func TestMapJSONRoundTrip(t *testing.T) {
	m := homogeneousFourier()
	m.Terms[2].Weight = 0.1 + 0.2 // not exactly representable in decimal
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Map
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if err := back.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, x := range []float64{0, 1, 17, 255, -4} {
		a, c := make([]float64, m.Dim), make([]float64, m.Dim)
		m.Eval(a, []float64{x})
		back.Eval(c, []float64{x})
		for i := range a {
			if a[i] != c[i] {
				t.Fatalf("Ψ(%g)[%d]: %v before JSON, %v after", x, i, a[i], c[i])
			}
		}
	}
}

// TestEvalHugeInputFinite: the Li and Chebyshev series have finite limits
// at huge x, and the evaluator must not overflow on the way there.
func TestEvalHugeInputFinite(t *testing.T) {
	base := Map{Kernel: Kernel{Type: "chi2", Gamma: 1}, InDim: 1, Domain: Domain{Lo: []float64{0}, Hi: []float64{1}},
		Transform: Identity, Gamma: 1, Negative: NegativeSign}
	li, cheb := base, base
	li.Form, li.LiK, li.Dim = LiSeries, []float64{1, 0.1}, 2
	cheb.Form, cheb.Dim = Chebyshev, 3
	for _, m := range []*Map{&li, &cheb} {
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		dst := make([]float64, m.Dim)
		m.Eval(dst, []float64{math.MaxFloat64})
		for i, v := range dst {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				t.Errorf("%s: Ψ_%d(MaxFloat64) = %v, want finite", m.Form, i, v)
			}
		}
	}
}
