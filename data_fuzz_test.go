package featmap

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// FuzzDataFile reads arbitrary bytes as a data file of a χ² spec on
// {0..16}: the load either fails with a *DataError naming the file, or
// every kept row has the domain's width of finite integers in {0..16},
// the held-out rows are a fifth of those kept (at least one), and the row
// count is at least the rows kept. It never panics.
func FuzzDataFile(f *testing.F) {
	for _, seed := range []string{"1,2\n3,4\n", "a,b\n1,2\n3,4\n5,6\n", "1 2\n3\n", "NaN,1\n", "\x1f\x8b\x08", "", "16\n0\n7\n",
		"1,2,3\n4,5,6\n7,8,9\n10,11,12\n13,14,15\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "d.csv"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		spec := filepath.Join(dir, "spec.yaml")
		if err := os.WriteFile(spec, []byte(chi2DataSpec("{file: d.csv, max_rows: 50}")), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := LoadSpec(spec)
		if err != nil {
			var de *DataError
			if !errors.As(err, &de) {
				t.Fatalf("error %v is not a *DataError", err)
			}
			return
		}
		d := s.Problem.Data
		kept := append(append([][]float64{}, d.Held...), d.Fit...)
		if d.Rows < len(kept) || len(kept) > 50 || len(d.Held) != max(1, len(kept)/5) {
			t.Fatalf("rows %d, kept %d, held %d", d.Rows, len(kept), len(d.Held))
		}
		for _, x := range kept {
			if len(x) != len(kept[0]) {
				t.Fatalf("rows of %d and %d values", len(x), len(kept[0]))
			}
			for _, v := range x {
				if math.IsNaN(v) || v < 0 || v > 16 || v != math.Trunc(v) {
					t.Fatalf("value %v kept", v)
				}
			}
		}
	})
}
