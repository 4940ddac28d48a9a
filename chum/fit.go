package chum

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
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
	// over thousands of points (2-D projection, from either pool;
	// docs/lp-design.md). In the continuous
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

// The step names of Chum's pipeline.
const (
	StepDiscrete  = "discrete LP"
	StepPaper     = "paper pipeline"
	StepRefit     = "refit"
	StepPolished  = "polished"
	StepContinued = "continued from D−1"
)

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
		return nil, fmt.Errorf("chum: dimension %d", dim)
	case len(p.Z) == 0 || len(p.Z) != len(p.ZWeight):
		return nil, errors.New("chum: empty or unweighted evaluation set")
	case len(p.Pool) == 0:
		return nil, errors.New("chum: empty frequency pool")
	case p.Form != fmap.FourierForm && p.Form != fmap.Modulation:
		return nil, fmt.Errorf("chum: the LP designer makes Fourier and modulation maps, not %q", p.Form)
	case p.Signature == nil || p.NewMap == nil:
		return nil, errors.New("chum: fitting problem without signature or map builder")
	}
	sv, err := backend(s)
	if err != nil {
		return nil, err
	}
	opt = opt.fitDefaults()
	fit := newFitSet(p.Form, p.Norm, p.Z, p.ZWeight, p.Signature)
	c := &fitter{ctx: ctx, p: p, dim: dim, opt: opt, lp: &lpSolver{ctx: ctx, fit: fit, sv: sv, refineLarge: p.RefineLarge}, progress: s.Say, gate: shared, shared: shared != nil}
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

// fitter is one design of Fit: the fitting problem and its sets, the
// candidates and steps the pipeline made so far, and how it shares the
// workers with the designs beside it.
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
		return nil, fmt.Errorf("chum: no step made a %d-dimensional map (its steps made D = %v); the polish makes exactly D: leave method.polish on", c.dim, dims)
	}
	res := &design.Result{Map: steps[best].Map}
	for _, st := range steps {
		res.Steps = append(res.Steps, st.Step)
	}
	res.LPs = c.lp.n + c.extraLPs
	res.DesignSet, res.DesignSetOn = c.p.Z, c.p.ZOn
	return res, nil
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

// dimsOf is the dimension of a set of frequencies.
func (c *fitter) dimsOf(omega [][]float64) int {
	d := 0
	for _, om := range omega {
		d += c.lp.fit.termDims(om)
	}
	return d
}
