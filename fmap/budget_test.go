package fmap

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"
)

// budgetProblems are problems of every branch of newReference.
func budgetProblems() map[string]*Problem {
	iv := func(lo, hi float64) Domain { return Domain{Lo: []float64{lo}, Hi: []float64{hi}} }
	box := func(n int, lo, hi float64) Domain {
		d := Domain{}
		for range n {
			d.Lo, d.Hi = append(d.Lo, lo), append(d.Hi, hi)
		}
		return d
	}
	rbf := func(d Domain, sigma float64) *Problem {
		s := make([]float64, d.Dims())
		for i := range s {
			s[i] = sigma
		}
		return &Problem{Kernel: Kernel{Type: RBF, Sigma: s}, Domain: d, Measure: Absolute, Norm: LInf}
	}
	return map[string]*Problem{
		"chi2 interval":     homogeneousProblem(Chi2, 0, iv(0.001, 1), Absolute),
		"chi2 8-bit":        homogeneousProblem(Chi2, 0, Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}}, Absolute),
		"js from 3":         homogeneousProblem(JS, 0, Domain{Integer: true, Lo: []float64{3}, Hi: []float64{10}}, Relative),
		"rbf interval":      rbf(iv(0, 10), 0.5),
		"rbf integers":      rbf(Domain{Integer: true, Lo: []float64{-5}, Hi: []float64{15}}, 10),
		"skewed-chi2 1-D":   {Kernel: Kernel{Type: SkewedChi2, Sigma: []float64{1}, C: 0.1}, Domain: iv(0, 1), Measure: Absolute, Norm: LInf},
		"exp-chi2 integers": {Kernel: Kernel{Type: ExpChi2, Beta: 1}, Domain: Domain{Integer: true, Lo: []float64{0}, Hi: []float64{20}}, Measure: Absolute, Norm: LInf},
		"rbf 2-D":           rbf(box(2, 0, math.Pi), 0.4),
		"rbf 3-D":           rbf(box(3, 0, 1), 0.4),
		"rbf 5-D":           rbf(box(5, 0, 1), 1),
	}
}

// TestVerifyBudgetReferenceSize: the sizes VerifyCost counts without
// building the reference are those newReference builds.
func TestVerifyBudgetReferenceSize(t *testing.T) {
	for name, p := range budgetProblems() {
		ref, err := p.Reference()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		in, dense := referenceSize(p)
		if int(in) != len(ref.Inputs) || int(dense) != len(ref.Dense) {
			t.Errorf("%s: referenceSize %v inputs, %v dense points; the reference has %d and %d", name, in, dense, len(ref.Inputs), len(ref.Dense))
		}
	}
}

// TestVerifyBudgetMaxDim: MaxVerifiedDim is the largest D within
// VerifyBudget; the rff map docs/limits.md promises (D = 4096 on 64 inputs)
// is within it, 65 536 inputs are beyond it at any D.
func TestVerifyBudgetMaxDim(t *testing.T) {
	for name, p := range budgetProblems() {
		d, why := MaxVerifiedDim(p)
		if d < 1 {
			t.Errorf("%s: no D within the budget (%s)", name, why)
			continue
		}
		if VerifyCost(p, d) > VerifyBudget || VerifyCost(p, d+1) <= VerifyBudget {
			t.Errorf("%s: max D %d costs %.4g, D + 1 %.4g: not the largest within %d", name, d, VerifyCost(p, d), VerifyCost(p, d+1), int64(VerifyBudget))
		}
	}
	wideBox := func(n int) *Problem {
		p := &Problem{Kernel: Kernel{Type: RBF, Sigma: make([]float64, n)}, Domain: Domain{Lo: make([]float64, n), Hi: make([]float64, n)}}
		for i := range n {
			p.Kernel.Sigma[i], p.Domain.Hi[i] = 4, 16
		}
		return p
	}
	if d, why := MaxVerifiedDim(wideBox(64)); d < 4096 {
		t.Errorf("rbf on 64 inputs: max D %d, want at least docs/limits.md's 4096 (%s)", d, why)
	}
	wide := wideBox(1 << 16)
	if d, why := MaxVerifiedDim(wide); d != 0 || why == "" {
		t.Errorf("rbf on 65536 inputs: max D %d (%q), want 0 and a reason", d, why)
	}
}

// TestVerifyContextCancelled: a verification whose context is cancelled
// returns the context's error promptly — before it starts, and in the
// middle of a long one — and leaves no partial state: verifying again
// gives what Verify gives.
func TestVerifyContextCancelled(t *testing.T) {
	p := homogeneousProblem(Chi2, 0, Domain{Lo: []float64{0.001}, Hi: []float64{1}}, Absolute)
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	m := NewSeriesMap(p.Kernel, p.Domain, "chebyshev", &Series{Form: Chebyshev, Dim: 400, Negative: NegativeSign})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := VerifyContext(ctx, m, ref); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled before: err %v, want context.Canceled", err)
	}
	// D = 400 on 1501 inputs is 0.45·10⁹ multiply-adds: seconds, not
	// milliseconds, so that a stop 20 ms in is in the middle.
	ctx, cancel = context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = VerifyContext(ctx, m, ref)
	took := time.Since(start)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("deadline in the middle: err %v after %v, want context.DeadlineExceeded", err, took)
	}
	if took > 500*time.Millisecond {
		t.Errorf("stopped %v after the start, 20 ms after the deadline was set: want under 500 ms", took)
	}
	if _, err := VerifyDataContext(ctx, m, &Data{Held: [][]float64{{0.1}, {0.2}}}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("VerifyDataContext after the deadline: err %v", err)
	}
	small := NewSeriesMap(p.Kernel, p.Domain, "chebyshev", &Series{Form: Chebyshev, Dim: 7, Negative: NegativeSign})
	got, err := VerifyContext(context.Background(), small, ref)
	if err != nil {
		t.Fatal(err)
	}
	fresh := homogeneousProblem(Chi2, 0, p.Domain, Absolute)
	fref, err := fresh.Reference()
	if err != nil {
		t.Fatal(err)
	}
	if want := Verify(small, fref); got.Reported != want.Reported || got.Frobenius != want.Frobenius || got.Signature != want.Signature {
		t.Errorf("after a cancelled verification: %+v, a fresh reference gives %+v", got.Reported, want.Reported)
	}
}
