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
