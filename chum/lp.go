package chum

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/vtrig"
	"github.com/featmap/featmap/solver"
)

// fitSet is a sampled fitting problem in n ≥ 1 dimensions: evaluation
// points z_i (flattened, n coordinates each), weights w_i and signature
// values k_i, the functional form of the terms and the norm to minimise.
// A term with frequency ω contributes α·φ(ω, z) with φ = cos(ω·z) (Fourier,
// the projection form in n-D) or Π_c cos(ω_c z_c) (Modulation).
type fitSet struct {
	n    int
	form fmap.Form
	z    []float64
	w, k []float64
	norm fmap.Norm
	// nonneg keeps frequencies nonnegative: 1-D Fourier maps (cos is even)
	// and modulation terms (each factor is).
	nonneg bool
}

// newFitSet samples sig on the points z with the weights w.
func newFitSet(form fmap.Form, norm fmap.Norm, z [][]float64, w []float64, sig func([]float64) float64) *fitSet {
	n := 1
	if len(z) > 0 {
		n = len(z[0])
	}
	f := &fitSet{n: n, form: form, z: make([]float64, 0, n*len(z)), w: w, k: make([]float64, len(z)), norm: norm}
	f.nonneg = form == fmap.Modulation || n == 1
	for i, p := range z {
		f.z = append(f.z, p...)
		f.k[i] = sig(p)
	}
	return f
}

func (f *fitSet) size() int { return len(f.w) }

func (f *fitSet) point(i int) []float64 { return f.z[i*f.n : (i+1)*f.n] }

// phiGrad returns φ(ω, z) and stores ∂φ/∂ω_c in g (if g is not nil).
func (f *fitSet) phiGrad(om, z, g []float64) float64 {
	if f.form == fmap.Modulation {
		p := 1.0
		for c, w := range om {
			if w != 0 {
				p *= math.Cos(w * z[c])
			}
		}
		if g != nil {
			for c, w := range om {
				g[c] = 0
				if w == 0 {
					continue
				}
				q := -z[c] * math.Sin(w*z[c])
				for d, v := range om {
					if d != c && v != 0 {
						q *= math.Cos(v * z[d])
					}
				}
				g[c] = q
			}
		}
		return p
	}
	ph := 0.0
	for c, w := range om {
		ph += w * z[c]
	}
	if g == nil {
		return math.Cos(ph)
	}
	// math.Sincos gives math.Sin's and math.Cos's values (the same
	// reduction and polynomials) for about 60 % of their time.
	s, co := math.Sincos(ph)
	for c := range om {
		g[c] = -z[c] * s
	}
	return co
}

// phiGrads sets phi[i] = φ(ω, z_i) and grad[i·n:(i+1)·n] = ∂φ/∂ω at every
// point, bit for bit as phiGrad does, with the cosines and sines of
// vtrig.Sincos (math.Sincos's bits, a batch at a time); a 1-D Fourier
// term without phiGrad's loops (its sum 0 + ωz is ωz, or +0 for −0: the
// same sine and cosine).
func (f *fitSet) phiGrads(om, phi, grad []float64) {
	if f.n != 1 || f.form != fmap.FourierForm {
		if f.n > trigChunk {
			for i := range phi {
				phi[i] = f.phiGrad(om, f.point(i), grad[i*f.n:(i+1)*f.n])
			}
			return
		}
		var sn, cs [trigChunk]float64
		for i0 := 0; i0 < len(phi); i0 += trigChunk / f.n {
			m := min(len(phi)-i0, trigChunk/f.n)
			f.trig(om, i0, m, sn[:], cs[:])
			f.phiBlock(om, m, cs[:], phi[i0:i0+m])
			f.gradBlock(om, i0, m, sn[:], cs[:], grad[i0*f.n:(i0+m)*f.n])
		}
		return
	}
	w := om[0]
	phi, grad = phi[:len(f.z)], grad[:len(f.z)]
	for i, z := range f.z {
		ph := w * z
		if ph == 0 {
			ph = 0
		}
		phi[i] = ph
	}
	vtrig.Sincos(grad, phi, phi)
	for i, z := range f.z {
		grad[i] = -z * grad[i]
	}
}

// trigChunk is the size of the arrays on the stack in which phiGrads and
// phis take the cosines and sines of a block of points at once: in n
// dimensions, trigChunk/n points.
const trigChunk = 256

// trig computes the cosines (and, if sn is not nil, the sines) that φ(ω, ·)
// and ∂φ/∂ω take at the m points i0 ≤ i < i0 + m, for phiBlock and
// gradBlock: for a
// modulation term cos(ω_c z_ic) at cs[c·m + i − i0] for each c with
// ω_c ≠ 0, for a Fourier term cos(ω·z_i) at cs[i − i0] (ω·z summed as
// phiGrad sums it); the sines at the same places in sn. n·m ≤ len(cs).
func (f *fitSet) trig(om []float64, i0, m int, sn, cs []float64) {
	n := f.n
	if f.form == fmap.Modulation {
		for c, w := range om {
			if w == 0 {
				continue
			}
			x := cs[c*m : (c+1)*m]
			for k := range x {
				x[k] = w * f.z[(i0+k)*n+c]
			}
			if sn == nil {
				vtrig.Cos(x, x)
			} else {
				vtrig.Sincos(sn[c*m:(c+1)*m], x, x)
			}
		}
		return
	}
	x := cs[:m]
	for k := range x {
		z := f.point(i0 + k)
		ph := 0.0
		for c, w := range om {
			ph += w * z[c]
		}
		x[k] = ph
	}
	if sn == nil {
		vtrig.Cos(x, x)
	} else {
		vtrig.Sincos(sn[:m], x, x)
	}
}

// phiBlock sets phi[k] = φ(ω, z_i), i = i0 + k, for the block of m points
// from i0 whose cosines trig computed: phiGrad's products, 1·Π cos(ω_c z_ic)
// over the c with ω_c ≠ 0 in that order (a modulation term), or cos(ω·z_i)
// (a Fourier term), so the same bits. It takes the block a coordinate at a
// time, every point's product in the same order as phiGrad's.
func (f *fitSet) phiBlock(om []float64, m int, cs, phi []float64) {
	phi = phi[:m]
	if f.form != fmap.Modulation {
		copy(phi, cs[:m])
		return
	}
	for k := range phi {
		phi[k] = 1
	}
	for c, w := range om {
		if w != 0 {
			x := cs[c*m : (c+1)*m]
			for k := range phi {
				phi[k] *= x[k]
			}
		}
	}
}

// gradBlock sets g[k·n + c] = ∂φ/∂ω_c at z_i, i = i0 + k, for the block of
// m points from i0 whose cosines and sines trig computed: phiGrad's
// −z_c·sin(ω_c z_c)·Π_{d≠c} cos(ω_d z_d) in its order (a modulation term;
// 0 for ω_c = 0), or −z_c·sin(ω·z) (a Fourier term), a coordinate at a
// time.
func (f *fitSet) gradBlock(om []float64, i0, m int, sn, cs, g []float64) {
	n := f.n
	z := f.z[i0*n : (i0+m)*n]
	g = g[:m*n]
	if f.form != fmap.Modulation {
		for c := range om {
			for k, s := range sn[:m] {
				g[k*n+c] = -z[k*n+c] * s
			}
		}
		return
	}
	for c, w := range om {
		if w == 0 {
			for k := range m {
				g[k*n+c] = 0
			}
			continue
		}
		for k, s := range sn[c*m : (c+1)*m] {
			g[k*n+c] = -z[k*n+c] * s
		}
		for d, v := range om {
			if d != c && v != 0 {
				for k, x := range cs[d*m : (d+1)*m] {
					g[k*n+c] *= x
				}
			}
		}
	}
}

// phis sets phi[i] = φ(ω, z_i) for the points i0 ≤ i < i0 + len(phi), bit
// for bit phiGrad's (as phiGrads, without the gradient).
func (f *fitSet) phis(om []float64, i0 int, phi []float64) {
	if f.n > trigChunk {
		for k := range phi {
			phi[k] = f.phiGrad(om, f.point(i0+k), nil)
		}
		return
	}
	var cs [trigChunk]float64
	step := trigChunk / f.n
	for b := 0; b < len(phi); b += step {
		m := min(len(phi)-b, step)
		f.trig(om, i0+b, m, nil, cs[:])
		f.phiBlock(om, m, cs[:], phi[b:b+m])
	}
}

// movable lists the coordinates of ω that the continuous refinement and the
// polish may move: all of a nonzero Fourier frequency, the nonzero ones of
// a modulation term (a zero factor stays 1, keeping D fixed).
func (f *fitSet) movable(om []float64) []int {
	var mv []int
	zero := isZero(om)
	for c, w := range om {
		if f.form == fmap.Modulation && w == 0 || f.form == fmap.FourierForm && zero {
			continue
		}
		mv = append(mv, c)
	}
	return mv
}

func isZero(om []float64) bool {
	for _, w := range om {
		if w != 0 {
			return false
		}
	}
	return true
}

// termDims is D_ω: 1 for ω = 0 and 2 otherwise for Fourier terms (Chum eq.
// 3), 2^{#nonzero ω_c} for modulation terms (§6.2).
func (f *fitSet) termDims(om []float64) int {
	return fmap.TermDim(f.form, om)
}

// residuals sets r_i = w_i (k_i − Σ_j α_j φ(ω_j, z_i)), the sum over j in
// order for each point, with the cosines of vtrig (math.Cos's bits) taken
// a term and a block of points at a time.
func (f *fitSet) residuals(r []float64, omega [][]float64, alpha []float64) {
	var buf [trigChunk]float64
	for i0 := 0; i0 < len(r); i0 += trigChunk {
		rr := r[i0:min(len(r), i0+trigChunk)]
		copy(rr, f.k[i0:])
		for j, a := range alpha {
			if a == 0 {
				continue
			}
			phi := buf[:len(rr)]
			if f.n == 1 && f.form == fmap.FourierForm {
				// φ = cos(ω z), without phiGrad's loops (its 0 + ωz is
				// ωz, or +0 for −0, whose cosine is the same).
				w := omega[j][0]
				for k, z := range f.z[i0 : i0+len(rr)] {
					phi[k] = w * z
				}
				vtrig.Cos(phi, phi)
			} else {
				f.phis(omega[j], i0, phi)
			}
			for k, p := range phi {
				rr[k] -= a * p
			}
		}
		for k := range rr {
			rr[k] = f.w[i0+k] * rr[k]
		}
	}
}

// polishTrig holds cos(ω_j z_i) and sin(ω_j z_i) of a 1-D Fourier iterate
// at every point, for the terms of nonzero weight (known[j]): the trial
// point's residuals compute them (residualsTrig) and, once the step is
// accepted, the polish's columns take them instead of computing them again.
type polishTrig struct {
	cos, sin [][]float64
	known    []bool
}

// residualsTrig is residuals for a 1-D Fourier set that also records
// cos(ω_j z_i) and sin(ω_j z_i) of the terms of nonzero weight in t. Its
// residuals are residuals' bit for bit: vtrig.Sincos gives math.Sincos's
// values, whose cosine is math.Cos's (the same reduction and polynomial),
// and the sum runs in the same order.
func (f *fitSet) residualsTrig(r []float64, omega [][]float64, alpha []float64, t *polishTrig) {
	nz := len(r)
	t.known = slices.Grow(t.known[:0], len(alpha))[:len(alpha)]
	for len(t.cos) < len(alpha) {
		t.cos, t.sin = append(t.cos, nil), append(t.sin, nil)
	}
	for j, a := range alpha {
		t.known[j] = a != 0
		if a != 0 {
			t.cos[j], t.sin[j] = grow(t.cos[j], nz), grow(t.sin[j], nz)
		}
	}
	for j, a := range alpha {
		if a == 0 {
			continue
		}
		// phiGrads' argument: ωz, or +0 for −0 (whose cosine is the same;
		// its sine is the +0 phiGrads takes).
		w, c := omega[j][0], t.cos[j][:nz]
		for i, z := range f.z[:nz] {
			ph := w * z
			if ph == 0 {
				ph = 0
			}
			c[i] = ph
		}
		vtrig.Sincos(t.sin[j][:nz], c, c)
	}
	// r_i = k_i − Σ_j α_j cos(ω_j z_i), the terms in order for each point,
	// taken a term at a time over all points.
	copy(r, f.k[:nz])
	for j, a := range alpha {
		if a != 0 {
			for i, c := range t.cos[j][:nz] {
				r[i] -= a * c
			}
		}
	}
	for i := range r {
		r[i] = f.w[i] * r[i]
	}
}

// objective is the weighted error of (ω, α) on the set in the set's norm.
func (f *fitSet) objective(omega [][]float64, alpha []float64) float64 {
	r := make([]float64, f.size())
	f.residuals(r, omega, alpha)
	return f.normOf(r)
}

func (f *fitSet) normOf(r []float64) float64 {
	v := 0.0
	for _, e := range r {
		if f.norm == fmap.L1 {
			v += math.Abs(e)
		} else {
			v = maxAbs(v, e)
		}
	}
	return v
}

// maxAbs is math.Max(m, |x|) for m ≥ 0 or NaN. math.Max is a call to an
// assembly routine on amd64, the better part of the loops over points that
// take a maximum; this one inlines (the built-in max would too, but where
// a NaN meets +Inf it gives NaN, math.Max +Inf).
func maxAbs(m, x float64) float64 {
	a := math.Abs(x)
	switch {
	case a > m:
		return a
	case a <= m:
		return m
	case m > math.MaxFloat64 || a > math.MaxFloat64:
		return math.Inf(1) // a NaN beside +Inf: math.Max's +Inf
	}
	return a + m // a NaN
}

// lpOutput is one solution of Chum's LP over a pool.
type lpOutput struct {
	omega    [][]float64 // per pool entry, moved by β/α
	alpha    []float64
	dims     int     // D of the (untruncated) output
	tradeoff float64 // γ of the LP
	warm     *pairWarm
	// score is the objective of the output truncated to the target
	// dimension (+Inf if nothing is left).
	score float64
}

// lpSolver builds and solves the design LPs of one fitting set.
type lpSolver struct {
	ctx context.Context
	fit *fitSet
	sv  solver.Backend
	n   int // LPs solved
	// The LP being built and its row bounds, whose slices the next one
	// reuses (the solver keeps nothing of a problem once solved).
	p      solver.Problem
	lo, hi []float64
	// refineLarge is FitProblem.RefineLarge: the continuous refinement's
	// LPs are priced by dual Devex from the first pivot, start warm from
	// shifted costs, and their outputs' weights below refineAlphaFloor of
	// the sum count as 0.
	refineLarge bool
}

// grow returns b resliced to length n, or a new slice if b is too short;
// its contents are the caller's to set.
func grow(b []float64, n int) []float64 {
	if cap(b) < n {
		return make([]float64, n)
	}
	return b[:n]
}

// pairLP is a fitting LP. For every point i it has the two rows
//
//	(+) e_i + Σ_j v_ji x_j ≥ r_i,   (−) e_i − Σ_j v_ji x_j ≥ −r_i,
//
// that is |r_i − Σ_j v_ji x_j| ≤ e_i, where e_i is one epigraph variable t
// shared by all points (L∞) or a variable of its own (L1), each with cost
// errCost; the columns x_j have costs, bounds and values v_j at the points.
type pairLP struct {
	r            []float64
	errCost      float64
	cost, lo, hi []float64
	v            [][]float64
	// initial, if set, lists the points an L∞ row generation starts from.
	initial []int
	// devex asks the solver for dual Devex pricing (solver.Options.Devex),
	// from the first pivot with devexFromStart; shifted for a shifted
	// start (solver.Options.ShiftedStart).
	devex, devexFromStart, shifted bool
}

func (lp *pairLP) add(cost, lo, hi float64, v []float64) {
	lp.cost = append(lp.cost, cost)
	lp.lo = append(lp.lo, lo)
	lp.hi = append(lp.hi, hi)
	lp.v = append(lp.v, v)
}

// pairWarm is what a solved L∞ pair LP leaves for a warm start of the next
// one with the same columns: the points its last LP had and its basis.
type pairWarm struct {
	rows  []int
	basis *solver.Basis
}

// Row generation: an L∞ fit has few active points (about one per
// parameter), so the LP starts from a sample of the points and adds every
// point the solution violates, re-solving warm from the previous basis
// (the dual simplex absorbs the new rows in a few pivots), until none is
// violated. The result is the optimum of the full LP.
const (
	rowGenMin    = 200 // below this many points the full LP is solved at once
	rowGenStart  = 8   // start from every rowGenStart-th point
	rowGenMaxAdd = 400 // points added per round at most
	rowGenRounds = 50
	rowGenRelTol = 1e-9
	rowGenAbsTol = 1e-13
)

// solvePairs solves the LP and returns the column values x (error variables
// excluded), the optimal error t (L∞) and a warm start for the next LP.
func (s *lpSolver) solvePairs(lp *pairLP, warm *pairWarm) ([]float64, float64, *pairWarm, error) {
	np := len(lp.r)
	l1 := s.fit.norm == fmap.L1
	if l1 || np <= rowGenMin {
		all := make([]int, np)
		for i := range all {
			all[i] = i
		}
		var w *solver.Basis
		if warm != nil && len(warm.rows) == np {
			w = warm.basis
		}
		x, t, sol, err := s.solveRows(lp, all, w)
		if err != nil {
			return nil, 0, nil, err
		}
		return x, t, &pairWarm{rows: all, basis: sol.Basis}, nil
	}
	var rows []int
	var basis *solver.Basis
	switch {
	case warm != nil:
		rows, basis = slices.Clone(warm.rows), warm.basis
	case lp.initial != nil:
		rows = slices.Clone(lp.initial)
	default:
		rows = sampleRows(np)
	}
	in := make([]bool, np)
	for _, i := range rows {
		in[i] = true
	}
	res := make([]float64, np)
	for round := 0; ; round++ {
		x, t, sol, err := s.solveRows(lp, rows, basis)
		if err != nil {
			return nil, 0, nil, err
		}
		// Residuals of the solution at every point.
		copy(res, lp.r)
		for j, xj := range x {
			if xj != 0 {
				for i, v := range lp.v[j] {
					res[i] -= v * xj
				}
			}
		}
		tol := rowGenRelTol*math.Max(t, 0) + rowGenAbsTol
		var add []int
		for i, e := range res {
			if !in[i] && math.Abs(e) > t+tol {
				add = append(add, i)
			}
		}
		if len(add) == 0 {
			return x, t, &pairWarm{rows: rows, basis: sol.Basis}, nil
		}
		if round == rowGenRounds {
			return nil, 0, nil, fmt.Errorf("design: row generation did not settle after %d rounds (%d of %d points)", round, len(rows), np)
		}
		slices.SortFunc(add, func(a, b int) int { return cmp.Compare(math.Abs(res[b]), math.Abs(res[a])) })
		if len(add) > rowGenMaxAdd {
			add = add[:rowGenMaxAdd]
		}
		// The new points' rows enter basic (their slacks absorb the
		// violation the dual simplex then removes).
		basis = sol.Basis.Clone()
		for _, i := range add {
			in[i] = true
			rows = append(rows, i)
			basis.Rows = append(basis.Rows, solver.Basic, solver.Basic)
		}
	}
}

// sampleRows is the default start of a row generation over np points:
// every rowGenStart-th point and the last.
func sampleRows(np int) []int {
	var rows []int
	for i := 0; i < np; i += rowGenStart {
		rows = append(rows, i)
	}
	if rows[len(rows)-1] != np-1 {
		rows = append(rows, np-1)
	}
	return rows
}

// solveRows builds the LP on the given points (in that order) and solves
// it; it returns x, the error bound t (L∞; 0 for L1) and the solution.
func (s *lpSolver) solveRows(lp *pairLP, rows []int, warm *solver.Basis) ([]float64, float64, *solver.Solution, error) {
	m := 2 * len(rows)
	lo, hi := grow(s.lo, m), grow(s.hi, m)
	s.lo, s.hi = lo, hi
	for k, i := range rows {
		lo[2*k], lo[2*k+1] = lp.r[i], -lp.r[i]
		hi[2*k], hi[2*k+1] = math.Inf(1), math.Inf(1)
	}
	// The columns go straight into the problem's compressed form: for
	// each point the pair of rows (+) and (−), each entry that is not 0
	// (as solver.Builder would store them).
	l1 := s.fit.norm == fmap.L1
	nerr := 1
	if l1 {
		nerr = len(rows)
	}
	p := &s.p
	p.NumRows, p.RowLower, p.RowUpper = m, lo, hi
	p.Obj, p.ColLower, p.ColUpper = p.Obj[:0], p.ColLower[:0], p.ColUpper[:0]
	p.ColStart = append(p.ColStart[:0], 0)
	idx := slices.Grow(p.RowIndex[:0], 2*m+m*len(lp.cost))
	val := slices.Grow(p.Value[:0], 2*m+m*len(lp.cost))
	endColumn := func(c, lo, hi float64) {
		p.Obj, p.ColLower, p.ColUpper = append(p.Obj, c), append(p.ColLower, lo), append(p.ColUpper, hi)
		p.ColStart = append(p.ColStart, len(idx))
	}
	if l1 {
		for k := range rows {
			idx, val = append(idx, 2*k, 2*k+1), append(val, 1, 1)
			endColumn(lp.errCost, 0, math.Inf(1))
		}
	} else {
		for k := range m {
			idx, val = append(idx, k), append(val, 1)
		}
		endColumn(lp.errCost, 0, math.Inf(1))
	}
	// A column far smaller than the largest (the frequency of a term of
	// tiny frequency or weight in the polish) is scaled up to it, x_j =
	// scale_j·x'_j, so that the simplex does not mistake it for zero.
	big := 0.0
	scale := make([]float64, len(lp.v))
	for j, v := range lp.v {
		for _, i := range rows {
			scale[j] = maxAbs(scale[j], v[i])
		}
		big = maxAbs(big, scale[j])
	}
	for j, v := range lp.v {
		sc := 1.0
		if scale[j] > 0 && scale[j] < tinyColumn*big {
			sc = big / scale[j]
		}
		scale[j] = sc
		for k, i := range rows {
			if e := sc * v[i]; e != 0 {
				idx, val = append(idx, 2*k, 2*k+1), append(val, e, -sc*v[i])
			}
		}
		endColumn(sc*lp.cost[j], lp.lo[j]/sc, lp.hi[j]/sc)
	}
	p.RowIndex, p.Value = idx, val
	sol, err := s.solve(p, warm, lp)
	if err != nil {
		return nil, 0, nil, err
	}
	t := 0.0
	if !l1 {
		t = sol.X[0]
	}
	x := sol.X[nerr:]
	for j := range x {
		x[j] *= scale[j]
	}
	return x, t, sol, nil
}

// tinyColumn is the size below which, relative to the largest column, a
// design LP's column is scaled up.
const tinyColumn = 1e-4

// newPairLP starts an LP with residual offsets r.
func newPairLP(r []float64, errCost float64) *pairLP {
	return &pairLP{r: r, errCost: errCost}
}

// weightedSignature returns w_i k_i, the residual offsets of a fitting LP.
func (s *lpSolver) weightedSignature() []float64 {
	r := make([]float64, s.fit.size())
	for i := range r {
		r[i] = s.fit.w[i] * s.fit.k[i]
	}
	return r
}

// corners returns the 2^len(mv) sign vectors over the movable coordinates.
func corners(mv []int) [][]float64 {
	out := [][]float64{nil}
	for range mv {
		var next [][]float64
		for _, c := range out {
			next = append(next, append(slices.Clone(c), 1), append(slices.Clone(c), -1))
		}
		out = next
	}
	return out
}

// chumLP is Chum's LP over a pool for one trust region d_max, all but its
// tradeoff γ: the γ search solves it at many γ, and its columns, which
// take a cosine (and a sine) per pool frequency and point, are made once.
type chumLP struct {
	pool [][]float64
	dmax float64
	lp   *pairLP
	refs []chumRef
}

// chumRef says which frequency a column of a chumLP belongs to.
type chumRef struct {
	j  int
	mv []int
	s  []float64 // corner signs; nil for a fixed frequency
}

// chumColumns builds Chum's LP over a pool: min Σ D_ω α_ω + γ·C(k, k̂).
// With dmax > 0 every movable frequency coordinate may move within ±dmax
// through the first-order term (Chum eq. 12), in the cone encoding of
// docs/lp-design.md: the trust-region box |β_c| ≤ dmax·α is the cone spanned
// by its corners, so each frequency gets one nonnegative column per corner
// s, φ(ω, z) + dmax Σ_c s_c ∂φ/∂ω_c(ω, z), with α = Σ_s p_s,
// β = dmax Σ_s s·p_s, and the frequency moves to ω + β/α.
func (s *lpSolver) chumColumns(pool [][]float64, dmax float64) *chumLP {
	f := s.fit
	nz := f.size()
	cl := &chumLP{pool: pool, dmax: dmax, lp: newPairLP(s.weightedSignature(), 0)}
	// RefineLarge: dual Devex from the first pivot, and a warm start on
	// the moved pool (the previous output's basis) from shifted costs.
	large := s.refineLarge && dmax > 0
	cl.lp.devex, cl.lp.devexFromStart, cl.lp.shifted = large, large, large
	phi := make([]float64, nz)
	grad := make([]float64, nz*f.n)
	for j, om := range pool {
		f.phiGrads(om, phi, grad)
		cost := float64(f.termDims(om))
		mv := f.movable(om)
		if dmax == 0 || len(mv) == 0 {
			v := make([]float64, nz)
			for i := range nz {
				v[i] = f.w[i] * phi[i]
			}
			cl.lp.add(cost, 0, math.Inf(1), v)
			cl.refs = append(cl.refs, chumRef{j: j})
			continue
		}
		for _, sg := range corners(mv) {
			v := make([]float64, nz)
			for i := range nz {
				d := 0.0
				gi := grad[i*f.n : (i+1)*f.n]
				for k, c := range mv {
					d += sg[k] * gi[c]
				}
				v[i] = f.w[i] * (phi[i] + dmax*d)
			}
			cl.lp.add(cost, 0, math.Inf(1), v)
			cl.refs = append(cl.refs, chumRef{j: j, mv: mv, s: sg})
		}
	}
	return cl
}

// solveChum solves the LP cl at the tradeoff γ. initial, if set, returns
// the points a row generation without a warm start begins with, given the
// LP's number of columns.
func (s *lpSolver) solveChum(cl *chumLP, gamma float64, warm *pairWarm, initial func(cols int) []int) (*lpOutput, error) {
	f := s.fit
	pool, dmax, refs := cl.pool, cl.dmax, cl.refs
	lp := *cl.lp // γ is the only difference
	lp.errCost = gamma
	if warm != nil && len(warm.basis.Cols) != len(lp.cost)+1 {
		warm = nil
	}
	if warm == nil && initial != nil {
		lp.initial = initial(len(lp.cost) + 1)
	}
	x, _, w, err := s.solvePairs(&lp, warm)
	if err != nil {
		return nil, err
	}
	out := &lpOutput{omega: make([][]float64, len(pool)), alpha: make([]float64, len(pool)), tradeoff: gamma, warm: w}
	beta := make([][]float64, len(pool))
	for j := range pool {
		out.omega[j] = slices.Clone(pool[j])
		beta[j] = make([]float64, f.n)
	}
	for c, r := range refs {
		xc := math.Max(x[c], 0)
		out.alpha[r.j] += xc
		for k, cc := range r.mv {
			beta[r.j][cc] += r.s[k] * dmax * xc
		}
	}
	floor := alphaFloor
	if s.refineLarge && dmax > 0 {
		sum := 0.0
		for _, a := range out.alpha {
			sum += a
		}
		floor = math.Max(floor, refineAlphaFloor*sum)
	}
	for j, a := range out.alpha {
		if a <= floor {
			out.alpha[j] = 0
			continue
		}
		for c := range out.omega[j] {
			out.omega[j][c] += beta[j][c] / a
			if f.nonneg {
				out.omega[j][c] = math.Abs(out.omega[j][c])
			}
		}
		out.dims += f.termDims(out.omega[j])
	}
	return out, nil
}

// alphaFloor is the weight below which an LP output's frequency counts as
// unused.
const alphaFloor = 1e-12

// refineAlphaFloor is, relative to the sum of the weights, the weight below
// which a refinement LP's output frequency counts as unused when
// FitProblem.RefineLarge is set: the solver's tolerances are 1e-9, and
// weights of 1e-11 to 1e-10 that one pricing's vertex holds and another's
// does not (measured on plain Proj's LPs, objectives equal to 4e-12) would
// otherwise each add a term to D(γ) and steer the γ search.
const refineAlphaFloor = 1e-9

// refit solves the pure fitting LP on a fixed support: min C(k, k̂) over
// α ≥ 0 (a Chebyshev fit for L∞), the frequencies unchanged.
func (s *lpSolver) refit(omega [][]float64) ([]float64, error) {
	f := s.fit
	nz := f.size()
	lp := newPairLP(s.weightedSignature(), 1)
	for _, om := range omega {
		v := make([]float64, nz)
		f.phis(om, 0, v)
		for i := range nz {
			v[i] = f.w[i] * v[i]
		}
		lp.add(0, 0, math.Inf(1), v)
	}
	x, _, _, err := s.solvePairs(lp, nil)
	if err != nil {
		return nil, err
	}
	alpha := make([]float64, len(omega))
	for j := range omega {
		alpha[j] = math.Max(x[j], 0)
	}
	return alpha, nil
}

// solve runs one LP (with the pricing and start lp asks for) and insists
// on a verified optimum.
func (s *lpSolver) solve(p *solver.Problem, warm *solver.Basis, lp *pairLP) (*solver.Solution, error) {
	if err := s.ctx.Err(); err != nil {
		return nil, err
	}
	s.n++
	// A design LP takes a small multiple of rows + columns pivots; one that
	// takes far more is hopeless for this design and better given up early.
	maxIter := 10*(p.NumRows+p.NumCols()) + 2000
	o := solver.Options{WarmStart: warm, MaxIterations: maxIter, Context: s.ctx, Devex: lp.devex, DevexFromStart: lp.devexFromStart, ShiftedStart: lp.shifted}
	sol, err := s.sv.Solve(p, o)
	if err != nil {
		return nil, err
	}
	if sol.Status != solver.Optimal && warm != nil {
		// A warm start can lead the simplex astray where a cold one does
		// not: try once more from scratch.
		s.n++
		o.WarmStart = nil
		if sol, err = s.sv.Solve(p, o); err != nil {
			return nil, err
		}
	}
	if sol.Status != solver.Optimal {
		return nil, fmt.Errorf("design: %s LP (%d×%d) ended %v: %s", s.sv.Name(), p.NumRows, p.NumCols(), sol.Status, sol.Message)
	}
	return sol, nil
}
