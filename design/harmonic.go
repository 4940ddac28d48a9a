package design

import (
	"fmt"
	"math"
)

// Harmonic returns the orthogonal projection of p's signature onto the
// cosine basis cos(jπλ/M), j = 0..n, with D = 2n+1 (Chum §3, §7.1: the
// "17D harmonic" baseline), dropping the frequencies whose coefficient is
// negative (a map needs α ≥ 0). The projection is unweighted (p.Weight is
// not used), as in the paper; the map may therefore have fewer than dim
// dimensions.
func Harmonic(p *Problem, dim int) (*Map, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if dim < 1 || dim%2 == 0 {
		return nil, fmt.Errorf("design: harmonic makes odd dimensions only, not %d", dim)
	}
	n := (dim - 1) / 2
	base := math.Pi / p.M
	omega := make([]float64, n+1)
	alpha := make([]float64, n+1)
	for j := range omega {
		omega[j] = float64(j) * base
		c := integrate(func(l float64) float64 { return p.Signature(l) * math.Cos(omega[j]*l) }, p.M)
		if j == 0 {
			alpha[j] = c / p.M
		} else {
			alpha[j] = 2 * c / p.M
		}
		if alpha[j] < 0 {
			alpha[j] = 0
		}
	}
	m := p.newMap("harmonic")
	for j, a := range alpha {
		if a > 0 {
			m.Terms = append(m.Terms, Term{Freq: []float64{omega[j]}, Weight: a})
		}
	}
	m.Canonical()
	if len(m.Terms) == 0 {
		return nil, fmt.Errorf("design: every harmonic coefficient of the signature is ≤ 0")
	}
	return m, m.Validate()
}

// integrate returns ∫_0^M f by composite Gauss–Legendre (5 nodes) on 2000
// panels: exact to rounding for the smooth integrands of the harmonic
// projection.
func integrate(f func(float64) float64, M float64) float64 {
	nodes := [5]float64{-0.9061798459386640, -0.5384693101056831, 0, 0.5384693101056831, 0.9061798459386640}
	weights := [5]float64{0.2369268850561891, 0.4786286704993665, 0.5688888888888889, 0.4786286704993665, 0.2369268850561891}
	const panels = 2000
	h := M / panels
	s := 0.0
	for k := range panels {
		c := (float64(k) + 0.5) * h
		for i, x := range nodes {
			s += weights[i] * f(c+x*h/2)
		}
	}
	return s * h / 2
}
