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
