package learn

import (
	"context"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/optimize"

	"github.com/featmap/featmap/fmap"
)

// LearnOptions say how LearnSigma learns a kernel's widths.
type LearnOptions struct {
	// Kernel is the kernel and the starting point: rbf, skewed-chi2 or
	// skewed-intersection, Sigma one value per input axis (or one value,
	// used on every axis), C the skewed kernels' offset.
	Kernel fmap.Kernel
	// PerAxis learns one σ per input axis (automatic relevance
	// determination); otherwise one factor scales every axis's σ.
	PerAxis bool
	// Validation is the held-out fraction of the rows, in (0, 1)
	// (default 0.25): a seeded split, stratified by class for class labels.
	Validation float64
	// Ridge is λ of w = (ZᵀZ + λI)⁻¹Zᵀy (default 1e-3).
	Ridge float64
	// RidgeAuto chooses λ on the validation split instead (Ridge must be
	// 0): the λ of plan.RidgeGrid of least validation error (chooseRidge) at
	// the starting σ, which σ is then learned with, and again at the
	// learned σ, which the result reports (Ridge) and its validation error
	// is measured with. A grid point at each end, not a joint optimisation:
	// the second choice never raises the validation error, since the
	// first λ is on the grid too.
	RidgeAuto bool
	// Penalty is the weight of r(σ) = Σ_a log²(σ_a/σ0_a), σ0 the starting
	// widths (default 0). A penalty on log σ rather than on σ: it is
	// unit-free (scaling the data and the starting σ together learns the
	// same map), and it does not pull the large σ of irrelevant axes down
	// harder than the small σ of relevant ones, as ‖σ‖² (gradient 2σ) would.
	Penalty float64
	// SharedFirst (with PerAxis) learns one shared σ first and starts the
	// per-axis learning from it, the penalty r(σ) then measured from the
	// shared σ. Per axis from a start far from the optimum, the n widths
	// chase the validation rows' noise on the way; from the shared
	// optimum they move apart only where the validation error pays for
	// it (docs/learning.md, "Measurements").
	SharedFirst bool
	// Dim is D, the number of features (even for cos-sin features).
	Dim int
	// Sampling, Features and Seed are rff's options
	// (sampled.RFFOptions): the uniform draws u, fixed while σ moves, are
	// those an rff design of the same options draws, so that designing rff
	// with the learned σ gives the features learned with (bit for bit for
	// rbf).
	Sampling, Features string
	// Seed seeds the frequencies, the phases and the split (default 1).
	Seed int64
	// Classes treats the labels as classes: one-vs-rest ±1 targets, the
	// validation losses of the classes summed. Otherwise the labels are
	// numeric targets (regression).
	Classes bool
	// MaxIterations bounds L-BFGS's major iterations (default 100).
	MaxIterations int
	// Chunk is the number of rows whose features are held at once
	// (default 256).
	Chunk int
	// Progress, if not nil, hears how far learning is: the stage, the
	// evaluations of the objective so far and the validation error, and
	// ridge: auto's λ tried (at most one message a second).
	Progress func(string)
}

// LearnResult is what LearnSigma learned.
type LearnResult struct {
	// Sigma is the learned σ per input axis (all equal for a shared σ
	// learned from equal starting widths).
	Sigma []float64
	// Start is the starting σ per input axis.
	Start []float64
	// ValidationBefore and ValidationAfter are the validation error at the
	// start and at the learned σ: the mean over validation rows of the
	// squared residual summed over the targets.
	ValidationBefore, ValidationAfter float64
	// ObjectiveBefore and ObjectiveAfter are the minimised objective
	// ½‖Z_v w − y_v‖² + Penalty·r(σ).
	ObjectiveBefore, ObjectiveAfter float64
	// Iterations and Evaluations are L-BFGS's major iterations and
	// objective evaluations; Status is its stopping reason.
	Iterations, Evaluations int
	Status                  string
	// Classes are the class labels in target order (nil for regression).
	Classes []float64
	// Train and Held are the numbers of training and validation rows.
	Train, Held int
	// Ridge is the ridge λ of ValidationAfter: the given one, or with
	// RidgeAuto the one chosen at the learned σ; RidgeStart the λ σ was
	// learned with (chosen at the starting σ with RidgeAuto).
	Ridge, RidgeStart float64
	// Penalty is the weight of r(σ) learning used; Shared, with
	// SharedFirst, the shared σ per axis the per-axis learning started
	// from (nil otherwise).
	Penalty float64
	Shared  []float64
	// AccuracyBefore and AccuracyAfter are, for classes, the fraction of
	// the validation rows whose largest score is their class, at the start
	// and at the learned σ (0 for regression).
	AccuracyBefore, AccuracyAfter float64
	// PerAxis, with SharedFirst, is how the per-axis σ compared with the
	// shared one it started from (nil otherwise): kept only when its
	// cross-validated error is lower, else Sigma is the shared σ.
	PerAxis *PerAxisChoice
}

// learnSharedFirst is LearnSigma with SharedFirst: a shared σ from the
// start, then σ per axis from it. The result's start, validation error
// and objective before are the first stage's; iterations and evaluations
// are the two stages' sums.
func learnSharedFirst(ctx context.Context, rows [][]float64, labels []float64, opts LearnOptions) (LearnResult, error) {
	o := opts
	o.PerAxis, o.SharedFirst, o.Penalty = false, false, 0
	first, err := LearnSigma(ctx, rows, labels, o)
	if err != nil {
		return first, err
	}
	o = opts
	o.SharedFirst = false
	o.Kernel.Sigma = first.Sigma
	res, err := LearnSigma(ctx, rows, labels, o)
	if err != nil {
		return res, err
	}
	res.Shared = first.Sigma
	res.Start, res.ValidationBefore, res.ObjectiveBefore = first.Start, first.ValidationBefore, first.ObjectiveBefore
	res.AccuracyBefore = first.AccuracyBefore
	res.Iterations += first.Iterations
	res.Evaluations += first.Evaluations
	if opts.RidgeAuto {
		res.RidgeStart = first.RidgeStart
	}
	return choosePerAxis(ctx, rows, labels, opts, first, res)
}

// LearnSigma learns the widths σ of an rbf or skewed kernel's random
// Fourier features from labelled rows by the validation gradient of
// Băzăvan, Li & Sminchisescu (§3.2, eqs. 2–9): with the uniform draws u
// fixed the frequencies are ω_ja = h(u_j)_a/σ_a (rbf) or σ_a·h(u_j)_a
// (skewed), the features z(x; σ) are smooth in σ, the ridge weights on the
// training rows are w = (ZᵀZ + λI)⁻¹Zᵀy (targets centred by their training
// mean), and L-BFGS (gonum optimize) minimises the validation objective
// E = ½‖Z_v w − y_v‖² + Penalty·r(σ) over log σ with E's closed-form
// gradient (see gradient). labels[i] is row i's target or class.
//
// L-BFGS stops when a major iteration lowers E by less than 10⁻⁶ of |E|
// (gonum's FunctionConverge), when ‖∂E‖ < 1e-8, or after MaxIterations.
// Without the first rule it reached the optimum in a few iterations and
// then spent most of its evaluations in a line search that ended in
// "Failure", for the same σ and validation error (TestLearnSigmaScale).
//
// Memory: the D×D system, D×K right-hand sides and a chunk of features;
// nothing of size N·D. What grows with the rows is the caller's rows and
// the split's index lists (one int per row).
func LearnSigma(ctx context.Context, rows [][]float64, labels []float64, opts LearnOptions) (LearnResult, error) {
	if opts.PerAxis && opts.SharedFirst {
		return learnSharedFirst(ctx, rows, labels, opts)
	}
	l, err := newLearner(ctx, rows, labels, opts, nil, nil)
	if err != nil {
		return LearnResult{}, err
	}
	l.scaleTargets()
	say := newReporter(opts.Progress)
	stage := "learning σ"
	if opts.PerAxis {
		stage = "learning σ per axis"
	}
	res := LearnResult{Start: slices.Clone(l.sigma0), Classes: l.classes, Train: len(l.train), Held: len(l.val), Penalty: opts.Penalty}
	theta0 := make([]float64, l.params())
	if opts.RidgeAuto {
		if opts.Ridge != 0 {
			return res, fmt.Errorf("learn: learning σ: ridge %v with ridge auto (want 0)", opts.Ridge)
		}
		if l.lambda, _, err = l.chooseRidge(theta0, say.to(stage+": ridge auto at the start")); err != nil {
			return res, err
		}
	}
	res.RidgeStart = l.lambda
	obj0, mse0, err := l.eval(theta0, nil)
	if err != nil {
		return res, err
	}
	res.ObjectiveBefore, res.ValidationBefore = obj0, l.unscaled(mse0)
	if res.AccuracyBefore, err = l.accuracy(theta0); err != nil {
		return res, err
	}
	// L-BFGS asks for E and ∂E at the same points: one evaluation computes
	// both, kept for the last point. A point where the ridge fit fails (a
	// line search's trial step to widths whose features are not finite) is
	// no error: its objective is +Inf, and the line search steps back.
	var lastX, lastG []float64
	var lastF float64
	evals := 0
	at := func(th []float64) bool {
		if slices.Equal(th, lastX) {
			return true
		}
		g := make([]float64, len(th))
		f, mse, err := l.eval(th, g)
		if err != nil {
			if l.ctx.Err() != nil {
				l.err = err
			}
			return false
		}
		if math.IsNaN(f) {
			return false
		}
		evals++
		say.say(fmt.Sprintf("%s: evaluation %d, validation loss %.4g", stage, evals, l.unscaled(mse)))
		lastX, lastF, lastG = slices.Clone(th), f, g
		return true
	}
	prob := optimize.Problem{
		Func: func(th []float64) float64 {
			if !at(th) {
				return math.Inf(1)
			}
			return lastF
		},
		Grad: func(g, th []float64) {
			if !at(th) {
				for i := range g {
					g[i] = math.NaN()
				}
				return
			}
			copy(g, lastG)
		},
	}
	iters := opts.MaxIterations
	if iters <= 0 {
		iters = DefaultMaxIterations
	}
	settings := &optimize.Settings{MajorIterations: iters, FuncEvaluations: EvaluationsPerIteration * iters, GradientThreshold: 1e-8,
		Converger: &optimize.FunctionConverge{Relative: 1e-6, Iterations: 1}}
	out, oerr := optimize.Minimize(prob, theta0, settings, &optimize.LBFGS{})
	if l.err != nil {
		return res, l.err
	}
	if out == nil {
		return res, fmt.Errorf("learn: learning σ: %w", oerr)
	}
	best := out.X
	if !(out.F < obj0) { // L-BFGS failed to improve: keep the start
		best = theta0
	}
	if opts.RidgeAuto {
		if l.lambda, _, err = l.chooseRidge(best, say.to(stage+": ridge auto at the learned σ")); err != nil {
			return res, err
		}
	}
	res.Ridge = l.lambda
	var mse float64
	res.ObjectiveAfter, mse, err = l.eval(best, nil)
	if err != nil {
		return res, err
	}
	res.ValidationAfter = l.unscaled(mse)
	if res.AccuracyAfter, err = l.accuracy(best); err != nil {
		return res, err
	}
	res.Sigma = l.sigmas(best)
	res.Iterations, res.Evaluations, res.Status = out.Stats.MajorIterations, out.Stats.FuncEvaluations, out.Status.String()
	return res, nil
}

// DefaultMaxIterations is L-BFGS's default bound on major iterations
// (LearnOptions.MaxIterations), and EvaluationsPerIteration times it the
// bound on evaluations of the objective: a line search that keeps
// stepping back cannot run on without end (per axis, learning takes about
// 1.5 evaluations an iteration).
const (
	DefaultMaxIterations    = 100
	EvaluationsPerIteration = 3
)
