package featmap

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/spec"
)

// Describe restates the design's spec in a few lines of words: kernel,
// domain, error measure, and target and method (or the kernels, their
// method and what the group lasso kept), with what learning learned (the
// problem's kernel is the one designed for: a learned σ, the combined
// kernel's error measure). gen writes it ahead of the emitted code.
func (d *Design) Describe() []string {
	s, p := d.Spec, d.Problem
	lines := []string{
		"kernel: " + p.Kernel.Describe(),
		"domain: " + p.Domain.Describe(),
		errorLine(p, d.Method.Name()),
	}
	if gl := s.GroupLasso; gl != nil {
		lines[0] = "kernels:"
		for g, k := range gl.Kernels {
			lines[0] += fmt.Sprintf(" %d. %s on data columns %d..%d;", g, k.Kernel.Describe(), k.Columns[0]+s.Data.First, k.Columns[1]+s.Data.First)
		}
		o := groupLassoOptions(s)
		lam := "auto (relaxed-lasso validation)"
		if o.Lambda > 0 {
			lam = fmt.Sprintf("%g", o.Lambda)
		}
		lines = append(lines, fmt.Sprintf("method: rff-group-lasso, %d features per kernel, λ %s, seed %d", o.DimPerKernel, lam, o.Seed))
		if r := d.GroupLasso; r != nil {
			lines = append(lines, strings.Split(describeGroupLasso(s, r), "\n")...)
			lines = append(lines, groupLassoLearnedLine(r, p.Data))
		}
	}
	// An rff-group-lasso spec's target and method (made by learning) are
	// stated by the group lasso's lines above.
	if s.Target != nil && s.GroupLasso == nil {
		if s.Target.Dim > 0 {
			lines = append(lines, fmt.Sprintf("target: D = %d", s.Target.Dim))
		} else {
			lines = append(lines, fmt.Sprintf("target: the smallest D ≤ %d with error ≤ %g", s.Target.MaxDim, s.Target.MaxError))
		}
	}
	if s.Method != nil && s.GroupLasso == nil {
		lines = append(lines, "method: "+spec.MethodLabels([]spec.MethodSpec{*s.Method})[0])
	}
	if ds := s.Data; ds != nil {
		cols := "every column"
		if ds.Last >= 0 {
			cols = fmt.Sprintf("columns %d..%d", ds.First, ds.Last)
		}
		if ds.Label >= 0 {
			cols += fmt.Sprintf(", label column %d", ds.Label)
		}
		lines = append(lines, fmt.Sprintf("data: %s (%s; at most %d rows)", ds.File, cols, ds.MaxRows))
	}
	if d.Learned != nil {
		lines = append(lines, d.LearnedLine())
	}
	lines = append(lines, d.ModelLines()...)
	if s.Emit.Tables != "" && s.Emit.Tables != "fast" {
		lines = append(lines, "emit: tables "+s.Emit.Tables)
	}
	return lines
}

// normMinimisers are the methods whose designs minimise the error in the
// spec's norm (error.norm): the LP designs. Every other method builds its
// map another way (closed forms, projections, samples), and the norm only
// measures it.
var normMinimisers = map[string]bool{"chum": true, "projection": true, "modulation": true, "tensor-greedy": true}

// samplers are the methods that build their maps from random draws or
// the data's rows.
var samplers = map[string]bool{"rff": true, "rf-pca": true, "nystroem": true, "rff-group-lasso": true}

// errorLine states the error measure and norm, and whether method
// minimises the error in that norm or only is measured in it.
func errorLine(p *fmap.Problem, method string) string {
	switch {
	case normMinimisers[method]:
		return fmt.Sprintf("error: %s, minimised in the %s norm", p.Measure, p.Norm)
	case samplers[method]:
		return fmt.Sprintf("error: %s, measured in the %s norm (%s draws its map from samples: it minimises no error)", p.Measure, p.Norm, method)
	}
	return fmt.Sprintf("error: %s, measured in the %s norm (%s does not minimise it)", p.Measure, p.Norm, method)
}

// ModelLines state the model a learned map carries, in a few lines: the
// task (classes or numbers, and why), the rows that fitted, validated and
// were held out (and why that many), the ridge λ and where it came from,
// and the held-out accuracy or RMSE; nil for a map without a model.
func (d *Design) ModelLines() []string {
	mod := d.Map.Model
	data := d.Problem.Data
	if mod == nil || data == nil {
		return nil
	}
	var lines []string
	task := "regression: the labels are numbers"
	if mod.Classes != nil {
		task = fmt.Sprintf("classification, %d classes (%s)", len(mod.Classes), classRange(mod.Classes))
	}
	if l := d.Spec.Learn; l != nil && l.TaskWhy != "" {
		task += "; " + l.TaskWhy
	}
	lines = append(lines, "model: "+task)
	kept := len(data.Fit) + len(data.Held)
	read := fmt.Sprintf("%d rows of %s", data.Rows, data.File)
	if kept < data.Rows {
		read += fmt.Sprintf(", %d kept (data.max_rows)", kept)
	}
	lines = append(lines, fmt.Sprintf("rows: %s: %d held out (a fifth, at most %d: they verify the map and measure the model, and nothing learns from them), %d to fit",
		read, len(data.Held), datafile.HeldRows, len(data.Fit)))
	if l := d.Learned; l != nil && d.Spec.Learn != nil {
		lines = append(lines, fmt.Sprintf("  of the %d to fit, σ was learned on %d and validated on %d (learn.validation %g, a seeded split by class for classes); the model was then trained on all %d at the learned σ",
			len(data.Fit), l.Train, l.Held, d.Spec.Learn.Validation, mod.Rows))
	} else if g := d.GroupLasso; g != nil {
		lines = append(lines, fmt.Sprintf("  of the %d to fit, the group lasso learned on %d and validated on %d; the model was then trained on all %d",
			len(data.Fit), g.Train, g.Held, mod.Rows))
	}
	lines = append(lines, "ridge "+ridgeWords(mod, d.Learned))
	if mod.Classes != nil {
		lines = append(lines, fmt.Sprintf("held-out accuracy %.4f (%d of %d rows)", mod.HeldAccuracy, int(math.Round(mod.HeldAccuracy*float64(mod.HeldRows))), mod.HeldRows))
	} else {
		lines = append(lines, fmt.Sprintf("held-out RMSE %.6g (%d rows)", mod.HeldRMSE, mod.HeldRows))
	}
	return lines
}

// classRange names a model's classes: all of them when few, else the
// first and last.
func classRange(c []float64) string {
	if len(c) <= 12 {
		return fmt.Sprintf("labels %v", c)
	}
	return fmt.Sprintf("labels %v … %v", c[0], c[len(c)-1])
}

// ridgeWords says what λ a model was fitted with and where it came from.
func ridgeWords(mod *fmap.LinearModel, l *learn.LearnResult) string {
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

// groupLassoOptions are the options of a kernels section's method,
// rff-group-lasso.
func groupLassoOptions(s *Spec) learn.RFFGroupLassoOptions {
	if m, ok := s.Method.Method.(*learn.RFFGroupLasso); ok {
		return m.Opts
	}
	return learn.RFFGroupLassoOptions{}
}

// LearnedLine states what a learn section learned, in one line: σ from its
// start, from how many rows of which data, and the validation error before
// and after; for an rff-group-lasso spec, in several lines, every kernel's
// weight (or that it was dropped and left out of the map), λ, D, the data
// and the validation errors; "" otherwise.
func (d *Design) LearnedLine() string {
	data := d.Problem.Data
	if d.Spec.GroupLasso != nil && d.GroupLasso != nil {
		return describeGroupLasso(d.Spec, d.GroupLasso) + "\n" + groupLassoLearnedLine(d.GroupLasso, data)
	}
	l := d.Learned
	if l == nil {
		return ""
	}
	sigma := func(v []float64) string {
		if slices.Min(v) == slices.Max(v) {
			return fmt.Sprintf("%.6g", v[0])
		}
		return fmt.Sprintf("%.4g", v)
	}
	ridge := fmt.Sprintf("ridge λ %.6g", l.Ridge)
	if ls := d.Spec.Learn; ls != nil && ls.RidgeAuto {
		ridge = fmt.Sprintf("ridge λ %.6g chosen on the validation split (%.6g at the start)", l.Ridge, l.RidgeStart)
	}
	line := fmt.Sprintf("learned: σ = %s from %s on %d rows of %s (sha256 %s, %d rows; %d more to validate): validation error %.4g → %.4g; %s",
		sigma(l.Sigma), sigma(l.Start), l.Train, data.File, shortSHA(data.SHA256), data.Rows, l.Held, l.ValidationBefore, l.ValidationAfter, ridge)
	if l.Shared != nil {
		line += fmt.Sprintf("; per axis from the shared σ = %s learned first, penalty %.6g", sigma(l.Shared), l.Penalty)
	}
	if d.LearnDim > 0 && d.LearnDim != d.Map.Dim {
		line += fmt.Sprintf("; on %d random Fourier features (the %s map was then made at the learned σ)", d.LearnDim, d.Map.Method)
	}
	return line
}

// shortSHA is the first 12 hex digits of a hash and an ellipsis.
func shortSHA(sha string) string {
	if len(sha) > 12 {
		return sha[:12] + "…"
	}
	return sha
}

// describeGroupLasso states what the group lasso kept: every kernel's
// weight d_g = ‖w_g‖/√2 (eq. 16) and share, the zero ones dropped (left
// out of the map), and the resulting dimension (dim_per_kernel per kept
// kernel).
func describeGroupLasso(s *Spec, r *learn.GroupLassoResult) string {
	var b strings.Builder
	dpk := groupLassoOptions(s).DimPerKernel
	kept := 0
	for g, k := range s.GroupLasso.Kernels {
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

// groupLassoLearnedLine states where the group lasso learned from and the
// validation error before (every kernel, equal weights) and after (the
// refit on the kept kernels).
func groupLassoLearnedLine(r *learn.GroupLassoResult, d *fmap.Data) string {
	return fmt.Sprintf("learned: kernel weights by group lasso on %d rows of %s (sha256 %s, %d rows; %d more to validate): validation error %.4g (every kernel, equal weights) → %.4g (the kept kernels, refit; %.4g with no kernel)",
		r.Train, d.File, shortSHA(d.SHA256), d.Rows, r.Held, r.ValidationAll, r.RelaxedValidation, r.ValidationNone)
}
