package fmap

import (
	"slices"
	"testing"
)

// TestFamilies: every kernel type belongs to exactly one family, which
// FamilyOf finds; KernelTypes are every family's types but the combined
// kernel's; and every key a family owns is a kernel section's key that
// checkKeys knows, so that it refuses the key on the other families.
func TestFamilies(t *testing.T) {
	keys := []string{"gamma", "c", "beta", "degree", "scale", "offset", "nu", "sigma", "parts"}
	seen := map[string]bool{}
	for _, f := range Families() {
		if len(f.Types()) == 0 {
			t.Errorf("%T has no type", f)
		}
		for _, typ := range f.Types() {
			if seen[typ] {
				t.Errorf("type %s in two families", typ)
			}
			seen[typ] = true
			if g := FamilyOf(typ); g != f {
				t.Errorf("FamilyOf(%s) = %T, want %T", typ, g, f)
			}
		}
		for _, k := range f.Keys() {
			if !slices.Contains(keys, k) {
				t.Errorf("%T owns %q, no kernel key", f, k)
			}
		}
	}
	for _, typ := range KernelTypes() {
		if !seen[typ] || typ == Combined {
			t.Errorf("KernelTypes holds %s, of no spec family", typ)
		}
	}
	if len(KernelTypes())+1 != len(seen) {
		t.Errorf("KernelTypes has %d types, the families %d besides combined", len(KernelTypes()), len(seen)-1)
	}
	if FamilyOf("no-such-kernel") != nil {
		t.Error("FamilyOf found a family for an unknown type")
	}
}

// TestVectorKernelTypes: VectorKernels are every family's types but the
// homogeneous kernels' and the combined kernel's, each once, so that a new
// family's kernel is named in the messages that list the kernels of
// vectors (or the test fails); SigmaKernels are those owning sigma.
func TestVectorKernelTypes(t *testing.T) {
	var want []string
	for _, typ := range KernelTypes() {
		if !(Kernel{Type: typ}).Homogeneous() {
			want = append(want, typ)
		}
	}
	got := VectorKernels()
	if slices.Sort(got); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("VectorKernels %v, want the types %v", got, want)
	}
	for _, typ := range SigmaKernels() {
		if !(Kernel{Type: typ}).ShiftInvariant() {
			t.Errorf("SigmaKernels holds %s, which has no σ", typ)
		}
	}
	for _, c := range []struct{ key, want string }{
		{"sigma", "rbf, laplacian, matern and the skewed kernels"},
		{"gamma", "the homogeneous kernels"},
		{"parts", "a combined kernel"},
		{"degree", "poly"},
	} {
		if got := keyOwners(c.key); got != c.want {
			t.Errorf("keyOwners(%s) = %q, want %q", c.key, got, c.want)
		}
	}
	if got := JoinList([]string{"a", "b", "c"}, "or"); got != "a, b or c" {
		t.Errorf("JoinList = %q", got)
	}
}
