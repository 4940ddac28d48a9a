package sampled

import (
	"math"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// TestKernelLaw: KernelLaw gives each shift-invariant kernel its named law,
// bit for bit, and no law to the kernels without one.
func TestKernelLaw(t *testing.T) {
	for _, c := range []struct {
		typ  string
		want Law
	}{
		{fmap.RBF, GaussianLaw(0.7)},
		{fmap.SkewedChi2, SkewedChi2Law(0.7)},
		{fmap.SkewedIntersection, SkewedIntersectionLaw(0.7)},
	} {
		law, ok := KernelLaw(c.typ, 0.7)
		if !ok {
			t.Fatalf("%s: no law", c.typ)
		}
		for _, u := range []float64{1e-12, 0.1, 0.5, 0.75, 1 - 1e-12} {
			if got, want := law(u), c.want(u); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%s: h(%v) = %v, want %v", c.typ, u, got, want)
			}
		}
	}
	for _, typ := range []string{fmap.ExpChi2, fmap.Chi2} {
		if _, ok := KernelLaw(typ, 1); ok {
			t.Errorf("%s: a law, want none", typ)
		}
	}
}
