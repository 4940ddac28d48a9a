package evaluate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// rowsCSV writes rows (each a list of values) as a CSV file of dir.
func rowsCSV(t *testing.T, dir, name string, rows [][]float64) string {
	t.Helper()
	var b strings.Builder
	for _, r := range rows {
		for j, v := range r {
			if j > 0 {
				b.WriteByte(',')
			}
			fmt.Fprint(&b, v)
		}
		b.WriteByte('\n')
	}
	return writeFile(t, dir, name, b.String())
}

// labelled returns n rows of two inputs in [0, 10]² (a few beyond the box
// when outside) and a label in {0, 1} after them.
func labelled(n int, outside bool) [][]float64 {
	rng := rand.New(rand.NewPCG(7, 8))
	rows := make([][]float64, n)
	for i := range rows {
		x, y := 10*rng.Float64(), 10*rng.Float64()
		if outside && i%10 == 3 {
			x = 12 + rng.Float64()
		}
		rows[i] = []float64{x, y, float64(rng.IntN(2))}
	}
	return rows
}

// TestEvaluateNumbers: Evaluate's figures are a direct computation's —
// the relative Frobenius error and the largest |K − Ψ·Ψ| over every pair
// of the rows, from fmap's kernel and reference evaluator; the accuracy
// and confusion of the classifier row by row; a regression's RMSE — on
// every row, those outside the domain too, which it counts.
func TestEvaluateNumbers(t *testing.T) {
	dir := t.TempDir()
	rows := labelled(60, true)
	path := rowsCSV(t, dir, "rows.csv", rows)
	for _, classes := range [][]float64{{0, 1}, nil} {
		m := testMap(true, classes)
		res, err := Evaluate(context.Background(), m, path, Options{LabelColumn: AutoLabel})
		if err != nil {
			t.Fatal(err)
		}
		psi := make([][]float64, len(rows))
		for i, r := range rows {
			psi[i] = make([]float64, m.Dim)
			m.Eval(psi[i], r[:2])
		}
		var diff, norm, linf, sq float64
		right, outside := 0, 0
		for i, r := range rows {
			for j, s := range rows {
				k := m.Kernel.Eval(r[:2], s[:2])
				d := 0.0
				for c := range psi[i] {
					d += psi[i][c] * psi[j][c]
				}
				diff += (k - d) * (k - d)
				norm += k * k
				linf = math.Max(linf, math.Abs(k-d))
			}
			p := Predict(m, r[:2])
			if p == r[2] {
				right++
			}
			sq += (p - r[2]) * (p - r[2])
			if r[0] > 10 {
				outside++
			}
		}
		fro := math.Sqrt(diff / norm)
		if math.Abs(res.GramRelFro-fro) > 1e-12*fro || math.Abs(res.LInf-linf) > 1e-12 || res.GramRows != len(rows) || res.Rows != len(rows) {
			t.Errorf("Gram: %+v, want relative Frobenius %.17g, L∞ %.17g on %d rows", res, fro, linf, len(rows))
		}
		if res.OutsideDomain != outside || outside == 0 {
			t.Errorf("outside_domain %d, want %d", res.OutsideDomain, outside)
		}
		if res.Labelled != len(rows) || res.LabelColumn != 2 || res.LabelFrom != fromModel || res.Inputs != [2]int{0, 1} {
			t.Errorf("labels: %+v", res)
		}
		if classes == nil {
			if want := math.Sqrt(sq / float64(len(rows))); res.RMSE == nil || math.Abs(*res.RMSE-want) > 1e-12*want {
				t.Errorf("RMSE %v, want %v", res.RMSE, want)
			}
			continue
		}
		if want := float64(right) / float64(len(rows)); res.Accuracy == nil || *res.Accuracy != want {
			t.Errorf("accuracy %v, want %v", res.Accuracy, want)
		}
		total, diag := 0, 0
		for i, row := range res.Confusion.Counts {
			for j, n := range row {
				total += n
				if i == j {
					diag += n
				}
			}
		}
		if total != len(rows) || diag != right {
			t.Errorf("confusion %v: %d rows, %d right; want %d, %d", res.Confusion.Counts, total, diag, len(rows), right)
		}
	}
}

// TestEvaluateLabelColumn: where the label column comes from — the map's
// data section (the label first here: the others are the inputs), the
// flag, the column after a model's inputs, none — and a file without the
// label column read without labels.
func TestEvaluateLabelColumn(t *testing.T) {
	dir := t.TempDir()
	rows := labelled(30, false)
	first := make([][]float64, len(rows))
	inputs := make([][]float64, len(rows))
	for i, r := range rows {
		first[i] = []float64{r[2], r[0], r[1]}
		inputs[i] = r[:2]
	}
	lf, last, none := rowsCSV(t, dir, "first.csv", first), rowsCSV(t, dir, "last.csv", rows), rowsCSV(t, dir, "none.csv", inputs)
	m := testMap(true, []float64{0, 1})
	want, err := Evaluate(context.Background(), m, last, Options{LabelColumn: AutoLabel})
	if err != nil {
		t.Fatal(err)
	}
	section := &fmap.DataColumns{Columns: []int{1, 2}, LabelColumn: 0}
	for _, c := range []struct {
		name   string
		path   string
		o      Options
		label  int
		from   string
		inputs [2]int
	}{
		{"the map's section", lf, Options{LabelColumn: AutoLabel, Columns: section}, 0, fromMap, [2]int{1, 2}},
		{"the flag", lf, Options{LabelColumn: 0}, 0, fromFlag, [2]int{1, 2}},
		{"the flag over the map's section", last, Options{LabelColumn: 2, Columns: section}, 2, fromFlag, [2]int{0, 1}},
		{"after a model's inputs", last, Options{LabelColumn: AutoLabel}, 2, fromModel, [2]int{0, 1}},
		{"no label in the file", none, Options{LabelColumn: AutoLabel, Columns: section}, -1, "", [2]int{0, 1}},
		{"no label in the file, no section", none, Options{LabelColumn: AutoLabel}, -1, "", [2]int{0, 1}},
	} {
		res, err := Evaluate(context.Background(), m, c.path, c.o)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if res.LabelColumn != c.label || res.LabelFrom != c.from || res.Inputs != c.inputs {
			t.Errorf("%s: label %d from %q, inputs %v; want %d from %q, %v", c.name, res.LabelColumn, res.LabelFrom, res.Inputs, c.label, c.from, c.inputs)
		}
		if c.label >= 0 && (res.Accuracy == nil || *res.Accuracy != *want.Accuracy) {
			t.Errorf("%s: accuracy %v, want %v (the label last)", c.name, res.Accuracy, *want.Accuracy)
		}
		if c.label < 0 && (res.Accuracy != nil || res.Labelled != 0) {
			t.Errorf("%s: model figures without labels: %+v", c.name, res)
		}
	}
}

// TestEvaluateAdditive: an additive map (one input, a homogeneous kernel)
// takes every input column as a bin and leaves the label column out; a
// value where its kernel is not defined is refused naming why; a map with
// a table per bin refuses a file of another number of bins with a hint of
// -label-column.
func TestEvaluateAdditive(t *testing.T) {
	dir := t.TempDir()
	f := &fmap.Fourier{Form: fmap.FourierForm, Transform: fmap.Log, Gamma: 1, Negative: fmap.NegativeSign,
		Terms: []fmap.Term{{Freq: []float64{0}, Weight: 0.5}, {Freq: []float64{0.6}, Weight: 0.4}}}
	m := fmap.NewFourierMap(fmap.Kernel{Type: fmap.Chi2, Gamma: 1}, fmap.Domain{Lo: []float64{0.001}, Hi: []float64{1}}, "chum", f)
	hist := rowsCSV(t, dir, "hist.csv", [][]float64{{0.5, 0.25, 0, 0.25, 1}, {0.1, 0.2, 0.3, 0.4, 0}, {0, 0, 2, 0, 1}})
	res, err := Evaluate(context.Background(), m, hist, Options{LabelColumn: AutoLabel, Columns: &fmap.DataColumns{Columns: []int{0, 3}, LabelColumn: 4}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Additive || res.Inputs != [2]int{0, 3} || res.LabelColumn != 4 || res.OutsideDomain != 1 || res.Rows != 3 {
		t.Errorf("additive with the map's section: %+v", res)
	}
	res, err = Evaluate(context.Background(), m, hist, Options{LabelColumn: AutoLabel})
	if err != nil || res.Inputs != [2]int{0, 4} || res.LabelColumn != -1 {
		t.Errorf("additive without a section: %+v, %v", res, err)
	}
	neg := rowsCSV(t, dir, "neg.csv", [][]float64{{0.5, -0.25}})
	if _, err := Evaluate(context.Background(), m, neg, Options{LabelColumn: AutoLabel}); err == nil || !strings.Contains(err.Error(), "neg.csv:1: column 1: -0.25: the chi2 kernel is defined for x ≥ 0 only") {
		t.Errorf("a negative value: %v", err)
	}
	v, err := ReadMap(filepath.Join("..", "generated", "testdata", "Chi2ANNFMDigits.map.json"))
	if err != nil {
		t.Fatal(err)
	}
	row := make([]float64, 65)
	wide := rowsCSV(t, dir, "wide.csv", [][]float64{row, row})
	_, err = Evaluate(context.Background(), v.Map, wide, Options{LabelColumn: AutoLabel})
	if err == nil || !strings.Contains(err.Error(), "the map has a table for each of its 64 bins, but the file has 65 columns (0..64) as bins: if column 64 is a label, give -label-column 64") {
		t.Errorf("65 columns for 64 tables: %v", err)
	}
}

// TestEvaluateMessages: a file whose columns do not fit the map is an
// *InputError in eval's terms — its flag, the map's inputs, data section
// and model — never the keys of a spec's data section.
func TestEvaluateMessages(t *testing.T) {
	dir := t.TempDir()
	three := rowsCSV(t, dir, "three.csv", [][]float64{{1, 2, 3}, {4, 5, 6}})
	one := rowsCSV(t, dir, "one.csv", [][]float64{{1}, {2}})
	five := rowsCSV(t, dir, "five.csv", [][]float64{{1, 2, 3, 4, 5}})
	plain, model := testMap(false, nil), testMap(true, []float64{0, 1})
	section := &fmap.DataColumns{Columns: []int{0, 1}, LabelColumn: 2}
	for _, c := range []struct {
		name string
		m    *fmap.Map
		path string
		o    Options
		want string
	}{
		{"a label without a model", plain, three, Options{LabelColumn: AutoLabel}, "3 columns (0..2) as the map's inputs, but the map has 2 inputs: if column 2 is a label, give -label-column 2"},
		{"the flag beyond the file", plain, three, Options{LabelColumn: 7}, "-label-column is 7 but the file has 3 columns (0..2)"},
		{"the flag in the middle", plain, three, Options{LabelColumn: 1}, "-label-column 1 splits the columns: the file has 3 columns (0..2)"},
		{"the model's label", model, one, Options{LabelColumn: AutoLabel}, "the label column 2 (the column after the map's 2 inputs: the map carries a model), but the file has 1 column (0)"},
		{"the model's label in the middle", model, five, Options{LabelColumn: AutoLabel}, "the label column 2 (the column after the map's 2 inputs: the map carries a model) splits the columns"},
		{"the map's section", model, one, Options{LabelColumn: AutoLabel, Columns: section}, "the map's label column 2 (its data section's label_column), but the file has 1 column (0)"},
		{"the map's inputs", model, one, Options{LabelColumn: AutoLabel, Columns: &fmap.DataColumns{Columns: []int{3, 4}, LabelColumn: -1}}, "the map's inputs are columns 3..4 (its data section's columns), but the file has 1 column (0)"},
	} {
		_, err := Evaluate(context.Background(), c.m, c.path, c.o)
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
		if err != nil && (strings.Contains(err.Error(), "data.") || strings.Contains(err.Error(), "domain.dims")) {
			t.Errorf("%s: a spec's key in eval's message: %v", c.name, err)
		}
	}
}
