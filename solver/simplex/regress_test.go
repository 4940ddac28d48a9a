package simplex

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"github.com/featmap/featmap/solver"
)

// TestWarmStartDegenerateRegression solves an n-D design LP (834×210, from
// featmap's 2-D projection design) from the basis of its γ-neighbour. The
// primal simplex once reported it unbounded (a Harris bound made negative
// by a variable just beyond its bound let the second pass find nothing),
// and then cycled on degenerate pivots (Bland's rule now breaks the run).
// It must reach the cold solve's optimum.
func TestWarmStartDegenerateRegression(t *testing.T) {
	t.Parallel() // pure Go only, no shared state
	p := readGzipLP(t, "../testdata/warmstart/degenerate.json.gz")
	b, err := os.ReadFile("../testdata/warmstart/degenerate.basis")
	if err != nil {
		t.Fatal(err)
	}
	var basis solver.Basis
	if err := json.Unmarshal(b, &basis); err != nil {
		t.Fatal(err)
	}
	cold, err := pureGo{}.Solve(p, solver.Options{})
	if err != nil || cold.Status != solver.Optimal {
		t.Fatalf("cold solve: %v %v", cold.Status, err)
	}
	warm, err := pureGo{}.Solve(p, solver.Options{WarmStart: &basis})
	if err != nil {
		t.Fatal(err)
	}
	if warm.Status != solver.Optimal || math.Abs(warm.Objective-cold.Objective) > 1e-9*cold.Objective {
		t.Errorf("warm start: %v, objective %.12g (cold %.12g) after %d pivots", warm.Status, warm.Objective, cold.Objective, warm.Iterations)
	}
}
