package fmap

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSymEigenvalues: the eigenvalues of Q·diag(λ)·Qᵀ, Q a product of
// random Householder reflections, are the λ (to 1e-12 of the largest), for
// sizes 1–3 and 60, with repeated, zero and negative eigenvalues.
func TestSymEigenvalues(t *testing.T) {
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
		got, err := symEigenvalues(context.Background(), a, r)
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
