package simplex

import (
	"math"
	"testing"

	"github.com/featmap/featmap/solver"
)

// TestDualDefect: dualDefect flags a reduced cost of the wrong sign for its
// variable's basis status by more than tol — negative at a lower bound,
// positive at an upper bound, either sign for a free nonbasic variable —
// and not one of exactly tol, one of the right sign, a basic variable's or
// a fixed variable's; a solution without a basis is a defect.
func TestDualDefect(t *testing.T) {
	const tol = 1e-9
	p := &solver.Problem{NumRows: 0, Obj: []float64{0},
		ColLower: []float64{0}, ColUpper: []float64{1}, ColStart: []int{0, 0}}
	fixed := &solver.Problem{NumRows: 0, Obj: []float64{0},
		ColLower: []float64{1}, ColUpper: []float64{1}, ColStart: []int{0, 0}}
	free := &solver.Problem{NumRows: 0, Obj: []float64{0},
		ColLower: []float64{math.Inf(-1)}, ColUpper: []float64{math.Inf(1)}, ColStart: []int{0, 0}}
	for _, c := range []struct {
		p    *solver.Problem
		st   solver.VarStatus
		d    float64
		want bool
	}{
		{p, solver.AtLower, -tol, false},
		{p, solver.AtLower, -1.5 * tol, true},
		{p, solver.AtLower, 5, false},
		{p, solver.AtUpper, tol, false},
		{p, solver.AtUpper, 1.5 * tol, true},
		{p, solver.AtUpper, -5, false},
		{free, solver.AtZero, tol, false},
		{free, solver.AtZero, -1.5 * tol, true},
		{free, solver.AtZero, 1.5 * tol, true},
		{p, solver.Basic, 5, false},
		{fixed, solver.AtLower, -5, false},
	} {
		s := &solver.Solution{ColDual: []float64{c.d}, Basis: &solver.Basis{Cols: []solver.VarStatus{c.st}}}
		if got := dualDefect(c.p, s, tol); got != c.want {
			t.Errorf("status %v, bounds [%v, %v], d = %v: defect %v, want %v", c.st, c.p.ColLower[0], c.p.ColUpper[0], c.d, got, c.want)
		}
	}
	if !dualDefect(p, &solver.Solution{ColDual: []float64{0}}, tol) {
		t.Error("a solution without a basis is not a defect")
	}
}

// TestScaledRatio: scaledRatio is max/min of |r_i a_ij c_j| over the
// nonzero entries outside free rows, 1 when there are none.
func TestScaledRatio(t *testing.T) {
	// Rows 0 and 2 bounded, row 1 free; a stored zero in column 1.
	p := &solver.Problem{NumRows: 3, Obj: []float64{0, 0},
		ColLower: []float64{0, 0}, ColUpper: []float64{1, 1},
		RowLower: []float64{0, math.Inf(-1), -1}, RowUpper: []float64{1, math.Inf(1), math.Inf(1)},
		ColStart: []int{0, 3, 5}, RowIndex: []int{0, 1, 2, 0, 2}, Value: []float64{-3, 1e9, 0.5, 0, 6}}
	free := []bool{false, true, false}
	if got := scaledRatio(p, free, []float64{1, 1, 1}, []float64{1, 1}); got != 12 {
		t.Errorf("unscaled: ratio %v, want 12 (|−3|, 0.5 and 6; the free row's 1e9 and the zero left out)", got)
	}
	if got := scaledRatio(p, free, []float64{0.5, 1, 1}, []float64{1, 0.5}); got != 6 {
		t.Errorf("scaled: ratio %v, want 6 (1.5, 0.5 and 3)", got)
	}
	if got := scaledRatio(p, nil, []float64{1, 1, 1}, []float64{1, 1}); got != 1e9/0.5 {
		t.Errorf("no free row: ratio %v, want %v", got, 1e9/0.5)
	}
	empty := &solver.Problem{NumRows: 1, Obj: []float64{0}, ColLower: []float64{0}, ColUpper: []float64{1},
		RowLower: []float64{0}, RowUpper: []float64{1}, ColStart: []int{0, 1}, RowIndex: []int{0}, Value: []float64{0}}
	if got := scaledRatio(empty, nil, []float64{1}, []float64{1}); got != 1 {
		t.Errorf("no nonzero entry: ratio %v, want 1", got)
	}
}

// TestComputeScalingFinalGate: an LP whose first geometric pass narrows
// |A|'s range 16× or more, but whose final power-of-two factors narrow it
// less, is solved as given (computeScaling returns nil): the final gate
// measures the factors that would be applied.
func TestComputeScalingFinalGate(t *testing.T) {
	// Columns (2.4, 0.36), (1.2, 0.22), (−0.6, 0.065): range 2.4/0.065 ≈ 37.
	p := &solver.Problem{NumRows: 2, Obj: []float64{0, 0, 0},
		ColLower: []float64{0, 0, 0}, ColUpper: []float64{math.Inf(1), math.Inf(1), math.Inf(1)},
		RowLower: []float64{-1, -1}, RowUpper: []float64{1, 1},
		ColStart: []int{0, 2, 4, 6}, RowIndex: []int{0, 1, 0, 1, 0, 1},
		Value: []float64{2.4, 0.36, 1.2, 0.22, -0.6, 0.065}}
	// The first pass, by hand: row factors 1/√(min·max), then each column's
	// max/min.
	unscaled := 2.4 / 0.065
	r0, r1 := 1/math.Sqrt(0.6*2.4), 1/math.Sqrt(0.065*0.36)
	first := 0.0
	for j := range 3 {
		a, b := math.Abs(p.Value[2*j])*r0, math.Abs(p.Value[2*j+1])*r1
		first = math.Max(first, math.Max(a, b)/math.Min(a, b))
	}
	if !(minScaleGain*first <= unscaled) {
		t.Fatalf("the first pass gains only %.3g×; the case no longer reaches the final gate", unscaled/first)
	}
	if sc := computeScaling(p); sc != nil {
		t.Errorf("scaled with rows %v, columns %v (range %.3g against %.3g unscaled); want unscaled", sc.row, sc.col,
			scaledRatio(p, nil, sc.row, sc.col), unscaled)
	}
}
