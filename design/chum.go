package design

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/featmap/featmap/solver"
)

// Stage is one step of a design pipeline with its measured error (in the
// problem's measure, on the verification set).
type Stage struct {
	Name  string      `json:"name"`
	Error Measurement `json:"error"`
	Map   *Map        `json:"-"`
}

// Result is a finished design: the final map (verified, Errors set), the
// stages that led to it and the number of LPs solved.
type Result struct {
	Map    *Map
	Stages []Stage
	LPs    int
}

// The stage names of Chum's pipeline.
const (
	StageDiscrete = "discrete LP"
	StagePaper    = "paper pipeline"
	StageRefit    = "refit"
	StagePolished = "polished"
)

// withDefaults fills in the documented defaults of o for p.
func (o ChumOptions) withDefaults(p *Problem) ChumOptions {
	if o.OmegaMax <= 0 {
		o.OmegaMax = p.OmegaMax
	}
	if o.Spacing <= 0 {
		o.Spacing = 0.1
	}
	if o.ZPoints <= 0 {
		o.ZPoints = int(math.Ceil(p.M/p.ZStep)) + 1
	}
	if o.RefineIterations <= 0 {
		o.RefineIterations = 8
	}
	if o.Starts <= 0 {
		o.Starts = 16
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// MaxPool and MaxZ bound the LP sizes a 1-D design accepts.
const (
	MaxPool = 2000
	MaxZ    = 20000
)

// candidate is a support with weights and its objective on Z.
type candidate struct {
	omega, alpha []float64
	score        float64
}

// Chum designs a map of dimension dim for p with Chum's LP method: the
// discrete pool and γ search (§2.1), the continuous frequency refinement
// (§4.2) — together the "paper pipeline" — then, unless opt.NoPolish, a refit
// of the weights on the chosen support and a multi-start joint polish of
// frequencies and weights. Every stage is verified against p.Reference; the
// final map is the best stage by the objective on Z.
func Chum(p *Problem, dim int, opt ChumOptions, sv solver.Backend, progress func(string)) (*Result, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if dim < 1 {
		return nil, fmt.Errorf("design: dimension %d", dim)
	}
	if progress == nil {
		progress = func(string) {}
	}
	opt = opt.withDefaults(p)
	poolSize := int(math.Floor(opt.OmegaMax/opt.Spacing+1e-9)) + 1
	switch {
	case poolSize > MaxPool:
		return nil, fmt.Errorf("design: the pool has %d frequencies (omega_max %g / spacing %g), more than %d: raise method.spacing or lower method.omega_max", poolSize, opt.OmegaMax, opt.Spacing, MaxPool)
	case opt.ZPoints > MaxZ:
		return nil, fmt.Errorf("design: |Z| = %d exceeds %d: lower method.z_points", opt.ZPoints, MaxZ)
	case opt.ZPoints < 3:
		return nil, fmt.Errorf("design: |Z| = %d is too small", opt.ZPoints)
	}
	var z, w []float64
	var zOn string
	if p.Exact != nil {
		z, w = p.Exact.cells(p.M, p.M/float64(opt.ZPoints-1))
		zOn = fmt.Sprintf("Z: the heaviest of the domain's %d attainable λ in each of %d cells of [0, %.6g]", len(p.Exact.Lambda), opt.ZPoints-1, p.M)
	} else {
		z = grid(p.M, opt.ZPoints-1)
		zOn = fmt.Sprintf("Z: %d equally spaced λ in [0, %.6g]", len(z), p.M)
	}
	zPts := make([][]float64, len(z))
	for i, l := range z {
		zPts[i] = []float64{l}
	}
	c := &chum{p: p, dim: dim, opt: opt, z: zPts, zOn: zOn, lp: &lpSolver{fit: newFitSet(p, z, w), sv: sv}, progress: progress}
	c.score = c.lp.fit
	if p.Exact != nil {
		c.score = newFitSet(p, p.Exact.Lambda, p.Exact.Weight)
	}
	res, err := c.run(poolSize)
	if err != nil {
		return nil, err
	}
	res.LPs = c.lps()
	return res, nil
}

type chum struct {
	p   *Problem
	dim int
	opt ChumOptions
	z   [][]float64 // Z as points, for SignatureError
	zOn string
	lp  *lpSolver
	// score is the set on which designs are finally compared: the exact set
	// when the problem has one, else Z.
	score    *fitSet
	extraLPs int
	mu       sync.Mutex
	cands    []candidate
	progress func(string)
}

func (c *chum) lps() int { return c.lp.n + c.extraLPs }

func (c *chum) run(poolSize int) (*Result, error) {
	pool := make([]float64, poolSize)
	for j := range pool {
		pool[j] = float64(j) * c.opt.Spacing
	}
	res := &Result{}
	c.progress(fmt.Sprintf("discrete LP: pool of %d frequencies, |Z| = %d, γ search for D = %d", poolSize, len(c.lp.fit.z), c.dim))
	outs, err := c.search(pool, 0, 100, 12)
	if err != nil {
		return nil, err
	}
	discrete := c.best()
	if discrete == nil {
		return nil, errors.New("design: the discrete LP produced no usable candidate")
	}
	res.Stages = append(res.Stages, c.stage(StageDiscrete, discrete.omega, discrete.alpha))

	// Continuous refinement from the LP output closest above the target.
	out := closestAbove(outs, c.dim)
	dmax := c.opt.Spacing
	for it := 0; it < c.opt.RefineIterations; it++ {
		c.progress(fmt.Sprintf("continuous refinement %d/%d, d_max = %.3g", it+1, c.opt.RefineIterations, dmax))
		outs, err := c.search(out.omega, dmax, out.tradeoff, 4)
		if err != nil {
			return nil, err
		}
		out = closestAbove(outs, c.dim)
		dmax /= 2
	}
	paper := c.best()
	res.Stages = append(res.Stages, c.stage(StagePaper, paper.omega, paper.alpha))
	if c.opt.NoPolish {
		return c.finish(res, len(res.Stages)-1), nil
	}

	c.progress("refit of the weights on the chosen support")
	alpha, err := c.lp.refit(paper.omega)
	if err != nil {
		return nil, err
	}
	res.Stages = append(res.Stages, c.stage(StageRefit, paper.omega, alpha))

	starts := c.starts()
	c.progress(fmt.Sprintf("polish from %d starts", len(starts)))
	best, err := c.polishAll(starts)
	if err != nil {
		return nil, err
	}
	if c.p.Exact != nil && c.p.Norm == LInf {
		if best, err = c.exchange(best); err != nil {
			return nil, err
		}
	}
	res.Stages = append(res.Stages, c.stage(StagePolished, best.omega, best.alpha))
	// Keep the best stage by the objective on the scoring set (the paper's
	// refinement is not monotone; the polish starts from the refit, so it
	// rarely loses).
	bestStage, bestScore := 0, math.Inf(1)
	for i, st := range res.Stages {
		if s := c.scoreMap(st.Map); s < bestScore {
			bestStage, bestScore = i, s
		}
	}
	return c.finish(res, bestStage), nil
}

// finish makes stage i's map the result (verified already).
func (c *chum) finish(res *Result, i int) *Result {
	res.Map = res.Stages[i].Map
	return res
}

// stage builds, verifies and records a stage map.
func (c *chum) stage(name string, omega, alpha []float64) Stage {
	m := c.p.fourierMap("chum", omega, alpha)
	v := Verify(m, c.p.Reference)
	v.Design = SignatureError(m, c.p.Reference, c.z, c.zOn)
	return Stage{Name: name, Error: v.Reported, Map: m}
}

// scoreMap is a map's objective on the scoring set.
func (c *chum) scoreMap(m *Map) float64 {
	om, al := make([]float64, len(m.Terms)), make([]float64, len(m.Terms))
	for j, t := range m.Terms {
		om[j], al[j] = t.Freq[0], t.Weight
	}
	return c.score.objective(om, al)
}

// search runs the γ search of Chum §2.1 over a pool: bracket γ by factors of
// 10 around g0 until D(γ) straddles the target, then bisect in log space.
// Every LP output is truncated to the target dimension and recorded as a
// candidate. It returns all outputs.
func (c *chum) search(pool []float64, dmax, g0 float64, steps int) ([]*lpOutput, error) {
	var outs []*lpOutput
	solve := func(g float64) (*lpOutput, error) {
		var warm *solver.Basis
		for _, o := range outs { // a warm start pays only for nearby γ
			if math.Abs(math.Log(g/o.tradeoff)) < 0.01 {
				warm = o.basis
			}
		}
		o, err := c.lp.chum(pool, dmax, g, warm)
		if err != nil {
			return nil, err
		}
		outs = append(outs, o)
		c.addCandidate(o)
		return o, nil
	}
	o, err := solve(g0)
	if err != nil {
		return nil, err
	}
	lo, hi := 0.0, 0.0 // γ with D < target, γ with D ≥ target
	if o.dims < c.dim {
		lo = g0
		for g := g0 * 10; g < 1e14; g *= 10 {
			if o, err = solve(g); err != nil {
				return nil, err
			}
			if o.dims >= c.dim {
				hi = g
				break
			}
			lo = g
		}
	} else {
		hi = g0
		for g := g0 / 10; g > 1e-8; g /= 10 {
			if o, err = solve(g); err != nil {
				return nil, err
			}
			if o.dims < c.dim {
				lo = g
				break
			}
			hi = g
		}
	}
	if lo == 0 || hi == 0 {
		return outs, nil // D(γ) never crosses the target
	}
	for s := 0; s < steps; s++ {
		g := math.Sqrt(lo * hi)
		if o, err = solve(g); err != nil {
			return nil, err
		}
		if o.dims == c.dim {
			break
		}
		if o.dims < c.dim {
			lo = g
		} else {
			hi = g
		}
	}
	return outs, nil
}

// closestAbove returns the output with the fewest dimensions ≥ target (the
// most dimensions if none reaches it), preferring the smaller γ.
func closestAbove(outs []*lpOutput, target int) *lpOutput {
	var best *lpOutput
	for _, o := range outs {
		switch {
		case best == nil:
			best = o
		case (o.dims >= target) != (best.dims >= target):
			if o.dims >= target {
				best = o
			}
		case o.dims >= target:
			if o.dims < best.dims || (o.dims == best.dims && o.tradeoff < best.tradeoff) {
				best = o
			}
		default:
			if o.dims > best.dims {
				best = o
			}
		}
	}
	return best
}

// addCandidate truncates an LP output to the target dimension (largest
// weights first, as Chum §2.1) and records it with its objective.
func (c *chum) addCandidate(o *lpOutput) {
	om, al := truncate(o.omega, o.alpha, c.dim)
	if len(om) == 0 {
		return
	}
	score := c.lp.fit.objective(om, al)
	c.mu.Lock()
	c.cands = append(c.cands, candidate{om, al, score})
	c.mu.Unlock()
}

// truncate keeps the largest weights that fit in dim dimensions.
func truncate(omega, alpha []float64, dim int) ([]float64, []float64) {
	idx := make([]int, 0, len(alpha))
	for j, a := range alpha {
		if a > 0 {
			idx = append(idx, j)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(alpha[b], alpha[a]) })
	var om, al []float64
	used := 0
	for _, j := range idx {
		if d := termDims(omega[j]); used+d <= dim {
			om = append(om, omega[j])
			al = append(al, alpha[j])
			used += d
		}
	}
	return om, al
}

// best returns the candidate with the lowest objective so far.
func (c *chum) best() *candidate {
	var b *candidate
	for i := range c.cands {
		if b == nil || c.cands[i].score < b.score {
			b = &c.cands[i]
		}
	}
	return b
}

// structure returns the shape of a map of dimension dim: whether it has the
// constant term and how many nonzero frequencies.
func structure(dim int) (zero bool, p int) {
	return dim%2 == 1, dim / 2
}

// starts lists the polish starts: the best distinct LP candidates, reshaped
// to exactly dim dimensions, then structured ladders (evenly spaced and
// geometric) on the scale of the best candidate, then seeded random ones.
func (c *chum) starts() [][]float64 {
	zero, p := structure(c.dim)
	var out [][]float64
	add := func(freqs []float64) {
		s := slices.Clone(freqs)
		slices.Sort(s)
		if zero {
			s = append([]float64{0}, s...)
		}
		for _, o := range out {
			if len(o) == len(s) && maxAbsDiff(o, s) < 1e-3 {
				return
			}
		}
		out = append(out, s)
	}
	if p == 0 {
		add(nil)
		return out
	}
	cands := slices.Clone(c.cands)
	slices.SortStableFunc(cands, func(a, b candidate) int { return cmp.Compare(a.score, b.score) })
	scale := 0.0
	nLP := max(1, c.opt.Starts/3)
	for _, cd := range cands {
		if len(out) >= nLP {
			break
		}
		var fs []float64
		for _, w := range cd.omega {
			if w > 0 {
				fs = append(fs, w)
			}
		}
		if len(fs) != p {
			continue
		}
		if scale == 0 {
			scale = slices.Max(fs)
		}
		add(fs)
	}
	if scale == 0 {
		scale = c.opt.OmegaMax / 2
	}
	ladder := make([]float64, p)
	for _, top := range []float64{1, 2} { // ladders topping at scale and 2·scale
		for _, f := range []float64{1, 0.7} { // evenly spaced
			for j := range ladder {
				ladder[j] = f * top * scale * float64(j+1) / float64(p)
			}
			add(ladder)
		}
		for _, r := range []float64{2, 3} { // geometric
			for j := range ladder {
				ladder[j] = top * scale * math.Pow(r, float64(j+1-p))
			}
			add(ladder)
		}
	}
	// Seeded random starts, log-uniform over [scale/10, 3·scale].
	rng := rand.New(rand.NewPCG(uint64(c.opt.Seed), 0x9e3779b97f4a7c15))
	for tries := 0; len(out) < c.opt.Starts && tries < 10*c.opt.Starts; tries++ {
		for j := range ladder {
			ladder[j] = scale * math.Exp(math.Log(0.1)+rng.Float64()*math.Log(30))
		}
		add(ladder)
	}
	return out
}

// exchange re-polishes the best design with the working set grown by every
// point of the exact set whose weighted error exceeds the working set's
// maximum (a Remez-style exchange), until the maximum over the whole exact
// set is attained on the working set.
func (c *chum) exchange(best *candidate) (*candidate, error) {
	ex := c.p.Exact
	full := c.score
	fit := c.lp.fit
	r := make([]float64, len(ex.Lambda))
	for round := 0; round < 8; round++ {
		full.residuals(r, best.omega, best.alpha)
		onW := fit.objective(best.omega, best.alpha)
		var add []int
		for i, e := range r {
			if math.Abs(e) > onW*(1+1e-9) {
				add = append(add, i)
			}
		}
		if len(add) == 0 {
			break
		}
		c.progress(fmt.Sprintf("exchange %d: %d of %d attainable λ exceed the working set's maximum", round+1, len(add), len(ex.Lambda)))
		slices.SortFunc(add, func(a, b int) int { return cmp.Compare(math.Abs(r[b]), math.Abs(r[a])) })
		if len(add) > 200 {
			add = add[:200]
		}
		z, w := slices.Clone(fit.z), slices.Clone(fit.w)
		for _, i := range add {
			z = append(z, ex.Lambda[i])
			w = append(w, ex.Weight[i])
		}
		fit = newFitSet(c.p, z, w)
		lp := &lpSolver{fit: fit, sv: c.lp.sv}
		om, al, score, err := lp.polish(best.omega, best.alpha)
		c.extraLPs += lp.n
		if err != nil {
			return nil, err
		}
		best = &candidate{om, al, score}
	}
	best.score = full.objective(best.omega, best.alpha)
	return best, nil
}

func maxAbsDiff(a, b []float64) float64 {
	d := 0.0
	for i := range a {
		d = math.Max(d, math.Abs(a[i]-b[i]))
	}
	return d
}

// polishAll refits and polishes every start (in parallel, two at a time)
// and returns the best result by the objective on Z. The order of starts
// decides ties, so the result does not depend on scheduling.
func (c *chum) polishAll(starts [][]float64) (*candidate, error) {
	type result struct {
		cand candidate
		lps  int
		err  error
	}
	results := make([]result, len(starts))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, st := range starts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			lp := &lpSolver{fit: c.lp.fit, sv: c.lp.sv}
			alpha, err := lp.refit(st)
			if err == nil {
				var om, al []float64
				var score float64
				om, al, score, err = lp.polish(st, alpha)
				results[i].cand = candidate{om, al, score}
			}
			results[i].lps, results[i].err = lp.n, err
		}()
	}
	wg.Wait()
	var best *candidate
	var firstErr error
	for i := range results {
		c.extraLPs += results[i].lps
		if results[i].err != nil {
			if firstErr == nil {
				firstErr = results[i].err
			}
			continue
		}
		if best == nil || results[i].cand.score < best.score {
			best = &results[i].cand
		}
	}
	if best == nil {
		return nil, fmt.Errorf("design: every polish start failed: %w", firstErr)
	}
	return best, nil
}
