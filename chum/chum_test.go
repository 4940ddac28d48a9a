package chum

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// rbfProblem is the 1-D RBF kernel of width sigma on [0, π] with the
// uniform error (Chum §7.1).
func rbfProblem(sigma float64) *fmap.Problem {
	return &fmap.Problem{
		Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{sigma}}, Domain: fmap.Domain{Lo: []float64{0}, Hi: []float64{math.Pi}},
		Measure: fmap.Uniform, Norm: fmap.LInf,
	}
}

// chi2U8 is the χ² kernel on 8-bit integers with the given measure.
func chi2U8(measure fmap.Measure) *fmap.Problem {
	return &fmap.Problem{
		Kernel: fmap.Kernel{Type: fmap.Chi2, Gamma: 1}, Domain: fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}},
		Measure: measure, Norm: fmap.LInf, Negative: fmap.NegativeSign,
	}
}

// rbf03 is the chain of designs of rbfProblem(0.3) shared by this test
// binary: TestRBFClaims (D = 11), TestChumSteps (D = 5) and one of
// TestChumDeterministic's two designs (D = 7) continue it, so each D is
// designed once (Chum keeps its designs by problem pointer; a chain's D is
// the same whoever asks first: it continues from D − 1).
var rbf03 struct {
	once sync.Once
	c    *Chum
	p    *fmap.Problem
}

// sharedRBF03 returns rbf03's Chum and problem.
func sharedRBF03() (*Chum, *fmap.Problem) {
	rbf03.once.Do(func() { rbf03.c, rbf03.p = &Chum{}, rbfProblem(0.3) })
	return rbf03.c, rbf03.p
}

// verified designs p at dim with m and returns the result and the
// reported (verified) error of every step by name.
func verified(t *testing.T, m design.Method, p *fmap.Problem, dim int) (*design.Result, map[string]float64) {
	t.Helper()
	res, err := m.Design(context.Background(), p, dim, design.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	errs := map[string]float64{"final": fmap.Verify(res.Map, ref).Reported.LInf}
	for _, st := range res.Steps {
		errs[st.Name] = fmap.Verify(st.Map, ref).Reported.LInf
	}
	return res, errs
}

// TestRBFClaims checks Chum §7.1's convention-free claims on the 1-D RBF
// kernel on [0, π] with D = 11 (docs/lp-design.md: the paper's absolute
// numbers depend on an unknown σ convention, so they are not oracles):
//   - the continuous method (the paper pipeline) beats the discrete LP;
//   - the 11-D designed map beats the 17-D harmonic projection ω = 0..8.
//
// Measured here (L∞ on 2001 λ in [0, π]): σ = 0.2: discrete 0.211, paper
// pipeline 0.0824, polished 0.0372, harmonic 0.0886; σ = 0.3: 0.105, 0.0224,
// 0.00485, 0.0105.
func TestRBFClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("four designs of §7.1's claims (seconds); skipped with -short")
	}
	// The two σ are independent designs, made two at a time.
	for _, sigma := range []float64{0.2, 0.3} {
		t.Run(fmt.Sprintf("σ=%g", sigma), func(t *testing.T) {
			t.Parallel()
			c, p := &Chum{}, rbfProblem(sigma)
			if sigma == 0.3 {
				c, p = sharedRBF03()
			}
			res, errs := verified(t, c, p, 11)
			if res.Map.Dim != 11 {
				t.Errorf("σ=%g: map has D = %d, want 11", sigma, res.Map.Dim)
			}
			discrete, paper := errs[StepDiscrete], errs[StepPaper]
			if !(paper < discrete) {
				t.Errorf("σ=%g: continuous %.4g does not beat discrete %.4g", sigma, paper, discrete)
			}
			h, herrs := verified(t, Harmonic{}, p, 17)
			if h.Map.Dim != 17 {
				t.Errorf("σ=%g: harmonic map has D = %d, want 17", sigma, h.Map.Dim)
			}
			if got := errs["final"]; !(got < herrs["final"]) {
				t.Errorf("σ=%g: 11-D designed map %.4g does not beat the 17-D harmonic %.4g", sigma, got, herrs["final"])
			}
			t.Logf("σ=%g: discrete %.4g, paper %.4g, final %.4g, harmonic-17 %.4g (%d LPs)", sigma, discrete, paper, errs["final"], herrs["final"], res.LPs)
		})
	}
}

// TestChumDeterministic designs the same problem twice with two Chum
// values: identical maps (at D = 7, the chain of D = 1..7; D = 4 with
// -short).
func TestChumDeterministic(t *testing.T) {
	dim := 7
	if testing.Short() {
		dim = 4
	}
	// a continues the shared chain, b is made afresh by another Chum value
	// on another problem value.
	c, p := sharedRBF03()
	a, _ := verified(t, c, p, dim)
	b, _ := verified(t, &Chum{}, rbfProblem(0.3), dim)
	if !reflect.DeepEqual(a.Map, b.Map) {
		t.Errorf("two designs differ:\n%v\n%v", a.Map.Fourier().Terms, b.Map.Fourier().Terms)
	}
}

// TestChumSteps: the steps are the paper's and featmap's, in order; the
// final map is one of them with exactly the dimension asked for; the
// design set is Z; the polish never ends worse than the refit it starts
// from.
func TestChumSteps(t *testing.T) {
	c, p := sharedRBF03()
	res, errs := verified(t, c, p, 5)
	names := []string{StepDiscrete, StepPaper, StepRefit, StepPolished, StepContinued}
	if len(res.Steps) != len(names) {
		t.Fatalf("%d steps, want %v", len(res.Steps), names)
	}
	found := false
	for i, st := range res.Steps {
		if st.Name != names[i] {
			t.Errorf("step %d: %q, want %q", i, st.Name, names[i])
		}
		found = found || st.Map == res.Map
	}
	if !found || res.Map.Dim != 5 {
		t.Errorf("the final map (D = %d) is not one of the steps", res.Map.Dim)
	}
	l, err := newLine(p)
	if err != nil {
		t.Fatal(err)
	}
	if want := int(math.Ceil(l.M/l.ZStep)) + 1; len(res.DesignSet) != want || !strings.HasPrefix(res.DesignSetOn, "Z: ") {
		t.Errorf("design set of %d points (%q), want Z of %d", len(res.DesignSet), res.DesignSetOn, want)
	}
	if errs[StepPolished] > errs[StepRefit]*(1+1e-9) {
		t.Errorf("polished %.4g worse than refit %.4g", errs[StepPolished], errs[StepRefit])
	}
}

// TestChumContinuationOff: with continuation: false chum designs D alone:
// not incremental, no step continued from D − 1, and the steps it does
// make are the chain's own at that D, bit for bit (a level's search,
// refinement, refit and polish do not depend on the levels below it).
func TestChumContinuationOff(t *testing.T) {
	off := false
	alone := &Chum{Opts: ChumOptions{Continuation: &off}}
	c, p := sharedRBF03()
	if alone.Incremental() || !c.Incremental() {
		t.Errorf("Incremental: %v with the continuation off, %v on; want false, true", alone.Incremental(), c.Incremental())
	}
	chain, err := c.Design(context.Background(), p, 5, design.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := alone.Design(context.Background(), p, 5, design.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	var want []design.Step
	for _, st := range chain.Steps {
		if st.Name != StepContinued {
			want = append(want, st)
		}
	}
	if len(want) != len(chain.Steps)-1 {
		t.Fatalf("the chain's steps %d lack the continued one", len(chain.Steps))
	}
	if !reflect.DeepEqual(res.Steps, want) {
		t.Errorf("steps alone differ from the chain's own steps at D = 5")
	}
	if res.Map.Dim != 5 || res.LPs >= chain.LPs {
		t.Errorf("alone: D = %d in %d LPs; want D = 5 in fewer than the chain's %d", res.Map.Dim, res.LPs, chain.LPs)
	}
}

// TestChumOversizedPoolIsAClearError: a pool or Z beyond the limits is an
// error naming the option to change, not an hour-long run.
func TestChumOversizedPoolIsAClearError(t *testing.T) {
	p := rbfProblem(0.3)
	_, err := (&Chum{Opts: ChumOptions{Spacing: 1e-4}}).Design(context.Background(), p, 5, design.Settings{})
	if err == nil || !strings.Contains(err.Error(), "method.spacing") {
		t.Errorf("pool of 166667 frequencies: error %v, want one naming method.spacing", err)
	}
	_, err = (&Chum{Opts: ChumOptions{ZPoints: MaxZ + 1}}).Design(context.Background(), p, 5, design.Settings{})
	if err == nil || !strings.Contains(err.Error(), "method.z_points") {
		t.Errorf("|Z| = %d: error %v, want one naming method.z_points", MaxZ+1, err)
	}
}

// TestChumCancel: a cancelled context stops a design with the context's
// error, and the next design of the same Chum value is made afresh.
func TestChumCancel(t *testing.T) {
	c := &Chum{}
	p := chi2U8(fmap.Absolute)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := c.Design(ctx, p, 5, design.Settings{}); err != context.Canceled {
		t.Fatalf("cancelled design: error %v, want context.Canceled", err)
	}
	res, err := c.Design(context.Background(), p, 3, design.Settings{})
	if err != nil || res.Map.Dim != 3 {
		t.Fatalf("design after the cancelled one: %v", err)
	}
}

// TestChumCancelQuietly: a design cancelled while its γ search runs ends
// with the context's error and reports no γ as skipped (a cancelled solve
// is not a failed LP; the searches printed "γ = … skipped: context
// canceled" for every γ they had left before they stopped).
func TestChumCancelQuietly(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	var msgs []string
	say := design.Settings{Progress: func(m string) {
		mu.Lock()
		defer mu.Unlock()
		msgs = append(msgs, m)
		if strings.HasPrefix(m, "discrete LP") {
			cancel() // before the search's first solve
		}
	}}
	if _, err := (&Chum{}).Design(ctx, chi2U8(fmap.Absolute), 3, say); err != context.Canceled {
		t.Fatalf("cancelled design: error %v, want context.Canceled", err)
	}
	mu.Lock()
	defer mu.Unlock()
	for _, m := range msgs {
		if strings.Contains(m, "skipped") || strings.Contains(m, "context canceled") {
			t.Errorf("progress after the cancel: %q", m)
		}
	}
}

// TestChumChainInAnyOrder: a chain's levels are explored at once and
// finished in order, so a design does not depend on which levels were
// remembered, on the number of workers or on the scheduling: D = 4 made
// after D = 2 (two workers) is D = 4 made at once (one worker, three),
// map, steps and LP count, and so is every level on the way (a discrete
// solve the levels share counts in the lowest that used it); only the
// levels made are announced.
func TestChumChainInAnyOrder(t *testing.T) {
	p := chi2U8(fmap.Absolute)
	var msgs []string
	say := design.Settings{Progress: func(m string) { msgs = append(msgs, m) }}
	a := &Chum{}
	for _, d := range []int{2, 4} {
		if _, err := a.Design(context.Background(), p, d, say); err != nil {
			t.Fatal(err)
		}
	}
	b, c := &Chum{}, &Chum{}
	if _, err := b.Design(context.Background(), p, 4, design.Settings{Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Design(context.Background(), p, 4, design.Settings{Workers: 3}); err != nil {
		t.Fatal(err)
	}
	for _, d := range []int{1, 2, 3, 4} {
		// Made at once on one worker or three, every level counts the
		// same LPs (a shared solve in the lowest level that used it).
		rb, err := b.Design(context.Background(), p, d, design.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		rc, err := c.Design(context.Background(), p, d, design.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if rb.LPs != rc.LPs || !reflect.DeepEqual(rb.Map, rc.Map) {
			t.Errorf("D = %d made at once: %d LPs on one worker, %d on three", d, rb.LPs, rc.LPs)
		}
	}
	for _, d := range []int{3, 4} {
		ra, err := a.Design(context.Background(), p, d, design.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		rb, err := b.Design(context.Background(), p, d, design.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(ra.Map, rb.Map) || !reflect.DeepEqual(ra.Steps, rb.Steps) || rb.LPs != ra.LPs {
			t.Errorf("D = %d: %d LPs %v, at once %d LPs %v", d, ra.LPs, ra.Map.Fourier().Terms, rb.LPs, rb.Map.Fourier().Terms)
		}
	}
	if !slices.Contains(msgs, "chum: D = 3 on the way to 4") || slices.Contains(msgs, "chum: D = 2 on the way to 4") {
		t.Errorf("progress %q: want D = 3 on the way to 4 and not the remembered D = 2", msgs)
	}
}

// TestChumCancelWhileExploring: a deadline that passes while the levels
// are explored at once ends the design with the context's error, once
// every level's goroutines are done, and the next design of the same Chum
// value makes the missing levels afresh (the same map as a Chum that was
// never interrupted).
func TestChumCancelWhileExploring(t *testing.T) {
	p := chi2U8(fmap.Absolute)
	c := &Chum{}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, err := c.Design(ctx, p, 6, design.Settings{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("design past its deadline: error %v, want context.DeadlineExceeded", err)
	}
	got, err := c.Design(context.Background(), p, 4, design.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := (&Chum{}).Design(context.Background(), p, 4, design.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Map, want.Map) {
		t.Errorf("D = 4 after the interrupted design: %v, uninterrupted %v", got.Map.Fourier().Terms, want.Map.Fourier().Terms)
	}
}

// TestChainSharesRefinement: the levels of a chain share continuous-
// refinement solves (a solve taken by two searches), and every level's
// steps before the continuation — discrete LP, paper pipeline, refit,
// polish — are those of a design of that D alone (DesignOne, which shares
// nothing): map for map, bit for bit.
func TestChainSharesRefinement(t *testing.T) {
	p := chi2U8(fmap.Absolute)
	c := &Chum{}
	if _, err := c.Design(context.Background(), p, 4, design.Settings{}); err != nil {
		t.Fatal(err)
	}
	shared := 0
	for k, e := range c.chains[chainKey{p, "purego"}].shared.at {
		if k.dmax > 0 && e.takers > 1 {
			shared++
		}
	}
	if shared == 0 {
		t.Error("no refinement solve was taken by two levels")
	}
	for d := 1; d <= 4; d++ {
		chained, err := c.Design(context.Background(), p, d, design.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		alone, err := c.DesignOne(context.Background(), p, d, design.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		for i := range 4 {
			if a, b := chained.Steps[i], alone.Steps[i]; a.Name != b.Name || !reflect.DeepEqual(a.Map, b.Map) {
				t.Errorf("D = %d, step %q: chained %v, alone %q %v", d, a.Name, a.Map.Fourier().Terms, b.Name, b.Map.Fourier().Terms)
			}
		}
	}
	t.Logf("%d refinement solves taken by more than one level", shared)
}
