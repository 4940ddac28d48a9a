//go:build clp

package solver

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
)

func init() { Register(clpBackend{}) }

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
//	6 "empty problem check": the problem had no rows or no columns and was
//	  solved by the trivial code path, not the simplex
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

func (clpBackend) Solve(p *Problem, o Options) (*Solution, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	o = o.WithDefaults(p)
	n, m := p.NumCols(), p.NumRows
	warm := o.WarmStart
	if warm != nil && (len(warm.Cols) != n || len(warm.Rows) != m) {
		warm = nil // a basis of another shape is ignored, as purego does
	}
	if len(p.RowIndex) > math.MaxInt32 || n > math.MaxInt32 || m > math.MaxInt32 {
		return nil, errors.New("solver: clp: problem too large for CLP's 32-bit indices")
	}

	if clpEmptyMatrix(p) {
		// CLP routes a problem without matrix entries to a trivial
		// "empty problem" routine (secondary status 6) that answers status
		// 4 when a row is infeasible and a column unbounded at once. Such a
		// problem separates into single variables: solve it here.
		return Finish(p, o, solveSeparable(p, o)), nil
	}

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
		// design LPs (lp-design.md): always off.
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
	if warm != nil && n+m > 0 {
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
	sol := &Solution{Iterations: iterations}
	switch status {
	case 0:
		sol.Status = Optimal
		if secondary != 0 {
			sol.Status = NumericalFailure
			sol.Message = fmt.Sprintf("clp: optimal with secondary status %d", secondary)
		}
	case 1:
		sol.Status = Infeasible
	case 2:
		sol.Status = Unbounded
	case 3:
		sol.Status = IterationLimit
		sol.Message = fmt.Sprintf("clp: stopped after %d iterations (secondary status %d)", sol.Iterations, secondary)
	default:
		sol.Status = NumericalFailure
		sol.Message = fmt.Sprintf("clp: status %d, secondary status %d", status, secondary)
	}

	sol.X = clpCopy(C.Clp_getColSolution(model), n)
	sol.ColDual = clpCopy(C.Clp_getReducedCost(model), n)
	sol.RowDual = clpCopy(C.Clp_getRowPrice(model), m)
	if C.Clp_statusExists(model) != 0 {
		st := unsafe.Slice(C.Clp_statusArray(model), n+m)
		rowAct := clpCopy(C.Clp_getRowActivity(model), m)
		b := &Basis{Cols: make([]VarStatus, n), Rows: make([]VarStatus, m)}
		for j := range b.Cols {
			b.Cols[j] = clpStatusOut(int(st[j]&7), p.ColLower[j], p.ColUpper[j], sol.X[j])
		}
		for i := range b.Rows {
			b.Rows[i] = clpStatusOut(int(st[n+i]&7), p.RowLower[i], p.RowUpper[i], rowAct[i])
		}
		sol.Basis = b
	}
	return Finish(p, o, sol), nil
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
func clpStatusIn(s VarStatus, lo, hi float64) int {
	loFin, hiFin := !math.IsInf(lo, -1), !math.IsInf(hi, 1)
	switch {
	case s == Basic:
		return clpBasic
	case s == AtUpper && hiFin:
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
func clpStatusOut(st int, lo, hi, v float64) VarStatus {
	switch st {
	case clpBasic:
		return Basic
	case clpAtUpper:
		return AtUpper
	case clpAtLower, clpFixed:
		return AtLower
	}
	// Free or superbasic: name the nearest finite bound, if any.
	loFin, hiFin := !math.IsInf(lo, -1), !math.IsInf(hi, 1)
	switch {
	case loFin && hiFin:
		if math.Abs(v-hi) < math.Abs(v-lo) {
			return AtUpper
		}
		return AtLower
	case loFin:
		return AtLower
	case hiFin:
		return AtUpper
	}
	return AtZero
}

// clpEmptyMatrix reports whether A has no nonzero entry (which includes
// problems without rows or without columns).
func clpEmptyMatrix(p *Problem) bool {
	for _, v := range p.Value {
		if v != 0 {
			return false
		}
	}
	return true
}

// clpRepairFakeBounds finds nonbasic variables that are not at the bound
// their status names (or at zero, when free) and gives each a status and
// value on a real bound: the finite bound nearest to its value, or zero when
// it has none. It reports whether it changed anything.
func clpRepairFakeBounds(model unsafe.Pointer, p *Problem, o Options) bool {
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

// solveSeparable solves a problem whose matrix has no nonzero entry: every
// row activity is 0, so the problem is infeasible if a row's bounds exclude
// 0 (beyond the feasibility tolerance), and otherwise each column sits at the
// bound its cost prefers; a cost pointing at an infinite bound makes it
// unbounded. Row duals are 0 and reduced costs equal the costs; every row is
// basic and every column nonbasic.
func solveSeparable(p *Problem, o Options) *Solution {
	n, m := p.NumCols(), p.NumRows
	sol := &Solution{
		Status:  Optimal,
		X:       make([]float64, n),
		RowDual: make([]float64, m),
		ColDual: append([]float64(nil), p.Obj...),
		Basis:   &Basis{Cols: make([]VarStatus, n), Rows: make([]VarStatus, m)},
	}
	unbounded := false
	for j, c := range p.Obj {
		lo, hi := p.ColLower[j], p.ColUpper[j]
		loFin, hiFin := !math.IsInf(lo, -1), !math.IsInf(hi, 1)
		switch {
		case c > 0 && !loFin, c < 0 && !hiFin:
			unbounded = true
			sol.Basis.Cols[j] = clpStatusOut(clpFree, lo, hi, 0)
			if sol.Basis.Cols[j] == AtLower {
				sol.X[j] = lo
			} else if sol.Basis.Cols[j] == AtUpper {
				sol.X[j] = hi
			}
		case c < 0 || c == 0 && !loFin && hiFin:
			sol.X[j], sol.Basis.Cols[j] = hi, AtUpper
		case loFin:
			sol.X[j], sol.Basis.Cols[j] = lo, AtLower
		default:
			sol.X[j], sol.Basis.Cols[j] = 0, AtZero
		}
	}
	for i := 0; i < m; i++ {
		if _, rel := violation(p.RowLower[i], p.RowUpper[i], 0); rel > o.FeasibilityTol {
			sol.Status = Infeasible
			sol.Message = fmt.Sprintf("row %d has no entries and bounds [%g, %g]", i, p.RowLower[i], p.RowUpper[i])
			return sol
		}
	}
	if unbounded {
		sol.Status = Unbounded
	}
	return sol
}
