package chum

import (
	"context"
	"fmt"
	"math"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// Harmonic is the orthogonal projection of the signature onto the cosine
// basis cos(jπλ/M), j = 0..n, with D = 2n+1 (method "harmonic"; Chum §3,
// §7.1: the "17D harmonic" baseline). A map needs α ≥ 0: a frequency whose
// coefficient is negative keeps weight 0, so its two components are
// identically 0 and the map still has D outputs (fmap.Map.ZeroComponents
// counts them). The projection is unweighted, as in the paper.
type Harmonic struct{}

// The interfaces Harmonic implements (design/doc.go lists them).
var (
	_ design.Method = Harmonic{}
)

// Name returns "harmonic".
func (Harmonic) Name() string { return "harmonic" }

// Options: none.
func (Harmonic) Options() any { return &struct{}{} }

// Applies accepts any kernel on one input axis.
func (Harmonic) Applies(p *fmap.Problem) error { return oneAxis("harmonic", p) }

// Dims: odd dimensions.
func (Harmonic) Dims(*fmap.Problem) design.Dims {
	d := design.ClosedFormDims("harmonic", "harmonic makes odd dimensions only")
	d.Odd = true
	return d
}

// Design projects the signature on n+1 cosines, D = 2n+1.
func (Harmonic) Design(_ context.Context, p *fmap.Problem, dim int, _ design.Settings) (*design.Result, error) {
	if dim < 1 || dim%2 == 0 {
		return nil, fmt.Errorf("chum: harmonic makes odd dimensions only, not %d", dim)
	}
	l, err := newLine(p)
	if err != nil {
		return nil, err
	}
	n := (dim - 1) / 2
	base := math.Pi / l.M
	terms := make([]fmap.Term, n+1)
	for j := range terms {
		omega := float64(j) * base
		c := integrate(func(x float64) float64 { return l.signature(x) * math.Cos(omega*x) }, l.M)
		alpha := 2 * c / l.M
		if j == 0 {
			alpha = c / l.M
		}
		terms[j] = fmap.Term{Freq: []float64{omega}, Weight: math.Max(alpha, 0)}
	}
	m := l.newMap("harmonic", terms)
	if m.ZeroComponents() == m.Dim {
		return nil, fmt.Errorf("chum: every harmonic coefficient of the signature is ≤ 0")
	}
	return &design.Result{Map: m}, m.Validate()
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
