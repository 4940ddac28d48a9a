package homogeneous

import (
	"math"
	"testing"

	"github.com/featmap/featmap/design"
)

// TestExactSetSmallDomain enumerates the attainable λ of {0..3} by hand:
// ratios 1, 3/2, 2, 3 with largest amplitudes √(3·3), √(2·3), √(1·2), √(1·3)
// (divided by hi = 3 for the absolute error).
func TestExactSetSmallDomain(t *testing.T) {
	p, err := DesignProblem(Problem{Kernel: Chi2, Domain: design.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{3}}}, design.Absolute, design.LInf)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ l, w float64 }{
		{0, 1}, {math.Log(1.5), math.Sqrt(6) / 3}, {math.Log(2), math.Sqrt(2) / 3}, {math.Log(3), math.Sqrt(3) / 3},
	}
	e := p.Exact
	if e == nil || len(e.Lambda) != len(want) {
		t.Fatalf("exact set %+v, want %d points", e, len(want))
	}
	for i, w := range want {
		if math.Abs(e.Lambda[i]-w.l) > 1e-15 || math.Abs(e.Weight[i]-w.w) > 1e-15 {
			t.Errorf("point %d: λ %v weight %v, want %v %v", i, e.Lambda[i], e.Weight[i], w.l, w.w)
		}
		// The continuous weight w_A bounds the exact one from above.
		if e.Weight[i] > p.Weight(e.Lambda[i])*(1+1e-15) {
			t.Errorf("point %d: exact weight %v above w_A %v", i, e.Weight[i], p.Weight(e.Lambda[i]))
		}
	}
}

// TestExactSetMatchesPairs checks the exact set of {2..40} against a brute
// force over all pairs: every pair's λ is in the set, and the set's weight
// is the largest amplitude among the pairs with that λ.
func TestExactSetMatchesPairs(t *testing.T) {
	const lo, hi = 2, 40
	p, err := DesignProblem(Problem{Kernel: JS, Gamma: 0.5, Domain: design.Domain{Integer: true, Lo: []float64{lo}, Hi: []float64{hi}}}, design.Absolute, design.LInf)
	if err != nil {
		t.Fatal(err)
	}
	best := map[[2]int]float64{}
	for x := lo; x <= hi; x++ {
		for y := x; y <= hi; y++ {
			g := gcd(x, y)
			key := [2]int{x / g, y / g}
			best[key] = math.Max(best[key], math.Pow(float64(x*y), 0.25)/math.Pow(hi, 0.5))
		}
	}
	if len(best) != len(p.Exact.Lambda) {
		t.Fatalf("%d distinct ratios by brute force, %d in the exact set", len(best), len(p.Exact.Lambda))
	}
	for key, w := range best {
		l := math.Log(float64(key[1]) / float64(key[0]))
		found := false
		for i, el := range p.Exact.Lambda {
			if math.Abs(el-l) < 1e-14 {
				found = true
				if math.Abs(p.Exact.Weight[i]-w) > 1e-14 {
					t.Errorf("ratio %d/%d: weight %v, want %v", key[1], key[0], p.Exact.Weight[i], w)
				}
			}
		}
		if !found {
			t.Errorf("ratio %d/%d missing", key[1], key[0])
		}
	}
}
