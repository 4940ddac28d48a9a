package fmap

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHeldEigenvalues: the eigenvalues of Q·diag(λ)·Qᵀ, Q a product of
// random Householder reflections, are the λ (to 1e-12 of the largest), for
// sizes 1–3 and 60, with repeated, zero and negative eigenvalues, read from
// the upper triangle of a larger matrix of held-out pairs.
func TestHeldEigenvalues(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, want := range [][]float64{
		{2.5},
		{1, -3},
		{4, 4, 0},
		func() []float64 {
			v := make([]float64, 60)
			for i := range v {
				v[i] = math.Exp(-float64(i) / 5)
			}
			v[7], v[8], v[59] = v[6], v[6], -0.5
			return v
		}(),
	} {
		r := len(want)
		a := make([]float64, r*r)
		for i, l := range want {
			a[i*r+i] = l
		}
		for range 3 { // a ← HaH, H = I − 2uuᵀ
			u := make([]float64, r)
			var s float64
			for i := range u {
				u[i] = rng.NormFloat64()
				s += u[i] * u[i]
			}
			for i := range u {
				u[i] /= math.Sqrt(s)
			}
			h := make([]float64, r*r)
			for i := range r {
				for j := range r {
					h[i*r+j] = -2 * u[i] * u[j]
				}
				h[i*r+i]++
			}
			a = mul(mul(h, a, r), h, r)
		}
		// The r×r matrix as the first r of r+2 held-out rows, upper
		// triangle only.
		n := r + 2
		exact := make([]float64, n*n)
		for i := range r {
			for j := i; j < r; j++ {
				exact[i*n+j] = a[i*r+j]
			}
		}
		got, err := heldEigenvalues(context.Background(), exact, n, r)
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(got)
		w := slices.Clone(want)
		slices.Sort(w)
		for i := range w {
			if math.Abs(got[i]-w[i]) > 1e-12*math.Max(1, math.Abs(w[len(w)-1])) {
				t.Errorf("r = %d: eigenvalue %d is %.17g, want %.17g", r, i, got[i], w[i])
			}
		}
	}
}

func mul(a, b []float64, r int) []float64 {
	c := make([]float64, r*r)
	for i := range r {
		for k := range r {
			for j := range r {
				c[i*r+j] += a[i*r+k] * b[k*r+j]
			}
		}
	}
	return c
}

// TestRankBoundRankDeficient: the rank bound of Gram matrices of rank far
// below their size, on which the hand-written Householder + QL solver
// featmap once had divided by an underflowing sum of squares and never
// converged: 35 identical rows and 400 rows at σ = 1e10 (every kernel value
// 1: rank 1, bound 0 at any D); 100 rows three times (the same eigenvalues,
// tripled, and zeros: the bound of the 100 rows at every D); 16-bin
// histograms of few values under the additive χ² kernel. VerifyData of the
// identical rows gives its bound, not an error.
func TestRankBoundRankDeficient(t *testing.T) {
	ctx := context.Background()
	rng := rand.New(rand.NewPCG(5, 6))
	bound := func(k Kernel, rows [][]float64, dim int) float64 {
		t.Helper()
		exact, err := heldPairs(ctx, k, rows)
		if err != nil {
			t.Fatal(err)
		}
		n := len(rows)
		vals, err := heldEigenvalues(ctx, exact, n, n)
		if err != nil {
			t.Errorf("%d rows of %s: %v", n, k.Describe(), err)
			return math.NaN()
		}
		return rankBound(vals, dim, n, 0).Frobenius
	}
	box := func(n, width int, scale float64) [][]float64 {
		out := make([][]float64, n)
		for i := range out {
			out[i] = make([]float64, width)
			for j := range out[i] {
				out[i][j] = scale * rng.Float64()
			}
		}
		return out
	}
	same := slices.Repeat([][]float64{{1, 2}}, 35)
	rbf := Kernel{Type: RBF, Sigma: []float64{1, 1}}
	wide := Kernel{Type: RBF, Sigma: []float64{1e10, 1e10}}
	for _, c := range []struct {
		name string
		k    Kernel
		rows [][]float64
	}{{"35 identical rows", rbf, same}, {"σ = 1e10", wide, box(400, 2, 10)}} {
		for _, dim := range []int{1, 8} {
			if b := bound(c.k, c.rows, dim); b != 0 {
				t.Errorf("%s, D = %d: bound %g, want 0 (a Gram matrix of rank 1)", c.name, dim, b)
			}
		}
	}
	once := box(100, 2, 1)
	thrice := slices.Concat(once, once, once)
	narrow := Kernel{Type: RBF, Sigma: []float64{0.3, 0.3}}
	for _, dim := range []int{5, 20, 50} {
		b1, b3 := bound(narrow, once, dim), bound(narrow, thrice, dim)
		if !(b1 > 0) || math.Abs(b3-b1) > 1e-9*b1 {
			t.Errorf("D = %d: the rows thrice bound %.17g, once %.17g", dim, b3, b1)
		}
	}
	hist := make([][]float64, 500)
	for i := range hist {
		h := make([]float64, 16)
		for j := range h {
			if rng.IntN(6) == 0 {
				h[j] = float64(1 + rng.IntN(3))
			}
		}
		hist[i] = h
	}
	chi2 := Kernel{Type: Chi2, Gamma: 1}
	if b := bound(chi2, hist, 16); !(b > 0 && b < 1) {
		t.Errorf("histograms, D = 16: bound %g, want in (0, 1)", b)
	}
	if b := bound(chi2, hist, 16*3); b != 0 {
		t.Errorf("histograms, D = 48: bound %g, want 0 (16 coordinates of the values 0 to 3, K(0, ·) = 0: rank at most 16·3)", b)
	}
	m := &Map{Kernel: rbf, InDim: 2, Dim: 2, Domain: Domain{Lo: []float64{0, 0}, Hi: []float64{10, 10}}, Method: "test",
		Stages: []Stage{{Kind: &Random{Features: CosSin, Transform: Identity, In: 2, Freq: []float64{0.5, -0.25}}}}}
	v, err := VerifyDataContext(ctx, m, &Data{File: "same", Held: same})
	if err != nil || v.RankBound == nil || v.RankBound.Frobenius != 0 {
		t.Fatalf("VerifyData of 35 identical rows: %+v, %v", v, err)
	}
}

// TestRankBound: the bound keeps the D largest eigenvalues, counts the
// negative ones, and is 0 (no ratio) at full rank.
func TestRankBound(t *testing.T) {
	vals := []float64{1, 4, -1, 2}
	b := rankBound(vals, 2, 4, 0.5)
	if want := math.Sqrt(2.0 / 22); math.Abs(b.Frobenius-want) > 1e-15 || math.Abs(b.Ratio-0.5/want) > 1e-12 {
		t.Errorf("bound %+v, want %.6g", b, want)
	}
	if b := rankBound([]float64{3, 1}, 2, 2, 0); b.Frobenius != 0 || b.Ratio != 0 {
		t.Errorf("full rank: %+v", b)
	}
}

// TestVerifyDataRankBound: a map's data error is at least its rank bound
// (the exact map of D landmarks on the held-out rows themselves reaches
// rank D), and with more held-out rows than MaxRankBoundRows the bound is
// on the first of them, stated with the map's error there.
func TestVerifyDataRankBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	rows := func(n int) [][]float64 {
		out := make([][]float64, n)
		for i := range out {
			out[i] = []float64{rng.Float64(), rng.Float64()}
		}
		return out
	}
	k := Kernel{Type: RBF, Sigma: []float64{0.3, 0.3}}
	land := rows(8)
	var flat []float64
	for _, l := range land {
		flat = append(flat, l...)
	}
	proj := make([]float64, 64) // the identity: features K(x, l_j)
	for i := range 8 {
		proj[i*8+i] = 1
	}
	m := &Map{Kernel: k, InDim: 2, Dim: 8, Domain: Domain{Lo: []float64{0, 0}, Hi: []float64{1, 1}}, Method: "test",
		Stages: []Stage{{Kind: &Nystroem{Kernel: k, In: 2, Landmarks: flat, Proj: proj}}}}
	for _, n := range []int{50, MaxRankBoundRows + 20} {
		v := VerifyData(m, &Data{File: "x", Held: rows(n)})
		b := v.RankBound
		if b == nil || b.Rank != 8 || b.Rows != min(n, MaxRankBoundRows) || b.Frobenius <= 0 || b.Map < b.Frobenius {
			t.Fatalf("%d rows: %+v (data error %.6g)", n, b, v.Frobenius)
		}
		if n <= MaxRankBoundRows && b.Map != v.Frobenius {
			t.Errorf("%d rows: the map's error %.6g, the data error %.6g", n, b.Map, v.Frobenius)
		}
		t.Logf("%d rows: %s (data error %.4g)", n, b, v.Frobenius)
	}
}
