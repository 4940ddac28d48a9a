package learn

import (
	"context"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
)

// This file decides whether per-axis widths are kept: learned from the
// shared σ on one validation split, n widths can fit that split's noise,
// and then do worse than the one shared σ on rows they never saw.

// PerAxisChoice is how per-axis widths compared with the shared σ they
// were learned from, each by the k-fold cross-validated error of the ridge
// model at its own λ on the rows learning was given (folds drawn apart
// from learning's split): the mean squared residual of the targets over
// every row, each predicted by the fit on the other folds.
type PerAxisChoice struct {
	// Folds is k; Shared and PerAxis the two cross-validated errors.
	Folds           int
	Shared, PerAxis float64
	// Kept says the per-axis widths had the lower error and are the
	// result; otherwise the result is the shared σ, and Sigma holds the
	// per-axis widths learned and set aside.
	Kept  bool
	Sigma []float64
}

// choosePerAxis keeps the per-axis result perAxis only if its
// cross-validated error is below that of the shared result it started
// from (crossValidate); otherwise it returns the shared result, saying
// so in PerAxis. Either way the iterations and evaluations are the two
// stages' sums and the start is the shared stage's.
func choosePerAxis(ctx context.Context, rows [][]float64, labels []float64, opts LearnOptions, shared, perAxis LearnResult) (LearnResult, error) {
	k := cvFolds(opts.Validation)
	cvShared, err := crossValidate(ctx, rows, labels, opts, shared.Sigma, shared.Ridge, k)
	if err != nil {
		return perAxis, err
	}
	cvPer, err := crossValidate(ctx, rows, labels, opts, perAxis.Sigma, perAxis.Ridge, k)
	if err != nil {
		return perAxis, err
	}
	choice := &PerAxisChoice{Folds: k, Shared: cvShared, PerAxis: cvPer, Kept: cvPer < cvShared}
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

// cvFolds is the number of folds of the cross-validation that judges
// per-axis widths: 1/validation rounded (4 for the default 0.25), at
// least 2, at most 10.
func cvFolds(validation float64) int {
	if validation == 0 {
		validation = 0.25
	}
	return min(10, max(2, int(math.Round(1/validation))))
}

// crossValidate is the k-fold cross-validated error of the ridge model of
// learning's features at the widths sigma and ridge λ: every fold's rows
// predicted by the fit on the other folds' rows (targets centred by their
// mean, as learning centres them), the squared residuals summed over the
// targets and averaged over the rows, in the labels' units. Folds are a
// seeded shuffle dealt round the folds, per class for classes. A fit that
// fails (widths whose features are not finite) makes the error +Inf;
// ctx's end is the only error.
func crossValidate(ctx context.Context, rows [][]float64, labels []float64, opts LearnOptions, sigma []float64, ridge float64, k int) (float64, error) {
	folds := foldSplit(labels, opts.Classes, k, opts.Seed)
	o := opts
	o.Kernel.Sigma, o.PerAxis, o.SharedFirst, o.Penalty, o.Ridge, o.RidgeAuto = sigma, true, false, 0, ridge, false
	var sq float64
	var n int
	for f, val := range folds {
		if len(val) == 0 {
			continue
		}
		var train []int
		for g, idx := range folds {
			if g != f {
				train = append(train, idx...)
			}
		}
		slices.Sort(train)
		l, err := newLearner(ctx, rows, labels, o, train, val)
		if err != nil {
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			return math.Inf(1), nil
		}
		l.scaleTargets()
		_, mse, err := l.eval(make([]float64, l.params()), nil)
		if err != nil {
			if ctx.Err() != nil {
				return 0, ctx.Err()
			}
			return math.Inf(1), nil
		}
		sq += l.unscaled(mse) * float64(len(val))
		n += len(val)
	}
	if n == 0 {
		return math.Inf(1), nil
	}
	return sq / float64(n), nil
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
