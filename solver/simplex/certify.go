package simplex

import (
	"fmt"
	"math"
	"math/big"
	"slices"

	"github.com/featmap/featmap/solver"
)

// Certificates of the pure-Go backend's "infeasible" and "unbounded"
// verdicts (issue 18). The simplex decides both with tolerances (a phase-1
// reduced cost within the dual tolerance is taken as zero, a rate within
// the pivot tolerance as no rate), which on an LP whose numbers span many
// orders of magnitude can be wrong. So the backend keeps the certificate
// the verdict rests on — a Farkas multiplier y for "infeasible", the ray d
// for "unbounded" — refines it twice against the final basis with accurate
// residuals (into a double-length hi+lo vector), and checks it against the problem as given (unscaled), with
// error-free transformations (Ogita, Rump and Oishi's Dot2: every product
// and sum carries its exact rounding error) and an explicit bound on what
// rounding is left. A verdict whose certificate fails the check becomes a
// NumericalFailure (an honest "gave up"), never a wrong answer. At an
// optimum, the x and the duals are refined once where the kernel's rows or
// the basic columns' reduced costs show they lost accuracy (refineVertex,
// refineDuals), and an unblocked ray of a tolerance-level improving
// reduced cost is reported as unbounded (faintRay).

// twoSum returns s = fl(a+b) and the exact error a + b − s.
func twoSum(a, b float64) (s, e float64) {
	s = a + b
	z := s - a
	return s, (a - (s - z)) + (b - z)
}

// dot2 is an accurate sum of products Σ x_k·y_k: it returns the sum and a
// bound on its error (|result − exact| ≤ err), after Ogita, Rump and
// Oishi, "Accurate sum and dot product" (2005), Alg. 5.3 and Prop. 5.5:
// u·|result| + γ_{n}²·Σ|x_k·y_k|, written here with a factor 2 of
// headroom and an underflow allowance per product.
type dot2 struct {
	s, c, abs float64
	n         int
}

// add adds x·y. The product is rounded before twoSum takes it (an
// explicit conversion): a compiler that fuses multiply-adds (Go's on arm64
// and with GOAMD64=v3) would otherwise compute twoSum's d.s + x·y in one
// rounding, and its error term would no longer be the sum's error
// (TestDot2ErrorBound failed by 10⁻⁵ against a bound of 10⁻¹⁸).
func (d *dot2) add(x, y float64) {
	p := float64(x * y)
	e := math.FMA(x, y, -p)
	var q float64
	d.s, q = twoSum(d.s, p)
	d.c += q + e
	d.abs += math.Abs(p)
	d.n++
}

// result returns the sum and its error bound.
func (d *dot2) result() (v, err float64) {
	const u = 0x1p-53
	v = d.s + d.c
	g := float64(d.n+2) * u
	return v, 2*u*math.Abs(v) + 2*g*g*d.abs + float64(d.n)*0x1p-1022
}

// farkasCap is the largest |x_j| considered on the unbounded side of a
// column when the sign of its combined coefficient (Aᵀy)_j is not certain
// (a free column's coefficient is zero only up to rounding): the check
// then proves that no x within 10¹⁵ of the origin on those sides is
// feasible. A float64 beyond 10¹⁵ has a spacing of at least 0.125, so the
// backend could not place such a coordinate to its tolerance anyway.
const farkasCap = 1e15

// farkasProves reports whether y proves p infeasible (with the sign of y
// or its negation): with z = Aᵀy, every x within p's column bounds has
// zᵀx ≥ L and every row activity r within p's row bounds has yᵀr ≤ U, so
// L > U leaves no x with r = Ax. It checks L > U with every rounding
// error bounded (entries of y whose sign needs an infinite row bound are
// dropped first, which keeps y a valid multiplier). It returns the
// check's verdict and, if false, why.
func farkasProves(p *solver.Problem, y, ylo []float64) (bool, string) {
	if len(y) != p.NumRows || len(ylo) != p.NumRows {
		return false, "no infeasibility certificate"
	}
	lo, hi := impliedBounds(p)
	why := ""
	for _, sign := range []float64{1, -1} {
		ok, w := farkasOneSign(p, lo, hi, y, ylo, sign)
		if ok {
			return true, ""
		}
		if why != "" {
			why += "; negated: "
		}
		why += w
	}
	return false, why
}

// farkasOneSign is farkasProves for sign·y (y = y0 + ylo0, as given)
// within the column bounds cl, cu (p's, tightened by impliedBounds).
func farkasOneSign(p *solver.Problem, cl, cu, y0, ylo0 []float64, sign float64) (bool, string) {
	m, n := p.NumRows, p.NumCols()
	y, ylo := make([]float64, m), make([]float64, m)
	var upper dot2 // U = Σ y_i·(the row bound y_i favours)
	for i, v := range y0 {
		// The pair normalised (twoSum: the same sum, |lo| at most half an
		// ulp of v), so that v's sign is the multiplier's: a refined pair
		// of −4.7·10⁻³⁸ and 7.1·10⁻³⁸ is a positive multiplier, which may
		// price only the row's upper bound (FuzzSolve 0e07fa4a1ffa125b:
		// priced at the lower one it "proved" a feasible LP infeasible).
		v, lo := twoSum(v*sign, ylo0[i]*sign) // sign is ±1: exact products
		var b float64
		switch {
		case v > 0 || v == 0 && lo > 0:
			b = p.RowUpper[i]
		case v < 0 || v == 0 && lo < 0:
			b = p.RowLower[i]
		default:
			continue
		}
		if !math.IsInf(b, 0) {
			y[i], ylo[i] = v, lo
			upper.add(v, b)
			upper.add(lo, b)
		}
	}
	// gap accumulates L − U, each term with a bound on its rounding;
	// weight is the coefficient of the cap in L's bound.
	var gap dot2
	u, uErr := upper.result()
	gap.add(-1, u)
	slack := uErr
	weight := 0.0
	for j := range n {
		var zj dot2
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			if i := p.RowIndex[k]; y[i] != 0 || ylo[i] != 0 {
				zj.add(y[i], p.Value[k])
				zj.add(ylo[i], p.Value[k])
			}
		}
		z, e := zj.result()
		lo, hi := cl[j], cu[j]
		zmin, zmax := z-e, z+e // z_j's interval (the roundings here are below e's headroom)
		lf, hf := !math.IsInf(lo, -1), !math.IsInf(hi, 1)
		// t is a lower bound on z_j·x_j over the column's bounds (with the
		// cap on an infinite side that z_j's sign may not rule out).
		var t float64
		switch {
		case lf && hf:
			t = math.Min(math.Min(zmin*lo, zmax*lo), math.Min(zmin*hi, zmax*hi))
		case lf:
			t = math.Min(zmin*lo, zmax*lo)
			if zmin < 0 {
				t -= -zmin * math.Abs(lo)
				weight += -zmin
			}
		case hf:
			t = math.Min(zmin*hi, zmax*hi)
			if zmax > 0 {
				t -= zmax * math.Abs(hi)
				weight += zmax
			}
		default:
			weight += math.Max(-zmin, zmax)
		}
		// Two roundings in t's products and differences.
		slack += 4 * 0x1p-53 * (math.Abs(t) + e*(finiteAbs(lo)+finiteAbs(hi)))
		gap.add(1, t)
	}
	g, gErr := gap.result()
	g -= 2 * (gErr + slack)
	if math.IsNaN(g) || math.IsInf(g, 0) || math.IsNaN(weight) || math.IsInf(weight, 0) {
		return false, "infeasibility certificate overflows"
	}
	if g <= 0 || weight*farkasCap >= g {
		return false, fmt.Sprintf("infeasibility certificate fails: margin %.3g, uncertain weight %.3g", g, weight)
	}
	return true, ""
}

// impliedBounds returns column bounds that every feasible x of p meets:
// p's own, with an infinite one replaced where a row implies a finite one
// (a_ij·x_j = r_i − Σ_{k≠j} a_ik·x_k, every term bounded). Two passes;
// each implied bound is widened by 10⁻⁹ of the magnitudes it was computed
// from, far more than the rounding of its sums.
func impliedBounds(p *solver.Problem) (lo, hi []float64) {
	m, n := p.NumRows, p.NumCols()
	lo, hi = slices.Clone(p.ColLower), slices.Clone(p.ColUpper)
	if m == 0 {
		return lo, hi
	}
	type entry struct {
		j int
		a float64
	}
	rows := make([][]entry, m)
	for j := range n {
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			if v := p.Value[k]; v != 0 {
				rows[p.RowIndex[k]] = append(rows[p.RowIndex[k]], entry{j, v})
			}
		}
	}
	for range 2 {
		for i, row := range rows {
			rl, ru := p.RowLower[i], p.RowUpper[i]
			if math.IsInf(rl, -1) && math.IsInf(ru, 1) {
				continue
			}
			// The activity's range over the columns' bounds: sums of the
			// finite parts and counts of the infinite ones.
			minSum, maxSum, mag := 0.0, 0.0, 0.0
			minInf, maxInf := 0, 0
			term := func(e entry) (tmin, tmax float64) {
				if e.a > 0 {
					return e.a * lo[e.j], e.a * hi[e.j]
				}
				return e.a * hi[e.j], e.a * lo[e.j]
			}
			for _, e := range row {
				tmin, tmax := term(e)
				if math.IsInf(tmin, 0) {
					minInf++
				} else {
					minSum += tmin
					mag += math.Abs(tmin)
				}
				if math.IsInf(tmax, 0) {
					maxInf++
				} else {
					maxSum += tmax
					mag += math.Abs(tmax)
				}
			}
			for _, e := range row {
				if !math.IsInf(lo[e.j], -1) && !math.IsInf(hi[e.j], 1) {
					continue
				}
				tmin, tmax := term(e)
				// The rest's range, without e's own term.
				restMin, restMax := minSum, maxSum
				okMin, okMax := minInf == 0, maxInf == 0
				if math.IsInf(tmin, 0) {
					okMin = minInf == 1
				} else {
					restMin -= tmin
				}
				if math.IsInf(tmax, 0) {
					okMax = maxInf == 1
				} else {
					restMax -= tmax
				}
				// a·x_j ∈ [rl − restMax, ru − restMin].
				aLo, aHi := math.Inf(-1), math.Inf(1)
				if okMax && !math.IsInf(rl, -1) {
					aLo = rl - restMax
				}
				if okMin && !math.IsInf(ru, 1) {
					aHi = ru - restMin
				}
				w := 1e-9 * (mag + finiteAbs(rl) + finiteAbs(ru))
				aLo, aHi = aLo-w, aHi+w
				xLo, xHi := aLo/e.a, aHi/e.a
				if e.a < 0 {
					xLo, xHi = xHi, xLo
				}
				// A bound that would cross the other is left out: it would
				// itself say infeasible, which the certificate must show.
				if math.IsInf(lo[e.j], -1) && !math.IsInf(xLo, 0) && !math.IsNaN(xLo) && xLo <= hi[e.j] {
					lo[e.j] = xLo
				}
				if math.IsInf(hi[e.j], 1) && !math.IsInf(xHi, 0) && !math.IsNaN(xHi) && xHi >= lo[e.j] {
					hi[e.j] = xHi
				}
			}
		}
	}
	return lo, hi
}

// finiteAbs is |v|, or 0 for an infinite v.
func finiteAbs(v float64) float64 {
	if math.IsInf(v, 0) {
		return 0
	}
	return math.Abs(v)
}

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

// phase1Farkas returns the Farkas multiplier y at the end of a phase 1
// that found no improving variable: the phase-1 duals, π_T on the
// kernel's rows and piR on the basic infeasible rows, as an unevaluated
// sum of two vectors (hi, lo), stored as one of length 2m. With z = Aᵀy
// the basic columns should have z_S = c_S (their phase-1 costs); two
// steps of refinement with accurate residuals, y_T += Gᵀ(c_S − z_S), the
// first into hi and the second into lo, leave a residual near the square
// of the rounding unit instead of the rounding unit itself (a free
// column's z_j of 10⁻¹⁶ times a feasible x_j of 10¹⁵ would spoil a
// certificate).
func (s *simplex) phase1Farkas(c, piT, piR []float64) []float64 {
	y := make([]float64, 2*s.m)
	hi, lo := y[:s.m], y[s.m:]
	copy(hi, piR)
	for t, i := range s.T {
		hi[i] = piT[t]
	}
	s.refineY(hi, lo, c, hi)
	s.refineY(hi, lo, c, lo)
	return y
}

// dot2Pair returns (hi + lo)·v, hi + lo an unevaluated sum, by dot2
// (each product hi_j·v_j, then lo_j·v_j, where either is nonzero).
func dot2Pair(hi, lo, v []float64) float64 {
	var z dot2
	for j := range hi {
		if hi[j] != 0 || lo[j] != 0 {
			z.add(hi[j], v[j])
			z.add(lo[j], v[j])
		}
	}
	r, _ := z.result()
	return r
}

// refineY adds Gᵀ(c_S − A[:, S]ᵀ(hi + lo)) to into's kernel rows, the
// residual by dot2.
func (s *simplex) refineY(hi, lo, c, into []float64) {
	k := s.k()
	if k == 0 {
		return
	}
	res := make([]float64, k)
	for l, j := range s.S {
		res[l] = c[j] - dot2Pair(hi, lo, s.col(j))
	}
	for l := range k {
		if res[l] == 0 {
			continue
		}
		g := s.gRow(l)
		for t, i := range s.T {
			into[i] += res[l] * g[t]
		}
	}
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

// checkCertificate demotes sol's Infeasible or Unbounded status to
// NumericalFailure when the certificate the simplex kept does not prove it
// on p (the problem as given; sc, if not nil, is the scaling the simplex
// ran under, and sol is already unscaled).
func (s *simplex) checkCertificate(p *solver.Problem, o solver.Options, sc *scaling, sol *solver.Solution) {
	var ok bool
	var why string
	switch sol.Status {
	case solver.Infeasible:
		y := append([]float64(nil), s.farkas...)
		if sc != nil && len(y) == 2*len(sc.row) {
			for i := range y {
				y[i] *= sc.row[i%len(sc.row)]
			}
		}
		if len(y) != 2*p.NumRows {
			y = make([]float64, 2*p.NumRows+1) // no certificate: fails the check
		}
		ok, why = farkasProves(p, y[:p.NumRows], y[p.NumRows:])
	case solver.Unbounded:
		d := append([]float64(nil), s.ray...)
		if sc != nil && len(d) == 2*len(sc.col) {
			for j := range d {
				d[j] *= sc.col[j%len(sc.col)]
			}
		}
		if len(d) != 2*p.NumCols() {
			d = make([]float64, 2*p.NumCols()+1) // no ray: fails the check
		}
		if s.k() <= exactRayMax && len(d) == 2*p.NumCols() {
			// The basis's ray, exactly.
			if ray, exact := exactRay(p, s.S, s.T, s.rayEnter, s.rayDirection()); exact && s.rayDirection() != 0 {
				vertex, _ := exactVertex(p, s.S, s.T, s.st)
				ok, why = exactRayProves(p, o, sol.X, ray, vertex)
			} else {
				why = "no exact ray (singular kernel)"
			}
			break
		}
		fixed := make([]bool, p.NumRows)
		for _, i := range s.T {
			fixed[i] = i != s.rayEnter-s.n
		}
		ok, why = rayProves(p, o, sol.X, d[:p.NumCols()], d[p.NumCols():], fixed, s.kernelDuals(sc))
	default:
		return
	}
	if !ok {
		sol.Message = fmt.Sprintf("%v unproven: %s", sol.Status, why)
		sol.Status = solver.NumericalFailure
	}
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

// refineVertex makes an optimal x the basic solution of its basis again
// when a kernel row, which sits at a bound, misses it by more than the
// primal tolerance: one step of refinement, x_S += G(b_T −
// A[T, :]x) with the residual by dot2, and the basic rows' activities
// recomputed (and where that leaves it off, on a small kernel, the vertex
// built exactly and rounded). The inverse's rounding on a kernel with entries of 10⁻⁹
// next to 10⁶ had put a column 0.12 off its vertex, feasible within the
// tolerance but 0.12 above the exact optimum (FuzzSolve). A basis solved
// to the usual accuracy is left alone (and so are the design LPs' x).
func (s *simplex) refineVertex() {
	k := s.k()
	if k == 0 {
		return
	}
	res := make([]float64, k)
	// miss sets res to the kernel rows' residuals b_T − A[T, :]x and
	// returns the largest in units of the primal tolerance.
	miss := func() float64 {
		worst := 0.0
		for t, i := range s.T {
			var d dot2
			row := s.row(i)
			for j := range s.n {
				if x := s.x[j]; x != 0 {
					d.add(row[j], x)
				}
			}
			d.add(-1, s.x[s.n+i])
			v, _ := d.result()
			res[t] = -v
			worst = math.Max(worst, math.Abs(v)/(s.tolP*math.Max(s.unit[s.n+i], math.Abs(s.x[s.n+i]))))
		}
		return worst
	}
	before := miss()
	if !(before > 1) {
		return
	}
	saved := slices.Clone(s.x)
	for l, j := range s.S {
		s.x[j] += dotN(s.gRow(l), res)
	}
	s.basicRowActivities()
	// Where float64 cannot place x any closer (coordinates of 10¹⁵, a
	// row's sum of 7·10¹⁵ terms), the step may trade one row's miss for
	// another's: keep it only if the worst miss shrinks (FuzzSolve).
	after := miss()
	if !(after < before) {
		copy(s.x, saved)
		after = before
	}
	if !(after > 1) || k > exactRayMax || s.exactProblem() == nil {
		return
	}
	// Still off: on a kernel of condition 10²¹ the refinement's G is no
	// better than x (FuzzSolve d59508ae5de1798e: a kernel row 0.45 off
	// its bound, x₀ = 5.5·10¹⁴ where the vertex has 1.000001·10¹⁵, an
	// objective 45 % above the optimum, yet feasible within the
	// tolerance). On a small kernel the vertex is built exactly
	// (exactVertex) and rounded: as close as float64 holds it, whether or
	// not Finish then finds it feasible.
	if v, ok := exactVertex(s.exactProblem(), s.S, s.T, s.st); ok {
		for _, j := range s.S {
			s.x[j] = ratFloat(&v[j])
		}
		s.basicRowActivities()
	}
}

// refineDuals checks an optimal basis's duals: a basic column's reduced
// cost c_j − (Aᵀπ)_j must be zero, and one beyond the dual tolerance
// (FuzzSolve: 2.8·10⁻⁵ after a solve whose duals reached 10⁶) means π
// lost accuracy. Then one step of refinement, π_T += Gᵀ(c_S − A[T, S]ᵀπ_T)
// with the residual by dot2, recomputes the reduced costs; it reports
// false if they are no longer dual feasible (the caller then does not
// report an optimum). Accurate duals are left alone (the design LPs'
// among them).
func (s *simplex) refineDuals() bool {
	k := s.k()
	if k == 0 {
		return true
	}
	pi := make([]float64, k)
	for t, i := range s.T {
		pi[t] = s.d[s.n+i]
	}
	res := make([]float64, k)
	need := false
	for l, j := range s.S {
		var z dot2
		col := s.col(j)
		for t, i := range s.T {
			z.add(col[i], pi[t])
		}
		z.add(-1, s.cost[j])
		v, _ := z.result()
		res[l] = -v
		if math.Abs(v) > s.tolDv[j] {
			need = true
		}
	}
	if !need {
		return true
	}
	for l := range k {
		if res[l] != 0 {
			axpy(pi, res[l], s.gRow(l))
		}
	}
	s.reducedCosts(s.cost, pi, nil)
	return !s.dualInfeasible()
}

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
// optimum (scaling_test.go's verdict).
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
