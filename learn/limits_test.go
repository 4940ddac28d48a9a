package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// isotropic is n-input rows uniform on [−1, 1] with a noisy target of
// their norm: every axis matters alike, so per-axis widths have nothing to
// find but noise.
func isotropic(rows, n int, seed uint64) ([][]float64, []float64) {
	rng := rand.New(rand.NewPCG(seed, 9))
	xs, ys := make([][]float64, rows), make([]float64, rows)
	for i := range xs {
		xs[i] = make([]float64, n)
		var r2 float64
		for a := range xs[i] {
			xs[i][a] = 2*rng.Float64() - 1
			r2 += xs[i][a] * xs[i][a]
		}
		ys[i] = math.Cos(2*math.Sqrt(r2)) + 0.3*rng.NormFloat64()
	}
	return xs, ys
}

// TestPerAxisFallsBack: per axis, the widths learned from the shared σ
// are kept only when their nested cross-validated error is below the
// shared σ's by more than a standard error: on 80 rows of an isotropic target, where every axis matters
// alike, they are not, and the result is the shared σ, its λ and
// validation error, saying so (PerAxis.Kept false, the per-axis widths set
// aside); on toyData, whose target depends on two of the four inputs,
// they are kept. Either way the two errors are nestedCV's; pairedMeans'
// standard error is that of the mean of the rows' differences.
func TestPerAxisFallsBack(t *testing.T) {
	o := LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, PerAxis: true, SharedFirst: true, Dim: 32, Seed: 2}
	shared := o
	shared.PerAxis, shared.SharedFirst = false, false
	iso, isoY := isotropic(80, 4, 1)
	toy, toyY := toyData(200, 4, -1, 1, 3)
	for _, c := range []struct {
		name string
		xs   [][]float64
		ys   []float64
		kept bool
	}{{"isotropic", iso, isoY, false}, {"two relevant inputs", toy, toyY, true}} {
		res, err := LearnSigma(context.Background(), c.xs, c.ys, o)
		if err != nil {
			t.Fatal(err)
		}
		sh, err := LearnSigma(context.Background(), c.xs, c.ys, shared)
		if err != nil {
			t.Fatal(err)
		}
		ch := res.PerAxis
		if ch == nil || ch.Kept != c.kept || ch.Folds != 4 {
			t.Fatalf("%s: choice %+v, want kept %v over 4 folds", c.name, ch, c.kept)
		}
		eShared, ePer, err := nestedCV(context.Background(), c.xs, c.ys, o, 4)
		if err != nil || len(eShared) != len(c.xs) || len(ePer) != len(c.xs) {
			t.Fatalf("%s: nested cross-validation: %d and %d rows' errors of %d, %v", c.name, len(eShared), len(ePer), len(c.xs), err)
		}
		cvShared, cvPer, se := pairedMeans(eShared, ePer)
		if ch.Shared != cvShared || ch.PerAxis != cvPer || ch.StdErr != se || (ch.PerAxis < ch.Shared-ch.StdErr) != ch.Kept {
			t.Errorf("%s: cross-validated errors %v (per axis) and %v (shared) ± %v, recomputed %v and %v ± %v, kept %v", c.name, ch.PerAxis, ch.Shared, ch.StdErr, cvPer, cvShared, se, ch.Kept)
		}
		t.Logf("%s: nested cross-validated error per axis %.4g, shared %.4g, standard error %.2g: kept %v", c.name, ch.PerAxis, ch.Shared, ch.StdErr, ch.Kept)
		if c.kept {
			if slices.Equal(res.Sigma, sh.Sigma) || ch.Sigma != nil {
				t.Errorf("%s: kept, but σ %v is the shared %v (set aside %v)", c.name, res.Sigma, sh.Sigma, ch.Sigma)
			}
			continue
		}
		if !slices.Equal(res.Sigma, sh.Sigma) || res.ValidationAfter != sh.ValidationAfter || res.Ridge != sh.Ridge || slices.Equal(ch.Sigma, sh.Sigma) || len(ch.Sigma) != 4 {
			t.Errorf("%s: fell back, but σ %v (validation %v, λ %v), want the shared %v (%v, %v); set aside %v",
				c.name, res.Sigma, res.ValidationAfter, res.Ridge, sh.Sigma, sh.ValidationAfter, sh.Ridge, ch.Sigma)
		}
		if line := res.Line(&fmap.Data{File: "d.csv"}, false, 32, 32, "rff"); !strings.Contains(line, "set aside (σ = [") || !strings.Contains(line, "is not below the shared σ's") {
			t.Errorf("the learned line does not say the per-axis widths were set aside: %s", line)
		}
	}
}

// TestPairedMeans: the means and the standard error of the mean paired
// difference, by hand: differences 1, 2, 3 (mean 2, sample variance 1).
func TestPairedMeans(t *testing.T) {
	a, b, se := pairedMeans([]float64{1, 1, 1}, []float64{2, 3, 4})
	if a != 1 || b != 3 || math.Abs(se-1/math.Sqrt(3)) > 1e-15 {
		t.Errorf("means %v, %v, standard error %v; want 1, 3, %v", a, b, se, 1/math.Sqrt(3))
	}
}

// TestLearnLabelScale: a regression's labels are scaled internally by a
// power of two when far from 1 (targetScale), so that learning is the
// same whatever power of two multiplies them: labels times 2⁻⁶⁰⁰ (about
// 1e-181, whose squares underflow to 0) and times 2⁴⁰⁰ (about 1e120,
// whose gradient overflowed) learn the σ of the labels themselves, bit
// for bit, with validation errors scaled by the square; Ridge's weights
// scale exactly.
func TestLearnLabelScale(t *testing.T) {
	xs, ys := toyData(120, 2, -1, 1, 5)
	o := LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, Dim: 16, Ridge: 1e-3, Seed: 3}
	base, err := LearnSigma(context.Background(), xs, ys, o)
	if err != nil {
		t.Fatal(err)
	}
	feat := func(dst, x []float64) { dst[0], dst[1], dst[2] = x[0], x[1], x[0]*x[1] }
	rb, err := Ridge(xs, ys, false, 1e-2, 3, feat)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []int{-600, 400} {
		s := math.Ldexp(1, e)
		scaled := make([]float64, len(ys))
		for i, y := range ys {
			scaled[i] = y * s
		}
		res, err := LearnSigma(context.Background(), xs, scaled, o)
		if err != nil {
			t.Fatalf("labels × 2^%d: %v", e, err)
		}
		if !slices.Equal(res.Sigma, base.Sigma) || res.ValidationAfter != base.ValidationAfter*s*s || res.ValidationBefore != base.ValidationBefore*s*s {
			t.Errorf("labels × 2^%d: σ %v, validation %v → %v; want σ %v, %v → %v", e, res.Sigma, res.ValidationBefore, res.ValidationAfter,
				base.Sigma, base.ValidationBefore*s*s, base.ValidationAfter*s*s)
		}
		r, err := Ridge(xs, scaled, false, 1e-2, 3, feat)
		if err != nil {
			t.Fatal(err)
		}
		for i := range r.W {
			if r.W[i] != rb.W[i]*s {
				t.Fatalf("labels × 2^%d: W[%d] = %v, want %v", e, i, r.W[i], rb.W[i]*s)
			}
		}
		if r.Bias[0] != rb.Bias[0]*s {
			t.Errorf("labels × 2^%d: bias %v, want %v", e, r.Bias[0], rb.Bias[0]*s)
		}
	}
}

// TestSigmasStayKernels: the widths learning tries stay widths a kernel
// may have, [fmap.MinSigma, fmap.MaxSigma], however far a line search's
// trial step goes (σ = 4e199 was learned for an irrelevant axis, and the
// map's kernel was then refused).
func TestSigmasStayKernels(t *testing.T) {
	xs, ys := toyData(20, 3, -1, 1, 5)
	l, err := newLearner(context.Background(), xs, ys, LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, PerAxis: true, Dim: 8}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := l.sigmas([]float64{800, -800, 0})
	if s[0] != fmap.MaxSigma || s[1] != fmap.MinSigma || s[2] != 1 {
		t.Errorf("σ %v, want [%g %g 1]", s, fmap.MaxSigma, fmap.MinSigma)
	}
	if _, _, err := l.eval([]float64{800, -800, 0}, make([]float64, 3)); err != nil {
		t.Errorf("the objective at the widths' ends: %v", err)
	}
}

// TestLearnValidationAccuracy: for classes LearnSigma states the
// validation rows' accuracy before and after (two well separated classes:
// above 0.9 after), for numbers none.
func TestLearnValidationAccuracy(t *testing.T) {
	xs, ys := toyData(200, 2, -1, 1, 6)
	classes := make([]float64, len(ys))
	for i, x := range xs {
		if x[0]*x[1] > 0 {
			classes[i] = 1
		}
	}
	o := LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{3}}, Dim: 64, Seed: 2, Classes: true}
	res, err := LearnSigma(context.Background(), xs, classes, o)
	if err != nil {
		t.Fatal(err)
	}
	if !(res.AccuracyAfter > 0.9) || !(res.AccuracyBefore >= 0 && res.AccuracyBefore <= 1) {
		t.Errorf("validation accuracy %v → %v, want above 0.9 after", res.AccuracyBefore, res.AccuracyAfter)
	}
	o.Classes = false
	if res, err := LearnSigma(context.Background(), xs, ys, o); err != nil || res.AccuracyBefore != 0 || res.AccuracyAfter != 0 {
		t.Errorf("regression: accuracy %v → %v (%v), want none", res.AccuracyBefore, res.AccuracyAfter, err)
	}
}

// TestLearnProgress: learning tells its Progress function how far it is:
// ridge: auto's λ and the evaluations of the objective.
func TestLearnProgress(t *testing.T) {
	xs, ys := toyData(60, 2, -1, 1, 5)
	var msgs []string
	o := LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, Dim: 16, RidgeAuto: true, Seed: 3,
		Progress: func(m string) { msgs = append(msgs, m) }}
	if _, err := LearnSigma(context.Background(), xs, ys, o); err != nil {
		t.Fatal(err)
	}
	if len(msgs) == 0 || !strings.HasPrefix(msgs[0], "learning σ: ridge auto at the start: λ 1 of 15") {
		t.Errorf("progress %q, want ridge auto's first λ first", msgs)
	}
}
