package codegen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/internal/fma"
)

var update = flag.Bool("update", false, "rewrite codegen/testdata/*.golden")

// goldenPlatform reports whether this build computes as the machine that
// made the golden files: amd64 without fused multiply-adds (GOAMD64 v1 or
// v2). Elsewhere — arm64, GOAMD64=v3 — math.Sin and math.Exp and the
// compiler's fused multiply-adds move the last bit of some emitted
// constants (a table entry 0.19590504298307362 → …68 at GOAMD64=v3).
func goldenPlatform() bool { return fma.Reference() }

// checkFile compares got with the file at path, or writes it with -update.
// On a platform that computes differently from the golden files' (see
// goldenPlatform) it skips the test, saying why: a comparison not made is
// not a pass. Callers check what does not depend on the platform first.
func checkFile(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if !goldenPlatform() {
			t.Fatalf("-update on %s (fused multiply-adds: %v): the golden files hold amd64's numbers without fused multiply-adds; update them on such a build", runtime.GOARCH, fma.Fused())
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !goldenPlatform() {
		t.Skipf("%s not compared: its numbers are amd64's without fused multiply-adds, this build's (%s, fused multiply-adds: %v) rounds differently", path, runtime.GOARCH, fma.Fused())
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
