package codegen

import (
	"slices"
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

// TestNysFormsComplete holds every dense Nyström form's float32 path
// whole: a form with float32 values has the header words that describe
// them, and a form of L1 or squared distances also the evaluator gen
// measures that path by, so that a new form cannot turn off its float32
// path's measurement or words unseen.
func TestNysFormsComplete(t *testing.T) {
	forms := 0
	for _, typ := range fmap.VectorKernels() {
		c := kernelCodeOf(typ)
		if c == nil || c.nysDense == nil {
			continue
		}
		keys := fmap.FamilyOf(typ).Keys()
		nus := []float64{0}
		if slices.Contains(keys, "nu") {
			nus = fmap.MaternNus
		}
		for _, nu := range nus {
			k := fmap.Kernel{Type: typ, Nu: nu}
			for _, key := range keys {
				switch key {
				case "sigma":
					k.Sigma = []float64{1, 2}
				case "c":
					k.C = 1
				case "beta":
					k.Beta = 1
				case "degree":
					k.Degree = 2
				case "scale":
					k.Scale = 1
				case "offset":
					k.Offset = 1
				}
			}
			if err := k.Check(2); err != nil {
				t.Fatalf("%s: the test's kernel: %v", typ, err)
			}
			f := c.nysDense(k)
			if f == nil {
				continue
			}
			forms++
			if f.values32 != nil && f.lines32 == nil {
				t.Errorf("%s (ν %v): a form with float32 values and no words for them", typ, nu)
			}
			if (f.prod32 == nysL1 || f.prod32 == nysSq) && (f.values32 == nil || f.eval32 == nil) {
				t.Errorf("%s (ν %v): a distance form's float32 values or evaluator missing (values32 %v, eval32 %v)", typ, nu, f.values32 != nil, f.eval32 != nil)
			}
		}
	}
	if forms == 0 {
		t.Fatal("no dense Nyström form checked")
	}
}
