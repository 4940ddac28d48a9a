package solver_test

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/featmap/featmap/solver"
)

// Two families of badly scaled LPs, counted per backend as gave up
// (numerical failure or iteration limit), wrong and right.
//
// Rescaled: a well-scaled feasible, bounded LP on the 1/64 grid (so its
// exact optimum, from the referee, is the known answer) whose rows and
// columns are multiplied by 10^U(−4.5, 4.5). Row scaling R and column
// scaling C (x = C x') change neither the status nor the optimum.
//
// Spread: small LPs whose entries, costs and bounds have magnitudes
// 10^U(−9, 9), any status; the referee decides.
//
// The default sizes run in a few seconds; FEATMAP_LP_COUNTS=full runs the
// issue's 3 000 rescaled and 20 000 spread LPs.

// countSizes returns the number of rescaled and spread LPs to draw.
func countSizes() (rescaled, spread int) {
	if os.Getenv("FEATMAP_LP_COUNTS") == "full" {
		return 3000, 20000
	}
	return 300, 400
}

// rescaledLP draws a well-scaled LP and its rescaled copy.
func rescaledLP(r *rand.Rand) (orig, scaled *solver.Problem) {
	g := genSpec{minM: 1, maxM: refereeMax, minN: 1, maxN: refereeMax, density: 0.7, freeCols: true, equalities: 0.2, dyadic: true}
	lp := g.generate(r)
	p := lp.p
	m, n := p.NumRows, p.NumCols()
	pow := func() float64 { return math.Pow(10, 9*r.Float64()-4.5) }
	rs, cs := make([]float64, m), make([]float64, n)
	for i := range rs {
		rs[i] = pow()
	}
	for j := range cs {
		cs[j] = pow()
	}
	a := make([][]float64, m)
	for i := range a {
		a[i] = make([]float64, n)
		for j := range a[i] {
			a[i][j] = rs[i] * lp.a[i][j] * cs[j]
		}
	}
	c, cl, cu := make([]float64, n), make([]float64, n), make([]float64, n)
	for j := range c {
		c[j] = p.Obj[j] * cs[j]
		cl[j], cu[j] = p.ColLower[j]/cs[j], p.ColUpper[j]/cs[j]
	}
	rl, ru := make([]float64, m), make([]float64, m)
	for i := range rl {
		rl[i], ru[i] = p.RowLower[i]*rs[i], p.RowUpper[i]*rs[i]
	}
	return p, dense(c, a, rl, ru, cl, cu)
}

// spreadLP draws an LP of up to 6 rows and columns whose nonzero entries,
// costs and finite bounds have random signs and magnitudes 10^U(−9, 9).
func spreadLP(r *rand.Rand) *solver.Problem {
	m, n := 1+r.IntN(6), 1+r.IntN(6)
	mag := func() float64 {
		v := math.Pow(10, 18*r.Float64()-9)
		if r.IntN(2) == 0 {
			return -v
		}
		return v
	}
	bounds := func() (float64, float64) {
		switch r.IntN(5) {
		case 0:
			return ninf, inf
		case 1:
			return mag(), inf
		case 2:
			return ninf, mag()
		case 3:
			v := mag()
			return v, v
		}
		lo, hi := mag(), mag()
		return math.Min(lo, hi), math.Max(lo, hi)
	}
	a := make([][]float64, m)
	rl, ru := make([]float64, m), make([]float64, m)
	for i := range a {
		a[i] = make([]float64, n)
		for j := range a[i] {
			if r.Float64() < 0.7 {
				a[i][j] = mag()
			}
		}
		rl[i], ru[i] = bounds()
	}
	c, cl, cu := make([]float64, n), make([]float64, n), make([]float64, n)
	for j := range c {
		if r.IntN(4) != 0 {
			c[j] = mag()
		}
		cl[j], cu[j] = bounds()
	}
	return dense(c, a, rl, ru, cl, cu)
}

// verdict classifies a backend's answer on p against the exact one: "gave
// up", "wrong", "marginal" or "right". The objective must match to 1e-6
// relative to max(1, |optimum|). An answer that the tolerances make right
// is "marginal", not wrong: an objective within the rounding of
// Σ|c_j·x_j| of the exact optimum; an x that Finish measured feasible within
// tolerance although the exact LP is infeasible or has a higher optimum
// ("unbounded" for an infeasible LP, too, when the backend's x is feasible
// within tolerance);
// "optimal" for an exactly unbounded LP, or above the exact optimum, when
// the backend's duals certify optimality within tolerance (the improving
// direction's reduced cost is below it); another status for an exactly feasible LP whose exact optimal x (or,
// when unbounded, the vertex where the referee found the ray) has a
// coordinate beyond 10¹⁵.
func verdict(p *solver.Problem, sol *solver.Solution, want exactResult) string {
	switch sol.Status {
	case solver.NumericalFailure, solver.IterationLimit:
		return "gave up"
	}
	if sol.Status == want.status && want.status != solver.Optimal {
		return "right"
	}
	switch {
	case want.status == solver.Optimal && sol.Status == solver.Optimal:
		opt, _ := want.obj.Float64()
		switch {
		case math.Abs(sol.Objective-opt) <= 1e-6*math.Max(1, math.Abs(opt)):
			return "right"
		case sol.Objective < opt:
			return "marginal"
		case math.Abs(sol.Objective-opt) <= 8*0x1p-52*objectiveTerms(p, sol.X):
			// As close as a float64 x can come: FuzzSolve's LP whose
			// optimum 10⁻³ is the difference of terms of 10¹²
			// (x₀ = −10⁶ + 10⁻⁹ has an ulp of 1.2·10⁻¹⁰, 1.2·10⁻⁴ of
			// objective) gave 0.0010986.
			return "marginal"
		case certify(p, sol, certTol{primal: solver.DefaultFeasibilityTol, dual: 1e-9, gap: 1e-6}) == "":
			// Optimal within the dual tolerance: a reduced cost of 1e-9
			// times a distance of 10⁶ to the bound is a gap of 10⁻³.
			return "marginal"
		}
	case sol.Status == solver.Optimal && want.status == solver.Infeasible:
		return "marginal"
	case sol.Status == solver.Unbounded && want.status == solver.Infeasible:
		if v, _ := primalViolation(p, sol.X); v <= solver.DefaultFeasibilityTol {
			return "marginal" // its x is feasible within tolerance
		}
	case sol.Status == solver.Optimal && want.status == solver.Unbounded:
		if certify(p, sol, certTol{primal: solver.DefaultFeasibilityTol, dual: 1e-9, gap: 1e-6}) == "" {
			return "marginal"
		}
	case want.status != solver.Infeasible && maxAbs(want.x) > 1e15:
		return "marginal"
	case sol.Status == solver.Unbounded && want.status == solver.Optimal:
		// The converse of an optimum against an exact "unbounded"
		// (above): x lies far below the exact optimum and each row's
		// activity within 8 ulp of its terms of its bounds, so float64
		// cannot tell the LP from an unbounded one (FuzzSolve
		// 3b0a9c39743c561a: along the ray a row bounded on both sides
		// moves at −10⁻¹⁵ against terms of 7, a rounding of the data;
		// the exact optimum is 0).
		if opt, _ := want.obj.Float64(); sol.Objective < opt && withinRounding(p, sol.X) {
			return "marginal"
		}
	}
	return "wrong"
}

// withinRounding reports whether x is within p's column bounds and each
// row's activity within the primal tolerance plus 8 ulp of its terms
// Σ|a_ij·x_j| of the row's bounds: as feasible as float64 can tell.
func withinRounding(p *solver.Problem, x []float64) bool {
	v, _ := primalViolationBeyond(p, x, 8*0x1p-52)
	return v <= solver.DefaultFeasibilityTol
}

// objectiveTerms is Σ|c_j·x_j|, the scale of the objective's rounding.
func objectiveTerms(p *solver.Problem, x []float64) float64 {
	t := 0.0
	for j, c := range p.Obj {
		if j < len(x) {
			t += math.Abs(c * x[j])
		}
	}
	return t
}

// counts tallies verdicts.
type counts map[string]int

func TestRescaledLPCounts(t *testing.T) {
	nRescaled, _ := countSizes()
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		r := rand.New(rand.NewPCG(31, 0xfea7))
		got := counts{}
		for k := 0; k < nRescaled; k++ {
			orig, scaled := rescaledLP(r)
			want := exactSolve(orig)
			if want.status != solver.Optimal {
				t.Fatalf("case %d: referee calls the generated LP %v", k, want.status)
			}
			v := verdict(scaled, solve(t, b, scaled, solver.Options{}), want)
			if v == "marginal" {
				v = "wrong" // the answer is known: no tolerance excuses it
			}
			got[v]++
			if v == "wrong" && got[v] <= 3 {
				sol := solve(t, b, scaled, solver.Options{})
				f, _ := want.obj.Float64()
				t.Logf("case %d (%d×%d): %v objective %.10g, want %.10g", k, scaled.NumRows, scaled.NumCols(), sol.Status, sol.Objective, f)
			}
		}
		t.Logf("%s on %d rescaled LPs: gave up %d, wrong %d, right %d", b.Name(), nRescaled, got["gave up"], got["wrong"], got["right"])
		// The targets for the pure-Go backend (docs/lp-design.md, "The pure-Go
		// solver's verdicts on badly scaled LPs"; CLP's counts are
		// only logged: it is the reference, not under test here).
		if b.Name() == "purego" && (got["wrong"] > 0 || got["gave up"] > nRescaled/100) {
			t.Errorf("purego: %d wrong (want 0), %d gave up (want at most 1 %%)", got["wrong"], got["gave up"])
		}
	})
}

func TestSpreadLPCounts(t *testing.T) {
	_, nSpread := countSizes()
	r := rand.New(rand.NewPCG(32, 0xfea7))
	ps := make([]*solver.Problem, nSpread)
	want := make([]exactResult, nSpread)
	status := counts{}
	for k := range ps {
		ps[k] = spreadLP(r)
		want[k] = exactSolve(ps[k])
		status[want[k].status.String()]++
	}
	t.Logf("referee on %d spread LPs: %v", nSpread, map[string]int(status))
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		got := counts{}
		for k, p := range ps {
			sol := solve(t, b, p, solver.Options{})
			v := verdict(p, sol, want[k])
			got[v]++
			if v == "wrong" && got[v] <= 3 {
				f := 0.0
				if want[k].obj != nil {
					f, _ = want[k].obj.Float64()
				}
				t.Logf("case %d (%d×%d): %v objective %.10g, exact %v %.10g", k, p.NumRows, p.NumCols(), sol.Status, sol.Objective, want[k].status, f)
			}
		}
		t.Logf("%s on %d spread LPs: gave up %d, wrong %d, marginal %d, right %d", b.Name(), nSpread, got["gave up"], got["wrong"], got["marginal"], got["right"])
		// The target: purego is never wrong. It checks the
		// certificate of every "infeasible" and "unbounded" it reports
		// (purego_certify.go) and gives up when it fails: with
		// FEATMAP_LP_COUNTS=full it is wrong on 0 of 20 000 and gives up
		// on 959 (19 wrong and 892 gave up before the check; CLP wrong
		// 243, gave up 614).
		if b.Name() == "purego" && got["wrong"] > 0 {
			t.Errorf("purego: %d wrong of %d (want 0)", got["wrong"], nSpread)
		}
	})
}

// TestSpreadDoubtfulVerdicts solves the spread LPs of testdata/spread, on
// which purego once answered wrong (the file name says which status it
// claimed; case k of the full spread family): an "unbounded" whose ray a
// basic variable's rate of 10⁻¹⁰ towards its bound would block, an
// "infeasible" whose phase 1 stopped on an improving reduced cost within
// the tolerance, and the 19 it still got wrong before it checked its
// certificates (17 "infeasible", 2 "unbounded"). purego must now be right
// or give up (a numerical failure), never wrong by the exact referee.
func TestSpreadDoubtfulVerdicts(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "spread", "*.json"))
	if err != nil || len(files) < 4 {
		t.Fatalf("spread LPs: %d files, %v", len(files), err)
	}
	b, err := solver.Get("purego")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		p := readLP(t, f)
		want := exactSolve(p)
		sol := solve(t, b, p, solver.Options{})
		v := verdict(p, sol, want)
		t.Logf("%s: %v (%s), exact %v: %s", filepath.Base(f), sol.Status, sol.Message, want.status, v)
		if v == "wrong" {
			t.Errorf("%s: %v but the exact referee says %v", filepath.Base(f), sol.Status, want.status)
		}
	}
}

// TestRescaledRoundingRay solves case 2407 of the full rescaled family
// (FEATMAP_LP_COUNTS=full): the rounding of its rescaled entries leaves
// it exactly unbounded, along a ray of cost rate −3.3·10⁻¹⁹ against terms
// of 3.3·10⁻³, while the LP it was rescaled from has the optimum
// −6.2726. A ray whose cost rate is all cancellation is no reason to call
// a vertex unbounded (exactRayHolds): purego must give that optimum, as
// the family's counts require.
func TestRescaledRoundingRay(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 0xfea7))
	var orig, scaled *solver.Problem
	for range 2408 {
		orig, scaled = rescaledLP(r)
	}
	want := exactSolve(orig)
	b, err := solver.Get("purego")
	if err != nil {
		t.Fatal(err)
	}
	sol := solve(t, b, scaled, solver.Options{})
	if v := verdict(scaled, sol, want); v != "right" {
		f, _ := want.obj.Float64()
		t.Errorf("%v, objective %.10g (%s); want optimal %.10g", sol.Status, sol.Objective, sol.Message, f)
	}
}

// TestSpreadFaintSteps solves cases of the full spread family
// (FEATMAP_LP_COUNTS=full; testdata/steps, 3×4 and 3×5, entries 10⁻⁹ to
// 10⁷) on which the simplex stops at optima whose dual tolerance hides
// long improving steps, which the solve must take (takeStep) to reach the
// exact optimum. Case 1398 needs more than one (with maxFaintSteps 1 it
// gave up: the basis reached is not optimal exactly, a reduced cost of
// 1.9·10⁻¹² improves); case 588's step, of 2.2·10¹⁸ along a reduced cost
// of −1.04·10⁻¹¹, must pivot on the variable exactBlock finds blocking
// it (with the primal ratio test's choice instead it gave up).
func TestSpreadFaintSteps(t *testing.T) {
	b, err := solver.Get("purego")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"spread-588.json", "spread-1398.json"} {
		p := readLP(t, filepath.Join("testdata", "steps", name))
		want := exactSolve(p)
		sol := solve(t, b, p, solver.Options{})
		if v := verdict(p, sol, want); v != "right" {
			f, _ := want.obj.Float64()
			t.Errorf("%s: %v, objective %.10g (%s): %s; exact %v %.10g", name, sol.Status, sol.Objective, sol.Message, v, want.status, f)
		}
	}
}
