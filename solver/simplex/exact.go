package simplex

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/featmap/featmap/solver"
)

// The exact checks of the pure-Go backend: on a kernel of at most
// exactRayMax columns, a basis's ray, vertex and duals built in math/big,
// which decide the verdicts float64 cannot (docs/lp-design.md, "The
// pure-Go solver's verdicts on badly scaled LPs"): exactRay and
// exactRayProves for unbounded verdicts, exactBlock and exactRayHolds
// for faint rates and reduced costs, exactVertex and exactCheck for
// ill-conditioned kernels. Every float64 of the problem is a rational, so
// Gauss–Jordan elimination over the rationals on the kernel K = A[T, S]
// (exactKernelSolve) gives the basis's ray, vertex and duals without
// rounding, and a check built on them is exact about the problem the
// simplex solves (in its own units, which differ from the problem's by
// powers of two: exactProblem).

// exactRayMax is the largest kernel whose ray checkCertificate builds
// and checks exactly (exactRay, exactRayProves); beyond it the float64
// check rayProves decides. Unbounded verdicts come from small LPs (a
// design LP is bounded), where the rational solve costs little.
const exactRayMax = 32

// exactRay returns, exactly (math/big), the ray of the basis (S, T) of p
// along which nonbasic variable q moves in direction dir (±1): a column
// q has d_q = dir and the kernel rows keep their activity; a row q − n
// (in T) moves its activity by dir and the other kernel rows keep
// theirs; the basic columns follow, d_S = K⁻¹·rhs with K = A[T, S],
// solved by Gaussian elimination over the rationals. The other entries
// are 0. It reports false if K is singular.
func exactRay(p *solver.Problem, S, T []int, q int, dir float64) ([]big.Rat, bool) {
	n := p.NumCols()
	rhs := make([]big.Rat, len(T))
	if q < n {
		at := make(map[int]int, len(T))
		for t, i := range T {
			at[i] = t
		}
		for e := p.ColStart[q]; e < p.ColStart[q+1]; e++ {
			if t, ok := at[p.RowIndex[e]]; ok {
				rhs[t].SetFloat64(-dir * p.Value[e])
			}
		}
	} else {
		t := slices.Index(T, q-n)
		if t < 0 {
			return nil, false
		}
		rhs[t].SetFloat64(dir)
	}
	ds, ok := exactKernelSolve(p, S, T, rhs)
	if !ok {
		return nil, false
	}
	d := make([]big.Rat, n)
	for l, j := range S {
		d[j].Set(&ds[l])
	}
	if q < n {
		d[q].SetFloat64(dir)
	}
	return d, true
}

// exactKernelSolve solves K·z = rhs exactly, K = A[T, S] of p, by
// Gauss–Jordan elimination over the rationals; it reports false if K is
// singular (or not square).
func exactKernelSolve(p *solver.Problem, S, T []int, rhs []big.Rat) ([]big.Rat, bool) {
	return exactKernelSolveT(p, S, T, rhs, false)
}

// exactKernelSolveT is exactKernelSolve, or with transpose the solve of
// Kᵀ·z = rhs (z indexed like T, rhs like S).
func exactKernelSolveT(p *solver.Problem, S, T []int, rhs []big.Rat, transpose bool) ([]big.Rat, bool) {
	k := len(S)
	if len(T) != k || len(rhs) != k {
		return nil, false
	}
	posT := make(map[int]int, k)
	for t, i := range T {
		posT[i] = t
	}
	// K | rhs as k rows of k + 1 rationals.
	kk := make([][]big.Rat, k)
	for t := range kk {
		kk[t] = make([]big.Rat, k+1)
		kk[t][k].Set(&rhs[t])
	}
	for l, j := range S {
		for e := p.ColStart[j]; e < p.ColStart[j+1]; e++ {
			if t, ok := posT[p.RowIndex[e]]; ok {
				if transpose {
					kk[l][t].SetFloat64(p.Value[e])
				} else {
					kk[t][l].SetFloat64(p.Value[e])
				}
			}
		}
	}
	var a, f big.Rat
	for c := range k {
		r := c
		for r < k && kk[r][c].Sign() == 0 {
			r++
		}
		if r == k {
			return nil, false
		}
		kk[c], kk[r] = kk[r], kk[c]
		for r := range k {
			if r == c || kk[r][c].Sign() == 0 {
				continue
			}
			f.Quo(&kk[r][c], &kk[c][c])
			for e := c; e <= k; e++ {
				a.Mul(&f, &kk[c][e])
				kk[r][e].Sub(&kk[r][e], &a)
			}
		}
	}
	z := make([]big.Rat, k)
	for l := range z {
		z[l].Quo(&kk[l][k], &kk[l][l])
	}
	return z, true
}

// exactRayHolds reports whether the ray of nonbasic variable v moving in
// direction dir from s's basis, built exactly on s's problem (exactRay), proves
// it unbounded (exactRayProves, from s's x) with a cost rate beyond
// faintNoise of its terms: the verdict where a float64 rate or reduced
// cost is too faint to decide it (faintBlock, faintLook). A cost rate
// that is all cancellation would be unbounded only by the rounding of
// the data: the rescaled LPs (whose status is known before the rounding
// of their rescaled entries) had one of −3.3·10⁻¹⁹ against terms of 3.3·10⁻³,
// exactly unbounded, optimal before the rescaling; such a vertex is left
// to stand. It is false when the kernel exceeds exactRayMax columns.
func (s *simplex) exactRayHolds(v int, dir float64) bool {
	if s.k() > exactRayMax || s.exactProblem() == nil {
		return false
	}
	ray, ok := exactRay(s.exactProblem(), s.S, s.T, v, dir)
	if !ok {
		return false
	}
	if rate, terms := exactCostRate(s.exactProblem(), ray); !(-rate > faintNoise*terms) {
		return false
	}
	vertex, _ := exactVertex(s.exactProblem(), s.S, s.T, s.st)
	ok, _ = exactRayProves(s.exactProblem(), solver.Options{FeasibilityTol: s.tolP}, s.x[:s.n], ray, vertex)
	return ok
}

// exactBlock returns the basic variable that first blocks the ray of
// nonbasic variable v moving in direction dir from s's basis, by the
// rates of the ray built exactly on s's problem (exactRay), with the step to
// it and the bound status it reaches; b = −1 if none blocks. exact is
// false (and b −1) when the kernel exceeds exactRayMax columns or is
// singular.
func (s *simplex) exactBlock(v int, dir float64) (b int, theta float64, pst uint8, exact bool) {
	b = -1
	if s.k() > exactRayMax || s.exactProblem() == nil {
		return b, 0, 0, false
	}
	ray, ok := exactRay(s.exactProblem(), s.S, s.T, v, dir)
	if !ok {
		return b, 0, 0, false
	}
	rates := exactRayRates(s.exactProblem(), ray)
	theta = math.Inf(1)
	try := func(w int, r float64) {
		var dist float64
		var st uint8
		switch {
		case r > 0 && !math.IsInf(s.hi[w], 1):
			dist, st = s.hi[w]-s.x[w], stUpper
		case r < 0 && !math.IsInf(s.lo[w], -1):
			dist, st = s.x[w]-s.lo[w], stLower
		default:
			return
		}
		if t := math.Max(dist, 0) / math.Abs(r); t < theta {
			b, theta, pst = w, t, st
		}
	}
	for _, j := range s.S {
		try(j, ratFloat(&ray[j]))
	}
	for i := range s.m {
		if s.st[s.n+i] == stBasic {
			try(s.n+i, ratFloat(&rates[i]))
		}
	}
	return b, theta, pst, true
}

// exactRayRates returns the rows' rates A·d along an exact ray d.
func exactRayRates(p *solver.Problem, d []big.Rat) []big.Rat {
	var a big.Rat
	rates := make([]big.Rat, p.NumRows)
	for j := range p.NumCols() {
		if d[j].Sign() == 0 {
			continue
		}
		for e := p.ColStart[j]; e < p.ColStart[j+1]; e++ {
			a.SetFloat64(p.Value[e])
			a.Mul(&a, &d[j])
			rates[p.RowIndex[e]].Add(&rates[p.RowIndex[e]], &a)
		}
	}
	return rates
}

// illConditioned is the condition estimate ‖K‖∞·‖K⁻¹‖∞ beyond which
// exactCheck rebuilds an optimal basis's vertex and duals exactly: the
// float64 inverse then holds few digits, if any.
const illConditioned = 1e14

// exactCheck checks an optimal basis whose kernel, of at most exactRayMax
// columns, is ill-conditioned (illConditioned, from G and A[T, S]): its
// float64 vertex and duals may be noise (FuzzSolve 3cf2b3eb68ba0687: two
// identical kernel rows, duals of ±2.5·10¹⁵, "optimal" on an unbounded
// LP). The vertex and the duals are built exactly (exactVertex,
// exactKernelSolveT) and rounded into x and the reduced costs; the basis
// stands only if its kernel is nonsingular and no reduced cost has the
// improving sign exactly, and the caller then skips faintCheck (whose
// refinements rest on the inverse). It returns whether it judged the
// basis, and the verdict.
func (s *simplex) exactCheck() (judged bool, st solver.Status, msg string) {
	k := s.k()
	if k == 0 || k > exactRayMax || s.src == nil {
		return false, solver.Optimal, ""
	}
	kk, _ := s.kernelMatrix()
	kn, gn := 0.0, 0.0
	for t := range k {
		r := 0.0
		for l := range k {
			r += math.Abs(kk[t*k+l])
		}
		kn = math.Max(kn, r)
	}
	for l := range k {
		r := 0.0
		for _, g := range s.gRow(l)[:k] {
			r += math.Abs(g)
		}
		gn = math.Max(gn, r)
	}
	if kn*gn < illConditioned {
		return false, solver.Optimal, ""
	}
	p := s.exactProblem() // built only now, for an ill-conditioned kernel
	if p == nil {
		return false, solver.Optimal, ""
	}
	x, ok := exactVertex(p, s.S, s.T, s.st)
	cS := make([]big.Rat, k)
	for l, j := range s.S {
		cS[l].SetFloat64(s.cost[j])
	}
	var y []big.Rat
	if ok {
		y, ok = exactKernelSolveT(p, s.S, s.T, cS, true)
	}
	if !ok {
		return true, solver.NumericalFailure, fmt.Sprintf("the optimal basis's kernel (condition %.3g) is singular exactly", kn*gn)
	}
	for _, j := range s.S {
		s.x[j] = ratFloat(&x[j])
	}
	s.basicRowActivities()
	// Reduced costs d = c − Aᵀy exactly, y on T.
	yr := make([]big.Rat, s.m)
	for t, i := range s.T {
		yr[i].Set(&y[t])
		s.d[s.n+i] = ratFloat(&y[t])
	}
	var d, a big.Rat
	improving := -1
	for v := range s.n + s.m {
		if s.st[v] == stBasic || s.isFixed(v) {
			continue
		}
		if v < s.n {
			d.SetFloat64(s.cost[v])
			for e := p.ColStart[v]; e < p.ColStart[v+1]; e++ {
				if i := p.RowIndex[e]; yr[i].Sign() != 0 {
					a.SetFloat64(p.Value[e])
					a.Mul(&a, &yr[i])
					d.Sub(&d, &a)
				}
			}
			s.d[v] = ratFloat(&d)
		} else {
			d.Set(&yr[v-s.n])
		}
		if sg := d.Sign(); s.st[v] == stLower && sg < 0 || s.st[v] == stUpper && sg > 0 || s.st[v] == stZero && sg != 0 {
			improving = v
		}
	}
	if improving >= 0 {
		return true, solver.NumericalFailure, fmt.Sprintf("the optimal basis (kernel condition %.3g) is not optimal exactly: variable %d's reduced cost %.3g improves", kn*gn, improving, s.d[improving])
	}
	return true, solver.Optimal, ""
}

// ratFloat is r rounded to float64, except that a nonzero r too small for
// float64 becomes its smallest nonzero value of r's sign (a blocking step
// divided by it is then shorter than the exact one, never longer).
func ratFloat(r *big.Rat) float64 {
	f, _ := r.Float64()
	if f == 0 && r.Sign() != 0 {
		return math.Copysign(math.SmallestNonzeroFloat64, float64(r.Sign()))
	}
	return f
}

// exactCostRate returns cᵀd for an exact ray d, computed exactly and
// rounded by ratFloat (a negative rate stays negative), and its terms
// Σ|c_j·d_j|.
func exactCostRate(p *solver.Problem, d []big.Rat) (rate, terms float64) {
	var cr, a big.Rat
	for j, c := range p.Obj {
		if c != 0 && d[j].Sign() != 0 {
			a.SetFloat64(c)
			a.Mul(&a, &d[j])
			cr.Add(&cr, &a)
			terms += math.Abs(ratFloat(&a))
		}
	}
	return ratFloat(&cr), terms
}

// ratsOf sets r to x exactly and returns it.
func ratsOf(r []big.Rat, x []float64) []big.Rat {
	for j, v := range x {
		r[j].SetFloat64(v)
	}
	return r
}

// exactlyFeasible reports whether x meets every bound of p exactly, its
// row activities computed in math/big.
func exactlyFeasible(p *solver.Problem, x []big.Rat) bool {
	var a big.Rat
	for j := range x {
		if lo := p.ColLower[j]; !math.IsInf(lo, -1) && x[j].Cmp(a.SetFloat64(lo)) < 0 {
			return false
		}
		if hi := p.ColUpper[j]; !math.IsInf(hi, 1) && x[j].Cmp(a.SetFloat64(hi)) > 0 {
			return false
		}
	}
	act := exactRayRates(p, x)
	for i := range act {
		if lo := p.RowLower[i]; !math.IsInf(lo, -1) && act[i].Cmp(a.SetFloat64(lo)) < 0 {
			return false
		}
		if hi := p.RowUpper[i]; !math.IsInf(hi, 1) && act[i].Cmp(a.SetFloat64(hi)) > 0 {
			return false
		}
	}
	return true
}

// exactVertex returns, exactly (math/big), the basic solution of the basis
// (S, T) of p with the statuses st (the simplex's, len n + m): nonbasic
// columns at the bound their status names (0 if free), the kernel rows'
// activities at theirs, x_S = K⁻¹(b_T − A[T, N]·x_N). It reports false if K
// is singular or a status names an infinite bound.
func exactVertex(p *solver.Problem, S, T []int, st []uint8) ([]big.Rat, bool) {
	n := p.NumCols()
	bound := func(v int) (float64, bool) {
		lo, hi := 0.0, 0.0
		if v < n {
			lo, hi = p.ColLower[v], p.ColUpper[v]
		} else {
			lo, hi = p.RowLower[v-n], p.RowUpper[v-n]
		}
		var b float64
		switch st[v] {
		case stLower:
			b = lo
		case stUpper:
			b = hi
		}
		return b, !math.IsInf(b, 0)
	}
	x := make([]big.Rat, n)
	for j := range n {
		if st[j] == stBasic {
			continue
		}
		b, ok := bound(j)
		if !ok {
			return nil, false
		}
		x[j].SetFloat64(b)
	}
	rhs := make([]big.Rat, len(T))
	var a big.Rat
	act := exactRayRates(p, x) // A·x_N
	for t, i := range T {
		b, ok := bound(n + i)
		if !ok {
			return nil, false
		}
		rhs[t].Sub(a.SetFloat64(b), &act[i])
	}
	xs, ok := exactKernelSolve(p, S, T, rhs)
	if !ok {
		return nil, false
	}
	for l, j := range S {
		x[j].Set(&xs[l])
	}
	return x, true
}

// exactRayProves is rayProves for an exact ray d (exactRay): the cost
// rate cᵀd must be negative, and no column's or row's rate, computed
// exactly, may block it before the step at which the objective is below
// −2·10¹⁵·Σ|c_j|, from an origin x feasible within the tolerance. No
// allowance for rounding is needed: d is the basis's ray itself, not an
// approximation whose kernel rows' residuals (on a kernel of condition
// 10²¹, FuzzSolve 1274609a3b664f5f: residuals that the float64 check took
// for noise hid an exact cost rate of 0) could carry its cost rate.
//
// A block beyond that step leaves the LP unbounded for every purpose of
// float64 only if the ray starts from a point feasible exactly: x, or the
// basis's vertex built exactly (vertex, from exactVertex, may be nil),
// from which the blocks are then measured. From a point feasible only
// within the tolerance every block counts (FuzzSolve ffc1f62a60efde62: x₀
// = −1.4·10⁻⁴ met 10⁻⁹x₀ ≥ 0 within the tolerance and let x₂ rise to
// 10²¹ along a ray a row blocked there; the exact LP's optimum is 0).
func exactRayProves(p *solver.Problem, o solver.Options, x []float64, d, vertex []big.Rat) (bool, string) {
	n := p.NumCols()
	if len(d) != n || len(x) != n {
		return false, "no ray"
	}
	act, why := rayOrigin(p, o, x)
	if why != "" {
		return false, why
	}
	cabs, cx := 0.0, 0.0
	for j, c := range p.Obj {
		cabs += math.Abs(c)
		cx += c * x[j]
	}
	cr, _ := exactCostRate(p, d)
	if !(cr < 0) {
		return false, fmt.Sprintf("the exact ray's cost rate %.3g is not negative", cr)
	}
	reach := (cx + 2*farkasCap*cabs) / -cr
	switch xr := make([]big.Rat, n); {
	case vertex != nil && exactlyFeasible(p, vertex):
		x = make([]float64, n)
		for j := range x {
			x[j] = ratFloat(&vertex[j])
		}
		va := exactRayRates(p, vertex)
		for i := range act {
			act[i] = ratFloat(&va[i])
		}
	case exactlyFeasible(p, ratsOf(xr, x)):
	default:
		reach = math.Inf(1)
	}
	for j := range n {
		if d[j].Sign() == 0 {
			continue
		}
		if why := rayBlock("column", j, p.ColLower[j], p.ColUpper[j], x[j], ratFloat(&d[j]), reach); why != "" {
			return false, why
		}
	}
	rates := exactRayRates(p, d)
	for i := range rates {
		if why := rayBlock("row", i, p.RowLower[i], p.RowUpper[i], act[i], ratFloat(&rates[i]), reach); why != "" {
			return false, why
		}
	}
	return true, ""
}
