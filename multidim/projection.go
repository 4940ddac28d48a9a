package multidim

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// Pool kinds of the projection method.
const (
	PoolPolar  = "polar"  // a grid of directions × radii ("Proj")
	PoolTensor = "tensor" // the frequencies of the per-axis designs' product ("Proj ⊗")
)

// ProjectionOptions tune the projection method.
type ProjectionOptions struct {
	Grid            `yaml:",inline"`
	chum.FitOptions `yaml:",inline"`
	// Pool is the projection method's pool: polar (default) or tensor.
	Pool string `yaml:"pool" spec:"enum=polar|tensor"`
	// Angles and Radii size the polar pool (default 24 and 16): Radii
	// circles up to OmegaMax, the outermost with Angles directions in
	// [0, π) (in 3-D about Angles²/2 on a hemisphere), the inner ones with
	// proportionally fewer, so that the pool's density is about even.
	Angles int `yaml:"angles" spec:"min=2,max=360"`
	Radii  int `yaml:"radii" spec:"min=1,max=500"`
	// OmegaMax is the polar pool's largest |ω| (default 3/min σ).
	OmegaMax float64 `yaml:"omega_max" spec:"positive"`
}

// SetDefaults fills in the default pool.
func (o *ProjectionOptions) SetDefaults() {
	if o.Pool == "" {
		o.Pool = PoolPolar
	}
}

// Projection designs a projection map (method "projection", Chum §6.1):
// terms α cos(ω·λ), ω ∈ ℝⁿ, with Z on Π_{i<n}[−M_i, M_i] × [0, M_n] and a
// polar pool ("Proj") or the per-axis designs' products turned into
// projections ("Proj ⊗": cos(a)cos(b) = ½cos(a+b) + ½cos(a−b)).
type Projection struct{ Opts ProjectionOptions }

// The interfaces Projection implements (design/doc.go lists them).
var (
	_ design.Method        = (*Projection)(nil)
	_ design.OptionChecker = (*Projection)(nil)
	_ design.Defaulter     = (*ProjectionOptions)(nil)
)

// Name returns "projection".
func (*Projection) Name() string { return "projection" }

// Options returns the options.
func (m *Projection) Options() any { return &m.Opts }

// Applies accepts the RBF kernel on 2 or 3 axes.
func (*Projection) Applies(p *fmap.Problem) error { return rbfAxes("projection", p) }

// Dims: every dimension.
func (*Projection) Dims(*fmap.Problem) design.Dims { return design.AnyDim }

// polar returns the polar pool's sizes and largest |ω|, defaults filled
// in.
func (o ProjectionOptions) polar(p *fmap.Problem) (angles, radii int, omegaMax float64) {
	angles, radii, omegaMax = o.Angles, o.Radii, o.OmegaMax
	if angles <= 0 {
		angles = 24
	}
	if radii <= 0 {
		radii = 16
	}
	if omegaMax <= 0 {
		omegaMax = 3 / slices.Min(p.Kernel.Sigma)
	}
	return angles, radii, omegaMax
}

// The options that size projection's LP, by pool.
const (
	polarLower  = "method.z_points, method.angles or method.radii, or use modulation"
	tensorLower = "method.z_points or method.axis_dim, or use modulation"
)

// CheckOptions refuses a pool whose discrete LP would exceed
// MaxLPEntries, known from the options before the design: 2|Z| rows,
// |Z| = (2·z_points − 1)^(n−1)·z_points on the half box, and a column per
// pool frequency and one for the error bound; a polar pool's frequencies
// counted by polarSize, a tensor pool's by tensorPoolSize
// (checkTensorLP, before the per-axis designs it is made from).
func (m *Projection) CheckOptions(p *fmap.Problem) error {
	o := m.Opts
	o.SetDefaults()
	if o.Pool == PoolTensor {
		return checkTensorLP(p, o.Grid, true, "pool", tensorLower)
	}
	if o.Pool != PoolPolar {
		return nil
	}
	n := p.InDim()
	zp := o.Grid.withDefaults(n, 1).ZPoints
	angles, radii, _ := o.polar(p)
	return lpOptionError(gridPoints(n, zp, true), polarSize(n, angles, radii), polarLower, "z_points",
		option{"angles", o.Angles}, option{"radii", o.Radii})
}

// Design designs the map of dimension dim.
func (m *Projection) Design(ctx context.Context, p *fmap.Problem, dim int, s design.Settings) (*design.Result, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	o := m.Opts
	o.SetDefaults()
	g := o.Grid.withDefaults(p.InDim(), dim)
	fo := fitOptions(o.FitOptions)
	angles, radii, omegaMax := o.polar(p)
	var pool [][]float64
	lps := 0
	spacing := 0.1
	method := "projection"
	switch o.Pool {
	case PoolTensor:
		axes, n, err := axisDesigns(ctx, p, g.AxisDim, fo.Seed, s)
		if err != nil {
			return nil, err
		}
		lps = n
		pool = projectionsOf(tensorTerms(axes))
		method = "projection (tensor pool)"
	case PoolPolar:
		pool = polarPool(p.InDim(), angles, radii, omegaMax)
		spacing = omegaMax / float64(radii) / 2
	default:
		return nil, fmt.Errorf("multidim: unknown projection pool %q (want polar or tensor)", o.Pool)
	}
	lower := polarLower
	if o.Pool == PoolTensor {
		lower = tensorLower
	}
	fp, err := fitProblem(p, fmap.FourierForm, method, g.ZPoints, pool, true, lower)
	if err != nil {
		return nil, err
	}
	fp.Spacing = spacing
	// Both pools refine over LPs of 4 near-parallel cone columns per
	// frequency and thousands of points (Proj ⊗ its whole pool, Proj its
	// heaviest frequencies), which Dantzig's pricing takes thousands of
	// pivots over (docs/lp-design.md). Plain Proj took them without these
	// settings until the exchange against Z's midpoints came: before it,
	// its D = 31 design (σ = 0.3) went from L∞ 0.1227 to 0.1288 with them,
	// its search taking another path; with it, 0.1203.
	fp.RefineLarge = true
	res, err := chum.Fit(ctx, fp, dim, fo, s)
	if err != nil {
		return nil, err
	}
	res.LPs += lps
	return res, nil
}

// projectionsOf turns modulation frequencies into projection frequencies:
// every sign pattern of the nonzero coordinates, the first nonzero one kept
// positive (ω and −ω are the same projection).
func projectionsOf(terms []fmap.Term) [][]float64 {
	var pool [][]float64
	seen := map[string]bool{}
	for _, t := range terms {
		vs := [][]float64{nil}
		first := true
		for _, w := range t.Freq {
			var next [][]float64
			for _, v := range vs {
				next = append(next, append(slices.Clone(v), w))
				if w != 0 && !first {
					next = append(next, append(slices.Clone(v), -w))
				}
			}
			if w != 0 {
				first = false
			}
			vs = next
		}
		for _, v := range vs {
			if k := fmt.Sprint(v); !seen[k] {
				seen[k] = true
				pool = append(pool, v)
			}
		}
	}
	return pool
}

// polarPool returns ω = 0 and a polar grid of frequencies out to omegaMax
// whose density in the frequency plane is about even: the b-th of `radii`
// circles carries about angles·b/radii directions (at least one per
// quadrant pair), so the small circles hold no near-duplicate columns. In
// 2-D the directions lie in [0, π); in 3-D they are a Fibonacci lattice on
// the upper hemisphere with about (angles·b/radii)²/2 points.
func polarPool(n, angles, radii int, omegaMax float64) [][]float64 {
	pool := [][]float64{make([]float64, n)}
	for b := 1; b <= radii; b++ {
		r := omegaMax * float64(b) / float64(radii)
		k := polarDirs(n, angles, radii, b)
		var dirs [][]float64
		if n == 2 {
			for a := range k {
				th := math.Pi * float64(a) / float64(k)
				dirs = append(dirs, []float64{math.Cos(th), math.Sin(th)})
			}
		} else {
			golden := math.Pi * (3 - math.Sqrt(5))
			for i := range k {
				z := (float64(i) + 0.5) / float64(k) // (0, 1): the upper hemisphere
				rho := math.Sqrt(1 - z*z)
				dirs = append(dirs, []float64{rho * math.Cos(golden*float64(i)), rho * math.Sin(golden*float64(i)), z})
			}
		}
		for _, d := range dirs {
			w := make([]float64, n)
			for i := range w {
				w[i] = r * d[i]
			}
			pool = append(pool, w)
		}
	}
	return pool
}

// polarDirs is the number of directions of polarPool's b-th circle (of
// radii): angles·b/radii rounded up, at least 2, and in 3-D about half its
// square, on the hemisphere.
func polarDirs(n, angles, radii, b int) int {
	k := max(2, int(math.Ceil(float64(angles*b)/float64(radii))))
	if n != 2 {
		k = max(k*k/2, 2)
	}
	return k
}

// polarSize is len(polarPool(n, angles, radii, ·)), without making it.
func polarSize(n, angles, radii int) int {
	size := 1
	for b := 1; b <= radii; b++ {
		size += polarDirs(n, angles, radii, b)
	}
	return size
}
