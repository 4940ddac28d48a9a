package codegen

import (
	"testing"

	"github.com/featmap/featmap/fmap"
)

// TestKernelCodes holds every kernel family to an entry of kernelCodes,
// with its words and cost, and a Nyström kernel for every family but the
// combined kernel's; and the table to no family fmap does not list.
func TestKernelCodes(t *testing.T) {
	fams := fmap.Families()
	for _, f := range fams {
		c := kernelCodes[f]
		if c == nil {
			t.Errorf("kernel family %v has no kernelCode", f.Types())
			continue
		}
		if c.text == nil || c.cost == nil {
			t.Errorf("kernel family %v: kernelCode without text or cost", f.Types())
		}
		combined := len(f.Types()) == 1 && f.Types()[0] == fmap.Combined
		if (c.body == nil) != combined {
			t.Errorf("kernel family %v: Nyström kernel body present = %v", f.Types(), c.body != nil)
		}
	}
	if len(kernelCodes) != len(fams) {
		t.Errorf("kernelCodes has %d entries for %d families", len(kernelCodes), len(fams))
	}
	for f := range kernelCodes {
		if f == nil {
			t.Errorf("kernelCodes has an entry for no family")
		}
	}
}
