package fmap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/internal/symeig"
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
// rows. An eigenvalue within rows·ε·|λ_max| of 0 (ε = 2⁻⁵², the
// eigensolver's rounding on a matrix of that size) is taken as 0: a
// negative one so small is the rounding of a zero eigenvalue of a
// rank-deficient Gram matrix (repeated rows), not a negative part of K.
func rankBound(vals []float64, dim, rows int, mapErr float64) *RankBound {
	desc := slices.Clone(vals)
	slices.SortFunc(desc, func(a, b float64) int { return -compareFloat(a, b) })
	var top float64
	for _, v := range desc {
		top = math.Max(top, math.Abs(v))
	}
	noise := float64(rows) * 0x1p-52 * top
	var tail, all float64
	for i, v := range desc {
		if math.Abs(v) <= noise {
			v = 0
		}
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
// n×n, the upper triangle j ≥ i filled), by gonum's symmetric eigensolver
// (internal/symeig), which ctx stops.
func heldEigenvalues(ctx context.Context, exact []float64, n, r int) ([]float64, error) {
	a := make([]float64, r*r)
	for i := range r {
		copy(a[i*r+i:(i+1)*r], exact[i*n+i:i*n+r])
	}
	vals, err := symeig.ValuesContext(ctx, a, r)
	if errors.Is(err, symeig.ErrFailed) {
		return nil, errNoConvergence
	}
	return vals, err
}

// errNoConvergence is heldEigenvalues' error when the eigensolver fails.
var errNoConvergence = errors.New("fmap: the eigenvalues of the held-out rows' Gram matrix did not converge")
