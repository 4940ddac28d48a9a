package sampled

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	digitsdata "github.com/featmap/featmap/internal/digits"
)

// digitsProblem is the kernel on 64 inputs in [0, hi] with the digits rows
// split: the first 1400 to fit, the other 397 held out.
func digitsProblem(k fmap.Kernel, hi float64, xs [][]float64) *fmap.Problem {
	return &fmap.Problem{Kernel: k, Measure: fmap.Absolute, Norm: fmap.LInf,
		Domain: fmap.Domain{Lo: make([]float64, 64), Hi: slices.Repeat([]float64{hi}, 64)},
		Data:   &fmap.Data{File: "digits", Rows: len(xs), Fit: xs[:1400], Held: xs[1400:]}}
}

// nystroemMap designs a Nyström map of p at dim.
func nystroemMap(t testing.TB, p *fmap.Problem, dim int, opts NystroemOptions) *fmap.Map {
	t.Helper()
	res, err := (&Nystroem{Opts: opts}).Design(context.Background(), p, dim, design.Settings{})
	if err != nil {
		t.Fatalf("nystroem %+v, D = %d: %v", opts, dim, err)
	}
	if res.Map.Dim != dim {
		t.Fatalf("D = %d, want %d", res.Map.Dim, dim)
	}
	return res.Map
}

// TestNystroemKMeansSpace: k-means landmarks are Lloyd's fixed point in
// the space where the kernel's k-means distance is Euclidean: for exp-χ²
// every landmark l is the square of the mean of √x over the rows whose √x
// is nearest to √l, for skewed χ² exp of the mean of log(x + c) minus c
// (to 1e-12 there), not the mean of x over them (which the skewed kernels'
// k-means took before, with log distances but plain means).
func TestNystroemKMeansSpace(t *testing.T) {
	hs := digitsdata.L1Normalised(digits(t, 1797))
	const c = 0.01
	for _, sp := range []struct {
		name     string
		kernel   fmap.Kernel
		to, back func(float64) float64
	}{
		{"exp-chi2", fmap.Kernel{Type: fmap.ExpChi2, Beta: 1}, math.Sqrt, func(u float64) float64 { return u * u }},
		{"skewed-chi2", fmap.Kernel{Type: fmap.SkewedChi2, Sigma: slices.Repeat([]float64{0.2}, 64), C: c},
			func(x float64) float64 { return math.Log(x + c) }, func(u float64) float64 { return math.Exp(u) - c }},
	} {
		p := digitsProblem(sp.kernel, 1, hs)
		p.Data.Fit = hs[:300]
		m := nystroemMap(t, p, 8, NystroemOptions{Landmarks: "kmeans"})
		land := m.Stages[0].Kind.(*fmap.Nystroem).Landmarks
		centre := make([][]float64, 8)
		for j := range centre {
			centre[j] = make([]float64, 64)
			for a := range centre[j] {
				centre[j][a] = sp.to(land[j*64+a])
			}
		}
		sumU, sumX := make([][]float64, 8), make([][]float64, 8)
		count := make([]int, 8)
		for _, x := range p.Data.Fit {
			u := make([]float64, len(x))
			for a, v := range x {
				u[a] = sp.to(v)
			}
			best, bd := 0, math.Inf(1)
			for j, c := range centre {
				if d := euclidean(u, c); d < bd {
					best, bd = j, d
				}
			}
			if sumU[best] == nil {
				sumU[best], sumX[best] = make([]float64, 64), make([]float64, 64)
			}
			for a := range u {
				sumU[best][a] += u[a]
				sumX[best][a] += x[a]
			}
			count[best]++
		}
		var worstU, worstX float64
		for j := range centre {
			if count[j] == 0 {
				t.Fatalf("%s: landmark %d has no rows", sp.name, j)
			}
			for a := range centre[j] {
				worstU = math.Max(worstU, math.Abs(land[j*64+a]-sp.back(sumU[j][a]/float64(count[j]))))
				worstX = math.Max(worstX, math.Abs(land[j*64+a]-sumX[j][a]/float64(count[j])))
			}
		}
		t.Logf("%s: largest |l − back(mean of the rows' images)| %.3g, |l − mean x| %.3g", sp.name, worstU, worstX)
		if worstU > 1e-12 {
			t.Errorf("%s: landmarks differ from the mapped-back means over their rows by up to %.3g", sp.name, worstU)
		}
		if worstX < 1e-6 {
			t.Errorf("%s: landmarks are the means of x over their rows (to %.3g): k-means ran on x", sp.name, worstX)
		}
	}
}

// TestNystroemExactOnLandmarks: Ψ(l_i)·Ψ(l_j) = K(l_i, l_j) on the
// landmarks (k_lᵀ W⁺ k_l = W when W has full rank), to 1e-9; the same seed
// gives the same map, another seed another.
func TestNystroemExactOnLandmarks(t *testing.T) {
	xs := digits(t, 1797)
	k := fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{40.0}, 64)}
	p := digitsProblem(k, 16, xs)
	for _, how := range []string{"kmeans", "random", "kmeans++"} {
		m := nystroemMap(t, p, 32, NystroemOptions{Landmarks: how})
		st := m.Stages[0].Kind.(*fmap.Nystroem)
		worst := 0.0
		for i := range 32 {
			for j := range 32 {
				worst = math.Max(worst, math.Abs(m.Dot(st.Landmark(i), st.Landmark(j))-k.Eval(st.Landmark(i), st.Landmark(j))))
			}
		}
		if worst > 1e-9 {
			t.Errorf("%s: Ψ(l_i)·Ψ(l_j) off K by %.3g", how, worst)
		}
		again := nystroemMap(t, p, 32, NystroemOptions{Landmarks: how})
		other := nystroemMap(t, p, 32, NystroemOptions{Landmarks: how, Seed: 7})
		if !reflect.DeepEqual(m, again) {
			t.Errorf("%s: two designs differ", how)
		}
		if reflect.DeepEqual(m.Stages, other.Stages) {
			t.Errorf("%s: seeds 1 and 7 give the same map", how)
		}
	}
}

// TestNystroemErrors: without data, with fewer rows than landmarks, or
// beyond MaxLandmarks, a clear error.
func TestNystroemErrors(t *testing.T) {
	xs := digits(t, 1797)
	k := fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{40.0}, 64)}
	p := digitsProblem(k, 16, xs)
	p.Data.Fit = xs[:50]
	for name, c := range map[string]struct {
		p    *fmap.Problem
		dim  int
		want string
	}{
		"no data":   {&fmap.Problem{Kernel: k, Domain: p.Domain, Measure: fmap.Absolute, Norm: fmap.LInf}, 8, "needs a data section"},
		"few rows":  {p, 64, "nystroem's D landmarks are rows of the data, and digits has 50 rows to fit (after the 397 held out): at most 50"},
		"too large": {p, MaxLandmarks + 2, "at most"},
	} {
		_, err := (&Nystroem{}).Design(context.Background(), c.p, c.dim, design.Settings{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error containing %q", name, err, c.want)
		}
	}
}

// TestNystroemRankDeficient: with fewer distinct rows than landmarks, W is
// singular; its null eigenvalues are dropped and counted in the stage, the
// map keeps D components and is still exact on the distinct rows.
func TestNystroemRankDeficient(t *testing.T) {
	xs := digits(t, 3)
	var rows [][]float64
	for range 20 {
		rows = append(rows, xs...)
	}
	k := fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{40.0}, 64)}
	p := digitsProblem(k, 16, digits(t, 1797))
	p.Data.Fit, p.Data.Held = rows, xs
	m := nystroemMap(t, p, 8, NystroemOptions{Landmarks: "random"})
	st := m.Stages[0].Kind.(*fmap.Nystroem)
	if st.Dropped != 5 || m.Dim != 8 {
		t.Errorf("dropped %d eigenvalues, D = %d; want 5 (8 landmarks among 3 distinct rows) and 8", st.Dropped, m.Dim)
	}
	for _, x := range xs {
		for _, y := range xs {
			if d := math.Abs(m.Dot(x, y) - k.Eval(x, y)); d > 1e-9 {
				t.Errorf("Ψ(x)·Ψ(y) off K by %.3g on the distinct rows", d)
			}
		}
	}
}

// TestNystroemRandomDistinct: random landmarks are rows of distinct
// values, not distinct rows of the file: with every row to fit repeated
// ten times (14 000 rows, 1400 distinct) the 256 landmarks of seeds 1–4
// are 256 distinct rows and W is not singular (none of its eigenvalues
// dropped; 19–23 were, of 233–237 distinct landmarks, when rows were
// drawn as they came), and the held-out Gram error, averaged over the
// seeds, is within 10 % of that of the rows without repeats (other draws
// of the same rows; measured 1.07×, 1.14× before).
func TestNystroemRandomDistinct(t *testing.T) {
	xs := digits(t, 1797)
	k := fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{digitsdata.MedianDistance(xs[:400])}, 64)}
	once := digitsProblem(k, 16, xs)
	rep := digitsProblem(k, 16, xs)
	rep.Data.Fit = nil
	for range 10 {
		rep.Data.Fit = append(rep.Data.Fit, xs[:1400]...)
	}
	const dim, seeds = 256, 4
	var eRep, eOnce float64
	for seed := int64(1); seed <= seeds; seed++ {
		m := nystroemMap(t, rep, dim, NystroemOptions{Landmarks: "random", Seed: seed})
		st := m.Stages[0].Kind.(*fmap.Nystroem)
		seen := map[string]bool{}
		for j := range st.Size() {
			seen[fmt.Sprint(st.Landmark(j))] = true
		}
		r := fmap.VerifyData(m, rep.Data).Frobenius
		o := fmap.VerifyData(nystroemMap(t, once, dim, NystroemOptions{Landmarks: "random", Seed: seed}), once.Data).Frobenius
		eRep, eOnce = eRep+r/seeds, eOnce+o/seeds
		t.Logf("seed %d: %d distinct landmarks of %d, %d eigenvalues dropped; held-out Gram error %.4g (rows without repeats: %.4g)", seed, len(seen), dim, st.Dropped, r, o)
		if len(seen) != dim || st.Dropped != 0 {
			t.Errorf("seed %d: %d distinct landmarks, %d eigenvalues dropped; want %d and 0", seed, len(seen), st.Dropped, dim)
		}
	}
	t.Logf("mean held-out Gram error %.4g, %.4g without repeats (%.3g×)", eRep, eOnce, eRep/eOnce)
	if eRep > 1.1*eOnce {
		t.Errorf("mean held-out Gram error %.4g, %.3g× that without repeats (%.4g)", eRep, eRep/eOnce, eOnce)
	}
}

// additiveProblem is the additive kernel k on the digits' pixel values
// {0..16} (one axis, every coordinate), the rows split as in digitsProblem.
func additiveProblem(k fmap.Kernel, xs [][]float64) *fmap.Problem {
	return &fmap.Problem{Kernel: k, Measure: fmap.Absolute, Norm: fmap.LInf, Negative: fmap.NegativeSign,
		Domain: fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{16}},
		Data:   &fmap.Data{File: "digits", Rows: len(xs), Fit: xs[:1400], Held: xs[1400:]}}
}

// TestNystroemAdditive: for the additive kernels (χ², intersection, JS,
// Hellinger summed over the 64 pixels) a Nyström map takes whole rows: 64
// inputs, the domain's axis on each, exact on its landmarks (Ψ(l_i)·Ψ(l_j)
// = K(l_i, l_j) to 1e-9 relative), and verified on the held-out rows and on
// the rows of equal coordinates (fmap.Verify), both stated. Measured at
// D = 32: held-out Gram error χ² 0.017, intersection 0.050, JS 0.012,
// Hellinger 0.0062.
func TestNystroemAdditive(t *testing.T) {
	t.Parallel()
	xs := digits(t, 1797)
	types := fmap.HomogeneousTypes()
	if testing.Short() {
		types = types[:1] // χ² (about 3 s per kernel)
	}
	for _, typ := range types {
		k := fmap.Kernel{Type: typ, Gamma: 1}
		p := additiveProblem(k, xs)
		m := nystroemMap(t, p, 32, NystroemOptions{})
		if m.InDim != 64 || m.Domain.Dims() != 64 || !m.Domain.Integer || m.Domain.Lo[63] != 0 || m.Domain.Hi[63] != 16 || !m.WholeRows() {
			t.Fatalf("%s: InDim %d, domain %+v: want 64 inputs, {0..16} on each", typ, m.InDim, m.Domain)
		}
		st := m.Stages[0].Kind.(*fmap.Nystroem)
		pi, pj := make([]float64, 32), make([]float64, 32)
		for _, ij := range [][2]int{{0, 0}, {3, 17}, {31, 5}} {
			li, lj := st.Landmark(ij[0]), st.Landmark(ij[1])
			m.Eval(pi, li)
			m.Eval(pj, lj)
			var dot float64
			for c := range pi {
				dot += pi[c] * pj[c]
			}
			if want := k.Eval(li, lj); math.Abs(dot-want) > 1e-9*want {
				t.Errorf("%s: Ψ(l_%d)·Ψ(l_%d) = %v, K = %v", typ, ij[0], ij[1], dot, want)
			}
		}
		ref, err := p.Reference()
		if err != nil {
			t.Fatal(err)
		}
		v := fmap.Verify(m, ref)
		if v.Data == nil || !(v.Data.Frobenius > 0 && v.Data.Frobenius < 0.1) || !strings.Contains(v.Data.Absolute.On, "397 held-out rows") {
			t.Errorf("%s: data error %+v, want a held-out Gram error in (0, 0.1) on 397 rows", typ, v.Data)
		}
		if !strings.Contains(v.Reported.On, "rows (v, …, v) of 64 equal coordinates") || !v.Reported.Finite() {
			t.Errorf("%s: domain error %v, want it on the rows of equal coordinates", typ, v.Reported)
		}
		t.Logf("%s D = 32: held-out Gram error %.4g; on the rows of equal coordinates %v", typ, v.Data.Frobenius, v.Reported)
	}
}

// jitteredDigits returns rows rows of 64 values in [0, 16]: the digits rows
// in turn, each pixel moved by a uniform amount in [−1, 1] (seeded) and
// clamped.
func jitteredDigits(t testing.TB, rows int) [][]float64 {
	xs := digits(t, 1797)
	rng := rand.New(rand.NewPCG(3, 4))
	out := make([][]float64, rows)
	for i := range out {
		x := slices.Clone(xs[i%len(xs)])
		for j := range x {
			x[j] = math.Min(16, math.Max(0, x[j]+2*rng.Float64()-1))
		}
		out[i] = x
	}
	return out
}

// TestNystroemKMeansSample: with more rows to fit than MaxKMeansRows,
// k-means runs on a sample of exactly MaxKMeansRows of them (said in the
// progress), and the same seed gives the same landmarks.
func TestNystroemKMeansSample(t *testing.T) {
	xs := jitteredDigits(t, MaxKMeansRows+5000)
	p := additiveProblem(fmap.Kernel{Type: fmap.Chi2, Gamma: 1}, xs)
	p.Data.Fit, p.Data.Held = xs[:MaxKMeansRows+4000], xs[MaxKMeansRows+4000:]
	var said []string
	s := design.Settings{Progress: func(m string) { said = append(said, m) }}
	var lands [][]float64
	for range 2 {
		res, err := (&Nystroem{}).Design(context.Background(), p, 4, s)
		if err != nil {
			t.Fatal(err)
		}
		lands = append(lands, res.Map.Stages[0].Kind.(*fmap.Nystroem).Landmarks)
	}
	if want := fmt.Sprintf("k-means of %d rows into 4 landmarks", MaxKMeansRows); len(said) == 0 || !strings.Contains(said[0], want) {
		t.Errorf("progress %q, want %q", said, want)
	}
	if !slices.Equal(lands[0], lands[1]) {
		t.Error("two designs with the same seed chose different landmarks")
	}
}

// BenchmarkKMeans256 times k-means into D = 256 landmarks on 20 000 rows of
// 64 values (jittered digits), the largest sample the method runs on, and
// reports the iterations and the time per iteration (D·rows·n = 328 M
// distance terms each).
func BenchmarkKMeans256(b *testing.B) {
	xs := jitteredDigits(b, MaxKMeansRows)
	dist := distFor(fmap.Kernel{Type: fmap.Chi2, Gamma: 1})
	for b.Loop() {
		start := time.Now()
		_, iters, err := kmeans(context.Background(), xs, 256, dist, rand.New(rand.NewPCG(1, 2)))
		if err != nil {
			b.Fatal(err)
		}
		el := time.Since(start)
		b.ReportMetric(float64(iters), "iterations")
		b.ReportMetric(el.Seconds()/float64(iters), "s/iteration")
	}
}

// TestInvSqrtCancelled: the D × D eigendecomposition of W (seconds at D
// = 700 on a loaded machine) gives way to a cancelled context: invSqrt
// returns the context's error soon after the deadline, not when the
// factorisation is done.
func TestInvSqrtCancelled(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	land := make([][]float64, 700)
	for i := range land {
		land[i] = []float64{rng.Float64() * 10, rng.Float64() * 10}
	}
	k := fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1, 1}}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, _, err := invSqrt(ctx, k, land)
	took := time.Since(start)
	if err != context.DeadlineExceeded {
		t.Fatalf("err %v after %v, want context.DeadlineExceeded", err, took)
	}
	if took > 500*time.Millisecond {
		t.Errorf("returned %v after the start, the deadline 20 ms: want under 500 ms", took)
	}
}

// TestNystroemCancelLandmarks: a context cancelled while the landmarks are
// chosen stops the choice: on 60 000 rows of 64 values into D = 1024
// landmarks (the k-means++ seeding alone, on every row to fit: 3.9·10⁹
// distance terms, seconds) and by k-means (its k-means++ start on the
// 20 000-row sample, then Lloyd's iterations of 1.3·10⁹ terms each),
// Design returns the context's error soon after the cancel.
func TestNystroemCancelLandmarks(t *testing.T) {
	if testing.Short() {
		t.Skip("seconds of k-means++ if the cancel is missed")
	}
	xs := jitteredDigits(t, 60_000)
	p := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{20}, 64)}, Measure: fmap.Absolute, Norm: fmap.LInf,
		Domain: fmap.Domain{Lo: make([]float64, 64), Hi: slices.Repeat([]float64{16.0}, 64)},
		Data:   &fmap.Data{File: "jittered digits", Rows: len(xs), Fit: xs[:59_000], Held: xs[59_000:]}}
	for _, how := range []string{"kmeans++", "kmeans"} {
		cancelledSoon(t, how, 200*time.Millisecond, 2*time.Second, func(ctx context.Context) error {
			_, err := (&Nystroem{Opts: NystroemOptions{Landmarks: how}}).Design(ctx, p, 1024, design.Settings{})
			return err
		})
	}
}
