// Package symeig is the symmetric eigendecomposition the maps learned
// from data factor with (annfm's anchor tables, rf-pca's projection):
// eigenpairs largest first, each eigenvector's sign fixed so that a
// designed map does not depend on the eigensolver's choice of sign; and
// the eigenvalues alone of a symmetric matrix (ValuesContext: the rank-D
// bound of a map's held-out rows). It wraps gonum's mat.EigenSym, LAPACK's
// dsyev in pure Go, which scales the matrix and copes with rank-deficient
// and badly scaled ones.
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
	vals, vecs = descending(&es)
	return vals, vecs, true
}

// descending returns es's eigenpairs largest first, each vector's
// largest-magnitude entry positive (see Descending).
func descending(es *mat.EigenSym) (vals []float64, vecs *mat.Dense) {
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
	return vals, vecs
}

// FactorizeContext factorises a (eigenvalues ascending, with vectors) in
// a goroutine and returns ctx's error as soon as ctx is done, leaving that
// goroutine to finish unobserved (the factorisation takes seconds for a
// matrix of a thousand rows and cannot be interrupted: a CLI exits then;
// a server's cancelled request spends the CPU once). It returns ErrFailed
// when the factorisation fails.
func FactorizeContext(ctx context.Context, a mat.Symmetric) (*mat.EigenSym, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	var es mat.EigenSym
	done := make(chan bool, 1)
	go func() { done <- es.Factorize(a, true) }()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case ok := <-done:
		if !ok {
			return nil, ErrFailed
		}
		return &es, nil
	}
}

// DescendingContext is Descending that gives way to ctx (FactorizeContext).
func DescendingContext(ctx context.Context, a mat.Symmetric) (vals []float64, vecs *mat.Dense, err error) {
	es, err := FactorizeContext(ctx, a)
	if err != nil {
		return nil, nil, err
	}
	vals, vecs = descending(es)
	return vals, vecs, nil
}

// ValuesContext returns the eigenvalues of the symmetric n×n matrix a
// (row-major; its upper triangle is read, a is not changed), ascending,
// without eigenvectors, giving way to ctx as FactorizeContext does; nil
// for n = 0. It returns ErrFailed when the factorisation fails.
func ValuesContext(ctx context.Context, a []float64, n int) ([]float64, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, nil
	}
	sym := mat.NewSymDense(n, a)
	var es mat.EigenSym
	done := make(chan bool, 1)
	go func() { done <- es.Factorize(sym, false) }()
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case ok := <-done:
		if !ok {
			return nil, ErrFailed
		}
		return es.Values(nil), nil
	}
}

// ErrFailed is DescendingContext's and ValuesContext's error when the
// factorisation fails.
var ErrFailed = errors.New("symeig: the eigendecomposition failed")
