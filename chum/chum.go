package chum

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/featmap/featmap/design"

	"github.com/featmap/featmap/fmap"
)

// MaxPool and MaxZ bound the LP sizes a one-dimensional design accepts.
const (
	MaxPool = 2000
	MaxZ    = 20000
)

// Chum is Chum's LP designer for maps of one input (method "chum"; ICCV
// 2015, §2–§5): the pool is ω = 0, s, 2s, … up to OmegaMax with s =
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

// Name returns "chum".
func (*Chum) Name() string { return "chum" }

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
		return nil, fmt.Errorf("design: dimension %d", dim)
	}
	if !c.Opts.continuation() {
		return c.DesignOne(ctx, p, dim, s)
	}
	fp, opt, err := c.fitProblem(p)
	if err != nil {
		return nil, err
	}
	key := chainKey{p, s.Backend().Name()}
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

// chain holds the designs of one problem by dimension, and the γ searches'
// solves they share.
type chain struct {
	mu     sync.Mutex
	levels []*level
	shared solveCache
}

// level is the design of one dimension; mu is held while it is made.
type level struct {
	mu   sync.Mutex
	res  *design.Result
	err  error
	done bool
}

func (ch *chain) level(d int) *level {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	for len(ch.levels) < d {
		ch.levels = append(ch.levels, &level{})
	}
	return ch.levels[d-1]
}

// design returns the design of dimension dim, making the missing ones
// below it first. A level that failed for a cancelled context is made
// again by the next call.
//
// The levels to make are explored at once (everything but the
// continuation of the design below does not depend on it; the gate shared
// by their fitters keeps the goroutines at work to Settings.Workers), and
// finished in order, each continuing the one below: a level's
// continuation starts as soon as the level below is finished, beside its
// own explore, and asks the gate urgently (the next level waits for it). Each level is
// deterministic, so the designs do not depend on the scheduling. The
// levels stay locked, lowest first, until each is finished.
func (ch *chain) design(ctx context.Context, fp FitProblem, opt FitOptions, dim int, s design.Settings) (*design.Result, error) {
	start := time.Now()
	levels := make([]*level, dim)
	for d := range levels {
		levels[d] = ch.level(d + 1)
		levels[d].mu.Lock()
	}
	unlocked := 0 // levels[:unlocked] are unlocked
	defer func() {
		for _, lv := range levels[unlocked:] {
			lv.mu.Unlock()
		}
	}()
	defer ch.shared.dropColumns()
	type job struct {
		c    *fitter
		err  error
		done chan struct{}
	}
	jobs := make([]*job, dim)
	// Only the target level reports progress (the others are quiet), from
	// its goroutine while the levels are explored, from this one after.
	g := newGate(workers(s))
	for d, lv := range levels {
		if lv.done && !errors.Is(lv.err, context.Canceled) && !errors.Is(lv.err, context.DeadlineExceeded) {
			continue
		}
		ls := s
		if d+1 < dim {
			ls = s.Quiet()
			s.Say(fmt.Sprintf("chum: D = %d on the way to %d", d+1, dim))
		}
		p := fp
		p.shared = &ch.shared
		j := &job{done: make(chan struct{})}
		j.c, j.err = newFitter(ctx, &p, d+1, opt, ls, g)
		jobs[d] = j
		if j.err != nil {
			close(j.done)
			continue
		}
		go func() {
			defer close(j.done)
			j.err = j.c.explore()
		}()
	}
	wait := func() {
		for _, j := range jobs {
			if j != nil {
				<-j.done
			}
		}
	}
	// base is the time the remembered level below the first one made here
	// took: a level's time is that plus this call's time until it is done.
	base := 0.0
	if f := slices.IndexFunc(jobs, func(j *job) bool { return j != nil }); f > 0 {
		if lv := levels[f-1]; lv.err == nil {
			base = lv.res.Seconds
		}
	}
	var prev *design.Result
	for d, lv := range levels {
		if j := jobs[d]; j != nil {
			// The continuation of the level below runs as soon as that
			// level is finished, beside this level's explore.
			cont := make(chan continued, 1)
			if j.c != nil && j.c.opt.polish() && prev != nil {
				terms := prev.Map.Fourier().Terms
				go func() { cont <- j.c.continueFrom(terms) }()
			} else {
				cont <- continued{}
			}
			<-j.done
			c := <-cont
			lv.res, lv.err = nil, j.err
			if j.err == nil {
				lv.res, lv.err = j.c.finish(c)
			}
			if lv.err == nil {
				// A shared solve counts in the lowest level that used
				// it, whichever solved it (levels finish in order).
				lv.res.LPs += ch.shared.count(j.c.sharedSolves)
				lv.res.Seconds = base + time.Since(start).Seconds()
				if prev != nil {
					lv.res.LPs += prev.LPs
				}
			}
			lv.done = true
		}
		res, err := lv.res, lv.err
		lv.mu.Unlock()
		unlocked++
		if err != nil {
			if d+1 == dim || ctx.Err() != nil {
				wait()
				return nil, err
			}
			// A dimension below the target that cannot be made is skipped:
			// the next one starts without a design to continue from.
			prev = nil
			continue
		}
		prev = res
	}
	return prev, nil
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
		return &design.OptionError{Key: key, Msg: strings.TrimPrefix(err.Error(), "design: ")}
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
		return FitProblem{}, FitOptions{}, fmt.Errorf("design: the pool has %d frequencies (omega_max %g / spacing %g), more than %d: raise method.spacing or lower method.omega_max", poolSize, opt.OmegaMax, opt.Spacing, MaxPool)
	case opt.ZPoints > MaxZ:
		return FitProblem{}, FitOptions{}, fmt.Errorf("design: |Z| = %d exceeds %d: lower method.z_points", opt.ZPoints, MaxZ)
	case opt.ZPoints < 3:
		return FitProblem{}, FitOptions{}, fmt.Errorf("design: |Z| = %d is too small", opt.ZPoints)
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

// newMap returns the one-stage Fourier map of the terms for l's problem.
func (l *line) newMap(method string, terms []fmap.Term) *fmap.Map {
	f := l.fourier()
	f.Terms = terms
	return fmap.NewFourierMap(l.p.Kernel, l.p.Domain, method, f)
}

// points turns scalars into one-dimensional points.
func points(v []float64) [][]float64 {
	out := make([][]float64, len(v))
	for i, x := range v {
		out[i] = []float64{x}
	}
	return out
}

// ladders returns the structured and random 1-D polish starts: evenly
// spaced and geometric ladders topping at the best candidate's largest
// frequency and at twice it, and log-uniform random frequencies in
// [scale/10, 3·scale]. A map of odd dimension keeps its constant term.
func ladders(omegaMax float64) func(best [][]float64, dim int, rng *rand.Rand) ([][][]float64, [][][]float64) {
	return func(best [][]float64, dim int, rng *rand.Rand) ([][][]float64, [][][]float64) {
		p := dim / 2
		if p == 0 {
			return nil, nil
		}
		scale := 0.0
		for _, om := range best {
			scale = math.Max(scale, om[0])
		}
		if scale == 0 {
			scale = omegaMax / 2
		}
		set := func(freqs []float64) [][]float64 {
			s := slices.Clone(freqs)
			slices.Sort(s)
			if dim%2 == 1 {
				s = append([]float64{0}, s...)
			}
			return points(s)
		}
		var structured, random [][][]float64
		ladder := make([]float64, p)
		for _, top := range []float64{1, 2} {
			for _, f := range []float64{1, 0.7} { // evenly spaced
				for j := range ladder {
					ladder[j] = f * top * scale * float64(j+1) / float64(p)
				}
				structured = append(structured, set(ladder))
			}
			for _, r := range []float64{2, 3} { // geometric
				for j := range ladder {
					ladder[j] = top * scale * math.Pow(r, float64(j+1-p))
				}
				structured = append(structured, set(ladder))
			}
		}
		for range 32 {
			for j := range ladder {
				ladder[j] = scale * math.Exp(math.Log(0.1)+rng.Float64()*math.Log(30))
			}
			random = append(random, set(ladder))
		}
		return structured, random
	}
}
