package solver_test

import (
	"math/rand/v2"
	"testing"

	"github.com/featmap/featmap/solver"
)

// warmFamilies are the random LP families the warm-start tests draw from.
var warmFamilies = []genSpec{
	{name: "tall-dense", minM: 8, maxM: 30, minN: 2, maxN: 8, density: 1, freeCols: true, seed: 21},
	{name: "square-sparse-integer", minM: 5, maxM: 15, minN: 5, maxN: 15, density: 0.3, integer: true, equalities: 0.15, freeCols: true, seed: 22},
	{name: "medium-tall", minM: 60, maxM: 120, minN: 10, maxN: 30, density: 0.7, freeCols: true, seed: 23},
}

// maxWarmPivots is how many pivots a re-solve from an optimal basis may
// take: none are needed, but a backend may do a pivot or two to settle
// degenerate ties within its own tolerances.
const maxWarmPivots = 2

func TestWarmStartFromOptimalBasis(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		for _, g := range warmFamilies {
			t.Run(g.name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(g.seed, 1))
				totalCold, maxWarm, nonzero := 0, 0, 0
				for k := 0; k < 60; k++ {
					lp := g.generate(r)
					cold := solve(t, b, lp.p, solver.Options{})
					if e := certify(lp.p, cold, defaultCert); e != "" {
						t.Fatalf("case %d: cold solve: %s", k, e)
					}
					totalCold += cold.Iterations
					warm := solve(t, b, lp.p, solver.Options{WarmStart: cold.Basis.Clone()})
					if e := certify(lp.p, warm, defaultCert); e != "" {
						t.Errorf("case %d: warm solve: %s", k, e)
						continue
					}
					if warm.Iterations > maxWarmPivots {
						t.Errorf("case %d: re-solve from its own optimal basis took %d pivots (cold %d)", k, warm.Iterations, cold.Iterations)
					}
					maxWarm = max(maxWarm, warm.Iterations)
					if warm.Iterations > 0 {
						nonzero++
					}
					if !relClose(warm.Objective, cold.Objective, 1e-9) {
						t.Errorf("case %d: warm objective %.15g, cold %.15g", k, warm.Objective, cold.Objective)
					}
				}
				if totalCold == 0 {
					t.Errorf("no cold solve needed a pivot: the family does not test warm starts")
				}
				t.Logf("cold solves took %d pivots in all; re-solves %d at most, %d of 60 needed any", totalCold, maxWarm, nonzero)
			})
		}
	})
}

func TestWarmStartFromOtherBackend(t *testing.T) {
	bs := backends(t)
	if len(bs) < 2 {
		t.Skipf("only %s is compiled in; build with -tags clp to cross-check backends", bs[0].Name())
	}
	for _, from := range bs {
		for _, to := range bs {
			if from.Name() == to.Name() {
				continue
			}
			t.Run(from.Name()+"→"+to.Name(), func(t *testing.T) {
				for _, g := range warmFamilies {
					r := rand.New(rand.NewPCG(g.seed, 2))
					for k := 0; k < 40; k++ {
						lp := g.generate(r)
						src := solve(t, from, lp.p, solver.Options{})
						if e := certify(lp.p, src, defaultCert); e != "" {
							t.Fatalf("%s case %d: %s: %s", g.name, k, from.Name(), e)
						}
						dst := solve(t, to, lp.p, solver.Options{WarmStart: src.Basis.Clone()})
						if e := certify(lp.p, dst, defaultCert); e != "" {
							t.Errorf("%s case %d: %s from %s's basis: %s", g.name, k, to.Name(), from.Name(), e)
							continue
						}
						if dst.Iterations > maxWarmPivots {
							t.Errorf("%s case %d: %s took %d pivots from %s's optimal basis", g.name, k, to.Name(), dst.Iterations, from.Name())
						}
						if !relClose(dst.Objective, src.Objective, 1e-9) {
							t.Errorf("%s case %d: objective %.15g from %s's basis, %s found %.15g", g.name, k, dst.Objective, from.Name(), from.Name(), src.Objective)
						}
					}
				}
			})
		}
	}
}

// TestWarmStartAfterCostChange re-solves with perturbed costs from the old
// optimal basis and compares with a cold solve of the perturbed problem.
// Only the costs of boxed and fixed columns change, which keeps the dual
// feasible (those reduced costs may have either sign), so both solves must
// find the same finite optimum.
func TestWarmStartAfterCostChange(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		for _, g := range warmFamilies {
			t.Run(g.name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(g.seed, 3))
				changed, saved := 0, 0
				for k := 0; k < 60; k++ {
					lp := g.generate(r)
					old := solve(t, b, lp.p, solver.Options{})
					if e := certify(lp.p, old, defaultCert); e != "" {
						t.Fatalf("case %d: %s", k, e)
					}
					q := *lp.p
					q.Obj = append([]float64(nil), lp.p.Obj...)
					for j := range q.Obj {
						if q.ColLower[j] > ninf && q.ColUpper[j] < inf {
							q.Obj[j] += 0.3 * (2*r.Float64() - 1)
						}
					}
					cold := solve(t, b, &q, solver.Options{})
					warm := solve(t, b, &q, solver.Options{WarmStart: old.Basis.Clone()})
					for _, s := range []struct {
						name string
						sol  *solver.Solution
					}{{"cold", cold}, {"warm", warm}} {
						if e := certify(&q, s.sol, defaultCert); e != "" {
							t.Errorf("case %d: %s: %s", k, s.name, e)
						}
					}
					if !relClose(warm.Objective, cold.Objective, 1e-9) {
						t.Errorf("case %d: warm objective %.15g, cold %.15g", k, warm.Objective, cold.Objective)
					}
					if cold.Iterations > 0 {
						changed++
						if warm.Iterations < cold.Iterations {
							saved++
						}
					}
				}
				if changed == 0 {
					t.Errorf("no perturbed problem needed a pivot")
				}
				t.Logf("warm start needed fewer pivots than cold in %d of %d cases", saved, changed)
			})
		}
	})
}

// TestWarmStartFromArbitraryBasis feeds random statuses (wrong counts of
// basic variables, bounds that do not exist, singular choices) and a basis
// of the wrong shape: the backend must still solve the problem.
func TestWarmStartFromArbitraryBasis(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		g := warmFamilies[1]
		r := rand.New(rand.NewPCG(g.seed, 4))
		for k := 0; k < 100; k++ {
			lp := g.generate(r)
			basis := &solver.Basis{Cols: make([]solver.VarStatus, lp.p.NumCols()), Rows: make([]solver.VarStatus, lp.p.NumRows)}
			for j := range basis.Cols {
				basis.Cols[j] = solver.VarStatus(r.IntN(4))
			}
			for i := range basis.Rows {
				basis.Rows[i] = solver.VarStatus(r.IntN(4))
			}
			if k%10 == 9 {
				basis.Rows = basis.Rows[1:]
			}
			cold := solve(t, b, lp.p, solver.Options{})
			warm := solve(t, b, lp.p, solver.Options{WarmStart: basis})
			if e := certify(lp.p, warm, defaultCert); e != "" {
				t.Errorf("case %d: %s", k, e)
				continue
			}
			if !relClose(warm.Objective, cold.Objective, 1e-9) {
				t.Errorf("case %d: objective %.15g from an arbitrary basis, %.15g cold", k, warm.Objective, cold.Objective)
			}
		}
	})
}
