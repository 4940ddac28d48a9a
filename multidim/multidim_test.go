package multidim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// rbfBox is the multiplicative RBF kernel of width sigma on [0, hi]ⁿ with
// the uniform error.
func rbfBox(n int, sigma, hi float64) *fmap.Problem {
	return &fmap.Problem{
		Kernel:  fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{sigma}, n)},
		Domain:  fmap.Domain{Lo: make([]float64, n), Hi: slices.Repeat([]float64{hi}, n)},
		Measure: fmap.Uniform, Norm: fmap.LInf,
	}
}

// table2Problem is Chum's Table 2 setting: σ on [0, π]².
func table2Problem(sigma float64) *fmap.Problem { return rbfBox(2, sigma, math.Pi) }

// designed designs p at dim with m and verifies the map against p's
// reference.
func designed(t testing.TB, m design.Method, p *fmap.Problem, dim int) (*design.Result, fmap.Verification) {
	t.Helper()
	res, err := m.Design(context.Background(), p, dim, design.Settings{})
	if err != nil {
		t.Fatalf("%s, D = %d: %v", m.Name(), dim, err)
	}
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	return res, fmap.Verify(res.Map, ref)
}

// table2Designs holds the Table 2 designs (σ = 0.3) made or being made in
// this test binary, by method name and D, so that the tests that need the
// same design make it once. Each design has its own once, so different
// designs can be made at the same time.
var table2Designs = struct {
	sync.Mutex
	m map[string]*table2Design
}{m: map[string]*table2Design{}}

type table2Design struct {
	once sync.Once
	res  *design.Result
	v    fmap.Verification
	err  error
}

// table2Designed designs Table 2's problem at σ = 0.3 with the named
// method ("tensor-greedy", "modulation", "proj ⊗", "proj") at dim, once
// per test binary, and verifies it. It is safe to call from several
// goroutines; it calls no t.Fatal, so that a goroutine may call it.
func table2Designed(name string, dim int) (*design.Result, fmap.Verification, error) {
	key := fmt.Sprintf("%s/%d", name, dim)
	table2Designs.Lock()
	d := table2Designs.m[key]
	if d == nil {
		d = &table2Design{}
		table2Designs.m[key] = d
	}
	table2Designs.Unlock()
	d.once.Do(func() {
		m := map[string]design.Method{
			"tensor-greedy": &TensorGreedy{}, "modulation": &Modulation{},
			"proj ⊗": &Projection{Opts: ProjectionOptions{Pool: PoolTensor}}, "proj": &Projection{},
		}[name]
		p := table2Problem(0.3)
		// Made beside the package's other tests: no worker to spare
		// for solving ahead (the same maps, for less CPU).
		d.res, d.err = m.Design(context.Background(), p, dim, design.Settings{NoAhead: true})
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
func mustTable2(t *testing.T, name string, dim int) (*design.Result, fmap.Verification) {
	t.Helper()
	res, v, err := table2Designed(name, dim)
	if err != nil {
		t.Fatal(err)
	}
	return res, v
}

// TestTensorGreedy: "⊗ no LP" keeps the products of the per-axis designs'
// terms with the largest weights α = Π α_i, exactly D dimensions, and its
// verified error is what its map measures.
func TestTensorGreedy(t *testing.T) {
	t.Parallel()
	p := table2Problem(0.3)
	// The map TestModulationBeatsGreedy and TestTable2Claims compare
	// against, made once (table2Designed).
	res, v := mustTable2(t, "tensor-greedy", 31)
	m := res.Map
	if m.Dim != 31 || m.Fourier() == nil || m.Fourier().Form != fmap.Modulation || m.InDim != 2 {
		t.Fatalf("map: D = %d, n = %d, stages %+v", m.Dim, m.InDim, m.Stages)
	}
	axes, _, err := axisDesigns(context.Background(), p, Grid{}.withDefaults(2, 31).AxisDim, 1, design.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	all := tensorTerms(axes)
	var weights []float64
	for _, tm := range all {
		weights = append(weights, tm.Weight)
	}
	slices.Sort(weights)
	slices.Reverse(weights)
	// Every kept term is a product of axis terms, and no dropped term that
	// would have fitted outweighs a kept one of the same dimension.
	minKept := math.Inf(1)
	for _, tm := range m.Fourier().Terms {
		found := false
		for _, a := range all {
			if slices.Equal(a.Freq, tm.Freq) && math.Abs(a.Weight-tm.Weight) <= 1e-15*a.Weight {
				found = true
			}
		}
		if !found {
			t.Errorf("term %v (α %g) is not a product of the axis designs", tm.Freq, tm.Weight)
		}
		minKept = math.Min(minKept, tm.Weight)
	}
	if weights[0] < minKept {
		t.Errorf("the largest product weight %g was dropped", weights[0])
	}
	if !strings.Contains(v.Reported.On, "801×401") {
		t.Errorf("verified on %q, want the 10× dense grid", v.Reported.On)
	}
}

// TestTensorGreedyEvenDimensions: the greedy tensor map makes an even D
// (the README's method table: any D). The constant term is the only one
// of an odd number of components: taken at its weight's turn it left
// every even D one short on [0, 1]² ("the product of 11-D axis designs reaches only D = 9 < 10:
// raise method.axis_dim", with 121 components to choose from). An even D
// keeps its weight in a term of a tiny frequency instead, as chum does:
// D = 10 has no ω = 0 term and fits as well as D = 9 (both L∞ 0.2853;
// dropping the constant instead gave 0.3655).
func TestTensorGreedyEvenDimensions(t *testing.T) {
	t.Parallel()
	p := rbfBox(2, 0.3, 1)
	var linf [2]float64
	for i, dim := range []int{9, 10} {
		res, v := designed(t, &TensorGreedy{}, p, dim)
		constant := slices.ContainsFunc(res.Map.Fourier().Terms, func(tm fmap.Term) bool { return !slices.ContainsFunc(tm.Freq, func(w float64) bool { return w != 0 }) })
		if res.Map.Dim != dim || constant != (dim%2 == 1) {
			t.Errorf("D = %d: a map of D = %d, constant term %v", dim, res.Map.Dim, constant)
		}
		linf[i] = v.Reported.LInf
	}
	if !(linf[1] <= linf[0]*(1+1e-5)) {
		t.Errorf("D = 10: L∞ %.6g, D = 9: %.6g", linf[1], linf[0])
	}
	t.Logf("L∞ %.6g at D = 9, %.6g at D = 10", linf[0], linf[1])
}

// TestModulationBeatsGreedy: on Table 2's setting (σ = 0.3 on [0, π]²,
// D = 31) the LP design by modulation beats the greedy tensor map by the
// paper's factor, and its map is verified on a grid ten times denser per
// axis than Z. Chum Table 2 prints, at D = 31, 0.1061 for ⊗ against 0.2370
// for ⊗ no LP: 2.23× (3.2× at D = 101; docs/results.md, "Table 2"); held
// within 10 %, the error ratio must be at least 2 (docs/results.md has the
// ratio measured). The paper's σ convention is not featmap's
// (docs/results.md, "Table 2"), so the ratio is the claim, not the
// errors. Table 2's other claims, at D = 31 and 101, are quality's
// TestTable2Claims (go test ./quality -run Table2Claims -long).
func TestModulationBeatsGreedy(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		// quality's TestTable2Claims (-long) asserts the same at D = 31
		// and 101; TestThreeDimensions keeps a small modulation design in
		// -short.
		t.Skip("designs modulation at D = 31 (seconds); skipped with -short")
	}
	_, gv := mustTable2(t, "tensor-greedy", 31)
	m, mv := mustTable2(t, "modulation", 31)
	eg, em := gv.Reported.LInf, mv.Reported.LInf
	if !(2*em <= eg) {
		t.Errorf("modulation %.4g does not beat tensor-greedy %.4g by the paper's 2.23× within 10 %% (%.2f×)", em, eg, eg/em)
	}
	if m.Map.Dim != 31 {
		t.Errorf("modulation map has D = %d", m.Map.Dim)
	}
	t.Logf("D = 31: tensor-greedy %.4g, modulation %.4g (%.1f×), %d LPs", eg, em, eg/em, m.LPs)
}

// TestThreeDimensions designs a small 3-D modulation map and checks its
// shape and verification.
func TestThreeDimensions(t *testing.T) {
	t.Parallel()
	p := rbfBox(3, 0.5, 2)
	m := &Modulation{Opts: ModulationOptions{Grid: Grid{ZPoints: 9, AxisDim: 5}, FitOptions: chum.FitOptions{Starts: 2}}}
	res, v := designed(t, m, p, 27)
	if res.Map.InDim != 3 || res.Map.Dim != 27 || !(v.Reported.LInf < 0.5) {
		t.Errorf("3-D map: n = %d, D = %d, errors %+v", res.Map.InDim, res.Map.Dim, v)
	}
	t.Logf("3-D, D = 27: L∞ %.4g on %s", v.Reported.LInf, v.Reported.On)
}

// TestProjectionEvenDimensions: a projection map makes an even D too
// (the README's method table: any D). Its LP candidates keep the constant
// term (one component) beside terms of two, so they all have an odd D, and with
// no 1-D ladders or continuation no polish start had the even D:
// "no step made a 6-dimensional map (its steps made D = [5 5 5])",
// plain Proj on Table 2's problem at D = 30 alike. Each even D must fit
// within 10 % of the odd D − 1 below it (measured: polar 0.2637 against
// 0.2727 at D = 6; tensor 0.2662 against 0.2727 at D = 6, 0.1022
// against 0.1066 at D = 10).
func TestProjectionEvenDimensions(t *testing.T) {
	t.Parallel()
	p := rbfBox(2, 0.5, 2)
	cases := []struct {
		pool string
		dim  int
	}{{PoolTensor, 6}, {PoolTensor, 10}, {PoolPolar, 6}}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, c := range cases {
		m := &Projection{Opts: ProjectionOptions{Pool: c.pool, Grid: Grid{ZPoints: 11, AxisDim: 5}}}
		res, v := designed(t, m, p, c.dim)
		_, below := designed(t, m, p, c.dim-1)
		if res.Map.Dim != c.dim || !(v.Reported.LInf <= 1.1*below.Reported.LInf) {
			t.Errorf("%s pool, D = %d: a map of D = %d, L∞ %.4g (D − 1: %.4g)", c.pool, c.dim, res.Map.Dim, v.Reported.LInf, below.Reported.LInf)
		}
		t.Logf("%s pool: D = %d L∞ %.4g, D = %d L∞ %.4g", c.pool, c.dim, v.Reported.LInf, c.dim-1, below.Reported.LInf)
	}
}

// TestOversizedLPIsAClearError: a pool and Z beyond the LP size limit is an
// error naming the options to change, not an hour-long run.
func TestOversizedLPIsAClearError(t *testing.T) {
	p := table2Problem(0.3)
	m := &Projection{Opts: ProjectionOptions{Grid: Grid{ZPoints: 201}, Angles: 360, Radii: 200}}
	_, err := m.Design(context.Background(), p, 31, design.Settings{})
	if err == nil || !strings.Contains(err.Error(), "method.z_points") || !strings.Contains(err.Error(), "method.angles") {
		t.Errorf("error %v, want one naming method.z_points and method.angles", err)
	}
}

// TestBadProblems are errors, not panics.
func TestBadProblems(t *testing.T) {
	box := func(sigma, lo, hi []float64) *fmap.Problem {
		return &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: sigma}, Domain: fmap.Domain{Lo: lo, Hi: hi}, Measure: fmap.Uniform, Norm: fmap.LInf}
	}
	for name, p := range map[string]*fmap.Problem{
		"1-D":         box([]float64{1}, []float64{0}, []float64{1}),
		"4-D":         box([]float64{1, 1, 1, 1}, []float64{0, 0, 0, 0}, []float64{1, 1, 1, 1}),
		"sigma 0":     box([]float64{1, 0}, []float64{0, 0}, []float64{1, 1}),
		"empty box":   box([]float64{1, 1}, []float64{0, 1}, []float64{1, 1}),
		"mismatched":  box([]float64{1, 1}, []float64{0}, []float64{1, 1}),
		"infinite hi": box([]float64{1, 1}, []float64{0, 0}, []float64{1, math.Inf(1)}),
	} {
		m := &Modulation{}
		err := m.Applies(p)
		if err == nil {
			_, err = m.Design(context.Background(), p, 5, design.Settings{})
		}
		if err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

// BenchmarkDesign2D73 designs Table 2's 2-D map of D = 73 by modulation
// (σ = 0.3) with the default solver.
func BenchmarkDesign2D73(b *testing.B) {
	for b.Loop() {
		designed(b, &Modulation{}, table2Problem(0.3), 73)
	}
}

// BenchmarkDesign3D73 designs the same kernel in 3-D ([0, π]³, σ = 0.3,
// D = 73, Z of 15³ points) for the 2-D → 3-D scaling.
func BenchmarkDesign3D73(b *testing.B) {
	for b.Loop() {
		designed(b, &Modulation{}, rbfBox(3, 0.3, math.Pi), 73)
	}
}

// TestDeadlineStopsADesign: a design of Table 2's largest LPs (Proj ⊗,
// D = 101, minutes of LPs) given a 300 ms deadline returns the deadline's
// error within a second of it: the designer checks its context before
// every LP and polish step, the pure-Go solver every 64 pivots.
func TestDeadlineStopsADesign(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	m := &Projection{Opts: ProjectionOptions{Pool: PoolTensor}}
	_, err := m.Design(ctx, table2Problem(0.3), 101, design.Settings{})
	if took := time.Since(start); !errors.Is(err, context.DeadlineExceeded) || took > 1300*time.Millisecond {
		t.Errorf("design with a 300 ms deadline: error %v after %v, want the deadline's error within 1.3 s", err, took)
	}
}

// TestProjectionPolarSize: CheckOptions refuses, before any design, a
// polar pool whose discrete LP would exceed MaxLPEntries, naming the
// option set (angles, else radii, else z_points), and a tensor pool's
// (axis_dim, else z_points, else pool), and accepts the 2-D defaults;
// polarSize counts polarPool's frequencies without making them.
func TestProjectionPolarSize(t *testing.T) {
	for _, c := range []struct{ n, angles, radii int }{{2, 24, 16}, {3, 24, 16}, {2, 2, 1}, {3, 7, 30}, {2, 360, 5}} {
		if got, want := polarSize(c.n, c.angles, c.radii), len(polarPool(c.n, c.angles, c.radii, 1)); got != want {
			t.Errorf("n = %d, %d angles, %d radii: polarSize %d, polarPool %d", c.n, c.angles, c.radii, got, want)
		}
	}
	for _, c := range []struct {
		n    int
		o    ProjectionOptions
		want string // the refused key, "" for accepted
	}{
		{2, ProjectionOptions{}, ""},
		// On 3 axes the defaults' LP (25 230 × 1 730) is beyond the bound.
		{3, ProjectionOptions{}, "z_points"},
		{3, ProjectionOptions{Angles: 12}, ""},
		{3, ProjectionOptions{Angles: 360, Radii: 500}, "angles"},
		{2, ProjectionOptions{Radii: 500, Grid: Grid{ZPoints: 201}}, "radii"},
		{3, ProjectionOptions{Grid: Grid{ZPoints: 61}}, "z_points"},
		{2, ProjectionOptions{Pool: PoolTensor}, ""},
		// Proj ⊗ on 3 axes: the defaults' LP (25 230 × 667) is beyond the
		// bound, before the per-axis designs.
		{3, ProjectionOptions{Pool: PoolTensor}, "pool"},
		{3, ProjectionOptions{Pool: PoolTensor, Grid: Grid{ZPoints: 61}}, "z_points"},
		{3, ProjectionOptions{Pool: PoolTensor, Grid: Grid{ZPoints: 5, AxisDim: 11}}, ""},
		{2, ProjectionOptions{Pool: PoolTensor, Grid: Grid{AxisDim: 201}}, "axis_dim"},
	} {
		m := &Projection{Opts: c.o}
		wantOptionError(t, fmt.Sprintf("n = %d, %+v", c.n, c.o), m.CheckOptions(rbfBox(c.n, 0.3, math.Pi)), c.want)
	}
}

// wantOptionError holds err, what CheckOptions said of the options what
// describes, to want: nil for "", else an OptionError on the key want.
func wantOptionError(t *testing.T, what string, err error, want string) {
	t.Helper()
	var oe *design.OptionError
	switch {
	case want == "" && err != nil:
		t.Errorf("%s: %v, want accepted", what, err)
	case want != "" && (!errors.As(err, &oe) || oe.Key != want):
		t.Errorf("%s: %v, want an OptionError on %s", what, err, want)
	case want != "":
		t.Logf("%s: %v", what, err)
	}
}

// TestTensorPoolSize: tensorPoolSize is the size of the pools modulation
// and Proj ⊗ build from real per-axis designs (three σ, so that each axis
// has its own; odd and even axis_dim), on 2 and 3 axes; -short designs
// only the smaller axis_dim.
func TestTensorPoolSize(t *testing.T) {
	p := rbfBox(3, 0.3, math.Pi)
	p.Kernel.Sigma = []float64{0.2, 0.3, 0.5}
	dims := []int{4, 5, 6, 11}
	if testing.Short() {
		dims = dims[:2]
	}
	for _, a := range dims {
		axes, _, err := axisDesigns(context.Background(), p, a, 0, design.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{2, 3} {
			terms := tensorTerms(axes[:n])
			if got, want := tensorPoolSize(n, a, false), len(terms); got != want {
				t.Errorf("axis_dim %d, %d axes: modulation's pool of %d, tensorPoolSize %d", a, n, want, got)
			}
			if got, want := tensorPoolSize(n, a, true), len(projectionsOf(terms)); got != want {
				t.Errorf("axis_dim %d, %d axes: Proj ⊗'s pool of %d, tensorPoolSize %d", a, n, want, got)
			}
		}
	}
}

// TestModulationLPSize: modulation's CheckOptions refuses, before any
// design, a pool whose discrete LP would exceed MaxLPEntries, naming the
// option set (axis_dim, else z_points), and accepts the defaults.
func TestModulationLPSize(t *testing.T) {
	for _, c := range []struct {
		n    int
		g    Grid
		want string // the refused key, "" for accepted
	}{
		{2, Grid{}, ""},
		{3, Grid{}, ""},
		// 3362 rows × 5777 columns.
		{2, Grid{AxisDim: 151}, "axis_dim"},
		{2, Grid{AxisDim: 117}, ""},
		{3, Grid{ZPoints: 201}, "z_points"},
		{3, Grid{ZPoints: 61, AxisDim: 3}, ""},
	} {
		m := &Modulation{Opts: ModulationOptions{Grid: c.g}}
		wantOptionError(t, fmt.Sprintf("n = %d, %+v", c.n, c.g), m.CheckOptions(rbfBox(c.n, 0.3, math.Pi)), c.want)
	}
}

// TestSmallDimensionsRefineNothing: at D = 2 and 3, Proj ⊗'s discrete γ
// search on Table 2's problem (σ = 0.3) and on an anisotropic one (σ =
// [0.5, 0.3] on [0, 2] × [1, 2.5]) finds D(γ) jumping from 1, the constant
// alone, to 3–7 dimensions, and no larger output truncated to D fits better,
// so its best output is the constant, which has no frequency for the
// continuous refinement to move (docs/lp-design.md, "A refinement with
// nothing to refine"). The design makes no refinement LP (there were 8
// refinements of the unmoved pool, each a γ search whose upper bracket took
// LPs of 117–121 dimensions and up to 5 300 × 242 rows and columns: 14 s of
// CPU at D = 2 on Table 2's problem; on the anisotropic one every γ from 10
// to 10¹³ failed, 119 s), so no γ is skipped, and the maps are no worse: at
// D = 2 L∞ 0.5 (0.5000003 before) and 0.5000983 (as before), within 10⁻⁴ of
// the constant's 0.5.
func TestSmallDimensionsRefineNothing(t *testing.T) {
	t.Parallel()
	aniso := &fmap.Problem{
		Kernel:  fmap.Kernel{Type: fmap.RBF, Sigma: []float64{0.5, 0.3}},
		Domain:  fmap.Domain{Lo: []float64{0, 1}, Hi: []float64{2, 2.5}},
		Measure: fmap.Uniform, Norm: fmap.LInf,
	}
	cases := []struct {
		name string
		p    *fmap.Problem
		dim  int
	}{{"Table 2", table2Problem(0.3), 2}, {"anisotropic", aniso, 2}, {"Table 2", table2Problem(0.3), 3}}
	if testing.Short() {
		cases = cases[:1]
	}
	for _, c := range cases {
		var mu sync.Mutex
		var msgs []string
		s := design.Settings{Progress: func(m string) { mu.Lock(); msgs = append(msgs, m); mu.Unlock() }}
		m := &Projection{Opts: ProjectionOptions{Pool: PoolTensor}}
		res, err := m.Design(context.Background(), c.p, c.dim, s)
		if err != nil {
			t.Fatalf("%s, D = %d: %v", c.name, c.dim, err)
		}
		ref, err := c.p.Reference()
		if err != nil {
			t.Fatal(err)
		}
		v := fmap.Verify(res.Map, ref)
		for _, msg := range msgs {
			if strings.Contains(msg, "continuous refinement") && strings.Contains(msg, " over ") || strings.Contains(msg, "skipped: design:") {
				t.Errorf("%s, D = %d: %q", c.name, c.dim, msg)
			}
		}
		if res.Map.Dim != c.dim || c.dim == 2 && v.Reported.LInf > 0.5+1e-4 {
			t.Errorf("%s, D = %d: a map of D = %d, L∞ %.7g", c.name, c.dim, res.Map.Dim, v.Reported.LInf)
		}
		t.Logf("%s, D = %d: L∞ %.7g, %d LPs", c.name, c.dim, v.Reported.LInf, res.LPs)
	}
}
