// Package report renders a comparison of designed feature maps — several
// methods, each at several output dimensions D — as a self-contained HTML
// page (index.html, inline SVG, no scripts, no network), a Markdown summary
// with its plots as SVG files beside it (report.md), and the numbers in
// machine-readable form (results.json).
//
// It runs nothing itself: its Input holds maps that were already designed
// and verified (fmap.Map with its Verification), the reasons why a method
// cannot make a dimension, and the fmap.Reference the maps were verified
// against, which the plots evaluate. Output is deterministic: the same Input
// gives the same bytes (results.json keeps the only run-dependent numbers,
// the design times, in a field of its own).
package report

import (
	"fmt"
	"strings"

	"github.com/featmap/featmap/fmap"
)

// Input is everything a report shows.
type Input struct {
	// Name is the comparison's name (the spec's name).
	Name string
	// SpecPath and SpecSHA identify the spec the comparison ran (its path
	// as given and the hex SHA-256 of its content).
	SpecPath, SpecSHA string
	// Spec restates the spec in words, in order (kernel, domain, error,
	// methods, dimensions, ...).
	Spec []Item
	// Summary is a one-line description of the problem, e.g.
	// "χ² kernel (γ = 1) on the integers {0..255}, absolute error".
	Summary string
	// Kernel and Domain are what every map approximates, and Measure the
	// error measure the table reports (Verification.Reported).
	Kernel  fmap.Kernel
	Domain  fmap.Domain
	Measure fmap.Measure
	// Methods are the rows of the table, Dims its columns, in spec order.
	Methods []Method
	Dims    []int
	// Widths says the columns are output widths (numbers per row), not
	// dimensions D: each method was designed at the D that gives the
	// column's width (its Map.Dim), which WidthRule says in words.
	Widths    bool
	WidthRule string
	// Cells[i][j] is method i at dimension Dims[j].
	Cells [][]Cell
	// Reference is what the maps were verified against: the plots evaluate
	// the exact kernel and signature from it. Nil leaves out the signature
	// curves and the kernel-error map.
	Reference *fmap.Reference
	// Workers is how many designs ran at once (their times are wall times
	// under that load) and CPUs the number of CPUs of the machine.
	Workers, CPUs int
	// Generator names the program and version that made the report, and
	// Command the command line that regenerates it (both optional).
	Generator string
	Command   string
}

// axis names the columns: "D", or "width" for a comparison by widths.
func (in *Input) axis() string {
	if in.Widths {
		return "width"
	}
	return "D"
}

// at names column value d, e.g. "D = 7" or "width 448".
func (in *Input) at(d int) string {
	if in.Widths {
		return fmt.Sprintf("width %d", d)
	}
	return fmt.Sprintf("D = %d", d)
}

// atList names several column values, e.g. "D = 3..5" or "width 64, 128".
func (in *Input) atList(dims []int) string {
	if in.Widths {
		return "width " + dimList(dims)
	}
	return "D = " + dimList(dims)
}

// atListPlain names several column values listed one by one, e.g.
// "D = 4, 6" (the notes' form).
func (in *Input) atListPlain(dims []int) string {
	s := make([]string, len(dims))
	for i, d := range dims {
		s[i] = fmt.Sprint(d)
	}
	if in.Widths {
		return "width " + strings.Join(s, ", ")
	}
	return "D = " + strings.Join(s, ", ")
}

// Item is one line of the spec restated: a key and its value in words.
type Item struct {
	Key, Value string
}

// Method is one row of the comparison.
type Method struct {
	// Label tells the method apart from the others in the comparison,
	// e.g. "vz (uniform)"; Name is the method's name, e.g. "vz".
	Label, Name string
	// Options describes the method's options in words ("" for none).
	Options string
}

// Cell is one method at one dimension: made, not possible, or failed.
type Cell struct {
	// Map is the designed map and Verification what was measured of it;
	// both nil when the method cannot make the dimension or the design
	// failed.
	Map          *fmap.Map
	Verification *fmap.Verification
	// NA says why the method cannot make this dimension ("" if it can).
	NA string
	// Err says why the design failed ("" if it did not).
	Err string
	// Steps are the intermediate designs of an optimising method with
	// their measured errors; LPs the number of linear programs solved.
	Steps []Step
	LPs   int
	// Seconds is the design's wall time, verification included.
	Seconds float64
}

// Step is one step of a design pipeline with its measured error (in the
// problem's measure, on the verification set).
type Step struct {
	Name  string
	Error fmap.Measurement
}

// Status values of a cell.
const (
	StatusOK     = "ok"
	StatusNA     = "n/a"
	StatusFailed = "failed"
)

// Status returns StatusOK, StatusNA or StatusFailed.
func (c Cell) Status() string {
	switch {
	case c.NA != "":
		return StatusNA
	case c.Map == nil || c.Verification == nil || c.Err != "":
		return StatusFailed
	}
	return StatusOK
}

// ok reports whether the cell holds a verified map.
func (c Cell) ok() bool { return c.Status() == StatusOK }

// errorText returns why a failed cell failed.
func (c Cell) errorText() string {
	if c.Err != "" {
		return c.Err
	}
	return "no verified map"
}
