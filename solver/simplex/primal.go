package simplex

import (
	"errors"
	"fmt"
	"math"

	"github.com/featmap/featmap/solver"
)

// The bounded primal simplex: a composite phase 1 (the sum of the basic
// variables' bound violations) from a primal infeasible basis, then cᵀx;
// the entering variable by Dantzig's rule, Bland's after a run of
// degenerate pivots (chooseEntering), the leaving one by a two-pass
// Harris ratio test (primalRatio). A phase 1 that cannot improve ends
// Infeasible with its duals as the Farkas multiplier (farkas.go), an
// entering variable nothing blocks ends Unbounded with its ray (ray.go);
// a rate or a reduced cost within the tolerance that would have decided
// otherwise (faintBlock, faintImprovement) makes either a numerical
// failure instead.

// primalSimplex runs the bounded primal simplex. With phase1 set it
// minimises the sum of bound violations of the basic variables (a composite
// phase 1: costs ±1 on the violated ones, recomputed every iteration) and
// returns Optimal once the basis is primal feasible, or Infeasible if the
// violations cannot be reduced further. Without phase1 it minimises cᵀx from
// a primal feasible basis and returns Optimal or Unbounded.
func (s *simplex) primalSimplex(phase1 bool) (solver.Status, error) {
	c := s.cost
	var piR []float64
	if phase1 {
		c = make([]float64, s.n+s.m)
		piR = make([]float64, s.m)
	}
	for {
		if s.halt() {
			return solver.IterationLimit, nil
		}
		if phase1 {
			if !s.phase1Duals(c, piR) {
				return solver.Optimal, nil // feasible: the caller continues with phase 2
			}
		} else {
			s.recomputeDuals(c)
		}
		q := s.chooseEntering()
		if q < 0 {
			if phase1 {
				if v := s.faintImprovement(); v >= 0 {
					return solver.NumericalFailure, fmt.Errorf("infeasible only if the phase-1 reduced cost %.3g of variable %d is zero (tolerance %g)", s.d[v], v, s.tolDv[v])
				}
				s.farkas = s.phase1Farkas(c, s.rho[:s.k()], piR)
				return solver.Infeasible, nil
			}
			return solver.Optimal, nil
		}
		dir := 1.0
		if s.d[q] > 0 {
			dir = -1
		}
		k := s.k()
		u := s.u[:k]
		s.ftran(q, u)
		z := s.z
		s.rowActivityDirection(q, u, z)
		p, theta, pst := s.primalRatio(q, dir, u, z, phase1)
		if p == -1 {
			if s.updates > 0 {
				// Perhaps only the updated inverse sees no blocking variable:
				// refactorise and price again before concluding.
				if err := s.refresh(); err != nil {
					return solver.NumericalFailure, err
				}
				continue
			}
			if phase1 {
				return solver.NumericalFailure, errors.New("phase 1 found an unbounded improving direction")
			}
			// A faint rate towards a bound may block the ray; unless the
			// ray built exactly proves it unbounded (exactRayHolds: on the
			// spread LPs 42 fewer give-ups), that is a numerical failure.
			if b := s.faintBlock(q, dir, u, z); b >= 0 && !s.exactRayHolds(q, dir) {
				return solver.NumericalFailure, fmt.Errorf("unbounded only if the rate %.3g of basic variable %d towards its bound is zero (pivot tolerance %g)", s.rateOf(b, dir, u, z), b, pivotTol)
			}
			s.ray, s.rayEnter = s.primalRay(q, dir, u), q
			return solver.Unbounded, nil
		}
		if p == q { // bound flip: no basis change
			s.step(q, dir*theta, u, z)
			if s.st[q] == stLower {
				s.st[q] = stUpper
			} else {
				s.st[q] = stLower
			}
			s.x[q] = s.boundValue(q, s.st[q])
			s.iter++
			continue
		}
		if theta == 0 {
			s.degenerate++
		} else {
			s.degenerate = 0
		}
		s.bland = s.degenerate >= blandAfter
		rho := s.rho[:k]
		if p >= s.n {
			s.leavingRow(p, rho)
		}
		s.step(q, dir*theta, u, z)
		if err := s.pivot(p, q, pst, u, rho); err != nil {
			return solver.NumericalFailure, err
		}
		s.iter++
	}
}

// phase1Duals sets the phase-1 costs c (−1 below a lower bound, +1 above an
// upper bound, for basic variables) and the reduced costs they give. It
// reports false when no basic variable is infeasible.
func (s *simplex) phase1Duals(c, piR []float64) bool {
	clear(c)
	clear(piR)
	any := false
	for v := range s.n + s.m {
		if s.st[v] != stBasic || s.infeasibility(v) == 0 {
			continue
		}
		any = true
		if s.x[v] < s.lo[v] {
			c[v] = -1
		} else {
			c[v] = 1
		}
		if v >= s.n {
			piR[v-s.n] = -c[v] // a basic row activity r_i: −π_i = c_i
		}
	}
	if !any {
		return false
	}
	// π_T = Gᵀ (c_S − A[R, S]ᵀ π_R).
	k := s.k()
	e := s.w[:k]
	for l, j := range s.S {
		e[l] = c[j]
	}
	for i, p := range piR {
		if p == 0 {
			continue
		}
		row := s.row(i)
		for l, j := range s.S {
			e[l] -= p * row[j]
		}
	}
	pi := s.rho[:k]
	clear(pi)
	for l := range k {
		if e[l] != 0 {
			axpy(pi, e[l], s.gRow(l))
		}
	}
	s.reducedCosts(c, pi, piR)
	return true
}

// chooseEntering returns the nonbasic variable whose reduced cost most
// violates its optimality condition (Dantzig), or −1.
//
// After a run of degenerate pivots it switches to Bland's rule — the
// improving variable of lowest index, and in the ratio test the blocking
// variable of lowest index — which cannot cycle, until a pivot makes
// progress again.
func (s *simplex) chooseEntering() int {
	q, best := -1, 0.0
	for v := range s.n + s.m {
		if s.st[v] == stBasic {
			continue
		}
		if e := s.dualViolation(v); e > best {
			q, best = v, e
			if s.bland {
				break
			}
		}
	}
	return q
}

// blandAfter is the number of consecutive degenerate primal pivots after
// which Bland's rule takes over.
const blandAfter = 50

// primalRatio is the two-pass Harris ratio test of the primal simplex for
// entering q moving in direction dir. Basic variable b changes by
// −dir·θ·(B⁻¹a_q)_b. It returns the leaving variable (q itself for a bound
// flip, −1 if nothing blocks), the step θ ≥ 0 and the bound the leaving
// variable reaches.
func (s *simplex) primalRatio(q int, dir float64, u, z []float64, phase1 bool) (int, float64, uint8) {
	// The first pass finds the Harris bound and keeps every blocking
	// variable's step, status and rate for the second (in s.rs, s.rr,
	// s.rst: the basic columns in S's order, then the basic rows).
	k := len(s.S)
	rs, rr, rst := resize(s.rs, k+s.m), resize(s.rr, k+s.m), resize(s.rst, k+s.m)
	s.rs, s.rr, s.rst = rs, rr, rst
	bound := math.Inf(1)
	c := 0 // entries kept
	keep := func(b int, r float64) {
		// A variable already beyond its bound (by up to the tolerance the
		// Harris test allows) gives a negative relaxed step; it must still
		// bound the step at zero, or the second pass would find nothing.
		step, rel, st, ok := s.primalLimit(b, r, phase1)
		if !ok {
			return
		}
		if max(rel, 0) < bound {
			bound = max(rel, 0)
		}
		rs[c], rr[c], rst[c] = step, r, st
		s.rb = append(s.rb[:c], b)
		c++
	}
	for _, j := range s.S {
		keep(j, -dir*u[s.posS[j]])
	}
	for i := range s.m {
		if s.st[s.n+i] == stBasic {
			keep(s.n+i, -dir*z[i])
		}
	}
	flip := s.hi[q] - s.lo[q] // finite only for boxed variables
	if math.IsInf(bound, 1) {
		if !math.IsInf(flip, 0) && !math.IsNaN(flip) {
			return q, flip, 0
		}
		return -1, 0, 0
	}
	p, theta, pst, best := -1, 0.0, uint8(0), 0.0
	for e, b := range s.rb[:c] {
		if step, r := rs[e], rr[e]; step <= bound && (math.Abs(r) > best && !s.bland || s.bland && (p < 0 || b < p)) {
			p, theta, pst, best = b, step, rst[e], math.Abs(r)
		}
	}
	if !math.IsInf(flip, 0) && !math.IsNaN(flip) && flip <= theta {
		return q, flip, 0
	}
	return p, theta, pst
}

// primalLimit returns, for basic variable b moving at rate r per unit
// step of the primal simplex (phase 1 or not), the step to its blocking
// bound, the Harris-relaxed step, that bound's status and whether it
// blocks.
func (s *simplex) primalLimit(b int, r float64, phase1 bool) (step, relaxed float64, st uint8, ok bool) {
	if r >= -pivotTol && r <= pivotTol || r != r {
		return 0, 0, 0, false
	}
	x, lo, hi := s.x[b], s.lo[b], s.hi[b]
	tl := s.tolP * max(s.unit[b], math.Abs(lo))
	th := s.tolP * max(s.unit[b], math.Abs(hi))
	if r < -pivotTol {
		if phase1 && x > hi+th { // infeasible above, falling: blocks at hi
			return (x - hi) / -r, (x - hi + th) / -r, stUpper, true
		}
		if math.IsInf(lo, -1) || (phase1 && x < lo-tl) {
			return 0, 0, 0, false
		}
		return max(x-lo, 0) / -r, (x - lo + tl) / -r, stLower, true
	}
	if phase1 && x < lo-tl { // infeasible below, rising: blocks at lo
		return (lo - x) / r, (lo - x + tl) / r, stLower, true
	}
	if math.IsInf(hi, 1) || (phase1 && x > hi+th) {
		return 0, 0, 0, false
	}
	return max(hi-x, 0) / r, (hi - x + th) / r, stUpper, true
}

// faintNoise is the round-off level of a rate or a reduced cost relative
// to the largest: each is a sum of products of many terms, each with its
// rounding (a bound of 10⁻¹⁶ made well-scaled infeasible LPs give up).
const faintNoise = 1e-13

// rateOf is the rate at which basic variable b changes per unit step of the
// entering variable moving in direction dir (u = B⁻¹a_q on the kernel, z
// the row activities' direction).
func (s *simplex) rateOf(b int, dir float64, u, z []float64) float64 {
	if b < s.n {
		return -dir * u[s.posS[b]]
	}
	return -dir * z[b-s.n]
}

// faintBlock returns a basic variable that would block the entering
// variable q's ray if its rate towards a finite bound, nonzero but within
// the pivot tolerance, were taken as real, or −1 if there is none. The
// ratio test treats such a rate as zero; on a problem whose numbers span
// many orders of magnitude it may be the true rate (an entry of 10⁻⁹ next
// to 10⁶), and then "unbounded" is wrong (the spread LPs of solver's
// scaling_test.go, FuzzSolve).
// A rate below faintNoise of the terms it sums is round-off: a row
// activity's rate sums u_l·a_il over the kernel's columns (and −a_iq),
// where each u_l may be off by round-off relative to the largest |u|, and a
// basic column's rate is measured against the largest |u_l|.
func (s *simplex) faintBlock(q int, dir float64, u, z []float64) int {
	big := 0.0
	for _, v := range u {
		big = math.Max(big, math.Abs(v))
	}
	faint := func(b int, r, noise float64) bool {
		return r < -noise && r >= -pivotTol && !math.IsInf(s.lo[b], -1) || r > noise && r <= pivotTol && !math.IsInf(s.hi[b], 1)
	}
	for _, j := range s.S {
		if faint(j, s.rateOf(j, dir, u, z), faintNoise*big) {
			return j
		}
	}
	for i := range s.m {
		if s.st[s.n+i] != stBasic {
			continue
		}
		r := s.rateOf(s.n+i, dir, u, z)
		if r == 0 || math.Abs(r) > pivotTol {
			continue
		}
		row, sum := s.row(i), 0.0
		for l, j := range s.S {
			sum += math.Abs(row[j]) * (math.Abs(u[l]) + big) // u_l's own round-off is relative to the largest
		}
		if q < s.n {
			sum += math.Abs(row[q])
		}
		if faint(s.n+i, r, faintNoise*sum) {
			return s.n + i
		}
	}
	return -1
}

// faintImprovement returns a nonbasic variable whose phase-1 reduced cost,
// of the improving sign but within the dual tolerance, would remove the
// whole infeasibility over the range it may move if it were taken as
// real, or −1 if there is none. Phase 1 treats such a reduced cost as
// zero; on a problem whose numbers span many orders of magnitude it may be
// the true one, and then "infeasible" is wrong (the spread LPs of
// solver's scaling_test.go).
func (s *simplex) faintImprovement() int {
	w := 0.0 // the phase-1 objective: the basic variables' violations
	for v := range s.n + s.m {
		if s.st[v] == stBasic {
			w += s.infeasibility(v)
		}
	}
	// Reduced costs below noise, faintNoise of the largest, are
	// round-off.
	big := 0.0
	for v := range s.n + s.m {
		if s.st[v] != stBasic {
			big = math.Max(big, math.Abs(s.d[v]))
		}
	}
	noise := faintNoise * big
	for v := range s.n + s.m {
		if s.st[v] == stBasic || s.lo[v] == s.hi[v] || math.Abs(s.d[v]) <= noise {
			continue
		}
		d, span := s.d[v], s.hi[v]-s.lo[v]
		var faint bool
		switch s.st[v] {
		case stLower:
			faint = d < 0
		case stUpper:
			faint = d > 0
		case stZero:
			faint, span = d != 0, math.Inf(1)
		}
		if faint && math.Abs(d)*span >= w {
			return v
		}
	}
	return -1
}
