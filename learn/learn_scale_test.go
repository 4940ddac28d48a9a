package learn

import (
	"context"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/sampled"
)

// TestLearnSigmaScale is the learn section's scale benchmark, run only when
// FEATMAP_LEARN_SCALE is set to the number of rows (e.g. 100000): a shared
// rbf σ learned from that many generated rows of 10 inputs with D = 1024
// cos-sin features. It logs the time of one evaluation (objective and
// gradient), the whole LearnSigma's time and its number of evaluations;
// FEATMAP_LEARN_ONE set stops after the one evaluation, FEATMAP_LEARN_DIM
// changes D; peak memory is measured outside (/usr/bin/time -v on the test binary).
//
// Measured on the idle 2-core machine: at 10⁵ rows one evaluation takes
// 7.6 s and the whole LearnSigma 66.5 s (8 evaluations, 8 iterations,
// stopped by the relative-decrease rule; σ 1 → 3.107, validation error
// 0.05169 → 0.008581), 74 s for the whole test with the rows' generation,
// peak RSS 110 MB (/usr/bin/time -v around go test). At 10⁴ rows: 0.82 s
// per evaluation, 5.4 s in all (5 evaluations; 64 and 37 s before the
// rule, the same σ 2.701 and validation error 0.01267). One evaluation's
// cost is linear in the rows; memory holds the D×D system and a chunk of
// features, nothing of size N·D.
func TestLearnSigmaScale(t *testing.T) {
	env := os.Getenv("FEATMAP_LEARN_SCALE")
	if env == "" {
		t.Skip("set FEATMAP_LEARN_SCALE=rows to run the scale benchmark")
	}
	rows, err := strconv.Atoi(env)
	if err != nil || rows < 4 {
		t.Fatalf("FEATMAP_LEARN_SCALE=%q: want a row count ≥ 4", env)
	}
	dim := 1024
	if s := os.Getenv("FEATMAP_LEARN_DIM"); s != "" {
		if dim, err = strconv.Atoi(s); err != nil {
			t.Fatalf("FEATMAP_LEARN_DIM=%q: %v", s, err)
		}
	}
	xs, ys := toyData(rows, 10, -1, 1, 13)
	opts := LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, Dim: dim, Ridge: 1e-3,
		Penalty: 1e-4, Sampling: sampled.SamplingQMC, MaxIterations: 100}
	l, err := newLearner(context.Background(), xs, ys, opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := make([]float64, 1)
	start := time.Now()
	if _, _, err := l.eval([]float64{0}, g); err != nil {
		t.Fatal(err)
	}
	one := time.Since(start)
	if os.Getenv("FEATMAP_LEARN_ONE") != "" {
		t.Logf("rows %d, D %d: one evaluation (E and ∂E) %.2fs", rows, dim, one.Seconds())
		return
	}
	start = time.Now()
	res, err := LearnSigma(context.Background(), xs, ys, opts)
	if err != nil {
		t.Fatal(err)
	}
	all := time.Since(start)
	t.Logf("rows %d, D %d: one evaluation (E and ∂E) %.2fs; LearnSigma %.1fs, %d evaluations (+2 without gradient), %d iterations, %s; σ %.4g → %.4g, validation %.4g → %.4g",
		rows, dim, one.Seconds(), all.Seconds(), res.Evaluations, res.Iterations, res.Status, res.Start[0], res.Sigma[0], res.ValidationBefore, res.ValidationAfter)
}
