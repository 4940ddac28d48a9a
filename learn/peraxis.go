package learn

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/featmap/featmap/design/learnplan"
)

// This file decides whether per-axis widths are kept: learned from the
// shared σ on one validation split, n widths can fit that split's noise,
// and then do worse than the one shared σ on rows they never saw.

// PerAxisChoice is how per-axis widths compared with a shared σ, by
// nested k-fold cross-validation on the rows learning was given (folds
// drawn apart from learning's split): for every fold, a shared σ and then
// per-axis widths from it are learned on the other folds alone (learning's
// own split inside them), each ridge model (at its own λ) is fitted on
// those rows and measured on the fold, which neither learning saw. Every
// row so has a squared residual of each (summed over the targets, in the
// labels' units). Cross-validating the widths learned on all the rows
// instead would measure them partly on the validation rows they were
// fitted to, which favours the per-axis widths (on the breast-cancer,
// wine and diabetes sets it kept widths that did worse on test rows).
//
// The per-axis widths are kept when their mean error is below the shared
// σ's by more than one standard error of the rows' paired differences:
// the one-standard-error rule (Hastie, Tibshirani and Friedman, The
// Elements of Statistical Learning, §7.10), the shared σ being the simpler
// model of the two, one width where the other has n.
type PerAxisChoice struct {
	// Folds is k; Shared and PerAxis the two cross-validated errors (the
	// mean over the rows), StdErr the standard error of their per-row
	// difference.
	Folds                   int
	Shared, PerAxis, StdErr float64
	// Kept says the per-axis widths are the result; otherwise the result
	// is the shared σ, and Sigma holds the per-axis widths learned and set
	// aside.
	Kept  bool
	Sigma []float64
}

// choosePerAxis keeps the per-axis result perAxis only if its nested
// cross-validated error is below the shared σ's by more than a standard
// error (PerAxisChoice); otherwise it returns the shared result, saying so
// in PerAxis. Either way the iterations and evaluations are the two
// stages' sums and the start is the shared stage's.
func choosePerAxis(ctx context.Context, rows [][]float64, labels []float64, opts LearnOptions, shared, perAxis LearnResult) (LearnResult, error) {
	k := learnplan.CVFolds(opts.Validation)
	eShared, ePer, err := nestedCV(ctx, rows, labels, opts, k)
	if err != nil {
		return perAxis, err
	}
	choice := &PerAxisChoice{Folds: k}
	choice.Shared, choice.PerAxis, choice.StdErr = pairedMeans(eShared, ePer)
	choice.Kept = choice.PerAxis < choice.Shared-choice.StdErr
	if choice.Kept {
		perAxis.PerAxis = choice
		return perAxis, nil
	}
	choice.Sigma = perAxis.Sigma
	out := shared
	out.Shared, out.Penalty, out.PerAxis = shared.Sigma, perAxis.Penalty, choice
	out.Iterations, out.Evaluations = perAxis.Iterations, perAxis.Evaluations
	return out, nil
}

// pairedMeans are the means of a and b and the standard error of the
// mean of their differences b_i − a_i (+Inf when a row's error is not
// finite, 0 for fewer than two rows).
func pairedMeans(a, b []float64) (meanA, meanB, se float64) {
	n := float64(len(a))
	if n == 0 {
		return math.Inf(1), math.Inf(1), 0
	}
	var sa, sb, sd, sdd float64
	for i := range a {
		d := b[i] - a[i]
		sa, sb, sd, sdd = sa+a[i], sb+b[i], sd+d, sdd+d*d
	}
	meanA, meanB = sa/n, sb/n
	if n < 2 {
		return meanA, meanB, 0
	}
	md := sd / n
	se = math.Sqrt(math.Max(sdd/n-md*md, 0) * n / (n - 1) / n)
	if math.IsNaN(se) {
		se = math.Inf(1)
	}
	return meanA, meanB, se
}

// nestedCV returns every row's squared residual (summed over the targets,
// in the labels' units) of the model of a shared σ and of per-axis widths
// from it, each learned on the other folds' rows (PerAxisChoice), rows
// of no fold's validation left out. A learning or a fit that fails
// (widths whose features are not finite) makes its rows' errors +Inf;
// ctx's end is the only error.
func nestedCV(ctx context.Context, rows [][]float64, labels []float64, opts LearnOptions, k int) (shared, perAxis []float64, err error) {
	folds := foldSplit(labels, opts.Classes, k, opts.Seed)
	say := newReporter(opts.Progress)
	for f, val := range folds {
		if len(val) == 0 {
			continue
		}
		say.say(fmt.Sprintf("per axis against a shared σ: fold %d of %d", f+1, k))
		var train []int
		for g, idx := range folds {
			if g != f {
				train = append(train, idx...)
			}
		}
		slices.Sort(train)
		sub, subLabels := make([][]float64, len(train)), make([]float64, len(train))
		for j, i := range train {
			sub[j], subLabels[j] = rows[i], labels[i]
		}
		inf := slices.Repeat([]float64{math.Inf(1)}, len(val))
		eSh, eP := inf, inf
		o := opts
		o.PerAxis, o.SharedFirst, o.Penalty, o.Progress = false, false, 0, nil
		sh, err := LearnSigma(ctx, sub, subLabels, o)
		if err == nil {
			eSh = foldErrors(ctx, rows, labels, opts, sh.Sigma, sh.Ridge, train, val)
			o = opts
			o.SharedFirst, o.Progress = false, nil
			o.Kernel.Sigma = sh.Sigma
			if pa, err := LearnSigma(ctx, sub, subLabels, o); err == nil {
				eP = foldErrors(ctx, rows, labels, opts, pa.Sigma, pa.Ridge, train, val)
			}
		}
		if ctx.Err() != nil {
			return nil, nil, ctx.Err()
		}
		shared, perAxis = append(shared, eSh...), append(perAxis, eP...)
	}
	return shared, perAxis, nil
}

// foldErrors are the squared residuals of the targets (summed over them,
// in the labels' units) on the rows val of the ridge model of learning's
// features at the widths sigma and ridge λ, fitted on the rows train
// (targets centred by their mean there); +Inf when the fit fails.
func foldErrors(ctx context.Context, rows [][]float64, labels []float64, opts LearnOptions, sigma []float64, ridge float64, train, val []int) []float64 {
	inf := slices.Repeat([]float64{math.Inf(1)}, len(val))
	o := opts
	o.Kernel.Sigma, o.PerAxis, o.SharedFirst, o.Penalty, o.Ridge, o.RidgeAuto, o.Progress = sigma, true, false, 0, ridge, false, nil
	l, err := newLearner(ctx, rows, labels, o, train, val)
	if err != nil {
		return inf
	}
	l.scaleTargets()
	sc, err := l.scores(make([]float64, l.params()))
	if err != nil {
		return inf
	}
	out := make([]float64, len(val))
	for r, i := range l.val {
		for c := range l.k {
			e := sc.At(r, c) - l.y[i*l.k+c]
			out[r] += e * e
		}
		out[r] = l.unscaled(out[r])
		if math.IsNaN(out[r]) {
			out[r] = math.Inf(1)
		}
	}
	return out
}

// foldSplit deals the rows into k folds: a seeded shuffle (a stream of its
// own, apart from learning's split), per class for classes, dealt round
// the folds so that each holds about a k-th of every class; every fold's
// rows in order.
func foldSplit(labels []float64, classes bool, k int, seed int64) [][]int {
	if seed == 0 {
		seed = 1
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x666f6c6473)) // "folds"
	groups := map[float64][]int{}
	for i, v := range labels {
		if !classes {
			v = 0
		}
		groups[v] = append(groups[v], i)
	}
	folds := make([][]int, k)
	next := 0
	for _, c := range slices.Sorted(maps.Keys(groups)) {
		g := groups[c]
		rng.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
		for _, i := range g {
			folds[next] = append(folds[next], i)
			next = (next + 1) % k
		}
	}
	for _, f := range folds {
		slices.Sort(f)
	}
	return folds
}
