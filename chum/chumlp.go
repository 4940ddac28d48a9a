package chum

import (
	"math"
	"slices"
)

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
// weights below them that one pricing's vertex holds and another's, of
// the same objective, does not (plain Proj's LPs: docs/lp-design.md)
// would otherwise each add a term to D(γ) and steer the γ search.
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
