//go:build !clp

package solver_test

import (
	"strings"
	"testing"

	"github.com/featmap/featmap/solver"
)

// Without the clp build tag the CLP backend is absent, asking for it says how
// to get it, and the default backend is the pure-Go one.
func TestCLPNotCompiledIn(t *testing.T) {
	b, err := solver.Get("clp")
	if err == nil {
		t.Fatalf("solver.Get(\"clp\") = %v without -tags clp, want an error", b.Name())
	}
	if !strings.Contains(err.Error(), "-tags clp") {
		t.Errorf("error %q does not say how to compile CLP in", err)
	}
	for _, n := range solver.Names() {
		if n == "clp" {
			t.Errorf("solver.Names() = %v lists clp without -tags clp", solver.Names())
		}
	}
	if d := solver.Default(); d.Name() != "purego" {
		t.Errorf("solver.Default() is %q, want purego", d.Name())
	}
	if d, err := solver.Get(""); err != nil || d.Name() != "purego" {
		t.Errorf("solver.Get(\"\") = %v, %v; want purego", d, err)
	}
}
