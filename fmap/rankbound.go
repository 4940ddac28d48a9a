package fmap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
)

// MaxRankBoundRows bounds the held-out rows the rank bound is computed on:
// the eigenvalues of their Gram matrix cost about 2r³/3 multiply-adds
// (docs/nystroem.md, "The rank-D bound"). Beyond it the bound is that of
// the first MaxRankBoundRows held-out rows (a random sample of them: the
// held-out rows are drawn by a seeded shuffle), stated with the map's error
// on the same rows.
const MaxRankBoundRows = 1000

// RankBound is the rank-D bound on held-out rows: the relative Frobenius
// error ‖K − K_D‖_F/‖K‖_F of the best approximation K_D of their Gram
// matrix K by a positive semidefinite matrix of rank at most D (Eckart and
// Young: K's eigenvalues beyond the D largest, and any negative ones).
// ΨΨᵀ is such a matrix for every map Ψ of D outputs per row, so no map of
// D components, however made, has a lower error on those rows.
type RankBound struct {
	// Rank is D, the map's outputs per row.
	Rank int `json:"rank"`
	// Rows is the number of held-out rows the bound is computed on: all
	// of them, or the first MaxRankBoundRows.
	Rows int `json:"rows"`
	// Frobenius is the bound.
	Frobenius float64 `json:"frobenius"`
	// Map is the map's relative Frobenius error on those rows (the data
	// error, DataVerification.Frobenius, when they are all the held-out
	// rows).
	Map float64 `json:"map"`
	// Ratio is Map/Frobenius, at least 1 up to rounding; 0 (omitted) when
	// the bound is 0 (D at least the rows' rank).
	Ratio float64 `json:"ratio,omitempty"`
}

// String is the bound in words, e.g. "rank-64 bound 0.00389 on 397
// held-out rows; the map 3.44× it".
func (b *RankBound) String() string {
	if b.Frobenius == 0 {
		return fmt.Sprintf("rank-%d bound 0 on %d held-out rows (%d components can reproduce their Gram matrix exactly)", b.Rank, b.Rows, b.Rank)
	}
	s := fmt.Sprintf("rank-%d bound %.6g on %d held-out rows", b.Rank, b.Frobenius, b.Rows)
	if b.Ratio > 0 {
		s += fmt.Sprintf("; the map %.3g× it", b.Ratio)
	}
	return s
}

// rankBound returns the rank-dim bound of the Gram matrix whose
// eigenvalues are vals (any order), and the map's error mapErr on the same
// rows.
func rankBound(vals []float64, dim, rows int, mapErr float64) *RankBound {
	desc := slices.Clone(vals)
	slices.SortFunc(desc, func(a, b float64) int { return -compareFloat(a, b) })
	var tail, all float64
	for i, v := range desc {
		all += v * v
		if i >= dim || v < 0 {
			tail += v * v
		}
	}
	b := &RankBound{Rank: dim, Rows: rows, Map: mapErr}
	if all > 0 {
		b.Frobenius = math.Sqrt(tail / all)
	}
	if b.Frobenius > 0 {
		b.Ratio = mapErr / b.Frobenius
	}
	return b
}

func compareFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// boundRows is the number of held-out rows of n the rank bound is
// computed on.
func boundRows(n int) int { return min(n, MaxRankBoundRows) }

// heldEigenvalues returns the eigenvalues of the Gram matrix of the first
// r rows of the n held-out rows whose kernel values exact holds (row-major
// n×n, the upper triangle j ≥ i filled).
func heldEigenvalues(ctx context.Context, exact []float64, n, r int) ([]float64, error) {
	a := make([]float64, r*r)
	for i := range r {
		for j := i; j < r; j++ {
			a[i*r+j], a[j*r+i] = exact[i*n+j], exact[i*n+j]
		}
	}
	return symEigenvalues(ctx, a, r)
}

// errNoConvergence is symEigenvalues' error when the QL iterations do not
// converge.
var errNoConvergence = errors.New("fmap: the eigenvalues of the held-out rows' Gram matrix did not converge")

// symEigenvalues returns the eigenvalues of the symmetric r×r matrix a
// (row-major, both triangles; overwritten), unsorted: Householder
// reduction to tridiagonal form (its lower triangle updated), then the
// implicit QL iterations with Wilkinson's shift (the EISPACK routines
// tred1 and tql1). It looks at ctx before every column of the reduction.
func symEigenvalues(ctx context.Context, a []float64, r int) ([]float64, error) {
	d := make([]float64, r)
	e := make([]float64, r) // e[i]: between i and i+1
	v := make([]float64, r)
	p := make([]float64, r)
	for k := 0; k+2 < r; k++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The Householder vector v of column k below the diagonal:
		// (I − βvvᵀ)x = αe₁.
		var norm float64
		for i := k + 1; i < r; i++ {
			norm = math.Hypot(norm, a[i*r+k])
		}
		d[k] = a[k*r+k]
		if norm == 0 {
			e[k] = 0
			continue
		}
		x0 := a[(k+1)*r+k]
		alpha := -math.Copysign(norm, x0)
		for i := k + 1; i < r; i++ {
			v[i] = a[i*r+k]
		}
		v[k+1] -= alpha
		var vv float64
		for i := k + 1; i < r; i++ {
			vv += v[i] * v[i]
		}
		e[k] = alpha
		beta := 2 / vv
		// p = βA₂₂v from the lower triangle, then q = p − (β/2)(vᵀp)v.
		clear(p[k+1:])
		for i := k + 1; i < r; i++ {
			row := a[i*r : i*r+i]
			var s float64
			for j := k + 1; j < i; j++ {
				s += row[j] * v[j]
				p[j] += row[j] * v[i]
			}
			p[i] += s + a[i*r+i]*v[i]
		}
		var vp float64
		for i := k + 1; i < r; i++ {
			p[i] *= beta
			vp += v[i] * p[i]
		}
		h := beta / 2 * vp
		for i := k + 1; i < r; i++ {
			p[i] -= h * v[i]
		}
		// A₂₂ ← A₂₂ − vqᵀ − qvᵀ, its lower triangle.
		for i := k + 1; i < r; i++ {
			row := a[i*r : i*r+i+1]
			vi, qi := v[i], p[i]
			for j := k + 1; j <= i; j++ {
				row[j] -= vi*p[j] + qi*v[j]
			}
		}
	}
	switch {
	case r >= 2:
		d[r-2], d[r-1], e[r-2] = a[(r-2)*r+r-2], a[(r-1)*r+r-1], a[(r-1)*r+r-2]
	case r == 1:
		d[0] = a[0]
	}
	if !tql1(d, e) {
		return nil, errNoConvergence
	}
	return d, nil
}

// tql1 overwrites d with the eigenvalues of the symmetric tridiagonal
// matrix of diagonal d and off-diagonal e (e[i] between i and i+1; e is
// destroyed) by implicit QL iterations with Wilkinson's shift; false if
// an eigenvalue takes more than 60 iterations.
func tql1(d, e []float64) bool {
	n := len(d)
	const eps = 0x1p-52
	for l := 0; l < n; l++ {
		for iter := 0; ; iter++ {
			m := l
			for ; m < n-1; m++ {
				if math.Abs(e[m]) <= eps*(math.Abs(d[m])+math.Abs(d[m+1])) {
					break
				}
			}
			if m == l {
				break
			}
			if iter == 60 {
				return false
			}
			g := (d[l+1] - d[l]) / (2 * e[l])
			r := math.Hypot(g, 1)
			g = d[m] - d[l] + e[l]/(g+math.Copysign(r, g))
			s, c, p := 1.0, 1.0, 0.0
			i := m - 1
			for ; i >= l; i-- {
				f, b := s*e[i], c*e[i]
				r = math.Hypot(f, g)
				e[i+1] = r
				if r == 0 {
					d[i+1] -= p
					e[m] = 0
					break
				}
				s, c = f/r, g/r
				g = d[i+1] - p
				r = (d[i]-g)*s + 2*c*b
				p = s * r
				d[i+1] = g + p
				g = c*r - b
			}
			if r == 0 && i >= l {
				continue
			}
			d[l] -= p
			e[l] = g
			e[m] = 0
		}
	}
	return true
}
