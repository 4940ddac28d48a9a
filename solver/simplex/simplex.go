package simplex

import (
	"context"
	"errors"
	"math"
	"sync"

	"github.com/featmap/featmap/solver"
)

// The simplex's state: A twice, dense (by columns for FTRAN, by rows for
// the pivot row), the costs, the bounds and their tolerance-relaxed forms,
// the values, reduced costs and statuses of the n columns and m row
// activities, the kernel (S, T, G = K⁻¹: doc.go, kernel.go) and scratch.
// newSimplex builds it from a problem as given, newScaledSimplex from the
// problem scaled (scale.go), both in buffers kept in a pool between solves.

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
	// cost within tolD (scale.go).
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
	// (farkas.go, ray.go).
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

// newScaledSimplex returns a simplex on p scaled by sc (scale.go),
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
