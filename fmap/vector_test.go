package fmap

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestVectorKernels checks the kernels of vectors against their closed
// forms (Băzăvan et al., Table 1; scikit-learn's chi2_kernel) to 1e-14
// relative: skewed χ² at σ = ½ is Π 2√((x+c)(y+c))/(x+y+2c), skewed
// intersection Π min(((x+c)/(y+c))^σ, ((y+c)/(x+c))^σ), exp-χ²
// exp(−β Σ (x−y)²/(x+y)) with the terms of x_j + y_j = 0 left out; and the
// RBF kernel of n axes.
func TestVectorKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 200 {
		n := 1 + r.IntN(6)
		x, y := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], y[i] = 3*r.Float64(), 3*r.Float64()
		}
		if n > 2 {
			x[0], y[0] = 0, 0 // a term exp-χ² leaves out
		}
		const c = 0.01
		sigma := slices.Repeat([]float64{0.5}, n)
		skc, ski, ec, rbf, d2 := 1.0, 1.0, 0.0, 0.0, 0.0
		for i := range x {
			a, b := x[i]+c, y[i]+c
			skc *= 2 * math.Sqrt(a*b) / (a + b)
			ski *= math.Min(math.Pow(a/b, 0.5), math.Pow(b/a, 0.5))
			if x[i]+y[i] > 0 {
				ec += (x[i] - y[i]) * (x[i] - y[i]) / (x[i] + y[i])
			}
			d2 += (x[i] - y[i]) * (x[i] - y[i])
		}
		rbf = math.Exp(-d2 / (2 * 1.5 * 1.5))
		for _, tc := range []struct {
			k    Kernel
			want float64
		}{
			{Kernel{Type: SkewedChi2, Sigma: sigma, C: c}, skc},
			{Kernel{Type: SkewedIntersection, Sigma: sigma, C: c}, ski},
			{Kernel{Type: ExpChi2, Beta: 0.7}, math.Exp(-0.7 * ec)},
			{Kernel{Type: RBF, Sigma: slices.Repeat([]float64{1.5}, n)}, rbf},
		} {
			if err := tc.k.Check(n); err != nil {
				t.Fatal(err)
			}
			if got := tc.k.Eval(x, y); math.Abs(got-tc.want) > 1e-14*tc.want+1e-300 {
				t.Fatalf("%s(%v, %v) = %.17g, want %.17g", tc.k.Type, x, y, got, tc.want)
			}
			if a, b := tc.k.Eval(x, y), tc.k.Eval(y, x); a != b {
				t.Fatalf("%s is not symmetric: %v, %v", tc.k.Type, a, b)
			}
		}
	}
}

// TestVectorProblems: the domain limits of the new kernels are problem
// errors: x + c > 0 for the skewed kernels, x ≥ 0 for exp-χ², and the
// uniform error needs a signature, which exp-χ² lacks.
func TestVectorProblems(t *testing.T) {
	box := Domain{Lo: []float64{0, 0}, Hi: []float64{1, 1}}
	for name, p := range map[string]*Problem{
		"skewed with c = 0 at x = 0": {Kernel: Kernel{Type: SkewedChi2, Sigma: []float64{1, 1}}, Domain: box, Measure: Uniform, Norm: LInf},
		"exp-chi2 below 0":           {Kernel: Kernel{Type: ExpChi2, Beta: 1}, Domain: Domain{Lo: []float64{-1, 0}, Hi: []float64{1, 1}}, Measure: Absolute, Norm: LInf},
		"exp-chi2 uniform":           {Kernel: Kernel{Type: ExpChi2, Beta: 1}, Domain: box, Measure: Uniform, Norm: LInf},
		"exp-chi2 beta 0":            {Kernel: Kernel{Type: ExpChi2}, Domain: box, Measure: Absolute, Norm: LInf},
	} {
		if err := p.Check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	ok := &Problem{Kernel: Kernel{Type: SkewedIntersection, Sigma: []float64{1, 2}, C: 0.5}, Domain: box, Measure: Uniform, Norm: LInf}
	if err := ok.Check(); err != nil {
		t.Errorf("skewed intersection with c = 0.5 on [0, 1]²: %v", err)
	}
}

// randomMap is a one-stage random map of n inputs with m frequencies.
func randomMap(n, m int, feat Features, tr Transform, offset float64) *Map {
	r := rand.New(rand.NewPCG(5, 6))
	rs := &Random{Features: feat, Transform: tr, Offset: offset, In: n}
	for range m * n {
		rs.Freq = append(rs.Freq, r.NormFloat64())
	}
	if feat == Phase {
		for range m {
			rs.Phase = append(rs.Phase, 2*math.Pi*r.Float64())
		}
	}
	d := Domain{Lo: slices.Repeat([]float64{0}, n), Hi: slices.Repeat([]float64{2}, n)}
	return &Map{Kernel: Kernel{Type: RBF, Sigma: slices.Repeat([]float64{1}, n)}, InDim: n, Dim: rs.Dim(), Domain: d, Method: "test", Stages: []Stage{{Kind: rs}}}
}

// TestRandomStage checks the random-feature evaluator: cos-sin features
// give Ψ(x)·Ψ(y) = (1/m) Σ cos(ω·(t_x − t_y)) (1e-14), which SignatureAt
// returns for λ = t_x − t_y; phase features √(2/m)·cos(ω·t + b) (1e-15);
// log-offset t = log(x + c); an input with a non-finite coordinate maps to
// 0, one below −c to the bounded value at the smallest normal; every
// component stays within √(2/m).
func TestRandomStage(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, tr := range []Transform{Identity, LogOffset} {
		m := randomMap(3, 40, CosSin, tr, 0.1)
		if err := m.Validate(); err != nil || m.Dim != 80 {
			t.Fatalf("cos-sin map: %v, D = %d", err, m.Dim)
		}
		rs := m.Stages[0].Kind.(*Random)
		for range 50 {
			x := []float64{2 * r.Float64(), 2 * r.Float64(), 2 * r.Float64()}
			y := []float64{2 * r.Float64(), 2 * r.Float64(), 2 * r.Float64()}
			tx, ty := rs.args(x), rs.args(y)
			lambda := []float64{tx[0] - ty[0], tx[1] - ty[1], tx[2] - ty[2]}
			want := 0.0
			for i := range 40 {
				ph := 0.0
				for j := range 3 {
					ph += rs.Freq[i*3+j] * lambda[j]
				}
				want += math.Cos(ph) / 40
			}
			if got := m.Dot(x, y); math.Abs(got-want) > 1e-14 {
				t.Fatalf("%s: Ψ·Ψ = %v, want %v", tr, got, want)
			}
			if got := m.SignatureAt(lambda); math.Abs(got-want) > 1e-14 {
				t.Fatalf("%s: SignatureAt = %v, want %v", tr, got, want)
			}
		}
	}
	m := randomMap(2, 30, Phase, Identity, 0)
	rs := m.Stages[0].Kind.(*Random)
	x := []float64{0.3, 1.7}
	got := make([]float64, m.Dim)
	m.Eval(got, x)
	for i := range 30 {
		want := math.Sqrt(2.0/30) * math.Cos(rs.Freq[2*i]*x[0]+rs.Freq[2*i+1]*x[1]+rs.Phase[i])
		if math.Abs(got[i]-want) > 1e-15 {
			t.Fatalf("phase feature %d = %v, want %v", i, got[i], want)
		}
	}
	bound := math.Sqrt(2.0 / 30)
	for _, x := range [][]float64{{math.NaN(), 1}, {math.Inf(1), 0}, {-5, 1e300}, {-1e308, 3}} {
		m.Eval(got, x)
		for i, v := range got {
			if !(math.Abs(v) <= bound) {
				t.Fatalf("Ψ(%v)[%d] = %v, outside ±%v", x, i, v, bound)
			}
			if (math.IsNaN(x[0]) || math.IsInf(x[0], 0)) && v != 0 {
				t.Fatalf("Ψ(%v)[%d] = %v, want 0 for a non-finite input", x, i, v)
			}
		}
	}
	lm := randomMap(2, 5, CosSin, LogOffset, 0.01)
	lm.Eval(got[:10], []float64{-3, 1})
	for i, v := range got[:10] {
		if math.IsNaN(v) || math.Abs(v) > math.Sqrt(1.0/5)+1e-15 {
			t.Fatalf("log-offset Ψ(−3, 1)[%d] = %v", i, v)
		}
	}
}

// TestPerCoordinateStage: a per-coordinate stage applies its inner map to
// every coordinate, Ψ(x) = [ψ(x_1), …, ψ(x_n)], and a random stage after
// it takes the n·d values.
func TestPerCoordinateStage(t *testing.T) {
	inner := Stage{Kind: &Fourier{Form: FourierForm, Transform: Log, Gamma: 1, Negative: NegativeSign,
		Terms: []Term{{Freq: []float64{0}, Weight: 0.52}, {Freq: []float64{0.57}, Weight: 0.42}}}}
	one := &Map{Kernel: Kernel{Type: Chi2, Gamma: 1}, InDim: 1, Dim: 3, Domain: Domain{Lo: []float64{0.01}, Hi: []float64{1}}, Stages: []Stage{inner}}
	rs := randomMap(9, 4, CosSin, Identity, 0).Stages[0].Kind.(*Random)
	m := &Map{Kernel: Kernel{Type: ExpChi2, Beta: 1}, InDim: 3, Dim: 8, Domain: Domain{Lo: []float64{0, 0, 0}, Hi: []float64{1, 1, 1}},
		Stages: []Stage{{Kind: &PerCoordinate{Inner: inner}}, {Kind: rs}}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	x := []float64{0.2, 0, 0.9}
	u := make([]float64, 9)
	for j, v := range x {
		one.Eval(u[3*j:3*j+3], []float64{v})
	}
	want := make([]float64, 8)
	(&Map{InDim: 9, Dim: 8, Stages: []Stage{{Kind: rs}}}).Eval(want, u)
	got := make([]float64, 8)
	m.Eval(got, x)
	if !slices.Equal(got, want) {
		t.Errorf("pipeline Ψ(%v) = %v, want %v", x, got, want)
	}
	bad := *m
	bad.Stages = []Stage{{Kind: &PerCoordinate{Inner: inner}}, {Kind: randomMap(8, 4, CosSin, Identity, 0).Stages[0].Kind.(*Random)}}
	if err := bad.Validate(); err == nil {
		t.Error("a random stage of 8 inputs after 9 values validated")
	}
}
