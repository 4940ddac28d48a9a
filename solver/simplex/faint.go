package simplex

import (
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/solver"
)

// The check that an optimum is not one the dual tolerance made: a
// nonbasic variable whose reduced cost has the improving sign, but within
// the tolerance, may open an unbounded ray or a long improving step. Its
// reduced cost is recomputed from duals refined with dot2, its rounding
// bounded (refinedReducedCost); a real one along an unblocked ray is
// reported Unbounded, for checkCertificate to check (faintRay,
// faintLook), one whose step would lower the objective by more than
// faintGap makes the optimum unproven, and a short step is looked through
// on a copy of the simplex (pivotCopy, up to faintDepth pivots).
// solveOnce takes such a step (takeStep, at most maxFaintSteps) and goes
// on with the simplex instead of giving up.

// faintRay looks, at an optimum, for a nonbasic variable whose reduced
// cost has the improving sign, beyond faintNoise of the largest but within
// the dual tolerance, on a side where its range is infinite, and whose
// direction no basic variable blocks. Optimality then rests on the
// tolerance alone while the objective falls without bound (FuzzSolve: a
// reduced cost of 10⁻⁹ on a column free below, exactly unbounded). It
// keeps that ray as the certificate and reports true; the caller reports
// Unbounded, which checkCertificate then checks.
func (s *simplex) faintRay() bool {
	big := 0.0
	for v := range s.n + s.m {
		if s.st[v] != stBasic {
			big = math.Max(big, math.Abs(s.d[v]))
		}
	}
	k := s.k()
	for v := range s.n + s.m {
		d := s.d[v]
		if s.st[v] == stBasic || s.isFixed(v) || math.Abs(d) <= faintNoise*big {
			continue
		}
		var dir float64
		switch {
		case s.st[v] == stLower && d < 0 && math.IsInf(s.hi[v], 1):
			dir = 1
		case s.st[v] == stUpper && d > 0 && math.IsInf(s.lo[v], -1):
			dir = -1
		case s.st[v] == stZero:
			dir = -math.Copysign(1, d)
		default:
			continue
		}
		u := s.u[:k]
		s.ftran(v, u)
		s.rowActivityDirection(v, u, s.z)
		if p, _, _ := s.primalRatio(v, dir, u, s.z, false); p == -1 {
			s.ray, s.rayEnter = s.primalRay(v, dir, u), v
			return true
		}
	}
	return false
}

// faintGap is the objective improvement, relative to max(1, |cᵀx|), beyond
// which a step along a tolerance-level improving reduced cost makes an
// optimum unproven (faintCheck): the gap the exact referee allows an
// optimum (the verdict of solver's scaling_test.go).
const faintGap = 1e-6

// faintCheck is the post-optimal check of an optimum: it returns Optimal
// if the vertex stands, Unbounded (with its ray kept as the certificate,
// which checkCertificate then checks) or NumericalFailure (with why) if a
// reduced cost within the dual tolerance hides a large improvement.
// faintRay's unblocked rays come first. Then every nonbasic variable (a
// column or a row's activity: refinedReducedCost) whose
// reduced cost, recomputed from refined duals with its rounding bounded,
// has the improving sign beyond that rounding and faintNoise of its terms
// (a reduced cost of 10⁻¹⁵ can be exact, 10⁻⁹·10⁻⁶, next to others of 1,
// where faintRay's faintNoise of the largest would call it round-off) is
// moved along its ray: if no
// basic variable blocks it (rates within the pivot tolerance count as
// none) the ray is kept and Unbounded returned, so the certificate decides,
// if faintRay's threshold calls the reduced cost real (else a faint rate,
// faintBlock's, bounds the step);
// if the step the ratio test allows would improve the objective by more
// than faintGap, the optimum rests on the tolerance alone and
// NumericalFailure is returned (FuzzSolve: a reduced cost of 10⁻¹⁵ whose
// step of 10²¹ lowers the objective from 10⁶ to its exact optimum 0).
// A short step is looked through (faintLook).
//
// With NumericalFailure it returns the step that found the long
// improvement when it was taken at s's own vertex along a variable the
// ratio test blocks (no faint rate bounds it): solveOnce takes that step
// and goes on with the simplex (takeStep). Otherwise step.v is −1.
func (s *simplex) faintCheck() (st solver.Status, msg string, step faintStep) {
	budget := faintDepth
	return s.faintLook(faintDepth, &budget, -1)
}

// faintStep is an improving step that the dual tolerance hid at an
// optimum: nonbasic variable v moving in direction dir (±1), or v = −1.
//
// leave, if not −1, is the basic variable that blocks the step, found on
// the ray built exactly (exactBlock), with the step theta and the bound
// status pst it reaches; otherwise the primal ratio test finds them.
type faintStep struct {
	v     int
	dir   float64
	leave int
	theta float64
	pst   uint8
}

// noFaintStep is the faintStep of a verdict that names none.
var noFaintStep = faintStep{v: -1, leave: -1}

// faintDepth is the number of pivots faintCheck looks through, and the
// number of copies of the simplex it makes at most.
const faintDepth = 2

// faintLook is faintCheck, looking through up to depth pivots: a variable
// whose reduced cost the dual tolerance hid (beyond faintNoise of the
// largest, as faintRay's) but whose step is short is pivoted in on a copy
// of s, and the copy's vertex is checked in turn, any improving variable
// but back (the one whose pivot would undo the copy's). If the copy finds
// an improving ray or a long improving step, the vertex is no proven
// optimum: NumericalFailure (FuzzSolve c33101a807c08ef7: a reduced cost
// of 10⁻⁹ blocked after a step of 10⁻⁹, after whose pivot a reduced cost
// of 10⁻¹⁷, against terms of 10⁻¹, leads along an unblocked ray of the
// exactly unbounded LP). The copy's ray is not reported as Unbounded: its
// certificate takes a row's rate within rayNoise of its terms as none, and
// FuzzSolve ee70b8becfb1645f had such a ray pass on a bounded LP (a real
// rate of 10⁻²⁴ against terms of 0.2). A degenerate step (θ = 0) is not
// looked through: at a degenerate vertex a pivot only changes the basis,
// and two of them led to such a ray (69eec9deb2e61ac4).
func (s *simplex) faintLook(depth int, budget *int, back int) (solver.Status, string, faintStep) {
	if s.faintRay() {
		return solver.Unbounded, "", noFaintStep
	}
	big, obj := 0.0, 0.0
	for v := range s.n + s.m {
		if s.st[v] != stBasic {
			big = math.Max(big, math.Abs(s.d[v]))
		}
	}
	for j := range s.n {
		obj += s.cost[j] * s.x[j]
	}
	k := s.k()
	// The duals, refined twice with accurate residuals into hi + lo
	// (refineY): a reduced cost of 10⁻¹⁷ against terms of 10⁻¹ can be
	// exact (FuzzSolve), and faintNoise of the terms would hide it.
	pHi, pLo := make([]float64, s.m), make([]float64, s.m)
	for _, i := range s.T {
		pHi[i] = s.d[s.n+i]
	}
	s.refineY(pHi, pLo, s.cost, pHi)
	s.refineY(pHi, pLo, s.cost, pLo)
	// off[i] bounds how far the float64 dual π_i is from the refined one,
	// its rounding included: a float64 reduced cost c_v − Σ a_iv·π_i is
	// then off by at most (k + 2)·u·|c_v| + Σ |a_iv|·off[i], and one of
	// the non-improving sign beyond twice that is left out (the design
	// LPs' optima, where the refinement moves π by rounding only).
	off := make([]float64, s.m)
	const u = 0x1p-53
	for _, i := range s.T {
		off[i] = math.Abs(pHi[i]+pLo[i]-s.d[s.n+i]) + float64(k+2)*u*math.Abs(pHi[i])
	}
	for v := range s.n + s.m {
		d := s.d[v]
		if s.st[v] == stBasic || s.isFixed(v) {
			continue
		}
		if s.st[v] != stZero {
			var bound float64
			if v < s.n {
				bound = float64(k+2) * u * math.Abs(s.cost[v])
				col := s.col(v)
				for _, i := range s.T {
					bound += math.Abs(col[i]) * off[i]
				}
			} else {
				bound = off[v-s.n] // a row's reduced cost is its dual
			}
			if s.st[v] == stLower && d > 2*bound || s.st[v] == stUpper && d < -2*bound {
				continue
			}
		}
		// The reduced cost again, from the refined duals, with its
		// rounding bounded: real beyond it and faintNoise of its terms,
		// or on a copy (reached through a reduced cost the tolerance
		// hid) rayNoise of them, the duals' own error after refinement.
		// (rayNoise at the first vertex called random bounded LPs
		// unbounded along rays of reduced costs of 10⁻¹⁸ whose
		// certificates passed.) Its sign, not the float64 one, decides
		// whether and which way v improves, wherever the float64 one is
		// within its error bound: the two may differ by far more than a
		// scaled tolerance (FuzzSolve
		// f078ef4a4ff7d736 and 8a52879ffeffcd5a: a column's 1.7·10⁻¹²,
		// exactly −1.5·10⁻¹⁷, tolerance 1.5·10⁻¹⁷, along the ray of the
		// unbounded LP).
		noise := faintNoise
		if depth < faintDepth {
			noise = rayNoise
		}
		rd, ok := s.refinedReducedCost(v, pHi, pLo, noise)
		// weak: real only beyond rayNoise of its terms at the vertex,
		// where faintNoise calls it round-off. On a small kernel such a
		// reduced cost may still open an unblocked ray, which the ray
		// built exactly then decides (FuzzSolve 6eb811e9abe5403f: a free
		// column's cost of 4.7·10⁻¹⁹, scaled, is its whole reduced cost,
		// the rest, of 10⁻⁴, cancelling exactly; the LP is unbounded);
		// it is not weighed for steps or looked through.
		weak := false
		if !ok && depth == faintDepth && k <= exactRayMax && s.src != nil {
			rd, weak = s.refinedReducedCost(v, pHi, pLo, rayNoise)
		}
		if !ok && !weak {
			continue
		}
		var dir float64
		switch {
		case s.st[v] == stLower && rd < 0:
			dir = 1
		case s.st[v] == stUpper && rd > 0:
			dir = -1
		case s.st[v] == stZero:
			dir = -math.Copysign(1, rd)
		default:
			continue
		}
		d = rd
		faintBlocked := false // the step ends where a faint rate (faintBlock) would block it
		leave := -1           // the variable the exact ray finds blocking (exactBlock)
		u := s.u[:k]
		s.ftran(v, u)
		s.rowActivityDirection(v, u, s.z)
		p, theta, pst := s.primalRatio(v, dir, u, s.z, false)
		if weak {
			if p == -1 && s.exactRayHolds(v, dir) {
				s.ray, s.rayEnter = s.primalRay(v, dir, u), v
				return solver.Unbounded, "", noFaintStep
			}
			continue
		}
		if p == -1 {
			if math.Abs(s.d[v]) > faintNoise*big || depth < faintDepth || s.exactRayHolds(v, dir) {
				s.ray, s.rayEnter = s.primalRay(v, dir, u), v
				return solver.Unbounded, "", noFaintStep // on a copy: NumericalFailure at its parent
			}
			// A reduced cost faintRay calls round-off: no ray is claimed
			// (the rescaled LPs had one of 10⁻¹⁷, real beyond its dot2
			// bound, on an unblocked ray of a bounded LP) unless the ray
			// built exactly proves it (exactRayHolds; FuzzSolve
			// 301c6227631396bf: a row's dual of −8.9·10⁻¹⁵ beside a
			// reduced cost of 10⁷, along the ray of the exactly
			// unbounded LP, was left as "optimal"), but a rate
			// within the pivot tolerance towards a bound (faintBlock)
			// bounds the step whose gain is weighed below (FuzzSolve
			// 2066a1174aec1f8d: a rate of 10⁻¹⁵, a step of 10²¹). On a
			// small kernel the ray built exactly tells which rate
			// blocks (exactBlock; faintBlock measures a rate against
			// the largest, and FuzzSolve 8104d2acb54a5663's exact rate
			// of 1.4·10⁻¹⁶ beside one of 0.14 passed for round-off).
			if b, th, bst, exact := s.exactBlock(v, dir); exact {
				if b < 0 {
					continue
				}
				p, theta, leave, pst = v, th, b, bst // p = v: no look-through
			} else {
				b := s.faintBlock(v, dir, u, s.z)
				if b < 0 {
					continue
				}
				r := s.rateOf(b, dir, u, s.z)
				dist := s.hi[b] - s.x[b]
				if r < 0 {
					dist = s.x[b] - s.lo[b]
				}
				p, theta = v, math.Max(dist, 0)/math.Abs(r) // p = v: no look-through
				faintBlocked = true
			}
		}
		if gain := math.Abs(d) * theta; gain > faintGap*math.Max(1, math.Abs(obj)) {
			step := noFaintStep
			if depth == faintDepth && !faintBlocked {
				step = faintStep{v: v, dir: dir, leave: leave, theta: theta, pst: pst}
			}
			return solver.NumericalFailure, fmt.Sprintf("optimal only if the reduced cost %.3g of variable %d is zero (tolerance %g): its step of %.3g would lower the objective by %.3g", d, v, s.tolDv[v], theta, gain), step
		}
		if depth == 0 || p == v || theta == 0 || *budget == 0 || v == back || depth == faintDepth && math.Abs(d) <= faintNoise*big {
			if depth == faintDepth && p != v && *budget > 0 && v != back && k <= exactRayMax && s.src != nil {
				// A degenerate step, or one along a reduced cost
				// faintRay calls round-off, is looked through only
				// where a ray it leads to is proven exactly
				// (exactRayHolds): then the pivot is taken (takeStep)
				// and the next faintCheck finds the ray (FuzzSolve
				// 5d9123eebd25ce0e and 6f91ba1866a892b0: a column's
				// reduced cost at the tolerance, 10⁻⁹, beside one of
				// 1.4·10⁵, whose ray starts a pivot away, degenerate or
				// after a step of 1; both LPs are unbounded).
				*budget--
				if c := s.pivotCopy(p, v, dir, theta, pst, u); c != nil {
					if st, _, _ := c.faintLook(depth-1, budget, p); st == solver.Unbounded && c.exactRayHolds(c.rayEnter, c.rayDirection()) {
						return solver.NumericalFailure, fmt.Sprintf("optimal only if the reduced cost %.3g of variable %d is zero (tolerance %g): a step of %.3g from the vertex, a ray falls without bound", d, v, s.tolDv[v], theta), faintStep{v: v, dir: dir, leave: p, theta: theta, pst: pst}
					}
				}
			}
			continue
		}
		*budget--
		c := s.pivotCopy(p, v, dir, theta, pst, u)
		if c == nil {
			continue
		}
		switch st, msg, _ := c.faintLook(depth-1, budget, p); st {
		case solver.Unbounded:
			return solver.NumericalFailure, fmt.Sprintf("optimal only if the reduced cost %.3g of variable %d is zero (tolerance %g): a step of %.3g from the vertex, a ray falls without bound", d, v, s.tolDv[v], theta), noFaintStep
		case solver.NumericalFailure:
			return st, msg, noFaintStep
		}
	}
	return solver.Optimal, "", noFaintStep
}

// pivotCopy returns a copy of s (clone) in which nonbasic variable v has
// moved by theta in direction dir (u = B⁻¹a_v on the kernel, s.z its row
// activities' direction) and replaced basic variable p, which sits at the
// bound pst; nil if the pivot or the refactorisation fails.
func (s *simplex) pivotCopy(p, v int, dir, theta float64, pst uint8, u []float64) *simplex {
	k := s.k()
	c := s.clone()
	cu := c.u[:k]
	copy(cu, u)
	copy(c.z, s.z)
	rho := c.rho[:k]
	if p >= s.n {
		c.leavingRow(p, rho)
	}
	c.step(v, dir*theta, cu, c.z)
	if c.pivot(p, v, pst, cu, rho) != nil || c.refresh() != nil {
		return nil
	}
	return c
}

// refinedReducedCost returns nonbasic variable v's reduced cost from the
// refined duals pHi + pLo (faintLook) and whether it is real: beyond its
// rounding and noise of its terms. A column's is c_v − Σ_T a_iv·π_i by
// dot2, its terms |c_v| and the |a_iv·π_i|. A row's is its dual π_i
// itself, π_T = Gᵀc_S, so its terms are the |G[l][t]·c_{S_l}|: judged
// against the largest reduced cost instead (faintNoise of it), a row's
// dual of 10⁻¹⁴ made of one cost of 10⁻¹² passed for round-off beside a
// column's 10⁷ on a scaled LP, and its step of 7·10¹⁸ lowered the
// objective by 10⁶ (FuzzSolve dda5fb683fad4697).
func (s *simplex) refinedReducedCost(v int, pHi, pLo []float64, noise float64) (float64, bool) {
	if v >= s.n {
		i := v - s.n
		t := s.posT[i]
		if t < 0 {
			return 0, false
		}
		terms := 0.0
		for l, j := range s.S {
			terms += math.Abs(s.gRow(l)[t] * s.cost[j])
		}
		rd := pHi[i] + pLo[i]
		return rd, math.Abs(rd) > noise*terms
	}
	var z dot2
	z.add(s.cost[v], 1)
	col := s.col(v)
	for _, i := range s.T {
		z.add(-col[i], pHi[i])
		z.add(-col[i], pLo[i])
	}
	rd, e := z.result()
	return rd, math.Abs(rd) > e+noise*z.abs
}

// maxFaintSteps bounds the steps a solve takes past optima that
// faintCheck declined (solveOnce).
const maxFaintSteps = 4

// takeStep moves nonbasic variable step.v in direction step.dir as far as
// the primal ratio test allows and pivots it into the basis (or flips it
// to its other bound), as the primal simplex would had the dual tolerance
// not hidden its reduced cost; then refactorises. It reports false, with
// s unchanged, if the ratio test finds no blocking variable (a ray, which
// faintCheck would have reported).
func (s *simplex) takeStep(step faintStep) bool {
	v, dir, k := step.v, step.dir, s.k()
	u := s.u[:k]
	s.ftran(v, u)
	s.rowActivityDirection(v, u, s.z)
	p, theta, pst := step.leave, step.theta, step.pst
	if p < 0 {
		p, theta, pst = s.primalRatio(v, dir, u, s.z, false)
	}
	switch p {
	case -1:
		return false
	case v: // bound flip
		s.step(v, dir*theta, u, s.z)
		if s.st[v] == stLower {
			s.st[v] = stUpper
		} else {
			s.st[v] = stLower
		}
		s.x[v] = s.boundValue(v, s.st[v])
	default:
		rho := s.rho[:k]
		if p >= s.n {
			s.leavingRow(p, rho)
		}
		s.step(v, dir*theta, u, s.z)
		if s.pivot(p, v, pst, u, rho) != nil {
			return true // iterate's clean-up refactorises (or fails)
		}
	}
	s.iter++
	return true
}

// clone returns a copy of s that pivots independently of it (faintLook);
// A's two dense copies, which no pivot changes, are shared.
func (s *simplex) clone() *simplex {
	c := *s
	for _, f := range []*[]float64{&c.cost, &c.orig, &c.lo, &c.hi, &c.loT, &c.hiT, &c.x, &c.d, &c.g, &c.tolDv, &c.unit, &c.dw, &c.farkas, &c.ray, &c.rho, &c.alpha, &c.u, &c.v, &c.w, &c.z} {
		*f = slices.Clone(*f)
	}
	c.st = slices.Clone(s.st)
	c.S, c.T = slices.Clone(s.S), slices.Clone(s.T)
	c.posS, c.posT = slices.Clone(s.posS), slices.Clone(s.posT)
	return &c
}
