package chum

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/featmap/featmap/design"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/solver"
)

// FitProblem is a signature-fitting problem in n ≥ 1 dimensions given by
// samples: the evaluation set Z with its weights, and the frequency pool.
// Fit runs Chum's LP designer on it. The one-dimensional Chum builds one
// from a fmap.Problem; package multidim builds projection and modulation
// ones.
type FitProblem struct {
	// Form is the form of the terms: fmap.FourierForm (cosines of ω·λ) or
	// fmap.Modulation (products of per-axis cosines).
	Form fmap.Form
	// NewMap returns the map of a support: the terms, made canonical, in a
	// one-stage map of the problem's kernel and domain.
	NewMap func(terms []fmap.Term) *fmap.Map
	// Signature is the exact signature k(λ).
	Signature func(lambda []float64) float64
	// Z is the evaluation set, ZWeight the error weight at each point, and
	// ZOn names Z in words.
	Z       [][]float64
	ZWeight []float64
	ZOn     string
	Norm    fmap.Norm
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
	// Prev, if set, is the best design of one dimension less: the designer
	// also continues from it (Continue), so that one more dimension never
	// fits worse than the design it extends.
	Prev []fmap.Term

	// RefineLarge selects the LP settings for many near-parallel columns
	// over thousands of points (2-D projection: Proj ⊗ 242 cone columns,
	// Proj up to 410, 3321 points; docs/lp-design.md). In the continuous
	// refinement each LP of the γ search that has no warm start starts its
	// row generation from the tight points and the 2·columns + 20 largest
	// errors of the output of the nearest γ (the previous refinement's
	// output for the first), not from every 8th point; the solver prices
	// by dual Devex from the first pivot and begins the warm start on the
	// moved pool from shifted costs (solver.Options.ShiftedStart); and an
	// output weight below refineAlphaFloor of the weights' sum counts as
	// 0. The discrete γ search solves every γ cold: a nearby γ's basis
	// sent the primal simplex through thousands of degenerate pivots.
	RefineLarge bool
	// ExchangeRounds bounds the rounds of the exchange against Exact
	// (0: 8). Each round polishes the design again on Z and the points
	// added so far.
	ExchangeRounds int

	// shared, if set, shares the discrete LP's cold solves and the
	// continuous refinement's solves between the designs of one chain
	// (Chum), whose problems differ only in Prev.
	shared *solveCache
}

// solveCache holds the outputs of the γ searches' LPs that the levels of a
// chain have in common. The pool, Z and the signature are the same at
// every dimension, so the discrete LP's cold solve at γ gives the same
// output at every level (the γ search of each level starts at the same γ
// and brackets by the same factors). A continuous refinement's search
// depends on the level only through the target dimension, which steers
// its brackets and bisection: levels whose refinement starts from the
// same output (the same seed, an output they share) solve the same LPs as
// long as they choose the same γ, so its solves are shared by the search's
// start and the γ of the solve and of those before it in the search
// (solveKey). A level that needs a solve another is making waits for it.
// counted marks the solves whose LPs a level's count holds (chain.design).
type solveCache struct {
	mu      sync.Mutex
	at      map[solveKey]*solveEntry
	counted map[*solveEntry]bool
	cols    map[columnsKey]*columnsEntry
}

// columnsKey names the LP columns of a γ search (chumLP) that the levels
// of a chain share while they are made: those of the discrete LP (the zero
// key) or of a refinement search's start (its seed, pool and trust region,
// as in solveKey).
type columnsKey struct {
	seed *pairWarm
	pool *[]float64
	dmax float64
}

// columnsEntry is one shared chumLP, made once.
type columnsEntry struct {
	once sync.Once
	cl   *chumLP
}

// columns returns the columns of key, made by build the first time. Their
// vectors are read only by the searches that share them (solveChum copies
// the LP's header to set γ).
func (sc *solveCache) columns(key columnsKey, build func() *chumLP) *chumLP {
	sc.mu.Lock()
	if sc.cols == nil {
		sc.cols = map[columnsKey]*columnsEntry{}
	}
	e := sc.cols[key]
	if e == nil {
		e = &columnsEntry{}
		sc.cols[key] = e
	}
	sc.mu.Unlock()
	e.once.Do(func() { e.cl = build() })
	return e.cl
}

// dropColumns forgets the shared columns (a few hundred kB each): a chain
// keeps its solves for later designs, but its columns only while its
// levels are made.
func (sc *solveCache) dropColumns() {
	sc.mu.Lock()
	sc.cols = nil
	sc.mu.Unlock()
}

// solveKey names a shared solve: the discrete LP's cold solve at γ (path
// γ's bits; the chain's pool is the same at every level and in every call,
// a new slice each time), or a continuous refinement's solve after the
// search that started from seed (the warm start of the output it
// refines, whose frequencies are pool) with trust region dmax has solved
// at the γ that path lists, this one last (8 bytes each, their bits).
type solveKey struct {
	seed *pairWarm
	pool *[]float64
	dmax float64
	path string
}

// count returns the LPs of the solves in used that no level counted yet,
// and marks them counted.
func (sc *solveCache) count(used []*solveEntry) int {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.counted == nil {
		sc.counted = map[*solveEntry]bool{}
	}
	n := 0
	for _, e := range used {
		if !sc.counted[e] {
			sc.counted[e] = true
			n += e.lps
		}
	}
	return n
}

// solveEntry is one shared solve; lps is the number of LPs it took (row
// generation's rounds), counted in the lowest level of the chain that
// used it (chain.design), so that every level's count is the same whatever
// the order and the grouping in which the levels were made.
type solveEntry struct {
	once sync.Once
	out  *lpOutput
	err  error
	lps  int
	// takers counts the searches that took it (TestChainSharesRefinement).
	takers int
}

// solve returns the entry of key and a copy of its output, solving it by
// f the first time.
func (sc *solveCache) solve(key solveKey, f func() (*lpOutput, int, error)) (*solveEntry, *lpOutput, error) {
	sc.mu.Lock()
	if sc.at == nil {
		sc.at = map[solveKey]*solveEntry{}
	}
	e := sc.at[key]
	if e == nil {
		e = &solveEntry{}
		sc.at[key] = e
	}
	e.takers++
	sc.mu.Unlock()
	e.once.Do(func() { e.out, e.lps, e.err = f() })
	if e.err != nil {
		if errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded) {
			// Not kept: the next design that needs it solves it.
			sc.mu.Lock()
			if sc.at[key] == e {
				delete(sc.at, key)
			}
			sc.mu.Unlock()
		}
		return e, nil, e.err
	}
	o := *e.out // a level records its own score in it
	return e, &o, nil
}

// The step names of Chum's pipeline.
const (
	StepDiscrete  = "discrete LP"
	StepPaper     = "paper pipeline"
	StepRefit     = "refit"
	StepPolished  = "polished"
	StepContinued = "continued from D−1"
)

// maxRefineEntries bounds rows × columns of a continuous-refinement LP:
// beyond it the refinement works on the heaviest frequencies of the best LP
// output, not on the whole pool.
const maxRefineEntries = 2_000_000

// Fit designs a map of exactly dim dimensions for p with Chum's LP method:
// the discrete pool and γ search (§2.1) and the continuous frequency
// refinement (§4.2) — together the "paper pipeline" — then, unless polish
// is off, a refit of the weights on the chosen support, a multi-start joint
// polish of frequencies and weights, and the continuation of p.Prev. The
// final map is the step of exactly dim dimensions with the lowest objective
// on the scoring set (the exact set when the problem has one, else Z); a
// term the optimum gives weight 0 stays as components that are identically
// 0 (fmap.Map.ZeroComponents), so the map has dim outputs.
func Fit(ctx context.Context, p *FitProblem, dim int, opt FitOptions, s design.Settings) (*design.Result, error) {
	c, err := newFitter(ctx, p, dim, opt, s, nil)
	if err != nil {
		return nil, err
	}
	if err := c.explore(); err != nil {
		return nil, err
	}
	var cont continued
	if c.opt.polish() {
		cont = c.continueFrom(p.Prev)
	}
	return c.finish(cont)
}

// newFitter checks a fitting problem and prepares its design. Fit is
// explore then finish; a chain of designs (Chum) explores its dimensions
// at once, as none of that depends on p.Prev, and finishes them in order.
// shared, if not nil, is the gate of such a chain: the work at once of
// its designs is bounded by its capacity, Settings.Workers.
func newFitter(ctx context.Context, p *FitProblem, dim int, opt FitOptions, s design.Settings, shared *gate) (*fitter, error) {
	switch {
	case dim < 1:
		return nil, fmt.Errorf("design: dimension %d", dim)
	case len(p.Z) == 0 || len(p.Z) != len(p.ZWeight):
		return nil, errors.New("design: empty or unweighted evaluation set")
	case len(p.Pool) == 0:
		return nil, errors.New("design: empty frequency pool")
	case p.Form != fmap.FourierForm && p.Form != fmap.Modulation:
		return nil, fmt.Errorf("design: the LP designer makes Fourier and modulation maps, not %q", p.Form)
	case p.Signature == nil || p.NewMap == nil:
		return nil, errors.New("design: fitting problem without signature or map builder")
	}
	opt = opt.fitDefaults()
	fit := newFitSet(p.Form, p.Norm, p.Z, p.ZWeight, p.Signature)
	c := &fitter{ctx: ctx, p: p, dim: dim, opt: opt, lp: &lpSolver{ctx: ctx, fit: fit, sv: s.Backend(), refineLarge: p.RefineLarge}, progress: s.Say, gate: shared, shared: shared != nil}
	if c.gate == nil {
		c.gate = newGate(workers(s))
		c.ahead = workers(s) >= 2 && !s.NoAhead
	}
	c.score = fit
	if p.Exact != nil {
		c.score = newFitSet(p.Form, p.Norm, p.Exact, p.ExactWeight, p.Signature)
	}
	return c, nil
}

// candidate is a support with weights and its objective.
type candidate struct {
	omega [][]float64
	alpha []float64
	score float64
}

type fitter struct {
	ctx context.Context
	p   *FitProblem
	dim int
	opt FitOptions
	lp  *lpSolver
	// score is the set on which designs are finally compared: the exact set
	// when the problem has one, else Z.
	score    *fitSet
	extraLPs int
	cands    []candidate
	progress func(string)
	// gate bounds the goroutines that work at once: one per polish start.
	// A shared gate (newFitter's, a chain of designs) also bounds the
	// fitter's own work, which then holds a place while it runs.
	gate   *gate
	shared bool
	steps  []step
	// sharedSolves are the solves this fitter took from p.shared (their
	// LPs are not in lp.n).
	sharedSolves []*solveEntry
	// ahead lets the discrete γ search with p.RefineLarge solve ahead
	// (search) on its second worker: set when the fitter has a gate of
	// its own with room for two, unless Settings.NoAhead. aheadTaken
	// counts the outputs it took from solves ahead (TestSearchAhead).
	ahead      bool
	aheadTaken int
}

// hold takes a place at a shared gate for the fitter's own work (urgent
// for a chain's continuation, whose level the next one waits for);
// release gives it back.
func (c *fitter) hold(urgent bool) {
	if c.shared {
		c.gate.acquire(urgent)
	}
}

func (c *fitter) release() {
	if c.shared {
		c.gate.release()
	}
}

// add records a step with its map and objective on the scoring set.
func (c *fitter) add(name string, omega [][]float64, alpha []float64) {
	m := c.makeMap(omega, alpha)
	c.steps = append(c.steps, step{design.Step{Name: name, Map: m}, c.scoreMap(m)})
}

// scored returns the step of a candidate whose score is its objective on
// the scoring set (as exchange leaves it): its map's score is that
// number when the map's terms are the candidate's, in its order (then
// scoreMap would sum the same terms in the same order), else scoreMap's.
func (c *fitter) scored(name string, cd *candidate) step {
	m := c.makeMap(cd.omega, cd.alpha)
	terms := m.Fourier().Terms
	same := len(terms) == len(cd.alpha)
	for j := 0; same && j < len(terms); j++ {
		same = slices.Equal(terms[j].Freq, cd.omega[j]) && terms[j].Weight == cd.alpha[j]
	}
	score := cd.score
	if !same {
		score = c.scoreMap(m)
	}
	return step{design.Step{Name: name, Map: m}, score}
}

// step is a step of the pipeline with its objective on the scoring set.
type step struct {
	design.Step
	score float64
}

// explore runs every step that does not depend on p.Prev: the paper
// pipeline and, unless the polish is off, the refit and the multi-start
// polish.
func (c *fitter) explore() error {
	c.hold(false)
	paper, err := c.paperSteps()
	c.release()
	if err != nil || !c.opt.polish() {
		return err
	}
	return c.polishSteps(paper)
}

// paperSteps runs the discrete γ search and the continuous refinement and
// returns the best candidate.
func (c *fitter) paperSteps() (*candidate, error) {
	c.progress(fmt.Sprintf("discrete LP: pool of %d frequencies, |Z| = %d, γ search for D = %d", len(c.p.Pool), c.lp.fit.size(), c.dim))
	outs, err := c.search(c.p.Pool, 0, 100, 12, nil, nil)
	if err != nil {
		return nil, err
	}
	discrete := c.best()
	if discrete == nil {
		return nil, errors.New("design: the discrete LP produced no usable candidate")
	}
	c.add(StepDiscrete, discrete.omega, discrete.alpha)

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
		if !c.refinable(out) {
			// The refinement (Chum §4.2) moves the frequencies of the
			// output it refines. An output whose weighted terms are all
			// ω = 0, the constant alone, has none of its own: each
			// iteration would search the unmoved pool again with half the
			// trust region (2-D Proj ⊗ at D = 2: 8 searches, each again
			// ending at the constant, their upper brackets LPs of 117–121
			// dimensions on up to 5 300 rows; docs/lp-design.md). That
			// output is the best when every larger one truncates worse
			// than the constant. Skipping is a heuristic, not a no-op: the
			// refinement LP may still weight and move the pool's other
			// entries, and once, with the CLP backend, one of its
			// candidates started a slightly better polish (the same
			// section).
			c.progress(fmt.Sprintf("continuous refinement %d/%d skipped: the output to refine (γ = %.4g) has no term of nonzero frequency", it+1, c.opt.RefineIterations, out.tradeoff))
			break
		}
		c.progress(fmt.Sprintf("continuous refinement %d/%d over %d frequencies, d_max = %.3g", it+1, c.opt.RefineIterations, len(pool), dmax))
		outs, err := c.search(pool, dmax, out.tradeoff, 4, out.warm, out)
		if err != nil {
			if ctxErr := c.ctx.Err(); ctxErr != nil {
				return nil, ctxErr
			}
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
	c.add(StepPaper, paper.omega, paper.alpha)
	return paper, nil
}

// finish adds the continuation cont (made by continueFrom, unless the
// polish is off) to the steps explore made, and returns the result: the
// step of exactly dim dimensions with the best objective.
func (c *fitter) finish(cont continued) (*design.Result, error) {
	for _, m := range cont.msgs {
		c.progress(m)
	}
	c.extraLPs += cont.lps
	switch {
	case cont.err != nil:
		if err := c.skip(StepContinued, cont.err); err != nil {
			return nil, err
		}
	case cont.step != nil:
		c.steps = append(c.steps, *cont.step)
	}
	steps := c.steps
	// Keep the step of exactly dim dimensions with the best objective on
	// the scoring set (the paper's refinement is not monotone, and the
	// polish and the continuation are separate searches).
	best := -1
	for i, st := range steps {
		if st.Map.Dim == c.dim && (best < 0 || st.score < steps[best].score) {
			best = i
		}
	}
	if best < 0 {
		dims := make([]int, len(steps))
		for i, st := range steps {
			dims[i] = st.Map.Dim
		}
		return nil, fmt.Errorf("design: no step made a %d-dimensional map (its steps made D = %v); the polish makes exactly D: leave method.polish on", c.dim, dims)
	}
	res := &design.Result{Map: steps[best].Map}
	for _, st := range steps {
		res.Steps = append(res.Steps, st.Step)
	}
	res.LPs = c.lp.n + c.extraLPs
	res.DesignSet, res.DesignSetOn = c.p.Z, c.p.ZOn
	return res, nil
}

// polishSteps runs the steps beyond the paper: the refit of the paper
// pipeline's support, the multi-start polish and, with a design of one
// dimension less, its continuation. They are heuristic searches: one whose
// LP fails is skipped with a progress message (the final choice is among
// the steps that succeeded); only a cancelled context ends them all.
func (c *fitter) polishSteps(paper *candidate) error {
	c.progress("refit of the weights on the chosen support")
	c.hold(false)
	alpha, err := c.lp.refit(paper.omega)
	if err == nil {
		c.add(StepRefit, paper.omega, alpha)
	}
	starts := c.starts()
	c.release()
	if err != nil {
		if err := c.skip(StepRefit, err); err != nil {
			return err
		}
	}

	c.progress(fmt.Sprintf("polish from %d starts", len(starts)))
	best, err := c.polishAll(starts)
	if err == nil {
		c.hold(false)
		var lps int
		best, lps, err = c.exchange(best, c.progress)
		c.extraLPs += lps
		c.release()
	}
	if err != nil {
		return c.skip(StepPolished, err)
	}
	c.steps = append(c.steps, c.scored(StepPolished, best))
	return nil
}

// skip reports a heuristic step whose LP failed, unless the context is
// done: then it returns the context's error.
func (c *fitter) skip(step string, err error) error {
	if ctxErr := c.ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	c.progress(fmt.Sprintf("%s skipped: %v", step, err))
	return nil
}

// continued is the continuation of the design of one dimension less: its
// step (nil if there is none), the LPs it took, why it failed, and its
// progress messages, which finish reports.
type continued struct {
	step *step
	lps  int
	err  error
	msgs []string
}

// continueFrom continues prev, the terms of the design of one dimension
// less, if there is one. It reads the fitter's problem and sets, and
// changes nothing of it: a chain runs it beside the level's explore,
// as soon as the level below is finished, and finish adds its step (and
// reports its messages) after the steps explore made.
func (c *fitter) continueFrom(prev []fmap.Term) continued {
	var r continued
	omega := c.continuation(prev)
	if prev == nil || omega == nil || c.dimsOf(omega) != c.dim {
		return r
	}
	say := func(m string) { r.msgs = append(r.msgs, m) }
	say(fmt.Sprintf("continuing from the %d-dimensional design", c.dim-1))
	// Urgent: the next level's continuation waits for this level.
	c.hold(true)
	defer c.release()
	lp := &lpSolver{ctx: c.ctx, fit: c.lp.fit, sv: c.lp.sv}
	cand, err := lp.refitPolish(omega)
	r.lps = lp.n
	if err == nil {
		var lps int
		cand, lps, err = c.exchange(cand, say)
		r.lps += lps
	}
	if err != nil {
		r.err = err
		return r
	}
	st := c.scored(StepContinued, cand)
	r.step = &st
	return r
}

// continuation extends prev, a design of dim−1 dimensions, to dim
// dimensions. It keeps the terms with weight (a term the previous optimum
// gave weight 0 is free again) and adds what the dimension lacks: an odd
// shortfall in a one-dimensional Fourier map is made up by a constant term
// (ω = 0) or, if there is one, by replacing it with a term of a tiny
// frequency ε, whose cosine stays within 1e-4 of the previous design's
// error of 1 on Z (it starts where the constant was, and the polish is free
// to move it); the rest by new frequencies above the largest (at least the
// pool's spacing), each 1.5 times the one before. The refit then sets the
// weights.
func (c *fitter) continuation(prev []fmap.Term) [][]float64 {
	f := c.lp.fit
	var omega [][]float64
	var alpha []float64
	for _, t := range prev {
		if t.Weight > 0 {
			omega, alpha = append(omega, slices.Clone(t.Freq)), append(alpha, t.Weight)
		}
	}
	need := c.dim - c.dimsOf(omega)
	if f.form != fmap.FourierForm || f.n != 1 || need < 1 {
		return nil
	}
	top := 0.0
	for _, om := range omega {
		top = math.Max(top, om[0])
	}
	maxZ := 0.0
	for i := range f.size() {
		maxZ = math.Max(maxZ, math.Abs(f.point(i)[0]))
	}
	if need%2 == 1 {
		j := slices.IndexFunc(omega, isZero)
		// A term of tiny frequency is a constant in all but name (an
		// earlier continuation made it): it turns back into one, and its
		// two dimensions go to a new frequency, rather than stand beside a
		// new constant whose column it all but equals.
		near := slices.IndexFunc(omega, func(om []float64) bool { return om[0]*maxZ < 1e-2 })
		switch {
		case j < 0 && near >= 0:
			omega[near] = []float64{0}
			need += 2
		case j < 0:
			omega = append(omega, []float64{0})
		default:
			// The constant's weight α₀ times (1 − cos ελ) ≤ ε²λ²/2 adds at
			// most α₀·W·ε²M²/2 to the objective, W the largest weight (L∞)
			// or the sum of the weights (L1): keep that below 1e-4 of it.
			W := 0.0
			for i := range f.size() {
				if f.norm == fmap.L1 {
					W += f.w[i]
				} else {
					W = math.Max(W, f.w[i])
				}
			}
			budget := 1e-4 * f.objective(omega, alpha)
			eps := math.Sqrt(2*budget/(alpha[j]*W)) / maxZ
			omega[j] = []float64{math.Max(eps, 1e-9/maxZ)}
		}
		need--
	}
	top = math.Max(top, c.p.Spacing)
	for ; need > 0; need -= 2 {
		top *= 1.5
		omega = append(omega, []float64{top})
	}
	return omega
}

// refinable reports whether an LP output has a term of positive weight
// whose frequency the continuous refinement can move (fitSet.movable).
func (c *fitter) refinable(o *lpOutput) bool {
	for j, a := range o.alpha {
		if a > 0 && len(c.lp.fit.movable(o.omega[j])) > 0 {
			return true
		}
	}
	return false
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

// makeMap builds the canonical map of a support (terms of weight 0
// included: they are components the dimension asks for).
func (c *fitter) makeMap(omega [][]float64, alpha []float64) *fmap.Map {
	terms := make([]fmap.Term, len(alpha))
	for j, a := range alpha {
		terms[j] = fmap.Term{Freq: slices.Clone(omega[j]), Weight: a}
	}
	return c.p.NewMap(terms)
}

// scoreMap is a map's objective on the scoring set.
func (c *fitter) scoreMap(m *fmap.Map) float64 {
	f := m.Fourier()
	om, al := make([][]float64, len(f.Terms)), make([]float64, len(f.Terms))
	for j, t := range f.Terms {
		om[j], al[j] = t.Freq, t.Weight
	}
	return c.score.objective(om, al)
}

// search runs the γ search of Chum §2.1 over a pool: bracket γ by factors of
// 10 around g0 until D(γ) straddles the target, then bisect in log space.
// Every LP output is truncated to the target dimension and recorded as a
// candidate. It returns all outputs. A seed, if given, is the warm start of
// an LP at g0 over a pool of the same size (the continuous refinement's
// previous output, whose frequencies this pool moves): the first LP starts
// from its tight points and basis. seedOut, if given, is that output (with
// p.RefineLarge it names the points where LPs without a warm start begin).
func (c *fitter) search(pool [][]float64, dmax, g0 float64, steps int, seed *pairWarm, seedOut *lpOutput) ([]*lpOutput, error) {
	var outs []*lpOutput
	var firstErr error
	var cancelled error // the context's error once a solve saw it done
	// The discrete LP is the same at every dimension of a chain: its cold
	// solves are shared through p.shared; so are a refinement's solves,
	// by its start and the γ it solved at (solveCache), and the columns of
	// either.
	var cache *solveCache
	if c.p != nil {
		cache = c.p.shared
	}
	discrete := cache != nil && dmax == 0 && seed == nil && len(pool) == len(c.p.Pool) && len(pool) > 0 && &pool[0] == &c.p.Pool[0]
	refine := cache != nil && dmax > 0 && seed != nil && len(pool) > 0
	var cl *chumLP // the same columns at every γ, made at the first solve
	columns := func() *chumLP {
		if cl == nil {
			build := func() *chumLP { return c.lp.chumColumns(pool, dmax) }
			switch {
			case discrete:
				cl = cache.columns(columnsKey{}, build)
			case refine:
				cl = cache.columns(columnsKey{seed, &pool[0], dmax}, build)
			default:
				cl = build()
			}
		}
		return cl
	}
	solveAt := func(g float64, warm *pairWarm, initial func(cols int) []int) (*lpOutput, error) {
		return c.lp.solveChum(columns(), g, warm, initial)
	}
	// With p.RefineLarge the discrete LP is solved cold at every γ, so its
	// output at γ does not depend on the search's path: a lone design
	// solves the γ its search will likely take next beside the one it
	// takes now, on its second worker (ahead). The search takes the same
	// γ in the same order and gets the same outputs and LP count as
	// without it; a wrong guess is cancelled.
	var ah *aheadSolve
	if c.ahead && c.lp.refineLarge && dmax == 0 && seed == nil {
		ah = &aheadSolve{}
		defer func() {
			ah.stop() // a solve ahead left running ends on its own
			c.aheadTaken += ah.taken
		}()
	}
	var path []byte // the γ solved at so far, 8 bytes each
	// solve returns nil (and remembers why) when the LP at γ fails: one
	// failed γ does not end the search. next, if positive, is the γ to
	// solve ahead (with ah).
	solve := func(g, next float64) *lpOutput {
		path = binary.LittleEndian.AppendUint64(path, math.Float64bits(g))
		var warm *pairWarm
		for _, o := range outs { // a warm start pays only for nearby γ
			if math.Abs(math.Log(g/o.tradeoff)) < 0.01 && !(c.lp.refineLarge && dmax == 0) {
				warm = o.warm
			}
		}
		if f := c.lp.fit; len(outs) == 0 && seed != nil && g == g0 {
			warm = seed // a whole LP: the same rows
			if f.norm == fmap.LInf && f.size() > rowGenMin {
				warm = seed.carry(sampleRows(f.size()))
			}
		}
		var initial func(cols int) []int // for an LP without a warm start that fits
		if c.lp.refineLarge && dmax > 0 {
			ref := nearestOutput(outs, seedOut, g)
			initial = func(cols int) []int { return c.startPoints(ref, cols) }
		}
		var o *lpOutput
		var err error
		switch {
		case discrete && warm == nil || refine:
			key := solveKey{path: string(path[len(path)-8:])}
			if refine {
				key = solveKey{seed: seed, pool: &pool[0], dmax: dmax, path: string(path)}
			}
			var e *solveEntry
			e, o, err = cache.solve(key, func() (*lpOutput, int, error) {
				// Its LPs are counted apart (solveEntry.lps).
				n := c.lp.n
				o, err := solveAt(g, warm, initial)
				lps := c.lp.n - n
				c.lp.n = n
				return o, lps, err
			})
			c.sharedSolves = append(c.sharedSolves, e)
		case ah != nil:
			cols := columns() // made here, before any solve ahead reads it
			var lps int
			o, lps, err = ah.take(c.ctx, g, next, func(ctx context.Context, g float64) (*lpOutput, int, error) {
				lp := &lpSolver{ctx: ctx, fit: c.lp.fit, sv: c.lp.sv, refineLarge: true}
				o, err := lp.solveChum(cols, g, nil, nil)
				return o, lp.n, err
			})
			c.lp.n += lps
		default:
			o, err = solveAt(g, warm, initial)
		}
		if err != nil {
			if ctxErr := c.lp.ctx.Err(); ctxErr != nil {
				// Cancelled: not a γ that failed, and no message;
				// the search ends with the context's error.
				cancelled = ctxErr
				return nil
			}
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
	// The scan gives up when its first scanFailures γ all failed: a
	// refinement whose LPs fail at γ0 and the next two failed at
	// every γ up to 10¹³ (2-D Proj ⊗ at σ = 0.3, D = 31 and 101: 12 LPs,
	// 20 s, then the refinement stopped).
	lo, hi := 0.0, 0.0 // γ with D < target, γ with D ≥ target
	// The guesses of the γ solved ahead: D(γ) ≥ target at γ0 (Table 2's
	// designs all start above theirs), the scan going on, and in the
	// bisection D(γ) on the side of the target it was on at the γ before
	// (bisecting a jump of D(γ), the side repeats in runs: it held at 9
	// of plain Proj σ = 0.2, D = 101's 11 bisection steps, the mean of D
	// at the bracket's ends at 6).
	below := false // D < target at the last γ
	o := solve(g0, g0/10)
	if cancelled != nil {
		return nil, cancelled
	}
	tried := 1
	giveUp := func() bool { // after each γ of the scan
		tried++
		return cancelled != nil || len(outs) == 0 && tried >= scanFailures
	}
	if dims(o) < c.dim {
		lo = g0
		for g := g0 * 10; g < 1e14; g *= 10 {
			d := dims(solve(g, within(g*10, 0, 1e14)))
			if d >= c.dim {
				hi = g
				break
			}
			if d >= 0 {
				lo = g
			}
			if giveUp() {
				break
			}
		}
	} else {
		hi = g0
		for g := g0 / 10; g > 1e-8; g /= 10 {
			d := dims(solve(g, within(g/10, 1e-8, math.Inf(1))))
			if d >= 0 && d < c.dim {
				lo, below = g, true
				break
			}
			if d >= 0 {
				hi = g
			}
			if giveUp() {
				break
			}
		}
	}
	if cancelled != nil {
		return nil, cancelled
	}
	if len(outs) == 0 {
		return nil, firstErr
	}
	if lo == 0 || hi == 0 {
		return outs, nil // D(γ) never crosses the target
	}
	for s := 0; s < steps; s++ {
		g := math.Sqrt(lo * hi)
		next := 0.0
		switch {
		case s+1 == steps:
		case below:
			next = math.Sqrt(g * hi)
		default:
			next = math.Sqrt(lo * g)
		}
		d := dims(solve(g, next))
		if cancelled != nil {
			return nil, cancelled
		}
		if d < 0 || d == c.dim {
			break
		}
		below = d < c.dim
		if below {
			lo = g
		} else {
			hi = g
		}
	}
	return outs, nil
}

// within returns g if lo < g < hi (the scan's next γ), else 0 (none).
func within(g, lo, hi float64) float64 {
	if lo < g && g < hi {
		return g
	}
	return 0
}

// aheadSolve solves a γ search's discrete LPs one γ ahead (search): beside
// the solve of the γ the search takes, that of the γ it will likely take
// next, in a goroutine of its own.
type aheadSolve struct {
	run   *aheadRun // the solve ahead, if any
	taken int       // outputs taken from solves ahead
}

// aheadRun is one solve ahead.
type aheadRun struct {
	g      float64
	cancel context.CancelFunc
	done   chan struct{}
	out    *lpOutput
	lps    int
	err    error
	// panicked holds what the solve panicked with: the search panics
	// with it if it takes the output, as its own solve would have.
	panicked any
}

// take returns the output at g, the LPs it took and its error: the solve
// ahead's if that is at g, else f's. Before it solves or waits, it starts
// the solve of next (if positive) in a goroutine and cancels a solve ahead
// at any other γ. A cancelled solve ends on its own (the pure-Go backend
// within 64 pivots, CLP, which cannot be interrupted, at the end of its
// LP); the next solve ahead waits for it, so that no more than two LPs
// run at once.
func (a *aheadSolve) take(ctx context.Context, g, next float64, f func(context.Context, float64) (*lpOutput, int, error)) (*lpOutput, int, error) {
	var r *aheadRun
	if a.run != nil && a.run.g == g {
		r, a.run = a.run, nil
	}
	wrong := a.stop()
	if next > 0 && next != g {
		actx, cancel := context.WithCancel(ctx)
		n := &aheadRun{g: next, cancel: cancel, done: make(chan struct{})}
		go func() {
			defer close(n.done)
			defer func() { n.panicked = recover() }()
			if wrong != nil {
				<-wrong.done
			}
			n.out, n.lps, n.err = f(actx, next)
		}()
		a.run = n
	}
	if r == nil {
		return f(ctx, g)
	}
	<-r.done
	r.cancel()
	if r.panicked != nil {
		panic(r.panicked)
	}
	a.taken++
	return r.out, r.lps, r.err
}

// stop cancels the solve ahead, if any, and returns it.
func (a *aheadSolve) stop() *aheadRun {
	r := a.run
	if r != nil {
		r.cancel()
		a.run = nil
	}
	return r
}

// scanFailures is the number of γ search's scan tries, all failing,
// before it gives up.
const scanFailures = 3

// nearestOutput returns the output of outs (or seed, if given) whose γ is
// nearest g in log space, or nil.
func nearestOutput(outs []*lpOutput, seed *lpOutput, g float64) *lpOutput {
	ref := seed
	for _, o := range outs {
		if ref == nil || math.Abs(math.Log(g/o.tradeoff)) < math.Abs(math.Log(g/ref.tradeoff)) {
			ref = o
		}
	}
	return ref
}

// startPoints returns where the row generation of an L∞ LP of about cols
// columns begins, given a nearby output ref (nil: the default start): the
// points of ref's largest errors (2·cols + 20 of them, as the polish) and
// the points ref's LP held tight.
func (c *fitter) startPoints(ref *lpOutput, cols int) []int {
	f := c.lp.fit
	if ref == nil || f.norm != fmap.LInf || f.size() <= rowGenMin {
		return nil
	}
	r := make([]float64, f.size())
	f.residuals(r, ref.omega, ref.alpha)
	in := largest(r, polishStartPerCol*cols+polishStartMin)
	seen := make([]bool, f.size())
	for _, i := range in {
		seen[i] = true
	}
	if w := ref.warm; w != nil {
		for k, i := range w.rows {
			if !seen[i] && (w.basis.Rows[2*k] != solver.Basic || w.basis.Rows[2*k+1] != solver.Basic) {
				seen[i] = true
				in = append(in, i)
			}
		}
	}
	return in
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
		// No LP candidate has exactly dim dimensions: the best one, filled
		// up with pool frequencies, is the first start if it can be.
		add(c.fill(cands[0].omega))
	}
	// The ladders scale with the best start, or the best candidate.
	var best [][]float64
	switch {
	case len(out) > 0:
		best = out[0]
	case len(cands) > 0:
		best = cands[0].omega
	}
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
	if c.dimsOf(best) != c.dim {
		return out
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

// fill adds pool frequencies that are not in omega, in pool order, while
// they fit in the target dimension; it returns nil unless the result has
// exactly the target dimension. Without ladders (a map of several axes),
// when omega's constant term (ω = 0, one component) leaves a shortfall
// that terms of two components cannot make up — an even D of a
// projection or modulation map, whose LP candidates all keep the
// constant —, the constant is dropped and the rest filled without it:
// that is the only start of exactly D (a 1-D map's ladders and
// continuation make their own).
func (c *fitter) fill(omega [][]float64) [][]float64 {
	if out := c.fillFrom(omega, true); out != nil || c.p.Ladders != nil || !slices.ContainsFunc(omega, isZero) {
		return out
	}
	return c.fillFrom(slices.DeleteFunc(cloneFreqs(omega), isZero), false)
}

// fillFrom is fill's search from omega, taking the pool's zero frequency
// only if zero is set.
func (c *fitter) fillFrom(omega [][]float64, zero bool) [][]float64 {
	out := cloneFreqs(omega)
	used := c.dimsOf(out)
	for _, om := range c.p.Pool {
		if used == c.dim {
			break
		}
		d := c.lp.fit.termDims(om)
		if used+d > c.dim || (!zero && isZero(om)) || slices.ContainsFunc(out, func(o []float64) bool { return slices.Equal(o, om) }) {
			continue
		}
		out = append(out, slices.Clone(om))
		used += d
	}
	if used != c.dim {
		return nil
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
	for i, st := range starts {
		wg.Add(1)
		c.gate.acquire(false)
		go func() {
			defer wg.Done()
			defer c.gate.release()
			lp := &lpSolver{ctx: c.ctx, fit: c.lp.fit, sv: c.lp.sv}
			cand, err := lp.refitPolish(st)
			if err == nil {
				results[i].cand = *cand
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
	switch {
	case best != nil:
	case c.ctx.Err() != nil:
		return nil, c.ctx.Err()
	case firstErr == nil:
		return nil, fmt.Errorf("design: no polish start has %d dimensions", c.dim)
	default:
		return nil, fmt.Errorf("design: every polish start failed: %w", firstErr)
	}
	return best, nil
}

// exchange re-polishes the best design with the working set grown by every
// point of the exact set whose weighted error exceeds the working set's
// maximum (a Remez-style exchange, the 200 largest per round), until the
// maximum over the whole exact set is attained on the working set or
// after p.ExchangeRounds rounds. It returns the LPs it took and reports
// its rounds to say; of the rounds' designs it returns the one with the
// lowest objective on the scoring set, which is its score (best's score
// is its objective on Z).
func (c *fitter) exchange(best *candidate, say func(string)) (*candidate, int, error) {
	if c.p.Exact == nil || c.p.Norm != fmap.LInf {
		if c.score != c.lp.fit {
			// The candidate's score is its objective on Z; make it the
			// scoring set's.
			best.score = c.score.objective(best.omega, best.alpha)
		}
		return best, 0, nil
	}
	lps := 0
	full := c.score
	z, w := slices.Clone(c.p.Z), slices.Clone(c.p.ZWeight)
	fit := c.lp.fit
	r := make([]float64, full.size())
	// The rounds' designs are compared on the whole exact set: a round
	// that ends with points still above the working set's maximum (the
	// last one ExchangeRounds allows) may leave a design worse there than
	// the round before.
	var top *candidate
	keep := func(cd *candidate, score float64) {
		if top == nil || score < top.score {
			top = &candidate{cd.omega, cd.alpha, score}
		}
	}
	rounds := c.p.ExchangeRounds
	if rounds <= 0 {
		rounds = 8
	}
	fresh := false // best's residuals are in r, its score kept
	for round := 0; round < rounds; round++ {
		full.residuals(r, best.omega, best.alpha)
		fresh = true
		keep(best, full.normOf(r)) // full.objective's, from its residuals
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
		say(fmt.Sprintf("exchange %d: %d of %d points exceed the working set's maximum", round+1, len(add), full.size()))
		slices.SortFunc(add, func(a, b int) int { return cmp.Compare(math.Abs(r[b]), math.Abs(r[a])) })
		if len(add) > 200 {
			add = add[:200]
		}
		for _, i := range add {
			z = append(z, c.p.Exact[i])
			w = append(w, c.p.ExactWeight[i])
		}
		fit = newFitSet(c.p.Form, c.p.Norm, z, w, c.p.Signature)
		lp := &lpSolver{ctx: c.ctx, fit: fit, sv: c.lp.sv}
		om, al, _, err := lp.polish(best.omega, best.alpha)
		lps += lp.n
		if err != nil {
			if ctxErr := c.ctx.Err(); ctxErr != nil {
				return nil, lps, ctxErr
			}
			// The exchange refines a finished design: a round whose LP
			// fails ends it with the design of the round before.
			say(fmt.Sprintf("exchange %d stopped: %v", round+1, err))
			break
		}
		best, fresh = &candidate{om, al, 0}, false
	}
	if !fresh {
		keep(best, full.objective(best.omega, best.alpha))
	}
	return top, lps, nil
}
