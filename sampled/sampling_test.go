package sampled

import (
	"encoding/csv"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// refRows reads testdata/rff_refs.csv: the rff_* rows of the project's
// reference values (docs/formulas.md §5.3), computed with mpmath/numpy.
func refRows(t *testing.T) [][]string {
	t.Helper()
	f, err := os.Open("testdata/rff_refs.csv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows[1:]
}

// param returns the value of key in a "k=v;k=v" parameter string.
func param(t *testing.T, params, key string) string {
	t.Helper()
	for kv := range strings.SplitSeq(params, ";") {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	t.Fatalf("no %s in %q", key, params)
	return ""
}

func num(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestQuantilesMatchReferences checks h(u) of the three laws against the
// reference quantiles (docs/formulas.md §5.3, computed from the exact
// decimal u), to 4 ulps of h plus what rounding u to a float64 moves h by,
// |h'(u)|·ulp(u) (the tails are ill-conditioned: at u = 0.01 the Cauchy
// quantile's condition number u·h'/h is 32).
func TestQuantilesMatchReferences(t *testing.T) {
	laws := map[string]func(float64) Law{
		"rff_quantile_gaussian": GaussianLaw,
		"rff_quantile_skchi2":   SkewedChi2Law,
		"rff_quantile_skinters": SkewedIntersectionLaw,
	}
	n := 0
	for _, r := range refRows(t) {
		law, ok := laws[r[0]]
		if !ok {
			continue
		}
		n++
		sigma, u, want := num(t, param(t, r[1], "sigma")), num(t, r[2]), num(t, r[4])
		h := law(sigma)
		got := h(u)
		slope := math.Abs(h(u+1e-7)-h(u-1e-7)) / 2e-7
		if math.Abs(got-want) > 4e-16*math.Max(1, math.Abs(want))+slope*2.3e-16*u {
			t.Errorf("%s σ=%g: h(%g) = %.17g, want %.17g", r[0], sigma, u, got, want)
		}
	}
	if n < 20 {
		t.Fatalf("only %d quantile rows", n)
	}
}

// TestQuantileInvertsCDF checks F(h(u)) = u for the three laws on 999
// values of u (the CDFs of docs/formulas.md §5.1).
func TestQuantileInvertsCDF(t *testing.T) {
	for _, sigma := range []float64{0.5, 1, 2} {
		cdfs := map[string]struct {
			law Law
			cdf func(float64) float64
		}{
			"gaussian":     {GaussianLaw(sigma), func(w float64) float64 { return 0.5 * math.Erfc(-w*sigma/math.Sqrt2) }},
			"skewed-chi2":  {SkewedChi2Law(sigma), func(w float64) float64 { return 2 / math.Pi * math.Atan(math.Exp(math.Pi*w/(2*sigma))) }},
			"skewed-inter": {SkewedIntersectionLaw(sigma), func(w float64) float64 { return 0.5 + math.Atan(w/sigma)/math.Pi }},
		}
		for name, c := range cdfs {
			for i := 1; i < 1000; i++ {
				u := float64(i) / 1000
				if got := c.cdf(c.law(u)); math.Abs(got-u) > 1e-14 {
					t.Errorf("%s σ=%g: F(h(%g)) = %.17g", name, sigma, u, got)
				}
			}
		}
	}
	// The Gaussian tail branch (r > 5 in AS 241) and the ends.
	for _, p := range []float64{1e-300, 1e-20, 1e-12} {
		if got := 0.5 * math.Erfc(-NormalQuantile(p)/math.Sqrt2); math.Abs(got-p) > 1e-13*p {
			t.Errorf("Φ(Φ⁻¹(%g)) = %g", p, got)
		}
	}
	if !math.IsInf(NormalQuantile(0), -1) || !math.IsInf(NormalQuantile(1), 1) || !math.IsNaN(NormalQuantile(1.5)) || !math.IsNaN(NormalQuantile(math.NaN())) {
		t.Error("Φ⁻¹ at 0, 1, 1.5 and NaN: want -Inf, +Inf, NaN, NaN")
	}
}

// TestFeaturesMatchReferences builds the reference d = 4 phase-form maps
// of docs/formulas.md §5.3 (explicit u and b) and compares Ψ(x) with the
// reference components.
func TestFeaturesMatchReferences(t *testing.T) {
	type stage struct {
		kernel fmap.Kernel
		law    func(float64) Law
		tr     fmap.Transform
	}
	kinds := map[string]stage{
		"rff_feature_gaussian": {fmap.Kernel{Type: fmap.RBF}, GaussianLaw, fmap.Identity},
		"rff_feature_skchi2":   {fmap.Kernel{Type: fmap.SkewedChi2}, SkewedChi2Law, fmap.LogOffset},
		"rff_feature_skinters": {fmap.Kernel{Type: fmap.SkewedIntersection}, SkewedIntersectionLaw, fmap.LogOffset},
	}
	got := map[string][]float64{}
	n := 0
	for _, r := range refRows(t) {
		k, ok := kinds[r[0]]
		if !ok {
			continue
		}
		n++
		if got[r[0]] == nil {
			sigma, c := num(t, param(t, r[1], "sigma")), num(t, param(t, r[1], "c"))
			us := parseMatrix(t, param(t, r[1], "u"))
			b := parseMatrix(t, param(t, r[1], "b"))[0]
			x := parseMatrix(t, strings.ReplaceAll(r[2], ";", ","))[0]
			law := k.law(sigma)
			rs := &fmap.Random{Features: fmap.Phase, Transform: k.tr, In: len(x), Phase: b}
			if k.tr == fmap.LogOffset {
				rs.Offset = c
			}
			for _, row := range us {
				for _, u := range row {
					rs.Freq = append(rs.Freq, law(u))
				}
			}
			kern := k.kernel
			kern.Sigma, kern.C = slices.Repeat([]float64{sigma}, len(x)), c
			if k.tr == fmap.Identity {
				kern.C = 0
			}
			m := &fmap.Map{Kernel: kern, InDim: len(x), Dim: len(b), Domain: fmap.Domain{Lo: make([]float64, len(x)), Hi: slices.Repeat([]float64{1}, len(x))},
				Method: "rff", Stages: []fmap.Stage{{Kind: rs}}}
			if err := m.Validate(); err != nil {
				t.Fatalf("%s: %v", r[0], err)
			}
			got[r[0]] = make([]float64, m.Dim)
			m.Eval(got[r[0]], x)
		}
		i := int(num(t, r[3]))
		if want := num(t, r[4]); math.Abs(got[r[0]][i]-want) > 1e-14 {
			t.Errorf("%s component %d = %.17g, want %.17g", r[0], i, got[r[0]][i], want)
		}
	}
	if n != 12 {
		t.Fatalf("%d feature rows, want 12", n)
	}
}

// parseMatrix parses "[[a,b],[c,d]]" or "[a,b]" into rows.
func parseMatrix(t *testing.T, s string) [][]float64 {
	t.Helper()
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "[[") {
		s = "[" + s + "]"
	}
	var out [][]float64
	for row := range strings.SplitSeq(strings.TrimSuffix(strings.TrimPrefix(s, "[["), "]]"), "],[") {
		var r []float64
		for v := range strings.SplitSeq(row, ",") {
			r = append(r, num(t, strings.TrimSpace(v)))
		}
		out = append(out, r)
	}
	return out
}

// TestFrequenciesDeterministic: the same arguments give the same
// frequencies bit for bit; another seed gives others.
func TestFrequenciesDeterministic(t *testing.T) {
	laws := slices.Repeat([]Law{GaussianLaw(2)}, 5)
	sig := slices.Repeat([]float64{2.0}, 5)
	for _, s := range []string{SamplingRandom, SamplingQMC, SamplingOrthogonal} {
		a, err := Frequencies(37, 5, laws, sig, s, 7)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := Frequencies(37, 5, laws, sig, s, 7)
		c, _ := Frequencies(37, 5, laws, sig, s, 8)
		if !slices.Equal(a, b) {
			t.Errorf("%s: two draws with seed 7 differ", s)
		}
		if slices.Equal(a, c) {
			t.Errorf("%s: seeds 7 and 8 give the same frequencies", s)
		}
	}
	if !slices.Equal(Phases(9, SamplingQMC, 3), Phases(9, SamplingQMC, 3)) || slices.Equal(Phases(9, SamplingRandom, 3), Phases(9, SamplingRandom, 4)) {
		t.Error("phases are not a function of the seed")
	}
	for _, b := range append(Phases(1000, SamplingQMC, 1), Phases(1000, SamplingRandom, 1)...) {
		if !(b > 0 && b < 2*math.Pi) {
			t.Fatalf("phase %v outside (0, 2π)", b)
		}
	}
}

// TestOrthogonalBlocks: within a block of n rows the directions are
// orthogonal, and each row's squared norm (χ²_n, mean n·/σ²) averages n/σ²
// over many rows; rows of different blocks are not orthogonal.
func TestOrthogonalBlocks(t *testing.T) {
	const n, m, sigma = 8, 4000, 2.0
	w, err := Frequencies(m, n, nil, slices.Repeat([]float64{sigma}, n), SamplingOrthogonal, 1)
	if err != nil {
		t.Fatal(err)
	}
	row := func(i int) []float64 { return w[i*n : (i+1)*n] }
	dot := func(a, b []float64) (s float64) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	var sq float64
	for i := range m {
		sq += dot(row(i), row(i))
		for j := i - i%n; j < i; j++ {
			if c := dot(row(i), row(j)) / math.Sqrt(dot(row(i), row(i))*dot(row(j), row(j))); math.Abs(c) > 1e-12 {
				t.Fatalf("rows %d and %d of one block: cosine %g", i, j, c)
			}
		}
	}
	// E‖ω‖² = n/σ² = 2; its standard error over 4000 rows is
	// √(2n)/σ²/√4000 = 0.016: allow 5 of them.
	if mean := sq / m; math.Abs(mean-n/(sigma*sigma)) > 0.08 {
		t.Errorf("mean squared norm %g, want %g ± 0.08", mean, n/(sigma*sigma))
	}
	if c := dot(row(0), row(n)); math.Abs(c) < 1e-6 {
		t.Errorf("rows 0 and %d of different blocks are orthogonal (%g): blocks are not independent", n, c)
	}
	// Each coordinate is N(0, 1/σ²): its variance over all rows.
	var v float64
	for _, x := range w {
		v += x * x
	}
	if v /= float64(len(w)); math.Abs(v-1/(sigma*sigma)) > 0.02 {
		t.Errorf("coordinate variance %g, want 0.25 ± 0.02", v)
	}
}

// TestQMCIntegratesBetter: the uniforms of qmc put one point in each of
// the m strata of every coordinate (u = Φ(ω) recovers them from Gaussian
// frequencies), and they integrate a smooth product function,
// f(u) = Π_j (1 + (u_j − ½)/j) with ∫f = 1, with an RMS error over 20
// seeds at least 8 times below plain Monte Carlo's at m = 1024, n = 8
// (measured: 17 times).
func TestQMCIntegratesBetter(t *testing.T) {
	const m, n = 1024, 8
	w, err := Frequencies(m, n, slices.Repeat([]Law{GaussianLaw(1)}, n), nil, SamplingQMC, 3)
	if err != nil {
		t.Fatal(err)
	}
	for j := range n {
		seen := make([]bool, m)
		for i := range m {
			u := 0.5 * math.Erfc(-w[i*n+j]/math.Sqrt2)
			seen[min(int(u*m), m-1)] = true
		}
		if empty := slices.Index(seen, false); empty >= 0 {
			t.Errorf("coordinate %d: stratum %d of %d is empty", j, empty, m)
		}
	}
	rms := func(sampling string) float64 {
		var s float64
		for seed := range int64(20) {
			w, err := Frequencies(m, n, slices.Repeat([]Law{GaussianLaw(1)}, n), nil, sampling, seed)
			if err != nil {
				t.Fatal(err)
			}
			var mean float64
			for i := range m {
				f := 1.0
				for j := range n {
					f *= 1 + (0.5*math.Erfc(-w[i*n+j]/math.Sqrt2)-0.5)/float64(j+1)
				}
				mean += f / m
			}
			s += (mean - 1) * (mean - 1) / 20
		}
		return math.Sqrt(s)
	}
	mc, qmc := rms(SamplingRandom), rms(SamplingQMC)
	t.Logf("RMS integration error: random %.3g, qmc %.3g (%.1f×)", mc, qmc, mc/qmc)
	if qmc*8 > mc {
		t.Errorf("qmc RMS error %.3g, not 8× below random's %.3g", qmc, mc)
	}
}

// TestFrequencyErrors: bad sizes, a mismatch of laws and an unknown
// sampling are errors, and the orthogonal work limit is checked before any
// work.
func TestFrequencyErrors(t *testing.T) {
	g := []Law{GaussianLaw(1)}
	for name, f := range map[string]func() error{
		"no frequencies": func() error { _, err := Frequencies(0, 1, g, []float64{1}, SamplingRandom, 1); return err },
		"laws":           func() error { _, err := Frequencies(3, 2, g, nil, SamplingQMC, 1); return err },
		"widths":         func() error { _, err := Frequencies(3, 2, nil, []float64{1}, SamplingOrthogonal, 1); return err },
		"unknown":        func() error { _, err := Frequencies(3, 1, g, []float64{1}, "sobol", 1); return err },
		"too much work": func() error {
			_, err := Frequencies(1<<12, 1<<12, nil, slices.Repeat([]float64{1}, 1<<12), SamplingOrthogonal, 1)
			return err
		},
		"non-finite": func() error {
			_, err := Frequencies(3, 1, []Law{GaussianLaw(1e-320)}, nil, SamplingRandom, 1)
			return err
		},
	} {
		if f() == nil {
			t.Errorf("%s: no error", name)
		}
	}
}
