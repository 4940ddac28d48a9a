package spec

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/featmap/featmap/datafile"
)

// The sections' errors that need a whole spec of their kind: the learn
// section, the kernels section, the data section, the spec file's limits
// and the domains and dimensions refused when the spec is read.

// learnSpec is a digits rbf spec with the given learn section.
func learnSpec(learn, method, data string) string {
	return `version: 1
name: LearnDigits
kernel: {type: rbf, sigma: 30}
domain: {dims: 64, interval: [0, 16]}
error: {weight: absolute}
target: {dim: 64}
method: ` + method + `
data: ` + data + `
learn: ` + learn + "\n"
}

// glSpec is an rff-group-lasso spec over 3 column groups of 2 columns
// (data columns 0..5, label column 6).
func glSpec(kernels, method, data string) string {
	return `version: 1
name: GLSynth
kernels: ` + kernels + `
domain: {dims: 6, interval: [-3, 3]}
method: ` + method + `
data: ` + data + "\n"
}

const glKernels = `
  - {type: rbf, sigma: 1, columns: [0, 1]}
  - {type: rbf, sigma: 1, columns: [2, 3]}
  - {type: rbf, sigma: 1, columns: [4, 5]}`

// chi2DataSpec is a χ² spec on {0..16} with a data section body.
func chi2DataSpec(data string) string {
	return `version: 1
name: Chi2Data
kernel: {type: chi2}
domain: {integers: [0, 16]}
target: {dim: 5}
method: {name: chum}
data: ` + data + "\n"
}

// TestLearnSectionErrors: the learn section is strict: its keys, their
// values, and what it needs from the rest of the spec.
func TestLearnSectionErrors(t *testing.T) {
	data := "{file: d.csv, label_column: 64}"
	rff := "{name: rff}"
	cases := []struct{ name, spec, want string }{
		{"unknown key", learnSpec("{sigma: shared, lambda: 1}", rff, data), "unknown key"},
		{"no sigma", learnSpec("{ridge: 1e-3}", rff, data), "learn.sigma"},
		{"bad sigma", learnSpec("{sigma: diagonal}", rff, data), "per-axis"},
		{"validation 1", learnSpec("{sigma: shared, validation: 1}", rff, data), "below 1"},
		{"negative penalty", learnSpec("{sigma: shared, penalty: -1}", rff, data), "≥ 0"},
		{"ridge 0", learnSpec("{sigma: shared, ridge: 0}", rff, data), "spec.yaml:9: learn.ridge: must be a number > 0 or auto, not the integer 0"},
		{"ridge word", learnSpec("{sigma: shared, ridge: best}", rff, data), "spec.yaml:9: learn.ridge: must be a number > 0 or auto, not"},
		{"no labels", learnSpec("{sigma: shared}", rff, "{file: d.csv}"), "label_column"},
		{"not rff", learnSpec("{sigma: shared}", "{name: rf-pca}", data), "method rff or nystroem"},
		{"no sigma", strings.Replace(learnSpec("{sigma: shared}", rff, data), "{type: rbf, sigma: 30}", "{type: exp-chi2, beta: 1}", 1), "the kernels with a σ"},
		{"too many features", strings.Replace(learnSpec("{sigma: shared}", rff, data), "target: {dim: 64}", "target: {dim: 4098}", 1),
			"spec.yaml:9: learn: learning σ with target.dim 4098: at most 4096 features"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantSpecError(t, c.spec, c.want) })
	}
}

// wantSpecError parses spec (as spec.yaml) and fails unless the result is
// a *SpecError whose message contains want.
func wantSpecError(t *testing.T, spec, want string) {
	t.Helper()
	_, err := Parse("spec.yaml", []byte(spec))
	var se *SpecError
	if !errors.As(err, &se) || !strings.Contains(err.Error(), want) {
		t.Fatalf("error %v, want a spec error with %q", err, want)
	}
	t.Log(err)
}

// TestGroupLassoSpecErrors: the kernels section and method rff-group-lasso
// are strict, each error at its file, line and key.
func TestGroupLassoSpecErrors(t *testing.T) {
	m := "{name: rff-group-lasso, dim_per_kernel: 64, lambda: auto, seed: 1}"
	data := "{file: d.csv, columns: [0, 5], label_column: 6}"
	cases := []struct{ name, spec, want string }{
		{"kernel and kernels", strings.Replace(glSpec(glKernels, m, data), "kernels:", "kernel: {type: rbf, sigma: 1}\nkernels:", 1), "spec.yaml:4: kernels: conflicts with kernel"},
		{"outside data columns", glSpec(strings.Replace(glKernels, "[4, 5]", "[4, 7]", 1), m, data), "spec.yaml:6: kernels[2].columns: [4, 7] is not inside the data columns [0, 5]"},
		{"overlap", glSpec(strings.Replace(glKernels, "[2, 3]", "[1, 3]", 1), m, data), "spec.yaml:5: kernels[1].columns: [1, 3] overlaps kernels[0].columns"},
		{"lambda 0", glSpec(glKernels, strings.Replace(m, "auto", "0", 1), data), "spec.yaml:8: method.lambda: must be a number > 0 or auto"},
		{"lambda word", glSpec(glKernels, strings.Replace(m, "auto", "best", 1), data), "spec.yaml:8: method.lambda: must be a number > 0 or auto"},
		{"no label_column", glSpec(glKernels, m, "{file: d.csv, columns: [0, 5]}"), "spec.yaml:9: data.label_column: missing required key"},
		{"target", glSpec(glKernels, m, data) + "target: {dim: 128}\n", "spec.yaml:10: target: not with kernels"},
		{"exp-chi2 with sigma", glSpec(strings.Replace(glKernels, "rbf, sigma: 1, columns: [0, 1]", "exp-chi2, beta: 1, sigma: 1, columns: [0, 1]", 1), m, data), "spec.yaml:4: kernels[0].sigma: sigma is the width of rbf and the skewed kernels; exp-chi2 has beta"},
		{"exp-chi2 without beta", glSpec(strings.Replace(glKernels, "rbf, sigma: 1, columns: [0, 1]", "exp-chi2, columns: [0, 1]", 1), m, data), "spec.yaml:4: kernels[0].beta: missing required key"},
		{"kernel type chi2", glSpec(strings.Replace(glKernels, "rbf, sigma: 1, columns: [0, 1]", "chi2, columns: [0, 1]", 1), m, data), `spec.yaml:4: kernels[0].type: unknown kernel "chi2"; want one of rbf, skewed-chi2, skewed-intersection, exp-chi2`},
		{"other method", glSpec(glKernels, "{name: rff, dim_per_kernel: 64}", data), "method.name"},
		{"odd dim", glSpec(glKernels, "{name: rff-group-lasso, dim_per_kernel: 63}", data), "method.dim_per_kernel: must be even"},
		{"unknown key", glSpec(glKernels, "{name: rff-group-lasso, dim_per_kernel: 64, sampling: qmc}", data), "method.sampling"},
		// Two errors in one item or method section: a value the decoder
		// refuses on its own comes before the checks across keys.
		{"bad columns and no sigma", glSpec(strings.Replace(glKernels, "sigma: 1, columns: [2, 3]", "columns: [2]", 1), m, data), "spec.yaml:5: kernels[1].columns: must be a list [first, last] of two column numbers, not a list of 1"},
		{"bad lambda and no dim_per_kernel", glSpec(glKernels, "{name: rff-group-lasso, lambda: best}", data), "spec.yaml:8: method.lambda: must be a number > 0 or auto, not the string \"best\""},
		{"skewed offset on the domain", glSpec(strings.Replace(glKernels, "rbf, sigma: 1, columns: [2, 3]", "skewed-chi2, sigma: 1, c: 2, columns: [2, 3]", 1), m, data),
			"spec.yaml:5: kernels[1].c: lo + c must be > 0 on the kernel's columns (it is a function of log(x + c)); data column 2 starts at -3 (domain) and c is 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { wantSpecError(t, c.spec, c.want) })
	}
}

// TestDataSpecErrors: the data section's keys are checked when the spec is
// read.
func TestDataSpecErrors(t *testing.T) {
	for data, want := range map[string]string{
		"{columns: [0, 1]}":                               "data.file: missing required key",
		"{file: d.csv, columns: [3, 1]}":                  "data.columns: first must be <= last",
		"{file: d.csv, max_rows: 1}":                      "data.max_rows",
		"{file: d.csv, rows: 5}":                          "unknown key",
		"{file: d.csv, columns: [0, 2], label_column: 1}": "x.yaml:7: data.label_column: 1 is inside data.columns [0, 2] (line 7): a label is never a feature",
		"{file: d.csv, holdout: 0.6}":                     "x.yaml:7: data.holdout: the fraction of the rows held out must be in [0, 0.5], not 0.6",
		"{file: d.csv, holdout: -0.1}":                    "x.yaml:7: data.holdout: the fraction of the rows held out must be in [0, 0.5], not -0.1",
		"{file: d.csv, holdout: a fifth}":                 "x.yaml:7: data.holdout: ",
		"{file: d.csv, holdout: .nan}":                    "x.yaml:7: data.holdout: must be a finite number",
	} {
		_, err := Parse("x.yaml", []byte(chi2DataSpec(data)))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("data %s: error %v, want %q", data, err, want)
		}
	}
}

// TestDataHoldout: data.holdout is the fraction of the rows held out, 0.2
// when not given, and 0 and 0.5 are allowed.
func TestDataHoldout(t *testing.T) {
	for data, want := range map[string]float64{"{file: d.csv}": datafile.DefaultHoldout, "{file: d.csv, holdout: 0}": 0, "{file: d.csv, holdout: 0.5}": 0.5, "{file: d.csv, holdout: 0.1}": 0.1} {
		s, err := Parse("x.yaml", []byte(chi2DataSpec(data)))
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if s.Data.Holdout != want {
			t.Errorf("%s: holdout %v, want %v", data, s.Data.Holdout, want)
		}
	}
}

// TestSpecFileLimits: a FIFO, a device or a spec beyond MaxSpecBytes is
// refused before anything is read: the refusal names the file's kind or
// size (reading the FIFO would block until a writer came, /dev/zero would
// never end), so no timing is needed to tell.
func TestSpecFileLimits(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "spec.yaml")
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte(chi2DataSpec("{file: d.csv}")+"#"+strings.Repeat("x", MaxSpecBytes)+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{big: "more than the 1048576 a spec may have", "/dev/zero": "not a regular file (a character device)", dir: "not a regular file (a directory)"}
	if err := syscall.Mkfifo(fifo, 0o644); err == nil {
		paths[fifo] = "not a regular file (a named pipe)"
	}
	for path, want := range paths {
		if _, err := load(path); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
}

// TestDomainLimits: domains whose verification or log grids cannot be
// built, and dimensions beyond a method's limit, are spec errors when the
// spec is read: 65 536 integers (34 GB of pairs), a homogeneous
// interval from a subnormal lo (hi/lo overflows), chum at D = 10 000 (its
// limit named once).
func TestDomainLimits(t *testing.T) {
	for dom, want := range map[string]string{
		"{integers: [0, 65535]}":  "x.yaml:4: domain.integers: 65536 integers, more than the 4096",
		"{interval: [5e-324, 1]}": "x.yaml:4: domain.interval: hi/lo is +Inf",
		"{interval: [1e-301, 1]}": "x.yaml:4: domain.interval: hi/lo is 9.999999999999999e+300",
		// chum at D = 10 000 ran 420 s at 3.6 GB before it was refused.
		"{interval: [0.001, 1]}\ntarget: {dim: 10000}": "x.yaml:5: target.dim: chum designs at most 128 dimensions",
	} {
		spec := "version: 1\nname: X\nkernel: {type: chi2}\ndomain: " + dom + "\nmethod: {name: chum}\n"
		if !strings.Contains(dom, "target") {
			spec += "target: {dim: 5}\n"
		}
		_, err := Parse("x.yaml", []byte(spec))
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", dom, err, want)
		}
		// The limit is named once: the message ended "…takes minutes):
		// at most 128" (design.Dims.Refusal).
		if err != nil && strings.Count(err.Error(), "at most 128") > 1 {
			t.Errorf("%s: %v names the limit twice", dom, err)
		}
	}
}

// TestChumSizesAtSpecTime: a tiny σ on a wide domain (a pool of 5001
// frequencies by default) is refused when the spec is read, at the method,
// before any grid is built (it took 0.7 s and 500 MB to fail in the design).
func TestChumSizesAtSpecTime(t *testing.T) {
	spec := "version: 1\nname: X\nkernel: {type: rbf, sigma: 0.01}\ndomain: {interval: [0, 1000]}\ntarget: {dim: 11}\nmethod: {name: chum}\n"
	_, err := Parse("x.yaml", []byte(spec))
	if err == nil || !strings.HasPrefix(err.Error(), "x.yaml:6: method.omega_max: the pool has 5001 frequencies") {
		t.Errorf("error %v", err)
	}
}

// TestExpChi2InnerKinds: an exp-χ² map's inner map is a function of one
// input applied to every coordinate; a method that makes none (annfm's
// tables, the data-driven maps, which would be designed without the data)
// is refused at method.inner when the spec is read, data section or not.
func TestExpChi2InnerKinds(t *testing.T) {
	spec := func(inner string) string {
		return "version: 1\nname: X\nkernel: {type: exp-chi2, beta: 1}\ndomain: {dims: 4, interval: [0, 1]}\ntarget: {dim: 64}\ndata: {file: d.csv}\nmethod: {name: rff, inner: " + inner + "}\n"
	}
	for _, inner := range []string{"{name: annfm, anchors: kmeans, dim: 5}", "{name: annfm, anchors: uniform, dim: 5}", "{name: nystroem, dim: 8}", "{name: rf-pca, dim: 8}"} {
		wantSpecError(t, spec(inner), "spec.yaml:7: method.inner: ")
		wantSpecError(t, spec(inner), "cannot make exp-chi2's inner map")
	}
	for _, inner := range []string{"{name: chum, dim: 5}", "{name: vz, dim: 5}", "{name: li, dim: 5}", "{name: chebyshev, dim: 5}"} {
		if _, err := Parse("spec.yaml", []byte(spec(inner))); err != nil {
			t.Errorf("inner %s: %v", inner, err)
		}
	}
}

// TestVerifyBudgetPricedByTheMethod: a spec without data is held to the
// verification budget as its method prices its maps (design.EvalCoster),
// not as a plain D·n map: rff's phase features take twice the frequencies
// of cos-sin's at the same D on the dense grid of signature arguments, so
// the Laplacian on 2 inputs at cos-sin's largest D (3276, verified in
// 8–13 s) is refused with phase features (it verified for 49–102 s), at
// the half that is their largest; a comparison's cell says the same.
func TestVerifyBudgetPricedByTheMethod(t *testing.T) {
	spec := func(features string, dim int) string {
		return fmt.Sprintf("version: 1\nname: X\nkernel: {type: laplacian, sigma: 2}\ndomain: {dims: 2, interval: [0, 10]}\ntarget: {dim: %d}\nmethod: {name: rff, features: %s}\n", dim, features)
	}
	if _, err := Parse("x.yaml", []byte(spec("cos-sin", 3276))); err != nil {
		t.Errorf("cos-sin at D = 3276: %v", err)
	}
	wantSpecError(t, spec("phase", 3276), "spec.yaml:5: target.dim: verifying this map of D dimensions evaluates Ψ at 225 inputs, at D·n multiply-adds each, and its signature at 3.21e+05 points, at 4·D·n")
	wantSpecError(t, spec("phase", 3276), "at most 1654")
	s, err := Parse("x.yaml", []byte(spec("phase", 1654)))
	if err != nil {
		t.Fatalf("phase at D = 1654: %v", err)
	}
	if ok, why := s.CanMake(*s.Method, 3276); ok {
		t.Errorf("CanMake(phase, 3276) = true (%s)", why)
	}
}
