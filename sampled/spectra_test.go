package sampled

import (
	"math"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// TestSpectra: every kernel rff designs maps of has a spectral law
// (spectra), and no other kernel has one; a product law is finite and
// increasing across the quartiles, with its median at 0 (to rounding).
func TestSpectra(t *testing.T) {
	for _, typ := range fmap.KernelTypes() {
		applies := (&RFF{}).Applies(&fmap.Problem{Kernel: fmap.Kernel{Type: typ}}) == nil
		sp, ok := spectra[typ]
		if applies != ok {
			t.Errorf("%s: rff applies %v, spectral law %v", typ, applies, ok)
		}
		if (fmap.Kernel{Type: typ}).ShiftInvariant() && sp.law == nil && sp.draw == nil {
			t.Errorf("%s: shift-invariant, but its spectrum neither has a law nor draws one", typ)
		}
		if !ok || sp.law == nil {
			continue
		}
		law := sp.law(1)
		q1, q2, q3 := law(0.25), law(0.5), law(0.75)
		if !(q1 < q2 && q2 < q3) || math.Abs(q2) > 1e-12 || math.IsInf(q1, 0) || math.IsInf(q3, 0) {
			t.Errorf("%s: quartiles %v, %v, %v", typ, q1, q2, q3)
		}
	}
}
