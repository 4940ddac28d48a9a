package solver_test

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/featmap/featmap/solver"
)

// handCase is a small LP with a known answer, worked out by hand.
type handCase struct {
	name   string
	p      *solver.Problem
	status solver.Status
	obj    float64   // optimal objective (Optimal only)
	x      []float64 // the unique optimal x, or nil when it is not unique
}

func handCases() []handCase {
	var cs []handCase
	add := func(name string, st solver.Status, obj float64, x []float64, p *solver.Problem) {
		cs = append(cs, handCase{name: name, p: p, status: st, obj: obj, x: x})
	}
	opt := solver.Optimal

	// min x0 + 2x1, x0 + x1 ≥ 1, x0 − x1 ≤ 0.5, x ≥ 0: both rows tight.
	add("basic2x2", opt, 1.25, []float64{0.75, 0.25}, dense(
		[]float64{1, 2}, [][]float64{{1, 1}, {1, -1}},
		[]float64{1, ninf}, []float64{inf, 0.5}, []float64{0, 0}, []float64{inf, inf}))

	// min −2x0 − x1 at (1, 0): four rows and the bound x1 ≥ 0 are tight at
	// a vertex of a 2-D problem (degenerate). −2x0 − x1 = −(x0+x1) − x0 ≥ −2.
	add("degenerate vertex", opt, -2, []float64{1, 0}, dense(
		[]float64{-2, -1}, [][]float64{{1, 1}, {1, 0}, {1, -1}, {2, 1}},
		[]float64{ninf, ninf, ninf, ninf}, []float64{1, 1, 1, 2}, []float64{0, 0}, []float64{inf, inf}))

	// Beale's cycling example: optimum −1/20 at (1/25, 0, 1, 0).
	add("Beale cycling", opt, -0.05, []float64{0.04, 0, 1, 0}, dense(
		[]float64{-0.75, 150, -0.02, 6},
		[][]float64{{0.25, -60, -0.04, 9}, {0.5, -90, -0.02, 3}, {0, 0, 1, 0}},
		[]float64{ninf, ninf, ninf}, []float64{0, 0, 1}, []float64{0, 0, 0, 0}, []float64{inf, inf, inf, inf}))

	// Duplicated rows all tight at the optimum.
	add("duplicate rows", opt, 2, []float64{1, 1}, dense(
		[]float64{1, 1}, [][]float64{{1, 0}, {1, 0}, {0, 1}, {0, 2}, {1, 1}},
		[]float64{1, 1, 1, 2, 2}, []float64{inf, inf, inf, inf, inf}, []float64{0, 0}, []float64{inf, inf}))

	add("infeasible rows vs bounds", solver.Infeasible, 0, nil, dense(
		[]float64{1, 1}, [][]float64{{1, 1}},
		[]float64{3}, []float64{inf}, []float64{0, 0}, []float64{1, 1}))
	add("infeasible free columns", solver.Infeasible, 0, nil, dense(
		[]float64{0, 0}, [][]float64{{1, -1}, {-1, 1}},
		[]float64{1, 1}, []float64{inf, inf}, []float64{ninf, ninf}, []float64{inf, inf}))
	add("infeasible equalities", solver.Infeasible, 0, nil, dense(
		[]float64{1, 0, 0}, [][]float64{{1, 1, 0}, {0, 1, 1}, {1, 2, 1}},
		[]float64{1, 1, 3}, []float64{1, 1, 3}, []float64{ninf, ninf, ninf}, []float64{inf, inf, inf}))

	add("unbounded ray", solver.Unbounded, 0, nil, dense(
		[]float64{-1, 0}, [][]float64{{1, -1}},
		[]float64{ninf}, []float64{1}, []float64{0, 0}, []float64{inf, inf}))
	add("unbounded free column", solver.Unbounded, 0, nil, dense(
		[]float64{1, 0}, [][]float64{{1, 1}},
		[]float64{ninf}, []float64{5}, []float64{ninf, 0}, []float64{inf, inf}))

	// Two free columns: x0 + 2x1 ≥ 4, 3x0 + x1 ≥ 7 meet at (2, 1); duals 2/5, 1/5.
	add("free columns", opt, 3, []float64{2, 1}, dense(
		[]float64{1, 1}, [][]float64{{1, 2}, {3, 1}},
		[]float64{4, 7}, []float64{inf, inf}, []float64{ninf, ninf}, []float64{inf, inf}))
	// A free column with zero cost, pinned by an equality row.
	add("free column in equality", opt, 3, []float64{3, -1}, dense(
		[]float64{1, 0}, [][]float64{{1, 0}, {1, 3}},
		[]float64{3, 0}, []float64{inf, 0}, []float64{0, ninf}, []float64{inf, inf}))

	// Fixed columns (lower = upper), one with negative cost at a negative value.
	add("fixed columns", opt, 2+3-2*(-1.5), []float64{2, 3, -1.5}, dense(
		[]float64{1, 1, -2}, [][]float64{{1, 1, 0}, {0, 1, 1}},
		[]float64{5, ninf}, []float64{inf, 10}, []float64{2, 0, -1.5}, []float64{2, inf, -1.5}))

	// x0 = x1 forced, x0 + x1 + x2 = 1: obj = 3 − 3x0, x0 ≤ 1/2.
	add("equality rows", opt, 1.5, []float64{0.5, 0.5, 0}, dense(
		[]float64{1, 2, 3}, [][]float64{{1, 1, 1}, {1, -1, 0}},
		[]float64{1, 0}, []float64{1, 0}, []float64{0, 0, 0}, []float64{inf, inf, inf}))

	// u = x0+x1 ∈ [1,2], v = x0−x1 ∈ [−1,1]: 1.1x0 − 0.9x1 = 0.1u + v, both at lower ends.
	add("ranged rows at lower ends", opt, -0.9, []float64{0, 1}, dense(
		[]float64{1.1, -0.9}, [][]float64{{1, 1}, {1, -1}},
		[]float64{1, -1}, []float64{2, 1}, []float64{0, 0}, []float64{inf, inf}))
	// −2x0 − x1 = −1.5u − 0.5v: both at upper ends.
	add("ranged rows at upper ends", opt, -3.5, []float64{1.5, 0.5}, dense(
		[]float64{-2, -1}, [][]float64{{1, 1}, {1, -1}},
		[]float64{1, -1}, []float64{2, 1}, []float64{0, 0}, []float64{inf, inf}))

	// A row with no entries and bounds containing 0 is harmless ...
	add("empty row feasible", opt, 1.25, []float64{0.75, 0.25}, dense(
		[]float64{1, 2}, [][]float64{{1, 1}, {0, 0}, {1, -1}},
		[]float64{1, -1, ninf}, []float64{inf, 1, 0.5}, []float64{0, 0}, []float64{inf, inf}))
	add("empty row equal zero", opt, 1.25, []float64{0.75, 0.25}, dense(
		[]float64{1, 2}, [][]float64{{1, 1}, {0, 0}, {1, -1}},
		[]float64{1, 0, ninf}, []float64{inf, 0, 0.5}, []float64{0, 0}, []float64{inf, inf}))
	// ... and one whose bounds exclude 0 is infeasible.
	add("empty row infeasible", solver.Infeasible, 0, nil, dense(
		[]float64{1, 2}, [][]float64{{1, 1}, {0, 0}},
		[]float64{1, 1}, []float64{inf, 2}, []float64{0, 0}, []float64{inf, inf}))

	// Columns with no entries sit at the bound their cost prefers.
	add("empty columns", opt, 1+2*1-3*4+(-1)*(-2), []float64{1, 1, 4, -2}, dense(
		[]float64{1, 2, -3, -1}, [][]float64{{1, 0, 0, 0}},
		[]float64{1}, []float64{inf}, []float64{0, 1, -5, -7}, []float64{inf, inf, 4, -2}))
	// A zero-cost empty column may sit anywhere in its bounds (x not unique).
	add("empty zero-cost columns", opt, 1, nil, dense(
		[]float64{1, 0, 0, 0}, [][]float64{{1, 0, 0, 0}},
		[]float64{1}, []float64{inf}, []float64{0, -3, ninf, ninf}, []float64{inf, 2, inf, 6}))
	add("empty column unbounded below", solver.Unbounded, 0, nil, dense(
		[]float64{1, 1}, [][]float64{{1, 0}},
		[]float64{1}, []float64{inf}, []float64{0, ninf}, []float64{inf, 3}))
	add("empty column unbounded above", solver.Unbounded, 0, nil, dense(
		[]float64{1, -1}, [][]float64{{1, 0}},
		[]float64{1}, []float64{inf}, []float64{0, 0}, []float64{inf, inf}))

	// Rows and columns but no nonzero entry (CLP's "empty problem" path).
	add("all-zero matrix", opt, -2*3+1*(-1), []float64{3, -1}, dense(
		[]float64{-2, 1}, [][]float64{{0, 0}, {0, 0}},
		[]float64{-1, 0}, []float64{1, inf}, []float64{0, -1}, []float64{3, 2}))
	add("all-zero matrix infeasible", solver.Infeasible, 0, nil, dense(
		[]float64{-2, 1}, [][]float64{{0, 0}, {0, 0}},
		[]float64{-1, 0.5}, []float64{1, inf}, []float64{0, -1}, []float64{3, 2}))

	// n = 0: feasible iff every row's bounds contain 0.
	add("no columns", opt, 0, []float64{}, dense(nil, [][]float64{{}, {}},
		[]float64{-1, 0}, []float64{1, inf}, nil, nil))
	add("no columns infeasible", solver.Infeasible, 0, nil, dense(nil, [][]float64{{}, {}},
		[]float64{-1, 1}, []float64{1, inf}, nil, nil))
	// m = 0: every column at its preferred bound.
	add("no rows", opt, -3+2*(-1), []float64{3, -1, 0}, dense(
		[]float64{-1, 2, 0}, nil, nil, nil, []float64{-1, -1, 0}, []float64{3, 5, 0}))
	add("no rows unbounded", solver.Unbounded, 0, nil, dense(
		[]float64{-1, 2}, nil, nil, nil, []float64{-1, -1}, []float64{inf, 5}))
	add("empty problem", opt, 0, []float64{}, dense(nil, nil, nil, nil, nil, nil))

	// min x0 + 2x1 with x0 ∈ [−5, 3], x1 ≥ −2 and x0 + x1 ≥ −4: (−2, −2).
	add("negative lower bounds", opt, -6, []float64{-2, -2}, dense(
		[]float64{1, 2}, [][]float64{{1, 1}},
		[]float64{-4}, []float64{inf}, []float64{-5, -2}, []float64{3, inf}))
	// Upper bounds only: min −x0 − x1 with x0 ≤ 3, x1 ≤ 4.
	add("upper bounds only at bounds", opt, -7, []float64{3, 4}, dense(
		[]float64{-1, -1}, [][]float64{{1, 1}},
		[]float64{-100}, []float64{inf}, []float64{ninf, ninf}, []float64{3, 4}))
	// min 2x0 + x1, x ≤ 0, x0 + x1 ≥ −3, x0 − x1 ≥ −1: (−2, −1), duals 3/2, 1/2.
	add("upper bounds only at rows", opt, -5, []float64{-2, -1}, dense(
		[]float64{2, 1}, [][]float64{{1, 1}, {1, -1}},
		[]float64{-3, -1}, []float64{inf, inf}, []float64{ninf, ninf}, []float64{0, 0}))
	return cs
}

func TestHandMadeLPs(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		for _, c := range handCases() {
			t.Run(c.name, func(t *testing.T) {
				if err := c.p.Validate(); err != nil {
					t.Fatalf("bad test problem: %v", err)
				}
				sol := solve(t, b, c.p, solver.Options{})
				if sol.Status != c.status {
					t.Fatalf("status %v (%s), want %v", sol.Status, sol.Message, c.status)
				}
				if c.status != solver.Optimal {
					return
				}
				if e := certify(c.p, sol, defaultCert); e != "" {
					t.Errorf("not certified optimal: %s", e)
				}
				if !relClose(sol.Objective, c.obj, 1e-9) {
					t.Errorf("objective %.15g, want %.15g", sol.Objective, c.obj)
				}
				if c.x != nil {
					for j := range c.x {
						if math.Abs(sol.X[j]-c.x[j]) > 1e-9*math.Max(1, math.Abs(c.x[j])) {
							t.Errorf("x = %v, want %v", sol.X, c.x)
							break
						}
					}
				}
				if e := basisDefect(c.p, sol); e != "" {
					t.Errorf("basis: %s", e)
				}
				if e := vertexDefect(c.p, sol.X, 1e-9); e != "" && c.x != nil {
					t.Errorf("not a vertex: %s", e)
				}
			})
		}
	})
}

// TestRegressionLPs solves the LPs in testdata/regress (problems that once
// exposed a backend bug). A file named *.infeasible.json or
// *.unbounded.json must get that status; any other must give a certified
// optimal vertex.
func TestRegressionLPs(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "regress", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no regression LPs found: %v", err)
	}
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		for _, f := range files {
			t.Run(filepath.Base(f), func(t *testing.T) {
				p := readLP(t, f)
				sol := solve(t, b, p, solver.Options{})
				for _, want := range []solver.Status{solver.Infeasible, solver.Unbounded} {
					if strings.HasSuffix(f, "."+want.String()+".json") {
						if sol.Status != want {
							t.Fatalf("status %v (%s), want %v", sol.Status, sol.Message, want)
						}
						return
					}
				}
				if e := certify(p, sol, defaultCert); e != "" {
					t.Fatalf("not certified optimal: %s", e)
				}
				if e := basisDefect(p, sol); e != "" {
					t.Errorf("basis: %s", e)
				}
				if e := vertexDefect(p, sol.X, 1e-9); e != "" {
					t.Errorf("not a vertex: %s", e)
				}
			})
		}
	})
}

func readLP(t testing.TB, path string) *solver.Problem {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := solver.ReadJSON(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return p
}
