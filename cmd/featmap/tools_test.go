package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// TestDownstreamToolsModule is the separate tool module pattern docs/gen.md
// documents ("go generate in another module"): a downstream module keeps featmap out of its go.mod by
// declaring it in tools.mod (here with a replace to this checkout), runs
// the `//go:generate go tool -modfile=../tools.mod featmap gen …` line and
// `go tool -modfile=tools.mod featmap gen -check`, and builds the map with
// a go.mod that requires nothing. A long CLI run (-long): it builds
// featmap; CI runs it.
func TestDownstreamToolsModule(t *testing.T) {
	needLong(t, "builds a downstream module")
	goBin := filepath.Join(runtime.GOROOT(), "bin", "go")
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := "module example.com/downstream\n\ngo 1.24\n"
	files := map[string]string{
		"go.mod": gomod,
		"tools.mod": gomod + "\ntool github.com/featmap/featmap/cmd/featmap\n\n" +
			"require github.com/featmap/featmap v0.0.0\n\nreplace github.com/featmap/featmap => " + root + "\n",
		"hist/chi2.yaml": "version: 1\nname: Chi2Small\nkernel: {type: chi2}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: 3}\nmethod: {name: chum, starts: 1}\n",
		"hist/gen.go":    "// Package hist maps histogram entries.\npackage hist\n\n//go:generate go tool -modfile=../tools.mod featmap gen -o chi2_gen.go chi2.yaml\n",
	}
	writeTree(t, dir, files, root, "tools.sum")
	goCmd := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off", "FEATMAP_FORCE=")
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		t.Logf("go %s: %v", strings.Join(args, " "), time.Since(start).Round(time.Millisecond))
		return string(out)
	}
	goCmd("mod", "tidy", "-modfile=tools.mod")
	goCmd("generate", "./...")
	if _, err := os.Stat(filepath.Join(dir, "hist", "chi2_gen.go")); err != nil {
		t.Fatalf("go generate wrote no map: %v", err)
	}
	if out := goCmd("tool", "-modfile=tools.mod", "featmap", "gen", "-check", "-o", "hist/chi2_gen.go", "hist/chi2.yaml"); !strings.Contains(out, "is fresh") {
		t.Errorf("gen -check through tools.mod: %q", out)
	}
	goCmd("vet", "./...")
	// The module's own go.mod is untouched: the emitted map needs no module.
	got, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != gomod {
		t.Errorf("go.mod changed under the tools.mod pattern:\n%s", got)
	}
	// What the tool costs a downstream module: featmap and the modules its
	// packages import (gonum, jennifer, yaml, and x/tools, which gonum's
	// optimize package imports through stat/distmv) — 5 require lines, as
	// docs/gen.md states;
	// the plotting stack the report package once drew with (gonum/plot,
	// fonts, PDF, SVG, LaTeX, image, x/text: 9 more) is gone.
	tools, err := os.ReadFile(filepath.Join(dir, "tools.mod"))
	if err != nil {
		t.Fatal(err)
	}
	n := requireLines(string(tools))
	t.Logf("tools.mod holds %d require lines", n)
	if n != wantToolRequires {
		t.Errorf("tools.mod holds %d require lines, docs/gen.md states %d:\n%s", n, wantToolRequires, tools)
	}
	for _, heavy := range []string{"gonum.org/v1/plot", "golang.org/x/image", "golang.org/x/text", "svgo", "fpdf", "freetype"} {
		if strings.Contains(string(tools), heavy) {
			t.Errorf("tools.mod requires %s:\n%s", heavy, tools)
		}
	}
}

// wantToolRequires is the number of modules `go get -tool` of featmap
// adds to a fresh go.mod (docs/gen.md's "Keeping featmap out of your
// go.mod" states it).
const wantToolRequires = 5

// requireLines counts the modules a go.mod requires.
func requireLines(gomod string) int {
	n, block := 0, false
	for _, l := range strings.Split(gomod, "\n") {
		l = strings.TrimSpace(l)
		switch {
		case l == "require (":
			block = true
		case block && l == ")":
			block = false
		case block && l != "" || strings.HasPrefix(l, "require "):
			n++
		}
	}
	return n
}
