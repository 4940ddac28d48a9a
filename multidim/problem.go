// Package multidim designs feature maps for kernels of several input
// dimensions that are not sums of one-dimensional maps (Chum §6): the
// multiplicative RBF kernel with a diagonal Σ on a box in ℝ² or ℝ³, by
// projection (terms cos(ω·x), ω ∈ ℝⁿ), by modulation (products of per-axis
// cosines) and by the greedy tensor product of per-axis 1-D designs
// ("⊗ no LP"). The LP methods run design's LP designer on n-D evaluation
// sets and pools.
package multidim

import (
	"errors"
	"fmt"
	"math"

	"github.com/featmap/featmap/design"
)

// Problem is the multiplicative RBF kernel
// K(x, y) = Π_i exp(−(x_i − y_i)²/(2σ_i²)) on the box Π_i [Lo_i, Hi_i].
type Problem struct {
	Sigma   []float64
	Lo, Hi  []float64
	Measure design.Measure
	Norm    design.Norm
}

// MaxDims is the largest input dimension supported.
const MaxDims = 3

// check validates the problem.
func (p *Problem) check() error {
	n := len(p.Sigma)
	switch {
	case n < 2 || n > MaxDims:
		return fmt.Errorf("multidim: %d input dimensions; 2 or 3 are supported", n)
	case len(p.Lo) != n || len(p.Hi) != n:
		return errors.New("multidim: the box and sigma have different dimensions")
	}
	for i := range n {
		if !(p.Sigma[i] > 0) || math.IsInf(p.Sigma[i], 0) {
			return fmt.Errorf("multidim: sigma[%d] = %v must be positive and finite", i, p.Sigma[i])
		}
		if !(p.Hi[i] > p.Lo[i]) || math.IsInf(p.Hi[i]-p.Lo[i], 0) {
			return fmt.Errorf("multidim: axis %d: [%v, %v] is not a finite interval", i, p.Lo[i], p.Hi[i])
		}
	}
	return nil
}

func (p *Problem) n() int { return len(p.Sigma) }

// span is M_i = hi_i − lo_i.
func (p *Problem) span(i int) float64 { return p.Hi[i] - p.Lo[i] }

// signature is k(λ) = Π exp(−λ_i²/(2σ_i²)).
func (p *Problem) signature(l []float64) float64 {
	s := 0.0
	for i, v := range l {
		s += v * v / (2 * p.Sigma[i] * p.Sigma[i])
	}
	return math.Exp(-s)
}

// weight is the error weight of the measure: 1, or 1/k for the relative
// error.
func (p *Problem) weight(l []float64) float64 {
	if p.Measure == design.Relative {
		return 1 / p.signature(l)
	}
	return 1
}

// template is the map every method fills in.
func (p *Problem) template(form design.Form, method string) design.Map {
	return design.Map{
		Kernel:    design.Kernel{Type: "rbf", Sigma: append([]float64(nil), p.Sigma...)},
		InDim:     p.n(),
		Domain:    design.Domain{Lo: append([]float64(nil), p.Lo...), Hi: append([]float64(nil), p.Hi...)},
		Transform: design.Identity,
		Form:      form,
		Method:    method,
	}
}

// Verification grids.
const (
	// inputsPerAxis are the verification inputs per axis (kernel errors are
	// taken over all ordered pairs of the grid), for n = 2 and n = 3.
	inputsPerAxis2, inputsPerAxis3 = 15, 8
)

// reference builds what design.Verify measures n-D maps with. The reported
// error of the uniform and the absolute measure — which coincide for a
// shift-invariant kernel — is the signature error on the dense λ grid, which
// covers Π_{i<n}[−M_i, M_i] × [0, M_n] (every difference x − y up to sign)
// with per-axis spacing zStep/denser.
func (p *Problem) reference(zStep []float64, denser int) *design.Reference {
	n := p.n()
	measure := p.Measure
	if measure == design.Absolute {
		measure = design.Uniform
	}
	ref := &design.Reference{
		Measure: measure,
		Exact: func(x, y []float64) float64 {
			d := make([]float64, len(x))
			for i := range x {
				d[i] = x[i] - y[i]
			}
			return p.signature(d)
		},
		Signature: p.signature,
		Weight:    p.weight,
	}
	g := inputsPerAxis2
	if n == 3 {
		g = inputsPerAxis3
	}
	var axes [][]float64
	for i := range n {
		axes = append(axes, linspace(p.Lo[i], p.Hi[i], g))
	}
	ref.Inputs = product(axes)
	ref.InputsOn = fmt.Sprintf("a %s grid on the box", gridShape(n, g))
	var dense [][]float64
	shape := ""
	for i := range n {
		k := int(math.Ceil(p.span(i)/zStep[i]))*denser + 1
		var ax []float64
		if i < n-1 {
			ax = linspace(-p.span(i), p.span(i), 2*k-1)
		} else {
			ax = linspace(0, p.span(i), k)
		}
		dense = append(dense, ax)
		if shape != "" {
			shape += "×"
		}
		shape += fmt.Sprint(len(ax))
	}
	ref.Dense = product(dense)
	ref.DenseOn = fmt.Sprintf("a %s grid of λ = x − y over %s", shape, boxWords(p, true))
	return ref
}

func gridShape(n, g int) string {
	s := fmt.Sprint(g)
	for i := 1; i < n; i++ {
		s += fmt.Sprintf("×%d", g)
	}
	return s
}

// boxWords names the λ box: Π_{i<n}[−M_i, M_i] × [0, M_n] (half) or
// Π[0, M_i].
func boxWords(p *Problem, half bool) string {
	s := ""
	for i := range p.n() {
		if i > 0 {
			s += " × "
		}
		if half && i < p.n()-1 {
			s += fmt.Sprintf("[−%.4g, %.4g]", p.span(i), p.span(i))
		} else {
			s += fmt.Sprintf("[0, %.4g]", p.span(i))
		}
	}
	return s
}

// linspace returns k ≥ 2 equally spaced points from a to b.
func linspace(a, b float64, k int) []float64 {
	out := make([]float64, k)
	for i := range out {
		out[i] = a + (b-a)*float64(i)/float64(k-1)
	}
	return out
}

// product returns the Cartesian product of the axes, the last axis varying
// fastest.
func product(axes [][]float64) [][]float64 {
	out := [][]float64{nil}
	for _, ax := range axes {
		next := make([][]float64, 0, len(out)*len(ax))
		for _, p := range out {
			for _, v := range ax {
				q := make([]float64, len(p), len(p)+1)
				copy(q, p)
				next = append(next, append(q, v))
			}
		}
		out = next
	}
	return out
}
