package learnplan

import "math"

// This file prices learning as fmap/budget.go prices verification: the
// multiply-adds of LearnSigma and of the model a learned map carries,
// estimated from the sizes alone, so that a spec whose learning would run
// for many minutes is refused when it is read, naming the largest D that
// would not.

// LearnBudget is the most multiply-adds learning may take as LearnCost
// estimates them: about a minute where gonum's Cholesky factorisation and
// rank-k update run at 3–4·10⁹ multiply-adds a second
// (docs/limits.md, "Learning's budget", gives the measurements).
const LearnBudget = 2e11

// SharedEvaluations and PerAxisEvaluations are the evaluations of the
// objective (and its gradient) LearnCost counts for learning a shared σ
// and for the per-axis stage from it: a shared σ converges in a few
// iterations (7 to 21 evaluations measured), the per-axis stage runs to
// L-BFGS's DefaultMaxIterations (about 1.5 evaluations each).
const (
	SharedEvaluations  = 15
	PerAxisEvaluations = 150
)

// CostShape is what learning's cost depends on.
type CostShape struct {
	// Rows are the rows to fit learning is given, Inputs their inputs,
	// Targets the model's outputs (the classes, or 1).
	Rows, Inputs, Targets int
	// Dim is the random features σ is learned on; CosSin says they are
	// cos-sin pairs (Dim/2 frequencies), else phase features.
	Dim    int
	CosSin bool
	// Validation is learn.validation (0: 0.25).
	Validation float64
	// PerAxis learns a shared σ, then σ per axis from it, then compares
	// them by cross-validation; RidgeAuto chooses λ on RidgeGrid.
	PerAxis, RidgeAuto bool
	// MapDim is the designed map's D and MapEval the multiply-adds of its
	// Ψ on one row, for the model trained on it; ModelRidge says λ is
	// chosen again on the map's own features (ModelRidge: a Nyström map
	// with ridge: auto).
	MapDim     int
	MapEval    float64
	ModelRidge bool
}

// LearnCost estimates the multiply-adds of LearnSigma and Model (and
// ModelRidge) for c. With N rows to fit, N_v of them validating and N_t
// training, D features of m frequencies, n inputs and K targets, one
// evaluation of the objective and its gradient takes about
//
//	D³/3 + N_t·D²/2 + 4·D²·K + 4·N·D·K + (2N_t + N_v)·m·(n + 20) + N·m·a
//
// (the Cholesky factorisation of ZᵀZ + λI, its accumulation, the solves
// and back-solve, the passes over the rows, the features, a sine and
// cosine costing about 20; a = n per axis, 1 shared); ridge: auto's
// choice of λ, twice per stage, accumulates the moments once and factors
// 15 times. A stage counts SharedEvaluations or PerAxisEvaluations of
// them; per axis, the nested cross-validation learns both stages again on
// each of k folds' other rows (about five times a shared-then-per-axis
// learning in all, for k = 4); the model is one ridge fit on the map's Ψ
// over every row (15 with ModelRidge).
func LearnCost(c CostShape) float64 {
	N, K := float64(c.Rows), float64(max(1, c.Targets))
	cost := learnCost(c, N, false)
	if c.PerAxis {
		cost += learnCost(c, N, true)
		// The nested cross-validation: both stages again on every fold's
		// other rows, and each model fitted there and measured on it.
		k := float64(CVFolds(c.Validation))
		rest := N * (k - 1) / k
		D := float64(c.Dim)
		cost += k * (learnCost(c, rest, false) + learnCost(c, rest, true) + 2*(D*D*D/3+rest*D*D/2+N/k*D*K))
	}
	M := float64(c.MapDim)
	v := c.Validation
	if v == 0 {
		v = 0.25
	}
	model := N*c.MapEval + N*M*M/2 + N*M*K + M*M*M/3 + 2*M*M*K
	if c.ModelRidge {
		grid := float64(len(RidgeGrid()))
		model += grid * ((1-v)*N*M*M/2 + M*M*M/3 + 2*M*M*K + v*N*M*K)
	}
	return cost + model
}

// learnCost is one stage of LearnSigma on N rows: a shared σ, or σ per
// axis (LearnCost).
func learnCost(c CostShape, N float64, perAxis bool) float64 {
	n, K, D := float64(c.Inputs), float64(max(1, c.Targets)), float64(c.Dim)
	v := c.Validation
	if v == 0 {
		v = 0.25
	}
	Nv := v * N
	Nt := N - Nv
	m := D
	if c.CosSin {
		m = D / 2
	}
	feat := func(rows float64) float64 { return rows * m * (n + 20) }
	fit := D*D*D/3 + Nt*D*D/2 + Nt*D*K + 2*D*D*K + feat(Nt)
	plain := fit + feat(Nv) + Nv*D*K
	evals, a := float64(SharedEvaluations), 1.0
	if perAxis {
		evals, a = PerAxisEvaluations, n
	}
	grad := fit + 2*D*D*K + 4*N*D*K + feat(Nt) + feat(Nv) + N*m*a
	cost := evals*grad + 2*plain
	if c.RidgeAuto {
		grid := float64(len(RidgeGrid()))
		cost += 2 * (N*D*D/2 + N*D*K + feat(N) + grid*(D*D*D/3+3*D*D*K))
	}
	return cost
}

// MaxLearnedDim is the largest D ≤ MaxLearnDim (even when even is set)
// whose cost, cost(D), is within LearnBudget (0 if none is): cost grows
// with D.
func MaxLearnedDim(cost func(dim int) float64, even bool) int {
	lo, hi := 0, MaxLearnDim+1 // cost(lo) within (or lo = 0), cost(hi) not
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if cost(mid) <= LearnBudget {
			lo = mid
		} else {
			hi = mid
		}
	}
	if even {
		lo -= lo % 2
	}
	return lo
}

// NystroemLearnDim is the number of random Fourier features a nystroem
// design of D landmarks learns σ with: D rounded up to even, at least
// MinNystroemLearnDim (and at most MaxLearnDim). σ is the exact
// kernel's, which the landmarks then approximate: learned on more random
// features than a small D, it is nearer the exact kernel's best σ than one
// fitted to D random features' own error.
func NystroemLearnDim(dim int) int {
	return min(MaxLearnDim, max(MinNystroemLearnDim, dim+dim%2))
}

// MinNystroemLearnDim is the fewest random features a nystroem design
// learns σ with (NystroemLearnDim).
const MinNystroemLearnDim = 256

// MaxLearnDim bounds the features learning uses (the map's D): every
// evaluation forms and factors D × D matrices of the features' moments,
// memory about 5.8·D² numbers (with ridge auto) and a D³/3 Cholesky that
// Ctrl-C cannot interrupt. It is
// the group lasso's bound on its features (MaxGroupLassoFeatures in
// package learn).
const MaxLearnDim = 4096

// RidgeGrid is the grid learn.LearnOptions.RidgeAuto chooses λ from: 15 values
// 10^{−6}, 10^{−5.5}, …, 10^{1}, half a decade apart.
func RidgeGrid() []float64 {
	var g []float64
	for k := -12; k <= 2; k++ {
		g = append(g, math.Pow(10, float64(k)/2))
	}
	return g
}

// CVFolds is the number of folds of the cross-validation that judges
// per-axis widths: 1/validation rounded (4 for the default 0.25), at
// least 2, at most 10.
func CVFolds(validation float64) int {
	if validation == 0 {
		validation = 0.25
	}
	return min(10, max(2, int(math.Round(1/validation))))
}

// A Priced method says what learning σ for its maps costs: from base (the
// rows, inputs and targets, and the learn section's options), the shape of
// learning for its map of dimension dim, and whether it makes even
// dimensions only. Learning for a method that is not Priced is priced on
// dim cos-sin features, at any dim.
type Priced interface {
	LearnShape(base CostShape) (shape func(dim int) CostShape, even bool)
}
