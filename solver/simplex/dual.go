package simplex

import (
	"math"

	"github.com/featmap/featmap/solver"
)

// The bounded dual simplex: from a dual feasible basis, the leaving
// variable is the basic variable of largest bound violation (Dantzig's
// rule, chooseLeaving) or, once a solve runs long and Options.Devex asks
// for it, by dual Devex weights (chooseLeavingDevex); the entering one
// comes from a two-pass Harris ratio test on the pivot row (dualRatio).
// It runs on costs perturbed away from dual degeneracy
// (perturbedDualSimplex), which the next round's clean-up removes
// (iterate.go).

// perturbationScale is the relative size of the cost perturbation that
// keeps the dual simplex out of dual degeneracy.
const perturbationScale = 1e-7

// devexAfter is when, in pivots per row and column, the dual simplex
// switches from Dantzig pricing of the leaving row to dual Devex (see
// chooseLeaving): Devex takes fewer pivots on LPs of many near-parallel
// columns, where Dantzig's largest violation keeps choosing rows whose
// pivots make little progress, and more on the 1-D design LPs. Measured
// (pivots, cold solve): 2-D Proj ⊗ refinement LPs of 832, 1632 and 2432
// rows × 242 columns (solver/testdata/proj2d), Dantzig 4209 / 18335 / 41149,
// Devex from the start 1709 / 3300 / 3898, switching after 1·(m+n) 1809 /
// 3705 / 5630; χ² 1110×102 (solver/testdata/lp) Dantzig 123, Devex 218; RBF
// 632×402 Dantzig 464, Devex ended in a singular kernel after 6816. Those
// 1-D LPs finish well before 1·(m+n) pivots, so they keep Dantzig.
const devexAfter = 1

// perturbedDualSimplex runs the dual simplex on slightly perturbed costs and
// restores the true costs afterwards. Zero reduced costs (every column of a
// pure feasibility or trust-region LP has cost 0) make every dual step
// degenerate, so the plain dual simplex can stall or cycle; moving each
// nonbasic column's cost away from zero in its dual feasible direction by a
// tiny, deterministic, column-dependent amount breaks the ties. The caller's
// clean-up round re-prices with the true costs and lets the primal simplex
// remove the few dual infeasibilities the perturbation leaves.
func (s *simplex) perturbedDualSimplex() (solver.Status, error) {
	scale := 0.0
	for _, c := range s.orig[:s.n] {
		scale = max(scale, math.Abs(c))
	}
	if scale == 0 {
		scale = 1
	}
	for j := range s.n {
		if s.st[j] == stBasic || s.isFixed(j) || s.st[j] == stZero {
			continue
		}
		// A deterministic pseudo-random factor in [0.5, 1).
		f := 0.5 + 0.5*math.Mod(float64(j+1)*0.6180339887498949, 1)
		delta := perturbationScale * f * (scale + math.Abs(s.orig[j]))
		// After a kernel repair (s.shift) a dual infeasible reduced cost is
		// shifted to feasible first; otherwise the dual simplex starts dual
		// feasible.
		switch {
		case s.st[j] == stUpper:
			delta = -delta
			if s.shift {
				delta -= max(s.d[j], 0)
			}
		case s.shift:
			delta += max(-s.d[j], 0)
		}
		s.cost[j] = s.orig[j] + delta
		s.d[j] += delta
	}
	if s.shiftRows {
		// A shifted start: the kernel rows' wrong-signed reduced costs are
		// shifted to a small feasible value the same way.
		for _, i := range s.T {
			v := s.n + i
			e := s.dualViolation(v)
			if e == 0 {
				continue
			}
			f := 0.5 + 0.5*math.Mod(float64(v+1)*0.6180339887498949, 1)
			delta := e + perturbationScale*f*scale
			switch s.st[v] {
			case stUpper:
				delta = -delta
			case stZero:
				delta = -s.d[v] // free: 0 is its only feasible reduced cost
			}
			s.cost[v] += delta
			s.d[v] += delta
		}
	}
	st, err := s.dualSimplex()
	copy(s.cost, s.orig)
	return st, err
}

// dualSimplex runs the bounded dual simplex from a dual feasible basis until
// the basis is primal feasible (Optimal), the dual is unbounded
// (Infeasible) or the iteration limit is reached.
func (s *simplex) dualSimplex() (solver.Status, error) {
	s.devex = false
	start := s.iter
	for {
		if !s.devex && !s.noDevex && (s.devexNow || s.iter-start >= devexAfter*(s.m+s.n)) {
			s.devex = true
			if s.dw == nil {
				s.dw = make([]float64, s.n+s.m)
			}
			for v := range s.dw {
				s.dw[v] = 1
			}
		}
		if s.halt() {
			return solver.IterationLimit, nil
		}
		p, delta := s.chooseLeaving()
		if p < 0 {
			return solver.Optimal, nil
		}
		k := s.k()
		rho := s.rho[:k]
		s.leavingRow(p, rho)
		s.pivotRowStructural(p, rho)
		// x_p below its lower bound leaves to it (its reduced cost becomes
		// +θ); above its upper bound, to that (−θ). The reduced costs move by
		// θ·sign·α.
		sign := 1.0
		pst := stLower
		if delta > 0 {
			sign, pst = -1, stUpper
		}
		q, thetaD := s.dualRatio(rho, sign)
		if q < 0 {
			if s.updates > 0 {
				// Perhaps only the updated inverse says so: refactorise and
				// price again before concluding.
				if err := s.refresh(); err != nil {
					return solver.NumericalFailure, err
				}
				continue
			}
			return solver.Infeasible, nil
		}
		alphaRow := s.pivotElement(q, rho)
		u := s.u[:k]
		s.ftran(q, u)
		z := s.z
		s.rowActivityDirection(q, u, z)
		alphaCol := s.columnElement(p, u, z)
		if math.Abs(alphaRow-alphaCol) > 1e-8*(1+math.Abs(alphaCol)) && s.updates > 0 {
			// The updated inverse has drifted: refactorise and price again.
			if err := s.refresh(); err != nil {
				return solver.NumericalFailure, err
			}
			continue
		}
		if s.devex {
			s.devexUpdate(p, q, alphaCol, u, z)
		}
		s.step(q, delta/alphaCol, u, z)
		// Dual update.
		for j := range s.n {
			if s.st[j] != stBasic {
				s.d[j] += thetaD * sign * s.alpha[j]
			}
		}
		for t, i := range s.T {
			s.d[s.n+i] -= thetaD * sign * rho[t]
		}
		s.d[q] = 0
		s.d[p] = sign * thetaD
		if err := s.pivot(p, q, pst, u, rho); err != nil {
			return solver.NumericalFailure, err
		}
		s.iter++
	}
}

// chooseLeaving returns the basic variable with the largest bound violation
// (Dantzig's rule: on the 1-D design LPs it took fewer pivots than dual
// steepest edge, e.g. 123 against 207 on a χ² design LP and 464 against 485
// on an RBF one) and its signed violation x − bound, or −1 if the basis is
// primal feasible. Once a dual simplex has run devexAfter·(m+n) pivots it
// prices by dual Devex instead (chooseLeavingDevex).
func (s *simplex) chooseLeaving() (int, float64) {
	if s.devex {
		return s.chooseLeavingDevex()
	}
	best, p := 0.0, -1
	for _, j := range s.S {
		if x := s.x[j]; x < s.loT[j] && s.lo[j]-x > best {
			best, p = s.lo[j]-x, j
		} else if x > s.hiT[j] && x-s.hi[j] > best {
			best, p = x-s.hi[j], j
		}
	}
	n := s.n
	x, loT, hiT, lo, hi, st := s.x[n:], s.loT[n:], s.hiT[n:], s.lo[n:], s.hi[n:], s.st[n:]
	for i := range x {
		if xi := x[i]; xi < loT[i] {
			if e := lo[i] - xi; e > best && st[i] == stBasic {
				best, p = e, n+i
			}
		} else if xi > hiT[i] {
			if e := xi - hi[i]; e > best && st[i] == stBasic {
				best, p = e, n+i
			}
		}
	}
	if p < 0 {
		return -1, 0
	}
	if s.x[p] < s.lo[p] {
		return p, s.x[p] - s.lo[p]
	}
	return p, s.x[p] - s.hi[p]
}

// pivotElement is α_q of the pivot row for nonbasic q: s.alpha[q] for a
// column, −ρ_t for the activity of kernel row t.
func (s *simplex) pivotElement(q int, rho []float64) float64 {
	if q < s.n {
		return s.alpha[q]
	}
	return -rho[s.posT[q-s.n]]
}

// columnElement is the entry of B⁻¹a_q at basic variable p.
func (s *simplex) columnElement(p int, u, z []float64) float64 {
	if p < s.n {
		return u[s.posS[p]]
	}
	return z[p-s.n]
}

// dualRatio is the two-pass Harris ratio test of the dual simplex: the
// reduced costs move by θ·sign·α; it returns the entering variable (−1 if
// none blocks: the dual is unbounded) and the dual step θ ≥ 0.
func (s *simplex) dualRatio(rho []float64, sign float64) (int, float64) {
	// ratio returns the step at which v's reduced cost reaches zero, the
	// Harris-relaxed step, and whether v can block at all.
	ratio := func(v int, a float64) (r, relaxed float64, ok bool) {
		if s.isFixed(v) {
			return 0, 0, false
		}
		d := s.d[v]
		switch s.st[v] {
		case stLower:
			if a < -pivotTol {
				return max(d, 0) / -a, (d + s.tolDv[v]) / -a, true
			}
		case stUpper:
			if a > pivotTol {
				return max(-d, 0) / a, (-d + s.tolDv[v]) / a, true
			}
		case stZero:
			if math.Abs(a) > pivotTol {
				return math.Abs(d) / math.Abs(a), (math.Abs(d) + s.tolDv[v]) / math.Abs(a), true
			}
		}
		return 0, 0, false
	}
	bound := math.Inf(1)
	for j := range s.n {
		if s.st[j] != stBasic {
			if _, rel, ok := ratio(j, sign*s.alpha[j]); ok && max(rel, 0) < bound {
				bound = max(rel, 0)
			}
		}
	}
	for t, i := range s.T {
		if _, rel, ok := ratio(s.n+i, -sign*rho[t]); ok && max(rel, 0) < bound {
			bound = max(rel, 0)
		}
	}
	if math.IsInf(bound, 1) {
		return -1, 0
	}
	q, theta, best := -1, 0.0, 0.0
	pick := func(v int, a float64) {
		if r, _, ok := ratio(v, a); ok && r <= bound && math.Abs(a) > best {
			q, theta, best = v, r, math.Abs(a)
		}
	}
	for j := range s.n {
		if s.st[j] != stBasic {
			pick(j, sign*s.alpha[j])
		}
	}
	for t, i := range s.T {
		pick(s.n+i, -sign*rho[t])
	}
	return q, theta
}

// devexUpdate updates the dual Devex reference weights for the pivot in
// which q enters in place of p: α = B⁻¹a_q is u on S and z on the basic row
// activities, α_p = alphaCol.
func (s *simplex) devexUpdate(p, q int, alphaCol float64, u, z []float64) {
	wp := s.dw[p]
	for l, j := range s.S {
		if r := u[l] / alphaCol; r != 0 {
			s.dw[j] = math.Max(s.dw[j], r*r*wp)
		}
	}
	n := s.n
	for i, zi := range z {
		if zi != 0 && s.st[n+i] == stBasic {
			r := zi / alphaCol
			s.dw[n+i] = math.Max(s.dw[n+i], r*r*wp)
		}
	}
	s.dw[q] = max(wp/(alphaCol*alphaCol), 1)
}

// chooseLeavingDevex is chooseLeaving with dual Devex pricing: the largest
// violation² / weight.
func (s *simplex) chooseLeavingDevex() (int, float64) {
	best, p := 0.0, -1
	for _, j := range s.S {
		if x := s.x[j]; x < s.loT[j] {
			if e := s.lo[j] - x; e*e > best*s.dw[j] {
				best, p = e*e/s.dw[j], j
			}
		} else if x > s.hiT[j] {
			if e := x - s.hi[j]; e*e > best*s.dw[j] {
				best, p = e*e/s.dw[j], j
			}
		}
	}
	n := s.n
	x, loT, hiT, lo, hi, st, dw := s.x[n:], s.loT[n:], s.hiT[n:], s.lo[n:], s.hi[n:], s.st[n:], s.dw[n:]
	for i := range x {
		if xi := x[i]; xi < loT[i] {
			if e := lo[i] - xi; st[i] == stBasic && e*e > best*dw[i] {
				best, p = e*e/dw[i], n+i
			}
		} else if xi > hiT[i] {
			if e := xi - hi[i]; st[i] == stBasic && e*e > best*dw[i] {
				best, p = e*e/dw[i], n+i
			}
		}
	}
	if p < 0 {
		return -1, 0
	}
	if s.x[p] < s.lo[p] {
		return p, s.x[p] - s.lo[p]
	}
	return p, s.x[p] - s.hi[p]
}
