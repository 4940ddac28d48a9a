package simplex

import (
	"fmt"
	"math"
	"math/big"

	"github.com/featmap/featmap/solver"
)

// The certificate of an "unbounded" verdict: an improving ray d from a
// feasible x. rayProves checks, on the problem as given, that x is
// feasible within the tolerance (rayOrigin), that the cost rate cᵀd is
// negative beyond its rounding and beyond what the residuals of the rows
// the ray keeps at their bounds can move it, and that no column or row
// blocks the ray before the objective falls below −2·farkasCap·Σ|c_j|
// (rayBlock): each row's rate is taken at its worst within its error
// bound, and exactly (exactRowRates) where a rate within the noise could
// block. The ray is the basis's for its entering variable, refined twice
// into hi + lo (primalRay); on a kernel of at most exactRayMax columns
// checkCertificate builds and checks it exactly instead (exact.go).

// rayNoise is the round-off level of a row's rate along a refined ray,
// relative to its terms Σ|a_ij·d_j|: about 2000 squared rounding units,
// room for a kernel's condition number of 10³ in the refinement.
const rayNoise = 1e-20

// rayOrigin returns x's row activities, or why x cannot be the origin of
// an unbounded ray: it must be feasible within the tolerance.
func rayOrigin(p *solver.Problem, o solver.Options, x []float64) ([]float64, string) {
	// The ray proves nothing from an infeasible origin (FuzzSolve found an
	// infeasible LP called unbounded from an x 10⁻⁹ beyond a bound). A
	// row's activity is measured with a rounding allowance of faintNoise
	// of its terms Σ|a_ij·x_j| (a term of 10¹³ leaves a sum that no
	// float64 x places within 10⁻⁹ of a bound of 10⁻⁸).
	viol := 0.0
	for j, v := range x {
		_, rel := solver.Violation(p.ColLower[j], p.ColUpper[j], v)
		viol = math.Max(viol, rel)
	}
	act := p.Activity(x)
	mag := make([]float64, p.NumRows)
	for j, xj := range x {
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			mag[p.RowIndex[k]] += math.Abs(p.Value[k] * xj)
		}
	}
	for i, v := range act {
		allow := faintNoise * mag[i]
		lo, hi := p.RowLower[i], p.RowUpper[i]
		switch {
		case v < lo-allow:
			viol = math.Max(viol, (lo-allow-v)/math.Max(1, math.Abs(lo)))
		case v > hi+allow:
			viol = math.Max(viol, (v-hi-allow)/math.Max(1, math.Abs(hi)))
		case v != v:
			viol = math.Inf(1)
		}
	}
	if !(viol <= o.FeasibilityTol) {
		return nil, fmt.Sprintf("the ray's origin violates a bound by %.3g (relative)", viol)
	}
	return act, ""
}

// rayBlock returns why a variable (what k) at v, moving at a rate of up to
// r (> 0 up, < 0 down) along a ray, blocks it before the step reach, or
// "" if it does not: a variable may reach a bound exactly, and the
// tolerance's relaxation, divided by a tiny rate, could stretch any step.
func rayBlock(what string, k int, lo, hi, v, r, reach float64) string {
	switch {
	case r > 0 && !math.IsInf(hi, 1):
		if t := math.Max(hi-v, 0) / r; !(t >= reach) {
			return fmt.Sprintf("%s %d blocks the ray after a step of %.3g (rate %.3g), short of %.3g", what, k, t, r, reach)
		}
	case r < 0 && !math.IsInf(lo, -1):
		if t := math.Max(v-lo, 0) / -r; !(t >= reach) {
			return fmt.Sprintf("%s %d blocks the ray after a step of %.3g (rate %.3g), short of %.3g", what, k, t, r, reach)
		}
	}
	return ""
}

// rayProves reports whether d is an improving ray of p from x: cᵀd < 0
// beyond its rounding, and x + t·d stays within every bound that x meets
// for t up to a step at which the objective is below −2·10¹⁵·Σ|c_j|, a
// value no x within 2·10¹⁵ of the origin attains (farkasCap). A rate
// towards a finite bound is d_j for a column, and for a row (Ad)_i,
// computed with its error bound and taken at its worst; a rate that does
// not block before that step (a real 10⁻¹⁰ towards a bound 10⁹ away
// along a ray of cost rate −1) leaves the LP unbounded for every purpose
// of float64. x must be feasible within the tolerance. fixed, if not
// nil, marks the rows the ray keeps at their bound by construction, and
// y, if not nil, holds the duals of the basis the ray was built on (on
// the fixed rows; see the cost rate's test below).
func rayProves(p *solver.Problem, o solver.Options, x, d, dlo []float64, fixed []bool, y []float64) (bool, string) {
	n := p.NumCols()
	if len(d) != n || len(dlo) != n || len(x) != n {
		return false, "no ray"
	}
	var cd dot2
	cabs, cx := 0.0, 0.0
	for j, c := range p.Obj {
		cd.add(c, d[j])
		cd.add(c, dlo[j])
		cabs += math.Abs(c)
		cx += c * x[j]
	}
	act, why := rayOrigin(p, o, x)
	if why != "" {
		return false, why
	}
	// d is exact only to its rounding, relative to its largest entry
	// (a ray with entries of 10¹⁵ had a cost rate of −0.125 that is 0 for
	// the exact ray: FuzzSolve): the cost rate must be negative beyond
	// 64 squared rounding units (d's refinement) of Σ|c_j|·max|d_j| too.
	dmax := 0.0
	for _, v := range d {
		dmax = math.Max(dmax, math.Abs(v))
	}
	rate, rateErr := cd.result()
	rateErr += 64 * 0x1p-106 * cabs * dmax
	if !(rate+rateErr < 0) {
		return false, fmt.Sprintf("ray's cost rate %.3g is not negative beyond its rounding %.3g", rate, rateErr)
	}
	// reach is the step the ray must be able to take: to an objective
	// below −2·10¹⁵·Σ|c_j|, which needs |x_j| > 2·10¹⁵ (twice the cap, a
	// margin for the origin's own tolerance; FuzzSolve found an LP whose
	// optimum, −10¹⁵·Σ|c_j| less 6·10⁻², lay just inside the cap).
	reach := (cx + 2*farkasCap*cabs) / -(rate + rateErr)
	block := func(what string, k int, lo, hi, v, r float64) string {
		return rayBlock(what, k, lo, hi, v, r, reach)
	}
	for j := range n {
		if why := block("column", j, p.ColLower[j], p.ColUpper[j], x[j], d[j]+dlo[j]); why != "" {
			return false, why
		}
	}
	var suspect []int // rows whose within-noise rate could block
	rates := make([]dot2, p.NumRows)
	rowAbs := make([]float64, p.NumRows)
	rowSq := make([]float64, p.NumRows) // ‖a_i‖² over every column
	for k, v := range p.Value {
		rowSq[p.RowIndex[k]] += v * v
	}
	csq, fixedShift, dualShift := 0.0, 0.0, 0.0
	for _, c := range p.Obj {
		csq += c * c
	} // Σ|a_ij| over the moving columns
	for j := range n {
		if d[j] == 0 && dlo[j] == 0 {
			continue
		}
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			rates[p.RowIndex[k]].add(p.Value[k], d[j])
			rates[p.RowIndex[k]].add(p.Value[k], dlo[j])
			rowAbs[p.RowIndex[k]] += math.Abs(p.Value[k])
		}
	}
	for i := range rates {
		r, e := rates[i].result()
		// d itself is exact only to its rounding. The rate of a row the
		// ray keeps at its bound (fixed[i]: a kernel row, Σ a_ij·d_j = 0
		// for the exact ray) is a residual, near faintNoise of its terms
		// or of Σ|a_ij|·max|d_j| (d's rounding is relative to its largest
		// entry); any other row's rate is real beyond rayNoise of its
		// terms (d is refined to near the square of the rounding unit;
		// FuzzSolve found real rates of 10⁻¹⁵ against terms of 10⁻¹⁵ and
		// of 10⁻⁹ against terms of 10⁶). A rate that small is no rate; a
		// larger one is taken at its worst.
		noise := rayNoise * rates[i].abs
		if fixed != nil && fixed[i] {
			noise = faintNoise * math.Max(rates[i].abs, rowAbs[i]*dmax)
			// Making this row's rate exactly 0 moves d by at least
			// |r_i|/‖a_i‖ along a_i, which can move the cost rate by
			// ‖c‖ times that (FuzzSolve: a kernel row of 10⁻⁹·x₀ with a
			// residual of 6·10⁻³⁷ carried the whole cost rate of −6·10⁻²⁸
			// of a ray the exact LP does not have).
			if norm := math.Sqrt(rowSq[i]); norm > 0 {
				fixedShift += (math.Abs(r) + e) / norm
			}
			// That bound takes the kernel rows one at a time. Making
			// them all exact at once moves the ray's basic part by
			// K⁻¹r and its cost rate by c_Sᵀ·K⁻¹r = Σ y_i·r_i, y the
			// basis's duals (to the first order in their own error):
			// on near-parallel kernel rows far more (FuzzSolve
			// 57cbf59b0758b89f: rows −10⁶x₀ − 3x₂ with and without
			// 10⁻⁹x₁, duals ±10⁹, residuals differing by 6.6·10⁻³³
			// carried the whole cost rate −6.6·10⁻²⁴ of a ray the
			// exact LP, bounded with optimum 0, does not have).
			if y != nil {
				dualShift += math.Abs(y[i]) * (math.Abs(r) + e)
			}
		}
		e += noise
		if math.Abs(r) <= e {
			// Within the noise: no rate, unless a rate that small would
			// block the ray on a row it does not keep at its bound
			// (FuzzSolve: an exact rate of 10⁻²⁴ towards a bound 1.4·10⁻¹⁷
			// away, terms of 0.2). Then the row's rate along d as given is
			// taken exactly.
			if (fixed == nil || !fixed[i]) && (block("row", i, p.RowLower[i], p.RowUpper[i], act[i], r+e) != "" || block("row", i, p.RowLower[i], p.RowUpper[i], act[i], r-e) != "") {
				suspect = append(suspect, i)
			}
			continue
		}
		for _, ri := range []float64{r + e, r - e} {
			if why := block("row", i, p.RowLower[i], p.RowUpper[i], act[i], ri); why != "" {
				return false, why
			}
		}
	}
	if shift := math.Sqrt(csq)*fixedShift + dualShift; !(rate+rateErr+shift < 0) {
		return false, fmt.Sprintf("ray's cost rate %.3g is not negative beyond what its kernel rows' residuals can move (%.3g)", rate, shift)
	}
	if len(suspect) > 0 {
		for k, r := range exactRowRates(p, suspect, d, dlo) {
			i := suspect[k]
			if r != r {
				return false, fmt.Sprintf("row %d's rate along the ray is not a number", i)
			}
			if why := block("row", i, p.RowLower[i], p.RowUpper[i], act[i], r); why != "" {
				return false, why + " (its rate taken exactly)"
			}
		}
	}
	return true, ""
}

// exactRowRates returns, for the rows listed, Σ_j a_ij·(d_j + dlo_j)
// computed exactly (math/big) and rounded to float64: the sign and size
// of a rate that round-off hides.
func exactRowRates(p *solver.Problem, rows []int, d, dlo []float64) []float64 {
	at := make(map[int]int, len(rows))
	sums := make([]big.Rat, len(rows))
	for k, i := range rows {
		at[i] = k
	}
	var a, t big.Rat
	for j := range p.NumCols() {
		if d[j] == 0 && dlo[j] == 0 {
			continue
		}
		for q := p.ColStart[j]; q < p.ColStart[j+1]; q++ {
			k, ok := at[p.RowIndex[q]]
			if !ok {
				continue
			}
			a.SetFloat64(p.Value[q])
			for _, v := range []float64{d[j], dlo[j]} {
				if v != 0 {
					t.SetFloat64(v)
					t.Mul(&t, &a)
					sums[k].Add(&sums[k], &t)
				}
			}
		}
	}
	out := make([]float64, len(rows))
	for k := range sums {
		out[k], _ = sums[k].Float64()
	}
	for j := range p.NumCols() {
		if math.IsInf(d[j], 0) || math.IsNaN(d[j]) || math.IsInf(dlo[j], 0) || math.IsNaN(dlo[j]) {
			for k := range out {
				out[k] = math.NaN() // no exact sum of a non-finite ray
			}
			break
		}
	}
	return out
}

// primalRay returns the columns' part of the ray of entering q moving in
// direction dir (u = B⁻¹a_q on the kernel), as an unevaluated sum of two
// vectors (hi, lo) stored as one of length 2n: d_q = dir for a column,
// d_S = −dir·u. The kernel's rows must keep their activity (or, when q is
// one of them, move it by dir); two steps of refinement, d_S += G(target −
// A[T, :]d) with the residual by dot2, the first into hi and the second
// into lo, leave a residual near the square of the rounding unit (a ray
// with entries of 10¹⁵ otherwise carries a rounding of 0.1 into its cost
// rate).
func (s *simplex) primalRay(q int, dir float64, u []float64) []float64 {
	d := make([]float64, 2*s.n)
	hi, lo := d[:s.n], d[s.n:]
	if q < s.n {
		hi[q] = dir
	}
	for l, j := range s.S {
		hi[j] = -dir * u[l]
	}
	k := s.k()
	res := make([]float64, k)
	for _, into := range [][]float64{hi, lo} {
		for t, i := range s.T {
			v := dot2Pair(hi, lo, s.row(i))
			if q == s.n+i {
				res[t] = dir - v
			} else {
				res[t] = -v
			}
		}
		for l, j := range s.S {
			into[j] += dotN(s.gRow(l), res)
		}
	}
	return d
}

// kernelDuals returns the duals of s's basis in the units of the problem
// as given (sc, if not nil, is the scaling s ran under), refined twice
// with accurate residuals (refineY) and rounded to float64: π_T with
// K^Tπ_T = c_S on the kernel's rows, 0 elsewhere.
func (s *simplex) kernelDuals(sc *scaling) []float64 {
	hi, lo := make([]float64, s.m), make([]float64, s.m)
	for _, i := range s.T {
		hi[i] = s.d[s.n+i]
	}
	s.refineY(hi, lo, s.cost, hi)
	s.refineY(hi, lo, s.cost, lo)
	for i := range hi {
		hi[i] += lo[i]
		if sc != nil {
			hi[i] *= sc.row[i]
		}
	}
	return hi
}

// rayDirection returns the direction (±1) in which the entering variable
// of s's ray moves: the sign of its entry for a column, of its row's rate
// along the ray for a row.
func (s *simplex) rayDirection() float64 {
	q := s.rayEnter
	if len(s.ray) != 2*s.n {
		return 0
	}
	if q < s.n {
		return math.Copysign(1, s.ray[q])
	}
	return math.Copysign(1, dot2Pair(s.ray[:s.n], s.ray[s.n:], s.row(q-s.n)))
}
