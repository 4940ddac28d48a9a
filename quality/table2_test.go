package quality

import (
	"context"
	"fmt"
	"math"
	"sync"
	"testing"

	methods "github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/multidim"
)

// table2Designs holds TestTable2Claims' designs (Table 2's problem,
// σ = 0.3), by method name and D, each made once.
var table2Designs = struct {
	sync.Mutex
	m map[string]*table2Design
}{m: map[string]*table2Design{}}

type table2Design struct {
	once sync.Once
	res  *methods.Result
	v    fmap.Verification
	err  error
}

// table2Designed designs Table 2's problem (the 2-D RBF kernel, σ = 0.3
// on [0, π]², the uniform error) with the named method
// ("tensor-greedy", "modulation", "proj ⊗", "proj") at dim, once per test
// binary, and verifies it. It is safe to call from several goroutines;
// it calls no t.Fatal, so that a goroutine may call it.
func table2Designed(name string, dim int) (*methods.Result, fmap.Verification, error) {
	key := fmt.Sprintf("%s/%d", name, dim)
	table2Designs.Lock()
	d := table2Designs.m[key]
	if d == nil {
		d = &table2Design{}
		table2Designs.m[key] = d
	}
	table2Designs.Unlock()
	d.once.Do(func() {
		m := map[string]methods.Method{
			"tensor-greedy": &multidim.TensorGreedy{}, "modulation": &multidim.Modulation{},
			"proj ⊗": &multidim.Projection{Opts: multidim.ProjectionOptions{Pool: multidim.PoolTensor}}, "proj": &multidim.Projection{},
		}[name]
		p := &fmap.Problem{
			Kernel:  fmap.Kernel{Type: fmap.RBF, Sigma: []float64{0.3, 0.3}},
			Domain:  fmap.Domain{Lo: []float64{0, 0}, Hi: []float64{math.Pi, math.Pi}},
			Measure: fmap.Uniform, Norm: fmap.LInf,
		}
		// Made two at a time: no worker to spare for solving ahead (the
		// same maps, for less CPU).
		d.res, d.err = m.Design(context.Background(), p, dim, methods.Settings{NoAhead: true})
		if d.err != nil {
			d.err = fmt.Errorf("%s, D = %d: %w", name, dim, d.err)
			return
		}
		ref, err := p.Reference()
		if err != nil {
			d.err = err
			return
		}
		d.v = fmap.Verify(d.res.Map, ref)
	})
	return d.res, d.v, d.err
}

// mustTable2 is table2Designed for the test's goroutine: an error fails t.
func mustTable2(t *testing.T, name string, dim int) (*methods.Result, fmap.Verification) {
	t.Helper()
	res, v, err := table2Designed(name, dim)
	if err != nil {
		t.Fatal(err)
	}
	return res, v
}

// TestTable2Claims checks Chum §7.3 / Table 2's convention-free claims in its
// setting (2-D RBF, σ = 0.3, [0, π]², L∞ on a grid ten times denser per axis
// than Z): every LP method beats the greedy tensor map ("⊗ no LP"), errors
// fall by more than 10× from D = 31 to D = 101, and modulation ≈ Proj ⊗ ≤
// Proj (≈: within a factor 1.5). The paper's falls are 19× (⊗ no LP:
// 0.2370 → 0.0122) and 28× (modulation: 0.1061 → 0.0038); docs/results.md
// gives the falls measured. 10× is about half the paper's smaller figure because a 2-D
// design's error moves by up to 20 % a cell with the optimal vertex its
// LPs return (another solver, a build that fuses multiply-adds:
// docs/results.md, "Table 2"), so a ratio of two cells by up to 1.5×. It
// designs all four methods at D = 31 and the greedy map and modulation at
// D = 101; the full table (both σ, D = 31, 73, 101) is the committed
// report docs/reports/table2-rbf2d-sigma03 (and sigma02), and the
// ledger's table2 problems (-ledger all) hold every cell's error. A long
// test (-long): about a minute of designs; multidim's
// TestModulationBeatsGreedy holds the D = 31 claim of modulation in
// every run.
func TestTable2Claims(t *testing.T) {
	needLong(t)
	t.Parallel()
	// The six designs are independent: Proj ⊗ at D = 31, the longest by
	// far, starts at once in its own goroutine while the other five are
	// made one after another in another, so that two cores share them.
	names := []struct {
		name string
		dim  int
	}{{"proj ⊗", 31}, {"tensor-greedy", 31}, {"tensor-greedy", 101}, {"modulation", 31}, {"modulation", 101}, {"proj", 31}}
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); table2Designed(names[0].name, names[0].dim) }()
	go func() {
		defer wg.Done()
		for _, n := range names[1:] {
			table2Designed(n.name, n.dim)
		}
	}()
	wg.Wait()
	run := func(name string, dim int) float64 {
		res, v := mustTable2(t, name, dim)
		e := v.Reported.LInf
		t.Logf("D = %d %-14s L∞ %.4g (%d LPs)", dim, name, e, res.LPs)
		return e
	}
	greedy31, greedy101 := run("tensor-greedy", 31), run("tensor-greedy", 101)
	mod31, mod101 := run("modulation", 31), run("modulation", 101)
	projT31, proj31 := run("proj ⊗", 31), run("proj", 31)
	for name, e := range map[string]float64{"modulation": mod31, "proj ⊗": projT31, "proj": proj31} {
		if !(e < greedy31) {
			t.Errorf("D = 31: %s %.4g does not beat tensor-greedy %.4g", name, e, greedy31)
		}
	}
	if !(mod101 < greedy101) {
		t.Errorf("D = 101: modulation %.4g does not beat tensor-greedy %.4g", mod101, greedy101)
	}
	for name, pair := range map[string][2]float64{"modulation": {mod31, mod101}, "tensor-greedy": {greedy31, greedy101}} {
		if !(pair[1] <= pair[0]/10) {
			t.Errorf("%s: D = 101 (%.4g) is not 10× below D = 31 (%.4g)", name, pair[1], pair[0])
		}
	}
	if r := mod31 / projT31; r < 1/1.5 || r > 1.5 {
		t.Errorf("D = 31: modulation %.4g and proj ⊗ %.4g are not within a factor 1.5", mod31, projT31)
	}
	if !(mod31 <= proj31 && projT31 <= proj31) {
		t.Errorf("D = 31: modulation %.4g and proj ⊗ %.4g should not be worse than proj %.4g", mod31, projT31, proj31)
	}
}
