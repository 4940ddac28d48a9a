package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/design/learnplan"
	"github.com/featmap/featmap/fmap"
	digitsdata "github.com/featmap/featmap/internal/digits"
	"github.com/featmap/featmap/sampled"
)

// toyData is n-input rows uniform on [lo, hi] with a smooth target of
// the first two inputs plus noise.
func toyData(rows, n int, lo, hi float64, seed uint64) ([][]float64, []float64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	xs, ys := make([][]float64, rows), make([]float64, rows)
	for i := range xs {
		xs[i] = make([]float64, n)
		for a := range xs[i] {
			xs[i][a] = lo + (hi-lo)*rng.Float64()
		}
		ys[i] = math.Sin(3*xs[i][0]) + math.Cos(2*xs[i][1]) + 0.05*rng.NormFloat64()
	}
	return xs, ys
}

// TestLearnGradient: the closed-form gradient of the validation objective
// equals a central finite difference in log σ, for every kernel, shared
// and per-axis σ, cos-sin and phase features.
func TestLearnGradient(t *testing.T) {
	cases := []struct {
		name     string
		kernel   fmap.Kernel
		features string
		sampling string
		lo, hi   float64
	}{
		{"rbf", fmap.Kernel{Type: fmap.RBF, Sigma: []float64{0.7}}, "cos-sin", sampled.SamplingOrthogonal, -1, 1},
		{"rbf-phase", fmap.Kernel{Type: fmap.RBF, Sigma: []float64{0.7}}, "phase", sampled.SamplingRandom, -1, 1},
		{"skewed-chi2", fmap.Kernel{Type: fmap.SkewedChi2, Sigma: []float64{0.5}, C: 0.1}, "cos-sin", sampled.SamplingQMC, 0, 2},
		{"skewed-intersection", fmap.Kernel{Type: fmap.SkewedIntersection, Sigma: []float64{0.5}, C: 0.1}, "cos-sin", sampled.SamplingRandom, 0, 2},
	}
	for _, c := range cases {
		for _, perAxis := range []bool{false, true} {
			name := c.name + "/shared"
			if perAxis {
				name = c.name + "/per-axis"
			}
			t.Run(name, func(t *testing.T) {
				xs, ys := toyData(40, 3, c.lo, c.hi, 3)
				l, err := newLearner(context.Background(), xs, ys, LearnOptions{Kernel: c.kernel, PerAxis: perAxis, Dim: 16, Ridge: 1e-2,
					Penalty: 0.05, Features: c.features, Sampling: c.sampling, Seed: 2}, nil, nil)
				if err != nil {
					t.Fatal(err)
				}
				theta := []float64{0.3, -0.2, 0.1}[:l.params()]
				g := make([]float64, len(theta))
				if _, _, err := l.eval(theta, g); err != nil {
					t.Fatal(err)
				}
				// A central difference with Richardson's step (4·D(h/2) −
				// D(h))/3, error O(h⁴): the Cauchy frequencies of skewed
				// intersection make E's third derivative large.
				central := func(a int, h float64) float64 {
					p, m := slices.Clone(theta), slices.Clone(theta)
					p[a] += h
					m[a] -= h
					ep, _, err1 := l.eval(p, nil)
					em, _, err2 := l.eval(m, nil)
					if err1 != nil || err2 != nil {
						t.Fatal(err1, err2)
					}
					return (ep - em) / (2 * h)
				}
				var worst, scale float64
				for a := range theta {
					const h = 1e-4
					fd := (4*central(a, h/2) - central(a, h)) / 3
					worst = max(worst, math.Abs(fd-g[a]))
					scale = max(scale, math.Abs(g[a]))
					t.Logf("θ_%d: analytic %.12g, central difference %.12g", a, g[a], fd)
				}
				if !(scale > 0) || worst > 1e-6*scale {
					t.Errorf("gradient off a central difference by %.3g, relative %.3g (want ≤ 1e-6)", worst, worst/scale)
				}
			})
		}
	}
}

// TestLearnRecovery: 10 inputs, a target of 2 of them: per-axis learning
// gives those two σ at least 10× smaller than every other, and a
// validation error below the best shared σ of a 20-point grid (same
// features, same split).
func TestLearnRecovery(t *testing.T) {
	if testing.Short() {
		t.Skip("about 4 s of learning (1 000 rows, D = 256, per axis)")
	}
	t.Parallel()
	xs, ys := toyData(1000, 10, -1, 1, 11)
	opts := LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, PerAxis: true, Dim: 256,
		Ridge: 1e-3, Penalty: 1e-4, Seed: 5, Sampling: sampled.SamplingQMC}
	res, err := LearnSigma(context.Background(), xs, ys, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("per-axis σ %.3g; validation MSE %.4g → %.4g in %d iterations (%d evaluations, %s)",
		res.Sigma, res.ValidationBefore, res.ValidationAfter, res.Iterations, res.Evaluations, res.Status)
	if big := slices.Min(res.Sigma[2:]); !(10*max(res.Sigma[0], res.Sigma[1]) <= big) {
		t.Errorf("relevant σ %.3g, %.3g not 10× below the smallest other %.3g", res.Sigma[0], res.Sigma[1], big)
	}
	opts.PerAxis = false
	l, err := newLearner(context.Background(), xs, ys, opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	bestGrid, bestSigma := math.Inf(1), 0.0
	for i := range 20 {
		sigma := 0.05 * math.Pow(400, float64(i)/19) // 0.05 … 20
		_, mse, err := l.eval([]float64{math.Log(sigma)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if mse < bestGrid {
			bestGrid, bestSigma = mse, sigma
		}
	}
	t.Logf("best shared σ of the grid %.3g: validation MSE %.4g", bestSigma, bestGrid)
	if !(res.ValidationAfter < bestGrid) {
		t.Errorf("per-axis validation MSE %.4g not below the grid's best shared %.4g", res.ValidationAfter, bestGrid)
	}
}

// accuracy is the share of validation rows whose largest score is their
// class.
func accuracy(l *learner, theta []float64) (float64, error) {
	s, err := l.scores(theta)
	if err != nil {
		return 0, err
	}
	hit := 0
	for r, i := range l.val {
		row := s.RawRowView(r)
		if slices.Index(row, slices.Max(row)) == argmaxLabel(l, i) {
			hit++
		}
	}
	return float64(hit) / float64(len(l.val)), nil
}

// argmaxLabel is the class index of row i (its +1 target).
func argmaxLabel(l *learner, i int) int {
	y := l.y[i*l.k : (i+1)*l.k]
	return slices.Index(y, slices.Max(y))
}

// TestLearnDigits: on digits, the ridge classifier's held-out accuracy with
// the learned shared σ is at least that with the median heuristic's σ,
// over 5 seeded splits (σ learned on the training part only).
func TestLearnDigits(t *testing.T) {
	if testing.Short() {
		t.Skip("learns σ on 5 splits of digits")
	}
	t.Parallel() // shares no state with the other tests
	xs, labels, err := digitsdata.LoadLabelled("../testdata/digits.csv.gz", 1797)
	if err != nil {
		t.Fatal(err)
	}
	var sumL, sumM float64
	for seed := int64(1); seed <= 5; seed++ {
		split, err := newLearner(context.Background(), xs, labels, LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}},
			Dim: 2, Classes: true, Seed: 100 + seed}, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		trainRows, trainLabels := make([][]float64, len(split.train)), make([]float64, len(split.train))
		for r, i := range split.train {
			trainRows[r], trainLabels[r] = xs[i], labels[i]
		}
		median := digitsdata.MedianDistance(trainRows)
		opts := LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{median}}, Dim: 512, Ridge: 1e-3,
			Penalty: 1e-4, Classes: true, Seed: seed, MaxIterations: 30}
		start := time.Now()
		res, err := LearnSigma(context.Background(), trainRows, trainLabels, opts)
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		held, err := newLearner(context.Background(), xs, labels, opts, split.train, split.val)
		if err != nil {
			t.Fatal(err)
		}
		accM, err := accuracy(held, []float64{0})
		if err != nil {
			t.Fatal(err)
		}
		accL, err := accuracy(held, []float64{math.Log(res.Sigma[0] / median)})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("split %d: median σ %.4g accuracy %.4f; learned σ %.4g (validation MSE %.4g → %.4g, %d iterations, %v) accuracy %.4f",
			seed, median, accM, res.Sigma[0], res.ValidationBefore, res.ValidationAfter, res.Iterations, took.Round(time.Millisecond), accL)
		sumL += accL
		sumM += accM
	}
	t.Logf("mean held-out accuracy over 5 splits: learned σ %.4f, median heuristic %.4f", sumL/5, sumM/5)
	if sumL < sumM {
		t.Errorf("learned σ's mean accuracy %.4f below the median heuristic's %.4f", sumL/5, sumM/5)
	}
}

// BenchmarkLearnSigma learns a shared rbf σ from 10⁴ generated rows of 10
// inputs with 256 cos-sin features (one op is one whole LearnSigma).
func BenchmarkLearnSigma(b *testing.B) {
	xs, ys := toyData(10000, 10, -1, 1, 13)
	opts := LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, Dim: 256, Ridge: 1e-3,
		Penalty: 1e-4, Sampling: sampled.SamplingQMC, MaxIterations: 20}
	for b.Loop() {
		res, err := LearnSigma(context.Background(), xs, ys, opts)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.Evaluations), "evals/op")
	}
}

// TestRidge checks Ridge against the normal equations solved directly on
// the whole feature matrix (600 rows: three chunks), for classes and for
// regression.
func TestRidge(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d, lambda = 600, 5, 1e-2
	rows := make([][]float64, n)
	labels := make([]float64, n)
	feat := func(dst, x []float64) {
		dst[0], dst[1], dst[2], dst[3], dst[4] = x[0], x[1], x[0]*x[1], math.Sin(x[0]), 1
	}
	for i := range rows {
		rows[i] = []float64{rng.NormFloat64(), rng.NormFloat64()}
		labels[i] = float64(rng.IntN(3))
	}
	for _, classes := range []bool{true, false} {
		m, err := Ridge(rows, labels, classes, lambda, d, feat)
		if err != nil {
			t.Fatal(err)
		}
		k := 1
		if classes {
			k = 3
			if !slices.Equal(m.Classes, []float64{0, 1, 2}) {
				t.Fatalf("classes %v", m.Classes)
			}
		}
		z, y := mat.NewDense(n, d, nil), mat.NewDense(n, k, nil)
		for i, r := range rows {
			feat(z.RawRowView(i), r)
			for c := range k {
				v := labels[i]
				if classes {
					v = -1
					if int(labels[i]) == c {
						v = 1
					}
				}
				y.Set(i, c, v)
			}
		}
		for c := range k {
			mean := mat.Sum(y.ColView(c)) / n
			if math.Abs(m.Bias[c]-mean) > 1e-12 {
				t.Fatalf("classes %v: bias[%d] = %v, want the mean %v", classes, c, m.Bias[c], mean)
			}
			for i := range n {
				y.Set(i, c, y.At(i, c)-mean)
			}
		}
		var q, zty, w mat.Dense
		q.Mul(z.T(), z)
		for i := range d {
			q.Set(i, i, q.At(i, i)+lambda)
		}
		zty.Mul(z.T(), y)
		if err := w.Solve(&q, &zty); err != nil {
			t.Fatal(err)
		}
		for i, v := range w.RawMatrix().Data {
			if math.Abs(m.W[i]-v) > 1e-9*(1+math.Abs(v)) {
				t.Fatalf("classes %v: W[%d] = %v, want %v", classes, i, m.W[i], v)
			}
		}
	}
	if _, err := Ridge(rows, labels[:3], true, lambda, d, feat); err == nil {
		t.Fatal("want an error for rows and labels of different lengths")
	}
}

// TestLearnFewRows: learning on a split that leaves one training or one
// validation row (the least newLearner accepts) learns: fit and
// chooseRidge split those rows into fitParts parts, of which one is then
// empty, and a part without rows adds nothing (it used to make a 0-row
// matrix, a panic in its goroutine that no caller could recover).
func TestLearnFewRows(t *testing.T) {
	for _, c := range []struct {
		rows       int
		validation float64
		ridgeAuto  bool
		train, val int
	}{
		{4, 0.25, true, 3, 1}, // chooseRidge's validation parts: 0 and 1 rows
		{5, 0.8, false, 1, 4}, // fit's training parts: 0 and 1 rows
		{5, 0.8, true, 1, 4},  // both
		{8, 0.25, true, 6, 2}, // one row in each part
	} {
		xs, ys := toyData(c.rows, 2, 0, 1, 7)
		res, err := LearnSigma(context.Background(), xs, ys, LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}},
			Dim: 8, Validation: c.validation, RidgeAuto: c.ridgeAuto})
		if err != nil || res.Train != c.train || res.Held != c.val || !(res.ValidationAfter <= res.ValidationBefore) {
			t.Errorf("%d rows, validation %v, ridge auto %v: %d training and %d validation rows, validation error %v → %v, %v; want %d and %d rows, no worse",
				c.rows, c.validation, c.ridgeAuto, res.Train, res.Held, res.ValidationBefore, res.ValidationAfter, err, c.train, c.val)
		}
	}
}

// TestLearnMaxDim: learning with more than learnplan.MaxLearnDim features is refused
// before anything is drawn or allocated; learnplan.MaxLearnDim itself is accepted.
func TestLearnMaxDim(t *testing.T) {
	xs, ys := toyData(8, 2, 0, 1, 7)
	o := LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, Dim: learnplan.MaxLearnDim + 2}
	if _, err := newLearner(context.Background(), xs, ys, o, nil, nil); err == nil || !strings.Contains(err.Error(), "MaxLearnDim") {
		t.Errorf("D = %d: error %v, want one naming MaxLearnDim", o.Dim, err)
	}
	o.Dim = learnplan.MaxLearnDim
	if _, err := newLearner(context.Background(), xs, ys, o, nil, nil); err != nil {
		t.Errorf("D = MaxLearnDim: %v", err)
	}
}

// TestLearnSharedFirst: per axis with SharedFirst learns a shared σ first
// and starts from it (Shared, the start reported the given one), and ends
// at a validation error no higher than the shared σ's.
func TestLearnSharedFirst(t *testing.T) {
	xs, ys := toyData(300, 4, -1, 1, 3)
	opts := LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, PerAxis: true, SharedFirst: true,
		Dim: 32, Ridge: 1e-3, Seed: 2, MaxIterations: 20}
	res, err := LearnSigma(context.Background(), xs, ys, opts)
	if err != nil {
		t.Fatal(err)
	}
	shared, err := LearnSigma(context.Background(), xs, ys, LearnOptions{Kernel: opts.Kernel, Dim: 32, Ridge: 1e-3, Seed: 2, MaxIterations: 20})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Shared, shared.Sigma) || !slices.Equal(res.Start, shared.Start) || res.ValidationBefore != shared.ValidationBefore {
		t.Errorf("shared first: started from %v (start %v), want the shared σ %v (start %v)", res.Shared, res.Start, shared.Sigma, shared.Start)
	}
	if !(res.ValidationAfter <= shared.ValidationAfter*(1+1e-9)) {
		t.Errorf("per axis from the shared σ: validation error %v above the shared σ's %v", res.ValidationAfter, shared.ValidationAfter)
	}
}

// TestLearnLaplacianMatern: the kernels with a σ whose frequencies rff
// draws otherwise (the Laplacian's Cauchy law per axis, Matérn's
// multivariate t law) learn σ too, lowering the validation error.
func TestLearnLaplacianMatern(t *testing.T) {
	xs, ys := toyData(300, 3, -1, 1, 4)
	for _, k := range []fmap.Kernel{{Type: fmap.Laplacian, Sigma: []float64{3}}, {Type: fmap.Matern, Sigma: []float64{3}, Nu: 1.5}} {
		res, err := LearnSigma(context.Background(), xs, ys, LearnOptions{Kernel: k, Dim: 64, Ridge: 1e-3, Seed: 2, MaxIterations: 30})
		if err != nil {
			t.Fatalf("%s: %v", k.Type, err)
		}
		if !(res.ValidationAfter < res.ValidationBefore) || !(res.Sigma[0] > 0) {
			t.Errorf("%s: σ %v, validation error %v → %v", k.Type, res.Sigma, res.ValidationBefore, res.ValidationAfter)
		}
		t.Logf("%s: σ 3 → %.4g, validation error %.4g → %.4g", k.Type, res.Sigma[0], res.ValidationBefore, res.ValidationAfter)
	}
}
