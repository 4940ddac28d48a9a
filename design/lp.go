package design

import (
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/solver"
)

// fitSet is the sampled fitting problem: evaluation points z_i, weights w_i
// and signature values k_i, with the norm to minimise.
type fitSet struct {
	z, w, k []float64
	norm    Norm
}

// newFitSet samples p on the points z with weights w (p.Weight if w is nil).
func newFitSet(p *Problem, z, w []float64) *fitSet {
	f := &fitSet{z: z, w: w, k: make([]float64, len(z)), norm: p.Norm}
	if w == nil {
		f.w = make([]float64, len(z))
	}
	for i, l := range z {
		if w == nil {
			f.w[i] = p.Weight(l)
		}
		f.k[i] = p.Signature(l)
	}
	return f
}

// residuals sets r_i = w_i (k_i − Σ_j α_j cos(ω_j z_i)).
func (f *fitSet) residuals(r, omega, alpha []float64) {
	for i, z := range f.z {
		s := f.k[i]
		for j, a := range alpha {
			if a != 0 {
				s -= a * math.Cos(omega[j]*z)
			}
		}
		r[i] = f.w[i] * s
	}
}

// objective is the weighted error of (ω, α) on the set in the set's norm.
func (f *fitSet) objective(omega, alpha []float64) float64 {
	r := make([]float64, len(f.z))
	f.residuals(r, omega, alpha)
	return f.normOf(r)
}

func (f *fitSet) normOf(r []float64) float64 {
	v := 0.0
	for _, e := range r {
		if f.norm == L1 {
			v += math.Abs(e)
		} else {
			v = math.Max(v, math.Abs(e))
		}
	}
	return v
}

// termDims is D_ω: 1 for ω = 0, 2 otherwise (Chum eq. 3).
func termDims(omega float64) int {
	if omega == 0 {
		return 1
	}
	return 2
}

// lpOutput is one solution of Chum's LP over a pool.
type lpOutput struct {
	omega, alpha []float64 // per pool entry; the frequency moved by β/α
	dims         int       // D of the (untruncated) output
	tradeoff     float64   // γ of the LP
	basis        *solver.Basis
}

// lpSolver builds and solves the design LPs of one fitting set.
type lpSolver struct {
	fit *fitSet
	sv  solver.Backend
	n   int // LPs solved
}

// errorColumns appends the error variables: one epigraph variable t for
// L∞ (cost γ) or one e_i per point for L1 (cost γ each). Rows come in pairs
// per point: (+) t + ŝ ≥ w k and (−) t − ŝ ≥ −w k, with ŝ = w k̂.
func (s *lpSolver) errorColumns(b *solver.Builder, cost float64) {
	m := 2 * len(s.fit.z)
	if s.fit.norm == L1 {
		for i := range s.fit.z {
			b.AddColumn(cost, 0, math.Inf(1), []int{2 * i, 2*i + 1}, []float64{1, 1})
		}
		return
	}
	col := make([]float64, m)
	for i := range col {
		col[i] = 1
	}
	b.AddDenseColumn(cost, 0, math.Inf(1), col)
}

func (s *lpSolver) rowBounds() (lo, hi []float64) {
	m := 2 * len(s.fit.z)
	lo, hi = make([]float64, m), make([]float64, m)
	for i := range s.fit.z {
		wk := s.fit.w[i] * s.fit.k[i]
		lo[2*i], lo[2*i+1] = wk, -wk
		hi[2*i], hi[2*i+1] = math.Inf(1), math.Inf(1)
	}
	return lo, hi
}

// addSigned appends a column whose (+) rows hold v_i and (−) rows −v_i.
func addSigned(b *solver.Builder, cost, lo, hi float64, v []float64) {
	col := make([]float64, 2*len(v))
	for i, x := range v {
		col[2*i], col[2*i+1] = x, -x
	}
	b.AddDenseColumn(cost, lo, hi, col)
}

// chum solves Chum's LP over pool omega: min Σ D_ω α_ω + γ·C(k, k̂). With
// dmax > 0 every nonzero frequency may move within ±dmax through the
// first-order term (Chum eq. 12), in the cone encoding of lp-design.md: two
// nonnegative columns cos(ωz) ∓ dmax·z·sin(ωz) per frequency, α = p + q,
// β = dmax(p − q), and the frequency moves to ω + β/α.
func (s *lpSolver) chum(omega []float64, dmax, gamma float64, warm *solver.Basis) (*lpOutput, error) {
	lo, hi := s.rowBounds()
	b := solver.NewBuilder(lo, hi)
	nz := len(s.fit.z)
	b.Reserve(2*len(omega)+nz+1, 4*nz*(len(omega)+1))
	s.errorColumns(b, gamma)
	v := make([]float64, nz)
	type colRef struct{ j, sign int } // sign 0: α column, ±1: p / q
	var refs []colRef
	for j, om := range omega {
		if om == 0 || dmax == 0 {
			for i, z := range s.fit.z {
				v[i] = s.fit.w[i] * math.Cos(om*z)
			}
			addSigned(b, float64(termDims(om)), 0, math.Inf(1), v)
			refs = append(refs, colRef{j, 0})
			continue
		}
		for _, sg := range []int{1, -1} {
			for i, z := range s.fit.z {
				v[i] = s.fit.w[i] * (math.Cos(om*z) - float64(sg)*dmax*z*math.Sin(om*z))
			}
			addSigned(b, 2, 0, math.Inf(1), v)
			refs = append(refs, colRef{j, sg})
		}
	}
	sol, err := s.solve(b.Problem(), warm)
	if err != nil {
		return nil, err
	}
	first := 1
	if s.fit.norm == L1 {
		first = nz
	}
	out := &lpOutput{omega: slices.Clone(omega), alpha: make([]float64, len(omega)), tradeoff: gamma, basis: sol.Basis}
	beta := make([]float64, len(omega))
	for c, r := range refs {
		x := math.Max(sol.X[first+c], 0)
		out.alpha[r.j] += x
		beta[r.j] += float64(r.sign) * dmax * x
	}
	for j, a := range out.alpha {
		if a <= alphaFloor {
			out.alpha[j] = 0
			continue
		}
		out.omega[j] = math.Abs(out.omega[j] + beta[j]/a)
		out.dims += termDims(out.omega[j])
	}
	return out, nil
}

// alphaFloor is the weight below which an LP output's frequency counts as
// unused.
const alphaFloor = 1e-12

// refit solves the pure fitting LP on a fixed support: min C(k, k̂) over
// α ≥ 0 (Chebyshev fit for L∞), the support's frequencies unchanged.
func (s *lpSolver) refit(omega []float64) ([]float64, error) {
	lo, hi := s.rowBounds()
	b := solver.NewBuilder(lo, hi)
	s.errorColumns(b, 1)
	v := make([]float64, len(s.fit.z))
	for _, om := range omega {
		for i, z := range s.fit.z {
			v[i] = s.fit.w[i] * math.Cos(om*z)
		}
		addSigned(b, 0, 0, math.Inf(1), v)
	}
	sol, err := s.solve(b.Problem(), nil)
	if err != nil {
		return nil, err
	}
	first := 1
	if s.fit.norm == L1 {
		first = len(s.fit.z)
	}
	alpha := make([]float64, len(omega))
	for j := range omega {
		alpha[j] = math.Max(sol.X[first+j], 0)
	}
	return alpha, nil
}

// solve runs one LP and insists on a verified optimum.
func (s *lpSolver) solve(p *solver.Problem, warm *solver.Basis) (*solver.Solution, error) {
	s.n++
	sol, err := s.sv.Solve(p, solver.Options{WarmStart: warm})
	if err != nil {
		return nil, err
	}
	if sol.Status != solver.Optimal {
		return nil, fmt.Errorf("design: %s LP (%d×%d) ended %v: %s", s.sv.Name(), p.NumRows, p.NumCols(), sol.Status, sol.Message)
	}
	return sol, nil
}
