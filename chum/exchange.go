package chum

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/fmap"
)

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
