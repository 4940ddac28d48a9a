// Package symeig is the symmetric eigendecomposition the maps learned
// from data factor with (annfm's anchor tables, rf-pca's projection):
// eigenpairs largest first, each eigenvector's sign fixed so that a
// designed map does not depend on the eigensolver's choice of sign.
package symeig

import (
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
