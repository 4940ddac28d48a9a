package design

import (
	"math"
	"slices"

	"github.com/featmap/featmap/solver"
)

// Polish: a minimax (or L1) trust-region sequential LP on frequencies and
// weights jointly, the support and hence D fixed (Madsen's method). Each
// step solves
//
//	min  C(r + J Δ)   s.t.  |Δω_j| ≤ ρ,  |Δα_j| ≤ ρ·s_j,  α + Δα ≥ 0,  ω + Δω ≥ 0
//
// and adapts ρ by the ratio of the actual to the predicted decrease.

const (
	polishMaxSteps = 80
	polishRho0     = 0.05
	polishRhoMax   = 0.5
	polishRhoMin   = 1e-10
)

// polish improves (ω, α) on the fitting set and returns the best iterate
// and its objective. Frequencies equal to 0 stay at 0 (the constant term).
func (s *lpSolver) polish(omega, alpha []float64) ([]float64, []float64, float64, error) {
	omega, alpha = slices.Clone(omega), slices.Clone(alpha)
	f := s.fit
	nz := len(f.z)
	r := make([]float64, nz)
	f.residuals(r, omega, alpha)
	F := f.normOf(r)
	rho := polishRho0
	v := make([]float64, nz)
	for step := 0; step < polishMaxSteps && rho > polishRhoMin; step++ {
		lo := make([]float64, 2*nz)
		hi := make([]float64, 2*nz)
		for i, e := range r {
			lo[2*i], lo[2*i+1] = e, -e
			hi[2*i], hi[2*i+1] = math.Inf(1), math.Inf(1)
		}
		b := solver.NewBuilder(lo, hi)
		s.errorColumns(b, 1)
		scale := 0.0
		for _, a := range alpha {
			scale += a
		}
		// Every step variable is split into nonnegative parts Δ = Δ⁺ − Δ⁻, so
		// that the LP starts from Δ = 0 at a vertex.
		type varRef struct {
			j     int
			omega bool
			sign  float64
		}
		var refs []varRef
		b.Reserve(4*len(alpha), 8*nz*len(alpha))
		addPair := func(j int, omega bool, down, up float64) {
			addSigned(b, 0, 0, up, v)
			refs = append(refs, varRef{j, omega, 1})
			for i := range v {
				v[i] = -v[i]
			}
			addSigned(b, 0, 0, down, v)
			refs = append(refs, varRef{j, omega, -1})
		}
		for j, a := range alpha {
			// −∂r/∂α_j = w cos(ω z)
			for i, z := range f.z {
				v[i] = f.w[i] * math.Cos(omega[j]*z)
			}
			sj := math.Max(a, 1e-3*scale)
			addPair(j, false, math.Min(rho*sj, a), rho*sj)
			if omega[j] == 0 {
				continue
			}
			// −∂r/∂ω_j = −w α z sin(ω z)
			for i, z := range f.z {
				v[i] = -f.w[i] * a * z * math.Sin(omega[j]*z)
			}
			addPair(j, true, math.Min(rho, omega[j]), rho)
		}
		sol, err := s.solve(b.Problem(), nil)
		if err != nil {
			return nil, nil, 0, err
		}
		first := 1
		if f.norm == L1 {
			first = nz
		}
		predicted := 0.0
		for c := 0; c < first; c++ {
			if f.norm == L1 {
				predicted += sol.X[c]
			} else {
				predicted = sol.X[c]
			}
		}
		pred := F - predicted
		if !(pred > 1e-13*F) {
			break // the linear model sees no descent: stationary
		}
		om2, al2 := slices.Clone(omega), slices.Clone(alpha)
		for c, ref := range refs {
			d := ref.sign * sol.X[first+c]
			if ref.omega {
				om2[ref.j] = math.Max(om2[ref.j]+d, 0)
			} else {
				al2[ref.j] = math.Max(al2[ref.j]+d, 0)
			}
		}
		r2 := make([]float64, nz)
		f.residuals(r2, om2, al2)
		F2 := f.normOf(r2)
		ratio := (F - F2) / pred
		if ratio > 0.01 {
			omega, alpha, r, F = om2, al2, r2, F2
		}
		switch {
		case ratio > 0.75:
			rho = math.Min(2*rho, polishRhoMax)
		case ratio < 0.25:
			rho /= 4
		}
	}
	return omega, alpha, F, nil
}
