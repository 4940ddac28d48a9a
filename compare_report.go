package featmap

import (
	"fmt"
	"runtime"
	"strings"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/report"
	"github.com/featmap/featmap/spec"
)

// ReportInput returns the comparison in the form the report package
// renders: the maps with their verifications, the n/a reasons and
// failures, the spec restated in words, and the spec's verification
// reference for the plots.
func (c *Comparison) ReportInput() (*report.Input, error) {
	s, p := c.Spec, c.Problem
	ref, err := p.Reference()
	if err != nil {
		return nil, err
	}
	in := &report.Input{
		Name: s.Name, SpecPath: s.Path, SpecSHA: s.Hash,
		Summary:   fmt.Sprintf("%s on %s, %s error", p.Kernel.Describe(), p.Domain.Describe(), p.Measure),
		Kernel:    p.Kernel,
		Domain:    p.Domain,
		Measure:   p.Measure,
		Dims:      append([]int(nil), c.Dims...),
		Widths:    c.Widths,
		WidthRule: c.WidthRule(),
		Reference: ref,
		Workers:   c.Workers,
		CPUs:      runtime.NumCPU(),
		Generator: "featmap " + Version,
	}
	var labels []string
	for i, m := range c.Methods {
		in.Methods = append(in.Methods, report.Method{Label: c.Labels[i], Name: m.Name(), Options: strings.Join(spec.OptionTexts(m), ", ")})
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
				v := d.Verification
				row[j] = report.Cell{Map: d.Map, Verification: &v, LPs: d.LPs, Seconds: d.Seconds}
				for _, st := range d.Steps {
					row[j].Steps = append(row[j].Steps, report.Step{Name: st.Name, Error: st.Error})
				}
			}
		}
		in.Cells = append(in.Cells, row)
	}
	in.Spec = []report.Item{
		{Key: "kernel", Value: p.Kernel.Describe()},
		{Key: "domain", Value: p.Domain.Describe()},
		{Key: "error", Value: fmt.Sprintf("%s (%s), methods that optimise minimise its %s norm", p.Measure, measureSymbol(p.Measure), p.Norm)},
		{Key: "methods", Value: strings.Join(labels, "; ")},
	}
	if c.Widths {
		in.Spec = append(in.Spec, report.Item{Key: "widths", Value: describeDims(c.Dims) + " numbers per row: " + c.WidthRule()})
	} else {
		in.Spec = append(in.Spec, report.Item{Key: "dimensions", Value: describeDims(c.Dims)})
	}
	if s.Path != "" {
		in.Spec = append(in.Spec, report.Item{Key: "spec", Value: s.Path})
	}
	return in, nil
}

// measureSymbol returns the paper's name of an error measure.
func measureSymbol(m fmap.Measure) string {
	switch m {
	case fmap.Absolute:
		return "Chum's ε_A: |K − Ψ·Ψ|"
	case fmap.Relative:
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
