// Package symeig is the symmetric eigendecomposition the maps learned
// from data factor with (annfm's anchor tables, rf-pca's projection):
// eigenpairs largest first, each eigenvector's sign fixed so that a
// designed map does not depend on the eigensolver's choice of sign.
package symeig

import (
	"context"
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Descending returns the eigenvalues of a, largest first, and its
// eigenvectors as the columns of vecs in the same order, each with its
// largest-magnitude entry positive (the first of equal ones). ok is false
// when the factorisation fails.
func Descending(a mat.Symmetric) (vals []float64, vecs *mat.Dense, ok bool) {
	var es mat.EigenSym
	if !es.Factorize(a, true) {
		return nil, nil, false
	}
	asc := es.Values(nil)
	var v mat.Dense
	es.VectorsTo(&v)
	n := len(asc)
	vals = make([]float64, n)
	vecs = mat.NewDense(n, n, nil)
	for r := range n {
		c := n - 1 - r
		vals[r] = asc[c]
		big, sign := 0.0, 1.0
		for i := range n {
			if x := v.At(i, c); math.Abs(x) > big {
				big, sign = math.Abs(x), math.Copysign(1, x)
			}
		}
		for i := range n {
			vecs.Set(i, r, sign*v.At(i, c))
		}
	}
	return vals, vecs, true
}

// DescendingContext is Descending that gives way to ctx: the factorisation
// (seconds for a matrix of a thousand rows, and it cannot be interrupted)
// runs in a goroutine, and DescendingContext returns ctx's error as soon
// as ctx is done, leaving that goroutine to finish unobserved (a CLI exits
// then; a server's cancelled request spends the CPU once).
func DescendingContext(ctx context.Context, a mat.Symmetric) (vals []float64, vecs *mat.Dense, err error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	type result struct {
		vals []float64
		vecs *mat.Dense
		ok   bool
	}
	done := make(chan result, 1)
	go func() {
		v, w, ok := Descending(a)
		done <- result{v, w, ok}
	}()
	select {
	case <-ctx.Done():
		return nil, nil, ctx.Err()
	case r := <-done:
		if !r.ok {
			return nil, nil, ErrFailed
		}
		return r.vals, r.vecs, nil
	}
}

// ErrFailed is DescendingContext's error when the factorisation fails.
var ErrFailed = errors.New("symeig: the eigendecomposition failed")
