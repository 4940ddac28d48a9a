package simplex

import (
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/solver"
)

// The certificate of an "infeasible" verdict: a Farkas multiplier y on the
// rows. With z = Aᵀy, every x within the column bounds has zᵀx ≥ L and
// every row activity r within the row bounds has yᵀr ≤ U, so L > U leaves
// no x with r = Ax: the LP is infeasible. y is phase 1's duals at the
// phase 1 that found no improving variable, refined twice against the
// final basis into an unevaluated sum hi + lo (phase1Farkas).
// farkasProves checks L > U on the problem as given, for y and for −y,
// every sum by dot2 with its rounding bounded, within column bounds
// tightened by what the rows imply (impliedBounds), a column's unbounded
// side taken up to farkasCap where the sign of z_j is uncertain.

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
