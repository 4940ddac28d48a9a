package chum

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/solver"
	_ "github.com/featmap/featmap/solver/backends" // the backends the design's LPs are solved by: purego (the default) and, with -tags clp, clp
)

// backend returns the LP backend s names, from the solver registry ("" the
// default): an unknown name is an error naming the backends there are.
func backend(s design.Settings) (solver.Backend, error) {
	return solver.Get(s.Solver)
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
			return nil, 0, nil, fmt.Errorf("chum: row generation did not settle after %d rounds (%d of %d points)", round, len(rows), np)
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
		return nil, fmt.Errorf("chum: %s LP (%d×%d) ended %v: %s", s.sv.Name(), p.NumRows, p.NumCols(), sol.Status, sol.Message)
	}
	return sol, nil
}
