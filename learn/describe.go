package learn

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/featmap/featmap/fmap"
)

// This file states in words what learning made: the model a learned map
// carries, and what a group lasso kept; the root package's Design text
// and featmap design print them.

// ModelText is what ModelLines states beside the model and its data: why
// the task is what it is, the learn section's validation share, what
// LearnSigma or GroupLasso learned (nil when not), the held-out row cap
// and the data section's holdout fraction.
type ModelText struct {
	TaskWhy    string
	Validation float64
	Learned    *LearnResult
	GroupLasso *GroupLassoResult
	HeldRows   int
	Holdout    float64
}

// EvalHint says how to measure a map and its model on a test file, for a
// design that held no row out.
const EvalHint = "featmap eval MAP.json TEST measures them on a test file (featmap gen -map MAP.json writes the map)"

// ModelLines state the model a learned map carries, in a few lines: the
// task (classes or numbers, and why), the rows that fitted, validated and
// were held out (and why that many), the ridge λ and where it came from,
// and the held-out accuracy or RMSE (or that none was measured: no row
// held out); nil for a map without a model.
func ModelLines(mod *fmap.LinearModel, data *fmap.Data, t ModelText) []string {
	if mod == nil || data == nil {
		return nil
	}
	var lines []string
	task := "regression, the labels taken as numbers"
	if mod.Classes != nil {
		task = fmt.Sprintf("classification, %d classes (%s)", len(mod.Classes), ClassRange(mod.Classes))
	}
	switch t.TaskWhy {
	case "":
	case "learn.task":
		task += ", as learn.task says"
	default:
		task += ": " + t.TaskWhy
	}
	lines = append(lines, "model: "+task)
	kept := len(data.Fit) + len(data.Held)
	read := fmt.Sprintf("%d rows of %s", data.Rows, data.File)
	if kept < data.Rows {
		read += fmt.Sprintf(", %d kept (data.max_rows)", kept)
	}
	if len(data.Held) == 0 {
		lines = append(lines, fmt.Sprintf("rows: %s: none held out (data.holdout 0): all %d fit the map and the model, and neither the map's error on data nor the model's is measured: %s",
			read, len(data.Fit), EvalHint))
	} else {
		lines = append(lines, fmt.Sprintf("rows: %s: %d held out (data.holdout %g, at most %d: they verify the map and measure the model, and nothing learns from them), %d to fit",
			read, len(data.Held), t.Holdout, t.HeldRows, len(data.Fit)))
	}
	if l := t.Learned; l != nil {
		lines = append(lines, fmt.Sprintf("  of the %d to fit, σ was learned on %d and validated on %d (learn.validation %g, a seeded split by class for classes); the model was then trained on all %d at the learned σ",
			len(data.Fit), l.Train, l.Held, t.Validation, mod.Rows))
	} else if g := t.GroupLasso; g != nil {
		lines = append(lines, fmt.Sprintf("  of the %d to fit, the group lasso learned on %d and validated on %d; the model was then trained on all %d",
			len(data.Fit), g.Train, g.Held, mod.Rows))
	}
	lines = append(lines, "ridge "+RidgeWords(mod, t.Learned))
	switch {
	case mod.HeldRows == 0 && mod.Classes != nil:
		lines = append(lines, "held-out accuracy: not measured, no row was held out (data.holdout 0)")
	case mod.HeldRows == 0:
		lines = append(lines, "held-out RMSE: not measured, no row was held out (data.holdout 0)")
	case mod.Classes != nil:
		lines = append(lines, fmt.Sprintf("held-out accuracy %.4f (%d of %d rows)", mod.HeldAccuracy, int(math.Round(mod.HeldAccuracy*float64(mod.HeldRows))), mod.HeldRows))
	default:
		lines = append(lines, fmt.Sprintf("held-out RMSE %.6g (%d rows)", mod.HeldRMSE, mod.HeldRows))
	}
	return lines
}

// ClassRange names a model's classes: all of them when few, else the
// first and last.
func ClassRange(c []float64) string {
	if len(c) <= 12 {
		return fmt.Sprintf("labels %v", c)
	}
	return fmt.Sprintf("labels %v … %v", c[0], c[len(c)-1])
}

// RidgeWords says what λ a model was fitted with and where it came from.
func RidgeWords(mod *fmap.LinearModel, l *LearnResult) string {
	lam := fmt.Sprintf("λ %.6g", mod.Ridge)
	switch mod.RidgeFrom {
	case fmap.RidgeDefault:
		return lam + ": learn.ridge's default, not tuned (ridge: auto chooses λ on the validation split)"
	case fmap.RidgeGiven:
		return lam + ": learn.ridge"
	case fmap.RidgeValidation:
		if l != nil && l.Ridge != mod.Ridge {
			return fmt.Sprintf("%s: chosen on the validation split on the map's own features (ridge: auto; σ was learned with λ %.6g on random features)", lam, l.Ridge)
		}
		if l != nil {
			return fmt.Sprintf("%s: chosen on the validation split at the learned σ (ridge: auto; λ %.6g at the start)", lam, l.RidgeStart)
		}
		return lam + ": chosen on the validation split (ridge: auto)"
	case fmap.RidgeFixed:
		return lam + ": the fixed λ of a kernels section's model"
	}
	return lam
}

// Describe states what the group lasso kept (of kernels, dpk random
// features each): every kernel's
// weight d_g = ‖w_g‖/√2 (eq. 16) and share, the zero ones dropped (left
// out of the map), and the resulting dimension (dim_per_kernel per kept
// kernel).
func (r *GroupLassoResult) Describe(kernels []KernelGroup, dpk int) string {
	var b strings.Builder
	kept := 0
	for g, k := range kernels {
		if r.Zero[g] {
			fmt.Fprintf(&b, "kernel %d (%s, columns [%d, %d]): zero group, dropped (not in the map)\n", g, k.Kernel.Type, k.Columns[0], k.Columns[1])
			continue
		}
		kept++
		fmt.Fprintf(&b, "kernel %d (%s, columns [%d, %d]): d = %.6g (share %.4f)\n", g, k.Kernel.Type, k.Columns[0], k.Columns[1], r.KernelWeights[g], r.KernelShares[g])
	}
	fmt.Fprintf(&b, "λ = %.6g (λ_max %.6g), D = %d (%d kept kernels × %d; dropped kernels are left out)", r.Lambda, r.LambdaMax, kept*dpk, kept, dpk)
	return b.String()
}

// LearnedLine states where the group lasso learned from and the
// validation error before (every kernel, equal weights) and after (the
// refit on the kept kernels).
func (r *GroupLassoResult) LearnedLine(d *fmap.Data) string {
	return fmt.Sprintf("learned: kernel weights by group lasso on %d rows of %s (sha256 %s, %d rows; %d more to validate): validation error %.4g (every kernel, equal weights) → %.4g (the kept kernels, refit; %.4g with no kernel)",
		r.Train, d.File, shortSHA(d.SHA256), d.Rows, r.Held, r.ValidationAll, r.RelaxedValidation, r.ValidationNone)
}

// Line states what LearnSigma learned, in one line: σ from its start,
// from how many rows of data, the validation accuracy (classes) or RMSE
// (regression) before and after with the squared loss learning minimised,
// the ridge λ (chosen by ridge: auto when ridgeAuto), how per-axis widths
// compared with the shared σ, and the random features it learned on when
// the map (of mapDim outputs, by method) is another.
func (l *LearnResult) Line(data *fmap.Data, ridgeAuto bool, learnDim, mapDim int, method string) string {
	sigma := func(v []float64) string {
		if slices.Min(v) == slices.Max(v) {
			return fmt.Sprintf("%.6g", v[0])
		}
		return fmt.Sprintf("%.4g", v)
	}
	ridge := fmt.Sprintf("ridge λ %.6g", l.Ridge)
	if ridgeAuto {
		ridge = fmt.Sprintf("ridge λ %.6g chosen on the validation split (%.6g at the start)", l.Ridge, l.RidgeStart)
	}
	line := fmt.Sprintf("learned: σ = %s from %s on %d rows of %s (sha256 %s, %d rows; %d more to validate): %s; %s",
		sigma(l.Sigma), sigma(l.Start), l.Train, data.File, shortSHA(data.SHA256), data.Rows, l.Held, l.ValidationWords(), ridge)
	if l.Shared != nil {
		line += fmt.Sprintf("; per axis from the shared σ = %s learned first, penalty %.6g", sigma(l.Shared), l.Penalty)
	}
	if c := l.PerAxis; c != nil {
		if c.Kept {
			line += fmt.Sprintf(", kept: its nested %d-fold cross-validated error %.4g is below the shared σ's %.4g by more than a standard error (%.2g)", c.Folds, c.PerAxis, c.Shared, c.StdErr)
		} else {
			line += fmt.Sprintf(", set aside (σ = %s): its nested %d-fold cross-validated error %.4g is not below the shared σ's %.4g by more than a standard error (%.2g), so the shared σ is the one learned", sigma(c.Sigma), c.Folds, c.PerAxis, c.Shared, c.StdErr)
		}
	}
	if learnDim > 0 && learnDim != mapDim {
		line += fmt.Sprintf("; on %d random Fourier features (the %s map was then made at the learned σ)", learnDim, method)
	}
	return line
}

// ValidationWords states the validation error before and after learning
// in words that mean what they say: for classes the accuracy on the
// validation rows and the squared loss of the one-vs-rest ±1 targets
// learning minimised, for numbers the RMSE and the mean squared error.
func (l *LearnResult) ValidationWords() string {
	if l.Classes != nil {
		return fmt.Sprintf("validation accuracy %.4f → %.4f (squared loss of the one-vs-rest ±1 targets, summed over the %d classes, per row: %.4g → %.4g)",
			l.AccuracyBefore, l.AccuracyAfter, len(l.Classes), l.ValidationBefore, l.ValidationAfter)
	}
	return fmt.Sprintf("validation RMSE %.4g → %.4g (mean squared error %.4g → %.4g)",
		math.Sqrt(l.ValidationBefore), math.Sqrt(l.ValidationAfter), l.ValidationBefore, l.ValidationAfter)
}

// shortSHA is the first 12 hex digits of a hash and an ellipsis.
func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12] + "…"
	}
	return sha
}
