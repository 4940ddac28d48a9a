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

// FitProblem is a signature-fitting problem in n ≥ 1 dimensions given by
// samples: the evaluation set Z with its weights, and the frequency pool.
// Fit runs Chum's LP designer on it. The one-dimensional Chum builds one
// from a Problem; package multidim builds projection and modulation ones.
type FitProblem struct {
	// Template carries the fields every designed map copies: Kernel, InDim,
	// Domain, Transform, Gamma, Negative, Form (Fourier or Modulation) and
	// Method.
	Template Map
	// Signature is the exact signature k(λ).
	Signature func(lambda []float64) float64
	// Z is the evaluation set, ZWeight the error weight at each point, and
	// ZOn names Z in words.
	Z       [][]float64
	ZWeight []float64
	ZOn     string
	Norm    Norm
	// Pool is the discrete frequency pool Ω (Chum §2.1).
	Pool [][]float64
	// Spacing is the initial trust region d_max of the continuous
	// refinement (§4.2), the pool's spacing.
	Spacing float64
	// Exact, if set, is a complete finite evaluation set (with ExactWeight)
	// of which Z is a subset: the polish ends with an exchange against it
	// and designs are compared on it.
	Exact       [][]float64
	ExactWeight []float64
	// Ladders, if set, returns extra polish starts given the frequencies of
	// the best LP candidate (one frequency set per start): structured ones,
	// all of which are used, and random ones (drawn from rng), used while
	// fewer than ChumOptions.Starts starts are listed.
	Ladders func(best [][]float64, dim int, rng *rand.Rand) (structured, random [][][]float64)
	// Reference measures every stage's map.
	Reference *Reference
}

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

// maxRefineEntries bounds rows × columns of a continuous-refinement LP:
// beyond it the refinement works on the heaviest frequencies of the best LP
// output, not on the whole pool.
const maxRefineEntries = 2_000_000

// Fit designs a map of dimension dim for p with Chum's LP method: the
// discrete pool and γ search (§2.1) and the continuous frequency refinement
// (§4.2) — together the "paper pipeline" — then, unless opt.NoPolish, a
// refit of the weights on the chosen support and a multi-start joint polish
// of frequencies and weights. Every stage is verified against p.Reference;
// the final map is the best stage by the objective on the evaluation set.
func Fit(p *FitProblem, dim int, opt ChumOptions, sv solver.Backend, progress func(string)) (*Result, error) {
	switch {
	case dim < 1:
		return nil, fmt.Errorf("design: dimension %d", dim)
	case len(p.Z) == 0 || len(p.Z) != len(p.ZWeight):
		return nil, errors.New("design: empty or unweighted evaluation set")
	case len(p.Pool) == 0:
		return nil, errors.New("design: empty frequency pool")
	case p.Template.Form != Fourier && p.Template.Form != Modulation:
		return nil, fmt.Errorf("design: the LP designer makes Fourier and modulation maps, not %q", p.Template.Form)
	case p.Reference == nil || p.Signature == nil:
		return nil, errors.New("design: fitting problem without signature or reference")
	}
	if progress == nil {
		progress = func(string) {}
	}
	opt = opt.fitDefaults()
	fit := newFitSet(p.Template.Form, p.Norm, p.Z, p.ZWeight, p.Signature)
	c := &fitter{p: p, dim: dim, opt: opt, lp: &lpSolver{fit: fit, sv: sv}, progress: progress}
	c.score = fit
	if p.Exact != nil {
		c.score = newFitSet(p.Template.Form, p.Norm, p.Exact, p.ExactWeight, p.Signature)
	}
	res, err := c.run()
	if err != nil {
		return nil, err
	}
	res.LPs = c.lp.n + c.extraLPs
	return res, nil
}

// candidate is a support with weights and its objective.
type candidate struct {
	omega [][]float64
	alpha []float64
	score float64
}

type fitter struct {
	p   *FitProblem
	dim int
	opt ChumOptions
	lp  *lpSolver
	// score is the set on which designs are finally compared: the exact set
	// when the problem has one, else Z.
	score    *fitSet
	extraLPs int
	cands    []candidate
	progress func(string)
}

func (c *fitter) run() (*Result, error) {
	res := &Result{}
	c.progress(fmt.Sprintf("discrete LP: pool of %d frequencies, |Z| = %d, γ search for D = %d", len(c.p.Pool), c.lp.fit.size(), c.dim))
	outs, err := c.search(c.p.Pool, 0, 100, 12)
	if err != nil {
		return nil, err
	}
	discrete := c.best()
	if discrete == nil {
		return nil, errors.New("design: the discrete LP produced no usable candidate")
	}
	res.Stages = append(res.Stages, c.stage(StageDiscrete, discrete.omega, discrete.alpha))

	// Continuous refinement from the LP output whose truncation fits best
	// (Chum §2.1 selects the best fit among the outputs), over the whole
	// pool if its LP stays small, else over the heaviest frequencies of
	// that output, about twice as many as the map has.
	out := bestScored(outs)
	pool := out.omega
	if 2*c.lp.fit.size()*len(pool)*(1<<c.lp.fit.n) > maxRefineEntries {
		pool = heaviestFrequencies(out, c.dim+2)
	}
	dmax := c.p.Spacing
	for it := 0; it < c.opt.RefineIterations; it++ {
		c.progress(fmt.Sprintf("continuous refinement %d/%d over %d frequencies, d_max = %.3g", it+1, c.opt.RefineIterations, len(pool), dmax))
		outs, err := c.search(pool, dmax, out.tradeoff, 4)
		if err != nil {
			// The refinement is a heuristic stage: a failed one ends it
			// with the candidates found so far.
			c.progress(fmt.Sprintf("continuous refinement stopped: %v", err))
			break
		}
		out = bestScored(outs)
		pool = out.omega
		dmax /= 2
	}
	paper := c.best()
	res.Stages = append(res.Stages, c.stage(StagePaper, paper.omega, paper.alpha))
	if c.opt.NoPolish {
		res.Map = res.Stages[len(res.Stages)-1].Map
		return res, nil
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
	res.Map = res.Stages[bestStage].Map
	return res, nil
}

// heaviestFrequencies returns up to k frequencies of an output with the
// largest positive weights, in pool order.
func heaviestFrequencies(o *lpOutput, k int) [][]float64 {
	var idx []int
	for j, a := range o.alpha {
		if a > 0 {
			idx = append(idx, j)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(o.alpha[b], o.alpha[a]) })
	idx = idx[:min(k, len(idx))]
	slices.Sort(idx)
	pool := make([][]float64, len(idx))
	for i, j := range idx {
		pool[i] = o.omega[j]
	}
	return pool
}

// stage builds, verifies and records a stage map.
func (c *fitter) stage(name string, omega [][]float64, alpha []float64) Stage {
	m := c.p.makeMap(omega, alpha)
	v := Verify(m, c.p.Reference)
	v.Design = SignatureError(m, c.p.Reference, c.p.Z, c.p.ZOn)
	return Stage{Name: name, Error: v.Reported, Map: m}
}

// makeMap builds a canonical map of the problem's template from
// frequencies and weights (zero weights dropped).
func (p *FitProblem) makeMap(omega [][]float64, alpha []float64) *Map {
	m := p.Template
	m.Terms = nil
	m.Errors = nil
	m.Domain = Domain{Integer: p.Template.Domain.Integer, Lo: slices.Clone(p.Template.Domain.Lo), Hi: slices.Clone(p.Template.Domain.Hi)}
	for j, a := range alpha {
		if a > 0 {
			m.Terms = append(m.Terms, Term{Freq: slices.Clone(omega[j]), Weight: a})
		}
	}
	m.Canonical()
	return &m
}

// scoreMap is a map's objective on the scoring set.
func (c *fitter) scoreMap(m *Map) float64 {
	om, al := make([][]float64, len(m.Terms)), make([]float64, len(m.Terms))
	for j, t := range m.Terms {
		om[j], al[j] = t.Freq, t.Weight
	}
	return c.score.objective(om, al)
}

// search runs the γ search of Chum §2.1 over a pool: bracket γ by factors of
// 10 around g0 until D(γ) straddles the target, then bisect in log space.
// Every LP output is truncated to the target dimension and recorded as a
// candidate. It returns all outputs.
func (c *fitter) search(pool [][]float64, dmax, g0 float64, steps int) ([]*lpOutput, error) {
	var outs []*lpOutput
	var firstErr error
	// solve returns nil (and remembers why) when the LP at γ fails: one
	// failed γ does not end the search.
	solve := func(g float64) *lpOutput {
		var warm *pairWarm
		for _, o := range outs { // a warm start pays only for nearby γ
			if math.Abs(math.Log(g/o.tradeoff)) < 0.01 {
				warm = o.warm
			}
		}
		o, err := c.lp.chum(pool, dmax, g, warm)
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			c.progress(fmt.Sprintf("γ = %.4g skipped: %v", g, err))
			return nil
		}
		outs = append(outs, o)
		c.addCandidate(o)
		return o
	}
	dims := func(o *lpOutput) int {
		if o == nil {
			return -1
		}
		return o.dims
	}
	lo, hi := 0.0, 0.0 // γ with D < target, γ with D ≥ target
	if o := solve(g0); dims(o) < c.dim {
		lo = g0
		for g := g0 * 10; g < 1e14; g *= 10 {
			d := dims(solve(g))
			if d >= c.dim {
				hi = g
				break
			}
			if d >= 0 {
				lo = g
			}
		}
	} else {
		hi = g0
		for g := g0 / 10; g > 1e-8; g /= 10 {
			d := dims(solve(g))
			if d >= 0 && d < c.dim {
				lo = g
				break
			}
			if d >= 0 {
				hi = g
			}
		}
	}
	if len(outs) == 0 {
		return nil, firstErr
	}
	if lo == 0 || hi == 0 {
		return outs, nil // D(γ) never crosses the target
	}
	for s := 0; s < steps; s++ {
		g := math.Sqrt(lo * hi)
		d := dims(solve(g))
		if d < 0 || d == c.dim {
			break
		}
		if d < c.dim {
			lo = g
		} else {
			hi = g
		}
	}
	return outs, nil
}

// bestScored returns the output whose truncation to the target dimension
// fits best (the first of equals).
func bestScored(outs []*lpOutput) *lpOutput {
	best := outs[0]
	for _, o := range outs[1:] {
		if o.score < best.score {
			best = o
		}
	}
	return best
}

// addCandidate truncates an LP output to the target dimension (largest
// weights first, as Chum §2.1) and records it with its objective.
func (c *fitter) addCandidate(o *lpOutput) {
	o.score = math.Inf(1)
	om, al := truncate(c.lp.fit, o.omega, o.alpha, c.dim)
	if len(om) == 0 {
		return
	}
	o.score = c.lp.fit.objective(om, al)
	c.cands = append(c.cands, candidate{om, al, o.score})
}

// truncate keeps the largest weights that fit in dim dimensions.
func truncate(f *fitSet, omega [][]float64, alpha []float64, dim int) ([][]float64, []float64) {
	idx := make([]int, 0, len(alpha))
	for j, a := range alpha {
		if a > 0 {
			idx = append(idx, j)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(alpha[b], alpha[a]) })
	var om [][]float64
	var al []float64
	used := 0
	for _, j := range idx {
		if d := f.termDims(omega[j]); used+d <= dim {
			om = append(om, omega[j])
			al = append(al, alpha[j])
			used += d
		}
	}
	return om, al
}

// best returns the candidate with the lowest objective so far.
func (c *fitter) best() *candidate {
	var b *candidate
	for i := range c.cands {
		if b == nil || c.cands[i].score < b.score {
			b = &c.cands[i]
		}
	}
	return b
}

// starts lists the polish starts: the best distinct LP candidates (their
// frequencies, with the weights refitted later), then the problem's
// structured ladders, then seeded random perturbations of the best
// candidate, up to opt.Starts. A 1-D map of odd D always keeps the
// constant term.
func (c *fitter) starts() [][][]float64 {
	var out [][][]float64
	add := func(freqs [][]float64) bool {
		if len(freqs) == 0 {
			return false
		}
		s := cloneFreqs(freqs)
		slices.SortFunc(s, func(a, b []float64) int { return slices.Compare(a, b) })
		for _, o := range out {
			if len(o) == len(s) && maxFreqDiff(o, s) < 1e-3 {
				return false
			}
		}
		out = append(out, s)
		return true
	}
	cands := slices.Clone(c.cands)
	slices.SortStableFunc(cands, func(a, b candidate) int { return cmp.Compare(a.score, b.score) })
	nLP := max(1, c.opt.Starts/3)
	for _, cd := range cands {
		if len(out) >= nLP {
			break
		}
		if c.dimsOf(cd.omega) == c.dim {
			add(cd.omega)
		}
	}
	if len(out) == 0 && len(cands) > 0 {
		add(cands[0].omega)
	}
	if len(out) == 0 {
		return nil
	}
	best := out[0]
	rng := rand.New(rand.NewPCG(uint64(c.opt.Seed), 0x9e3779b97f4a7c15))
	if c.p.Ladders != nil {
		structured, random := c.p.Ladders(best, c.dim, rng)
		for _, l := range structured {
			if c.dimsOf(l) == c.dim {
				add(l)
			}
		}
		for _, l := range random {
			if len(out) >= c.opt.Starts {
				break
			}
			if c.dimsOf(l) == c.dim {
				add(l)
			}
		}
	}
	for tries := 0; len(out) < c.opt.Starts && tries < 10*c.opt.Starts; tries++ {
		s := cloneFreqs(best)
		for _, om := range s {
			for _, k := range c.lp.fit.movable(om) {
				om[k] *= math.Exp(0.5 * rng.NormFloat64())
			}
		}
		add(s)
	}
	return out
}

// dimsOf is the dimension of a set of frequencies.
func (c *fitter) dimsOf(omega [][]float64) int {
	d := 0
	for _, om := range omega {
		d += c.lp.fit.termDims(om)
	}
	return d
}

func maxFreqDiff(a, b [][]float64) float64 {
	d := 0.0
	for i := range a {
		for k := range a[i] {
			d = math.Max(d, math.Abs(a[i][k]-b[i][k]))
		}
	}
	return d
}

// polishAll refits and polishes every start (in parallel, two at a time)
// and returns the best result by the objective on Z. The order of starts
// decides ties, so the result does not depend on scheduling.
func (c *fitter) polishAll(starts [][][]float64) (*candidate, error) {
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
				var om [][]float64
				var al []float64
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

// exchange re-polishes the best design with the working set grown by every
// point of the exact set whose weighted error exceeds the working set's
// maximum (a Remez-style exchange), until the maximum over the whole exact
// set is attained on the working set.
func (c *fitter) exchange(best *candidate) (*candidate, error) {
	full := c.score
	z, w := slices.Clone(c.p.Z), slices.Clone(c.p.ZWeight)
	fit := c.lp.fit
	r := make([]float64, full.size())
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
		c.progress(fmt.Sprintf("exchange %d: %d of %d points exceed the working set's maximum", round+1, len(add), full.size()))
		slices.SortFunc(add, func(a, b int) int { return cmp.Compare(math.Abs(r[b]), math.Abs(r[a])) })
		if len(add) > 200 {
			add = add[:200]
		}
		for _, i := range add {
			z = append(z, c.p.Exact[i])
			w = append(w, c.p.ExactWeight[i])
		}
		fit = newFitSet(c.p.Template.Form, c.p.Norm, z, w, c.p.Signature)
		lp := &lpSolver{fit: fit, sv: c.lp.sv}
		om, al, _, err := lp.polish(best.omega, best.alpha)
		c.extraLPs += lp.n
		if err != nil {
			return nil, err
		}
		best = &candidate{om, al, 0}
	}
	best.score = full.objective(best.omega, best.alpha)
	return best, nil
}
