package simplex

import (
	"context"
	"errors"
	"fmt"
	"math"
	"sync"

	"github.com/featmap/featmap/solver"
	"github.com/featmap/featmap/solver/internal/vec"
)

// The pure-Go backend: a bounded dual and primal simplex whose basis is held
// through its kernel.
//
// Design. featmap's LPs have many more rows than columns (|Z| evaluation
// points against |Ω| frequencies) and a dense matrix. With a row activity
// r = Ax per row, a simplex basis of the bounded problem has m basic
// variables; most of them are row activities. If S is the set of basic
// columns and T the set of rows whose activity is nonbasic (at a bound), then
// |S| = |T| = k ≤ min(m, n) and the whole basis is represented by the k×k
// kernel K = A[T, S]: every FTRAN, BTRAN and pivot row needs only K⁻¹ and
// products with A. We keep G = K⁻¹ explicitly, update it in O(k²) per pivot
// (the kernel grows, shrinks, or has a row or column replaced), and
// refactorise it from scratch periodically. A pivot then costs O((m + n)·k)
// instead of the O(m²) of an m×m basis; on featmap's LPs k stays at a few
// dozen (the number of frequencies in use). This is the primal simplex on the
// dual that docs/lp-design.md measured (an n×n basis whose non-unit part is
// small), written as a dual simplex on the primal so that general bounds,
// free and fixed variables, ranged and equality rows all fit one framework.
//
// Scaling. A badly scaled LP (one geometric pass narrows max/min of |A| at
// least 16×) is solved scaled, with tolerances that stand for the unscaled
// ones, and unscaled after (purego_scale.go).
//
// Algorithm. From a dual feasible start (featmap's design LPs: nonnegative
// costs and variables, so the all-slack basis qualifies) the dual simplex
// runs with Dantzig pricing (dual Devex once a solve runs long, if
// Options.Devex asks for it: see devexAfter) and a two-pass Harris ratio
// test. Otherwise the
// primal simplex runs, with a composite phase 1 (minimising the sum of
// infeasibilities) when the start is not primal feasible. After either, the
// kernel is refactorised, x and the duals are recomputed from scratch and
// both feasibilities are re-checked; a residual infeasibility of either kind
// sends the solve to the appropriate simplex again. The returned x is a
// vertex: nonbasic variables sit at a bound (or at zero if free).
//
// Verdicts. "Infeasible" and "unbounded" are reported only with a
// certificate that passes a check on the unscaled problem with bounded
// rounding (phase 1's Farkas multipliers, the improving ray;
// purego_certify.go); otherwise the solve is retried unscaled, then from
// the slack basis, and ends in NumericalFailure if none proves its verdict.

func init() { solver.Register(pureGo{}) }

type pureGo struct{}

func (pureGo) Name() string { return "purego" }

// maxDenseEntries bounds m·n: the backend keeps two dense copies of A.
const maxDenseEntries = 1 << 25

func (pureGo) Solve(p *solver.Problem, o solver.Options) (*solver.Solution, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	o = o.WithDefaults(p)
	if m, n := p.NumRows, p.NumCols(); m > 0 && n > maxDenseEntries/m {
		return nil, fmt.Errorf("solver: purego keeps A dense; %d×%d exceeds its limit of %d entries", m, n, maxDenseEntries)
	}
	// Solve the scaled problem (purego_scale.go); if that ends in a
	// numerical failure (of the simplex, or of Finish's check of the
	// unscaled x), or in an optimum whose unscaled reduced costs violate
	// the optimality tolerance, solve the problem as given from the basis
	// it reached.
	warm, iters := o.WarmStart, 0
	if sc := computeScaling(p); sc != nil {
		if s := newScaledSimplex(p, sc, o); s != nil {
			sol, err := solveOnce(p, s, o, sc, o.WarmStart)
			if err != nil {
				return nil, err
			}
			if sol = solver.Finish(p, o, sol); sol.Status != solver.NumericalFailure && !(sol.Status == solver.Optimal && dualDefect(p, sol, o.OptimalityTol)) {
				return sol, nil
			}
			warm, iters = sol.Basis, sol.Iterations
		}
	}
	sol, err := solveOnce(p, newSimplex(p, o), o, nil, warm)
	if err != nil {
		return nil, err
	}
	sol.Iterations += iters
	if sol = solver.Finish(p, o, sol); sol.Status == solver.NumericalFailure && warm != nil {
		// A last try from the slack basis: the basis the failed solve
		// started from may be the trouble (issue 18's spread LPs).
		retry, err := solveOnce(p, newSimplex(p, o), o, nil, nil)
		if err != nil {
			return nil, err
		}
		retry.Iterations += sol.Iterations
		if retry = solver.Finish(p, o, retry); retry.Status != solver.NumericalFailure {
			return retry, nil
		}
	}
	return sol, nil
}

// solveOnce runs the simplex s — on p itself (newSimplex), or on p scaled
// by sc (newScaledSimplex) — from warm, and returns its solution in p's
// units before Finish: an optimum passes the post-optimal checks
// (faintCheck, refineVertex, refineDuals; a long improving step
// faintCheck finds is taken, takeStep, and the simplex goes on from
// there), an infeasible or unbounded verdict its certificate's check
// against p (checkCertificate), or it becomes a numerical failure. The
// simplex's buffers go back to the pool after the certificate has been
// read.
func solveOnce(p *solver.Problem, s *simplex, o solver.Options, sc *scaling, warm *solver.Basis) (*solver.Solution, error) {
	if sc != nil {
		sc.tolerances(s)
	}
	s.src, s.srcScale = p, sc
	defer s.release()
	status, msg := s.run(warm)
	// An optimum whose tolerance hid a long improving step (faintCheck)
	// takes that step and goes on (at most maxFaintSteps times); one on
	// an ill-conditioned small kernel is judged exactly (exactCheck).
	for steps := 0; status == solver.Optimal && s.stopped == nil; steps++ {
		if judged, st, m := s.exactCheck(); judged {
			status, msg = st, m
			break
		}
		var step faintStep
		status, msg, step = s.faintCheck()
		if status != solver.NumericalFailure || step.v < 0 || steps == maxFaintSteps || !s.takeStep(step) {
			break
		}
		status, msg = s.iterate()
	}
	if err := s.stopped; err != nil {
		return nil, err
	}
	if status == solver.Optimal {
		s.refineVertex()
		if !s.refineDuals() {
			status, msg = solver.NumericalFailure, "duals not optimal after refinement"
		}
	}
	sol := s.solution(status, msg)
	if sc != nil {
		sc.unscale(sol)
	}
	s.checkCertificate(p, o, sc, sol)
	return sol, nil
}

// Variable statuses inside the backend. Index v < n is column v; v ≥ n is the
// activity of row v−n.
const (
	stBasic uint8 = iota
	stLower       // at lower bound (also: fixed variables)
	stUpper       // at upper bound
	stZero        // free and nonbasic, at zero
)

// maxRepairs is the number of kernel repairs a solve may make before it
// restarts from the slack basis instead.
const maxRepairs = 4

const (
	pivotTol    = 1e-9  // smallest pivot magnitude accepted in a ratio test
	refactorGap = 100   // kernel updates between refactorisations
	singularTol = 1e-11 // relative pivot below which a kernel is singular
)

var errSingular = errors.New("singular kernel")

type simplex struct {
	m, n int
	a    []float64 // A, column-major: a[j*m+i]
	ar   []float64 // A, row-major: ar[i*n+j]
	cost []float64 // len n+m; row activities cost nothing
	// orig is the problem's cost vector; cost may hold a perturbed copy
	// while the dual simplex runs.
	orig   []float64
	lo, hi []float64 // len n+m
	// loT and hiT are the bounds relaxed by the primal tolerance (relative
	// to max(1, |bound|)): a value inside [loT, hiT] counts as feasible.
	loT, hiT []float64
	x        []float64 // values, len n+m
	d        []float64 // reduced costs, len n+m (0 for basic)
	st       []uint8   // len n+m

	// The kernel: S[l] is the column in basic position l, T[t] the row whose
	// activity is nonbasic in kernel position t; g[l*cap+t] = (K⁻¹)[l][t].
	S, T       []int
	posS, posT []int // position of a column in S / a row in T, or −1
	g          []float64
	cap        int
	updates    int

	tolP, tolD float64
	// tolDv is the dual tolerance of each variable (len n+m): tolD, or
	// on a scaled problem the tolerance that keeps the unscaled reduced
	// cost within tolD (purego_scale.go).
	tolDv []float64
	// unit is the magnitude below which a bound's primal tolerance is
	// absolute (tolP·max(unit, |bound|)): 1, or on a scaled problem the
	// factor that makes it the unscaled problem's tolerance.
	unit    []float64
	iter    int
	maxIter int
	// ctx stops the solve (Options.Context); stopped is its error once
	// the simplex has noticed.
	ctx     context.Context
	stopped error
	// degenerate counts consecutive degenerate primal pivots; bland is set
	// while Bland's anti-cycling rule is in force.
	degenerate int
	// repairs counts the kernel repairs of this solve (repairKernel);
	// shift is set after one, until the dual simplex has run on costs
	// shifted to make the repaired basis dual feasible.
	repairs int
	shift   bool
	bland   bool
	// shiftStart is Options.ShiftedStart; shiftRows is set while the dual
	// simplex of a shifted start runs, whose shift covers the row
	// activities' reduced costs too (their costs are then nonzero).
	shiftStart, shiftRows bool
	// devexNow is Options.DevexFromStart.
	devexNow bool

	// devex selects dual Devex pricing of the leaving row (noDevex forbids
	// it: Options.Devex is not set, or a singular kernel came after it);
	// dw holds its reference weights (len n+m, meaningful for basic
	// variables).
	devex, noDevex bool
	dw             []float64

	// farkas and ray are the certificates of the last Infeasible (phase
	// 1's multipliers) and Unbounded (the ray of entering variable
	// rayEnter) verdicts, in the simplex's own (possibly scaled) units
	// (purego_certify.go).
	farkas, ray []float64
	rayEnter    int
	// src is the problem s was made from and srcScale its scaling (nil if
	// s solves src as given), set by solveOnce; exactProblem builds from
	// them, when an exact check first needs it, prob: the problem s
	// solves, in s's own units.
	src, prob *solver.Problem
	srcScale  *scaling

	// scratch
	rho, alpha, u, v, w, z []float64
	// primalRatio's blocking variables: step, rate, status, variable.
	rs, rr []float64
	rst    []uint8
	rb     []int
}

// newSimplex returns a simplex on p, in buffers from simplexPool.
func newSimplex(p *solver.Problem, o solver.Options) *simplex {
	m, n := p.NumRows, p.NumCols()
	s := allocSimplex(p, o)
	for j := 0; j < n; j++ {
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			i := p.RowIndex[k]
			s.a[j*m+i] += p.Value[k]
			s.ar[i*n+j] += p.Value[k]
		}
	}
	copy(s.cost, p.Obj)
	s.lo = append(append(s.lo, p.ColLower...), p.RowLower...)
	s.hi = append(append(s.hi, p.ColUpper...), p.RowUpper...)
	s.init()
	return s
}

// newScaledSimplex returns a simplex on p scaled by sc (purego_scale.go),
// or nil if a finite nonzero number of p would overflow or underflow: the
// numbers are those of the scaled problem sc.apply(p) would make (each
// entry, cost and bound multiplied by the same product of factors), put
// straight into the simplex's dense copies instead of a scaled Problem
// first (TestScaledSimplexAsApplied).
func newScaledSimplex(p *solver.Problem, sc *scaling, o solver.Options) *simplex {
	m, n := p.NumRows, p.NumCols()
	s := allocSimplex(p, o)
	ok := true
	put := func(v, f float64) float64 {
		w := v * f
		if scaledOutOfRange(v, w) {
			ok = false
		}
		return w
	}
	for j := 0; j < n; j++ {
		cj := sc.col[j]
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			i := p.RowIndex[k]
			w := put(p.Value[k], sc.row[i]*cj)
			s.a[j*m+i] += w
			s.ar[i*n+j] += w
		}
		s.cost[j] = put(p.Obj[j], cj)
		s.lo = append(s.lo, put(p.ColLower[j], 1/cj))
		s.hi = append(s.hi, put(p.ColUpper[j], 1/cj))
	}
	for i := range m {
		s.lo = append(s.lo, put(p.RowLower[i], sc.row[i]))
		s.hi = append(s.hi, put(p.RowUpper[i], sc.row[i]))
	}
	if !ok {
		s.release()
		return nil
	}
	s.init()
	return s
}

// exactProblem returns the problem s solves, in s's own (possibly
// scaled) units, for the exact checks (exactRay, exactVertex,
// exactCheck); it is built on first use, and nil if s was made without
// solveOnce.
func (s *simplex) exactProblem() *solver.Problem {
	if s.prob == nil && s.src != nil {
		if s.srcScale == nil {
			s.prob = s.src
		} else {
			s.prob = s.srcScale.apply(s.src)
		}
	}
	return s.prob
}

// scaledOutOfRange reports whether w, a number v of the problem times its
// scale factors, is refused: a finite nonzero v must give 2⁻¹⁰⁰⁰ ≤ |w| <
// ∞ (w = 0, ±Inf or below 2⁻¹⁰⁰⁰ is refused). The common case costs two
// comparisons. newScaledSimplex and scaling.apply refuse by it.
func scaledOutOfRange(v, w float64) bool {
	a := math.Abs(w)
	return !(a >= 0x1p-1000 && a <= math.MaxFloat64) && v != 0 && !math.IsInf(v, 0) && v == v
}

// allocSimplex returns a simplex of p's shape and o's settings in buffers
// from simplexPool: A's dense copies and the costs zero, lo and hi empty
// (with room for n+m bounds); newSimplex and newScaledSimplex fill them
// in, then call init.
func allocSimplex(p *solver.Problem, o solver.Options) *simplex {
	m, n := p.NumRows, p.NumCols()
	b, _ := simplexPool.Get().(*simplexBuffers)
	if b == nil {
		b = new(simplexBuffers)
	}
	// The internal primal tolerance is a tenth of the requested one, so that
	// the x recomputed from scratch by Finish is feasible with a margin.
	s := &simplex{m: m, n: n, tolP: o.FeasibilityTol / 10, tolD: o.OptimalityTol, maxIter: o.MaxIterations, ctx: o.Context, noDevex: !o.Devex}
	s.shiftStart, s.devexNow = o.ShiftedStart, o.Devex && o.DevexFromStart
	s.a = zeroed(b.a, m*n)
	s.ar = zeroed(b.ar, m*n)
	s.cost = zeroed(b.cost, n+m)
	s.orig, s.lo, s.hi = b.orig[:0], b.lo[:0], b.hi[:0]
	s.loT, s.hiT, s.unit, s.tolDv, s.x, s.d, s.st, s.g = b.loT, b.hiT, b.unit, b.tolDv, b.x, b.d, b.st, b.g
	s.posS, s.posT, s.S, s.T = b.posS, b.posT, b.S, b.T
	s.rho, s.alpha, s.u, s.v, s.w, s.z = b.rho, b.alpha, b.u, b.v, b.w, b.z
	s.rs, s.rr, s.rst, s.rb = b.rs, b.rr, b.rst, b.rb
	return s
}

// init sets up the rest of a simplex whose A, costs and bounds are in
// place: the original costs, the tolerances, the values and statuses, the
// kernel and the scratch vectors.
func (s *simplex) init() {
	m, n := s.m, s.n
	s.orig = append(s.orig, s.cost...)
	s.loT = zeroed(s.loT, n+m)
	s.hiT = zeroed(s.hiT, n+m)
	s.unit = zeroed(s.unit, n+m)
	for v := range s.unit {
		s.unit[v] = 1
	}
	s.setPrimalTolerances()
	s.tolDv = zeroed(s.tolDv, n+m)
	for v := range s.tolDv {
		s.tolDv[v] = s.tolD
	}
	s.x = zeroed(s.x, n+m)
	s.d = zeroed(s.d, n+m)
	s.st = zeroed(s.st, n+m)
	s.cap = min(m, n)
	s.g = zeroed(s.g, s.cap*s.cap)
	s.posS = zeroed(s.posS, n)
	s.posT = zeroed(s.posT, m)
	s.S, s.T = s.S[:0], s.T[:0]
	s.rho = zeroed(s.rho, s.cap)
	s.alpha = zeroed(s.alpha, n)
	s.u = zeroed(s.u, s.cap)
	s.v = zeroed(s.v, s.cap)
	s.w = zeroed(s.w, s.cap)
	s.z = zeroed(s.z, m)
}

// simplexBuffers are the slices of a simplex, kept in simplexPool for the
// next solve once a solve is done with them: featmap's designs solve
// thousands of small LPs, and allocating (and collecting) two dense copies
// of A and twenty vectors for each took a seventh of a design's time.
type simplexBuffers struct {
	a, ar, cost, orig, lo, hi, loT, hiT, unit, tolDv, x, d, g []float64
	rho, alpha, u, v, w, z, rs, rr                            []float64
	st, rst                                                   []uint8
	posS, posT, S, T, rb                                      []int
}

var simplexPool sync.Pool

// maxPooledEntries bounds the dense copies of A a pooled simplexBuffers
// keeps: a large LP's are left to the collector.
const maxPooledEntries = 1 << 20

// release returns s's slices to simplexPool; s is not used after.
func (s *simplex) release() {
	if cap(s.a) > maxPooledEntries {
		*s = simplex{}
		return
	}
	simplexPool.Put(&simplexBuffers{
		a: s.a, ar: s.ar, cost: s.cost, orig: s.orig, lo: s.lo, hi: s.hi, loT: s.loT, hiT: s.hiT,
		unit: s.unit, tolDv: s.tolDv, x: s.x, d: s.d, g: s.g,
		rho: s.rho, alpha: s.alpha, u: s.u, v: s.v, w: s.w, z: s.z, rs: s.rs, rr: s.rr,
		st: s.st, rst: s.rst, posS: s.posS, posT: s.posT, S: s.S, T: s.T, rb: s.rb,
	})
	*s = simplex{}
}

// resize returns b resliced to length n, or a new slice if b is too short;
// its contents are the caller's to set.
func resize[E any](b []E, n int) []E {
	if cap(b) < n {
		return make([]E, n)
	}
	return b[:n]
}

// zeroed returns b resliced to n zeros, or a new slice if b is too short.
func zeroed[E any](b []E, n int) []E {
	if cap(b) < n {
		return make([]E, n)
	}
	b = b[:n]
	clear(b)
	return b
}

// setPrimalTolerances sets loT and hiT: a bound b is relaxed by
// tolP·max(unit, |b|).
func (s *simplex) setPrimalTolerances() {
	for v := range s.lo {
		s.loT[v] = s.lo[v] - s.tolP*max(s.unit[v], math.Abs(s.lo[v]))
		s.hiT[v] = s.hi[v] + s.tolP*max(s.unit[v], math.Abs(s.hi[v]))
	}
}

func (s *simplex) col(j int) []float64 { return s.a[j*s.m : (j+1)*s.m] }
func (s *simplex) row(i int) []float64 { return s.ar[i*s.n : (i+1)*s.n] }
func (s *simplex) gRow(l int) []float64 {
	return s.g[l*s.cap : l*s.cap+len(s.T)]
}

// kernelMatrix returns the kernel K, K[t*k+l] = A[T[t], S[l]] (k = len(S)),
// and its largest magnitude.
func (s *simplex) kernelMatrix() ([]float64, float64) {
	k := s.k()
	kk := make([]float64, k*k)
	scale := 0.0
	for t, i := range s.T {
		for l, j := range s.S {
			v := s.a[j*s.m+i]
			kk[t*k+l] = v
			scale = max(scale, math.Abs(v))
		}
	}
	return kk, scale
}

// k is the kernel size.
func (s *simplex) k() int { return len(s.S) }

// boundValue is where a nonbasic variable of status st sits.
func (s *simplex) boundValue(v int, st uint8) float64 {
	switch st {
	case stLower:
		return s.lo[v]
	case stUpper:
		return s.hi[v]
	}
	return 0
}

// defaultStatus places a nonbasic variable at the bound its cost prefers
// (or at its only finite bound, or at zero if free).
func (s *simplex) defaultStatus(v int) uint8 {
	lf, hf := !math.IsInf(s.lo[v], -1), !math.IsInf(s.hi[v], 1)
	switch {
	case lf && hf:
		if s.cost[v] < 0 && s.lo[v] != s.hi[v] {
			return stUpper
		}
		return stLower
	case lf:
		return stLower
	case hf:
		return stUpper
	}
	return stZero
}

// slackBasis makes every row activity basic and every column nonbasic.
func (s *simplex) slackBasis() {
	s.S, s.T = s.S[:0], s.T[:0]
	for j := range s.n {
		s.posS[j] = -1
		s.st[j] = s.defaultStatus(j)
	}
	for i := range s.m {
		s.posT[i] = -1
		s.st[s.n+i] = stBasic
	}
}

// warmBasis installs b; it reports false (leaving a slack basis) if b does
// not fit the problem or its kernel is singular.
func (s *simplex) warmBasis(b *solver.Basis) bool {
	if b == nil || len(b.Cols) != s.n || len(b.Rows) != s.m {
		return false
	}
	s.slackBasis()
	for j, c := range b.Cols {
		if c == solver.Basic {
			s.posS[j] = len(s.S)
			s.S = append(s.S, j)
			s.st[j] = stBasic
		} else {
			s.st[j] = s.nonbasicStatus(j, c)
		}
	}
	for i, r := range b.Rows {
		if r != solver.Basic {
			s.posT[i] = len(s.T)
			s.T = append(s.T, i)
			s.st[s.n+i] = s.nonbasicStatus(s.n+i, r)
		}
	}
	if len(s.S) != len(s.T) {
		s.slackBasis()
		return false
	}
	if s.refactor() != nil {
		s.slackBasis()
		return false
	}
	return true
}

// nonbasicStatus converts a Basis status to an internal one that is valid
// for v's bounds.
func (s *simplex) nonbasicStatus(v int, c solver.VarStatus) uint8 {
	switch {
	case c == solver.AtLower && !math.IsInf(s.lo[v], -1):
		return stLower
	case c == solver.AtUpper && !math.IsInf(s.hi[v], 1):
		return stUpper
	case c == solver.AtZero && math.IsInf(s.lo[v], -1) && math.IsInf(s.hi[v], 1):
		return stZero
	}
	return s.defaultStatus(v)
}

// halt reports whether the simplex must stop: at the iteration limit, or
// when its context is done (checked every 64 pivots; s.stopped is then
// set).
func (s *simplex) halt() bool {
	if s.ctx != nil && s.iter%64 == 0 && s.stopped == nil {
		s.stopped = s.ctx.Err()
	}
	return s.iter >= s.maxIter || s.stopped != nil
}

// run solves from the warm basis (or a slack basis) and returns the status.
func (s *simplex) run(warm *solver.Basis) (solver.Status, string) {
	if !s.warmBasis(warm) {
		s.slackBasis()
	}
	s.farkas, s.ray = nil, nil
	return s.iterate()
}

// iterate runs the simplex rounds from the current basis: clean-up
// (refactorisation and recomputation), then the dual or primal simplex,
// until both feasibilities hold, a certificate is found or it fails.
func (s *simplex) iterate() (solver.Status, string) {
	const rounds = 12
	for round := 0; round < rounds && s.stopped == nil; round++ {
		if err := s.refresh(); err != nil {
			return solver.NumericalFailure, err.Error()
		}
		pInf, dInf := s.primalInfeasibility(), s.dualInfeasible()
		if pInf == 0 && !dInf {
			return solver.Optimal, ""
		}
		shifted := false
		if round == 0 && s.shiftStart && pInf > 0 && dInf {
			// Options.ShiftedStart: boxed variables go to the bound their
			// reduced cost prefers; if that leaves both infeasibilities,
			// the dual simplex runs on costs shifted to make the start
			// dual feasible, and the next round's primal simplex removes
			// the shift from the optimum it reaches.
			if s.flipBoxed() {
				pInf, dInf = s.primalInfeasibility(), s.dualInfeasible()
			}
			shifted = pInf > 0 && dInf
			s.shift, s.shiftRows = shifted, shifted
		}
		var st solver.Status
		var err error
		dual := !dInf || s.shift
		switch {
		case !dInf:
			st, err = s.perturbedDualSimplex()
		case s.shift:
			// After a kernel repair or at a shifted start: shift the
			// costs of the basis's dual infeasibilities away and run the
			// dual simplex (the next round's clean-up removes what the
			// shift leaves).
			st, err = s.perturbedDualSimplex()
			s.shift, s.shiftRows = false, false
		case pInf == 0:
			st, err = s.primalSimplex(false)
		default:
			st, err = s.primalSimplex(true)
		}
		if err != nil {
			if errors.Is(err, errSingular) && s.devex {
				// Devex pricing may have chosen the poorly conditioned
				// pivots: keep to Dantzig's from here on.
				s.noDevex = true
			}
			if errors.Is(err, errSingular) && round < rounds-1 {
				// A pivot produced a nearly singular kernel. After the dual
				// simplex, drop its dependent columns (repairKernel) and go
				// on from the rest of the basis; after the primal simplex,
				// or if that fails, restart from the slack basis.
				if dual && s.repairs < maxRepairs && s.repairKernel() {
					s.repairs++
					s.shift = true
				} else {
					s.slackBasis()
				}
				continue
			}
			return solver.NumericalFailure, err.Error()
		}
		if st == solver.Infeasible && (!dInf || shifted) {
			// The dual simplex's proof of infeasibility rests on its pivot
			// row; confirm it with the primal phase 1 before reporting it
			// (whose multipliers are the certificate Solve checks).
			if err := s.refresh(); err != nil {
				return solver.NumericalFailure, err.Error()
			}
			if st, err = s.primalSimplex(true); err != nil {
				return solver.NumericalFailure, err.Error()
			}
			if st == solver.Optimal {
				continue // feasible after all: go on optimising
			}
		}
		if st != solver.Optimal {
			return st, ""
		}
	}
	return solver.NumericalFailure, "no convergence after repeated clean-up rounds"
}

// refresh refactorises the kernel and recomputes x_B, the duals and the
// reduced costs from scratch.
func (s *simplex) refresh() error {
	if err := s.refactor(); err != nil {
		return err
	}
	s.recomputePrimal()
	s.recomputeDuals(s.cost)
	return nil
}

// refactor recomputes G = K⁻¹ by Gauss–Jordan elimination with partial
// pivoting (gaussJordan).
func (s *simplex) refactor() error {
	k := s.k()
	s.updates = 0
	if k == 0 {
		return nil
	}
	// K[t][l] = A[T[t], S[l]]; invert K into G (rows indexed by l, columns by t).
	kk, scale := s.kernelMatrix()
	inv := make([]float64, k*k)
	if err := gaussJordan(kk, inv, k, scale); err != nil {
		return err
	}
	// inv = K⁻¹ with rows indexed like K's columns (l) and columns like K's
	// rows (t).
	for l := range k {
		copy(s.g[l*s.cap:l*s.cap+k], inv[l*k:(l+1)*k])
	}
	return nil
}

// gaussJordan sets inv (k×k) to the inverse of kk (k×k, row major,
// overwritten) by Gauss–Jordan elimination with partial pivoting, or
// returns errSingular when a pivot is at most singularTol·scale.
//
// It inverts in place: after c steps a row holds the inverse's columns of
// the first c pivots' units (the only nonzero ones: a row of the inverse
// differs from the identity's only there) followed by K's columns not yet
// eliminated, so that each row operation is one pass over k numbers,
// where the textbook elimination of [K | I] makes 2k. The arithmetic on
// every entry is that elimination's (TestRefactorAsFullElimination: the
// same inverse, bit for bit but for the sign of a zero).
func gaussJordan(kk, inv []float64, k int, scale float64) error {
	// unit[r] is the column of row r's identity 1 (rows swap); after step
	// c, unit[c] is the inverse's column that slot c of each row holds.
	unit := make([]int, k)
	for i := range unit {
		unit[i] = i
	}
	for c := range k {
		p, best := -1, 0.0
		for r := c; r < k; r++ {
			if a := math.Abs(kk[r*k+c]); a > best {
				p, best = r, a
			}
		}
		if p < 0 || best <= singularTol*max(scale, 1e-300) {
			return fmt.Errorf("%w (size %d, pivot %.3g)", errSingular, k, best)
		}
		if p != c {
			rp, rc := kk[p*k:p*k+k], kk[c*k:c*k+k]
			for q := range rp {
				rp[q], rc[q] = rc[q], rp[q]
			}
			unit[p], unit[c] = unit[c], unit[p]
		}
		// The pivot row: K's part divided by the pivot, and its unit's
		// 1 (in slot c, where the pivot was) too.
		rc := kk[c*k : c*k+k]
		f := 1 / rc[c]
		for q := range rc {
			rc[q] *= f
		}
		rc[c] = f
		for r := range k {
			if r == c {
				continue
			}
			rr := kk[r*k : r*k+k]
			f := rr[c]
			if f == 0 {
				continue
			}
			rr[c] = 0        // the inverse's entry there is 0 before this step
			axpy(rr, -f, rc) // rr − f·rc, bit for bit
		}
	}
	for r := range k {
		for j, u := range unit {
			inv[r*k+u] = kk[r*k+j]
		}
	}
	return nil
}

// recomputePrimal sets nonbasic variables to their bounds, solves for the
// basic columns and recomputes every row activity.
func (s *simplex) recomputePrimal() {
	for v := range s.n + s.m {
		if s.st[v] != stBasic {
			s.x[v] = s.boundValue(v, s.st[v])
		}
	}
	// r_T − A[T, N] x_N, then x_S = G (that).
	k := s.k()
	for t, i := range s.T {
		rhs := s.x[s.n+i]
		row := s.row(i)
		for j := range s.n {
			if s.st[j] != stBasic && s.x[j] != 0 {
				rhs -= row[j] * s.x[j]
			}
		}
		s.w[t] = rhs
	}
	for l, j := range s.S {
		s.x[j] = dotN(s.g[l*s.cap:l*s.cap+k], s.w[:k])
	}
	s.basicRowActivities()
}

// basicRowActivities sets the basic row activities x_{n+i} to A_i·x from
// the columns' x (in s.z's scratch).
func (s *simplex) basicRowActivities() {
	r := s.z
	clear(r)
	for j := range s.n {
		if xj := s.x[j]; xj != 0 {
			axpy(r, xj, s.col(j))
		}
	}
	for i := range s.m {
		if s.st[s.n+i] == stBasic {
			s.x[s.n+i] = r[i]
		}
	}
}

// recomputeDuals computes π_T = Gᵀ c_S and every reduced cost for costs c
// (len n+m). Row activities cost nothing but while a shifted start's dual
// simplex runs (shiftRows); then a basic one's cost c_i sets π_i = −c_i
// and π_T = Gᵀ (c_S − A[R, S]ᵀ π_R), as in phase1Duals.
func (s *simplex) recomputeDuals(c []float64) {
	k := s.k()
	pi := s.rho[:k]
	clear(pi)
	if !s.shiftRows {
		for l, j := range s.S {
			if cj := c[j]; cj != 0 {
				axpy(pi, cj, s.gRow(l))
			}
		}
		s.reducedCosts(c, pi, nil)
		return
	}
	piR := make([]float64, s.m)
	e := s.w[:k]
	for l, j := range s.S {
		e[l] = c[j]
	}
	for i := range s.m {
		if ci := c[s.n+i]; ci != 0 && s.st[s.n+i] == stBasic {
			piR[i] = -ci
			row := s.row(i)
			for l, j := range s.S {
				e[l] += ci * row[j]
			}
		}
	}
	for l := range k {
		if e[l] != 0 {
			axpy(pi, e[l], s.gRow(l))
		}
	}
	s.reducedCosts(c, pi, piR)
}

// reducedCosts sets d = c − Aᵀπ for nonbasic columns and d_i = c_i + π_i
// for the kernel rows' activities, given π on T (piT) and optionally π on
// other rows (piR, a full-length m vector or nil).
func (s *simplex) reducedCosts(c, piT, piR []float64) {
	alpha := s.alpha
	clear(alpha)
	for t, i := range s.T {
		if piT[t] != 0 {
			axpy(alpha, piT[t], s.row(i))
		}
	}
	if piR != nil {
		for i, p := range piR {
			if p != 0 {
				axpy(alpha, p, s.row(i))
			}
		}
	}
	for j := range s.n {
		if s.st[j] == stBasic {
			s.d[j] = 0
		} else {
			s.d[j] = c[j] - alpha[j]
		}
	}
	for i := range s.m {
		s.d[s.n+i] = 0
	}
	for t, i := range s.T {
		s.d[s.n+i] = c[s.n+i] + piT[t]
	}
}

// flipBoxed moves every nonbasic variable with two finite bounds whose
// reduced cost has the wrong sign for its bound to the other bound, which
// makes it dual feasible, and recomputes x if any moved. It reports
// whether any moved.
func (s *simplex) flipBoxed() bool {
	moved := false
	for v := range s.n + s.m {
		if s.st[v] == stBasic || math.IsInf(s.lo[v], -1) || math.IsInf(s.hi[v], 1) || s.dualViolation(v) == 0 {
			continue
		}
		if s.st[v] == stLower {
			s.st[v] = stUpper
		} else {
			s.st[v] = stLower
		}
		moved = true
	}
	if moved {
		s.recomputePrimal()
	}
	return moved
}

// primalInfeasibility returns the largest bound violation of a basic
// variable beyond the tolerance (0 if primal feasible).
func (s *simplex) primalInfeasibility() float64 {
	worst := 0.0
	for v := range s.n + s.m {
		if s.st[v] == stBasic {
			if e := s.infeasibility(v); e > worst {
				worst = e
			}
		}
	}
	return worst
}

// infeasibility is how far x_v lies outside its bounds beyond the tolerance.
func (s *simplex) infeasibility(v int) float64 {
	x := s.x[v]
	if x < s.loT[v] {
		return s.lo[v] - x
	}
	if x > s.hiT[v] {
		return x - s.hi[v]
	}
	return 0
}

// dualInfeasible reports whether a nonbasic variable's reduced cost has the
// wrong sign beyond the tolerance.
func (s *simplex) dualInfeasible() bool {
	for v := range s.n + s.m {
		if s.dualViolation(v) > 0 {
			return true
		}
	}
	return false
}

// dualViolation is how much v's reduced cost violates its sign condition.
func (s *simplex) dualViolation(v int) float64 {
	if s.lo[v] == s.hi[v] {
		return 0 // fixed: any sign is optimal
	}
	d := s.d[v]
	switch s.st[v] {
	case stLower:
		if d < -s.tolDv[v] {
			return -d
		}
	case stUpper:
		if d > s.tolDv[v] {
			return d
		}
	case stZero:
		if math.Abs(d) > s.tolDv[v] {
			return math.Abs(d)
		}
	}
	return 0
}

// solution extracts the result in the package's conventions.
func (s *simplex) solution(st solver.Status, msg string) *solver.Solution {
	sol := &solver.Solution{Status: st, Iterations: s.iter, Message: msg}
	sol.X = append([]float64(nil), s.x[:s.n]...)
	sol.ColDual = make([]float64, s.n)
	sol.RowDual = make([]float64, s.m)
	for j := range s.n {
		sol.ColDual[j] = s.d[j]
	}
	for _, i := range s.T {
		sol.RowDual[i] = s.d[s.n+i]
	}
	sol.Basis = &solver.Basis{Cols: make([]solver.VarStatus, s.n), Rows: make([]solver.VarStatus, s.m)}
	conv := func(v int) solver.VarStatus {
		switch s.st[v] {
		case stBasic:
			return solver.Basic
		case stUpper:
			return solver.AtUpper
		case stZero:
			return solver.AtZero
		}
		return solver.AtLower
	}
	for j := range s.n {
		sol.Basis.Cols[j] = conv(j)
	}
	for i := range s.m {
		sol.Basis.Rows[i] = conv(s.n + i)
	}
	return sol
}

// axpy sets y += a·x, rounding each product before adding it. Where the
// processor has AVX it runs vec.Axpy, the same operations four entries at
// a time (packed IEEE multiplications and additions round each entry as
// the scalar ones the Go code compiles to do: TestVectorKernelsBitForBit);
// else axpyGo.
func axpy(y []float64, a float64, x []float64) {
	x = x[:len(y)]
	if vec.AVX && len(y) >= vectorMin {
		vec.Axpy(y, a, x)
		return
	}
	axpyGo(y, a, x)
}

// vectorMin is the shortest vector axpy and axpy8 hand to package vec;
// shorter ones take the Go loops, which cost less than the call.
const vectorMin = 8

// axpyGo is axpy in Go.
func axpyGo(y []float64, a float64, x []float64) {
	x = x[:len(y)]
	// Four at a time, the same operations: the processor overlaps them
	// (BenchmarkRefactor, whose row operations are axpys, took 24–32 ms
	// with the plain loop against 15–17 ms in this form).
	i := 0
	for ; i+4 <= len(y); i += 4 {
		y[i] += float64(a * x[i])
		y[i+1] += float64(a * x[i+1])
		y[i+2] += float64(a * x[i+2])
		y[i+3] += float64(a * x[i+3])
	}
	for ; i < len(y); i++ {
		y[i] += float64(a * x[i])
	}
}

// axpy8 sets y += a[0]·x[0] + … + a[7]·x[7], adding the terms to each
// y[i] in that order: bit for bit eight axpy calls. Where the processor
// has AVX it runs vec.Axpy8, four entries of y at a time, each by the same
// operations in the same order; else axpy8Go.
func axpy8(y []float64, a *[8]float64, x *[8][]float64) {
	if vec.AVX && len(y) >= vectorMin {
		for _, xj := range x {
			_ = xj[:len(y)] // vec.Axpy8 reads len(y) entries of each
		}
		vec.Axpy8(y, a, x)
		return
	}
	axpy8Go(y, a, x)
}

// axpy8Go is axpy8 in Go. Both round every product before adding it (an
// explicit conversion, which the compiler never fuses into a multiply-add,
// as it may on arm64 or with GOAMD64=v3, and not necessarily alike in the
// two loops).
func axpy8Go(y []float64, a *[8]float64, x *[8][]float64) {
	n := len(y)
	x0, x1, x2, x3 := x[0][:n], x[1][:n], x[2][:n], x[3][:n]
	x4, x5, x6, x7 := x[4][:n], x[5][:n], x[6][:n], x[7][:n]
	a0, a1, a2, a3, a4, a5, a6, a7 := a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
	for i := range y {
		v := y[i]
		v += float64(a0 * x0[i])
		v += float64(a1 * x1[i])
		v += float64(a2 * x2[i])
		v += float64(a3 * x3[i])
		v += float64(a4 * x4[i])
		v += float64(a5 * x5[i])
		v += float64(a6 * x6[i])
		v += float64(a7 * x7[i])
		y[i] = v
	}
}

func dotN(a, b []float64) float64 {
	b = b[:len(a)]
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
