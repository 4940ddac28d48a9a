package solver_test

// The conformance suite: every test in the conformance_*_test.go files runs
// against every backend in solver.Names(), so `go test ./solver/...` checks
// purego and `go test -tags clp ./solver/...` checks purego and clp. Its
// verdicts never rely on the backend's own bookkeeping: feasibility,
// optimality and vertex-ness are certified from X, RowDual and ColDual by the
// independent checks in this file.

import (
	"fmt"
	"math"
	"testing"

	"github.com/featmap/featmap/solver"
	_ "github.com/featmap/featmap/solver/backends" // every backend compiled in
	"gonum.org/v1/gonum/mat"
)

// backends returns every registered backend and fails the test when there is
// none (a build of the package without a backend is broken).
func backends(t testing.TB) []solver.Backend {
	t.Helper()
	names := solver.Names()
	if len(names) == 0 {
		t.Fatal("no LP backend is registered: the package must register at least purego (and clp with -tags clp)")
	}
	var bs []solver.Backend
	for _, n := range names {
		b, err := solver.Get(n)
		if err != nil {
			t.Fatalf("solver.Get(%q) for a registered name: %v", n, err)
		}
		if b.Name() != n {
			t.Fatalf("backend registered as %q names itself %q", n, b.Name())
		}
		bs = append(bs, b)
	}
	return bs
}

// forEachBackend runs f as a subtest per backend.
func forEachBackend(t *testing.T, f func(t *testing.T, b solver.Backend)) {
	for _, b := range backends(t) {
		t.Run(b.Name(), func(t *testing.T) { f(t, b) })
	}
}

var (
	inf  = math.Inf(1)
	ninf = math.Inf(-1)
)

// dense builds a Problem from a dense row-major matrix.
func dense(c []float64, a [][]float64, rl, ru, cl, cu []float64) *solver.Problem {
	b := solver.NewBuilder(rl, ru)
	for j := range c {
		col := make([]float64, len(rl))
		for i := range rl {
			col[i] = a[i][j]
		}
		b.AddDenseColumn(c[j], cl[j], cu[j], col)
	}
	return b.Problem()
}

// denseOf returns A of p as a dense row-major matrix.
func denseOf(p *solver.Problem) [][]float64 {
	a := make([][]float64, p.NumRows)
	for i := range a {
		a[i] = make([]float64, p.NumCols())
	}
	for j := 0; j < p.NumCols(); j++ {
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			a[p.RowIndex[k]][j] += p.Value[k]
		}
	}
	return a
}

// activity computes A x in a different order from solver.Problem.Activity
// (row by row over a dense copy), together with Σ_j |a_ij x_j| for a
// rounding allowance.
func activity(p *solver.Problem, x []float64) (r, mag []float64) {
	a := denseOf(p)
	r = make([]float64, p.NumRows)
	mag = make([]float64, p.NumRows)
	for i := range a {
		for j, v := range a[i] {
			r[i] += v * x[j]
			mag[i] += math.Abs(v * x[j])
		}
	}
	return r, mag
}

// boundViolation returns by how much v lies outside [lo, hi] relative to
// max(1, |violated bound|), after forgiving a rounding allowance slack.
func boundViolation(lo, hi, v, slack float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return inf
	}
	switch {
	case v < lo-slack:
		return (lo - slack - v) / math.Max(1, math.Abs(lo))
	case v > hi+slack:
		return (v - hi - slack) / math.Max(1, math.Abs(hi))
	}
	return 0
}

// primalViolation is the largest relative bound violation of x for p,
// computed independently of the solver package, a row's activity allowed
// 10⁻¹³ of its terms Σ|a_ij·x_j|.
func primalViolation(p *solver.Problem, x []float64) (float64, string) {
	return primalViolationBeyond(p, x, 1e-13)
}

// primalViolationBeyond is primalViolation with a row's activity allowed
// rel of its terms.
func primalViolationBeyond(p *solver.Problem, x []float64, rel float64) (float64, string) {
	if len(x) != p.NumCols() {
		return inf, fmt.Sprintf("len(X) = %d, want %d", len(x), p.NumCols())
	}
	worst, where := 0.0, ""
	for j, v := range x {
		if e := boundViolation(p.ColLower[j], p.ColUpper[j], v, 0); e > worst {
			worst, where = e, fmt.Sprintf("column %d = %g outside [%g, %g]", j, v, p.ColLower[j], p.ColUpper[j])
		}
	}
	r, mag := activity(p, x)
	for i := range r {
		if e := boundViolation(p.RowLower[i], p.RowUpper[i], r[i], rel*mag[i]); e > worst {
			worst, where = e, fmt.Sprintf("row %d = %g outside [%g, %g]", i, r[i], p.RowLower[i], p.RowUpper[i])
		}
	}
	return worst, where
}

// certTol are the tolerances of certify.
type certTol struct {
	primal float64 // relative bound violation
	dual   float64 // dual sign violation, relative to the size of the costs
	gap    float64 // duality gap relative to max(1, |cᵀx|, Σ|terms|)
}

var defaultCert = certTol{primal: 1e-9, dual: 1e-7, gap: 1e-8}

// certify checks that sol is an optimal solution of p without trusting the
// backend: primal feasibility of X, ColDual ≈ c − Aᵀ·RowDual, the dual sign
// conditions at each column's and row's position, and strong duality. It
// returns "" or a description of the first failure.
func certify(p *solver.Problem, sol *solver.Solution, tol certTol) string {
	n, m := p.NumCols(), p.NumRows
	if sol.Status != solver.Optimal {
		return fmt.Sprintf("status %v (%s), want optimal", sol.Status, sol.Message)
	}
	if v, where := primalViolation(p, sol.X); v > tol.primal {
		return fmt.Sprintf("primal infeasible by %.3g: %s", v, where)
	}
	if len(sol.RowDual) != m || len(sol.ColDual) != n {
		return fmt.Sprintf("dual lengths %d/%d, want %d/%d", len(sol.RowDual), len(sol.ColDual), m, n)
	}
	a := denseOf(p)
	y := sol.RowDual
	// Scale of the dual quantities: costs and |A|ᵀ|y|.
	dscale := 1.0
	d := make([]float64, n)
	for j := 0; j < n; j++ {
		d[j] = p.Obj[j]
		s := math.Abs(p.Obj[j])
		for i := 0; i < m; i++ {
			d[j] -= a[i][j] * y[i]
			s += math.Abs(a[i][j] * y[i])
		}
		dscale = math.Max(dscale, s)
		if math.IsNaN(sol.ColDual[j]) || math.Abs(sol.ColDual[j]-d[j]) > tol.dual*math.Max(1, s) {
			return fmt.Sprintf("ColDual[%d] = %g but c − Aᵀy = %g", j, sol.ColDual[j], d[j])
		}
	}
	for i := range y {
		if math.IsNaN(y[i]) || math.IsInf(y[i], 0) {
			return fmt.Sprintf("RowDual[%d] = %g", i, y[i])
		}
	}
	r, mag := activity(p, sol.X)
	dtol := tol.dual * dscale
	// Sign conditions and the dual objective Σ y_i b_i + Σ d_j β_j, where b
	// and β are the bounds the multipliers price. A multiplier within dtol of
	// zero prices the current value.
	dualObj, terms, slackGap := 0.0, 0.0, 0.0
	price := func(kind string, idx int, mult, lo, hi, val float64) string {
		var bound float64
		switch {
		case mult > dtol:
			if math.IsInf(lo, -1) {
				return fmt.Sprintf("%s %d has multiplier %g > 0 but no lower bound", kind, idx, mult)
			}
			bound = lo
		case mult < -dtol:
			if math.IsInf(hi, 1) {
				return fmt.Sprintf("%s %d has multiplier %g < 0 but no upper bound", kind, idx, mult)
			}
			bound = hi
		default:
			// Zero within tolerance: treated as zero, it prices the
			// current value (its sign and the distance to a bound,
			// possibly huge, do not count).
			bound = val
		}
		dualObj += mult * bound
		terms += math.Abs(mult * bound)
		// x may violate each bound by tol.primal·max(1, |bound|), which
		// lets cᵀx fall below the optimum by as much times |mult|.
		slackGap += tol.primal * math.Abs(mult) * math.Max(1, math.Abs(bound))
		return ""
	}
	// Position: a multiplier may be away from zero only towards a bound the
	// value sits at (complementary slackness, also implied by a zero gap):
	// within 10⁻⁷ of it, or within the rounding of the row activity's terms
	// (terms: Σ|a_ij·x_j|; FuzzSolve 7a95cffd64ab6b19's tight row
	// −10⁶x₀ − 10⁶x₁ + 10⁻⁹x₂ ≤ 0 is −10⁻⁶ at x₀ = −x₁ = 10⁶, terms of
	// 2·10¹², whose rounding is 4·10⁻⁴).
	pos := func(kind string, idx int, mult, lo, hi, val, terms float64) string {
		near := func(b float64) bool {
			return math.Abs(val-b) <= max(1e-7*math.Max(1, math.Abs(b)), 8*0x1p-52*terms)
		}
		if mult > dtol && !near(lo) || mult < -dtol && !near(hi) {
			return fmt.Sprintf("%s %d = %g in [%g, %g] has multiplier %g", kind, idx, val, lo, hi, mult)
		}
		return ""
	}
	for i := 0; i < m; i++ {
		if s := pos("row", i, y[i], p.RowLower[i], p.RowUpper[i], r[i], mag[i]); s != "" {
			return s
		}
	}
	for j := 0; j < n; j++ {
		if s := pos("column", j, d[j], p.ColLower[j], p.ColUpper[j], sol.X[j], 0); s != "" {
			return s
		}
	}
	for i := 0; i < m; i++ {
		if s := price("row", i, y[i], p.RowLower[i], p.RowUpper[i], r[i]); s != "" {
			return s
		}
	}
	for j := 0; j < n; j++ {
		if s := price("column", j, d[j], p.ColLower[j], p.ColUpper[j], sol.X[j]); s != "" {
			return s
		}
	}
	primalObj := 0.0
	for j, c := range p.Obj {
		primalObj += c * sol.X[j]
		terms += math.Abs(c * sol.X[j])
	}
	if gap := math.Abs(primalObj - dualObj); gap > tol.gap*math.Max(1, terms)+slackGap {
		return fmt.Sprintf("duality gap %.3g: primal %.12g, dual %.12g (scale %.3g)", gap, primalObj, dualObj, terms)
	}
	if math.Abs(sol.Objective-primalObj) > 1e-12*math.Max(1, terms) {
		return fmt.Sprintf("Objective %.17g but cᵀx = %.17g", sol.Objective, primalObj)
	}
	return ""
}

// vertexDefect checks that x is a basic solution of p. At a basic solution
// the basis matrix [A_B  −I_S] (B the basic columns, S the basic rows) is
// nonsingular; every column strictly inside its bounds is in B and every row
// strictly inside its bounds is in S. Expanding the determinant along the
// identity columns shows that A_B restricted to the rows outside S has full
// column rank, and those rows are all tight, so the columns strictly inside
// their bounds, restricted to the rows that are tight (at a bound), must be
// linearly independent. This necessary condition is what is checked (with
// "strictly inside" meaning farther than tight from both bounds); it implies
// the simpler count #inside-columns + #inside-rows ≤ m.
func vertexDefect(p *solver.Problem, x []float64, tight float64) string {
	near := func(v, b float64) bool { return math.Abs(v-b) <= tight*math.Max(1, math.Abs(b)) }
	var inside []int
	for j, v := range x {
		if !near(v, p.ColLower[j]) && !near(v, p.ColUpper[j]) {
			inside = append(inside, j)
		}
	}
	if len(inside) == 0 {
		return ""
	}
	r, _ := activity(p, x)
	var tightRows []int
	for i, v := range r {
		if near(v, p.RowLower[i]) || near(v, p.RowUpper[i]) {
			tightRows = append(tightRows, i)
		}
	}
	if len(inside) > len(tightRows) {
		return fmt.Sprintf("%d columns strictly inside their bounds but only %d tight rows", len(inside), len(tightRows))
	}
	a := denseOf(p)
	sub := mat.NewDense(len(tightRows), len(inside), nil)
	for ii, i := range tightRows {
		for jj, j := range inside {
			sub.Set(ii, jj, a[i][j])
		}
	}
	var svd mat.SVD
	if !svd.Factorize(sub, mat.SVDNone) {
		return "SVD failed"
	}
	sv := svd.Values(nil)
	if sv[len(sv)-1] <= 1e-9*sv[0] {
		return fmt.Sprintf("columns %v strictly inside their bounds are dependent on the %d tight rows (σ_min/σ_max = %.3g)",
			inside, len(tightRows), sv[len(sv)-1]/sv[0])
	}
	return ""
}

// solve runs b on p and fails the test on an error.
func solve(t testing.TB, b solver.Backend, p *solver.Problem, o solver.Options) *solver.Solution {
	t.Helper()
	sol, err := b.Solve(p, o)
	if err != nil {
		t.Fatalf("%s: Solve: %v", b.Name(), err)
	}
	if sol == nil {
		t.Fatalf("%s: Solve returned a nil solution", b.Name())
	}
	return sol
}

// relClose reports |a − b| ≤ tol·max(1, |a|, |b|).
func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Max(math.Abs(a), math.Abs(b)))
}

// basisDefect checks the shape of sol.Basis and its consistency with X: as
// many basic variables as rows, and every nonbasic variable at the bound
// (or zero) its status names.
func basisDefect(p *solver.Problem, sol *solver.Solution) string {
	b := sol.Basis
	if b == nil {
		return "no basis returned"
	}
	if len(b.Cols) != p.NumCols() || len(b.Rows) != p.NumRows {
		return fmt.Sprintf("basis has %d/%d statuses, want %d/%d", len(b.Cols), len(b.Rows), p.NumCols(), p.NumRows)
	}
	basic := 0
	r, _ := activity(p, sol.X)
	check := func(kind string, idx int, s solver.VarStatus, lo, hi, v float64) string {
		var want float64
		switch s {
		case solver.Basic:
			basic++
			return ""
		case solver.AtLower:
			want = lo
		case solver.AtUpper:
			want = hi
		case solver.AtZero:
			want = 0
		default:
			return fmt.Sprintf("%s %d has status %d", kind, idx, s)
		}
		if math.Abs(v-want) > 1e-9*math.Max(1, math.Abs(want)) {
			return fmt.Sprintf("%s %d has status %d but value %g in [%g, %g]", kind, idx, s, v, lo, hi)
		}
		return ""
	}
	for j, s := range b.Cols {
		if e := check("column", j, s, p.ColLower[j], p.ColUpper[j], sol.X[j]); e != "" {
			return e
		}
	}
	for i, s := range b.Rows {
		if e := check("row", i, s, p.RowLower[i], p.RowUpper[i], r[i]); e != "" {
			return e
		}
	}
	if basic != p.NumRows {
		return fmt.Sprintf("%d basic variables, want %d (one per row)", basic, p.NumRows)
	}
	return ""
}
