package simplex

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/featmap/featmap/solver"
)

// TestRecomputeDualsRowCosts: with costs on row activities (a shifted
// start's dual simplex, Options.ShiftedStart), recomputeDuals gives duals
// y under which every basic variable's reduced cost is 0 — c_j − a_jᵀy for
// a basic column, c_i + y_i for a basic row activity — and the reduced
// costs it stores are those of y: c_j − a_jᵀy for a nonbasic column,
// c_i + y_i for a nonbasic row activity. Checked at the optimal bases of
// 300 random LPs with random costs on every variable.
func TestRecomputeDualsRowCosts(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 43))
	checked := 0
	for k := range 300 {
		m, n := 3+r.IntN(12), 2+r.IntN(10)
		p := randomDenseLP(r, m, n)
		s := newSimplex(p, solver.Options{}.WithDefaults(p))
		if st, _ := s.run(nil); st != solver.Optimal || s.k() == 0 || s.k() == m {
			s.release()
			continue
		}
		c := make([]float64, n+m)
		for v := range c {
			c[v] = r.NormFloat64()
		}
		s.shiftRows = true
		s.recomputeDuals(c)
		// y on the rows: from a basic row activity's cost, or from a
		// nonbasic one's reduced cost.
		y := make([]float64, m)
		for i := range m {
			if s.st[n+i] == stBasic {
				y[i] = -c[n+i]
			} else {
				y[i] = s.d[n+i] - c[n+i]
			}
		}
		for j := range n {
			red := c[j]
			for i := range m {
				red -= s.ar[i*n+j] * y[i]
			}
			want := s.d[j]
			if s.st[j] == stBasic {
				want = 0
			}
			if math.Abs(red-want) > 1e-9*(1+math.Abs(red)) {
				t.Fatalf("LP %d: column %d (basic %v): c − aᵀy = %.12g, stored %.12g", k, j, s.st[j] == stBasic, red, want)
			}
		}
		s.release()
		checked++
	}
	if checked < 100 {
		t.Fatalf("only %d LPs had a basis with basic rows and columns", checked)
	}
}

// readPolish2D reads solver/testdata/polish2d: a polish step's LP of the 2-D
// plain Proj design (multidim.Projection, RBF σ = 0.3 on [0, π]², D = 73),
// 456 points (two rows each) and 219 columns (t, and a positive and a
// negative part of each weight's and frequency coordinate's step, boxed
// by the trust region), with the basis the design started it from: the
// previous step's optimum, on columns the accepted step has moved.
func readPolish2D(t testing.TB) (*solver.Problem, *solver.Basis) {
	t.Helper()
	p := readGzipLP(t, "../testdata/polish2d/step-912x219.json.gz")
	b, err := os.ReadFile("../testdata/polish2d/step-912x219.basis")
	if err != nil {
		t.Fatal(err)
	}
	var basis solver.Basis
	if err := json.Unmarshal(b, &basis); err != nil {
		t.Fatal(err)
	}
	return p, &basis
}

// TestShiftedStart: from the polish LP's warm basis, which is neither
// primal nor dual feasible, Options.ShiftedStart reaches the optimum of
// the default start (the primal simplex's phase 1) and of a cold solve in
// fewer pivots, and with DevexFromStart fewer again.
func TestShiftedStart(t *testing.T) {
	t.Parallel() // pure Go only, no shared state
	p, basis := readPolish2D(t)
	s := newSimplex(p, solver.Options{}.WithDefaults(p))
	if !s.warmBasis(basis) {
		t.Fatal("the warm basis does not fit or is singular")
	}
	if err := s.refresh(); err != nil {
		t.Fatal(err)
	}
	if !(s.primalInfeasibility() > 0 && s.dualInfeasible()) {
		t.Fatalf("the warm start is not both primal and dual infeasible (primal %g, dual %v)", s.primalInfeasibility(), s.dualInfeasible())
	}
	s.release()
	solve := func(name string, o solver.Options) *solver.Solution {
		sol, err := pureGo{}.Solve(p, o)
		if err != nil || sol.Status != solver.Optimal {
			t.Fatalf("%s: %v %v", name, sol, err)
		}
		return sol
	}
	cold := solve("cold", solver.Options{})
	phase1 := solve("default", solver.Options{WarmStart: basis})
	shifted := solve("shifted", solver.Options{WarmStart: basis, ShiftedStart: true})
	devex := solve("shifted, Devex", solver.Options{WarmStart: basis, ShiftedStart: true, Devex: true, DevexFromStart: true})
	for _, c := range []struct {
		name string
		sol  *solver.Solution
	}{{"default", phase1}, {"shifted", shifted}, {"shifted, Devex", devex}} {
		if d := math.Abs(c.sol.Objective - cold.Objective); d > 1e-9*math.Abs(cold.Objective) {
			t.Errorf("%s start: objective %.12g, cold %.12g", c.name, c.sol.Objective, cold.Objective)
		}
	}
	if !(shifted.Iterations < phase1.Iterations && devex.Iterations < shifted.Iterations) {
		t.Errorf("pivots: default start %d, shifted %d, shifted with Devex %d", phase1.Iterations, shifted.Iterations, devex.Iterations)
	}
	t.Logf("pivots: cold %d, default start %d, shifted %d, shifted with Devex from the start %d", cold.Iterations, phase1.Iterations, shifted.Iterations, devex.Iterations)
}
