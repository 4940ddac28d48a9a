package simplex

import (
	"errors"
	"math"

	"github.com/featmap/featmap/solver"
)

// The rounds of a solve (run, iterate): from a warm basis or the slack
// basis, refactorise the kernel and recompute x, the duals and the reduced
// costs from scratch (refresh), measure both infeasibilities, and run the
// dual simplex (from a dual feasible basis, or on shifted costs) or the
// primal simplex (with phase 1 when the basis is primal infeasible), until
// a round starts optimal or a simplex ends in a verdict. A kernel that
// became singular is repaired (repairKernel) or the basis restarts from
// slack. solution returns the result in package solver's conventions.

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
