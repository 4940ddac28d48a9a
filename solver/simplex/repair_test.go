package simplex

import (
	"math"
	"testing"

	"github.com/featmap/featmap/solver"
)

// dependentConeLP is a small LP of the shape the 2-D refinement LPs have:
// min Σ x_j over x ≥ 0 with A x ≥ b, whose fourth column is exactly
// c₂ + c₃ − c₁ (the four corner columns of one frequency's trust-region
// cone span only three dimensions).
func dependentConeLP() *solver.Problem {
	c1 := []float64{1, 2, 0, 1, 3, 1}
	c2 := []float64{2, 1, 1, 0, 1, 2}
	c3 := []float64{0, 1, 3, 2, 1, 1}
	c4 := make([]float64, len(c1))
	for i := range c4 {
		c4[i] = c2[i] + c3[i] - c1[i]
	}
	lo := []float64{1, 2, 1, 1, 2, 1}
	hi := make([]float64, len(lo))
	for i := range hi {
		hi[i] = math.Inf(1)
	}
	b := solver.NewBuilder(lo, hi)
	for _, c := range [][]float64{c1, c2, c3, c4} {
		b.AddDenseColumn(1, 0, math.Inf(1), c)
	}
	return b.Problem()
}

// TestRepairKernel: a basis holding all four dependent columns has a
// singular kernel; repairKernel drops one of them with a kernel row (the
// kernel shrinks by one and factorises), where the slack basis would have
// dropped the whole basis; and a solve given that singular basis as its
// warm start (which falls back to the slack basis) ends at the cold
// solve's optimum.
func TestRepairKernel(t *testing.T) {
	p := dependentConeLP()
	b := &solver.Basis{Cols: []solver.VarStatus{solver.Basic, solver.Basic, solver.Basic, solver.Basic}, Rows: []solver.VarStatus{solver.AtLower, solver.AtLower, solver.AtLower, solver.AtLower, solver.Basic, solver.Basic}}
	s := newSimplex(p, solver.Options{}.WithDefaults(p))
	s.slackBasis()
	for j := range 4 {
		s.posS[j] = j
		s.S = append(s.S, j)
		s.st[j] = stBasic
	}
	for i := range 4 {
		s.posT[i] = i
		s.T = append(s.T, i)
		s.st[s.n+i] = stLower
	}
	if err := s.refactor(); err == nil {
		t.Fatal("the kernel of four dependent columns factorised")
	}
	if !s.repairKernel() {
		t.Fatal("repairKernel failed")
	}
	if s.k() != 3 || len(s.T) != 3 {
		t.Fatalf("repaired kernel %d×%d, want 3×3", len(s.T), s.k())
	}
	basicRows := 0
	for i := range s.m {
		if s.st[s.n+i] == stBasic {
			basicRows++
		}
	}
	if basicRows != 3 {
		t.Errorf("%d basic row activities after the repair, want 3", basicRows)
	}

	cold, err := pureGo{}.Solve(p, solver.Options{})
	if err != nil || cold.Status != solver.Optimal {
		t.Fatalf("cold solve: %v %v", cold, err)
	}
	warm, err := pureGo{}.Solve(p, solver.Options{WarmStart: b})
	if err != nil || warm.Status != solver.Optimal {
		t.Fatalf("warm solve from the singular basis: %v %v", warm, err)
	}
	if math.Abs(warm.Objective-cold.Objective) > 1e-9*math.Abs(cold.Objective) {
		t.Errorf("warm objective %.12g, cold %.12g", warm.Objective, cold.Objective)
	}
}
