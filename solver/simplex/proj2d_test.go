package simplex

import (
	"compress/gzip"
	"math"
	"os"
	"testing"

	"github.com/featmap/featmap/solver"
)

// readProj2D reads solver/testdata/proj2d/refine-832x242.json.gz: a continuous-
// refinement LP of the 2-D "Proj ⊗" design (multidim.Projection with
// PoolTensor, RBF σ = 0.3 on [0, π]², D = 31), 416 points (two rows each)
// and 242 cone columns (t, and per-frequency moves that are nearly
// parallel), the LP of its first row-generation round that took most
// pivots.
func readProj2D(t testing.TB) *solver.Problem {
	t.Helper()
	return readGzipLP(t, "../testdata/proj2d/refine-832x242.json.gz")
}

// readGzipLP reads a gzip-compressed JSON LP (WriteJSON's form) from path.
func readGzipLP(t testing.TB, path string) *solver.Problem {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	p, err := solver.ReadJSON(zr)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProj2DLP: an LP of many near-parallel columns (a 2-D Proj ⊗
// refinement LP; Dantzig's pricing takes 4209 pivots, 3.9·(m+n)) is solved
// to a certified optimum that, with CLP compiled in, agrees with CLP's.
func TestProj2DLP(t *testing.T) {
	p := readProj2D(t)
	sol, err := pureGo{}.Solve(p, solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Status != solver.Optimal {
		t.Fatalf("status %v (%s) after %d pivots", sol.Status, sol.Message, sol.Iterations)
	}
	if clp, err := solver.Get("clp"); err == nil {
		ref, err := clp.Solve(p, solver.Options{})
		if err != nil || ref.Status != solver.Optimal {
			t.Fatalf("clp: %v %v", ref, err)
		}
		if d := math.Abs(sol.Objective - ref.Objective); d > 1e-9*math.Abs(ref.Objective) {
			t.Errorf("objective %.12g, clp %.12g", sol.Objective, ref.Objective)
		}
	}
}

// TestProj2DLPDevex: Options.Devex (dual Devex after m + n pivots) reaches
// the same optimum as Dantzig's pricing on the 2-D Proj ⊗ refinement LP in
// fewer pivots (measured 1809 against 4209).
func TestProj2DLPDevex(t *testing.T) {
	t.Parallel() // pure Go only, no shared state
	p := readProj2D(t)
	dantzig, err := pureGo{}.Solve(p, solver.Options{})
	if err != nil || dantzig.Status != solver.Optimal {
		t.Fatalf("Dantzig: %v %v", dantzig, err)
	}
	devex, err := pureGo{}.Solve(p, solver.Options{Devex: true})
	if err != nil || devex.Status != solver.Optimal {
		t.Fatalf("Devex: %v %v", devex, err)
	}
	if d := math.Abs(devex.Objective - dantzig.Objective); d > 1e-9*math.Abs(dantzig.Objective) {
		t.Errorf("Devex objective %.12g, Dantzig %.12g", devex.Objective, dantzig.Objective)
	}
	if devex.Iterations >= dantzig.Iterations {
		t.Errorf("Devex took %d pivots, Dantzig %d", devex.Iterations, dantzig.Iterations)
	}
	t.Logf("pivots: Dantzig %d, Devex %d", dantzig.Iterations, devex.Iterations)
}

// BenchmarkProj2DLP solves the 2-D Proj ⊗ refinement LP cold with every
// registered backend, and with purego's Devex option (go test -bench
// Proj2DLP [-tags clp] ./solver/simplex).
func BenchmarkProj2DLP(b *testing.B) {
	p := readProj2D(b)
	run := func(name string, be solver.Backend, o solver.Options) {
		b.Run(name, func(b *testing.B) {
			pivots := 0
			for b.Loop() {
				sol, err := be.Solve(p, o)
				if err != nil || sol.Status != solver.Optimal {
					b.Fatalf("%v %v", sol, err)
				}
				pivots = sol.Iterations
			}
			b.ReportMetric(float64(pivots), "pivots")
		})
	}
	for _, name := range solver.Names() {
		be, _ := solver.Get(name)
		run(name, be, solver.Options{})
	}
	run("purego-devex", pureGo{}, solver.Options{Devex: true})
}
