package homogeneous

import (
	"context"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// Chebyshev is Li et al.'s Chebyshev χ² series (method "chebyshev", γ = 1
// only; Li et al. §4) with D terms d_0..d_{D−1}, evaluated by the stable
// upward recurrence
//
//	d_0 = 2x/(x+1),  d_1 = −(√2 log x/π) d_0,
//	d_q = [(−1)^q (2 log x/π) d_{q−1} + (q−2) d_{q−2}]/q,
//
// with Σ_{q≥0} d_q(x)d_q(y) = 2xy/(x+y). The truncation error decays like
// O(1/D) (docs/formulas.md §3.3).
type Chebyshev struct{}

// The interfaces Chebyshev implements (design/doc.go lists them).
var (
	_ design.Method       = Chebyshev{}
	_ design.SeriesMethod = Chebyshev{}
)

// Name returns "chebyshev".
func (Chebyshev) Name() string { return "chebyshev" }

// OneInputSeries marks Chebyshev maps as series stages
// (design.SeriesMethod).
func (Chebyshev) OneInputSeries() {}

// Options: none.
func (Chebyshev) Options() any { return &struct{}{} }

// Applies accepts the χ² kernel with γ = 1 on one input axis.
func (Chebyshev) Applies(p *fmap.Problem) error { return chi2Only("chebyshev", p) }

// Dims: every dimension.
func (Chebyshev) Dims(*fmap.Problem) design.Dims { return design.ClosedFormDims("chebyshev", "") }

// Design returns the series of dimension dim.
func (Chebyshev) Design(_ context.Context, p *fmap.Problem, dim int, _ design.Settings) (*design.Result, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if err := chi2Only("chebyshev", p); err != nil {
		return nil, err
	}
	return result(fmap.NewSeriesMap(p.Kernel, p.Domain, "chebyshev", &fmap.Series{Form: fmap.Chebyshev, Dim: dim, Negative: p.Negative}))
}
