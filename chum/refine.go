package chum

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// maxRefineEntries bounds rows × columns of a continuous-refinement LP:
// beyond it the refinement works on the heaviest frequencies of the best LP
// output, not on the whole pool.
const maxRefineEntries = 2_000_000

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
		return nil, errors.New("chum: the discrete LP produced no usable candidate")
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
		if c.lp.fit.n > 1 && !c.refinable(out) {
			// The refinement (Chum §4.2) moves the frequencies of the
			// output it refines. An output whose weighted terms are all
			// ω = 0, the constant alone, has none of its own. On several
			// axes it is not refined: each iteration would search the
			// unmoved pool again with half the trust region, each search
			// ending at the constant again, its upper brackets large LPs
			// (docs/lp-design.md, "A refinement with nothing to refine").
			// A heuristic, not a no-op: the refinement LP may still weight
			// and move the pool's other entries. On one axis that is what
			// it does, at the cost of small LPs: from the constant, with a
			// smaller trust region, it reaches the frequencies that
			// relative errors over wide intervals need (the same section,
			// "… and on one axis"), so a one-axis design always refines.
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
