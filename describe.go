package featmap

import (
	"fmt"
	"slices"
	"strings"

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
		fmt.Sprintf("error: %s, minimised in the %s norm", p.Measure, p.Norm),
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
	if s.Emit.Tables != "" && s.Emit.Tables != "fast" {
		lines = append(lines, "emit: tables "+s.Emit.Tables)
	}
	return lines
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
	return fmt.Sprintf("learned: σ = %s from %s on %d rows of %s (sha256 %s, %d rows; %d more to validate): validation error %.4g → %.4g; %s",
		sigma(l.Sigma), sigma(l.Start), l.Train, data.File, shortSHA(data.SHA256), data.Rows, l.Held, l.ValidationBefore, l.ValidationAfter, ridge)
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
