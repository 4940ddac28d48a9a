package codegen

import (
	"math"
	"strings"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/fmap"
)

// TestPhaseLimit: L = MaxFloat64/(2·S) for the shift-invariant test maps
// (S the largest Σᵢ|ωᵢ| of a term or frequency), none (+Inf) for the
// homogeneous ones and where S ≤ 1/2; and Generate refuses frequencies
// whose phases overflow even at the largest t of a log transform, or
// whose limit would cut into the domain.
func TestPhaseLimit(t *testing.T) {
	rbf := testmaps.RBF()
	if l, s := phaseLimit(rbf.Map.Fourier()), termSum(rbf.Map.Fourier()); s < 8 || l != math.MaxFloat64/(2*s) {
		t.Errorf("RBF: S = %v, L = %v", s, l)
	}
	if l := phaseLimit(testmaps.Chi2Interval().Map.Fourier()); !math.IsInf(l, 1) {
		t.Errorf("χ² (log transform): L = %v, want +Inf", l)
	}
	if l := limitOf(0.5); !math.IsInf(l, 1) {
		t.Errorf("S = 1/2: L = %v, want +Inf", l)
	}
	for _, c := range []struct {
		name string
		vm   fmap.Verified
		w    float64 // the new value of the first nonzero frequency
		want string  // "" or part of the error
	}{
		{"RBF", testmaps.RBF(), 1e307, ""},
		{"RBF", testmaps.RBF(), 5e307, "on the domain"},
		{"RBF", testmaps.RBF(), 1e308, "phases overflow"},
		{"Chi2Interval", testmaps.Chi2Interval(), 1e303, ""},
		{"Chi2Interval", testmaps.Chi2Interval(), 1e306, "phases overflow"},
		{"RFFSkew", testmaps.RFFSkew(), 1e303, ""},
		{"RFFSkew", testmaps.RFFSkew(), 1e306, "phases overflow"},
		{"RFF1", testmaps.RFF1(), 5e307, "on the domain"},
	} {
		m := *c.vm.Map
		st := m.Stages[0]
		if f, ok := st.Kind.(*fmap.Fourier); ok {
			g := *f
			g.Terms = append([]fmap.Term(nil), f.Terms...)
			for i, term := range g.Terms {
				if term.Freq[0] != 0 {
					g.Terms[i].Freq = []float64{c.w}
					break
				}
			}
			st.Kind = &g
		} else {
			r := *st.Kind.(*fmap.Random)
			r.Freq = append([]float64(nil), r.Freq...)
			r.Freq[0] = c.w
			st.Kind = &r
		}
		m.Stages = []fmap.Stage{st}
		_, err := GenerateFiles(fmap.Verified{Map: &m, Verification: c.vm.Verification}, testInfo(c.name))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s, ω = %v: %v", c.name, c.w, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s, ω = %v: error %v, want one with %q", c.name, c.w, err, c.want)
		}
	}
}
