package simplex

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/featmap/featmap/solver/internal/vec"
)

// TestVectorKernelsBitForBit: axpy8 gives, bit for bit, eight axpy calls
// in turn (the simplex's row products rely on it: the same sums in the
// same order), and where the processor has AVX the four-wide forms of
// package vec give the Go loops' results bit for bit (the designs rely on
// it: docs/lp-design.md, "Table 2 in two minutes"), directly and through
// axpy and axpy8; on vectors of 0 to 70 entries (every tail length of the
// four- and eight-wide loops) whose entries are of one magnitude or span
// 10^±3 or 10^±300, with subnormal products, zeros of both signs,
// infinities and NaNs among them (a NaN's payload aside).
func TestVectorKernelsBitForBit(t *testing.T) {
	if !vec.AVX {
		t.Log("no AVX on this processor: only the Go loops are compared")
	}
	rng := rand.New(rand.NewPCG(17, 101))
	spread := 0 // decimal exponents of the entries in ±spread
	v := func() float64 {
		switch rng.IntN(40) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return math.Inf(1 - 2*rng.IntN(2))
		case 3:
			return math.NaN()
		case 4:
			return rng.NormFloat64() * 1e-310 // subnormal
		}
		return rng.NormFloat64() * math.Pow(10, float64(rng.IntN(2*spread+1)-spread))
	}
	// A NaN's payload is left to the order of a sum's or a product's
	// operands where two NaNs meet, which Go does not specify (the
	// compiler orders them as its registers fall): NaNs compare equal.
	same := func(a, b []float64) int {
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
				return i
			}
		}
		return -1
	}
	for trial := range 30 {
		// Entries of one magnitude, where a sum's rounding depends on the
		// order of its terms, and spread over 10^±3 and 10^±300.
		spread = []int{0, 3, 300}[trial%3]
		for n := range 71 {
			var a [8]float64
			var x [8][]float64
			for c := range 8 {
				a[c] = v()
				x[c] = make([]float64, n+trial%2) // longer x: only n entries are read
				for i := range x[c] {
					x[c][i] = v()
				}
			}
			y := make([]float64, n)
			for i := range y {
				y[i] = v()
			}
			want := slices.Clone(y)
			axpyGo(want, a[0], x[0])
			got := slices.Clone(y)
			axpy(got, a[0], x[0])
			if i := same(got, want); i >= 0 {
				t.Fatalf("axpy, n = %d, entry %d: %v, axpyGo %v", n, i, got[i], want[i])
			}
			if vec.AVX {
				got = slices.Clone(y)
				vec.Axpy(got, a[0], x[0])
				if i := same(got, want); i >= 0 {
					t.Fatalf("vec.Axpy, n = %d, entry %d: %v, axpyGo %v", n, i, got[i], want[i])
				}
			}
			want = slices.Clone(y)
			axpy8Go(want, &a, &x)
			for _, add := range []func([]float64, float64, []float64){axpyGo, axpy} {
				eight := slices.Clone(y)
				for c := range 8 {
					add(eight, a[c], x[c])
				}
				if i := same(eight, want); i >= 0 {
					t.Fatalf("axpy8Go, n = %d, entry %d: %v, eight axpy calls %v", n, i, want[i], eight[i])
				}
			}
			got = slices.Clone(y)
			axpy8(got, &a, &x)
			if i := same(got, want); i >= 0 {
				t.Fatalf("axpy8, n = %d, entry %d: %v, axpy8Go %v", n, i, got[i], want[i])
			}
			if vec.AVX {
				got = slices.Clone(y)
				vec.Axpy8(got, &a, &x)
				if i := same(got, want); i >= 0 {
					t.Fatalf("vec.Axpy8, n = %d, entry %d: %v, axpy8Go %v", n, i, got[i], want[i])
				}
			}
		}
	}
}

// TestAxpy8ChecksLengths: axpy8 refuses (panics on) an x whose capacity
// is below len(y) whichever loop it runs, as the Go loop's reslicing does.
func TestAxpy8ChecksLengths(t *testing.T) {
	for _, n := range []int{3, 12} {
		var a [8]float64
		var x [8][]float64
		for c := range 8 {
			x[c] = make([]float64, n)
		}
		x[5] = make([]float64, n-1)
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("n = %d: axpy8 with a short x[5] did not panic", n)
				}
			}()
			axpy8(make([]float64, n), &a, &x)
		}()
	}
}
