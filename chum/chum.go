package chum

import (
	"context"
	"fmt"
	"math"
	"strings"
	"sync"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// MaxPool and MaxZ bound the LP sizes a one-dimensional design accepts.
const (
	MaxPool = 2000
	MaxZ    = 20000
)

// Chum is Chum's LP designer for maps of one input (method "chum"; ICCV
// 2015, §2–§5): the pool is ω = 0, s, 2·s, … up to OmegaMax with s =
// Spacing, Z is a grid of ZPoints points on [0, M] (or, when the domain is
// a set of integers, its heaviest attainable λ in each grid cell), and the
// polish also starts from evenly spaced and geometric frequency ladders.
//
// A design of dimension D continues from the design of D − 1, which
// continues from D − 2, down to D = 1 (Fit's Prev): so a map of one more
// dimension never fits worse than the one it extends, and an even D keeps
// the weight of the constant term in a term of tiny frequency instead of
// losing it. A Chum value remembers the designs it made for a problem (and
// LP backend), so a max_error search or a comparison pays for each
// dimension once.
type Chum struct {
	Opts ChumOptions

	mu     sync.Mutex
	chains map[chainKey]*chain
}

// chainKey is what a remembered design depends on besides the options: the
// problem and the LP backend.
type chainKey struct {
	p      *fmap.Problem
	solver string
}

// The interfaces Chum implements (design/doc.go lists them).
var (
	_ design.Method        = (*Chum)(nil)
	_ design.OptionChecker = (*Chum)(nil)
	_ design.SeriesMethod  = (*Chum)(nil)
	_ design.Incremental   = (*Chum)(nil)
)

// Name returns "chum".
func (*Chum) Name() string { return "chum" }

// OneInputSeries marks chum's one-input maps as Fourier stages
// (design.SeriesMethod).
func (*Chum) OneInputSeries() {}

// Options returns the options.
func (c *Chum) Options() any { return &c.Opts }

// Incremental reports true unless the continuation is off: a design of D
// continues from every D below it (see Incremental).
func (c *Chum) Incremental() bool { return c.Opts.continuation() }

// Applies accepts the homogeneous kernels and RBF on one input axis.
func (*Chum) Applies(p *fmap.Problem) error { return oneAxis("chum", p) }

// oneAxis is the Applies of the one-dimensional cosine methods: a map of
// one input whose signature is a function of x − y (RBF) or log(y/x) (the
// homogeneous kernels).
func oneAxis(name string, p *fmap.Problem) error {
	if k := p.Kernel; !k.Homogeneous() && k.Type != fmap.RBF {
		return fmt.Errorf("%s designs maps of the homogeneous kernels and rbf, not %s", name, k.Type)
	}
	if n := p.InDim(); n != 1 {
		return fmt.Errorf("%s designs maps of one input axis only; domain.dims is %d", name, n)
	}
	return nil
}

// Dims: every dimension.
func (*Chum) Dims(*fmap.Problem) design.Dims {
	return design.Dims{Max: MaxChumDim, MaxStated: true, Why: fmt.Sprintf("chum designs at most %d dimensions (by default a design of D continues from every D below it, and D = 64 of a 1-D RBF kernel takes minutes)", MaxChumDim)}
}

// MaxChumDim is the largest dimension chum designs.
const MaxChumDim = 128

// Design designs the map of dimension dim, and on the way every smaller
// dimension it continues from that this Chum has not designed yet; with
// the continuation off, dim alone (DesignOne).
func (c *Chum) Design(ctx context.Context, p *fmap.Problem, dim int, s design.Settings) (*design.Result, error) {
	if dim < 1 {
		return nil, fmt.Errorf("chum: dimension %d", dim)
	}
	if !c.Opts.continuation() {
		return c.DesignOne(ctx, p, dim, s)
	}
	fp, opt, err := c.fitProblem(p)
	if err != nil {
		return nil, err
	}
	sv, err := backend(s)
	if err != nil {
		return nil, err
	}
	key := chainKey{p, sv.Name()}
	c.mu.Lock()
	if c.chains == nil {
		c.chains = map[chainKey]*chain{}
	}
	ch := c.chains[key]
	if ch == nil {
		ch = &chain{}
		c.chains[key] = ch
	}
	c.mu.Unlock()
	return ch.design(ctx, fp, opt, dim, s)
}

// DesignOne designs the map of dimension dim alone, without the designs of
// smaller dimensions to continue from: faster, without the guarantee that
// one more dimension never fits worse. The multi-dimensional methods use it
// for their per-axis designs, which only supply frequencies.
func (c *Chum) DesignOne(ctx context.Context, p *fmap.Problem, dim int, s design.Settings) (*design.Result, error) {
	fp, opt, err := c.fitProblem(p)
	if err != nil {
		return nil, err
	}
	return Fit(ctx, &fp, dim, opt, s)
}

// CheckOptions checks, when the spec is read, the sizes the options and
// the problem give the design: the frequency pool and the evaluation set Z
// (a tiny σ on a wide domain makes a pool of millions of frequencies).
func (c *Chum) CheckOptions(p *fmap.Problem) error {
	if _, _, err := c.fitProblem(p); err != nil {
		key := "omega_max"
		if strings.Contains(err.Error(), "|Z|") {
			key = "z_points"
		}
		return &design.OptionError{Key: key, Msg: strings.TrimPrefix(err.Error(), "chum: ")}
	}
	return nil
}

// fitProblem returns Chum's fitting problem for p with the options'
// defaults filled in.
func (c *Chum) fitProblem(p *fmap.Problem) (FitProblem, FitOptions, error) {
	l, err := newLine(p)
	if err != nil {
		return FitProblem{}, FitOptions{}, err
	}
	opt := c.Opts
	if opt.OmegaMax <= 0 {
		opt.OmegaMax = l.OmegaMax
	}
	if opt.Spacing <= 0 {
		opt.Spacing = 0.1
	}
	if opt.ZPoints <= 0 {
		opt.ZPoints = int(math.Ceil(l.M/l.ZStep)) + 1
	}
	poolSize := int(math.Floor(opt.OmegaMax/opt.Spacing+1e-9)) + 1
	switch {
	case poolSize > MaxPool:
		return FitProblem{}, FitOptions{}, fmt.Errorf("chum: the pool has %d frequencies (omega_max %g / spacing %g), more than %d: raise method.spacing or lower method.omega_max", poolSize, opt.OmegaMax, opt.Spacing, MaxPool)
	case opt.ZPoints > MaxZ:
		return FitProblem{}, FitOptions{}, fmt.Errorf("chum: |Z| = %d exceeds %d: lower method.z_points", opt.ZPoints, MaxZ)
	case opt.ZPoints < 3:
		return FitProblem{}, FitOptions{}, fmt.Errorf("chum: |Z| = %d is too small", opt.ZPoints)
	}
	fp := FitProblem{
		Form:      fmap.FourierForm,
		NewMap:    func(terms []fmap.Term) *fmap.Map { return l.newMap("chum", terms) },
		Signature: func(lambda []float64) float64 { return l.signature(lambda[0]) },
		Norm:      p.Norm,
		Spacing:   opt.Spacing,
		Ladders:   ladders(opt.OmegaMax),
	}
	for j := range poolSize {
		fp.Pool = append(fp.Pool, []float64{float64(j) * opt.Spacing})
	}
	var z, w []float64
	if l.Exact != nil {
		z, w = l.Exact.cells(l.M, l.M/float64(opt.ZPoints-1))
		fp.ZOn = fmt.Sprintf("Z: the heaviest of the domain's %d attainable λ in each of %d cells of [0, %.6g]", len(l.Exact.Lambda), opt.ZPoints-1, l.M)
		fp.Exact, fp.ExactWeight = points(l.Exact.Lambda), l.Exact.Weight
	} else {
		z = grid(l.M, opt.ZPoints-1)
		fp.ZOn = fmt.Sprintf("Z: %d equally spaced λ in [0, %.6g]", len(z), l.M)
		w = make([]float64, len(z))
		for i, v := range z {
			w[i] = l.weight(v)
		}
	}
	fp.Z, fp.ZWeight = points(z), w
	return fp, opt.FitOptions, nil
}

// points turns scalars into one-dimensional points.
func points(v []float64) [][]float64 {
	out := make([][]float64, len(v))
	for i, x := range v {
		out[i] = []float64{x}
	}
	return out
}
