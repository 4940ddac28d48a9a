package multidim

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/solver"
)

// Pool kinds of the projection method.
const (
	PoolPolar  = "polar"  // a grid of directions × radii ("Proj")
	PoolTensor = "tensor" // the frequencies of the per-axis designs' product ("Proj ⊗")
)

// Options tune the multi-dimensional methods. Every field is optional: the
// zero value selects the documented default.
type Options struct {
	// Chum tunes the LP designer (refine_iterations, polish, starts, seed);
	// its pool and Z options do not apply here. Starts defaults to 4.
	Chum design.ChumOptions
	// AxisDim is the dimension of the per-axis 1-D designs whose
	// frequencies make the tensor pools (modulation, projection with pool
	// tensor, tensor-greedy). Default 11 (Chum §7.3 uses the 11-D map of
	// §7.1), raised to the smallest odd value whose n-th power exceeds the
	// target dimension.
	AxisDim int
	// ZPoints is the number of points of Z per axis on [0, M_i] (axes on
	// [−M_i, M_i] get 2·ZPoints−1). Default 41 in 2-D, 15 in 3-D.
	ZPoints int
	// Pool is the projection method's pool: polar (default) or tensor.
	Pool string
	// Angles and Radii size the polar pool (default 24 and 16): Radii
	// circles up to OmegaMax, the outermost with Angles directions in
	// [0, π) (in 3-D about Angles²/2 on a hemisphere), the inner ones with
	// proportionally fewer, so that the pool's density is about even.
	Angles, Radii int
	// OmegaMax is the polar pool's largest |ω| (default 3/min σ).
	OmegaMax float64
}

// MaxLPEntries bounds rows × columns of the discrete LP a design may build,
// and MaxZPoints the points of Z per axis.
const (
	MaxLPEntries = 12_000_000
	MaxZPoints   = 201
)

func (o Options) withDefaults(p *Problem, dim int) Options {
	if o.Chum.Starts <= 0 {
		o.Chum.Starts = 4
	}
	if o.AxisDim <= 0 {
		o.AxisDim = 11
		for math.Pow(float64(o.AxisDim), float64(p.n())) <= float64(dim) {
			o.AxisDim += 2
		}
	}
	if o.ZPoints <= 0 {
		o.ZPoints = 41
		if p.n() == 3 {
			o.ZPoints = 15
		}
	}
	if o.Pool == "" {
		o.Pool = PoolPolar
	}
	if o.Angles <= 0 {
		o.Angles = 24
	}
	if o.Radii <= 0 {
		o.Radii = 16
	}
	if o.OmegaMax <= 0 {
		o.OmegaMax = 3 / slices.Min(p.Sigma)
	}
	return o
}

// axisDesigns designs the per-axis 1-D maps (Chum §6.2's Ψ^i), once per
// distinct (σ_i, M_i).
func axisDesigns(p *Problem, o Options, sv solver.Backend, progress func(string)) ([]*design.Map, int, error) {
	maps := make([]*design.Map, p.n())
	lps := 0
	for i := range p.n() {
		for j := range i {
			if p.Sigma[j] == p.Sigma[i] && p.span(j) == p.span(i) {
				maps[i] = maps[j]
			}
		}
		if maps[i] != nil {
			continue
		}
		progress(fmt.Sprintf("axis %d: 1-D design, D = %d", i+1, o.AxisDim))
		dp, err := design.RBFProblem(p.Sigma[i], design.Domain{Lo: []float64{0}, Hi: []float64{p.span(i)}}, design.Uniform, design.LInf)
		if err != nil {
			return nil, 0, err
		}
		res, err := design.Chum(dp, o.AxisDim, design.ChumOptions{Seed: o.Chum.Seed}, sv, nil)
		if err != nil {
			return nil, 0, fmt.Errorf("multidim: axis %d: %w", i+1, err)
		}
		maps[i], lps = res.Map, lps+res.LPs
	}
	return maps, lps, nil
}

// tensorTerms returns the Kronecker product of the per-axis designs: every
// combination of one term per axis, with α = Π α_i (Chum eq. 21).
func tensorTerms(axes []*design.Map) []design.Term {
	terms := []design.Term{{Weight: 1}}
	for _, m := range axes {
		var next []design.Term
		for _, t := range terms {
			for _, u := range m.Terms {
				next = append(next, design.Term{Freq: append(slices.Clone(t.Freq), u.Freq[0]), Weight: t.Weight * u.Weight})
			}
		}
		terms = next
	}
	return terms
}

// prepare checks the problem, fills in the options' defaults and designs the
// per-axis 1-D maps that the tensor pools are made of.
func (p *Problem) prepare(dim int, o Options, sv solver.Backend, progress func(string)) (Options, func(string), []*design.Map, int, error) {
	if err := p.check(); err != nil {
		return o, nil, nil, 0, err
	}
	progress = quiet(progress)
	o = o.withDefaults(p, dim)
	axes, lps, err := axisDesigns(p, o, sv, progress)
	return o, progress, axes, lps, err
}

// TensorGreedy is "⊗ no LP" (Chum §6.2): the Kronecker product of the
// per-axis 1-D designs, keeping the products with the largest weights
// α = Π α_i that fit in dim dimensions. The map is verified.
func TensorGreedy(p *Problem, dim int, o Options, sv solver.Backend, progress func(string)) (*design.Result, error) {
	o, progress, axes, lps, err := p.prepare(dim, o, sv, progress)
	if err != nil {
		return nil, err
	}
	terms := tensorTerms(axes)
	slices.SortStableFunc(terms, func(a, b design.Term) int { return cmp.Compare(b.Weight, a.Weight) })
	m := p.template(design.Modulation, "tensor-greedy")
	used := 0
	for _, t := range terms {
		d := 1
		for _, w := range t.Freq {
			if w != 0 {
				d *= 2
			}
		}
		if used+d <= dim {
			m.Terms = append(m.Terms, t)
			used += d
		}
	}
	m.Canonical()
	if m.Dim < dim {
		return nil, fmt.Errorf("multidim: the product of %d-D axis designs reaches only D = %d < %d: raise method.axis_dim", o.AxisDim, m.Dim, dim)
	}
	zStep := make([]float64, p.n())
	for i := range zStep {
		zStep[i] = p.span(i) / float64(o.ZPoints-1)
	}
	design.Verify(&m, p.reference(zStep, denser(p.n())))
	return &design.Result{Map: &m, LPs: lps}, m.Validate()
}

// Reference returns what maps of p designed with options o (their Z
// spacing) are verified against, for a dimension dim.
func (p *Problem) Reference(o Options) (*design.Reference, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	o = o.withDefaults(p, 1)
	zStep := make([]float64, p.n())
	for i := range zStep {
		zStep[i] = p.span(i) / float64(o.ZPoints-1)
	}
	return p.reference(zStep, denser(p.n())), nil
}

// denser is the per-axis refinement of the dense verification grid over
// Z's spacing: ten in 2-D, four in 3-D (64 times as many points).
func denser(n int) int {
	if n == 3 {
		return 4
	}
	return 10
}

// Modulation designs a modulation map (Chum §6.2): terms α Π_i cos(ω_i λ_i)
// with Z on Π[0, M_i] and the pool Ω⊗ of the per-axis designs' frequency
// products, through the LP designer with continuous refinement and polish.
func Modulation(p *Problem, dim int, o Options, sv solver.Backend, progress func(string)) (*design.Result, error) {
	o, progress, axes, lps, err := p.prepare(dim, o, sv, progress)
	if err != nil {
		return nil, err
	}
	var pool [][]float64
	for _, t := range tensorTerms(axes) {
		pool = append(pool, t.Freq)
	}
	fp, err := p.fitProblem(design.Modulation, "modulation", o, pool, false)
	if err != nil {
		return nil, err
	}
	fp.Spacing = 0.1
	res, err := design.Fit(fp, dim, o.Chum, sv, progress)
	if err != nil {
		return nil, err
	}
	res.LPs += lps
	return res, nil
}

// Projection designs a projection map (Chum §6.1): terms α cos(ω·λ), ω ∈ ℝⁿ,
// with Z on Π_{i<n}[−M_i, M_i] × [0, M_n] and a polar pool ("Proj") or the
// per-axis designs' products turned into projections ("Proj ⊗":
// cos(a)cos(b) = ½cos(a+b) + ½cos(a−b)).
func Projection(p *Problem, dim int, o Options, sv solver.Backend, progress func(string)) (*design.Result, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	progress = quiet(progress)
	o = o.withDefaults(p, dim)
	var pool [][]float64
	lps := 0
	spacing := 0.1
	switch o.Pool {
	case PoolTensor:
		axes, n, err := axisDesigns(p, o, sv, progress)
		if err != nil {
			return nil, err
		}
		lps = n
		pool = projectionsOf(tensorTerms(axes))
	case PoolPolar:
		pool = polarPool(p.n(), o.Angles, o.Radii, o.OmegaMax)
		spacing = o.OmegaMax / float64(o.Radii) / 2
	default:
		return nil, fmt.Errorf("multidim: unknown projection pool %q (want polar or tensor)", o.Pool)
	}
	method := "projection"
	if o.Pool == PoolTensor {
		method = "projection (tensor pool)"
	}
	fp, err := p.fitProblem(design.Fourier, method, o, pool, true)
	if err != nil {
		return nil, err
	}
	fp.Spacing = spacing
	res, err := design.Fit(fp, dim, o.Chum, sv, progress)
	if err != nil {
		return nil, err
	}
	res.LPs += lps
	return res, nil
}

// projectionsOf turns modulation frequencies into projection frequencies:
// every sign pattern of the nonzero coordinates, the first nonzero one kept
// positive (ω and −ω are the same projection).
func projectionsOf(terms []design.Term) [][]float64 {
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
		k := max(2, int(math.Ceil(float64(angles*b)/float64(radii))))
		var dirs [][]float64
		if n == 2 {
			for a := range k {
				th := math.Pi * float64(a) / float64(k)
				dirs = append(dirs, []float64{math.Cos(th), math.Sin(th)})
			}
		} else {
			k = max(k*k/2, 2)
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

// fitProblem builds the LP designer's problem: Z on Π[0, M_i] (half = false)
// or Π_{i<n}[−M_i, M_i] × [0, M_n] (half = true), with the pool.
func (p *Problem) fitProblem(form design.Form, method string, o Options, pool [][]float64, half bool) (*design.FitProblem, error) {
	n := p.n()
	if o.ZPoints < 3 {
		return nil, fmt.Errorf("multidim: method.z_points %d is too small", o.ZPoints)
	}
	var axes [][]float64
	zStep := make([]float64, n)
	for i := range n {
		zStep[i] = p.span(i) / float64(o.ZPoints-1)
		if half && i < n-1 {
			axes = append(axes, linspace(-p.span(i), p.span(i), 2*o.ZPoints-1))
		} else {
			axes = append(axes, linspace(0, p.span(i), o.ZPoints))
		}
	}
	z := product(axes)
	if rows, cols := 2*len(z), len(pool)+1; rows*cols > MaxLPEntries {
		return nil, fmt.Errorf("multidim: the LP would have %d rows × %d columns (|Z| = %d, %d pool frequencies), more than %d entries: lower method.z_points, method.angles or method.radii",
			rows, cols, len(z), len(pool), MaxLPEntries)
	}
	w := make([]float64, len(z))
	for i, l := range z {
		w[i] = p.weight(l)
	}
	return &design.FitProblem{
		Template:  p.template(form, method),
		Signature: p.signature,
		Z:         z,
		ZWeight:   w,
		ZOn:       fmt.Sprintf("Z: a %s grid over %s", zShape(axes), boxWords(p, half)),
		Norm:      p.Norm,
		Pool:      pool,
		Reference: p.reference(zStep, denser(n)),
	}, nil
}

func zShape(axes [][]float64) string {
	s := ""
	for i, a := range axes {
		if i > 0 {
			s += "×"
		}
		s += fmt.Sprint(len(a))
	}
	return s
}

func quiet(f func(string)) func(string) {
	if f == nil {
		return func(string) {}
	}
	return f
}
