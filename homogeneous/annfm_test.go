package homogeneous

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// annfmMap designs an annfm map of χ² on [0, 1] with the paper's N = 100
// uniform anchors (a_i = i/100, 101 points), the assignment as and dim
// components, accepting every D (energy 0).
func annfmMap(t *testing.T, as fmap.Assign, dim int) *fmap.Map {
	t.Helper()
	zero := 0.0
	m := &ANNFM{Opts: ANNFMOptions{NAnchors: 101, Assign: string(as), Energy: &zero}}
	return design1(t, m, problem(fmap.Chi2, 0, fmap.Domain{Lo: []float64{0}, Hi: []float64{1}}), dim)
}

// TestANNFMRefs checks the annfm_* rows of formula_refs.csv (docs/formulas.md
// §4.4): the ten leading eigenvalues of the χ² anchor matrix (to 1e-13·λ_1,
// an eigensolver's backward error) and its trace, the nearest-anchor indices, and ⟨φ(x), φ(y)⟩
// for 1-NN at full rank and at r' = 2, and for the paper's 2-NN w = ½ at
// r' = 2 (1e-12 absolute: sign-invariant sums of a few terms of size ≤ 1).
func TestANNFMRefs(t *testing.T) {
	a := make([]float64, 101)
	for i := range a {
		a[i] = float64(i) / 100
	}
	k := fmap.Kernel{Type: fmap.Chi2}
	feat, _, _, err := anchorFeatures(k, a, 101, 0)
	if err != nil {
		t.Fatal(err)
	}
	// λ_r = ‖column r‖² of V diag(√λ).
	lambda := func(r int) float64 {
		s := 0.0
		for i := range a {
			s += feat[i*101+r] * feat[i*101+r]
		}
		return s
	}
	trace := 0.0
	for r := range 101 {
		trace += lambda(r)
	}
	for _, r := range formulaRefs(t, "annfm_eig") {
		var got float64
		switch {
		case strings.HasPrefix(r.component, "lambda"):
			var i int
			if _, err := fmt.Sscan(strings.TrimPrefix(r.component, "lambda"), &i); err != nil {
				t.Fatal(err)
			}
			got = lambda(i - 1)
		case r.component == "trace":
			got = trace
		default:
			continue // r' rows: TestANNFMEnergy
		}
		// An eigensolver's error is about ε‖K‖ in every eigenvalue:
		// 1e-13·λ_1 absolute.
		if math.Abs(got-r.value) > 1e-13*lambda(0) {
			t.Errorf("%s = %.17g, want %.17g", r.component, got, r.value)
		}
	}
	maps := map[string]*fmap.Map{
		"N=100;1-NN;full rank":              annfmMap(t, fmap.Nearest1, 101),
		"N=100;1-NN;r'=2 (99% trace)":       annfmMap(t, fmap.Nearest1, 2),
		"N=100;2-NN w=1/2;r'=2 (99% trace)": annfmMap(t, fmap.Pair2Mean, 2),
	}
	checked := 0
	for _, r := range formulaRefs(t, "annfm_chi2") {
		x := mustFloat(t, r.x)
		if r.component == "nn_index" {
			tb := &maps["N=100;1-NN;full rank"].Anchors().Tables[0]
			if i, _, _ := tb.Pick(fmap.Nearest1, x); float64(i) != r.value {
				t.Errorf("nn(%g) = %d, want %g", x, i, r.value)
			}
			checked++
			continue
		}
		m := maps[r.params]
		y, ok := strings.CutPrefix(r.component, "dot(y=")
		if m == nil || !ok {
			t.Fatalf("unexpected row %+v", r)
		}
		got := m.Dot([]float64{x}, []float64{mustFloat(t, strings.TrimSuffix(y, ")"))})
		if math.Abs(got-r.value) > 1e-12 {
			t.Errorf("%s: ⟨φ(%g), φ(%s⟩ = %.17g, want %.17g", r.params, x, y, got, r.value)
		}
		checked++
	}
	if checked < 30 {
		t.Errorf("checked %d rows, want the 30 of formula_refs.csv", checked)
	}
}

// TestANNFMErrorTable reproduces docs/formulas.md §4.2's table: χ², N = 100
// uniform anchors, |k(x, y) − φ(x)·φ(y)| over the pairs of the 400 points
// (i + ½)/400. The table gives three significant digits, so each figure
// must match to 1 % (2 % for the two-digit RMS 5.5e-5).
func TestANNFMErrorTable(t *testing.T) {
	xs := make([][]float64, 400)
	for i := range xs {
		xs[i] = []float64{(float64(i) + 0.5) / 400}
	}
	for _, c := range []struct {
		as       fmap.Assign
		dim      int
		max, rms float64
		tol      float64
	}{
		{fmap.Nearest1, 101, 7.47e-3, 3.12e-3, 0.01},
		{fmap.Pair2Mean, 101, 7.45e-3, 3.12e-3, 0.01},
		{fmap.Pair2Linear, 101, 2.34e-3, 5.5e-5, 0.02},
		{fmap.Nearest1, 2, 1.88e-2, 3.88e-3, 0.01},
		{fmap.Pair2Mean, 2, 1.90e-2, 3.88e-3, 0.01},
		{fmap.Pair2Linear, 2, 1.52e-2, 2.31e-3, 0.01},
		{fmap.Nearest1, 1, 5.81e-2, 2.12e-2, 0.01},
	} {
		abs, _ := fmap.OnPoints(annfmMap(t, c.as, c.dim), xs, "400 points")
		if relErr(abs.LInf, c.max) > c.tol || relErr(abs.RMS, c.rms) > c.tol {
			t.Errorf("%s, D = %d: max %.4g rms %.4g, want %.3g and %.3g (docs/formulas.md §4.2)", c.as, c.dim, abs.LInf, abs.RMS, c.max, c.rms)
		}
	}
}

// TestANNFMEnergy checks the energy rule (docs/formulas.md §4.2: for χ²
// with 101 uniform anchors r'(99 % of the trace) = 2, r'(95 %) = 1; for
// intersection r'(99 %) = 20): a D below r' fails naming r', r' itself
// designs.
func TestANNFMEnergy(t *testing.T) {
	dom := fmap.Domain{Lo: []float64{0}, Hi: []float64{1}}
	for _, c := range []struct {
		kernel string
		energy float64
		need   int
	}{{fmap.Chi2, 0.99, 2}, {fmap.Chi2, 0.95, 1}, {fmap.Intersection, 0.99, 20}} {
		e := c.energy
		m := &ANNFM{Opts: ANNFMOptions{NAnchors: 101, Energy: &e}}
		p := problem(c.kernel, 0, dom)
		if _, err := designErr(m, p, c.need); err != nil {
			t.Errorf("%s, energy %g, D = %d: %v", c.kernel, e, c.need, err)
		}
		if c.need == 1 {
			continue
		}
		_, err := designErr(m, p, c.need-1)
		if want := "D = " + strconv.Itoa(c.need) + " would"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s, energy %g, D = %d: error %v, want one saying %q", c.kernel, e, c.need-1, err, want)
		}
	}
}

// TestKMeans1DExact compares the dynamic programme with exhaustive search
// over every split of small sorted samples (with repeated values).
func TestKMeans1DExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	sse := func(xs, centres []float64) float64 {
		s := 0.0
		for _, x := range xs {
			best := math.Inf(1)
			for _, c := range centres {
				best = min(best, (x-c)*(x-c))
			}
			s += best
		}
		return s
	}
	for trial := range 200 {
		n := 2 + rng.IntN(9)
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(rng.IntN(12)) / 4
		}
		k := 1 + rng.IntN(4)
		got := KMeans1D(xs, k)
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Fatalf("trial %d: centres %v not increasing", trial, got)
		}
		// Exhaustive: every way to cut the distinct sorted values into at
		// most k contiguous groups.
		v := slices.Compact(slices.Sorted(slices.Values(xs)))
		best := math.Inf(1)
		var rec func(start int, centres []float64)
		rec = func(start int, centres []float64) {
			if start == len(v) {
				best = min(best, sse(xs, centres))
				return
			}
			if len(centres) == k {
				return
			}
			for end := start; end < len(v); end++ {
				s, w := 0.0, 0.0
				for _, x := range xs {
					if x >= v[start] && x <= v[end] {
						s, w = s+x, w+1
					}
				}
				rec(end+1, append(slices.Clone(centres), s/w))
			}
		}
		rec(0, nil)
		if g := sse(xs, got); g > best+1e-12 {
			t.Errorf("trial %d: %v into %d: sum of squares %g, exhaustive %g", trial, xs, k, g, best)
		}
	}
}
