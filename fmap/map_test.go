package fmap

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// homogeneousFourier returns a 5-dimensional χ² map on {0..255}: a Fourier
// stage in log x with terms ω = 0, 0.57, 1.33.
func homogeneousFourier() *Map {
	return NewFourierMap(Kernel{Type: Chi2, Gamma: 1}, Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}}, "",
		&Fourier{
			Form: FourierForm, Transform: Log, Gamma: 1, Negative: NegativeSign,
			Terms: []Term{{Freq: []float64{0}, Weight: 0.52}, {Freq: []float64{0.57}, Weight: 0.42}, {Freq: []float64{1.33}, Weight: 0.052}},
		})
}

// TestFourierLogDot checks the homogeneous Fourier identity
// Ψ(x)·Ψ(y) = (xy)^{γ/2} Σ α cos(ω log(y/x)) for γ = 1 and 0.5.
func TestFourierLogDot(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, g := range []float64{1, 0.5} {
		m := homogeneousFourier()
		m.Fourier().Gamma = g
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		if m.Dim != 5 {
			t.Fatalf("dim %d, want 5", m.Dim)
		}
		for range 200 {
			x, y := math.Exp(8*r.Float64()-4), math.Exp(8*r.Float64()-4)
			want := math.Pow(x*y, g/2) * m.Fourier().Signature([]float64{math.Log(y / x)})
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
	m.Fourier().Negative = NegativeZero
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

// rbf2 is the two-axis RBF kernel and box of the multi-dimensional tests.
var (
	rbf2    = Kernel{Type: RBF, Sigma: []float64{0.3, 0.3}}
	rbf2Box = Domain{Lo: []float64{0, 0}, Hi: []float64{3, 3}}
)

// TestModulationDot checks Ψ(x)·Ψ(y) = Σ α Π cos(ω_i (x_i − y_i)) and the
// component count 2^{#nonzero ω_i} of modulation terms.
func TestModulationDot(t *testing.T) {
	m := NewFourierMap(rbf2, rbf2Box, "", &Fourier{
		Form: Modulation, Transform: Identity,
		Terms: []Term{{Freq: []float64{0, 0}, Weight: 0.1}, {Freq: []float64{1.5, 0}, Weight: 0.2}, {Freq: []float64{0.7, 2.1}, Weight: 0.3}},
	})
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
		want := m.Fourier().Signature([]float64{x[0] - y[0], x[1] - y[1]})
		if got := m.Dot(x, y); math.Abs(got-want) > 1e-14 {
			t.Fatalf("Ψ(%v)·Ψ(%v) = %v, want %v", x, y, got, want)
		}
	}
}

// TestProjectionDot checks the n-D Fourier (projection) form:
// Ψ(x)·Ψ(y) = Σ α cos(ω·(x − y)).
func TestProjectionDot(t *testing.T) {
	m := NewFourierMap(rbf2, rbf2Box, "", &Fourier{
		Form: FourierForm, Transform: Identity,
		Terms: []Term{{Freq: []float64{0, 0}, Weight: 0.1}, {Freq: []float64{1.5, -0.5}, Weight: 0.2}},
	})
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	x, y := []float64{0.3, 1.7}, []float64{2.2, 0.4}
	want := 0.1 + 0.2*math.Cos(1.5*(x[0]-y[0])-0.5*(x[1]-y[1]))
	if got := m.Dot(x, y); math.Abs(got-want) > 1e-15 {
		t.Errorf("Ψ·Ψ = %v, want %v", got, want)
	}
}

// TestSeriesForms checks the Li and Chebyshev evaluators on the reference
// values of docs/formulas.md §2.4 and §3.4.
func TestSeriesForms(t *testing.T) {
	chi2 := Kernel{Type: Chi2, Gamma: 1}
	li := NewSeriesMap(chi2, Domain{Lo: []float64{1e-5}, Hi: []float64{1}}, "li",
		&Series{Form: LiSeries, K: []float64{1, 0.1, 0.01, 0.001, 0.0001}, Dim: 5, Negative: NegativeSign})
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
	ch := NewSeriesMap(chi2, Domain{Lo: []float64{1e-6}, Hi: []float64{1}}, "chebyshev",
		&Series{Form: Chebyshev, Dim: 4, Negative: NegativeSign})
	if err := ch.Validate(); err != nil {
		t.Fatal(err)
	}
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
// frequencies and keeps zero weights: a weight-0 term is components the
// design asked for, identically 0, so NewFourierMap counts them in D
// (1 + 2 + 2 + 2 = 7, of which ZeroComponents 2).
func TestCanonical(t *testing.T) {
	m := homogeneousFourier()
	f := &Fourier{
		Form: FourierForm, Transform: Log, Gamma: 1, Negative: NegativeSign,
		Terms: []Term{{Freq: []float64{1.33}, Weight: 0.05}, {Freq: []float64{-0.57}, Weight: 0.4}, {Freq: []float64{0.57}, Weight: 0.02}, {Freq: []float64{0}, Weight: 0.5}, {Freq: []float64{2}, Weight: 0}},
	}
	m = NewFourierMap(m.Kernel, m.Domain, m.Method, f)
	ts := m.Fourier().Terms
	if len(ts) != 4 || ts[0].Freq[0] != 0 || ts[0].Weight != 0.5 || ts[1].Freq[0] != 0.57 || math.Abs(ts[1].Weight-0.42) > 1e-15 ||
		ts[2].Freq[0] != 1.33 || ts[2].Weight != 0.05 || ts[3].Freq[0] != 2 || ts[3].Weight != 0 {
		t.Errorf("canonical terms %+v", ts)
	}
	if m.Dim != 7 || m.ZeroComponents() != 2 {
		t.Errorf("dim %d with %d zero components, want 7 with 2", m.Dim, m.ZeroComponents())
	}
	if err := m.Validate(); err != nil {
		t.Error(err)
	}
	psi := make([]float64, m.Dim)
	m.Eval(psi, []float64{17})
	if psi[5] != 0 || psi[6] != 0 {
		t.Errorf("the weight-0 term's components at x = 17: %v, want 0", psi[5:])
	}
}

// TestValidateRejects lists inconsistent maps Validate must reject, each
// with a word of the error it must give (so that the mutation, not some
// other inconsistency, is what is rejected).
func TestValidateRejects(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(m *Map)
		want   string
	}{
		{"wrong dim", func(m *Map) { m.Dim = 6 }, "its stages give 5"},
		{"negative weight", func(m *Map) { m.Fourier().Terms[1].Weight = -1 }, "weight -1"},
		{"infinite weight", func(m *Map) { m.Fourier().Terms[1].Weight = math.Inf(1) }, "weight +Inf"},
		{"NaN frequency", func(m *Map) { m.Fourier().Terms[1].Freq[0] = math.NaN() }, "frequency NaN"},
		{"log in 2-D", func(m *Map) {
			m.InDim = 2
			m.Domain = Domain{Integer: true, Lo: []float64{0, 0}, Hi: []float64{255, 255}}
			for i := range m.Fourier().Terms {
				m.Fourier().Terms[i].Freq = append(m.Fourier().Terms[i].Freq, 0)
			}
		}, "log transform is one-dimensional"},
		{"frequencies for 2 inputs", func(m *Map) { m.Fourier().Terms[2].Freq = []float64{1, 2} }, "2 frequencies for 1 inputs"},
		{"no gamma", func(m *Map) { m.Fourier().Gamma = 0 }, "gamma 0"},
		{"bad negative rule", func(m *Map) { m.Fourier().Negative = "abs" }, "negative rule"},
		{"unknown form", func(m *Map) { m.Fourier().Form = "wavelet" }, "unknown Fourier form"},
		{"unknown transform", func(m *Map) { m.Fourier().Transform = "sqrt" }, "unknown transform"},
		{"empty domain", func(m *Map) { m.Domain.Hi[0] = m.Domain.Lo[0] }, "not a finite interval"},
		{"infinite domain", func(m *Map) { m.Domain.Hi[0] = math.Inf(1) }, "not a finite interval"},
		{"domain of 2 axes", func(m *Map) { m.Domain.Lo, m.Domain.Hi = []float64{0, 0}, []float64{1, 1} }, "does not match"},
		{"no stage", func(m *Map) { m.Stages = nil }, "without stages"},
		// A second log-domain stage gets the first one's 5 outputs as input.
		{"a stage of the wrong input count", func(m *Map) { m.Stages = append(m.Stages, m.Stages[0]) }, "one-dimensional"},
		{"a stage without a kind", func(m *Map) {
			m.Stages[0] = Stage{}
		}, "exactly one of fourier, series, per_coordinate, random, nystroem, anchors, linear, blocks and polynomial"},
		{"li with wrong k count", func(m *Map) {
			m.Stages[0] = Stage{Kind: &Series{Form: LiSeries, K: []float64{1, 2}, Dim: 5, Negative: NegativeSign}}
		}, "2 parameters and dimension 5"},
		{"li with k = 0", func(m *Map) {
			m.Stages[0] = Stage{Kind: &Series{Form: LiSeries, K: []float64{1, 2, 0, 4, 5}, Dim: 5, Negative: NegativeSign}}
		}, "Li parameter 0"},
		{"chebyshev with parameters", func(m *Map) {
			m.Stages[0] = Stage{Kind: &Series{Form: Chebyshev, K: []float64{1}, Dim: 5, Negative: NegativeSign}}
		}, "no parameters"},
		{"series without negative rule", func(m *Map) {
			m.Stages[0] = Stage{Kind: &Series{Form: Chebyshev, Dim: 5}}
		}, "negative rule"},
		{"unknown series form", func(m *Map) {
			m.Stages[0] = Stage{Kind: &Series{Form: "taylor", Dim: 5, Negative: NegativeSign}}
		}, "unknown series form"},
		{"series in 2-D", func(m *Map) {
			m.InDim = 2
			m.Domain = Domain{Integer: true, Lo: []float64{0, 0}, Hi: []float64{255, 255}}
			m.Stages[0] = Stage{Kind: &Series{Form: Chebyshev, Dim: 5, Negative: NegativeSign}}
		}, "one-dimensional"},
	}
	for _, tc := range cases {
		m := homogeneousFourier()
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		tc.mutate(m)
		if err := m.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: Validate gave %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
}

// TestMapJSONRoundTrip checks that a map survives encoding/json exactly.
func TestMapJSONRoundTrip(t *testing.T) {
	m := homogeneousFourier()
	m.Fourier().Terms[2].Weight = 0.1 + 0.2 // not exactly representable in decimal
	back := jsonRoundTrip(t, m)
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
	chi2, dom := Kernel{Type: Chi2, Gamma: 1}, Domain{Lo: []float64{0}, Hi: []float64{1}}
	li := NewSeriesMap(chi2, dom, "li", &Series{Form: LiSeries, K: []float64{1, 0.1}, Dim: 2, Negative: NegativeSign})
	cheb := NewSeriesMap(chi2, dom, "chebyshev", &Series{Form: Chebyshev, Dim: 3, Negative: NegativeSign})
	for _, m := range []*Map{li, cheb} {
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		dst := make([]float64, m.Dim)
		m.Eval(dst, []float64{math.MaxFloat64})
		for i, v := range dst {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				t.Errorf("%s: Ψ_%d(MaxFloat64) = %v, want finite", m.Series().Form, i, v)
			}
		}
	}
}

// jsonRoundTrip encodes m with encoding/json and decodes it again.
func jsonRoundTrip(t *testing.T, m *Map) Map {
	t.Helper()
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var back Map
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return back
}
