package codegen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
)

var update = flag.Bool("update", false, "rewrite codegen/testdata/*.golden and codegen/internal/benchmaps")

// checkFile compares got with the file at path, or writes it with -update.
func checkFile(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./codegen -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date: run go test ./codegen -update and review the diff", path)
	}
}

// TestGolden compares the emitted source of the golden test maps with
// testdata/<name>.golden.
func TestGolden(t *testing.T) {
	for _, c := range testmaps.Cases() {
		if !c.Golden {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			src, err := Generate(c.Map(), testInfo(c.Name))
			if err != nil {
				t.Fatal(err)
			}
			checkFile(t, filepath.Join("testdata", strings.ToLower(c.Name)+".golden"), src)
		})
	}
}

// benchInfo names the maps of package benchmaps.
func benchInfo(name string) Info {
	return Info{
		Name: name, Package: "benchmaps", Version: "(codegen test)",
		SpecPath: "codegen/internal/testmaps", SpecHash: "none",
		Spec: "testmaps." + name + "(), emitted by go test ./codegen -update",
	}
}

// TestBenchmapsUpToDate checks that the emitted maps benchmarked in
// internal/benchmaps are what Generate makes today.
func TestBenchmapsUpToDate(t *testing.T) {
	for _, c := range []testmaps.Case{{Name: "Chi2Int", Map: testmaps.Chi2Int}, {Name: "Chi2Interval", Map: testmaps.Chi2Interval}} {
		src, err := Generate(c.Map(), benchInfo(c.Name))
		if err != nil {
			t.Fatal(err)
		}
		checkFile(t, filepath.Join("internal", "benchmaps", strings.ToLower(c.Name)+".go"), src)
	}
}
