package homogeneous

import (
	"math"
	"testing"
)

// GridG returns the error grid G of docs/formulas.md §1.3: the 61
// log-spaced points 10^{−6+i/10}, i = 0..60, from 1e-6 to 1, followed by
// i/20, i = 1..20. The two parts share 0.1 and 1, which are kept twice (a
// maximum over G is unaffected).
func GridG() []float64 {
	g := make([]float64, 0, 81)
	for i := 0; i <= 60; i++ {
		g = append(g, math.Pow(10, -6+float64(i)/10))
	}
	for i := 1; i <= 20; i++ {
		g = append(g, float64(i)/20)
	}
	return g
}

// TestGridG checks the grid of docs/formulas.md §1.3: 61 log-spaced points
// from 1e-6 to 1 (ratio 10^{0.1} to 1e-14) and i/20, i = 1..20.
func TestGridG(t *testing.T) {
	g := GridG()
	if len(g) != 81 || g[0] != 1e-6 || g[60] != 1 || g[61] != 0.05 || g[80] != 1 {
		t.Fatalf("GridG: %d points, %v … %v", len(g), g[:2], g[len(g)-2:])
	}
	for i := 1; i <= 60; i++ {
		if relErr(g[i]/g[i-1], math.Pow(10, 0.1)) > 1e-14 {
			t.Errorf("G[%d]/G[%d] = %v", i, i-1, g[i]/g[i-1])
		}
	}
	for i := 1; i <= 20; i++ {
		if g[60+i] != float64(i)/20 {
			t.Errorf("G[%d] = %v, want %v", 60+i, g[60+i], float64(i)/20)
		}
	}
}
