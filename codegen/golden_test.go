package codegen

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
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
// goldenPlatform) it skips the test, saying why: a comparison not made is
// not a pass. Callers check what does not depend on the platform first.
func checkFile(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if !goldenPlatform() {
			t.Fatalf("-update on %s (x·y + z = %v): the golden files hold amd64's numbers without fused multiply-adds; update them on such a build", runtime.GOARCH, multiplyAdd(fmaX, fmaY, fmaZ))
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !goldenPlatform() {
		t.Skipf("%s not compared: its numbers are amd64's without fused multiply-adds, this build's (%s, x·y + z = %v) rounds differently", path, runtime.GOARCH, multiplyAdd(fmaX, fmaY, fmaZ))
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

// TestGoldenPlatform: goldenPlatform holds exactly on amd64 below
// GOAMD64=v3 (the build's setting, from its build information), so that
// CI's amd64 build compares the golden files and a build that fuses
// multiply-adds does not. Elsewhere goldenPlatform is false by its first
// conjunct, so what is held there is its probe: on the architectures
// whose compiler fuses x·y + z (arm64, ppc64, ppc64le, s390x, riscv64,
// loong64: each gave 2⁻⁶⁰ under qemu) multiplyAdd must see the fused
// result; on others there is nothing to check, and the test says so.
func TestGoldenPlatform(t *testing.T) {
	if runtime.GOARCH != "amd64" {
		if goldenPlatform() {
			t.Errorf("%s is taken for a golden platform", runtime.GOARCH)
		}
		switch runtime.GOARCH {
		case "arm64", "ppc64", "ppc64le", "s390x", "riscv64", "loong64":
			if got := multiplyAdd(fmaX, fmaY, fmaZ); got != 0x1p-60 {
				t.Errorf("%s fuses multiply-adds, but x·y + z = %v, not 2⁻⁶⁰: multiplyAdd does not see it", runtime.GOARCH, got)
			}
		default:
			t.Skipf("%s: goldenPlatform() is false by its first conjunct, and no fused multiply-add is expected of the probe", runtime.GOARCH)
		}
		return
	}
	level := "v1"
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "GOAMD64" {
				level = s.Value
			}
		}
	}
	if fuses := level >= "v3"; goldenPlatform() == fuses {
		t.Errorf("GOAMD64=%s: goldenPlatform() = %v (x·y + z = %v)", level, goldenPlatform(), multiplyAdd(fmaX, fmaY, fmaZ))
	}
}
