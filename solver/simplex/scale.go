package simplex

import (
	"math"

	"github.com/featmap/featmap/solver"
)

// Scaling of the pure-Go backend, as CLP does it: geometric-mean row and
// column scaling iterated a few passes, then equilibration of the columns
// (largest entry of each 1). The costs are not scaled beyond the column
// factors: with costs spread over many orders of magnitude, scaling the
// largest to 1 pushed the small ones under the dual tolerance and made more
// wrong answers on the spread family of solver's scaling_test.go (25
// against 21 of 400). Every factor is a power of two, so scaling and
// unscaling are exact. The simplex runs on the scaled problem
//
//	minimise (C c)ᵀ x'  subject to  R b_lo ≤ (R A C) x' ≤ R b_hi,  C⁻¹ l ≤ x' ≤ C⁻¹ u
//
// with x = C x', and its tolerances apply there; the row duals are
// y = R y' and the reduced costs d = C⁻¹ d'. Finish then measures the
// unscaled x against the problem as given.

// scaling holds the factors: row[i] (R) and col[j] (C).
type scaling struct{ row, col []float64 }

const (
	scalePasses  = 8  // at most this many geometric passes
	maxScaleExp  = 40 // factors stay within 2^±maxScaleExp
	minScaleGain = 16 // scale only if max/min of |A| falls this much
)

// pow2 rounds f > 0 to the nearest power of two within 2^±maxScaleExp:
// 2^round(log₂ f). The mantissa decides without a logarithm, except within
// 10⁻¹² of the midpoint √½, where the logarithm's own rounding decides as
// it always did.
func pow2(f float64) float64 {
	frac, exp := math.Frexp(f) // f = frac·2^exp, frac ∈ [½, 1)
	var e int
	switch {
	case math.IsInf(f, 0) || math.IsNaN(f) || f <= 0:
		return pow2Log(f)
	case math.Abs(frac-math.Sqrt2/2) < 1e-12:
		return pow2Log(f)
	case frac < math.Sqrt2/2:
		e = exp - 1
	default:
		e = exp
	}
	return math.Ldexp(1, max(-maxScaleExp, min(maxScaleExp, e)))
}

// pow2Log is pow2 by the logarithm.
func pow2Log(f float64) float64 {
	e := math.Round(math.Log2(f))
	return math.Ldexp(1, int(max(-maxScaleExp, min(maxScaleExp, e))))
}

// widen extends [lo, hi] to v as the built-in min and max would: a NaN v
// makes both NaN for good (no comparison with NaN holds, so a NaN bound
// stays NaN).
func widen(lo, hi, v float64) (float64, float64) {
	if v != v {
		return v, v
	}
	if v < lo {
		lo = v
	}
	if v > hi {
		hi = v
	}
	return lo, hi
}

// freeRows marks the rows without finite bounds, or returns nil if there
// are none.
func freeRows(p *solver.Problem) []bool {
	var free []bool
	for i := range p.NumRows {
		if math.IsInf(p.RowLower[i], -1) && math.IsInf(p.RowUpper[i], 1) {
			if free == nil {
				free = make([]bool, p.NumRows)
			}
			free[i] = true
		}
	}
	return free
}

// repeats says which rows and columns of a problem repeat others in
// magnitude. featmap's design LPs hold every point twice, as the rows
// ±(…) ≥ ±r_i, and the polish's step variables twice, as the columns Δ⁺
// and Δ⁻ (docs/lp-design.md). The scaling reads only |a_ij|, and a
// repeated row or column repeats values in the minima and maxima it takes
// (and in the ratios whose tests only grow with more values), so it gets
// the same factor as the line it repeats; the sweeps skip the repeats
// (TestScalingOfRepeats holds the factors to the plain computation's).
type repeats struct {
	// step is 2 when the rows come in pairs 2i, 2i+1 of equal magnitudes
	// in every column, stored next to each other (a sweep over a column's
	// entries takes every other one), and 1 otherwise.
	step int
	// dup[j] says that column j holds column j−1's rows with the same
	// magnitudes (nil: no column does).
	dup []bool
}

// noRepeats is the plain sweep over every row and column.
var noRepeats = repeats{step: 1}

// scanRepeats finds the repeats of p: pairs of rows (none when a row is
// free, m is odd, or an entry of a pair is not finite) and columns that
// repeat the one before (their entries finite). Its sweep leaves a column
// at its first difference, so on other problems it costs little.
func scanRepeats(p *solver.Problem, free []bool) repeats {
	rp := noRepeats
	m, n := p.NumRows, p.NumCols()
	if free != nil || m < 2 {
		return rp
	}
	paired, prevPaired := m%2 == 0, false
	for j := range n {
		idx, val := p.RowIndex[p.ColStart[j]:p.ColStart[j+1]], p.Value[p.ColStart[j]:p.ColStart[j+1]]
		val = val[:len(idx)]
		colPaired := paired && pairedColumn(idx, val)
		paired = colPaired
		if j > 0 {
			pidx, pval := p.RowIndex[p.ColStart[j-1]:p.ColStart[j]], p.Value[p.ColStart[j-1]:p.ColStart[j]]
			// Two columns of pairs differ, if at all, in a pair's first
			// entry.
			step := 1
			if colPaired && prevPaired {
				step = 2
			}
			if sameColumn(pidx, pval, idx, val, step) {
				if rp.dup == nil {
					rp.dup = make([]bool, n)
				}
				rp.dup[j] = true
			}
		}
		prevPaired = colPaired
	}
	if paired {
		rp.step = 2
	}
	return rp
}

// pairedColumn reports whether a column's entries come as pairs of rows
// 2i, 2i+1 next to each other, with finite values of equal magnitude. The
// sweep has no branch: a design LP's columns pass it whole.
func pairedColumn(idx []int, val []float64) bool {
	if len(idx)%2 != 0 {
		return false
	}
	val = val[:len(idx)]
	var bad uint64
	for k := 0; k+1 < len(idx); k += 2 {
		i := idx[k]
		a, b := math.Float64bits(val[k]), math.Float64bits(val[k+1])
		// Row i even, row i+1 next, the same bits but the sign, and an
		// exponent that is not all ones (±Inf, NaN).
		bad |= uint64(i&1) | uint64(idx[k+1]^(i+1)) | (a^b)<<1 | ((a>>52&0x7ff)+1)>>11
	}
	return bad == 0
}

// sameColumn reports whether column (idx, val) holds the rows of column
// (pidx, pval) with finite values of the same magnitudes, looking at every
// step-th entry; it stops at the first difference.
func sameColumn(pidx []int, pval []float64, idx []int, val []float64, step int) bool {
	if len(pidx) != len(idx) {
		return false
	}
	pval, val = pval[:len(idx)], val[:len(idx)]
	for k := 0; k < len(idx); k += step {
		if pidx[k] != idx[k] || math.Abs(pval[k]) != math.Abs(val[k]) || val[k]-val[k] != 0 {
			return false
		}
	}
	return true
}

// repeated reports whether column j repeats the one before.
func (rp repeats) repeated(j int) bool { return rp.dup != nil && rp.dup[j] }

// copyPairs sets the second row of each pair to the first's in each of
// vs (step 2), whose sweeps took only the first.
func (rp repeats) copyPairs(vs ...[]float64) {
	if rp.step != 2 {
		return
	}
	for _, v := range vs {
		for i := 0; i+1 < len(v); i += 2 {
			v[i+1] = v[i]
		}
	}
}

// rowRanges sets rmin[i] and rmax[i] to the least and largest nonzero
// |a_ij|·col[j] of each row i that is not free (+Inf and 0 if it has none).
// finiteA says that every entry of A is finite: with a finite factor no
// product is then NaN, and the sweep takes the built-in min and max
// without branches (the branches mispredict on design LPs: 16 % less time
// on the χ² 7D ones), which give the same ranges as the comparisons that
// skip NaN. Without it, a NaN entry would make its row's rmax NaN (as an
// Inf entry makes it Inf), which is how computeScaling finds out. The
// sweep skips the repeats rp names and copies their ranges.
func rowRanges(p *solver.Problem, free []bool, col, rmin, rmax []float64, finiteA bool, rp repeats) {
	for i := range rmin {
		rmin[i], rmax[i] = math.Inf(1), 0
	}
	step := rp.step
	for j := range p.NumCols() {
		if rp.repeated(j) {
			continue
		}
		cj := col[j]
		idx, val := p.RowIndex[p.ColStart[j]:p.ColStart[j+1]], p.Value[p.ColStart[j]:p.ColStart[j+1]]
		val = val[:len(idx)]
		if free != nil || math.IsInf(cj, 0) || cj != cj {
			// The general loop: free rows, and NaN from 0·∞.
			for k := 0; k < len(idx); k += step {
				i := idx[k]
				if v := math.Abs(val[k]) * cj; v != 0 && (free == nil || !free[i]) {
					rmin[i], rmax[i] = widen(rmin[i], rmax[i], v)
				}
			}
			continue
		}
		if finiteA {
			// No NaN product; a zero one must not lower rmin (rmax ≥ 0
			// already), so it enters as +Inf.
			for k := 0; k < len(idx); k += step {
				i := idx[k]
				v := math.Abs(val[k]) * cj
				rmax[i] = max(rmax[i], v)
				if v == 0 {
					v = math.Inf(1)
				}
				rmin[i] = min(rmin[i], v)
			}
			continue
		}
		// No free row, and a finite factor makes no NaN from a finite
		// entry (a NaN entry is skipped).
		for k := 0; k < len(idx); k += step {
			i := idx[k]
			if v := math.Abs(val[k]) * cj; v != 0 {
				if v < rmin[i] {
					rmin[i] = v
				}
				if v > rmax[i] {
					rmax[i] = v
				}
			}
		}
	}
	rp.copyPairs(rmin, rmax)
}

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// finiteFactors reports whether every factor is finite (so that no
// product with a finite entry is NaN).
func finiteFactors(f []float64) bool {
	for _, v := range f {
		if math.IsInf(v, 0) || v != v {
			return false
		}
	}
	return true
}

// columnRange returns the least and largest nonzero |a_ij|·row[i] of
// column j over the rows that are not free (+Inf and 0 if it has none);
// fast says that no row is free and every row factor is finite. With
// step 2 (repeats) it takes the first row of each pair.
func columnRange(p *solver.Problem, free []bool, row []float64, j int, fast bool, step int) (lo, hi float64) {
	lo, hi = math.Inf(1), 0
	idx, val := p.RowIndex[p.ColStart[j]:p.ColStart[j+1]], p.Value[p.ColStart[j]:p.ColStart[j+1]]
	val = val[:len(idx)]
	if !fast {
		for k := 0; k < len(idx); k += step {
			i := idx[k]
			if v := math.Abs(val[k]) * row[i]; v != 0 && (free == nil || !free[i]) {
				lo, hi = widen(lo, hi, v)
			}
		}
		return lo, hi
	}
	for k := 0; k < len(idx); k += step {
		i := idx[k]
		if v := math.Abs(val[k]) * row[i]; v != 0 {
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
		}
	}
	return lo, hi
}

// computeScaling returns the factors for p, or nil when p needs none (every
// factor 1) or when scaling would overflow or underflow a number of p.
//
// Its cost is a few sweeps over A, which on a dense design LP rival the
// solve itself, so the sweeps are lean (no allocation before the first
// pass has shown that scaling may pay, no free-row test when no row is
// free) and the first pass stops as soon as its range shows that scaling
// will not be applied. The decision and the factors are those of the plain
// computation (TestComputeScalingUnchanged holds them to it).
func computeScaling(p *solver.Problem) *scaling {
	m, n := p.NumRows, p.NumCols()
	// A row without finite bounds constrains nothing; its entries are
	// left out of the scaling (they may be far from the others).
	free := freeRows(p)
	rp := scanRepeats(p, free)
	row, col := make([]float64, m), make([]float64, n)
	for j := range col {
		col[j] = 1
	}
	rmin, rmax := make([]float64, m), make([]float64, m)
	// First pass: the entries' range before scaling, from the row sweep,
	// then the row factors, then the range after the column pass.
	// Sweep as if A were finite: a NaN or Inf entry shows in its row's
	// rmax, and then the sweep is redone with the comparisons.
	finiteA := free == nil
	rowRanges(p, free, col, rmin, rmax, finiteA, rp)
	for i := 0; finiteA && i < m; i++ {
		finiteA = finite(rmax[i])
	}
	if !finiteA && free == nil {
		rowRanges(p, free, col, rmin, rmax, false, rp)
	}
	lo, hi := math.Inf(1), 0.0
	for i := 0; i < m; i += rp.step {
		row[i] = 1
		if rmax[i] > 0 {
			lo, hi = min(lo, rmin[i]), max(hi, rmax[i])
			row[i] = 1 / math.Sqrt(rmin[i]*rmax[i])
		}
	}
	rp.copyPairs(row)
	if hi == 0 {
		return nil
	}
	unscaled := hi / lo
	// After the column pass, column j's entries span [√(lo/hi), √(hi/lo)]
	// of its own lo and hi, so the whole range is max_j hi/lo, with no
	// further sweep. r only grows: once the first pass gains too little
	// (below), the remaining columns cannot change that.
	r := 1.0
	fast := free == nil && finiteFactors(row)
	// colHi[j] is column j's largest |a_ij|·row[i] in the pass that made
	// col[j]; the equilibration below reuses the best pass's (see there).
	colHi := make([]float64, n)
	for j := range n {
		if rp.repeated(j) {
			// Column j−1's range: the same factor, r unchanged.
			col[j], colHi[j] = col[j-1], colHi[j-1]
			continue
		}
		lo, hi := columnRange(p, free, row, j, fast, rp.step)
		colHi[j] = hi
		if hi > 0 {
			col[j] = 1 / math.Sqrt(lo*hi)
			r = max(r, hi/lo)
		}
		if !(minScaleGain*r <= unscaled) {
			// The first pass undoes most of a bad scaling; if it gains
			// little, scaling is not worth its cost.
			return nil
		}
	}
	// A pass counts if it narrows the range by 10 % (the first one may
	// not, when the range overflows: ∞ before and after).
	bestRow, bestCol, bestHi := make([]float64, m), make([]float64, n), make([]float64, n)
	for i := range bestRow {
		bestRow[i] = 1
	}
	for j := range bestCol {
		bestCol[j] = 1
	}
	// bestFast: the best factors come from a pass on the fast path, so
	// bestHi holds its column maxima; false while the best are the
	// identity (whose column maxima no pass measured).
	best, pass, bestFast := unscaled, 1, false
	if r < 0.9*best {
		best = r
		copy(bestRow, row)
		copy(bestCol, col)
		copy(bestHi, colHi)
		bestFast = fast
	} else {
		pass = scalePasses
	}
	for ; pass < scalePasses; pass++ {
		rowRanges(p, free, col, rmin, rmax, finiteA, rp)
		for i := 0; i < m; i += rp.step {
			if rmax[i] > 0 {
				row[i] = 1 / math.Sqrt(rmin[i]*rmax[i])
			}
		}
		rp.copyPairs(row)
		r := 1.0
		fast := free == nil && finiteFactors(row)
		for j := range n {
			if rp.repeated(j) {
				col[j], colHi[j] = col[j-1], colHi[j-1]
				continue
			}
			lo, hi := columnRange(p, free, row, j, fast, rp.step)
			colHi[j] = hi
			if hi > 0 {
				col[j] = 1 / math.Sqrt(lo*hi)
				r = max(r, hi/lo)
			}
			if !(r < 0.9*best) {
				// r only grows (or stays NaN): the pass is rejected
				// whatever the remaining columns hold, and its
				// factors are dropped.
				break
			}
		}
		if !(r < 0.9*best) {
			break
		}
		best = r
		copy(bestRow, row)
		copy(bestCol, col)
		copy(bestHi, colHi)
		bestFast = fast
	}
	row, col = bestRow, bestCol
	// Equilibrate: the largest entry of each column becomes 1. That is
	// max_i fl(fl(|a_ij|·row[i])·col[j]); rounding is monotone, so for a
	// finite col[j] > 0 it equals fl(h·col[j]) with h = max_i
	// fl(|a_ij|·row[i]), which the best pass's column sweep measured as
	// bestHi[j] when it took the fast path (no free row, finite row
	// factors) and A is finite (finiteA, from the first row sweep: no
	// NaN or Inf entry, so no product is NaN). Otherwise one sweep.
	reuse := bestFast && finiteA
	for j := range n {
		if cj := col[j]; reuse && cj > 0 && !math.IsInf(cj, 1) {
			if hi := bestHi[j] * cj; hi > 0 {
				col[j] /= hi
			}
			continue
		}
		hi := 0.0
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k += rp.step {
			if i := p.RowIndex[k]; free == nil || !free[i] {
				hi = max(hi, math.Abs(p.Value[k])*row[i]*col[j])
			}
		}
		if hi > 0 {
			col[j] /= hi
		}
	}
	identity := true
	for i := 0; i < m; i += rp.step {
		row[i] = pow2(row[i])
		identity = identity && row[i] == 1
	}
	rp.copyPairs(row)
	for j := range col {
		col[j] = pow2(col[j])
		identity = identity && col[j] == 1
	}
	// Scaling changes the pivots; unless it narrows the entries' range
	// a good deal, solve the problem as given. featmap's design LPs
	// (solver/testdata/lp) narrow only 3× (χ²) and 1.3× (RBF), and their scaled
	// solves took more pivots (RBF: 700 against 464).
	if identity || gainsTooLittle(p, free, row, col, unscaled, rp) {
		return nil
	}
	return &scaling{row: row, col: col}
}

// gainsTooLittle reports !(minScaleGain·scaledRatio(p, free, row, col) ≤
// unscaled), stopping its sweep at the first column after which the
// ratio of the entries seen so far already fails the test: that ratio
// only grows as entries are added (once it is a number: lo is then
// finite and stays so), so the whole matrix's fails it too.
func gainsTooLittle(p *solver.Problem, free []bool, row, col []float64, unscaled float64, rp repeats) bool {
	lo, hi := math.Inf(1), 0.0
	for j := range p.NumCols() {
		if rp.repeated(j) {
			continue // column j−1's entries: lo and hi as they are
		}
		lo, hi = scaledColumnRange(p, free, row, col, j, lo, hi, rp.step)
		if q := hi / lo; hi > 0 && q == q && !(minScaleGain*q <= unscaled) {
			return true
		}
	}
	r := 1.0
	if hi > 0 {
		r = hi / lo
	}
	return !(minScaleGain*r <= unscaled)
}

// scaledColumnRange widens [lo, hi] by the magnitudes of the nonzero
// entries of column j of R A C outside the free rows (with step 2, of the
// first row of each pair: repeats).
func scaledColumnRange(p *solver.Problem, free []bool, row, col []float64, j int, lo, hi float64, step int) (float64, float64) {
	cj := col[j]
	idx, val := p.RowIndex[p.ColStart[j]:p.ColStart[j+1]], p.Value[p.ColStart[j]:p.ColStart[j+1]]
	val = val[:len(idx)]
	for k := 0; k < len(idx); k += step {
		i := idx[k]
		if v := math.Abs(val[k]) * row[i] * cj; v != 0 && (free == nil || !free[i]) {
			if v < lo {
				lo = v
			}
			if v > hi {
				hi = v
			}
		}
	}
	return lo, hi
}

// unscale converts a solution of the scaled problem to the original one's.
func (sc *scaling) unscale(s *solver.Solution) {
	for j := range s.X {
		s.X[j] *= sc.col[j]
	}
	for j := range s.ColDual {
		s.ColDual[j] /= sc.col[j]
	}
	for i := range s.RowDual {
		s.RowDual[i] *= sc.row[i]
	}
}

// tolerances makes the scaled simplex's tests scale-aware. Optimality: a
// scaled reduced cost d'_j = C_j d_j within tolD·min(1, C_j) (a row's
// y'_i = y_i/R_i within tolD·min(1, 1/R_i)) keeps the unscaled one within
// tolD, as the unscaled simplex would require, while a column scaled up is
// not held to more than tolD in scaled units. Feasibility: a bound's
// tolerance tolP·max(1, |b|) becomes tolP·max(1/C_j, |b'|) for a column
// and tolP·max(R_i, |b'|) for a row, the unscaled tolerance in scaled
// units (a row scaled by 10⁻⁶ with bound 10⁻⁶ would otherwise be met by
// anything within 10⁻¹⁰ of 10⁻¹²).
func (sc *scaling) tolerances(s *simplex) {
	for j, c := range sc.col {
		s.tolDv[j] = s.tolD * min(1, c)
		s.unit[j] = 1 / c
	}
	for i, r := range sc.row {
		s.tolDv[s.n+i] = s.tolD * min(1, 1/r)
		s.unit[s.n+i] = r
	}
	s.setPrimalTolerances()
}

// dualDefect reports whether a reduced cost of s (unscaled) has the wrong
// sign for its variable's basis status by more than tol, as the simplex's
// own optimality test on the unscaled problem would see it: the scaled
// problem's tolerance admits a reduced cost d' = C d up to tol, which is d
// up to tol/C.
func dualDefect(p *solver.Problem, s *solver.Solution, tol float64) bool {
	if s.Basis == nil {
		return true
	}
	bad := func(st solver.VarStatus, d, lo, hi float64) bool {
		if lo == hi {
			return false
		}
		switch st {
		case solver.AtLower:
			return d < -tol
		case solver.AtUpper:
			return d > tol
		case solver.AtZero:
			return math.Abs(d) > tol
		}
		return false
	}
	for j, st := range s.Basis.Cols {
		if bad(st, s.ColDual[j], p.ColLower[j], p.ColUpper[j]) {
			return true
		}
	}
	for i, st := range s.Basis.Rows {
		if bad(st, s.RowDual[i], p.RowLower[i], p.RowUpper[i]) {
			return true
		}
	}
	return false
}

// apply returns the scaled problem, or nil if a finite nonzero number of p
// would overflow or underflow (exactly when newScaledSimplex refuses sc,
// TestScaledSimplexAsApplied): the problem a scaled simplex solves, which
// its exact checks read (simplex.exactProblem).
func (sc *scaling) apply(p *solver.Problem) *solver.Problem {
	m, n := p.NumRows, p.NumCols()
	ok := true
	put := func(v, f float64) float64 {
		w := v * f
		if scaledOutOfRange(v, w) {
			ok = false
		}
		return w
	}
	q := &solver.Problem{
		NumRows:  m,
		Obj:      make([]float64, n),
		ColLower: make([]float64, n),
		ColUpper: make([]float64, n),
		RowLower: make([]float64, m),
		RowUpper: make([]float64, m),
		ColStart: p.ColStart,
		RowIndex: p.RowIndex,
		Value:    make([]float64, len(p.Value)),
	}
	for j := range n {
		q.Obj[j] = put(p.Obj[j], sc.col[j])
		q.ColLower[j] = put(p.ColLower[j], 1/sc.col[j])
		q.ColUpper[j] = put(p.ColUpper[j], 1/sc.col[j])
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			q.Value[k] = put(p.Value[k], sc.row[p.RowIndex[k]]*sc.col[j])
		}
	}
	for i := range m {
		q.RowLower[i] = put(p.RowLower[i], sc.row[i])
		q.RowUpper[i] = put(p.RowUpper[i], sc.row[i])
	}
	if !ok {
		return nil
	}
	return q
}
