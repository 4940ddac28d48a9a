package chum

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
)

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
// decides ties, so the result does not depend on scheduling. On one axis
// the best phasePolishes results are then polished again in phase.
func (c *fitter) polishAll(starts [][][]float64) (*candidate, error) {
	results := make([]polished, len(starts))
	c.inParallel(len(starts), func(lp *lpSolver, i int) {
		cand, err := lp.refitPolish(starts[i])
		if err == nil {
			results[i].cand = *cand
		}
		results[i].lps, results[i].err = lp.n, err
	})
	if c.lp.fit.n == 1 {
		c.polishPhaseBest(results)
	}
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
		return nil, fmt.Errorf("chum: no polish start has %d dimensions", c.dim)
	default:
		return nil, fmt.Errorf("chum: every polish start failed: %w", firstErr)
	}
	return best, nil
}

// polished is the result of one polish start: the candidate, the LPs it
// took and why it failed.
type polished struct {
	cand candidate
	lps  int
	err  error
}

// phasePolishes is how many of the best polished starts of a one-axis
// design are polished again in phase.
const phasePolishes = 4

// polishPhaseBest polishes the best phasePolishes results again with the
// frequencies' trust region in phase (polishPhase), in parallel, each
// keeping the better of its two polishes. A polish in phase whose LP fails
// leaves its result as it was.
func (c *fitter) polishPhaseBest(results []polished) {
	var idx []int
	for i := range results {
		if results[i].err == nil {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(results[a].cand.score, results[b].cand.score) })
	best := idx[:min(len(idx), phasePolishes)]
	c.inParallel(len(best), func(lp *lpSolver, k int) {
		i := best[k]
		cd := &results[i].cand
		if om, al, score, err := lp.polishPhase(cd.omega, cd.alpha); err == nil && score < cd.score {
			*cd = candidate{om, al, score}
		}
		results[i].lps += lp.n
	})
}

// inParallel runs f(lp, i) for i in [0, n), each on a goroutine of its own
// holding the gate and with an LP solver of its own, and waits for all.
func (c *fitter) inParallel(n int, f func(lp *lpSolver, i int)) {
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		c.gate.acquire(false)
		go func() {
			defer wg.Done()
			defer c.gate.release()
			f(&lpSolver{ctx: c.ctx, fit: c.lp.fit, sv: c.lp.sv}, i)
		}()
	}
	wg.Wait()
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
