package featmap

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/report"
)

// ReportInput returns the comparison in the form the report package
// renders: the maps with their verifications, the n/a reasons and
// failures, the spec restated in words, and the spec's verification
// reference for the plots.
func (c *Comparison) ReportInput() (*report.Input, error) {
	s := c.Spec
	ref, err := s.Reference()
	if err != nil {
		return nil, err
	}
	in := &report.Input{
		Name: s.Name, SpecPath: s.Path, SpecSHA: s.Hash,
		Summary:   fmt.Sprintf("%s on %s, %s error", s.Kernel.Describe(), s.Domain.Describe(), s.Error.Weight),
		Kernel:    kernelOf(s),
		Domain:    s.Domain.Design(),
		Measure:   s.Error.Weight,
		Dims:      append([]int(nil), c.Dims...),
		Reference: ref,
		Workers:   c.Workers,
		CPUs:      runtime.NumCPU(),
		Generator: "featmap " + Version,
	}
	var labels []string
	for i, m := range c.Methods {
		var opts []string
		for _, o := range methodOptionList(m) {
			opts = append(opts, o.desc)
		}
		in.Methods = append(in.Methods, report.Method{Label: c.Labels[i], Name: m.Name, Options: strings.Join(opts, ", ")})
		labels = append(labels, c.Labels[i])
		row := make([]report.Cell, len(c.Dims))
		for j, cell := range c.Cells[i] {
			switch {
			case cell.NA != "":
				row[j].NA = cell.NA
			case cell.Err != nil:
				row[j].Err = cell.Err.Error()
			default:
				d := cell.Design
				row[j] = report.Cell{Map: d.Map, Stages: d.Stages, LPs: d.LPs, Seconds: d.Seconds}
			}
		}
		in.Cells = append(in.Cells, row)
	}
	in.Spec = []report.Item{
		{Key: "kernel", Value: s.Kernel.Describe()},
		{Key: "domain", Value: s.Domain.Describe()},
		{Key: "error", Value: fmt.Sprintf("%s (%s), methods that optimise minimise its %s norm", s.Error.Weight, measureSymbol(s.Error.Weight), s.Error.Norm)},
		{Key: "methods", Value: strings.Join(labels, "; ")},
		{Key: "dimensions", Value: describeDims(c.Dims)},
	}
	if s.Path != "" {
		in.Spec = append(in.Spec, report.Item{Key: "spec", Value: s.Path})
	}
	return in, nil
}

// kernelOf returns the spec's kernel as maps record it.
func kernelOf(s *Spec) (k design.Kernel) {
	k.Type = s.Kernel.Type
	if s.Kernel.Homogeneous() {
		k.Gamma = s.Kernel.Gamma
	} else {
		k.Sigma = append([]float64(nil), s.Kernel.Sigma...)
	}
	return k
}

// measureSymbol returns the paper's name of an error measure.
func measureSymbol(m design.Measure) string {
	switch m {
	case design.Absolute:
		return "Chum's ε_A: |K − Ψ·Ψ|"
	case design.Relative:
		return "Chum's ε_R: |K − Ψ·Ψ| / K"
	}
	return "the unweighted signature error |k − k̂|"
}

// describeDims lists dimensions, runs of three or more written a..b (with
// step 2 for runs of odd or even numbers), e.g. "3..11".
func describeDims(dims []int) string {
	var parts []string
	for i := 0; i < len(dims); {
		j, step := i+1, 0
		if j < len(dims) {
			step = dims[j] - dims[i]
		}
		for j < len(dims) && dims[j]-dims[j-1] == step && (step == 1 || step == 2) {
			j++
		}
		switch {
		case j-i >= 3 && step == 1:
			parts = append(parts, fmt.Sprintf("%d..%d", dims[i], dims[j-1]))
		case j-i >= 3:
			parts = append(parts, fmt.Sprintf("%d, %d, …, %d", dims[i], dims[i+1], dims[j-1]))
		default:
			j = i + 1
			parts = append(parts, fmt.Sprint(dims[i]))
		}
		i = j
	}
	return strings.Join(parts, ", ")
}
