package testmaps

import "testing"

// TestMapsAreValid: every test map is valid (fmap.Map.Validate) and its
// kernel fits it (fmap.Map.CheckKernel, what featmap eval holds a map file
// to), so that a map codegen emits is one eval reads.
func TestMapsAreValid(t *testing.T) {
	for _, c := range Cases() {
		m := c.Map().Map
		if err := m.Validate(); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
		if err := m.CheckKernel(); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
	}
}
