package fma

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestReference: Reference holds exactly on amd64 below GOAMD64=v3 (the
// build's setting, from its build information), so that CI's amd64 build
// compares recorded numbers and a build that fuses multiply-adds does
// not. Elsewhere Reference is false by its first conjunct, so what is held
// there is the probe: on the architectures whose compiler fuses x·y + z
// (arm64, ppc64, ppc64le, s390x, riscv64, loong64: each gave 2⁻⁶⁰ under
// qemu) multiplyAdd must see the fused result; on others there is nothing
// to check, and the test says so.
func TestReference(t *testing.T) {
	if got := multiplyAdd(x, y, z); got != 0 && got != 0x1p-60 {
		t.Fatalf("x·y + z = %v: neither one rounding (2⁻⁶⁰) nor two (0)", got)
	}
	if runtime.GOARCH != "amd64" {
		if Reference() {
			t.Errorf("%s is taken for the reference platform", runtime.GOARCH)
		}
		switch runtime.GOARCH {
		case "arm64", "ppc64", "ppc64le", "s390x", "riscv64", "loong64":
			if !Fused() {
				t.Errorf("%s fuses multiply-adds, but x·y + z = %v, not 2⁻⁶⁰: multiplyAdd does not see it", runtime.GOARCH, multiplyAdd(x, y, z))
			}
		default:
			t.Skipf("%s: Reference() is false by its first conjunct, and no fused multiply-add is expected of the probe", runtime.GOARCH)
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
	if fuses := level >= "v3"; Reference() == fuses {
		t.Errorf("GOAMD64=%s: Reference() = %v (fused multiply-adds: %v)", level, Reference(), Fused())
	}
}
