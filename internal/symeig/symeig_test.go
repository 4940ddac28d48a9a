package symeig

import (
	"context"
	"errors"
	"math"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// TestDescending: on a matrix with known eigenpairs (diag(1, 3, 2) rotated
// by a signed permutation), the values come largest first, the vectors
// reconstruct the matrix, and each vector's largest entry is positive.
func TestDescending(t *testing.T) {
	a := mat.NewSymDense(3, []float64{
		2, 0, 0,
		0, 1, 0,
		0, 0, 3,
	})
	vals, vecs, ok := Descending(a)
	if !ok {
		t.Fatal("factorisation failed")
	}
	for i, want := range []float64{3, 2, 1} {
		if math.Abs(vals[i]-want) > 1e-15 {
			t.Errorf("λ_%d = %v, want %v", i, vals[i], want)
		}
	}
	for c := range 3 {
		big := 0.0
		for i := range 3 {
			if math.Abs(vecs.At(i, c)) > math.Abs(big) {
				big = vecs.At(i, c)
			}
		}
		if big <= 0 {
			t.Errorf("vector %d: largest entry %v, want positive", c, big)
		}
	}
	// V diag(λ) Vᵀ = a.
	for i := range 3 {
		for j := range 3 {
			s := 0.0
			for c := range 3 {
				s += vecs.At(i, c) * vals[c] * vecs.At(j, c)
			}
			if math.Abs(s-a.At(i, j)) > 1e-14 {
				t.Errorf("(VΛVᵀ)_%d%d = %v, want %v", i, j, s, a.At(i, j))
			}
		}
	}
}

// TestDescendingContext: with a live context it gives Descending's
// eigenpairs; cancelled before, it returns the context's error at once;
// cancelled during the factorisation of a 600 × 600 matrix (about a
// tenth of a second or more), within a few milliseconds of the cancel.
func TestDescendingContext(t *testing.T) {
	a := mat.NewSymDense(3, []float64{2, 1, 0, 1, 3, 0, 0, 0, 1})
	want, _, _ := Descending(a)
	got, _, err := DescendingContext(context.Background(), a)
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("live context: %v %v, want %v", got, err, want)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := DescendingContext(ctx, a); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
	n := 600
	big := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			big.SetSym(i, j, math.Sin(float64(i*n+j)))
		}
	}
	ctx, cancel = context.WithCancel(context.Background())
	time.AfterFunc(5*time.Millisecond, cancel)
	start := time.Now()
	_, _, err = DescendingContext(ctx, big)
	if took := time.Since(start); !errors.Is(err, context.Canceled) || took > 50*time.Millisecond {
		t.Errorf("cancelled after 5 ms: %v after %v, want context.Canceled within 50 ms", err, took)
	}
}

// TestValuesContext: the eigenvalues of a matrix of known spectrum
// (diag(2, 1, 3) with a 2×2 block of eigenvalues 1 and 3), ascending, read
// from the upper triangle only and leaving the matrix as it was; none for
// n = 0; a cancelled context's error.
func TestValuesContext(t *testing.T) {
	a := []float64{
		2, 1, 0,
		-7, 2, 0, // below the diagonal: not read
		-7, -7, 5,
	}
	orig := slices.Clone(a)
	got, err := ValuesContext(context.Background(), a, 3)
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []float64{1, 3, 5} {
		if math.Abs(got[i]-want) > 1e-14 {
			t.Errorf("λ_%d = %v, want %v", i, got[i], want)
		}
	}
	if !slices.Equal(a, orig) {
		t.Errorf("the matrix changed: %v", a)
	}
	if v, err := ValuesContext(context.Background(), nil, 0); v != nil || err != nil {
		t.Errorf("n = 0: %v, %v", v, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ValuesContext(ctx, a, 3); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled context: %v", err)
	}
}
