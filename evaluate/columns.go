package evaluate

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/fmap"
)

// Where a label column comes from (Result.LabelFrom).
const (
	fromFlag  = "flag"  // Options.LabelColumn
	fromMap   = "map"   // the map's data section (Options.Columns)
	fromModel = "model" // the column after the inputs of a map with a model
)

// file is a data file read for a map: its rows, the columns read as the
// map's inputs, whether they are an additive map's bins, and the label
// column (−1 for none) and where it came from.
type file struct {
	data     *fmap.Data
	inputs   [2]int
	additive bool
	label    int
	from     string
}

// read reads the data file's rows for m: its inputs and labels, the
// columns chosen by o (see AutoLabel), values outside the map's domain
// kept. Its errors about the file's columns are in eval's terms: its flag
// and the map's inputs and data section, never a spec's keys.
func read(ctx context.Context, m *fmap.Map, path string, o Options) (*file, error) {
	p := &fmap.Problem{Kernel: m.Kernel, Domain: m.Domain}
	maxRows := o.MaxRows
	if maxRows <= 0 {
		maxRows = datafile.DefaultMaxRows
	}
	sec := &datafile.Section{File: path, First: 0, Last: -1, Label: o.LabelColumn, MaxRows: maxRows}
	from := fromFlag
	switch {
	case o.LabelColumn != AutoLabel:
		if o.LabelColumn < 0 {
			from = ""
		}
	case o.Columns != nil:
		sec.Label, from = o.Columns.LabelColumn, fromMap
		if c := o.Columns.Columns; len(c) == 2 {
			sec.First, sec.Last = c[0], c[1]
		}
		if sec.Label < 0 {
			from = ""
		}
	case m.Model != nil:
		sec.Label, from = m.InDim, fromModel
	default:
		sec.Label, from = -1, ""
	}
	if _, err := os.Stat(path); err != nil {
		return nil, &InputError{pathError(path, err)}
	}
	// The data file's path is given as it is: relative to the working
	// directory, which the "spec" path's directory is.
	opts := datafile.Options{KeepOutside: true}
	r, err := datafile.Read(ctx, "eval", sec, p, opts)
	var de *datafile.DataError
	if (from == fromMap || from == fromModel) && errors.As(err, &de) && de.Key != "" {
		// The file's columns do not fit the map's label column: a file
		// of the map's inputs alone, without labels, is read as such.
		alone := &datafile.Section{File: path, First: 0, Last: -1, Label: -1, MaxRows: maxRows}
		ra, erra := datafile.Read(ctx, "eval", alone, p, opts)
		var da *datafile.DataError
		if erra == nil || !errors.As(erra, &da) || da.Key == "" {
			sec, r, err, from = alone, ra, erra, ""
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, err
		}
		if errors.As(err, &de) && de.Key != "" {
			de.Msg = layoutMessage(de, sec, from, m)
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
	f := &file{data: r.Data, label: sec.Label, from: from, additive: fmap.Additive(m, width(r.Data))}
	n := width(r.Data)
	switch {
	case sec.Last >= 0:
		f.inputs = [2]int{sec.First, sec.Last}
	case sec.Label == 0:
		f.inputs = [2]int{1, n}
	default:
		f.inputs = [2]int{0, n - 1}
	}
	if c := m.Coordinates(); c > 1 && n != c {
		msg := fmt.Sprintf("the map has a table for each of its %d bins, but the file has %s as bins", c, span(f.inputs[0], f.inputs[1]))
		if sec.Label < 0 && n == c+1 {
			msg += fmt.Sprintf(": if column %d is a label, give -label-column %d (or -label-column 0 if the label is the first column)", f.inputs[1], f.inputs[1])
		}
		return nil, &InputError{&datafile.DataError{File: path, Line: 0, Column: -1, Msg: msg}}
	}
	return f, nil
}

// width is the number of input values of the data's rows.
func width(d *fmap.Data) int {
	if len(d.Held) > 0 {
		return len(d.Held[0])
	}
	if len(d.Fit) > 0 {
		return len(d.Fit[0])
	}
	return 0
}

// layoutMessage says in eval's terms why the file's columns (de.Width of
// them) do not fit section sec, read for map m with a label column from
// from: the flag, the map's data section or its model, never the keys of a
// spec's data section.
func layoutMessage(de *datafile.DataError, sec *datafile.Section, from string, m *fmap.Map) string {
	w := de.Width
	cols := fmt.Sprintf("the file has %s", span(0, w-1))
	label := fmt.Sprintf("-label-column %d", sec.Label)
	switch from {
	case fromMap:
		label = fmt.Sprintf("the map's label column %d (its data section's label_column)", sec.Label)
	case fromModel:
		label = fmt.Sprintf("the label column %d (the column after the map's %d inputs: the map carries a model)", sec.Label, m.InDim)
	}
	other := "; give -label-column N (the first or the last column) or -1 for none"
	if from == fromFlag {
		other = ""
	}
	switch de.Key {
	case "data.label_column":
		if sec.Label >= w && from == fromFlag {
			return fmt.Sprintf("-label-column is %d but %s", sec.Label, cols)
		}
		if sec.Label >= w {
			return fmt.Sprintf("%s, but %s%s", label, cols, other)
		}
		if sec.Last < 0 {
			return fmt.Sprintf("%s splits the columns: %s, and a label is the first or the last%s", label, cols, other)
		}
		return fmt.Sprintf("%s is inside the map's input columns %d..%d (its data section)", label, sec.First, sec.Last)
	case "data.columns":
		return fmt.Sprintf("the map's inputs are columns %d..%d (its data section's columns), but %s%s", sec.First, sec.Last, cols, other)
	case "domain.dims":
		first, last := 0, w-1
		switch {
		case sec.Last >= 0:
			first, last = sec.First, sec.Last
		case sec.Label == 0:
			first = 1
		case sec.Label == w-1:
			last = w - 2
		}
		msg := fmt.Sprintf("%s as the map's inputs, but the map has %d inputs", span(first, last), m.InDim)
		if sec.Label >= 0 {
			msg += fmt.Sprintf(" (%s is the label)", label)
		}
		if sec.Label < 0 && last-first == m.InDim {
			msg += fmt.Sprintf(": if column %d is a label, give -label-column %d (or -label-column 0 if the label is the first column)", last, last)
		}
		return msg
	}
	return de.Msg
}

// span is "1 column (3)" or "65 columns (0..64)".
func span(first, last int) string {
	if first == last {
		return fmt.Sprintf("1 column (%d)", first)
	}
	return fmt.Sprintf("%d columns (%d..%d)", last-first+1, first, last)
}
