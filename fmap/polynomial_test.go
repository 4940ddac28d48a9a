package fmap

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// polyExactMap is the exact monomial map of (s·x·y + c)^d on n inputs.
func polyExactMap(n, d int, s, c float64) *Map {
	st := &Polynomial{In: n}
	binom := 1.0
	for j := 0; j <= d; j++ {
		if j > 0 {
			binom = binom * float64(d-j+1) / float64(j)
		}
		st.Exact = append(st.Exact, PolyExact{Degree: j, Coef: binom * math.Pow(s, float64(j)) * math.Pow(c, float64(d-j))})
	}
	k := Kernel{Type: Poly, Degree: d, Scale: s, Offset: c}
	lo, hi := make([]float64, n), make([]float64, n)
	for i := range lo {
		lo[i], hi[i] = -1, 1
	}
	return &Map{Kernel: k, InDim: n, Dim: st.Dim(), Domain: Domain{Lo: lo, Hi: hi}, Method: "monomials", Stages: []Stage{{Kind: st}}}
}

// TestPolynomialExactMap checks that the monomial map of every degree
// 0..d has C(n + d, d) components and Ψ(x)·Ψ(y) = (s·x·y + c)^d to
// 1e-13 relative (to the larger of |K| and the products' scale).
func TestPolynomialExactMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		n, d int
		s, c float64
	}{{1, 1, 1, 0.5}, {3, 4, 0.3, 1}, {5, 3, 1.0 / 5, 2}, {13, 2, 1.0 / 13, 1}, {4, 8, 0.25, 1}} {
		m := polyExactMap(c.n, c.d, c.s, c.c)
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		want := 1
		for i := 1; i <= c.d; i++ {
			want = want * (c.n + i) / i
		}
		if m.Dim != want {
			t.Errorf("n = %d, d = %d: %d components, want C(n+d, d) = %d", c.n, c.d, m.Dim, want)
		}
		for range 50 {
			x, y := make([]float64, c.n), make([]float64, c.n)
			for i := range x {
				x[i], y[i] = 2*rng.Float64()-1, 2*rng.Float64()-1
			}
			k := m.Kernel.Eval(x, y)
			scale := math.Sqrt(m.Kernel.Eval(x, x) * m.Kernel.Eval(y, y))
			if e := math.Abs(m.Dot(x, y)-k) / math.Max(math.Abs(k), scale); e > 1e-13 {
				t.Errorf("n = %d, d = %d: Ψ·Ψ = %v, K = %v (rel. %.2g)", c.n, c.d, m.Dot(x, y), k, e)
			}
		}
	}
	// Non-finite inputs give NaN everywhere.
	m := polyExactMap(2, 2, 1, 1)
	out := make([]float64, m.Dim)
	m.Eval(out, []float64{math.NaN(), 1})
	for _, v := range out {
		if !math.IsNaN(v) {
			t.Fatalf("NaN input: %v", out)
		}
	}
}

// TestMonomialWeights checks the weights of the degree-3 monomials of 2
// variables: √(c·3!/(k₁!k₂!)) for x₁³, x₁²x₂, x₁x₂², x₂³.
func TestMonomialWeights(t *testing.T) {
	w := MonomialWeights(2, 3, 2)
	want := []float64{math.Sqrt(2), math.Sqrt(6), math.Sqrt(6), math.Sqrt(2)}
	for i := range want {
		if math.Abs(w[i]-want[i]) > 1e-15 {
			t.Fatalf("weights %v, want %v", w, want)
		}
	}
	if Monomials(64, 3) != 45760 || Monomials(13, 0) != 1 || Monomials(1000, 8) != -1 {
		t.Errorf("Monomials: %d %d %d", Monomials(64, 3), Monomials(13, 0), Monomials(1000, 8))
	}
}

// TestHadamard holds the in-place transform to H_{rc} = (−1)^{popcount(r&c)}.
func TestHadamard(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n = 16
	re, im := make([]float64, n), make([]float64, n)
	for i := range re {
		re[i], im[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	r0, i0 := append([]float64(nil), re...), append([]float64(nil), im...)
	Hadamard(re, im)
	for r := range n {
		var a, b float64
		for c := range n {
			s := 1.0
			if bits.OnesCount(uint(r&c))%2 == 1 {
				s = -1
			}
			a += s * r0[c]
			b += s * i0[c]
		}
		if math.Abs(a-re[r]) > 1e-13 || math.Abs(b-im[r]) > 1e-13 {
			t.Fatalf("row %d: %v %v, want %v %v", r, re[r], im[r], a, b)
		}
	}
}

// TestPolySketchFullBlock checks a degree-1 sketch whose features are
// every row of one Hadamard block: Σ_r Re((HSx)_r·conj((HSy)_r)) = N·x·y,
// so Ψ(x)·Ψ(y) = Coef·x·y exactly (to rounding), whatever the signs; and
// that a full block of an odd dimension (the last feature's real part
// alone) stays within the sketch's variance of it.
func TestPolySketchFullBlock(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const n, N = 5, 8
	sk := PolySketch{Degree: 1, Coef: 0.7, Dim: 2 * N, Size: N}
	for range n {
		sk.Signs = append(sk.Signs, int8(rng.IntN(4)))
	}
	for _, r := range rng.Perm(N) {
		sk.Rows = append(sk.Rows, int32(r))
	}
	st := &Polynomial{In: n, Sketch: []PolySketch{sk}}
	if err := st.validate(n); err != nil {
		t.Fatal(err)
	}
	m := &Map{Kernel: Kernel{Type: Poly, Degree: 1, Scale: 0.7}, InDim: n, Dim: 2 * N, Domain: Domain{Lo: make([]float64, n), Hi: []float64{1, 1, 1, 1, 1}}, Stages: []Stage{{Kind: st}}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	x, y := []float64{0.3, -1, 2, 0.5, 0.1}, []float64{1, 0.2, -0.4, 3, -2}
	if got, want := m.Dot(x, y), m.Kernel.Eval(x, y); math.Abs(got-want) > 1e-14 {
		t.Errorf("full block: Ψ·Ψ = %v, K = %v", got, want)
	}
	// Repeated rows in a block are refused.
	bad := *st
	bad.Sketch = []PolySketch{sk}
	bad.Sketch[0].Rows = append([]int32(nil), sk.Rows...)
	bad.Sketch[0].Rows[1] = bad.Sketch[0].Rows[0]
	if err := bad.validate(n); err == nil {
		t.Error("a repeated row was accepted")
	}
}
