package simplex

import (
	"fmt"
	"math"

	"github.com/featmap/featmap/solver"
)

// What makes a verdict of the pure-Go backend true (docs/lp-design.md,
// "The pure-Go solver's verdicts on badly scaled LPs"). The simplex
// decides with tolerances (a phase-1 reduced cost within the dual
// tolerance is taken as zero, a rate within the pivot tolerance as no
// rate), which on an LP whose numbers span many orders of magnitude can be
// wrong. So each verdict rests on a certificate, checked against the
// problem as given (unscaled) with error-free transformations (Ogita, Rump
// and Oishi's Dot2: every product and sum carries its exact rounding
// error) and an explicit bound on what rounding is left:
//
//   - infeasible: a Farkas multiplier, phase 1's duals refined (farkas.go);
//   - unbounded: an improving ray from a feasible x, refined (ray.go), or
//     on a kernel of at most exactRayMax columns built and checked exactly
//     (exact.go);
//   - optimal: the vertex and the duals refined where they lost accuracy
//     (optimum.go), no reduced cost within the tolerance hiding a ray or a
//     long improving step (faint.go), and on an ill-conditioned small
//     kernel the vertex and duals built exactly (exactCheck, exact.go).
//
// A verdict whose certificate fails its check becomes a NumericalFailure
// (an honest "gave up"), never a wrong answer. This file holds what the
// checks share — the error-free sums (twoSum, dot2), the refinement of
// duals with accurate residuals into a double-length hi+lo vector
// (refineY) — and checkCertificate, which checks an infeasible or
// unbounded verdict's certificate once a solve is done.

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
