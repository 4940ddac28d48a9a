package simplex

import (
	"fmt"
	"math"
	"slices"
)

// Basis algebra of the pure-Go backend, through the kernel inverse G = K⁻¹,
// K = A[T, S]. The basis matrix of the problem [A −I][x; r] = 0 is
// B = [A[:, S]  −I[:, R]] with R the rows whose activity is basic, so
//
//	B z = a  ⇔  z_S = G a_T,  z_R = A[R, S] z_S − a_R
//	row of B⁻¹ for basic column S[l]:  ρ_T = G[l, :]
//	row of B⁻¹ for basic row i ∉ T:    ρ_T = A[i, S] G,  ρ_i = −1.
//
// A pivot updates G in O(k²) as the kernel grows, shrinks or has a row or
// column replaced (pivot); refactor recomputes it from scratch by
// Gauss–Jordan elimination (gaussJordan) every refactorGap updates and at
// every clean-up round, and repairKernel makes a singular kernel regular
// by dropping its dependent basic columns.

// ftran sets u (len k) to the S-part of B⁻¹ a_q for an entering variable q.
func (s *simplex) ftran(q int, u []float64) {
	k := s.k()
	if q < s.n {
		w := s.w[:k]
		for t, i := range s.T {
			w[t] = s.a[q*s.m+i]
		}
		for l := range k {
			u[l] = dotN(s.gRow(l), w)
		}
		return
	}
	t := s.posT[q-s.n]
	for l := range k {
		u[l] = -s.g[l*s.cap+t]
	}
}

// leavingRow sets rho (len k) to the T-part of the row of B⁻¹ belonging to
// the basic variable p.
func (s *simplex) leavingRow(p int, rho []float64) {
	if p < s.n {
		copy(rho, s.gRow(s.posS[p]))
		return
	}
	clear(rho)
	row := s.row(p - s.n)
	for l, j := range s.S {
		if a := row[j]; a != 0 {
			axpy(rho, a, s.gRow(l))
		}
	}
}

// pivotRowStructural fills s.alpha[j] = (row of B⁻¹ for p)·a_j for every
// column j (basic columns included; callers skip them).
func (s *simplex) pivotRowStructural(p int, rho []float64) {
	alpha := s.alpha
	clear(alpha)
	// Eight rows at a time, as in rowActivityDirection.
	var r [8][]float64
	var a [8]float64
	nr := 0
	for t, i := range s.T {
		if rho[t] != 0 {
			r[nr], a[nr] = s.row(i), rho[t]
			if nr++; nr == 8 {
				axpy8(alpha, &a, &r)
				nr = 0
			}
		}
	}
	for t := range nr {
		axpy(alpha, a[t], r[t])
	}
	if p >= s.n {
		axpy(alpha, -1, s.row(p-s.n))
	}
}

// rowActivityDirection sets z (len m) to A[:, S] u − a_q (q a column) or
// A[:, S] u (q a row activity): the rate at which each row activity falls
// when q rises by one.
func (s *simplex) rowActivityDirection(q int, u []float64, z []float64) {
	clear(z)
	// Eight columns at a time (axpy8): the same sums in the same order as
	// one axpy per column, with an eighth of the loads and stores of z.
	var c [8][]float64
	var a [8]float64
	nc := 0
	for l, j := range s.S {
		if u[l] != 0 {
			c[nc], a[nc] = s.col(j), u[l]
			if nc++; nc == 8 {
				axpy8(z, &a, &c)
				nc = 0
			}
		}
	}
	for t := range nc {
		axpy(z, a[t], c[t])
	}
	if q < s.n {
		axpy(z, -1, s.col(q))
	}
}

// step moves the entering variable q by delta and the basic variables with
// it (u = B⁻¹a_q on S, z the row-activity direction from
// rowActivityDirection).
func (s *simplex) step(q int, delta float64, u, z []float64) {
	if delta == 0 {
		return
	}
	s.x[q] += delta
	for l, j := range s.S {
		s.x[j] -= delta * u[l]
	}
	for i := range s.m {
		if s.st[s.n+i] == stBasic {
			s.x[s.n+i] -= delta * z[i]
		}
	}
}

// pivot replaces basic variable p by nonbasic q; p becomes nonbasic with
// status pst and sits exactly at that bound. u = B⁻¹a_q on S (from ftran)
// and rho the leaving row from leavingRow. It updates G in O(k²) and
// refactorises periodically.
func (s *simplex) pivot(p, q int, pst uint8, u, rho []float64) error {
	k := s.k()
	switch {
	case p < s.n && q < s.n: // column replaces column
		l := s.posS[p]
		s.replaceColumn(l, u)
		s.S[l] = q
		s.posS[q], s.posS[p] = l, -1
	case p < s.n: // a row activity enters, a column leaves: kernel shrinks
		l, t := s.posS[p], s.posT[q-s.n]
		s.shrink(l, t)
		s.posS[p] = -1
		s.posT[q-s.n] = -1
		s.removeS(l)
		s.removeT(t)
	case q < s.n: // a column enters, a row activity leaves: kernel grows
		i := p - s.n
		sc := s.a[q*s.m+i] - dotN(s.rowOnS(i), u[:k])
		s.grow(u, rho, sc)
		s.posS[q] = k
		s.S = append(s.S, q)
		s.posT[i] = k
		s.T = append(s.T, i)
	default: // a row activity replaces another
		t := s.posT[q-s.n]
		s.replaceRow(t, rho)
		s.posT[q-s.n] = -1
		s.T[t] = p - s.n
		s.posT[p-s.n] = t
	}
	s.st[q] = stBasic
	s.st[p] = pst
	s.x[p] = s.boundValue(p, pst)
	s.updates++
	if s.updates >= refactorGap {
		return s.refresh()
	}
	return nil
}

// rowOnS gathers A[i, S] into s.v.
func (s *simplex) rowOnS(i int) []float64 {
	v := s.v[:s.k()]
	row := s.row(i)
	for l, j := range s.S {
		v[l] = row[j]
	}
	return v
}

// replaceColumn updates G when basic position l gets a column with
// u = G a_T (the pivot is u[l]).
func (s *simplex) replaceColumn(l int, u []float64) {
	k := s.k()
	gl := s.gRow(l)
	f := 1 / u[l]
	for t := range k {
		gl[t] *= f
	}
	for r := range k {
		if r == l || u[r] == 0 {
			continue
		}
		axpy(s.gRow(r), -u[r], gl)
	}
}

// replaceRow updates G when kernel row position t gets row i with
// v = A[i, S] G (the pivot is v[t]).
func (s *simplex) replaceRow(t int, v []float64) {
	k := s.k()
	f := 1 / v[t]
	w := s.w[:k]
	for b := range k {
		w[b] = v[b] * f
	}
	w[t] -= f // (v − e_t)/v_t
	for l := range k {
		gl := s.gRow(l)
		if c := gl[t]; c != 0 {
			axpy(gl, -c, w)
		}
	}
}

// grow borders K with a new row (A[i, S], giving v = A[i, S] G) and column
// (a_T, giving u = G a_T) with Schur complement sc = A[i, j] − A[i, S] u.
func (s *simplex) grow(u, v []float64, sc float64) {
	k := s.k()
	f := 1 / sc
	for l := range k {
		gl := s.g[l*s.cap : l*s.cap+k+1]
		if c := u[l] * f; c != 0 {
			axpy(gl[:k], c, v[:k])
		}
		gl[k] = -u[l] * f
	}
	gk := s.g[k*s.cap : k*s.cap+k+1]
	for t := range k {
		gk[t] = -v[t] * f
	}
	gk[k] = f
}

// shrink removes basic position l and kernel row position t from G
// (G' = G₋ₗ,₋ₜ − G₋ₗ,ₜ Gₗ,₋ₜ / Gₗₜ), then moves the last position into the
// holes.
func (s *simplex) shrink(l, t int) {
	k := s.k()
	gl := s.gRow(l)
	f := 1 / gl[t]
	for r := range k {
		if r == l {
			continue
		}
		gr := s.gRow(r)
		if c := gr[t] * f; c != 0 {
			axpy(gr, -c, gl)
		}
	}
	last := k - 1
	if l != last {
		copy(s.g[l*s.cap:l*s.cap+k], s.g[last*s.cap:last*s.cap+k])
	}
	if t != last {
		for r := range k {
			s.g[r*s.cap+t] = s.g[r*s.cap+last]
		}
	}
}

// removeS deletes basic position l by moving the last position into it.
func (s *simplex) removeS(l int) {
	last := len(s.S) - 1
	if l != last {
		s.S[l] = s.S[last]
		s.posS[s.S[l]] = l
	}
	s.S = s.S[:last]
}

// removeT deletes kernel row position t by moving the last position into it.
func (s *simplex) removeT(t int) {
	last := len(s.T) - 1
	if t != last {
		s.T[t] = s.T[last]
		s.posT[s.T[t]] = t
	}
	s.T = s.T[:last]
}

// isFixed reports whether v cannot move.
func (s *simplex) isFixed(v int) bool { return s.lo[v] == s.hi[v] }

// nearestBound returns the status of the bound of v closest to value x.
func (s *simplex) nearestBound(v int, x float64) uint8 {
	lf, hf := !math.IsInf(s.lo[v], -1), !math.IsInf(s.hi[v], 1)
	switch {
	case lf && hf:
		if math.Abs(x-s.lo[v]) <= math.Abs(x-s.hi[v]) {
			return stLower
		}
		return stUpper
	case lf:
		return stLower
	case hf:
		return stUpper
	}
	return stZero
}

// repairTol is the relative pivot below which repairKernel counts a basic
// column as dependent on the others: far above singularTol, so that the
// repaired kernel is well conditioned, not merely invertible.
const repairTol = 1e-9

// repairKernel makes a singular kernel regular by removing its dependent
// basic columns, each with a kernel row the remaining columns do not need:
// the column becomes nonbasic at its nearest bound and the row's activity
// basic. It eliminates K = A[T, S] column by column with partial pivoting
// over the rows not yet used; a column with no pivot above repairTol
// (relative to the kernel's largest entry) is dependent, and the rows left
// unused at the end are as many as the dependent columns. The rest of the
// basis stays, so the simplex resumes near where it was rather than from
// the slack basis. It reports whether the repaired kernel factorises.
func (s *simplex) repairKernel() bool {
	k := s.k()
	if k == 0 {
		return s.refactor() == nil
	}
	kk, scale := s.kernelMatrix() // kk[t*k+l] = A[T[t], S[l]]
	used := make([]bool, k)
	var depS []int
	for c := range k {
		p, best := -1, 0.0
		for r := range k {
			if !used[r] {
				if a := math.Abs(kk[r*k+c]); a > best {
					p, best = r, a
				}
			}
		}
		if p < 0 || best <= repairTol*max(scale, 1e-300) {
			depS = append(depS, s.S[c])
			continue
		}
		used[p] = true
		f := 1 / kk[p*k+c]
		for r := range k {
			if used[r] {
				continue
			}
			if g := kk[r*k+c] * f; g != 0 {
				for q := c; q < k; q++ {
					kk[r*k+q] -= g * kk[p*k+q]
				}
			}
		}
	}
	var depT []int
	for t, u := range used {
		if !u {
			depT = append(depT, s.T[t])
		}
	}
	for _, j := range depS {
		s.st[j] = s.nearestBound(j, s.x[j])
		s.posS[j] = -1
	}
	for _, i := range depT {
		s.st[s.n+i] = stBasic
		s.posT[i] = -1
	}
	s.S = slices.DeleteFunc(s.S, func(j int) bool { return s.posS[j] < 0 })
	s.T = slices.DeleteFunc(s.T, func(i int) bool { return s.posT[i] < 0 })
	for l, j := range s.S {
		s.posS[j] = l
	}
	for t, i := range s.T {
		s.posT[i] = t
	}
	return s.refactor() == nil
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
