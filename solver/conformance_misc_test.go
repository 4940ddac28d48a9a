package solver_test

import (
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"

	"github.com/featmap/featmap/solver"
)

// TestIterationLimit: a solve stopped by MaxIterations says so, and is not
// reported optimal unless it had already reached the optimum.
func TestIterationLimit(t *testing.T) {
	g := genSpec{minM: 40, maxM: 60, minN: 15, maxN: 25, density: 0.8, seed: 41}
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		r := rand.New(rand.NewPCG(g.seed, 0))
		checked := 0
		for k := 0; k < 20; k++ {
			lp := g.generate(r)
			full := solve(t, b, lp.p, solver.Options{})
			if full.Status != solver.Optimal {
				t.Fatalf("case %d: %v", k, full.Status)
			}
			if full.Iterations < 3 {
				continue
			}
			checked++
			s := solve(t, b, lp.p, solver.Options{MaxIterations: 1})
			if s.Status != solver.IterationLimit {
				t.Errorf("case %d: status %v with MaxIterations 1 (a full solve takes %d pivots), want iteration limit",
					k, s.Status, full.Iterations)
			}
			// One pivot, plus one of a clean-up phase (CLP's primal pass).
			if s.Iterations > 2 {
				t.Errorf("case %d: %d pivots with MaxIterations 1", k, s.Iterations)
			}
		}
		if checked < 10 {
			t.Fatalf("only %d cases needed 3 or more pivots", checked)
		}
	})
}

// TestSolveLeavesProblemAlone: Solve must not modify its input.
func TestSolveLeavesProblemAlone(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		r := rand.New(rand.NewPCG(42, 0))
		for k := 0; k < 50; k++ {
			lp := randomFamilies[k%len(randomFamilies)].generate(r)
			before := cloneProblem(lp.p)
			sol := solve(t, b, lp.p, solver.Options{})
			warm := sol.Basis.Clone()
			solve(t, b, lp.p, solver.Options{WarmStart: warm})
			if !reflect.DeepEqual(before, lp.p) {
				t.Fatalf("case %d: Solve modified the problem", k)
			}
			if !reflect.DeepEqual(warm, sol.Basis) {
				t.Fatalf("case %d: Solve modified the warm-start basis", k)
			}
		}
	})
}

func cloneProblem(p *solver.Problem) *solver.Problem {
	c := func(v []float64) []float64 { return append([]float64(nil), v...) }
	return &solver.Problem{NumRows: p.NumRows, Obj: c(p.Obj), ColLower: c(p.ColLower), ColUpper: c(p.ColUpper),
		RowLower: c(p.RowLower), RowUpper: c(p.RowUpper), ColStart: append([]int(nil), p.ColStart...),
		RowIndex: append([]int(nil), p.RowIndex...), Value: c(p.Value)}
}

// TestInvalidProblems: a structurally broken problem is an error, not a
// panic or a status.
func TestInvalidProblems(t *testing.T) {
	good := func() *solver.Problem {
		return dense([]float64{1, 2}, [][]float64{{1, 1}}, []float64{1}, []float64{inf}, []float64{0, 0}, []float64{inf, inf})
	}
	bad := map[string]func(p *solver.Problem){
		"row index out of range": func(p *solver.Problem) { p.RowIndex[0] = 5 },
		"negative row index":     func(p *solver.Problem) { p.RowIndex[1] = -1 },
		"NaN entry":              func(p *solver.Problem) { p.Value[0] = nan() },
		"+Inf entry":             func(p *solver.Problem) { p.Value[1] = inf },
		"−Inf entry":             func(p *solver.Problem) { p.Value[0] = -inf },
		"infinite cost":          func(p *solver.Problem) { p.Obj[1] = inf },
		"crossed bounds":         func(p *solver.Problem) { p.ColLower[0], p.ColUpper[0] = 2, 1 },
		"short bounds":           func(p *solver.Problem) { p.RowUpper = nil },
		"lower bound +Inf":       func(p *solver.Problem) { p.RowLower[0] = inf },
		"ColStart too short":     func(p *solver.Problem) { p.ColStart = p.ColStart[:2] },
	}
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		for name, spoil := range bad {
			p := good()
			spoil(p)
			if sol, err := b.Solve(p, solver.Options{}); err == nil {
				t.Errorf("%s: no error (status %v)", name, sol.Status)
			}
		}
	})
}

func nan() float64 { z := 0.0; return z / z }

// TestConcurrentSolves runs different problems on one backend from several
// goroutines and compares with sequential solves (Backend implementations
// must be safe for concurrent use).
func TestConcurrentSolves(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		r := rand.New(rand.NewPCG(43, 0))
		var lps []randLP
		for k := 0; k < 24; k++ {
			lps = append(lps, randomFamilies[2+k%4].generate(r))
		}
		seq := make([]*solver.Solution, len(lps))
		for k, lp := range lps {
			seq[k] = solve(t, b, lp.p, solver.Options{})
		}
		par := make([]*solver.Solution, len(lps))
		errs := make([]error, len(lps))
		var wg sync.WaitGroup
		for k, lp := range lps {
			wg.Add(1)
			go func() {
				defer wg.Done()
				par[k], errs[k] = b.Solve(lp.p, solver.Options{})
			}()
		}
		wg.Wait()
		for k := range lps {
			if errs[k] != nil {
				t.Fatalf("case %d: %v", k, errs[k])
			}
			if par[k].Status != seq[k].Status || !reflect.DeepEqual(par[k].X, seq[k].X) {
				t.Errorf("case %d: concurrent solve (%v) differs from the sequential one (%v)", k, par[k].Status, seq[k].Status)
			}
		}
	})
}
