package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// denseSpec is a random-feature map small enough for Go literals: its Go
// file calls the package's dense kernels.
const denseSpec = `version: 1
name: RBFDense
kernel: {type: rbf, sigma: 1}
domain: {dims: 3, interval: [0, 1]}
target: {dim: 16}
method: {name: rff, seed: 1}
`

// TestGenDense: a random-feature map is written with the package's dense
// kernel files beside it (featmap_dense*.go), and is fresh with them as
// written and stale when one is missing or changed; written to standard
// output (no directory for the kernels) or into a package that imports
// "C" (whose assembly the C compiler would take), or over a hand-written
// file of a kernel file's name, it is refused with exit 2 and nothing is
// written.
func TestGenDense(t *testing.T) {
	t.Setenv("FEATMAP_FORCE", "")
	spec := writeSpec(t, denseSpec)
	if code, stdout, errOut := runCLI("gen", "-pkg", "maps", spec); code != exitUsage || stdout != "" || !strings.Contains(errOut, "dense kernels") {
		t.Errorf("gen to standard output: exit %d, stdout %d bytes, stderr %q; want exit %d naming the dense kernels", code, len(stdout), errOut, exitUsage)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "rbf.go")
	if code, _, errOut := runCLI("gen", "-o", out, "-pkg", "maps", spec); code != exitOK {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	kernels := filepath.Join(dir, "featmap_dense_math.go")
	b, err := os.ReadFile(kernels)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\npackage maps\n") {
		t.Errorf("%s has not the package clause of maps", kernels)
	}
	check := func(what string, want int, reason string) {
		t.Helper()
		if code, _, errOut := runCLI("gen", "-check", "-o", out, "-pkg", "maps", spec); code != want || !strings.Contains(errOut, reason) {
			t.Errorf("%s: gen -check: exit %d, stderr %q; want exit %d with %q", what, code, errOut, want, reason)
		}
	}
	check("as written", exitOK, "is fresh")
	if err := os.WriteFile(kernels, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	check("a kernel file changed", exitFailed, "dense kernel file "+kernels+" changed")
	if err := os.Remove(kernels); err != nil {
		t.Fatal(err)
	}
	check("a kernel file missing", exitFailed, "dense kernel file "+kernels+" is missing")

	cgo := t.TempDir()
	if err := os.WriteFile(filepath.Join(cgo, "c.go"), []byte("package maps\n\nimport \"C\"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI("gen", "-o", filepath.Join(cgo, "rbf.go"), "-pkg", "maps", spec); code != exitUsage || !strings.Contains(errOut, `c.go imports "C"`) {
		t.Errorf("gen into a cgo package: exit %d, stderr %q; want exit %d naming c.go", code, errOut, exitUsage)
	}
	if entries, _ := os.ReadDir(cgo); len(entries) != 1 {
		t.Errorf("gen into a cgo package wrote %d files", len(entries)-1)
	}

	own := t.TempDir()
	mine := filepath.Join(own, "featmap_dense.go")
	if err := os.WriteFile(mine, []byte("package maps\n\n// my own code\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI("gen", "-o", filepath.Join(own, "rbf.go"), "-pkg", "maps", spec); code != exitUsage || !strings.Contains(errOut, mine) {
		t.Errorf("gen over a hand-written %s: exit %d, stderr %q; want exit %d naming it", mine, code, errOut, exitUsage)
	}
	if b, _ := os.ReadFile(mine); string(b) != "package maps\n\n// my own code\n" {
		t.Errorf("gen replaced the hand-written %s", mine)
	}
	if entries, _ := os.ReadDir(own); len(entries) != 1 {
		t.Errorf("gen over a hand-written kernel file wrote %d files", len(entries)-1)
	}
}
