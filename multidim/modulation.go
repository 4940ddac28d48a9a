package multidim

import (
	"context"

	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// ModulationOptions tune the modulation method.
type ModulationOptions struct {
	Grid `yaml:",inline"`
	// FitOptions tune the LP designer; Starts defaults to 4.
	chum.FitOptions `yaml:",inline"`
}

// fit returns the LP designer's options with the multi-dimensional default
// of 4 polish starts.
func fitOptions(o chum.FitOptions) chum.FitOptions {
	if o.Starts <= 0 {
		o.Starts = 4
	}
	return o
}

// Modulation designs a modulation map (method "modulation", Chum §6.2):
// terms α Π_i cos(ω_i λ_i) with Z on Π[0, M_i] and the pool Ω⊗ of the
// per-axis designs' frequency products, through the LP designer with
// continuous refinement and polish.
type Modulation struct{ Opts ModulationOptions }

// The interfaces Modulation implements (design/doc.go lists them).
var (
	_ design.Method        = (*Modulation)(nil)
	_ design.OptionChecker = (*Modulation)(nil)
)

// Name returns "modulation".
func (*Modulation) Name() string { return "modulation" }

// Options returns the options.
func (m *Modulation) Options() any { return &m.Opts }

// Applies accepts the RBF kernel on 2 or 3 axes.
func (*Modulation) Applies(p *fmap.Problem) error { return rbfAxes("modulation", p) }

// Dims: every dimension.
func (*Modulation) Dims(*fmap.Problem) design.Dims { return design.AnyDim }

// modulationLower names the options that size modulation's LP.
const modulationLower = "method.z_points or method.axis_dim"

// CheckOptions refuses, before the per-axis designs, a pool whose
// discrete LP would exceed MaxLPEntries (checkTensorLP): 2·z_points^n
// rows and a column for each of the at least ⌈axis_dim/2⌉^n products and
// one for the error bound.
func (m *Modulation) CheckOptions(p *fmap.Problem) error {
	return checkTensorLP(p, m.Opts.Grid, false, "z_points", modulationLower)
}

// Design designs the map of dimension dim.
func (m *Modulation) Design(ctx context.Context, p *fmap.Problem, dim int, s design.Settings) (*design.Result, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	g := m.Opts.Grid.withDefaults(p.InDim(), dim)
	fo := fitOptions(m.Opts.FitOptions)
	axes, lps, err := axisDesigns(ctx, p, g.AxisDim, fo.Seed, s)
	if err != nil {
		return nil, err
	}
	var pool [][]float64
	for _, t := range tensorTerms(axes) {
		pool = append(pool, t.Freq)
	}
	fp, err := fitProblem(p, fmap.Modulation, "modulation", g.ZPoints, pool, false, modulationLower)
	if err != nil {
		return nil, err
	}
	fp.Spacing = 0.1
	res, err := chum.Fit(ctx, fp, dim, fo, s)
	if err != nil {
		return nil, err
	}
	res.LPs += lps
	return res, nil
}
