package solver

import (
	"compress/gzip"
	"math"
	"os"
	"testing"
)

// readProj2D reads testdata/proj2d/refine-832x242.json.gz: a continuous-
// refinement LP of the 2-D "Proj ⊗" design (multidim.Projection with
// PoolTensor, RBF σ = 0.3 on [0, π]², D = 31), 416 points (two rows each)
// and 242 cone columns (t, and per-frequency moves that are nearly
// parallel), the LP of its first row-generation round that took most
// pivots.
func readProj2D(t testing.TB) *Problem {
	t.Helper()
	return readGzipLP(t, "testdata/proj2d/refine-832x242.json.gz")
}

// readGzipLP reads a gzip-compressed JSON LP (WriteJSON's form) from path.
func readGzipLP(t testing.TB, path string) *Problem {
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
	p, err := ReadJSON(zr)
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
	sol, err := pureGo{}.Solve(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Status != Optimal {
		t.Fatalf("status %v (%s) after %d pivots", sol.Status, sol.Message, sol.Iterations)
	}
	if clp, err := Get("clp"); err == nil {
		ref, err := clp.Solve(p, Options{})
		if err != nil || ref.Status != Optimal {
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
	dantzig, err := pureGo{}.Solve(p, Options{})
	if err != nil || dantzig.Status != Optimal {
		t.Fatalf("Dantzig: %v %v", dantzig, err)
	}
	devex, err := pureGo{}.Solve(p, Options{Devex: true})
	if err != nil || devex.Status != Optimal {
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
// Proj2DLP [-tags clp] ./solver).
func BenchmarkProj2DLP(b *testing.B) {
	p := readProj2D(b)
	run := func(name string, be Backend, o Options) {
		b.Run(name, func(b *testing.B) {
			pivots := 0
			for b.Loop() {
				sol, err := be.Solve(p, o)
				if err != nil || sol.Status != Optimal {
					b.Fatalf("%v %v", sol, err)
				}
				pivots = sol.Iterations
			}
			b.ReportMetric(float64(pivots), "pivots")
		})
	}
	for _, name := range Names() {
		be, _ := Get(name)
		run(name, be, Options{})
	}
	run("purego-devex", pureGo{}, Options{Devex: true})
}
