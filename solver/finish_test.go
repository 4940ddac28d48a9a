package solver_test

import (
	"math"
	"strings"
	"testing"

	"github.com/featmap/featmap/solver"
)

// finishLP is the problem min x0 + 2·x1 with one row x0 + x1 ∈ [rlo, rhi]
// and both columns in [clo, chi].
func finishLP(rlo, rhi, clo, chi float64) *solver.Problem {
	return &solver.Problem{
		NumRows:  1,
		Obj:      []float64{1, 2},
		ColLower: []float64{clo, clo},
		ColUpper: []float64{chi, chi},
		RowLower: []float64{rlo},
		RowUpper: []float64{rhi},
		ColStart: []int{0, 1, 2},
		RowIndex: []int{0, 0},
		Value:    []float64{1, 1},
	}
}

// TestFinishDemotes: Finish measures cᵀx and the absolute row and column
// violations of x, and demotes an Optimal status to NumericalFailure
// exactly when the largest violation relative to max(1, |bound|) exceeds
// the feasibility tolerance (default 1e-9; a violation equal to it still
// passes). Other statuses are left alone. Problem.Violations measures the
// same absolute violations.
func TestFinishDemotes(t *testing.T) {
	tol := solver.DefaultFeasibilityTol
	cases := []struct {
		name           string
		p              *solver.Problem
		tol            float64 // Options.FeasibilityTol; 0 = default
		x              []float64
		status         solver.Status
		row, col       float64 // expected absolute violations
		wantDemoted    bool
		wantObjMeasure bool
	}{
		{"feasible on its bounds", finishLP(0, 1, 0, 1), 0, []float64{0.25, 0.75}, solver.Optimal, 0, 0, false, true},
		{"row above by 2·tol", finishLP(0, 0, -1, 1), 0, []float64{2 * tol, 0}, solver.Optimal, 2 * tol, 0, true, true},
		{"row below by 2·tol", finishLP(0, 1, -1, 1), 0, []float64{-2 * tol, 0}, solver.Optimal, 2 * tol, 0, true, true},
		{"row above by tol/2", finishLP(0, 0, -1, 1), 0, []float64{tol / 2, 0}, solver.Optimal, tol / 2, 0, false, true},
		{"row above by exactly tol", finishLP(0, 0, -1, 1), 0, []float64{tol, 0}, solver.Optimal, tol, 0, false, true},
		{"column above by 2·tol", finishLP(-10, 10, 0, 0), 0, []float64{2 * tol, 0}, solver.Optimal, 0, 2 * tol, true, true},
		{"column below by 2·tol", finishLP(-10, 10, 0, 1), 0, []float64{0, -2 * tol}, solver.Optimal, 0, 2 * tol, true, true},
		{"column below by tol/2", finishLP(-10, 10, 0, 1), 0, []float64{0, -tol / 2}, solver.Optimal, 0, tol / 2, false, true},
		// relative to |bound|: 1e-4 over a bound of 1e6 is 1e-10 relative
		{"large bound, small relative", finishLP(-1e6, 1e6, -1e7, 1e7), 0, []float64{1e6 + 1e-4, 0}, solver.Optimal, -1, 0, false, true},
		{"large bound, large relative", finishLP(-1e6, 1e6, -1e7, 1e7), 0, []float64{1e6 + 0.01, 0}, solver.Optimal, -1, 0, true, true},
		{"large lower bound, large relative", finishLP(1e6, 2e6, -1e7, 1e7), 0, []float64{1e6 - 0.01, 0}, solver.Optimal, -1, 0, true, true},
		{"looser tolerance keeps it", finishLP(0, 0, -1, 1), 1e-6, []float64{1e-7, 0}, solver.Optimal, 1e-7, 0, false, true},
		{"looser tolerance exceeded", finishLP(0, 0, -1, 1), 1e-6, []float64{1e-5, 0}, solver.Optimal, 1e-5, 0, true, true},
		{"NaN in x", finishLP(-10, 10, -1, 1), 0, []float64{math.NaN(), 0}, solver.Optimal, math.Inf(1), math.Inf(1), true, false},
		{"Inf in x", finishLP(-10, 10, -1, 1), 0, []float64{0, math.Inf(1)}, solver.Optimal, math.Inf(1), math.Inf(1), true, false},
		{"infeasible status kept", finishLP(0, 0, -1, 1), 0, []float64{1, 0}, solver.Infeasible, 1, 0, false, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := solver.Finish(c.p, solver.Options{FeasibilityTol: c.tol}, &solver.Solution{Status: c.status, X: c.x})
			want := c.status
			if c.wantDemoted {
				want = solver.NumericalFailure
			}
			if s.Status != want {
				t.Errorf("status %v (%q), want %v", s.Status, s.Message, want)
			}
			if c.wantDemoted && !strings.Contains(s.Message, "violates a bound") {
				t.Errorf("demoted with message %q; want it to say which check failed", s.Message)
			}
			if c.wantObjMeasure {
				if obj := c.x[0] + 2*c.x[1]; s.Objective != obj {
					t.Errorf("objective %v, want cᵀx = %v", s.Objective, obj)
				}
			}
			row := c.row
			if row < 0 { // measured against the row bound the case crosses
				act := c.x[0] + c.x[1]
				row = math.Max(act-c.p.RowUpper[0], c.p.RowLower[0]-act)
			}
			if s.MaxRowViolation != row || s.MaxColViolation != c.col {
				t.Errorf("violations row %v col %v, want %v %v", s.MaxRowViolation, s.MaxColViolation, row, c.col)
			}
			if r, col := c.p.Violations(c.x); r != row || col != c.col {
				t.Errorf("Problem.Violations: row %v col %v, want %v %v", r, col, row, c.col)
			}
		})
	}
}

// TestFinishNoPrimal: an Optimal solution whose x has the wrong length is
// demoted with a message saying so; a non-optimal one is returned as is.
func TestFinishNoPrimal(t *testing.T) {
	p := finishLP(0, 1, 0, 1)
	s := solver.Finish(p, solver.Options{}, &solver.Solution{Status: solver.Optimal, X: []float64{0}})
	if s.Status != solver.NumericalFailure || !strings.Contains(s.Message, "no primal solution") {
		t.Errorf("x of length 1 for 2 columns: %v %q, want NumericalFailure", s.Status, s.Message)
	}
	s = solver.Finish(p, solver.Options{}, &solver.Solution{Status: solver.Unbounded})
	if s.Status != solver.Unbounded || s.Message != "" {
		t.Errorf("unbounded without x: %v %q, want it unchanged", s.Status, s.Message)
	}
}
