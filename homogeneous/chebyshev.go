package homogeneous

import "github.com/featmap/featmap/design"

// MethodChebyshev is the Method of maps made by Chebyshev.
const MethodChebyshev = "chebyshev"

// Chebyshev returns Li et al.'s Chebyshev χ² series (method "chebyshev",
// γ = 1 only) with p.Dim = N terms d_0..d_{N−1}: a design.Chebyshev map,
// evaluated by design's stable upward recurrence
//
//	d_0 = 2x/(x+1),  d_1 = −(√2 log x/π) d_0,
//	d_q = [(−1)^q (2 log x/π) d_{q−1} + (q−2) d_{q−2}]/q,
//
// with Σ_{q≥0} d_q(x)d_q(y) = 2xy/(x+y). The truncation error decays like
// O(1/N) (formulas.md §3.3).
func Chebyshev(p Problem) (*design.Map, error) {
	p, err := p.normalized()
	if err != nil {
		return nil, err
	}
	if err := checkChi2(MethodChebyshev, p); err != nil {
		return nil, err
	}
	m := p.newMap(MethodChebyshev)
	m.Transform = design.Identity
	m.Form = design.Chebyshev
	m.Dim = p.Dim
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}
