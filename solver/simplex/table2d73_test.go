package simplex

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/featmap/featmap/solver"
)

// table2D73LP is one of the LPs in solver/testdata/table2d73: per phase of Table
// 2's D = 73 designs (2-D RBF on [0, π]², σ = 0.3 and 0.2; projection,
// Proj ⊗, modulation), the LP of that phase that took purego most pivots
// among those of at most 250 000 nonzeros, with the options the design
// solved it with (its warm basis included): discrete-832x210 from σ = 0.2
// projection, refine-1222x122 from σ = 0.2 modulation, polish-930x219 and
// exchange-912x219 from σ = 0.3 Proj ⊗. TestTable2D73LPs in the
// featmap package recorded them (docs/lp-design.md, "Table 2's D = 73 LPs:
// purego against CLP").
type table2D73LP struct {
	name string
	p    *solver.Problem
	o    solver.Options
}

// table2D73Options is the JSON form of an LP's Options (NAME.options.json).
type table2D73Options struct {
	WarmStart      *solver.Basis `json:"warm_start"`
	MaxIterations  int           `json:"max_iterations"`
	Devex          bool          `json:"devex"`
	DevexFromStart bool          `json:"devex_from_start"`
	ShiftedStart   bool          `json:"shifted_start"`
}

// readTable2D73 reads every LP of solver/testdata/table2d73 with its options.
func readTable2D73(t testing.TB) []table2D73LP {
	t.Helper()
	files, err := filepath.Glob("../testdata/table2d73/*.json.gz")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no LPs in solver/testdata/table2d73")
	}
	var lps []table2D73LP
	for _, f := range files {
		base := strings.TrimSuffix(f, ".json.gz")
		data, err := os.ReadFile(base + ".options.json")
		if err != nil {
			t.Fatal(err)
		}
		var jo table2D73Options
		if err := json.Unmarshal(data, &jo); err != nil {
			t.Fatalf("%s: %v", base, err)
		}
		lps = append(lps, table2D73LP{
			name: filepath.Base(base),
			p:    readGzipLP(t, f),
			o:    solver.Options{WarmStart: jo.WarmStart, MaxIterations: jo.MaxIterations, Devex: jo.Devex, DevexFromStart: jo.DevexFromStart, ShiftedStart: jo.ShiftedStart},
		})
	}
	return lps
}

// TestTable2D73LPsAgree: purego, with the options the design passed, and
// CLP, from the same warm basis, solve each recorded Table 2 D = 73 LP to
// the same optimum (within 1e-9 relative).
func TestTable2D73LPsAgree(t *testing.T) {
	clp, err := solver.Get("clp")
	if err != nil {
		t.Skip("CLP not compiled in (-tags clp)")
	}
	for _, lp := range readTable2D73(t) {
		sol, err := pureGo{}.Solve(lp.p, lp.o)
		if err != nil || sol.Status != solver.Optimal {
			t.Errorf("%s: purego %v %v", lp.name, sol, err)
			continue
		}
		ref, err := clp.Solve(lp.p, lp.o)
		if err != nil || ref.Status != solver.Optimal {
			t.Errorf("%s: clp %v %v", lp.name, ref, err)
			continue
		}
		if d := math.Abs(sol.Objective - ref.Objective); d > 1e-9*math.Abs(ref.Objective) {
			t.Errorf("%s: objective purego %.15g, clp %.15g", lp.name, sol.Objective, ref.Objective)
		}
		t.Logf("%s: %.12g, pivots purego %d, clp %d", lp.name, sol.Objective, sol.Iterations, ref.Iterations)
	}
}

// BenchmarkTable2D73LP solves each recorded Table 2 D = 73 LP with every
// registered backend, with the options the design passed (go test -bench
// Table2D73LP [-tags clp] ./solver/simplex).
func BenchmarkTable2D73LP(b *testing.B) {
	for _, lp := range readTable2D73(b) {
		for _, name := range solver.Names() {
			be, _ := solver.Get(name)
			b.Run(lp.name+"/"+name, func(b *testing.B) {
				b.ReportAllocs()
				pivots := 0
				for b.Loop() {
					sol, err := be.Solve(lp.p, lp.o)
					if err != nil || sol.Status != solver.Optimal {
						b.Fatalf("%v %v", sol, err)
					}
					pivots = sol.Iterations
				}
				b.ReportMetric(float64(pivots), "pivots")
			})
		}
	}
}
