package featmap

import (
	"fmt"
	"strings"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/registry"
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
		registry.ErrorLine(p, d.Method.Name()),
	}
	if gl := s.GroupLasso; gl != nil {
		lines[0] = "kernels:"
		for g, k := range gl.Kernels {
			lines[0] += fmt.Sprintf(" %d. %s on data columns %d..%d;", g, k.Kernel.Describe(), k.Columns[0]+s.Data.First, k.Columns[1]+s.Data.First)
		}
		if m, ok := s.Method.Method.(design.Describer); ok {
			lines = append(lines, "method: "+m.Describe())
		}
		if r := d.GroupLasso; r != nil {
			lines = append(lines, strings.Split(r.Describe(kernelGroups(s), r.DimPerKernel), "\n")...)
			lines = append(lines, r.LearnedLine(p.Data))
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
		held := ""
		switch {
		case ds.Holdout == 0:
			held = "; no row held out (data.holdout 0)"
		case ds.Holdout != datafile.DefaultHoldout:
			held = fmt.Sprintf("; data.holdout %g", ds.Holdout)
		}
		lines = append(lines, fmt.Sprintf("data: %s (%s; at most %d rows%s)", ds.File, cols, ds.MaxRows, held))
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

// ModelLines state the model a learned map carries (learn.ModelLines):
// the task and why, the rows held out, to fit and to learn on, the ridge
// λ and where it came from, the held-out accuracy or RMSE; nil for a map
// without a model.
func (d *Design) ModelLines() []string {
	t := learn.ModelText{Learned: d.Learned, GroupLasso: d.GroupLasso, HeldRows: datafile.HeldRows}
	if ds := d.Spec.Data; ds != nil {
		t.Holdout = ds.Holdout
	}
	if l := d.Spec.Learn; l != nil {
		t.TaskWhy, t.Validation = l.TaskWhy, l.Validation
	} else {
		t.Learned = nil
	}
	return learn.ModelLines(d.Map.Model, d.Problem.Data, t)
}

// LearnedLine states what a learn section learned, in one line: σ from its
// start, from how many rows of which data, and the validation error before
// and after; for an rff-group-lasso spec, in several lines, every kernel's
// weight (or that it was dropped and left out of the map), λ, D, the data
// and the validation errors; "" otherwise.
func (d *Design) LearnedLine() string {
	data := d.Problem.Data
	if d.Spec.GroupLasso != nil && d.GroupLasso != nil {
		return d.GroupLasso.Describe(kernelGroups(d.Spec), d.GroupLasso.DimPerKernel) + "\n" + d.GroupLasso.LearnedLine(data)
	}
	ls := d.Spec.Learn
	if d.Learned == nil || ls == nil {
		return ""
	}
	return d.Learned.Line(data, ls.RidgeAuto, d.LearnDim, d.Map.Dim, d.Map.Method)
}
