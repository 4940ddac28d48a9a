package chum

import (
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/fmap"
)

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
	starts := c.continuation(prev)
	if prev == nil || len(starts) == 0 {
		return r
	}
	say := func(m string) { r.msgs = append(r.msgs, m) }
	say(fmt.Sprintf("continuing from the %d-dimensional design", c.dim-1))
	// Urgent: the next level's continuation waits for this level.
	c.hold(true)
	defer c.release()
	lp := &lpSolver{ctx: c.ctx, fit: c.lp.fit, sv: c.lp.sv}
	var cand *candidate
	var err error
	for _, omega := range starts {
		if c.dimsOf(omega) != c.dim {
			continue
		}
		cd, e := lp.refitPolish(omega)
		if e == nil && c.lp.fit.n == 1 {
			if om, al, score, e := lp.polishPhase(cd.omega, cd.alpha); e == nil && score < cd.score {
				cd = &candidate{om, al, score}
			}
		}
		switch {
		case e != nil && cand == nil && err == nil:
			err = e
		case e == nil && (cand == nil || cd.score < cand.score):
			cand, err = cd, nil
		}
	}
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
// pool's spacing), each 1.5 times the one before, and, as a second start,
// each one gap above the one before (the gap between the two largest
// frequencies: near-optimal maps of smooth signatures space their
// frequencies almost evenly, and a new term far above them gets no weight
// and, without weight, no gradient to move by). The refit then sets the
// weights. It returns nil, or starts of exactly the fitter's dimension.
func (c *fitter) continuation(prev []fmap.Term) [][][]float64 {
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
	if need == 0 {
		return [][][]float64{omega}
	}
	var freqs []float64
	for _, om := range omega {
		if om[0] > 0 {
			freqs = append(freqs, om[0])
		}
	}
	slices.Sort(freqs)
	top = math.Max(top, c.p.Spacing)
	geometric, even := cloneFreqs(omega), cloneFreqs(omega)
	for w, n := top, need; n > 0; n -= 2 {
		w *= 1.5
		geometric = append(geometric, []float64{w})
	}
	starts := [][][]float64{geometric}
	if k := len(freqs); k >= 2 && freqs[k-1]-freqs[k-2] > 0 {
		gap := freqs[k-1] - freqs[k-2]
		for w, n := top, need; n > 0; n -= 2 {
			w += gap
			even = append(even, []float64{w})
		}
		if maxFreqDiff(even, geometric) > 1e-3*top {
			starts = append(starts, even)
		}
	}
	return starts
}
