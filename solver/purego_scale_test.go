package solver

import (
	"math"
	"testing"
)

// TestDualDefect: dualDefect flags a reduced cost of the wrong sign for its
// variable's basis status by more than tol — negative at a lower bound,
// positive at an upper bound, either sign for a free nonbasic variable —
// and not one of exactly tol, one of the right sign, a basic variable's or
// a fixed variable's; a solution without a basis is a defect.
func TestDualDefect(t *testing.T) {
	const tol = 1e-9
	p := &Problem{NumRows: 0, Obj: []float64{0},
		ColLower: []float64{0}, ColUpper: []float64{1}, ColStart: []int{0, 0}}
	fixed := &Problem{NumRows: 0, Obj: []float64{0},
		ColLower: []float64{1}, ColUpper: []float64{1}, ColStart: []int{0, 0}}
	free := &Problem{NumRows: 0, Obj: []float64{0},
		ColLower: []float64{math.Inf(-1)}, ColUpper: []float64{math.Inf(1)}, ColStart: []int{0, 0}}
	for _, c := range []struct {
		p    *Problem
		st   VarStatus
		d    float64
		want bool
	}{
		{p, AtLower, -tol, false},
		{p, AtLower, -1.5 * tol, true},
		{p, AtLower, 5, false},
		{p, AtUpper, tol, false},
		{p, AtUpper, 1.5 * tol, true},
		{p, AtUpper, -5, false},
		{free, AtZero, tol, false},
		{free, AtZero, -1.5 * tol, true},
		{free, AtZero, 1.5 * tol, true},
		{p, Basic, 5, false},
		{fixed, AtLower, -5, false},
	} {
		s := &Solution{ColDual: []float64{c.d}, Basis: &Basis{Cols: []VarStatus{c.st}}}
		if got := dualDefect(c.p, s, tol); got != c.want {
			t.Errorf("status %v, bounds [%v, %v], d = %v: defect %v, want %v", c.st, c.p.ColLower[0], c.p.ColUpper[0], c.d, got, c.want)
		}
	}
	if !dualDefect(p, &Solution{ColDual: []float64{0}}, tol) {
		t.Error("a solution without a basis is not a defect")
	}
}
