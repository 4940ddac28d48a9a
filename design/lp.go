package design

import (
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/solver"
)

// fitSet is a sampled fitting problem in n ≥ 1 dimensions: evaluation
// points z_i (flattened, n coordinates each), weights w_i and signature
// values k_i, the functional form of the terms and the norm to minimise.
// A term with frequency ω contributes α·φ(ω, z) with φ = cos(ω·z) (Fourier,
// the projection form in n-D) or Π_c cos(ω_c z_c) (Modulation).
type fitSet struct {
	n    int
	form Form
	z    []float64
	w, k []float64
	norm Norm
	// nonneg keeps frequencies nonnegative: 1-D Fourier maps (cos is even)
	// and modulation terms (each factor is).
	nonneg bool
}

// newFitSet samples sig on the points z with the weights w.
func newFitSet(form Form, norm Norm, z [][]float64, w []float64, sig func([]float64) float64) *fitSet {
	n := 1
	if len(z) > 0 {
		n = len(z[0])
	}
	f := &fitSet{n: n, form: form, z: make([]float64, 0, n*len(z)), w: w, k: make([]float64, len(z)), norm: norm}
	f.nonneg = form == Modulation || n == 1
	for i, p := range z {
		f.z = append(f.z, p...)
		f.k[i] = sig(p)
	}
	return f
}

func (f *fitSet) size() int { return len(f.w) }

func (f *fitSet) point(i int) []float64 { return f.z[i*f.n : (i+1)*f.n] }

// phiGrad returns φ(ω, z) and stores ∂φ/∂ω_c in g (if g is not nil).
func (f *fitSet) phiGrad(om, z, g []float64) float64 {
	if f.form == Modulation {
		p := 1.0
		for c, w := range om {
			if w != 0 {
				p *= math.Cos(w * z[c])
			}
		}
		if g != nil {
			for c, w := range om {
				g[c] = 0
				if w == 0 {
					continue
				}
				q := -z[c] * math.Sin(w*z[c])
				for d, v := range om {
					if d != c && v != 0 {
						q *= math.Cos(v * z[d])
					}
				}
				g[c] = q
			}
		}
		return p
	}
	ph := 0.0
	for c, w := range om {
		ph += w * z[c]
	}
	if g != nil {
		s := math.Sin(ph)
		for c := range om {
			g[c] = -z[c] * s
		}
	}
	return math.Cos(ph)
}

// movable lists the coordinates of ω that the continuous refinement and the
// polish may move: all of a nonzero Fourier frequency, the nonzero ones of
// a modulation term (a zero factor stays 1, keeping D fixed).
func (f *fitSet) movable(om []float64) []int {
	var mv []int
	zero := isZero(om)
	for c, w := range om {
		if f.form == Modulation && w == 0 || f.form == Fourier && zero {
			continue
		}
		mv = append(mv, c)
	}
	return mv
}

func isZero(om []float64) bool {
	for _, w := range om {
		if w != 0 {
			return false
		}
	}
	return true
}

// termDims is D_ω: 1 for ω = 0 and 2 otherwise for Fourier terms (Chum eq.
// 3), 2^{#nonzero ω_c} for modulation terms (§6.2).
func (f *fitSet) termDims(om []float64) int {
	return termDim(f.form, Term{Freq: om})
}

// residuals sets r_i = w_i (k_i − Σ_j α_j φ(ω_j, z_i)).
func (f *fitSet) residuals(r []float64, omega [][]float64, alpha []float64) {
	for i := range r {
		z := f.point(i)
		s := f.k[i]
		for j, a := range alpha {
			if a != 0 {
				s -= a * f.phiGrad(omega[j], z, nil)
			}
		}
		r[i] = f.w[i] * s
	}
}

// objective is the weighted error of (ω, α) on the set in the set's norm.
func (f *fitSet) objective(omega [][]float64, alpha []float64) float64 {
	r := make([]float64, f.size())
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

// lpOutput is one solution of Chum's LP over a pool.
type lpOutput struct {
	omega    [][]float64 // per pool entry, moved by β/α
	alpha    []float64
	dims     int     // D of the (untruncated) output
	tradeoff float64 // γ of the LP
	basis    *solver.Basis
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
	m := 2 * s.fit.size()
	if s.fit.norm == L1 {
		for i := range s.fit.size() {
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

// firstColumn is the index of the first non-error column.
func (s *lpSolver) firstColumn() int {
	if s.fit.norm == L1 {
		return s.fit.size()
	}
	return 1
}

// newBuilder starts an LP whose rows bound |r_i| with the given residual
// offsets: lo = (r_i, −r_i) for the (+) and (−) rows.
func (s *lpSolver) newBuilder(r []float64, cols, nnz int) *solver.Builder {
	m := 2 * len(r)
	lo, hi := make([]float64, m), make([]float64, m)
	for i, e := range r {
		lo[2*i], lo[2*i+1] = e, -e
		hi[2*i], hi[2*i+1] = math.Inf(1), math.Inf(1)
	}
	b := solver.NewBuilder(lo, hi)
	b.Reserve(cols, nnz)
	return b
}

// weightedSignature returns w_i k_i, the residual offsets of a fitting LP.
func (s *lpSolver) weightedSignature() []float64 {
	r := make([]float64, s.fit.size())
	for i := range r {
		r[i] = s.fit.w[i] * s.fit.k[i]
	}
	return r
}

// addSigned appends a column whose (+) rows hold v_i and (−) rows −v_i.
func addSigned(b *solver.Builder, cost, lo, hi float64, v []float64) {
	col := make([]float64, 2*len(v))
	for i, x := range v {
		col[2*i], col[2*i+1] = x, -x
	}
	b.AddDenseColumn(cost, lo, hi, col)
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

// chum solves Chum's LP over a pool: min Σ D_ω α_ω + γ·C(k, k̂). With
// dmax > 0 every movable frequency coordinate may move within ±dmax through
// the first-order term (Chum eq. 12), in the cone encoding of lp-design.md:
// the trust-region box |β_c| ≤ dmax·α is the cone spanned by its corners,
// so each frequency gets one nonnegative column per corner s,
// φ(ω, z) + dmax Σ_c s_c ∂φ/∂ω_c(ω, z), with α = Σ_s p_s, β = dmax Σ_s s·p_s,
// and the frequency moves to ω + β/α.
func (s *lpSolver) chum(pool [][]float64, dmax, gamma float64, warm *solver.Basis) (*lpOutput, error) {
	f := s.fit
	nz := f.size()
	b := s.newBuilder(s.weightedSignature(), 4*len(pool)+nz+1, 8*nz*(len(pool)+1))
	s.errorColumns(b, gamma)
	type colRef struct {
		j  int
		mv []int
		s  []float64 // corner signs; nil for a fixed frequency
	}
	var refs []colRef
	phi := make([]float64, nz)
	grad := make([]float64, nz*f.n)
	v := make([]float64, nz)
	for j, om := range pool {
		for i := range nz {
			phi[i] = f.phiGrad(om, f.point(i), grad[i*f.n:(i+1)*f.n])
		}
		cost := float64(f.termDims(om))
		mv := f.movable(om)
		if dmax == 0 || len(mv) == 0 {
			for i := range nz {
				v[i] = f.w[i] * phi[i]
			}
			addSigned(b, cost, 0, math.Inf(1), v)
			refs = append(refs, colRef{j: j})
			continue
		}
		for _, sg := range corners(mv) {
			for i := range nz {
				d := 0.0
				gi := grad[i*f.n : (i+1)*f.n]
				for k, c := range mv {
					d += sg[k] * gi[c]
				}
				v[i] = f.w[i] * (phi[i] + dmax*d)
			}
			addSigned(b, cost, 0, math.Inf(1), v)
			refs = append(refs, colRef{j: j, mv: mv, s: sg})
		}
	}
	sol, err := s.solve(b.Problem(), warm)
	if err != nil {
		return nil, err
	}
	first := s.firstColumn()
	out := &lpOutput{omega: make([][]float64, len(pool)), alpha: make([]float64, len(pool)), tradeoff: gamma, basis: sol.Basis}
	beta := make([][]float64, len(pool))
	for j := range pool {
		out.omega[j] = slices.Clone(pool[j])
		beta[j] = make([]float64, f.n)
	}
	for c, r := range refs {
		x := math.Max(sol.X[first+c], 0)
		out.alpha[r.j] += x
		for k, cc := range r.mv {
			beta[r.j][cc] += r.s[k] * dmax * x
		}
	}
	for j, a := range out.alpha {
		if a <= alphaFloor {
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

// refit solves the pure fitting LP on a fixed support: min C(k, k̂) over
// α ≥ 0 (a Chebyshev fit for L∞), the frequencies unchanged.
func (s *lpSolver) refit(omega [][]float64) ([]float64, error) {
	f := s.fit
	nz := f.size()
	b := s.newBuilder(s.weightedSignature(), len(omega)+nz+1, 2*nz*(len(omega)+1))
	s.errorColumns(b, 1)
	v := make([]float64, nz)
	for _, om := range omega {
		for i := range nz {
			v[i] = f.w[i] * f.phiGrad(om, f.point(i), nil)
		}
		addSigned(b, 0, 0, math.Inf(1), v)
	}
	sol, err := s.solve(b.Problem(), nil)
	if err != nil {
		return nil, err
	}
	alpha := make([]float64, len(omega))
	for j := range omega {
		alpha[j] = math.Max(sol.X[s.firstColumn()+j], 0)
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
