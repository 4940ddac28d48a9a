package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGroupLassoNotDesigned: design and gen on an rff-group-lasso spec
// state what the group lasso learned (the dropped kernel, D) and exit 1
// saying the combined map is not designed yet, writing nothing.
func TestGroupLassoNotDesigned(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 400 {
		x := []float64{math.Sin(float64(i)), math.Cos(1.3 * float64(i)), math.Sin(0.7*float64(i) + 1), math.Cos(2.1*float64(i) + 2)}
		fmt.Fprintf(&b, "%.6f,%.6f,%.6f,%.6f,%.6f\n", x[0], x[1], x[2], x[3], math.Sin(2*x[0])+x[1])
	}
	if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(spec, []byte(`version: 1
name: GL
kernels:
  - {type: rbf, sigma: 1, columns: [0, 1]}
  - {type: rbf, sigma: 1, columns: [2, 3]}
domain: {dims: 4, interval: [-1, 1]}
method: {name: rff-group-lasso, dim_per_kernel: 32, lambda: auto, seed: 1}
data: {file: d.csv, columns: [0, 3], label_column: 4}
`), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "gl.go")
	for _, args := range [][]string{{"design", spec}, {"gen", "-o", out, spec}} {
		code, stdout, errOut := runCLI(args...)
		t.Logf("featmap %s: exit %d\n%s", args[0], code, errOut)
		if code != exitFailed || stdout != "" || !strings.Contains(errOut, "not implemented") || !strings.Contains(errOut, "rff-group-lasso") || !strings.Contains(errOut, "D = ") || !strings.Contains(errOut, "held-out rows: max error") {
			t.Errorf("featmap %s: exit %d, stdout %q, stderr %q: want exit %d, what was learned and that the map is not designed", args[0], code, stdout, errOut, exitFailed)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("gen wrote %s (%v)", out, err)
	}
}
