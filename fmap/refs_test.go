package fmap

import (
	"encoding/csv"
	"os"
	"strconv"
	"strings"
	"testing"
)

// testdata/formula_refs.csv holds 615 values computed at 30 digits from
// the formulas of docs/formulas.md (a copy of homogeneous/testdata's file);
// this package checks its exact_* rows, the kernels themselves.

// formulaRef is one row of testdata/formula_refs.csv.
type formulaRef struct {
	method, params, x, component string
	value                        float64
}

// readCSV returns the rows of a CSV file in testdata after the header.
func readCSV(t *testing.T, name string) [][]string {
	t.Helper()
	f, err := os.Open("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(rows) < 2 {
		t.Fatalf("%s: no data rows", name)
	}
	return rows[1:]
}

// formulaRefs returns the rows of formula_refs.csv whose method starts with
// prefix; it fails the test when there are none.
func formulaRefs(t *testing.T, prefix string) []formulaRef {
	t.Helper()
	var out []formulaRef
	for _, r := range readCSV(t, "formula_refs.csv") {
		if !strings.HasPrefix(r[0], prefix) {
			continue
		}
		v, err := strconv.ParseFloat(r[4], 64)
		if err != nil {
			t.Fatalf("formula_refs.csv: %v", err)
		}
		out = append(out, formulaRef{r[0], r[1], r[2], r[3], v})
	}
	if len(out) == 0 {
		t.Fatalf("formula_refs.csv has no %s rows", prefix)
	}
	return out
}

// mustFloat parses s or fails the test.
func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// relErr returns |got − want| / |want|, or |got − want| when want is 0.
func relErr(got, want float64) float64 {
	d := got - want
	if d < 0 {
		d = -d
	}
	if want != 0 {
		if want < 0 {
			want = -want
		}
		return d / want
	}
	return d
}
