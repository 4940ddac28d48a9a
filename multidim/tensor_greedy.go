package multidim

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// TensorGreedyOptions tune the greedy tensor map. It solves no LP over
// the box, so it has no evaluation set Z (no z_points).
type TensorGreedyOptions struct {
	// AxisDim is the dimension of the per-axis 1-D designs (Grid.AxisDim).
	AxisDim int `yaml:"axis_dim" spec:"min=1,max=201"`
	// Seed seeds the per-axis designs (default 1).
	Seed int64 `yaml:"seed" spec:"default=1"`
}

// TensorGreedy is "⊗ no LP" (method "tensor-greedy", Chum §6.2): the
// Kronecker product of the per-axis 1-D designs, keeping the products with
// the largest weights α = Π α_i that fit in the dimension.
type TensorGreedy struct{ Opts TensorGreedyOptions }

// The interfaces TensorGreedy implements (design/doc.go lists them).
var (
	_ design.Method = (*TensorGreedy)(nil)
)

// Name returns "tensor-greedy".
func (*TensorGreedy) Name() string { return "tensor-greedy" }

// Options returns the options.
func (m *TensorGreedy) Options() any { return &m.Opts }

// Applies accepts the RBF kernel on 2 or 3 axes.
func (*TensorGreedy) Applies(p *fmap.Problem) error { return rbfAxes("tensor-greedy", p) }

// Dims: every dimension.
func (*TensorGreedy) Dims(*fmap.Problem) design.Dims { return design.AnyDim }

// Design designs the map of dimension dim.
func (m *TensorGreedy) Design(ctx context.Context, p *fmap.Problem, dim int, s design.Settings) (*design.Result, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	g := Grid{AxisDim: m.Opts.AxisDim}.withDefaults(p.InDim(), dim)
	seed := m.Opts.Seed
	if seed == 0 {
		seed = 1
	}
	axes, lps, err := axisDesigns(ctx, p, g.AxisDim, seed, s)
	if err != nil {
		return nil, err
	}
	terms := tensorTerms(axes)
	slices.SortStableFunc(terms, func(a, b fmap.Term) int { return cmp.Compare(b.Weight, a.Weight) })
	var kept []fmap.Term
	used := 0
	for _, t := range terms {
		d := fmap.TermDim(fmap.Modulation, t.Freq)
		if d == 1 && dim%2 == 0 {
			// The constant term (ω = 0) is the only one of an odd number
			// of components (2^{#nonzero ω_i}, §6.2), so an even D has
			// none: as chum does (chum.Chum), it keeps the constant's
			// weight in a term of a tiny frequency ε on the first axis,
			// of two components, whose cosine stays within ε²M²/2 =
			// 5·10⁻⁷ of 1 on the domain.
			t = fmap.Term{Freq: make([]float64, p.InDim()), Weight: t.Weight}
			t.Freq[0] = 1e-3 / span(p, 0)
			d = 2
		}
		if used+d <= dim {
			kept = append(kept, t)
			used += d
		}
	}
	mp := newMap(p, fmap.Modulation, "tensor-greedy", kept)
	if mp.Dim != dim {
		return nil, fmt.Errorf("multidim: the product of %d-D axis designs reaches only D = %d < %d: raise method.axis_dim", g.AxisDim, mp.Dim, dim)
	}
	if err := mp.Validate(); err != nil {
		return nil, err
	}
	return &design.Result{Map: mp, LPs: lps}, nil
}
