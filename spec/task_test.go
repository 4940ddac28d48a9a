package spec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/featmap/featmap/datafile"
)

// taskSpec writes a 2-input rbf spec with a learn section (extra keys in
// it) over a CSV of 40 rows whose label column holds label(i) for row i,
// and returns its path.
func taskSpec(t *testing.T, extra string, label func(i int) string) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	for i := range 40 {
		fmt.Fprintf(&b, "%g,%g,%s\n", float64(i%7)/7, float64(i%5)/5, label(i))
	}
	if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := `version: 1
name: Task
kernel: {type: rbf, sigma: 1}
domain: {dims: 2, interval: [0, 1]}
error: {weight: absolute}
target: {dim: 16}
method: {name: rff}
data: {file: d.csv, label_column: 2}
learn: {sigma: shared` + extra + "}\n"
	path := filepath.Join(dir, "s.yaml")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLearnTask: learn.task is classification when every label is an
// integer (at most 256 distinct), regression when none is; given, it is
// kept; a file that mixes the two is refused at the first label of the
// fewer kind, naming its value and the key to set.
func TestLearnTask(t *testing.T) {
	classes := func(i int) string { return fmt.Sprint(i % 3) }
	numbers := func(i int) string { return fmt.Sprintf("%.2f", float64(i)/3+0.01) }
	many := func(i int) string { return fmt.Sprint(i * 10) }
	fewNumbers := func(i int) string { return fmt.Sprintf("%.2f", float64(i%4)/3+0.01) }
	for _, c := range []struct {
		name, extra string
		label       func(int) string
		want        string
	}{
		{"integers", "", classes, TaskClassification},
		{"numbers", "", numbers, TaskRegression},
		{"given regression", ", task: regression", classes, TaskRegression},
		{"given classification", ", task: classification", fewNumbers, TaskClassification},
	} {
		s, err := load(taskSpec(t, c.extra, c.label))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if s.Learn.Task != c.want || s.Learn.TaskWhy == "" {
			t.Errorf("%s: task %q (%s), want %q", c.name, s.Learn.Task, s.Learn.TaskWhy, c.want)
		}
	}
	// Distinct integers, one row each, would be classes of a single row,
	// which learning cannot split into rows to fit and to validate: they
	// are refused, saying how to learn them as numbers; given as
	// classification, too (at learn.task). More distinct integers than
	// classes are numbers (the rule is about plan.MaxClasses, checked
	// with the counts directly).
	for _, extra := range []string{"", ", task: classification"} {
		if _, err := load(taskSpec(t, extra, many)); err == nil || !strings.Contains(err.Error(), "40 of the 40 classes of ") ||
			!strings.Contains(err.Error(), "have a single row among the 40 kept: a class needs rows to fit and to validate. If the labels are numbers, set learn.task: regression") {
			t.Errorf("40 distinct integers, one row each%s: %v", extra, err)
		}
	}
	l := &datafile.Labels{Integers: 300, Distinct: 300}
	s := &Spec{Learn: &LearnSpec{}}
	if err := decideTask(s, l); err != nil || s.Learn.Task != TaskRegression {
		t.Errorf("300 distinct integers: task %q, %v", s.Learn.Task, err)
	}

	// One 3.5 among class labels: refused at its line.
	path := taskSpec(t, "", func(i int) string {
		if i == 17 {
			return "3.5"
		}
		return classes(i)
	})
	_, err := load(path)
	var de *datafile.DataError
	if !errors.As(err, &de) {
		t.Fatalf("mixed labels: %v, want a *datafile.DataError", err)
	}
	want := filepath.Join(filepath.Dir(path), "d.csv") + ":18: column 2: label 3.5 is not an integer, though 39 of the 40 labels are (class labels): set learn.task: regression"
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("mixed labels:\n got %v\nwant %s…", err, want)
	}
	// One integer among numbers: refused at it.
	_, err = load(taskSpec(t, "", func(i int) string {
		if i == 5 {
			return "2"
		}
		return numbers(i)
	}))
	if err == nil || !strings.Contains(err.Error(), "d.csv:6: column 2: label 2 is an integer, though 39 of the 40 labels are not") {
		t.Errorf("an integer among numbers: %v", err)
	}
	// Either task given takes the mixed file.
	for _, task := range []string{"regression", "classification"} {
		if _, err := load(taskSpec(t, ", task: "+task, func(i int) string {
			if i == 17 {
				return "3.5"
			}
			return classes(i)
		})); err != nil {
			t.Errorf("task %s: %v", task, err)
		}
	}
	// A bad task is the decoder's error.
	if _, err := load(taskSpec(t, ", task: ranking", classes)); err == nil || !strings.Contains(err.Error(), "learn.task") {
		t.Errorf("task ranking: %v", err)
	}
}
