package chum

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/solver"
)

// search runs the γ search of Chum §2.1 over a pool: bracket γ by factors of
// 10 around g0 until D(γ) straddles the target, then bisect in log space.
// Every LP output is truncated to the target dimension and recorded as a
// candidate. It returns all outputs. A seed, if given, is the warm start of
// an LP at g0 over a pool of the same size (the continuous refinement's
// previous output, whose frequencies this pool moves): the first LP starts
// from its tight points and basis. seedOut, if given, is that output (with
// p.RefineLarge it names the points where LPs without a warm start begin).
func (c *fitter) search(pool [][]float64, dmax, g0 float64, steps int, seed *pairWarm, seedOut *lpOutput) ([]*lpOutput, error) {
	s := c.newGammaSearch(pool, dmax, g0, seed, seedOut)
	if s.ahead != nil {
		defer func() {
			s.ahead.stop() // a solve ahead left running ends on its own
			c.aheadTaken += s.ahead.taken
		}()
	}
	lo, hi, below := s.bracket()
	if s.cancelled != nil {
		return nil, s.cancelled
	}
	if len(s.outs) == 0 {
		return nil, s.firstErr
	}
	if lo == 0 || hi == 0 {
		return s.outs, nil // D(γ) never crosses the target
	}
	s.bisect(lo, hi, below, steps)
	if s.cancelled != nil {
		return nil, s.cancelled
	}
	return s.outs, nil
}

// gammaSearch is one γ search (fitter.search): its pool, trust region
// and start, the columns it solves at every γ, the γ it has solved at,
// and its outputs. Its steps are its methods: bracket, then bisect, each
// γ by solve.
type gammaSearch struct {
	c       *fitter
	pool    [][]float64
	dmax    float64
	g0      float64
	seed    *pairWarm
	seedOut *lpOutput

	// The discrete LP is the same at every dimension of a chain: its cold
	// solves are shared through the chain's cache (discrete); so are a
	// refinement's solves, by its start and the γ it solved at (refine,
	// solveCache), and the columns of either.
	cache            *solveCache
	discrete, refine bool
	cl               *chumLP // the same columns at every γ, made at the first solve
	// ahead, if set, solves the discrete LP one γ ahead. With
	// p.RefineLarge the discrete LP is solved cold at every γ, so its
	// output at γ does not depend on the search's path: a lone design
	// solves the γ its search will likely take next beside the one it
	// takes now, on its second worker. The search takes the same γ in the
	// same order and gets the same outputs and LP count as without it; a
	// wrong guess is cancelled.
	ahead *aheadSolve
	path  []byte // the γ solved at so far, 8 bytes each

	outs      []*lpOutput
	firstErr  error
	cancelled error // the context's error once a solve saw it done
}

// newGammaSearch prepares the γ search of search's arguments.
func (c *fitter) newGammaSearch(pool [][]float64, dmax, g0 float64, seed *pairWarm, seedOut *lpOutput) *gammaSearch {
	s := &gammaSearch{c: c, pool: pool, dmax: dmax, g0: g0, seed: seed, seedOut: seedOut}
	if c.p != nil {
		s.cache = c.p.shared
	}
	s.discrete = s.cache != nil && dmax == 0 && seed == nil && len(pool) == len(c.p.Pool) && len(pool) > 0 && &pool[0] == &c.p.Pool[0]
	s.refine = s.cache != nil && dmax > 0 && seed != nil && len(pool) > 0
	if c.ahead && c.lp.refineLarge && dmax == 0 && seed == nil {
		s.ahead = &aheadSolve{}
	}
	return s
}

// bracket solves at g0, then scans γ by factors of 10 (up if D(g0) is
// below the target, else down) until D(γ) crosses the target. It returns
// the bracket: lo a γ with D below the target, hi one with D at or above
// it (0 if none was found), and whether D was below the target at the
// last γ (the side bisect guesses the next γ ahead from). The scan gives
// up when its first scanFailures γ all failed (docs/lp-design.md, "A
// scan that gives up"); it stops at once when the context is done.
func (s *gammaSearch) bracket() (lo, hi float64, below bool) {
	// The guesses of the γ solved ahead: D(γ) ≥ target at γ0 (Table 2's
	// designs all start above theirs), the scan going on, and in the
	// bisection D(γ) on the side of the target it was on at the γ before
	// (bisecting a jump of D(γ), the side repeats in runs;
	// docs/lp-design.md, "Solving ahead").
	g0, dim := s.g0, s.c.dim
	o := s.solve(g0, g0/10)
	if s.cancelled != nil {
		return 0, 0, false
	}
	tried := 1
	giveUp := func() bool { // after each γ of the scan
		tried++
		return s.cancelled != nil || len(s.outs) == 0 && tried >= scanFailures
	}
	if outDims(o) < dim {
		lo = g0
		for g := g0 * 10; g < 1e14; g *= 10 {
			d := outDims(s.solve(g, within(g*10, 0, 1e14)))
			if d >= dim {
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
			d := outDims(s.solve(g, within(g/10, 1e-8, math.Inf(1))))
			if d >= 0 && d < dim {
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
	return lo, hi, below
}

// bisect halves the bracket [lo, hi] in log space for steps steps, or
// until D(γ) is the target or an LP fails; below says on which side of
// the target D was at the last γ. It stops at once when the context is
// done.
func (s *gammaSearch) bisect(lo, hi float64, below bool, steps int) {
	dim := s.c.dim
	for k := 0; k < steps; k++ {
		g := math.Sqrt(lo * hi)
		next := 0.0
		switch {
		case k+1 == steps:
		case below:
			next = math.Sqrt(g * hi)
		default:
			next = math.Sqrt(lo * g)
		}
		d := outDims(s.solve(g, next))
		if s.cancelled != nil {
			return
		}
		if d < 0 || d == dim {
			break
		}
		below = d < dim
		if below {
			lo = g
		} else {
			hi = g
		}
	}
}

// outDims is the dimension D(γ) of an output, -1 for none (a failed LP).
func outDims(o *lpOutput) int {
	if o == nil {
		return -1
	}
	return o.dims
}

// solve solves the LP at γ, records its output and its candidate
// (addCandidate), and returns the output. It returns nil (and remembers
// why) when the LP fails: one failed γ does not end the search. next, if
// positive, is the γ to solve ahead (with s.ahead).
func (s *gammaSearch) solve(g, next float64) *lpOutput {
	c := s.c
	s.path = binary.LittleEndian.AppendUint64(s.path, math.Float64bits(g))
	warm := s.warmStart(g)
	initial := s.initialPoints(g)
	o, err := s.lpAt(g, next, warm, initial)
	if err != nil {
		if ctxErr := c.lp.ctx.Err(); ctxErr != nil {
			// Cancelled: not a γ that failed, and no message;
			// the search ends with the context's error.
			s.cancelled = ctxErr
			return nil
		}
		if s.firstErr == nil {
			s.firstErr = err
		}
		c.progress(fmt.Sprintf("γ = %.4g skipped: %v", g, err))
		return nil
	}
	s.outs = append(s.outs, o)
	c.addCandidate(o)
	return o
}

// warmStart returns the warm start of the LP at γ, if any: an output's at
// a nearby γ (unless the discrete LP of p.RefineLarge, solved cold), or
// for the first LP at g0 the seed's.
func (s *gammaSearch) warmStart(g float64) *pairWarm {
	c := s.c
	var warm *pairWarm
	for _, o := range s.outs { // a warm start pays only for nearby γ
		if math.Abs(math.Log(g/o.tradeoff)) < 0.01 && !(c.lp.refineLarge && s.dmax == 0) {
			warm = o.warm
		}
	}
	if f := c.lp.fit; len(s.outs) == 0 && s.seed != nil && g == s.g0 {
		warm = s.seed // a whole LP: the same rows
		if f.norm == fmap.LInf && f.size() > rowGenMin {
			warm = s.seed.carry(sampleRows(f.size()))
		}
	}
	return warm
}

// initialPoints returns, for a refinement LP of p.RefineLarge, where the
// row generation of an LP at γ without a warm start begins (startPoints
// of the output nearest γ); nil otherwise.
func (s *gammaSearch) initialPoints(g float64) func(cols int) []int {
	c := s.c
	if !c.lp.refineLarge || s.dmax <= 0 {
		return nil
	}
	ref := nearestOutput(s.outs, s.seedOut, g)
	return func(cols int) []int { return c.startPoints(ref, cols) }
}

// columns returns the search's LP columns, made (or taken from the
// chain's cache) the first time.
func (s *gammaSearch) columns() *chumLP {
	if s.cl == nil {
		build := func() *chumLP { return s.c.lp.chumColumns(s.pool, s.dmax) }
		switch {
		case s.discrete:
			s.cl = s.cache.columns(columnsKey{}, build)
		case s.refine:
			s.cl = s.cache.columns(columnsKey{s.seed, &s.pool[0], s.dmax}, build)
		default:
			s.cl = build()
		}
	}
	return s.cl
}

// lpAt returns the output of the LP at γ: the chain's shared solve (a
// discrete LP solved cold, a refinement's solve), the solve ahead's, or
// its own.
func (s *gammaSearch) lpAt(g, next float64, warm *pairWarm, initial func(cols int) []int) (*lpOutput, error) {
	c := s.c
	switch {
	case s.discrete && warm == nil || s.refine:
		return s.sharedSolve(g, warm, initial)
	case s.ahead != nil:
		cols := s.columns() // made here, before any solve ahead reads it
		o, lps, err := s.ahead.take(c.ctx, g, next, func(ctx context.Context, g float64) (*lpOutput, int, error) {
			lp := &lpSolver{ctx: ctx, fit: c.lp.fit, sv: c.lp.sv, refineLarge: true}
			o, err := lp.solveChum(cols, g, nil, nil)
			return o, lp.n, err
		})
		c.lp.n += lps
		return o, err
	}
	return c.lp.solveChum(s.columns(), g, warm, initial)
}

// sharedSolve returns the chain's solve at γ, solving it if no level has:
// the discrete LP's cold solve at γ, or the refinement's after the γ of
// the search's path. Its LPs are counted apart (solveEntry.lps), in the
// level that used it first.
func (s *gammaSearch) sharedSolve(g float64, warm *pairWarm, initial func(cols int) []int) (*lpOutput, error) {
	c := s.c
	key := solveKey{path: string(s.path[len(s.path)-8:])}
	if s.refine {
		key = solveKey{seed: s.seed, pool: &s.pool[0], dmax: s.dmax, path: string(s.path)}
	}
	e, o, err := s.cache.solve(key, func() (*lpOutput, int, error) {
		n := c.lp.n
		o, err := c.lp.solveChum(s.columns(), g, warm, initial)
		lps := c.lp.n - n
		c.lp.n = n
		return o, lps, err
	})
	c.sharedSolves = append(c.sharedSolves, e)
	return o, err
}

// within returns g if lo < g < hi (the scan's next γ), else 0 (none).
func within(g, lo, hi float64) float64 {
	if lo < g && g < hi {
		return g
	}
	return 0
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
