package learn

import (
	"context"
	"math"
	"slices"
	"testing"
	"time"

	"github.com/featmap/featmap/design/learnplan"
	"github.com/featmap/featmap/fmap"
)

// TestLearnRidgeAuto: chooseRidge's closed-form validation error equals
// eval's (the ridge fit at that λ, measured on the validation rows) at
// every grid λ, its λ is the grid's least; and LearnSigma with RidgeAuto
// reports a grid λ whose validation error at the learned σ is no worse
// than that of the λ σ was learned with, nor than a fixed λ of 1e-3 (the
// default) or 10.
func TestLearnRidgeAuto(t *testing.T) {
	xs, ys := toyData(600, 3, -1, 1, 5)
	opts := LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{0.7}}, Dim: 64, Seed: 3}
	l, err := newLearner(context.Background(), xs, ys, opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	theta := make([]float64, l.params())
	lam, errs, err := l.chooseRidge(theta, nil)
	if err != nil {
		t.Fatal(err)
	}
	grid := learnplan.RidgeGrid()
	for g, v := range grid {
		l.lambda = v
		_, mse, err := l.eval(theta, nil)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(errs[g]-mse) > 1e-9*mse {
			t.Errorf("λ = %g: closed-form validation error %v, eval's %v", v, errs[g], mse)
		}
	}
	if i := slices.Index(grid, lam); i < 0 || errs[i] != slices.Min(errs) {
		t.Errorf("chose λ = %g (errors %v): want the grid's least", lam, errs)
	}
	t.Logf("at σ = 0.7: λ = %g, validation errors over the grid %.4g", lam, errs)

	auto := opts
	auto.RidgeAuto = true
	res, err := LearnSigma(context.Background(), xs, ys, auto)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(grid, res.Ridge) || !slices.Contains(grid, res.RidgeStart) {
		t.Fatalf("λ %g (start %g): want grid values", res.Ridge, res.RidgeStart)
	}
	// The validation error at the learned σ with the start's λ.
	l2, err := newLearner(context.Background(), xs, ys, LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: res.Sigma}, Dim: 64, Seed: 3, Ridge: res.RidgeStart}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, withStart, err := l2.eval(make([]float64, l2.params()), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("ridge auto: σ %.4g → %.4g, λ %g at the start, %g at the learned σ; validation %.4g → %.4g (%.4g with the start's λ)",
		res.Start[0], res.Sigma[0], res.RidgeStart, res.Ridge, res.ValidationBefore, res.ValidationAfter, withStart)
	if res.ValidationAfter > withStart*(1+1e-9) {
		t.Errorf("validation error %v at the learned σ with the chosen λ, above %v with the start's λ", res.ValidationAfter, withStart)
	}
	for _, fixed := range []float64{1e-3, 10} {
		f := opts
		f.Ridge = fixed
		fr, err := LearnSigma(context.Background(), xs, ys, f)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("fixed λ %g: σ %.4g, validation %.4g", fixed, fr.Sigma[0], fr.ValidationAfter)
		if res.ValidationAfter > fr.ValidationAfter*(1+1e-6) {
			t.Errorf("ridge auto's validation error %v above fixed λ = %g's %v", res.ValidationAfter, fixed, fr.ValidationAfter)
		}
	}
}

// TestRidgeAutoCancel: a context cancelled while ridge auto tries its
// grid (one D³/3 Cholesky factorisation per λ, 15 of them: seconds at
// D = 1536) stops the search at the next λ: LearnSigma returns the
// context's error soon after the cancel.
func TestRidgeAutoCancel(t *testing.T) {
	if testing.Short() {
		t.Skip("15 factorisations of 1536 × 1536 if the cancel is missed")
	}
	xs, ys := toyData(40, 2, 0, 1, 3)
	cancelledSoon(t, "ridge auto", 300*time.Millisecond, 3*time.Second, func(ctx context.Context) error {
		_, err := LearnSigma(ctx, xs, ys, LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, Dim: 1536, RidgeAuto: true})
		return err
	})
}
