// Package evaluate measures a designed map, as featmap gen -map writes it
// (an fmap.Verified in JSON), on a data file in the formats of a spec's
// data section (package datafile): the Gram error against the map's
// kernel on a seeded sample of the rows, and for a map that carries a
// model (fmap.LinearModel) and rows with labels, the model's accuracy and
// confusion (classes) or RMSE (regression), on every row, those outside
// the map's domain too (counted: the map's verified error does not hold
// there). The map file is input, read as strictly as a spec (ReadMap).
// featmap eval prints it.
package evaluate

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/fmap"
)

// MaxGramRows is the most rows whose Gram matrix is measured: a seeded
// sample (datafile's shuffle) when the file holds more.
const MaxGramRows = 2000

// AutoLabel is Options.LabelColumn's "not given": the file is read as the
// map's data file was (Options.Columns: the same input columns and label
// column); without them, the label is the column after the map's inputs
// when the map carries a model and the file has one, and there is none
// otherwise. A file without the label column is read without labels.
const AutoLabel = -2

// Options say how a data file is read.
type Options struct {
	// LabelColumn is the 0-based label column (the first or the last
	// column; the others are the inputs), -1 for none, or AutoLabel.
	LabelColumn int
	// Columns are the columns of the data file the map was designed from
	// (the map file's data section, fmap.Verified.Data), nil when not
	// known: with AutoLabel the file is read by them.
	Columns *fmap.DataColumns
	// MaxRows caps the rows read (0: datafile.DefaultMaxRows): beyond
	// it a seeded sample.
	MaxRows int
}

// InputError is an error of the user's input (the map file, the data
// file, an option), as opposed to featmap's own failure.
type InputError struct{ Err error }

// Error returns the underlying error's message.
func (e *InputError) Error() string { return e.Err.Error() }

// Unwrap returns the underlying error.
func (e *InputError) Unwrap() error { return e.Err }

// Result is a map measured on a data file.
type Result struct {
	// File is the data file, Rows the data rows it holds, Used the rows
	// measured (all of them unless more than Options.MaxRows).
	File string `json:"file"`
	Rows int    `json:"rows"`
	Used int    `json:"rows_used"`
	// Inputs are the first and last columns read as the map's inputs (an
	// additive map's histogram bins: every one mapped by the map of one
	// input, Additive); LabelColumn is the label column, −1 for none, and
	// LabelFrom says where it came from: "flag" (Options.LabelColumn),
	// "map" (the map's data section), "model" (the column after the
	// inputs of a map with a model) or "" (no label column).
	Inputs      [2]int `json:"input_columns"`
	Additive    bool   `json:"additive,omitempty"`
	LabelColumn int    `json:"label_column"`
	LabelFrom   string `json:"label_from,omitempty"`
	// OutsideDomain is the number of rows measured with a value outside
	// the map's domain (or not an integer on an integer domain; 0 is in a
	// homogeneous kernel's domain): the map maps them, and they are in
	// every figure below, but its verified error does not hold there.
	OutsideDomain int `json:"outside_domain"`
	// GramRows is the size of the sample whose Gram matrix is measured;
	// GramRelFro the relative Frobenius error ‖K − ΨΨᵀ‖_F/‖K‖_F over it
	// and LInf the largest |K − Ψ·Ψ| over its pairs, K the map's kernel.
	GramRows   int     `json:"gram_rows"`
	GramRelFro float64 `json:"gram_rel_fro"`
	LInf       float64 `json:"linf"`
	// Labelled is the number of rows with a label the model was measured
	// on (0 without a model or a label column).
	Labelled int `json:"labelled_rows,omitempty"`
	// Accuracy is the fraction of rows classified right (a classifier);
	// RMSE the root mean squared error (a regression).
	Accuracy *float64 `json:"accuracy,omitempty"`
	RMSE     *float64 `json:"rmse,omitempty"`
	// Confusion is the classifier's confusion matrix: Counts[i][j] rows
	// of label Classes[i] classified as Classes[j]; Unknown counts the
	// rows whose label is none of the model's classes (all wrong).
	Confusion *Confusion `json:"confusion,omitempty"`
}

// Confusion is a classifier's confusion matrix.
type Confusion struct {
	Classes []float64 `json:"classes"`
	Counts  [][]int   `json:"counts"`
	Unknown int       `json:"unknown_labels"`
}

// Predict returns the model's prediction at the row x: the class label of
// the largest score, or the regression's score. It panics when m carries
// no model.
func Predict(m *fmap.Map, x []float64) float64 {
	mod := m.Model
	z, sc := make([]float64, m.Dim), make([]float64, mod.Outputs())
	m.Eval(z, x)
	mod.Scores(sc, z)
	if mod.Classes != nil {
		return mod.Class(sc)
	}
	return sc[0]
}

// Evaluate measures m on the data file at path (read as a spec's data
// section reads it, keeping the rows outside the map's domain: its errors
// are *datafile.DataError values, wrapped in an *InputError). ctx stops
// it.
func Evaluate(ctx context.Context, m *fmap.Map, path string, o Options) (*Result, error) {
	f, err := read(ctx, m, path, o)
	if err != nil {
		return nil, err
	}
	d := f.data
	rows := append(slices.Clone(d.Held), d.Fit...)
	var labels []float64
	if d.HeldLabels != nil {
		labels = append(slices.Clone(d.HeldLabels), d.FitLabels...)
	}
	res := &Result{File: d.File, Rows: d.Rows, Used: len(rows), Inputs: f.inputs, Additive: f.additive, LabelColumn: f.label, LabelFrom: f.from}
	for _, x := range rows {
		if outside(m, x) {
			res.OutsideDomain++
		}
	}
	// The rows come shuffled by a seeded shuffle: the first MaxGramRows
	// are a seeded sample.
	sample := &fmap.Data{File: d.File, SHA256: d.SHA256, Rows: d.Rows, Held: rows[:min(len(rows), MaxGramRows)]}
	dv, err := fmap.VerifyDataContext(ctx, m, sample)
	if err != nil {
		return nil, err
	}
	res.GramRows, res.GramRelFro, res.LInf = len(sample.Held), dv.Frobenius, dv.Absolute.LInf
	if err := finite(res.GramRelFro, res.LInf); err != nil {
		return nil, err
	}
	if m.Model == nil || labels == nil {
		return res, nil
	}
	res.Labelled = len(rows)
	mod := m.Model
	if mod.Classes == nil {
		var sq float64
		for i, x := range rows {
			if i%1024 == 0 && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			e := Predict(m, x) - labels[i]
			sq += e * e
		}
		r := math.Sqrt(sq / float64(len(rows)))
		if err := finite(r); err != nil {
			return nil, err
		}
		res.RMSE = &r
		return res, nil
	}
	c := &Confusion{Classes: mod.Classes, Counts: make([][]int, len(mod.Classes))}
	for i := range c.Counts {
		c.Counts[i] = make([]int, len(mod.Classes))
	}
	right := 0
	for i, x := range rows {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		got := Predict(m, x)
		want, ok := slices.BinarySearch(mod.Classes, labels[i])
		if !ok {
			c.Unknown++
			continue
		}
		g, _ := slices.BinarySearch(mod.Classes, got)
		c.Counts[want][g]++
		if g == want {
			right++
		}
	}
	a := float64(right) / float64(len(rows))
	res.Accuracy, res.Confusion = &a, c
	return res, nil
}

// outside reports whether the row x has a value outside m's domain (for
// an additive map, its one axis; 0 is inside for a homogeneous kernel,
// whose map takes 0 to 0), or one not an integer on an integer domain.
func outside(m *fmap.Map, x []float64) bool {
	dom := m.Domain
	for j, v := range x {
		a := min(j, len(dom.Lo)-1)
		if v == 0 && m.Kernel.Homogeneous() {
			continue
		}
		if v < dom.Lo[a] || v > dom.Hi[a] || dom.Integer && v != math.Trunc(v) {
			return true
		}
	}
	return false
}

// finite returns an error naming the first figure that is not finite: a
// map or kernel that overflows on the rows, which the checks of the map
// file and of the rows should have refused.
func finite(figures ...float64) error {
	for _, v := range figures {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("evaluate: a measured figure is %v", v)
		}
	}
	return nil
}
