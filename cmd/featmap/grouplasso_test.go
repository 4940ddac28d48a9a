package main

import (
	"encoding/json"
	"fmt"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// glCLISpec writes an rff-group-lasso spec over 4 columns, 2 kernels, and
// its data (the label depends on both groups) to dir.
func glCLISpec(t *testing.T, dir string) string {
	t.Helper()
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
	return spec
}

// TestGroupLassoDesignCLI: featmap design on an rff-group-lasso spec exits
// 0 and states what was learned (weights, the dropped kernel left out, D)
// and the verified error against Σ d_g K_g; -json carries the same
// numbers.
func TestGroupLassoDesignCLI(t *testing.T) {
	spec := glCLISpec(t, t.TempDir())
	code, stdout, errOut := runCLI("design", spec)
	t.Logf("featmap design: exit %d\n%s%s", code, stdout, errOut)
	for _, want := range []string{"combined kernel", "D = 32, method rff-group-lasso", "zero group, dropped (not in the map)", "learned: kernel weights by group lasso", "verified absolute error", "verified on the held-out data (d.csv"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("design output lacks %q", want)
		}
	}
	if code != exitOK {
		t.Fatalf("exit %d", code)
	}
	code, stdout, errOut = runCLI("design", "-json", spec)
	if code != exitOK {
		t.Fatalf("design -json: exit %d: %s", code, errOut)
	}
	var j struct {
		Dim    int `json:"dim"`
		Errors struct {
			LInf float64 `json:"linf"`
		} `json:"errors"`
		Verification struct {
			Data *struct {
				Absolute struct {
					LInf float64 `json:"linf"`
				} `json:"absolute"`
			} `json:"data"`
		} `json:"verification"`
		GroupLasso *struct {
			Kernels []struct {
				Weight  float64 `json:"weight"`
				Dropped bool    `json:"dropped"`
			} `json:"kernels"`
			DataSHA256 string `json:"data_sha256"`
		} `json:"group_lasso"`
	}
	if err := json.Unmarshal([]byte(stdout), &j); err != nil {
		t.Fatal(err)
	}
	gl := j.GroupLasso
	if gl == nil || len(gl.Kernels) != 2 || j.Dim != 32 || j.Verification.Data == nil || !(j.Errors.LInf > 0) || len(gl.DataSHA256) != 64 {
		t.Fatalf("design -json: %s", stdout)
	}
	if gl.Kernels[0].Dropped || !gl.Kernels[1].Dropped || !(gl.Kernels[0].Weight > 0) || gl.Kernels[1].Weight != 0 {
		t.Errorf("kernels %+v: want kernel 0 kept, kernel 1 (uninformative here) dropped", gl.Kernels)
	}
}

// TestGroupLassoGenCLI: featmap gen on an rff-group-lasso spec exits 0
// and writes Go source whose header states what was learned: the kept
// kernel's weight, the dropped kernel, λ, the data file's SHA-256 and
// rows, the validation error before and after, and the trained model (NScore).
func TestGroupLassoGenCLI(t *testing.T) {
	dir := t.TempDir()
	spec := glCLISpec(t, dir)
	out := filepath.Join(dir, "gl.go")
	code, _, errOut := runCLI("gen", "-o", out, "-pkg", "gl", spec)
	if code != exitOK {
		t.Fatalf("featmap gen: exit %d: %s", code, errOut)
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), out, src, parser.ParseComments); err != nil {
		t.Fatalf("the emitted file does not parse: %v", err)
	}
	for _, want := range []string{"func GL(out *[GLDim]float64, x *[GLIn]float64)", "func GLF32(", "func GLSlice(", "func GLSliceF32(", "func GLScore(x *[GLIn]float64) float64", "Model: a ridge regression",
		"kernel 0 (rbf, columns [0, 1]): d = ", "kernel 1 (rbf, columns [2, 3]): zero group, dropped (not in the map)", "λ = ",
		"sha256:", "400 rows", "validation error", "combined kernel"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the emitted file lacks %q", want)
		}
	}
}
