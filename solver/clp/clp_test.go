//go:build clp

package clp

import (
	"math"
	"testing"

	"github.com/featmap/featmap/solver"
)

// TestCLPRowStatusConvention pins down how CLP's row statuses read: a row
// whose activity sits at its lower bound has ClpSimplex status atLowerBound
// (3), not the inverted convention OSI uses for artificials. Both ends of
// one-sided and ranged rows are exercised, and a re-solve from the mapped
// basis (read back through the same convention) must need no pivot.
func TestCLPRowStatusConvention(t *testing.T) {
	inf := math.Inf(1)
	// min x0 + 2x1 + x2 with ranged rows (so that either end can be named)
	//   r0: 1 ≤ x0 + x1 ≤ 5      (at its lower end)
	//   r1: −3 ≤ x0 − x1 ≤ 0.5   (at its upper end)
	//   r2: −1 ≤ x2 − x0 ≤ 3     (inside: −0.75)
	// has the optimum x = (0.75, 0.25, 0).
	b := solver.NewBuilder([]float64{1, -3, -1}, []float64{5, 0.5, 3})
	b.AddColumn(1, 0, inf, []int{0, 1, 2}, []float64{1, 1, -1})
	b.AddColumn(2, 0, inf, []int{0, 1}, []float64{1, -1})
	b.AddColumn(1, 0, inf, []int{2}, []float64{1})
	p := b.Problem()
	sol, err := clpBackend{}.Solve(p, solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Status != solver.Optimal {
		t.Fatalf("status %v (%s)", sol.Status, sol.Message)
	}
	want := []float64{0.75, 0.25, 0}
	for j := range want {
		if math.Abs(sol.X[j]-want[j]) > 1e-12 {
			t.Fatalf("x = %v, want %v", sol.X, want)
		}
	}
	r := p.Activity(sol.X)
	for i, s := range sol.Basis.Rows {
		switch s {
		case solver.AtLower:
			if math.Abs(r[i]-p.RowLower[i]) > 1e-12 {
				t.Errorf("row %d: status AtLower but activity %g, bounds [%g, %g]", i, r[i], p.RowLower[i], p.RowUpper[i])
			}
		case solver.AtUpper:
			if math.Abs(r[i]-p.RowUpper[i]) > 1e-12 {
				t.Errorf("row %d: status AtUpper but activity %g, bounds [%g, %g]", i, r[i], p.RowLower[i], p.RowUpper[i])
			}
		}
	}
	if got := sol.Basis.Rows[0]; got != solver.AtLower {
		t.Errorf("row 0 (≥, tight) has status %v, want AtLower", got)
	}
	if got := sol.Basis.Rows[1]; got != solver.AtUpper {
		t.Errorf("row 1 (≤, tight) has status %v, want AtUpper", got)
	}
	if got := sol.Basis.Rows[2]; got != solver.Basic {
		t.Errorf("row 2 (inside its range) has status %v, want Basic", got)
	}
	t.Logf("row statuses %v", sol.Basis.Rows)
	// Re-solve from the basis: no pivots.
	warm, err := clpBackend{}.Solve(p, solver.Options{WarmStart: sol.Basis})
	if err != nil || warm.Status != solver.Optimal || warm.Iterations != 0 {
		t.Errorf("re-solve from own basis: %v, status %v, %d pivots; want optimal in 0", err, warm.Status, warm.Iterations)
	}
	// The input convention cannot be told apart by pivot counts: CLP's dual
	// simplex moves a boxed variable (or ranged row) that is named at the
	// wrong end to the other end without a pivot. It reads the same status
	// array it writes, whose convention is asserted above against the
	// activities (and by basisDefect on every solve of the conformance suite).
	inv := sol.Basis.Clone()
	inv.Rows[0], inv.Rows[1] = solver.AtUpper, solver.AtLower
	w, err := clpBackend{}.Solve(p, solver.Options{WarmStart: inv})
	if err != nil || w.Status != solver.Optimal || math.Abs(w.Objective-sol.Objective) > 1e-12 {
		t.Errorf("re-solve from the row-inverted basis: %v, status %v, objective %v; want optimal %v", err, w.Status, w.Objective, sol.Objective)
	}
}

// TestCLPDualSigns checks CLP's row prices and reduced costs against the
// convention documented on Solution on a problem worked out by hand:
// min x0 + 2x1, x0 + x1 ≥ 1 (y = 3/2), x0 − x1 ≤ 1/2 (y = −1/2).
func TestCLPDualSigns(t *testing.T) {
	inf := math.Inf(1)
	b := solver.NewBuilder([]float64{1, -inf}, []float64{inf, 0.5})
	b.AddColumn(1, 0, inf, []int{0, 1}, []float64{1, 1})
	b.AddColumn(2, 0, inf, []int{0, 1}, []float64{1, -1})
	b.AddColumn(3, 0, inf, []int{0}, []float64{1}) // d = 3 − 3/2 = 3/2 at its lower bound
	sol, err := clpBackend{}.Solve(b.Problem(), solver.Options{})
	if err != nil || sol.Status != solver.Optimal {
		t.Fatalf("%v %v", err, sol)
	}
	for i, want := range []float64{1.5, -0.5} {
		if math.Abs(sol.RowDual[i]-want) > 1e-12 {
			t.Errorf("RowDual = %v, want [1.5 -0.5]", sol.RowDual)
		}
	}
	for j, want := range []float64{0, 0, 1.5} {
		if math.Abs(sol.ColDual[j]-want) > 1e-12 {
			t.Errorf("ColDual = %v, want [0 0 1.5]", sol.ColDual)
		}
	}
}

// TestCLPStatusMapping covers the helpers that translate statuses.
func TestCLPStatusMapping(t *testing.T) {
	inf := math.Inf(1)
	in := []struct {
		s      solver.VarStatus
		lo, hi float64
		want   int
	}{
		{solver.Basic, 0, 1, clpBasic},
		{solver.AtLower, 0, 1, clpAtLower},
		{solver.AtUpper, 0, 1, clpAtUpper},
		{solver.AtUpper, 0, inf, clpAtLower}, // no upper bound: the lower one
		{solver.AtLower, -inf, 1, clpAtUpper},
		{solver.AtLower, 2, 2, clpFixed},
		{solver.AtZero, -inf, inf, clpFree},
		{solver.AtLower, -inf, inf, clpFree},
		{solver.AtZero, -1, 1, clpAtLower},
	}
	for _, c := range in {
		if got := clpStatusIn(c.s, c.lo, c.hi); got != c.want {
			t.Errorf("clpStatusIn(%v, %g, %g) = %d, want %d", c.s, c.lo, c.hi, got, c.want)
		}
	}
	out := []struct {
		st        int
		lo, hi, v float64
		want      solver.VarStatus
	}{
		{clpBasic, 0, 1, 0.5, solver.Basic},
		{clpAtLower, 0, 1, 0, solver.AtLower},
		{clpAtUpper, 0, 1, 1, solver.AtUpper},
		{clpFixed, 2, 2, 2, solver.AtLower},
		{clpFree, -inf, inf, 0, solver.AtZero},
		{clpSuperBasic, -1, 1, 0.9, solver.AtUpper},
		{clpSuperBasic, -inf, 1, 0.9, solver.AtUpper},
	}
	for _, c := range out {
		if got := clpStatusOut(c.st, c.lo, c.hi, c.v); got != c.want {
			t.Errorf("clpStatusOut(%d, %g, %g, %g) = %v, want %v", c.st, c.lo, c.hi, c.v, got, c.want)
		}
	}
}
