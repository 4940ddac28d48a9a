package featmap

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/digits"
)

// specFrom parses a spec written in the test.
func specFrom(t *testing.T, name, yaml string) *Spec {
	t.Helper()
	s, err := ParseSpec(name, []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// designDim designs s's map of dimension dim with its own method.
func designDim(t *testing.T, s *Spec, dim int) *Design {
	t.Helper()
	d, err := s.DesignDim(context.Background(), *s.Method, dim, Settings{})
	if err != nil {
		t.Fatalf("%s, D = %d: %v", s.Path, dim, err)
	}
	if d.Map.Dim != dim {
		t.Fatalf("%s: D = %d, want %d", s.Path, d.Map.Dim, dim)
	}
	return d
}

// expChi2Spec is exp-χ² (β = 1) on 64 inputs in [0, 1] with the inner map
// given.
func expChi2Spec(t *testing.T, inner string) *Spec {
	return specFrom(t, "expchi2.yaml", fmt.Sprintf(`version: 1
name: ExpChi2
kernel: {type: exp-chi2, beta: 1}
domain: {dims: 64, interval: [0, 1]}
target: {dim: 256}
method: {name: rff, seed: 1, inner: %s}
`, inner))
}

// TestExpChi2KeepsFalling: the exp-χ² map's Gram error on the l1-normalised
// digits (200 rows) keeps falling with D up to 16 384: each quadrupling of D
// cuts it by at least 25 % (scikit-learn's AdditiveChi2Sampler pipeline
// stops at 0.06–0.23 whatever D: its features' self inner product is
// 0.80–0.95 of x, issue 13). And with equal D, the pipeline on a 5-D chum
// inner map leaves a lower error than on VZ's 3-D map.
func TestExpChi2KeepsFalling(t *testing.T) {
	if testing.Short() {
		t.Skip("about 30 s")
	}
	t.Parallel() // shares no state with the other tests
	raw, err := digits.Load("testdata/digits.csv.gz", 200)
	if err != nil {
		t.Fatal(err)
	}
	hs := digits.L1Normalised(raw)
	// The maps are verified on the digits only (the spec's own
	// verification, 10⁶ pairs of 1000 points, would triple the time).
	gram := func(s *Spec, dim int) float64 {
		res, err := s.Method.Design(context.Background(), s.Problem, dim, design.Settings{})
		if err != nil {
			t.Fatalf("D = %d: %v", dim, err)
		}
		if res.Map.Dim != dim {
			t.Fatalf("D = %d, want %d", res.Map.Dim, dim)
		}
		_, frob := fmap.OnPoints(res.Map, hs, "200 l1-normalised digits")
		return frob
	}
	chum, vz := expChi2Spec(t, "{name: chum, dim: 5}"), expChi2Spec(t, "{name: vz, dim: 3}")
	// The chum-inner errors by D, made once: the comparison with VZ
	// below reuses D = 1024 and 4096 of the sweep (the design is seeded).
	chumGram := map[int]float64{}
	prev := 0.0
	for dim := 256; dim <= 16384; dim *= 4 {
		e := gram(chum, dim)
		chumGram[dim] = e
		t.Logf("D = %5d: Gram error %.4g", dim, e)
		if prev > 0 && e > 0.75*prev {
			t.Errorf("D = %d: error %.4g, not 25%% below %.4g at D/4", dim, e, prev)
		}
		prev = e
	}
	for _, dim := range []int{1024, 4096} {
		c, v := chumGram[dim], gram(vz, dim)
		t.Logf("D = %d: chum-5 inner %.4g, vz-3 inner %.4g", dim, c, v)
		if c >= v {
			t.Errorf("D = %d: chum inner %.4g not below vz inner %.4g", dim, c, v)
		}
	}
}

// TestFig4a: Chum (ICCV 2015, §7.1, Fig. 4) calls a 64-D random Fourier
// map of the RBF kernel (σ = 0.2 on [0, π]) a poor approximation beside
// his 11-D map. Verified on the same pairs, the 11-D chum map's L∞ error
// is below that of 64-D rff maps of every sampling and both feature forms
// (measured: chum 0.037; rff 0.12–0.86, see docs/reports/compare-rbf-fig4a).
func TestFig4a(t *testing.T) {
	if testing.Short() {
		t.Skip("about 5 s")
	}
	t.Parallel() // shares no state with the other tests
	base := `version: 1
name: RBFFig4a
kernel: {type: rbf, sigma: 0.2}
domain: {interval: [0, 3.141592653589793]}
error: {norm: linf, weight: absolute}
target: {dim: %d}
method: {name: %s}
`
	chum := designDim(t, specFrom(t, "chum.yaml", fmt.Sprintf(base, 11, "chum")), 11)
	ce := chum.Verification.Reported.LInf
	for _, s := range []string{"random", "qmc", "orthogonal"} {
		for _, f := range []string{"phase", "cos-sin"} {
			m := fmt.Sprintf("rff, sampling: %s, features: %s", s, f)
			d := designDim(t, specFrom(t, "rff.yaml", fmt.Sprintf(base, 64, m)), 64)
			re := d.Verification.Reported.LInf
			t.Logf("rff %s %s, D = 64: L∞ %.4g; chum, D = 11: %.4g", s, f, re, ce)
			if re <= ce {
				t.Errorf("rff %s %s at D = 64 (L∞ %.4g) is not worse than chum at D = 11 (%.4g)", s, f, re, ce)
			}
		}
	}
}

// TestRFFDesignTime: a 4 096-D Gaussian map of 64 inputs, verification
// included (10⁶ pairs of 1000 points), designs in under 10 s (issue 13).
//
// The bound is on the process's CPU time (user + system, getrusage), not
// on the wall time, which a machine loaded by other work stretches at will
// (the 10 s wall bound failed under load). CPU time is the stricter
// measure on an idle machine: the design's parallel verification makes
// wall time at most its CPU time there, so ≤ 10 s of CPU is ≤ 10 s of
// wall. No other test runs meanwhile (parallel tests wait for the
// sequential ones). Where getrusage is missing, wall time is measured.
func TestRFFDesignTime(t *testing.T) {
	if testing.Short() {
		t.Skip("about 3 s")
	}
	s := specFrom(t, "rbf64.yaml", `version: 1
name: RBF64
kernel: {type: rbf, sigma: 4}
domain: {dims: 64, interval: [0, 16]}
target: {dim: 4096}
method: {name: rff, sampling: orthogonal, seed: 1}
`)
	start := time.Now()
	cpu0, haveCPU := processCPU()
	d := designDim(t, s, 4096)
	el := time.Since(start)
	cpu1, _ := processCPU()
	used, what := el, "wall time"
	if haveCPU {
		used, what = cpu1-cpu0, "CPU time"
	}
	t.Logf("designed and verified in %v wall, %v CPU: L∞ %.4g on %s", el, cpu1-cpu0, d.Verification.Reported.LInf, d.Verification.Reported.On)
	if used > 10*time.Second {
		t.Errorf("design and verification took %v of %s, more than 10 s", used, what)
	}
	if d.Verification.Reported.Points < 100000 {
		t.Errorf("verified on %d pairs, want at least 10⁵", d.Verification.Reported.Points)
	}
}

// TestRFFDeterministic: an rff spec of every sampling designed twice gives
// the same map and verification, bit for bit; another seed another map.
func TestRFFDeterministic(t *testing.T) {
	for _, s := range []string{"random", "qmc", "orthogonal"} {
		spec := func(seed int) *Spec {
			return specFrom(t, "det.yaml", fmt.Sprintf(`version: 1
name: Det
kernel: {type: exp-chi2, beta: 0.5}
domain: {dims: 6, interval: [0, 1]}
target: {dim: 64}
method: {name: rff, sampling: %s, seed: %d, inner: {name: chebyshev, dim: 3}}
`, s, seed))
		}
		a, b, c := designDim(t, spec(1), 64), designDim(t, spec(1), 64), designDim(t, spec(2), 64)
		if !reflect.DeepEqual(a.Map, b.Map) || !reflect.DeepEqual(a.Verification, b.Verification) {
			t.Errorf("%s: two designs differ", s)
		}
		if reflect.DeepEqual(a.Map.Stages, c.Map.Stages) {
			t.Errorf("%s: seeds 1 and 2 give the same map", s)
		}
	}
}
