//go:build clp

package clp

/*
#cgo pkg-config: clp
#include <stdlib.h>
#include "Clp_C_Interface.h"
*/
import "C"

import (
	"errors"
	"fmt"
	"math"
	"unsafe"

	"github.com/featmap/featmap/solver"
)

func init() { solver.Register(clpBackend{}) }

// clpBackend is a thin binding to COIN-OR CLP's dual simplex. Every Solve
// creates and deletes its own ClpSimplex model, so the backend is safe for
// concurrent use.
type clpBackend struct{}

func (clpBackend) Name() string { return "clp" }

// CLP's basis status codes (ClpSimplex::Status). Column and row statuses use
// the same, natural convention: for a row, clpAtLower means the row activity
// A_i x sits at RowLower[i] (measured in clp_test.go, TestCLPRowStatusConvention;
// OSI's CoinWarmStartBasis inverts it for artificials, ClpSimplex does not).
const (
	clpFree       = 0 // nonbasic free variable (value 0)
	clpBasic      = 1
	clpAtUpper    = 2
	clpAtLower    = 3
	clpSuperBasic = 4 // nonbasic, between its bounds (not produced by the dual)
	clpFixed      = 5 // fixed (lower = upper), nonbasic
)

// CLP's secondary status (ClpModel::secondaryStatus in CLP 1.17):
//
//	0 none
//	1 primal infeasible because the dual limit was reached, or (with main
//	  status 4) probably infeasible but not proven
//	2 scaled problem optimal, unscaled problem has primal infeasibilities
//	3 scaled problem optimal, unscaled problem has dual infeasibilities
//	4 scaled problem optimal, unscaled problem has primal and dual infeasibilities
//	5 giving up in primal with flagged variables
//	6 "empty problem check": the matrix had no elements and the problem
//	  went to a trivial routine, not the simplex
//	7 postsolve says not optimal
//	8 failed the bad-element check
//	9 status was 3 (limit) and it stopped on time
//	10 status was 3 (limit) but stopped because primal feasible
//	100+ an event handler's code
//
// On a main status 0 every nonzero secondary status is treated as a
// numerical failure. (Status 6 cannot occur: problems without matrix
// entries never reach CLP.)

// clpInf replaces ±Inf in bounds: CLP treats ±COIN_DBL_MAX (its
// getInfinity) as infinite.
const clpInf = math.MaxFloat64

func clpBound(v float64) C.double {
	switch {
	case math.IsInf(v, 1):
		return C.double(clpInf)
	case math.IsInf(v, -1):
		return C.double(-clpInf)
	}
	return C.double(v)
}

func clpDoubles(v []float64) []C.double {
	out := make([]C.double, len(v))
	for i, x := range v {
		out[i] = clpBound(x)
	}
	return out
}

// ptr returns a pointer to the first element of s, or nil for an empty slice.
func ptr[T any](s []T) *T {
	if len(s) == 0 {
		return nil
	}
	return &s[0]
}

func (clpBackend) Solve(p *solver.Problem, o solver.Options) (*solver.Solution, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	if o.Context != nil && o.Context.Err() != nil {
		return nil, o.Context.Err()
	}
	o = o.WithDefaults(p)
	n, m := p.NumCols(), p.NumRows
	if len(p.RowIndex) > math.MaxInt32 || n > math.MaxInt32 || m > math.MaxInt32 {
		return nil, errors.New("solver: clp: problem too large for CLP's 32-bit indices")
	}
	warm := o.WarmStart
	if warm != nil && (len(warm.Cols) != n || len(warm.Rows) != m) {
		warm = nil // a basis of another shape is ignored, as purego does
	}
	r := clpReduce(p, o)
	if r.infeasibleRow >= 0 {
		sol := r.expand(p, &solver.Solution{Status: solver.Infeasible})
		sol.Message = fmt.Sprintf("clp: row %d has no entries and bounds [%g, %g]",
			r.infeasibleRow, p.RowLower[r.infeasibleRow], p.RowUpper[r.infeasibleRow])
		return solver.Finish(p, o, sol), nil
	}
	var core *solver.Solution
	if r.q.NumRows == 0 || r.q.NumCols() == 0 {
		core = &solver.Solution{Status: solver.Optimal, X: []float64{}, RowDual: []float64{}, ColDual: []float64{},
			Basis: &solver.Basis{Cols: []solver.VarStatus{}, Rows: []solver.VarStatus{}}}
	} else {
		if warm != nil {
			warm = r.reduceBasis(warm)
		}
		core = clpSolveCore(r.q, o, warm)
	}
	return solver.Finish(p, o, r.expand(p, core)), nil
}

// clpSolveCore solves p, which has at least one row and one column and no
// empty row or column, with CLP's dual simplex. It fills in the status, x,
// duals, basis and iteration count; the caller maps them back and calls
// Finish.
func clpSolveCore(p *solver.Problem, o solver.Options, warm *solver.Basis) *solver.Solution {
	n, m := p.NumCols(), p.NumRows
	start := make([]C.CoinBigIndex, n+1)
	for j, s := range p.ColStart {
		start[j] = C.CoinBigIndex(s)
	}
	index := make([]C.int, len(p.RowIndex))
	for k, r := range p.RowIndex {
		index[k] = C.int(r)
	}
	value := make([]C.double, len(p.Value))
	for k, v := range p.Value {
		value[k] = C.double(v)
	}
	colLo, colHi := clpDoubles(p.ColLower), clpDoubles(p.ColUpper)
	rowLo, rowHi := clpDoubles(p.RowLower), clpDoubles(p.RowUpper)
	obj := make([]C.double, n)
	for j, c := range p.Obj {
		obj[j] = C.double(c)
	}

	newModel := func() unsafe.Pointer {
		model := C.Clp_newModel()
		C.Clp_setLogLevel(model, 0)
		C.Clp_loadProblem(model, C.int(n), C.int(m), ptr(start), ptr(index), ptr(value),
			ptr(colLo), ptr(colHi), ptr(obj), ptr(rowLo), ptr(rowHi))
		// CLP's automatic scaling returns wrong "optimal" answers on the
		// design LPs (docs/lp-design.md): always off.
		C.Clp_scaling(model, 0)
		// CLP accepts any tolerance in (0, 1e10) and otherwise keeps its
		// default (1e-7). It uses its tolerances as room: a final basis may
		// violate rows by almost the whole primal tolerance, which on the
		// design LPs (duals summing to γ ≈ 10³) moves the objective by ~1e-7
		// relative. So it works at clpTolFactor times the acceptance
		// tolerances of Options, and Finish still judges X by
		// Options.FeasibilityTol itself.
		C.Clp_setPrimalTolerance(model, C.double(clpWorkingTol(o.FeasibilityTol)))
		C.Clp_setDualTolerance(model, C.double(clpWorkingTol(o.OptimalityTol)))
		C.Clp_setMaximumIterations(model, C.int(min(o.MaxIterations, math.MaxInt32)))
		return model
	}
	model := newModel()
	defer func() { C.Clp_deleteModel(model) }()
	if warm != nil {
		st := make([]C.uchar, n+m)
		for j, s := range warm.Cols {
			st[j] = C.uchar(clpStatusIn(s, p.ColLower[j], p.ColUpper[j]))
		}
		for i, s := range warm.Rows {
			st[n+i] = C.uchar(clpStatusIn(s, p.RowLower[i], p.RowUpper[i]))
		}
		C.Clp_copyinStatus(model, (*C.uchar)(unsafe.Pointer(&st[0])))
	}

	C.Clp_dual(model, 0)
	iterations := int(C.Clp_numberIterations(model))
	remaining := func() C.int { return C.int(max(1, min(o.MaxIterations-iterations, math.MaxInt32))) }
	if C.Clp_status(model) == 1 {
		// CLP 1.17's dual simplex can call a feasible problem infeasible
		// (met with free zero-cost columns: testdata/regress/
		// clp-dual-false-infeasible.json, or a feasible and unbounded one:
		// clp-dual-false-infeasible.unbounded.json). A cold primal simplex
		// on a fresh model checks the verdict; its "optimal" (whose x Finish
		// verifies) or "unbounded" (declared only once phase 1 has found a
		// feasible point) overrides it. (Continuing with the primal from
		// where the dual stopped can end in CLP's status 4 on infeasible
		// LPs.)
		alt := newModel()
		C.Clp_setMaximumIterations(alt, remaining())
		C.Clp_primal(alt, 0)
		iterations += int(C.Clp_numberIterations(alt))
		if st := C.Clp_status(alt); st == 0 || st == 2 {
			model, alt = alt, model
		}
		C.Clp_deleteModel(alt)
	}
	if C.Clp_status(model) == 0 && clpRepairFakeBounds(model, p, o) {
		// The dual simplex parks variables with an infinite bound at a
		// "fake" bound (±1e10) and may stop there when their reduced cost
		// is zero: an optimal but non-basic point with huge entries. Move
		// them to a real bound (or zero) and let the primal simplex restore
		// feasibility from that basis.
		C.Clp_setMaximumIterations(model, remaining())
		C.Clp_primal(model, 0)
		iterations += int(C.Clp_numberIterations(model))
	}

	status, secondary := int(C.Clp_status(model)), int(C.Clp_secondaryStatus(model))
	sol := &solver.Solution{Iterations: iterations}
	switch status {
	case 0:
		sol.Status = solver.Optimal
		if secondary != 0 {
			sol.Status = solver.NumericalFailure
			sol.Message = fmt.Sprintf("clp: optimal with secondary status %d", secondary)
		}
	case 1:
		sol.Status = solver.Infeasible
	case 2:
		sol.Status = solver.Unbounded
	case 3:
		sol.Status = solver.IterationLimit
		sol.Message = fmt.Sprintf("clp: stopped after %d iterations (secondary status %d)", sol.Iterations, secondary)
	default:
		sol.Status = solver.NumericalFailure
		sol.Message = fmt.Sprintf("clp: status %d, secondary status %d", status, secondary)
	}

	sol.X = clpCopy(C.Clp_getColSolution(model), n)
	sol.ColDual = clpCopy(C.Clp_getReducedCost(model), n)
	sol.RowDual = clpCopy(C.Clp_getRowPrice(model), m)
	if C.Clp_statusExists(model) != 0 {
		st := unsafe.Slice(C.Clp_statusArray(model), n+m)
		rowAct := clpCopy(C.Clp_getRowActivity(model), m)
		b := &solver.Basis{Cols: make([]solver.VarStatus, n), Rows: make([]solver.VarStatus, m)}
		for j := range b.Cols {
			b.Cols[j] = clpStatusOut(int(st[j]&7), p.ColLower[j], p.ColUpper[j], sol.X[j])
		}
		for i := range b.Rows {
			b.Rows[i] = clpStatusOut(int(st[n+i]&7), p.RowLower[i], p.RowUpper[i], rowAct[i])
		}
		sol.Basis = b
	}
	return sol
}

// clpTolFactor scales Options' tolerances to CLP's working tolerances;
// clpMinTol is the smallest working tolerance passed (below it CLP's own
// rounding dominates).
const (
	clpTolFactor = 0.01
	clpMinTol    = 1e-13
)

func clpWorkingTol(tol float64) float64 { return max(tol*clpTolFactor, clpMinTol) }

// clpCopy copies k doubles from CLP's array (nil for k = 0 is fine).
func clpCopy(a *C.double, k int) []float64 {
	out := make([]float64, k)
	if k == 0 || a == nil {
		return out
	}
	for i, v := range unsafe.Slice(a, k) {
		out[i] = float64(v)
	}
	return out
}

// clpStatusIn maps a VarStatus to CLP's code for a variable with bounds
// [lo, hi], repairing statuses that name an infinite bound (a basis from
// another problem or backend may).
func clpStatusIn(s solver.VarStatus, lo, hi float64) int {
	loFin, hiFin := !math.IsInf(lo, -1), !math.IsInf(hi, 1)
	switch {
	case s == solver.Basic:
		return clpBasic
	case s == solver.AtUpper && hiFin:
		return clpAtUpper
	case loFin:
		if lo == hi {
			return clpFixed
		}
		return clpAtLower
	case hiFin:
		return clpAtUpper
	}
	return clpFree
}

// clpStatusOut maps CLP's status code of a variable with bounds [lo, hi] and
// value v to a VarStatus.
func clpStatusOut(st int, lo, hi, v float64) solver.VarStatus {
	switch st {
	case clpBasic:
		return solver.Basic
	case clpAtUpper:
		return solver.AtUpper
	case clpAtLower, clpFixed:
		return solver.AtLower
	}
	// Free or superbasic: name the nearest finite bound, if any.
	loFin, hiFin := !math.IsInf(lo, -1), !math.IsInf(hi, 1)
	switch {
	case loFin && hiFin:
		if math.Abs(v-hi) < math.Abs(v-lo) {
			return solver.AtUpper
		}
		return solver.AtLower
	case loFin:
		return solver.AtLower
	case hiFin:
		return solver.AtUpper
	}
	return solver.AtZero
}

// clpRepairFakeBounds finds nonbasic variables that are not at the bound
// their status names (or at zero, when free) and gives each a status and
// value on a real bound: the finite bound nearest to its value, or zero when
// it has none. It reports whether it changed anything.
func clpRepairFakeBounds(model unsafe.Pointer, p *solver.Problem, o solver.Options) bool {
	n, m := p.NumCols(), p.NumRows
	if n+m == 0 || C.Clp_statusExists(model) == 0 {
		return false
	}
	st := unsafe.Slice(C.Clp_statusArray(model), n+m)
	var x, r []C.double
	if n > 0 {
		x = unsafe.Slice(C.Clp_primalColumnSolution(model), n)
	}
	if m > 0 {
		r = unsafe.Slice(C.Clp_primalRowSolution(model), m)
	}
	changed := false
	fix := func(k int, v *C.double, lo, hi float64) {
		s := int(st[k] & 7)
		if s == clpBasic {
			return
		}
		want := 0.0
		switch s {
		case clpAtLower, clpFixed:
			want = lo
		case clpAtUpper:
			want = hi
		}
		val := float64(*v)
		if !math.IsInf(want, 0) && math.Abs(val-want) <= o.FeasibilityTol*math.Max(1, math.Abs(want)) {
			return
		}
		ns, nv := clpFree, 0.0
		loFin, hiFin := !math.IsInf(lo, -1), !math.IsInf(hi, 1)
		switch {
		case loFin && (!hiFin || math.Abs(val-lo) <= math.Abs(val-hi)):
			ns, nv = clpAtLower, lo
		case hiFin:
			ns, nv = clpAtUpper, hi
		}
		st[k] = C.uchar(ns)
		*v = C.double(nv)
		changed = true
	}
	for j := 0; j < n; j++ {
		fix(j, &x[j], p.ColLower[j], p.ColUpper[j])
	}
	for i := 0; i < m; i++ {
		fix(n+i, &r[i], p.RowLower[i], p.RowUpper[i])
	}
	return changed
}

// clpReduced is p without the parts that need no simplex: free rows (both
// bounds infinite) and rows without nonzero entries are dropped, then every
// column without a nonzero entry in a kept row. Those pieces separate: a
// dropped row has dual 0 and is basic (an empty one is infeasible unless its
// bounds contain 0), and a dropped column sits at the bound its cost
// prefers, with reduced cost c_j, or makes the problem unbounded (if the
// rest is feasible) when the cost points at an infinite bound. CLP never
// sees such rows and columns: its dual simplex has aborted the process (a
// failed assertion in ClpSimplexDual::dualColumn0, testdata/regress/
// clp-abort-empty-column.unbounded.json) and misreported statuses on them,
// and on a problem without entries it runs an "empty problem" routine
// (secondary status 6) that answers status 4 when a row is infeasible and a
// column unbounded at once.
type clpReduced struct {
	q             *solver.Problem
	rows, cols    []int // kept rows and columns of p, in order
	sepX          []float64
	sepStatus     []solver.VarStatus
	unbounded     int // a dropped column whose cost points at an infinite bound, or −1
	infeasibleRow int // a dropped row whose bounds exclude 0, or −1
}

func clpReduce(p *solver.Problem, o solver.Options) *clpReduced {
	n, m := p.NumCols(), p.NumRows
	r := &clpReduced{sepX: make([]float64, n), sepStatus: make([]solver.VarStatus, n), unbounded: -1, infeasibleRow: -1}
	entries := make([]int, m)
	for k, i := range p.RowIndex {
		if p.Value[k] != 0 {
			entries[i]++
		}
	}
	newRow := make([]int, m)
	for i := 0; i < m; i++ {
		newRow[i] = -1
		free := math.IsInf(p.RowLower[i], -1) && math.IsInf(p.RowUpper[i], 1)
		switch {
		case free:
		case entries[i] == 0:
			if _, rel := solver.Violation(p.RowLower[i], p.RowUpper[i], 0); rel > o.FeasibilityTol && r.infeasibleRow < 0 {
				r.infeasibleRow = i
			}
		default:
			newRow[i] = len(r.rows)
			r.rows = append(r.rows, i)
		}
	}
	if len(r.rows) == m && r.infeasibleRow < 0 {
		// Fast path: every row stays; if every column has an entry and A
		// stores no explicit zero, p itself is the reduced problem.
		whole := true
		for j := 0; j < n && whole; j++ {
			whole = p.ColStart[j+1] > p.ColStart[j]
		}
		for _, v := range p.Value {
			whole = whole && v != 0
		}
		if whole {
			r.q = p
			r.cols = make([]int, n)
			for j := range r.cols {
				r.cols[j] = j
			}
			return r
		}
	}
	rowLo, rowHi := make([]float64, len(r.rows)), make([]float64, len(r.rows))
	for k, i := range r.rows {
		rowLo[k], rowHi[k] = p.RowLower[i], p.RowUpper[i]
	}
	b := solver.NewBuilder(rowLo, rowHi)
	var idx []int
	var val []float64
	for j := 0; j < n; j++ {
		idx, val = idx[:0], val[:0]
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			if ni := newRow[p.RowIndex[k]]; ni >= 0 && p.Value[k] != 0 {
				idx = append(idx, ni)
				val = append(val, p.Value[k])
			}
		}
		if len(idx) > 0 {
			r.cols = append(r.cols, j)
			b.AddColumn(p.Obj[j], p.ColLower[j], p.ColUpper[j], idx, val)
			continue
		}
		var unb bool
		r.sepX[j], r.sepStatus[j], unb = separableColumn(p.Obj[j], p.ColLower[j], p.ColUpper[j])
		if unb && r.unbounded < 0 {
			r.unbounded = j
		}
	}
	r.q = b.Problem()
	return r
}

// separableColumn minimises c·x over [lo, hi]: the preferred bound (lower
// for c = 0 when finite), or 0 for a free zero-cost column. unbounded
// reports a cost that points at an infinite bound; x is then the finite
// bound, if any.
func separableColumn(c, lo, hi float64) (x float64, st solver.VarStatus, unbounded bool) {
	loFin, hiFin := !math.IsInf(lo, -1), !math.IsInf(hi, 1)
	unbounded = c > 0 && !loFin || c < 0 && !hiFin
	switch {
	case hiFin && (c < 0 || !loFin):
		return hi, solver.AtUpper, unbounded
	case loFin:
		return lo, solver.AtLower, unbounded
	}
	return 0, solver.AtZero, unbounded
}

// reduceBasis restricts a basis of p to the kept rows and columns.
func (r *clpReduced) reduceBasis(b *solver.Basis) *solver.Basis {
	out := &solver.Basis{Cols: make([]solver.VarStatus, len(r.cols)), Rows: make([]solver.VarStatus, len(r.rows))}
	for k, j := range r.cols {
		out.Cols[k] = b.Cols[j]
	}
	for k, i := range r.rows {
		out.Rows[k] = b.Rows[i]
	}
	return out
}

// expand maps a solution of the reduced problem back to p, filling in the
// dropped rows and columns, and settles the status: a dropped unbounded
// column makes a feasible problem unbounded.
func (r *clpReduced) expand(p *solver.Problem, core *solver.Solution) *solver.Solution {
	m := p.NumRows
	sol := &solver.Solution{Status: core.Status, Message: core.Message, Iterations: core.Iterations}
	sol.X = append([]float64(nil), r.sepX...)
	sol.ColDual = append([]float64(nil), p.Obj...)
	sol.RowDual = make([]float64, m)
	if len(core.X) == len(r.cols) {
		for k, j := range r.cols {
			sol.X[j] = core.X[k]
		}
	}
	if len(core.ColDual) == len(r.cols) {
		for k, j := range r.cols {
			sol.ColDual[j] = core.ColDual[k]
		}
	}
	if len(core.RowDual) == len(r.rows) {
		for k, i := range r.rows {
			sol.RowDual[i] = core.RowDual[k]
		}
	}
	if core.Basis != nil {
		sol.Basis = &solver.Basis{Cols: append([]solver.VarStatus(nil), r.sepStatus...), Rows: make([]solver.VarStatus, m)}
		for k, j := range r.cols {
			sol.Basis.Cols[j] = core.Basis.Cols[k]
		}
		for k, i := range r.rows {
			sol.Basis.Rows[i] = core.Basis.Rows[k]
		}
	}
	if sol.Status == solver.Optimal && r.unbounded >= 0 {
		j := r.unbounded
		sol.Status = solver.Unbounded
		sol.Message = fmt.Sprintf("clp: column %d has no entries, cost %g and bounds [%g, %g]", j, p.Obj[j], p.ColLower[j], p.ColUpper[j])
	}
	return sol
}
