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

var update = flag.Bool("update", false, "rewrite codegen/testdata/*.golden")

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
