package simplex

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// gaussJordanFull is the elimination refactor made before gaussJordan
// skipped what cannot change: every row operation over all k columns of
// both K and the inverse.
func gaussJordanFull(kk, inv []float64, k int, scale float64) error {
	for i := range k {
		inv[i*k+i] = 1
	}
	for c := range k {
		p, best := -1, 0.0
		for r := c; r < k; r++ {
			if a := math.Abs(kk[r*k+c]); a > best {
				p, best = r, a
			}
		}
		if p < 0 || best <= singularTol*max(scale, 1e-300) {
			return errSingular
		}
		if p != c {
			for q := range k {
				kk[p*k+q], kk[c*k+q] = kk[c*k+q], kk[p*k+q]
				inv[p*k+q], inv[c*k+q] = inv[c*k+q], inv[p*k+q]
			}
		}
		f := 1 / kk[c*k+c]
		for q := range k {
			kk[c*k+q] *= f
			inv[c*k+q] *= f
		}
		for r := range k {
			if r == c {
				continue
			}
			f := kk[r*k+c]
			if f == 0 {
				continue
			}
			for q := range k {
				kk[r*k+q] -= float64(f * kk[c*k+q]) // rounded, as axpy does
				inv[r*k+q] -= float64(f * inv[c*k+q])
			}
		}
	}
	return nil
}

// testKernel returns a random k×k matrix of the given kind: dense
// Gaussian, sparse (most entries 0, so that many multipliers are 0 and
// rows swap), or singular (a row that is a combination of two others).
func testKernel(rng *rand.Rand, k int, kind string) []float64 {
	kk := make([]float64, k*k)
	for i := range kk {
		switch kind {
		case "sparse":
			if rng.IntN(4) == 0 {
				kk[i] = rng.NormFloat64()
			}
		default:
			kk[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
		}
	}
	if kind == "singular" && k >= 3 {
		a, b, c := rng.IntN(k), rng.IntN(k), rng.IntN(k)
		for q := range k {
			kk[c*k+q] = 2*kk[a*k+q] - kk[b*k+q]
		}
		if a == c || b == c {
			for q := range k {
				kk[c*k+q] = 0
			}
		}
	}
	return kk
}

// TestRefactorAsFullElimination: gaussJordan, which skips K's eliminated
// columns and the inverse's identity zeros, gives the full elimination's
// inverse (every entry equal: the same bits, but for the sign of a zero)
// and its verdict on singular kernels, on 3 000 dense, sparse and
// singular kernels of 1 to 80 rows (750 with -short).
func TestRefactorAsFullElimination(t *testing.T) {
	t.Parallel() // pure Go only, no shared state
	rng := rand.New(rand.NewPCG(17, 3))
	singular, total := 0, cases(3000)
	for n := range total {
		kind := []string{"dense", "sparse", "singular"}[n%3]
		k := 1 + rng.IntN(80)
		kk := testKernel(rng, k, kind)
		scale := 0.0
		for _, v := range kk {
			scale = max(scale, math.Abs(v))
		}
		k1, k2 := slices.Clone(kk), slices.Clone(kk)
		got, want := make([]float64, k*k), make([]float64, k*k)
		e1, e2 := gaussJordan(k1, got, k, scale), gaussJordanFull(k2, want, k, scale)
		if (e1 != nil) != (e2 != nil) || e1 != nil && !errors.Is(e1, errSingular) {
			t.Fatalf("kernel %d (%s, %d rows): error %v, full elimination %v", n, kind, k, e1, e2)
		}
		if e1 != nil {
			singular++
			continue
		}
		for i := range got {
			if got[i] != want[i] && !(math.IsNaN(got[i]) && math.IsNaN(want[i])) {
				t.Fatalf("kernel %d (%s, %d rows): G[%d][%d] = %v, full elimination %v", n, kind, k, i/k, i%k, got[i], want[i])
			}
		}
	}
	if singular < total/6 || singular > total*5/6 {
		t.Errorf("%d of %d kernels singular: the test should see both verdicts often", singular, total)
	}
}

// BenchmarkRefactor inverts a dense kernel of 300 rows (the size of 2-D
// projection's discrete LPs) by gaussJordan and, as the baseline, by the
// full elimination.
func BenchmarkRefactor(b *testing.B) {
	const k = 300
	kk := testKernel(rand.New(rand.NewPCG(1, 2)), k, "dense")
	work, inv := make([]float64, k*k), make([]float64, k*k)
	for _, c := range []struct {
		name string
		f    func(kk, inv []float64, k int, scale float64) error
	}{{"inplace", gaussJordan}, {"full", gaussJordanFull}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				copy(work, kk)
				clear(inv)
				if err := c.f(work, inv, k, 1); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
