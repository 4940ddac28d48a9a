package codegen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
)

// TestNys32Paths: every dense Nyström test map whose kernel has a float32
// path takes it (the test maps' float32 kernel errors are far within
// their budgets), but NysMaternTight, whose budget is below it.
func TestNys32Paths(t *testing.T) {
	for _, c := range testmaps.Cases() {
		p, err := newPlan(c.Map(), testInfo(c.Name))
		if err != nil {
			t.Fatal(err)
		}
		q := p.asNystroem()
		if q == nil || !q.nysDense() {
			continue
		}
		t.Logf("%s: float32 path %v, kernel error %.3g (budget %.3g), limit %v", c.Name, q.f32, q.kern32, p.budget, q.limit32)
		if q.dform.values32 == nil {
			continue
		}
		if c.Name == "NysMaternTight" {
			if q.f32 {
				t.Errorf("%s: float32 path taken with a budget of %.3g (its kernel error %.3g)", c.Name, p.budget, q.kern32)
			}
			continue
		}
		if !q.f32 || !(q.kern32 > 0 && q.kern32 <= p.budget) || !(q.limit32 > 0) {
			t.Errorf("%s: float32 path %v, kernel error %v, budget %v, limit %v", c.Name, q.f32, q.kern32, p.budget, q.limit32)
		}
	}
}

// TestNys32Fallback: a dense Nyström map whose float32 kernel error is
// beyond its budget (a map verified to 10⁻⁹, a budget of 10⁻¹²) keeps
// NF32 and NSliceF32 the float64 evaluation rounded, and its header says
// so with the measurement; each kernel's float32 path.
func TestNys32Fallback(t *testing.T) {
	for _, name := range []string{"NysRBF", "NysLaplacian", "NysMatern12", "NysMatern", "NysMatern52", "NysPoly"} {
		var vm = testmaps.Case{}
		for _, c := range testmaps.Cases() {
			if c.Name == name {
				vm = c
			}
		}
		m := vm.Map()
		v := *m.Verification
		v.Reported.LInf = 1e-9
		m.Verification = &v
		p, err := newPlan(m, testInfo(name))
		if err != nil {
			t.Fatal(err)
		}
		q := p.asNystroem()
		if q == nil || !q.nysDense() || q.dform.values32 == nil {
			t.Fatalf("%s: not a dense Nyström map with a float32 path", name)
		}
		if q.f32 {
			t.Errorf("%s: float32 path taken with a budget of %.3g (its kernel error %.3g)", name, p.budget, q.kern32)
		}
		files, err := GenerateFiles(m, testInfo(name))
		if err != nil {
			t.Fatal(err)
		}
		// The header's words, unwrapped.
		src := strings.Join(strings.Fields(strings.ReplaceAll(string(files[0].Data), "//", "")), " ")
		for _, want := range []string{"F32 and " + name + "SliceF32 convert the input to float64", fmt.Sprintf("within %.2g of the float64 map's, beyond the budget 1e-12", q.kern32)} {
			if !strings.Contains(src, want) {
				t.Errorf("%s: the header does not say %q", name, want)
			}
		}
		if strings.Contains(src, "compute in float32") {
			t.Errorf("%s: the header says the map computes in float32", name)
		}
	}
}
