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
)

var update = flag.Bool("update", false, "rewrite codegen/testdata/*.golden")

// fmaX·fmaY + fmaZ is exactly 2⁻⁶⁰, which a separate multiplication
// rounds away: multiplyAdd gives it where the compiler fuses multiply-adds.
var fmaX, fmaY, fmaZ = 1 + 0x1p-30, 1 + 0x1p-30, -(1 + 0x1p-29)

// multiplyAdd is x·y + z as the compiler makes it. Not inlined, so that
// its operands arrive in registers: with operands loaded from memory the
// amd64 compiler takes the load into the multiplication and no longer
// fuses.
//
//go:noinline
func multiplyAdd(x, y, z float64) float64 { return x*y + z }

// goldenPlatform reports whether this build computes as the machine that
// made the golden files: amd64 without fused multiply-adds (GOAMD64 v1 or
// v2). Elsewhere — arm64, GOAMD64=v3 — math.Sin and math.Exp and the
// compiler's fused multiply-adds move the last bit of some emitted
// constants (a table entry 0.19590504298307362 → …68 at GOAMD64=v3).
func goldenPlatform() bool {
	return runtime.GOARCH == "amd64" && multiplyAdd(fmaX, fmaY, fmaZ) == 0
}

// checkFile compares got with the file at path, or writes it with -update.
// On a platform that computes differently from the golden files' (see
// goldenPlatform) it only logs that it did not compare.
func checkFile(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !goldenPlatform() {
		t.Logf("%s not compared: its numbers are amd64's without fused multiply-adds, this build's (%s, x·y + z = %v) rounds differently", path, runtime.GOARCH, multiplyAdd(fmaX, fmaY, fmaZ))
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

// TestGoldenPlatform: the amd64 build of CI (GOAMD64 v1) is a golden
// platform, so that its golden comparisons run.
func TestGoldenPlatform(t *testing.T) {
	if runtime.GOARCH == "amd64" && os.Getenv("GOAMD64") != "" && os.Getenv("GOAMD64") != "v1" && os.Getenv("GOAMD64") != "v2" {
		t.Skipf("GOAMD64=%s", os.Getenv("GOAMD64"))
	}
	if runtime.GOARCH == "amd64" && !goldenPlatform() {
		t.Errorf("amd64 without GOAMD64 ≥ v3 fuses x·y + z: %v, want 0", multiplyAdd(fmaX, fmaY, fmaZ))
	}
}
