// Package evaluate measures a designed map, as featmap gen -map writes it
// (an fmap.Verified in JSON), on a data file in the formats of a spec's
// data section (package datafile): the Gram error against the map's
// kernel on a seeded sample of the rows, and for a map that carries a
// model (fmap.LinearModel) and rows with labels, the model's accuracy and
// confusion (classes) or RMSE (regression). featmap eval prints it.
package evaluate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/fmap"
)

// MaxGramRows is the most rows whose Gram matrix is measured: a seeded
// sample (datafile's shuffle) when the file holds more.
const MaxGramRows = 2000

// MaxMapBytes is the largest map file ReadMap reads.
const MaxMapBytes = 1 << 30

// AutoLabel is Options.LabelColumn's "not given": the column after the
// map's inputs when the map carries a model and the file has exactly one
// column more than the map has inputs; no labels otherwise.
const AutoLabel = -2

// Options say how a data file is read.
type Options struct {
	// LabelColumn is the 0-based label column (the first or the last
	// column; the others are the inputs), -1 for none, or AutoLabel.
	LabelColumn int
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

// ReadMap reads a map file written by featmap gen -map and checks the map
// (fmap.Map.Validate). Its errors are *InputError values naming the file.
func ReadMap(path string) (*fmap.Verified, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, &InputError{err}
	}
	defer f.Close()
	raw, err := io.ReadAll(io.LimitReader(f, MaxMapBytes+1))
	if err != nil {
		return nil, &InputError{fmt.Errorf("%s: %w", path, err)}
	}
	if len(raw) > MaxMapBytes {
		return nil, &InputError{fmt.Errorf("%s: more than %d bytes", path, MaxMapBytes)}
	}
	var v fmap.Verified
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	if err := dec.Decode(&v); err != nil {
		return nil, &InputError{fmt.Errorf("%s: not a map written by featmap gen -map: %v", path, err)}
	}
	if v.Map == nil {
		return nil, &InputError{fmt.Errorf("%s: no \"map\" key: not a map written by featmap gen -map", path)}
	}
	if err := v.Map.Validate(); err != nil {
		return nil, &InputError{fmt.Errorf("%s: %v", path, strings.TrimPrefix(err.Error(), "fmap: "))}
	}
	return &v, nil
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
// section reads it: its errors are *datafile.DataError values, wrapped in
// an *InputError). ctx stops it.
func Evaluate(ctx context.Context, m *fmap.Map, path string, o Options) (*Result, error) {
	d, err := read(ctx, m, path, o)
	if err != nil {
		return nil, err
	}
	rows := append(slices.Clone(d.Held), d.Fit...)
	var labels []float64
	if d.HeldLabels != nil {
		labels = append(slices.Clone(d.HeldLabels), d.FitLabels...)
	}
	res := &Result{File: d.File, Rows: d.Rows, Used: len(rows)}
	// The rows come shuffled by a seeded shuffle: the first MaxGramRows
	// are a seeded sample.
	sample := &fmap.Data{File: d.File, SHA256: d.SHA256, Rows: d.Rows, Held: rows[:min(len(rows), MaxGramRows)]}
	dv, err := fmap.VerifyDataContext(ctx, m, sample)
	if err != nil {
		return nil, err
	}
	res.GramRows, res.GramRelFro, res.LInf = len(sample.Held), dv.Frobenius, dv.Absolute.LInf
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

// read reads the data file's rows for m: its inputs (every column but the
// label's) and labels.
func read(ctx context.Context, m *fmap.Map, path string, o Options) (*fmap.Data, error) {
	p := &fmap.Problem{Kernel: m.Kernel, Domain: m.Domain}
	maxRows := o.MaxRows
	if maxRows <= 0 {
		maxRows = datafile.DefaultMaxRows
	}
	sec := &datafile.Section{File: path, First: 0, Last: -1, Label: o.LabelColumn, MaxRows: maxRows}
	auto := o.LabelColumn == AutoLabel
	if auto {
		sec.Label = -1
		if m.Model != nil {
			sec.Label = m.InDim
		}
	}
	if _, err := os.Stat(path); err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = fmt.Errorf("%s: %w", path, pe.Err)
		}
		return nil, &InputError{err}
	}
	// The data file's path is given as it is: relative to the working
	// directory, which the "spec" path's directory is.
	r, err := datafile.Read(ctx, "eval", sec, p, datafile.Options{})
	var de *datafile.DataError
	if auto && sec.Label >= 0 && errors.As(err, &de) && strings.HasPrefix(de.Msg, "data.label_column is") {
		// A file of the map's inputs alone: no labels.
		sec.Label = -1
		r, err = datafile.Read(ctx, "eval", sec, p, datafile.Options{})
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		if errors.As(err, &de) {
			// The data section's keys are eval's flag and the map's.
			de.Msg = strings.NewReplacer("data.label_column", "-label-column", "domain.dims is", "the map's input dimension is").Replace(de.Msg)
		}
		return nil, &InputError{err}
	}
	if m.Model != nil && m.Model.Classes == nil && sec.Label >= 0 && r.Labels != nil {
		// A regression's labels beyond ±fmap.MaxNumberLabel: refused as a
		// learn section refuses them (their squared errors overflow).
		if err := r.Labels.CheckNumbers(); err != nil {
			return nil, &InputError{err}
		}
	}
	return r.Data, nil
}
