package chum

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/solver"
)

// Tests of the pipeline's later stages and helpers: truncation, the
// exchange, warm row generation, the selection helpers, the start points
// and the γ search's scan.

// TestStageTruncate proves that truncation keeps the largest weights that
// fit in the target dimension, greedily: a term that does not fit is
// skipped and smaller ones that do fit are still taken (Chum §2.1 keeps the
// largest weights). Weights 0.4, 0.3, 0.2 on ω ≠ 0 (D = 2 each) and 0.1 on
// ω = 0 (D = 1): D ≤ 5 keeps 0.4, 0.3 and, skipping 0.2, 0.1; D ≤ 4 keeps
// 0.4 and 0.3; D ≤ 1 keeps only the constant; zero weights are never kept.
func TestStageTruncate(t *testing.T) {
	f := stageFit(fmap.LInf, 1, 4, func(float64) float64 { return 1 })
	omega := [][]float64{{0}, {0.5}, {1.0}, {1.5}, {2.0}}
	alpha := []float64{0.1, 0.4, 0.3, 0.2, 0}
	for _, tc := range []struct {
		dim   int
		omega []float64
		alpha []float64
	}{
		{9, []float64{0.5, 1.0, 1.5, 0}, []float64{0.4, 0.3, 0.2, 0.1}},
		{5, []float64{0.5, 1.0, 0}, []float64{0.4, 0.3, 0.1}},
		{4, []float64{0.5, 1.0}, []float64{0.4, 0.3}},
		{1, []float64{0}, []float64{0.1}},
		{0, nil, nil},
	} {
		om, al := truncate(f, omega, alpha, tc.dim)
		var got []float64
		for _, o := range om {
			got = append(got, o[0])
		}
		if !slices.Equal(got, tc.omega) || !slices.Equal(al, tc.alpha) {
			t.Errorf("D ≤ %d: kept ω = %v, α = %v; want %v, %v", tc.dim, got, al, tc.omega, tc.alpha)
		}
	}
}

// TestStageExchange proves the Remez-style exchange against an exact set:
// a constant fitted to k = 1 + λ on the working set Z = {0.3, 0.5} is 1.4
// (error 0.1 there), but on the exact set {0, 0.1, …, 1} its error is 0.6;
// the exchange adds the violating points, re-polishes, and ends at the
// exact set's L∞ optimum, the midrange 1.5 with error 0.5.
func TestStageExchange(t *testing.T) {
	sig := func(l []float64) float64 { return 1 + l[0] }
	exact := points(grid(1, 10))
	ones := func(n int) []float64 {
		w := make([]float64, n)
		for i := range w {
			w[i] = 1
		}
		return w
	}
	p := &FitProblem{
		Form:      fmap.FourierForm,
		Signature: sig,
		Norm:      fmap.LInf,
		Z:         [][]float64{{0.3}, {0.5}}, ZWeight: ones(2),
		Exact: exact, ExactWeight: ones(len(exact)),
	}
	work := newFitSet(fmap.FourierForm, fmap.LInf, p.Z, p.ZWeight, sig)
	c := &fitter{ctx: context.Background(), p: p, dim: 1, lp: &lpSolver{ctx: context.Background(), fit: work, sv: solver.Default()}, progress: func(string) {}}
	c.score = newFitSet(fmap.FourierForm, fmap.LInf, p.Exact, p.ExactWeight, sig)
	start := &candidate{omega: [][]float64{{0}}, alpha: []float64{1.4}}
	// 1e-12: the start is the working set's exact midrange.
	if e := work.objective(start.omega, start.alpha); math.Abs(e-0.1) > 1e-12 {
		t.Fatalf("the start's working-set error is %g, want 0.1", e)
	}
	got, _, err := c.exchange(start, c.progress)
	if err != nil {
		t.Fatal(err)
	}
	// 1e-9: the solver's tolerances in the polish LPs.
	if len(got.alpha) != 1 || got.omega[0][0] != 0 || math.Abs(got.alpha[0]-1.5) > 1e-9 || math.Abs(got.score-0.5) > 1e-9 {
		t.Errorf("exchange ended at ω = %v, α = %v, score %.12g; want the constant 1.5 with error 0.5", got.omega, got.alpha, got.score)
	}
}

// TestStageWarmRowGeneration: an L∞ LP solved by row generation from the
// largest errors, warm from the carried basis of a neighbouring LP (the
// polish's next step: the same columns, moved values), reaches the optimum
// of the whole LP solved at once, and leaves no point above it.
func TestStageWarmRowGeneration(t *testing.T) {
	f := stageFit(fmap.LInf, 3*math.Pi, 600, func(l float64) float64 { return math.Exp(-l * l / 2) })
	lp := &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}
	build := func(shift float64) *pairLP {
		p := newPairLP(lp.weightedSignature(), 1)
		for j := range 6 {
			om := 0.4*float64(j) + shift
			v := make([]float64, f.size())
			for i := range v {
				v[i] = math.Cos(om * f.point(i)[0])
			}
			p.add(0, 0, math.Inf(1), v)
		}
		return p
	}
	first := build(0)
	first.initial = largest(first.r, 2*len(first.cost)+polishStartMin)
	_, _, warm, err := lp.solvePairs(first, nil)
	if err != nil {
		t.Fatal(err)
	}
	next := build(0.03)
	next.initial = largest(next.r, 2*len(next.cost)+polishStartMin)
	x, tw, _, err := lp.solvePairs(next, warm.carry(next.initial))
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, f.size())
	for i := range all {
		all[i] = i
	}
	_, tf, _, err := lp.solveRows(next, all, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 1e-9: the solver's tolerances, relative to the error's size.
	if math.Abs(tw-tf) > 1e-9*math.Max(tf, 1) {
		t.Errorf("warm row generation ends at t = %.12g, the whole LP at %.12g", tw, tf)
	}
	worst := 0.0
	for i := range f.size() {
		e := next.r[i]
		for j, xj := range x {
			e -= next.v[j][i] * xj
		}
		worst = math.Max(worst, math.Abs(e))
	}
	if worst > tw*(1+1e-9)+1e-12 {
		t.Errorf("a point's error %.12g exceeds the LP's bound %.12g", worst, tw)
	}
}

// TestLargest: the k entries of largest magnitude, in index order.
func TestLargest(t *testing.T) {
	r := []float64{0.1, -5, 3, 0, -2, 4}
	if got, want := largest(r, 3), []int{1, 2, 5}; !slices.Equal(got, want) {
		t.Errorf("largest(%v, 3) = %v, want %v", r, got, want)
	}
	if got := largest(r, 10); len(got) != len(r) {
		t.Errorf("largest with k > len: %v", got)
	}
	// Ties go to the lower index, as a stable sort by magnitude keeps
	// them: on many ties the same points as that sort.
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		r := make([]float64, 1+rng.IntN(300))
		for i := range r {
			r[i] = float64(rng.IntN(7)-3) / 2 // many equal magnitudes, both signs
			if rng.IntN(50) == 0 {
				r[i] = math.NaN()
			}
		}
		k := rng.IntN(len(r) + 1)
		ref := make([]int, len(r))
		for i := range ref {
			ref[i] = i
		}
		slices.SortStableFunc(ref, func(a, b int) int { return cmp.Compare(math.Abs(r[b]), math.Abs(r[a])) })
		ref = ref[:k]
		slices.Sort(ref)
		if got := largest(r, k); !slices.Equal(got, ref) {
			t.Fatalf("trial %d: largest(%v, %d) = %v, want %v", trial, r, k, got, ref)
		}
	}
}

// TestKthLargest: the k-th largest of random values with many ties is the
// sorted values' (n − k)-th.
func TestKthLargest(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 500 {
		v := make([]float64, 1+rng.IntN(200))
		for i := range v {
			v[i] = float64(rng.IntN(1 + trial%20))
			if trial%3 == 0 {
				v[i] = rng.NormFloat64()
			}
		}
		k := 1 + rng.IntN(len(v))
		sorted := slices.Sorted(slices.Values(v))
		if got, want := kthLargest(slices.Clone(v), k), sorted[len(v)-k]; got != want {
			t.Fatalf("trial %d: kthLargest(%v, %d) = %v, want %v", trial, v, k, got, want)
		}
	}
}

// TestStartPoints: a refinement LP's row generation with RefineLarge starts
// from the reference output's 2·columns + 20 largest errors and the points
// its LP held tight; without a reference it has no start of its own.
func TestStartPoints(t *testing.T) {
	f := stageFit(fmap.LInf, math.Pi, 600, func(l float64) float64 { return math.Exp(-l * l / 0.18) })
	c := &fitter{lp: &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}}
	ref, err := c.lp.chum(stagePool(0.25, 20), 0, 10, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.startPoints(nil, 10); got != nil {
		t.Errorf("start without a reference: %v, want nil (the default)", got)
	}
	const cols = 10
	got := c.startPoints(ref, cols)
	in := map[int]bool{}
	for _, i := range got {
		if in[i] {
			t.Fatalf("point %d listed twice", i)
		}
		in[i] = true
	}
	r := make([]float64, f.size())
	f.residuals(r, ref.omega, ref.alpha)
	for _, i := range largest(r, 2*cols+polishStartMin) {
		if !in[i] {
			t.Errorf("largest-error point %d (|e| = %.3g) missing", i, math.Abs(r[i]))
		}
	}
	tight := 0
	for k, i := range ref.warm.rows {
		if ref.warm.basis.Rows[2*k] != solver.Basic || ref.warm.basis.Rows[2*k+1] != solver.Basic {
			tight++
			if !in[i] {
				t.Errorf("tight point %d missing", i)
			}
		}
	}
	if tight == 0 || len(got) >= f.size() {
		t.Errorf("%d tight points, %d start points of %d: the test proves nothing", tight, len(got), f.size())
	}
}

// TestRefineLargeSameOptimum: a refinement LP solved the RefineLarge way
// (row generation from a reference output's points, dual Devex pricing)
// reaches the optimum of the default way: the same error and weights.
func TestRefineLargeSameOptimum(t *testing.T) {
	f := stageFit(fmap.LInf, math.Pi, 600, func(l float64) float64 { return math.Exp(-l * l / 0.18) })
	plain := &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}
	large := &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default(), refineLarge: true}
	c := &fitter{lp: large}
	ref, err := plain.chum(stagePool(0.25, 20), 0, 10, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	pool := heaviestFrequencies(ref, 8)
	a, err := plain.chum(pool, 0.1, 10, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := large.chum(pool, 0.1, 10, nil, func(cols int) []int { return c.startPoints(ref, cols) })
	if err != nil {
		t.Fatal(err)
	}
	ea, eb := f.objective(a.omega, a.alpha), f.objective(b.omega, b.alpha)
	// 1e-8: the solver's 1e-9 tolerances on the weights.
	if math.Abs(ea-eb) > 1e-8 || math.Abs(sumOf(a.alpha)-sumOf(b.alpha)) > 1e-8 {
		t.Errorf("RefineLarge: error %.12g, Σα %.12g; default: error %.12g, Σα %.12g", eb, sumOf(b.alpha), ea, sumOf(a.alpha))
	}
}

// chum solves Chum's LP over a pool at the tradeoff γ in one call (see
// chumColumns and solveChum), as the γ search does at each γ.
func (s *lpSolver) chum(pool [][]float64, dmax, gamma float64, warm *pairWarm, initial func(cols int) []int) (*lpOutput, error) {
	return s.solveChum(s.chumColumns(pool, dmax), gamma, warm, initial)
}

// TestScoredIsScoreMap: the step of a candidate that exchange returns
// (scored) has the score scoreMap gives its map, bit for bit — taken from
// the exchange when the map's terms are the candidate's in its order,
// computed when the map sorts them (a spoilt score shows it is not taken)
// — for the L∞ (an exchange against the exact set) and L1 (none; the
// score moves from Z to the exact set) χ² designs on 8-bit data.
func TestScoredIsScoreMap(t *testing.T) {
	for _, norm := range []fmap.Norm{fmap.LInf, fmap.L1} {
		p := chi2U8(fmap.Absolute)
		p.Norm = norm
		fp, opt, err := (&Chum{}).fitProblem(p)
		if err != nil {
			t.Fatal(err)
		}
		c, err := newFitter(context.Background(), &fp, 5, opt, design.Settings{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		reused := 0
		for _, omega := range [][][]float64{{{0}, {0.6}, {1.4}}, {{0}, {1.4}, {0.6}}, {{0.3}, {0}, {2.2}}} {
			// A candidate as the polish leaves it: its objective on Z.
			alpha := []float64{0.5, 0.4, 0.1}
			cand := &candidate{omega, alpha, c.lp.fit.objective(omega, alpha)}
			cand, _, err = c.exchange(cand, func(string) {})
			if err != nil {
				t.Fatal(err)
			}
			sorted := slices.IsSortedFunc(cand.omega, slices.Compare)
			if sorted {
				reused++
			} else {
				// Out of the map's order the score must not be taken:
				// spoil it to see.
				cand.score *= 1 + 1e-12
			}
			st := c.scored(StepPolished, cand)
			if want := c.scoreMap(st.Map); math.Float64bits(st.score) != math.Float64bits(want) {
				t.Errorf("%s, ω %v: scored %v, scoreMap %v", norm, cand.omega, st.score, want)
			}
		}
		if reused == 0 || reused == 3 {
			t.Errorf("%s: %d of 3 candidates in the map's order: both cases wanted", norm, reused)
		}
	}
}

// failFirst is an LP backend whose first n solves end in a numerical
// failure; it counts every solve.
type failFirst struct {
	n, calls int
}

func (b *failFirst) Name() string { return "fail-first" }

func (b *failFirst) Solve(p *solver.Problem, o solver.Options) (*solver.Solution, error) {
	b.calls++
	if b.calls <= b.n {
		return &solver.Solution{Status: solver.NumericalFailure, Message: "failFirst"}, nil
	}
	return solver.Default().Solve(p, o)
}

// TestSearchGivesUpAfterFailedScan: the γ search's scan stops once its
// first scanFailures γ have all failed (the refinement LPs of 2-D Proj ⊗
// that failed at every γ to 10¹³), and goes on as before when a γ among
// them solves. On TestStageGammaSearch's problem (target 2, γ0 = 100, D
// ≥ 2 above γ = 2) an LP that always fails costs exactly scanFailures
// solves; one that fails the first scanFailures − 1 times still brackets
// γ = 2 from below.
func TestSearchGivesUpAfterFailedScan(t *testing.T) {
	f := stageFit(fmap.LInf, 2*math.Pi, 16, func(l float64) float64 { return 0.6 + 0.4*math.Cos(l) })
	pool := [][]float64{{0}, {1}}
	fitterOn := func(b solver.Backend) *fitter {
		return &fitter{dim: 2, lp: &lpSolver{ctx: context.Background(), fit: f, sv: b}, progress: func(string) {}}
	}
	always := &failFirst{n: math.MaxInt}
	if _, err := fitterOn(always).search(pool, 0, 0.1, 12, nil, nil); err == nil {
		t.Fatal("a search whose every LP fails returned no error")
	}
	if always.calls != scanFailures {
		t.Errorf("a search whose every LP fails made %d solves, want %d", always.calls, scanFailures)
	}
	some := &failFirst{n: scanFailures - 1}
	outs, err := fitterOn(some).search(pool, 0, 0.1, 12, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var above bool
	for _, o := range outs {
		above = above || o.dims >= 2
	}
	if !above || some.calls <= some.n+1 {
		t.Errorf("after %d failed γ the search made %d more solves and found D ≥ 2: %v", scanFailures-1, some.calls-some.n, above)
	}
}

// TestSearchAhead: a lone design's discrete γ search with RefineLarge,
// solving the γ it will likely take next beside the one it takes, takes
// the same γ in the same order with the same outputs and LP count as
// without, and takes from its solves ahead exactly the outputs its
// guesses foretold (the scan's next γ; in the bisection, the side of the
// target D was on at the γ before), each guess's γ bit for bit the one
// the search computes next.
func TestSearchAhead(t *testing.T) {
	f := stageFit(fmap.LInf, 2*math.Pi, 64, func(l float64) float64 { return math.Exp(-l * l / 2) })
	pool := stagePool(0.25, 40)
	const dim = 6
	run := func(ahead bool) ([]*lpOutput, *fitter) {
		ctx := context.Background()
		c := &fitter{ctx: ctx, dim: dim, lp: &lpSolver{ctx: ctx, fit: f, sv: solver.Default(), refineLarge: true}, progress: func(string) {}, ahead: ahead}
		outs, err := c.search(pool, 0, 100, 12, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return outs, c
	}
	want, alone := run(false)
	got, c := run(true)
	if len(got) != len(want) {
		t.Fatalf("%d outputs ahead, %d without", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		same := g.tradeoff == w.tradeoff && g.dims == w.dims && slices.Equal(g.alpha, w.alpha) && len(g.omega) == len(w.omega)
		for j := 0; same && j < len(w.omega); j++ {
			same = slices.Equal(g.omega[j], w.omega[j])
		}
		if !same {
			t.Errorf("output %d: γ = %g, D = %d ahead; γ = %g, D = %d without (or other weights)", i, g.tradeoff, g.dims, w.tradeoff, w.dims)
		}
	}
	if c.lp.n != alone.lp.n {
		t.Errorf("%d LPs ahead, %d without", c.lp.n, alone.lp.n)
	}
	// The guesses, made again from the outputs without solving ahead (the
	// scan goes down from γ0 = 100: D(100) ≥ dim here).
	if want[0].dims < dim {
		t.Fatalf("D(100) = %d: the scan would go up", want[0].dims)
	}
	hits, bisected := 0, 0
	lo, hi, below, scan := 0.0, 0.0, false, true
	for i, o := range want[:len(want)-1] {
		g, guess := o.tradeoff, 0.0
		if scan {
			guess = g / 10
			if o.dims >= dim {
				hi = g
			} else {
				lo, below, scan = g, true, false
			}
		} else {
			bisected++
			if below {
				guess = math.Sqrt(g * hi)
			} else {
				guess = math.Sqrt(lo * g)
			}
			if below = o.dims < dim; below {
				lo = g
			} else {
				hi = g
			}
		}
		if want[i+1].tradeoff == guess {
			hits++
		}
	}
	if c.aheadTaken != hits || bisected < 3 {
		t.Errorf("%d outputs came from solves ahead, the guesses foretold %d (%d bisection steps)", c.aheadTaken, hits, bisected)
	}
	t.Logf("%d γ, %d LPs, %d outputs from solves ahead", len(got), c.lp.n, c.aheadTaken)
	// Who solves ahead: a lone design with two workers, unless NoAhead.
	fp := &FitProblem{Form: fmap.FourierForm, Signature: func(l []float64) float64 { return math.Exp(-l[0] * l[0] / 2) },
		Norm: fmap.LInf, Z: [][]float64{{0}, {1}}, ZWeight: []float64{1, 1}, Pool: pool, NewMap: func([]fmap.Term) *fmap.Map { return nil }}
	for _, s := range []struct {
		set  design.Settings
		want bool
	}{{design.Settings{}, true}, {design.Settings{Workers: 1}, false}, {design.Settings{NoAhead: true}, false}} {
		c, err := newFitter(context.Background(), fp, 3, FitOptions{}, s.set, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.ahead != s.want {
			t.Errorf("%+v: ahead %v, want %v", s.set, c.ahead, s.want)
		}
	}
}
