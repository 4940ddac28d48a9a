package chum

import (
	"cmp"
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/solver"
)

// Tests of the stages of the LP pipeline one at a time, on small problems
// whose optima are known in closed form: the discrete LP and the γ search
// (Chum, ICCV 2015, §2.1), the continuous refinement (§4.2), and the refit,
// polish, truncation and exchange that follow.

// stageFit samples sig on Z = {i·M/n : i = 0..n} with unit weights.
func stageFit(norm fmap.Norm, M float64, n int, sig func(float64) float64) *fitSet {
	z := points(grid(M, n))
	w := make([]float64, len(z))
	for i := range w {
		w[i] = 1
	}
	return newFitSet(fmap.FourierForm, norm, z, w, func(l []float64) float64 { return sig(l[0]) })
}

// stagePool is the 1-D pool {0, s, 2s, …, n·s}.
func stagePool(s float64, n int) [][]float64 {
	pool := make([][]float64, n+1)
	for j := range pool {
		pool[j] = []float64{float64(j) * s}
	}
	return pool
}

// stageCost is Σ_j D_{ω_j} α_j, the L1 term of Chum's LP, with D taken from
// the given frequencies.
func stageCost(f *fitSet, omega [][]float64, alpha []float64) float64 {
	c := 0.0
	for j, a := range alpha {
		c += float64(f.termDims(omega[j])) * a
	}
	return c
}

// stageWeightAt returns the total weight on frequency om (within 1e-12).
func stageWeightAt(omega [][]float64, alpha []float64, om float64) float64 {
	at := 0.0
	for j, a := range alpha {
		if math.Abs(omega[j][0]-om) < 1e-12 {
			at += a
		}
	}
	return at
}

// TestStageDiscreteLP proves that the discrete LP of Chum §2.1,
// min Σ D_ω α_ω + γ·max_Z |k − k̂| over the pool, finds its known optimum
// at every γ. For k(λ) = 0.6 + 0.4 cos λ on Z = {iπ/16 : i = 0..64} (which
// holds λ = 0 and λ = π, where cos λ = ±1) and the pool {0, 0.1, …, 3}:
//
//   - γ < 1: α = 0 is the unique optimum, value γ (k̂ = Σα cos ≤ Σα at λ = 0,
//     so the error is at least 1 − Σα ≥ 1 − C and C + γt ≥ γ + (1 − γ)C);
//   - 1 < γ < 2: the constant α_0 = 0.6 alone, value 0.6 + 0.4γ (the dual
//     point masses y = ((1+γ)/2)·δ_0 + ((1−γ)/2)·δ_π certify it, and as
//     Σ_i y_i cos(ω z_i) ≤ γ < 2 for every ω > 0, complementary slackness
//     rules out every other frequency);
//   - γ > 2: the exact weights α_0 = 0.6, α_1 = 0.4 with zero error, value
//     1.4 (y = 1.5·δ_0 − 0.5·δ_π has ‖y‖₁ = 2 < γ, so the error must be
//     0, and the pool's cosines are linearly independent on Z because
//     ω_max·π/16 < π and |Z| = 65 ≥ 31, so the exact fit is unique).
//
// So a tiny γ gives fewer dimensions (0, then 1) than a large one (3).
func TestStageDiscreteLP(t *testing.T) {
	f := stageFit(fmap.LInf, 4*math.Pi, 64, func(l float64) float64 { return 0.6 + 0.4*math.Cos(l) })
	lp := &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}
	pool := stagePool(0.1, 30)
	for _, tc := range []struct {
		gamma          float64
		dims           int
		alpha0, alpha1 float64 // weights of ω = 0 and ω = 1
		value          float64
	}{
		{0.01, 0, 0, 0, 0.01},
		{0.5, 0, 0, 0, 0.5},
		{1.5, 1, 0.6, 0, 0.6 + 0.4*1.5},
		{2.5, 3, 0.6, 0.4, 1.4},
		{1000, 3, 0.6, 0.4, 1.4},
	} {
		out, err := lp.chum(pool, 0, tc.gamma, nil, nil)
		if err != nil {
			t.Fatalf("γ=%g: %v", tc.gamma, err)
		}
		if out.dims != tc.dims {
			t.Errorf("γ=%g: D = %d, want %d", tc.gamma, out.dims, tc.dims)
		}
		// With d_max = 0 no frequency moves.
		for j := range pool {
			if out.omega[j][0] != pool[j][0] {
				t.Errorf("γ=%g: pool frequency %g moved to %g with d_max = 0", tc.gamma, pool[j][0], out.omega[j][0])
			}
		}
		// 1e-9: the solver's feasibility and optimality tolerances; the
		// optimum is a vertex, so its weights come from a well-posed basis
		// solve and carry no more error than that.
		const tol = 1e-9
		a0 := stageWeightAt(out.omega, out.alpha, 0)
		a1 := stageWeightAt(out.omega, out.alpha, 1)
		if sum := sumOf(out.alpha); math.Abs(a0-tc.alpha0) > tol || math.Abs(a1-tc.alpha1) > tol || math.Abs(sum-tc.alpha0-tc.alpha1) > tol {
			t.Errorf("γ=%g: α_0 = %.12g, α_1 = %.12g, Σα = %.12g; want %g, %g and nothing else", tc.gamma, a0, a1, sum, tc.alpha0, tc.alpha1)
		}
		terr := f.objective(out.omega, out.alpha)
		if v := stageCost(f, out.omega, out.alpha) + tc.gamma*terr; math.Abs(v-tc.value) > tol*math.Max(1, tc.gamma) {
			t.Errorf("γ=%g: LP value %.12g, want %.12g", tc.gamma, v, tc.value)
		}
		if tc.gamma > 2 && terr > tol {
			t.Errorf("γ=%g: error %.3g of an exactly representable signature, want 0", tc.gamma, terr)
		}
	}
}

func sumOf(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// TestStageGammaSearch proves the γ search of Chum §2.1 (bracket by factors
// of 10, then bisect in log γ) on a problem whose D(γ) is known exactly:
// k(λ) = 0.6 + 0.4 cos λ, pool {0, 1}, Z = {iπ/8 : i = 0..16}. As Z holds
// λ = 0 and λ = π, max_Z |A + B cos λ| = |A| + |B|, so the LP separates
// into min a + γ|0.6 − a| and min 2b + γ|0.4 − b|: D(γ) = 0 below γ = 1,
// 1 (α = (0.6, 0)) between 1 and 2, and 3 (α = (0.6, 0.4)) above 2.
//
//   - Target 2 is never attained, so the search must bracket and bisect to
//     γ = 2: after 12 halvings of a bracket of ratio ≤ 10 (for either starting
//     γ) the outputs straddle the target within a factor 10^(1/4096) of 2.
//   - Target 3 is attained: the search records a candidate of exactly D = 3
//     and zero error, and stops bisecting as soon as it finds it.
func TestStageGammaSearch(t *testing.T) {
	f := stageFit(fmap.LInf, 2*math.Pi, 16, func(l float64) float64 { return 0.6 + 0.4*math.Cos(l) })
	pool := [][]float64{{0}, {1}}
	const steps = 12
	for _, g0 := range []float64{100, 0.1} {
		// Target 2: unattainable, the bisection closes on γ = 2.
		c := &fitter{dim: 2, lp: &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}, progress: func(string) {}}
		outs, err := c.search(pool, 0, g0, steps, nil, nil)
		if err != nil {
			t.Fatalf("g0=%g: %v", g0, err)
		}
		below, above := 0.0, math.Inf(1) // largest γ with D < 2, smallest with D ≥ 2
		for _, o := range outs {
			g := o.tradeoff
			if o.dims < 2 {
				below = math.Max(below, g)
			} else {
				above = math.Min(above, g)
			}
			// 1e-9: the solver's tolerances. γ = 1 is a tie (any α_0 in
			// [0, 0.6] is optimal), so only its D < 2 is checked there.
			a := o.alpha
			switch {
			case math.Abs(g-1) < 1e-9:
				if o.dims >= 2 {
					t.Errorf("γ=1: D = %d, want < 2", o.dims)
				}
			case g < 1 && (o.dims != 0 || a[0] > 1e-9 || a[1] > 1e-9),
				g > 1 && g < 2 && (o.dims != 1 || math.Abs(a[0]-0.6) > 1e-9 || a[1] > 1e-9),
				g > 2 && (o.dims != 3 || math.Abs(a[0]-0.6) > 1e-9 || math.Abs(a[1]-0.4) > 1e-9):
				t.Errorf("γ=%.6g: D = %d, α = %v; want the separable optimum", g, o.dims, a)
			}
		}
		// The bracket ratio is at most 10 when bisection starts, so after
		// `steps` halvings of log γ it is at most 10^(2^−steps).
		ratio := math.Pow(10, math.Pow(2, -steps)) * (1 + 1e-12)
		if !(below < 2 && 2 < above && above/below <= ratio) {
			t.Errorf("g0=%g, target 2: D < 2 up to γ = %.8g, D ≥ 2 from γ = %.8g; want both within a factor %.6g of 2", g0, below, above, ratio)
		}
		// Every output is recorded as a candidate unless its truncation is
		// empty (D = 0), and every candidate fits in the target dimension.
		n := 0
		for _, o := range outs {
			if o.dims > 0 {
				n++
			}
		}
		if len(c.cands) != n {
			t.Errorf("g0=%g: %d candidates from %d nonempty outputs", g0, len(c.cands), n)
		}
		for _, cd := range c.cands {
			if d := c.dimsOf(cd.omega); d > 2 {
				t.Errorf("g0=%g: candidate of D = %d > 2", g0, d)
			}
		}

		// Target 3: attained for every γ > 2.
		c = &fitter{dim: 3, lp: &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}, progress: func(string) {}}
		outs, err = c.search(pool, 0, g0, steps, nil, nil)
		if err != nil {
			t.Fatalf("g0=%g: %v", g0, err)
		}
		var exact *candidate
		for i := range c.cands {
			if c.dimsOf(c.cands[i].omega) == 3 {
				exact = &c.cands[i]
			}
		}
		// 1e-12: the exact fit's error is rounding only.
		if exact == nil || exact.score > 1e-12 {
			t.Errorf("g0=%g, target 3: no candidate of D = 3 with zero error (candidates %v)", g0, c.cands)
		}
		if best := c.best(); best == nil || best.score > 1e-12 {
			t.Errorf("g0=%g, target 3: best candidate %v, want the exact fit", g0, best)
		}
		// The bisection stops at the first γ with D = 3: the last output has
		// it. From either g0 the LPs are g0, the bracket's ends 1 and 10, and
		// its first bisection √10 > 2, where D = 3 already: 4 at most.
		if last := outs[len(outs)-1]; last.dims != 3 {
			t.Errorf("g0=%g, target 3: the search ended at γ = %.6g with D = %d", g0, last.tradeoff, last.dims)
		}
		if len(outs) > 4 {
			t.Errorf("g0=%g, target 3: %d LPs, want at most 4", g0, len(outs))
		}
	}
}

// TestStageRefinement proves the continuous refinement of Chum §4.2 (the LP
// of eq. 12 with every frequency free to move within ±d_max, d_max halved
// after each step) on k(λ) = cos(ω*·λ) with ω* = 1.234 between the pool
// points 1.2 and 1.3, Z = {iπ/64 : i = 0..64}, γ = 10. The known optimum is
// the single term (ω*, α = 1) with zero error; from the discrete LP's
// output, repeated steps must reach it, with:
//
//   - every frequency moving at most d_max per step (the trust region: β/α
//     is a convex combination of the corner signs times d_max);
//   - each step's error at most the previous error, plus the L1 cost the
//     step saved over γ (the previous output, unmoved, is feasible in the
//     step's LP), plus the first-order model's remainder
//     Σ α·(d_max·max λ)²/2 (|cos((ω+δ)λ) − cos ωλ + δλ sin ωλ| ≤ (δλ)²/2).
//     The first step does raise the error (measured 0.0036 → 0.041,
//     within its bound of 0.054), so the error is not monotone;
//   - the last error far below the discrete LP's.
//
// (The problem is kept where the default solver copes: with γ = 1000 on
// this Z, or on Z = [0, 4π] at every γ tried from 3 to 1000, it ends one of
// these LPs in a numerical failure, where CLP solves every one.)
func TestStageRefinement(t *testing.T) {
	const omStar, gamma = 1.234, 10.0
	const M = math.Pi
	f := stageFit(fmap.LInf, M, 64, func(l float64) float64 { return math.Cos(omStar * l) })
	lp := &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}
	out, err := lp.chum(stagePool(0.1, 30), 0, gamma, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	discrete := f.objective(out.omega, out.alpha)
	prevErr, prevCost := discrete, stageCost(f, out.omega, out.alpha)
	dmax := 0.1
	for step := 1; step <= 8; step++ {
		in := out.omega
		if out, err = lp.chum(in, dmax, gamma, nil, nil); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		// 1e-12: rounding of ω + β/α.
		for j := range in {
			if d := math.Abs(out.omega[j][0] - in[j][0]); d > dmax+1e-12 {
				t.Errorf("step %d: frequency %g moved by %g > d_max = %g", step, in[j][0], d, dmax)
			}
		}
		e := f.objective(out.omega, out.alpha)
		cost := stageCost(f, in, out.alpha) // the LP charges D of the unmoved column
		bound := prevErr + (prevCost-cost)/gamma + sumOf(out.alpha)*math.Pow(dmax*M, 2)/2
		// 1e-9: the solver's tolerances on the LP's error variable.
		if e > bound+1e-9 {
			t.Errorf("step %d (d_max %g): error %.4g above its bound %.4g", step, dmax, e, bound)
		}
		t.Logf("step %d, d_max %.4g: error %.3g (bound %.3g), D = %d", step, dmax, e, bound, out.dims)
		prevErr, prevCost = e, stageCost(f, out.omega, out.alpha)
		dmax /= 2
	}
	heavy, at := 0.0, 0.0 // the heaviest term
	for j, a := range out.alpha {
		if a > at {
			heavy, at = out.omega[j][0], a
		}
	}
	elsewhere := sumOf(out.alpha) - at
	// 1e-8: near ω* each step is a Newton step (the first-order model is
	// exact to O(δ²)), so the iteration reaches rounding level (measured
	// 1e-14 by step 5); 1e-8 leaves room for the LP's 1e-9 tolerances.
	if math.Abs(heavy-omStar) > 1e-8 || math.Abs(at-1) > 1e-8 || elsewhere > 1e-8 || out.dims != 2 {
		t.Errorf("refined to ω = %.12g, α = %.12g (+%.3g elsewhere, D = %d); want ω* = %g, α = 1 alone", heavy, at, elsewhere, out.dims, omStar)
	}
	// The known optimum has zero error; 1e-8 as above.
	if prevErr > 1e-8 || !(prevErr < 1e-4*discrete) {
		t.Errorf("refined error %.3g, discrete %.3g: want ≤ 1e-8", prevErr, discrete)
	}
	t.Logf("discrete error %.3g, refined %.3g", discrete, prevErr)
}

// TestStageRefit proves that the refit is the L∞ (Chebyshev) or L1 optimal
// weight vector α ≥ 0 on a fixed support, on cases with analytic answers:
//
//   - a constant fitted to k = 1 + λ on λ ∈ {0, 0.1, …, 1}: L∞ midrange 1.5
//     (error 0.5), L1 median 1.5 (error Σ|λ_i − 0.5| = 3);
//   - with weights 1 and 3 on the two points k = 1 and k = 2, the L∞ optimum
//     equalises (a − 1)·1 = (2 − a)·3: a = 1.75, error 0.75;
//   - a constant fitted to k = −λ: the midrange −0.5 is excluded by α ≥ 0,
//     so α = 0 (error 1);
//   - an exactly representable 0.5 + 0.3 cos 0.7λ + 0.2 cos 2.1λ on its
//     support: the exact weights and zero error in both norms.
func TestStageRefit(t *testing.T) {
	lam := grid(1, 10)
	exactSig := func(l float64) float64 { return 0.5 + 0.3*math.Cos(0.7*l) + 0.2*math.Cos(2.1*l) }
	for _, tc := range []struct {
		name  string
		norm  fmap.Norm
		z, w  []float64
		sig   func(float64) float64
		omega [][]float64
		alpha []float64
		err   float64
	}{
		{"L∞ midrange", fmap.LInf, lam, nil, func(l float64) float64 { return 1 + l }, [][]float64{{0}}, []float64{1.5}, 0.5},
		{"fmap.L1 median", fmap.L1, lam, nil, func(l float64) float64 { return 1 + l }, [][]float64{{0}}, []float64{1.5}, 3},
		{"L∞ weighted", fmap.LInf, []float64{0, 1}, []float64{1, 3}, func(l float64) float64 { return 1 + l }, [][]float64{{0}}, []float64{1.75}, 0.75},
		{"L∞ α ≥ 0 binds", fmap.LInf, lam, nil, func(l float64) float64 { return -l }, [][]float64{{0}}, []float64{0}, 1},
		{"L∞ exact", fmap.LInf, grid(2*math.Pi, 64), nil, exactSig, [][]float64{{0}, {0.7}, {2.1}}, []float64{0.5, 0.3, 0.2}, 0},
		{"fmap.L1 exact", fmap.L1, grid(2*math.Pi, 64), nil, exactSig, [][]float64{{0}, {0.7}, {2.1}}, []float64{0.5, 0.3, 0.2}, 0},
	} {
		w := tc.w
		if w == nil {
			w = make([]float64, len(tc.z))
			for i := range w {
				w[i] = 1
			}
		}
		f := newFitSet(fmap.FourierForm, tc.norm, points(tc.z), w, func(l []float64) float64 { return tc.sig(l[0]) })
		lp := &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}
		alpha, err := lp.refit(tc.omega)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		// 1e-9: the solver's tolerances (the optimum is a vertex of a
		// well-conditioned LP).
		for j := range alpha {
			if math.Abs(alpha[j]-tc.alpha[j]) > 1e-9 {
				t.Errorf("%s: α = %v, want %v", tc.name, alpha, tc.alpha)
				break
			}
		}
		// 1e-9 per point, as L1 sums them.
		if e := f.objective(tc.omega, alpha); math.Abs(e-tc.err) > 1e-9*float64(len(tc.z)) {
			t.Errorf("%s: error %.12g, want %g", tc.name, e, tc.err)
		}
	}
}

// TestStagePolish proves the joint (ω, α) polish on the exactly
// representable k(λ) = 0.5 + 0.3 cos 0.7λ + 0.2 cos 2.1λ on
// Z = {iπ/32 : i = 0..64}: from frequencies 10% off (both ways), with the
// weights refitted as the pipeline does, it converges to the true
// frequencies and weights with zero error, in the L∞ and the L1 norm; and
// from every start, good or bad, it returns the objective of what it
// returns, never above the start's.
func TestStagePolish(t *testing.T) {
	sig := func(l float64) float64 { return 0.5 + 0.3*math.Cos(0.7*l) + 0.2*math.Cos(2.1*l) }
	trueOmega, trueAlpha := []float64{0, 0.7, 2.1}, []float64{0.5, 0.3, 0.2}
	for _, norm := range []fmap.Norm{fmap.LInf, fmap.L1} {
		f := stageFit(norm, 2*math.Pi, 64, sig)
		lp := &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}
		for _, s := range []float64{1.1, 0.9} {
			start := [][]float64{{0}, {0.7 * s}, {2.1 * (2 - s)}}
			alpha, err := lp.refit(start)
			if err != nil {
				t.Fatal(err)
			}
			f0 := f.objective(start, alpha)
			om, al, F, err := lp.polish(start, alpha)
			if err != nil {
				t.Fatalf("%s, start ×%g: %v", norm, s, err)
			}
			// 1e-8: the zero-residual fit is isolated (three distinct
			// frequencies, nonzero weights), where the trust-region SLP
			// converges fast; observed deviations are ≤ 1e-10.
			for j := range om {
				if math.Abs(om[j][0]-trueOmega[j]) > 1e-8 || math.Abs(al[j]-trueAlpha[j]) > 1e-8 {
					t.Errorf("%s, start ×%g: polished to ω = %v, α = %v; want %v, %v", norm, s, om, al, trueOmega, trueAlpha)
					break
				}
			}
			// 1e-8 per point for L1, which sums 65 of them.
			tol := 1e-8
			if norm == fmap.L1 {
				tol *= float64(f.size())
			}
			if F > tol || F != f.objective(om, al) {
				t.Errorf("%s, start ×%g: objective %.3g (recomputed %.3g) from %.3g, want 0", norm, s, F, f.objective(om, al), f0)
			}
		}
		// Never worse than the start, also from starts it may not repair: a
		// wrong support, a zero weight, doubled frequencies, too few terms.
		for _, start := range []struct {
			omega [][]float64
			alpha []float64
		}{
			{[][]float64{{0}, {0.3}, {1.0}}, []float64{0.4, 0.4, 0.4}},
			{[][]float64{{0}, {0.77}, {1.89}}, []float64{0.5, 0.3, 0}},
			{[][]float64{{0}, {1.4}, {4.2}}, []float64{0.5, 0.3, 0.2}},
			{[][]float64{{0.5}, {2.5}}, []float64{1, 0.1}},
		} {
			f0 := f.objective(start.omega, start.alpha)
			om, al, F, err := lp.polish(start.omega, start.alpha)
			if err != nil {
				t.Fatalf("%s, start %v: %v", norm, start.omega, err)
			}
			if F > f0 || F != f.objective(om, al) {
				t.Errorf("%s, start %v: objective %.6g (recomputed %.6g), start %.6g", norm, start.omega, F, f.objective(om, al), f0)
			}
			// The support keeps its size, and the zero frequency (not
			// movable: it would change D) stays at 0.
			if len(om) != len(start.omega) || len(al) != len(start.alpha) || start.omega[0][0] == 0 && om[0][0] != 0 {
				t.Errorf("%s, start %v: polished support %v", norm, start.omega, om)
			}
		}
	}
}

// TestStagePolishPhase: on a wide domain the polish with the frequencies'
// trust region in phase (|Δω| ≤ ρ/M) converges where the plain polish
// crawls. χ² on [10⁻⁶, 1] with the relative error (λ up to 13.8), D = 13,
// from evenly spaced frequencies 0.34·j (j = 1..6) and the constant, close
// to the best map known: 80 steps in phase end below 0.004 (measured
// 0.00311, stationary at 0.00306 from 160 steps) and ten times below the
// plain polish's 80 (measured 0.626). Neither ends worse than its start.
func TestStagePolishPhase(t *testing.T) {
	p := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.Chi2}, Domain: fmap.Domain{Lo: []float64{1e-6}, Hi: []float64{1}},
		Measure: fmap.Relative, Norm: fmap.LInf, Negative: fmap.NegativeSign}
	fp, _, err := (&Chum{}).fitProblem(p)
	if err != nil {
		t.Fatal(err)
	}
	f := newFitSet(fp.Form, fp.Norm, fp.Z, fp.ZWeight, fp.Signature)
	if sc := f.phaseScale(); len(sc) != 1 || math.Abs(sc[0]-1/math.Log(1e6)) > 1e-3/math.Log(1e6) {
		t.Fatalf("phaseScale %v, want [1/%.4g]", sc, math.Log(1e6))
	}
	lp := &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}
	start := [][]float64{{0}}
	for j := 1; j <= 6; j++ {
		start = append(start, []float64{0.34 * float64(j)})
	}
	alpha, err := lp.refit(start)
	if err != nil {
		t.Fatal(err)
	}
	f0 := f.objective(start, alpha)
	_, _, plain, err := lp.polish(start, alpha)
	if err != nil {
		t.Fatal(err)
	}
	om, al, phase, err := lp.polishPhase(start, alpha)
	if err != nil {
		t.Fatal(err)
	}
	if phase > 0.004 || 10*phase > plain || phase > f0 || plain > f0 || phase != f.objective(om, al) {
		t.Errorf("from %.4g: polished in phase to %.4g (want < 0.004 and 10 times below the plain polish), plainly to %.4g", f0, phase, plain)
	}
}

// TestOneAxisRefinesTheConstant: on one axis the continuous refinement
// goes on from an output that is the constant alone. For χ² on [10⁻⁴, 1]
// with the relative error at D = 13, the first refinements end at the
// constant (its truncation 0.96) and the third leaves it; skipping the
// refinement there had left the paper pipeline at the discrete LP's 0.0878
// (measured 0.0068 with it) and the final map 68 times worse.
func TestOneAxisRefinesTheConstant(t *testing.T) {
	p := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.Chi2}, Domain: fmap.Domain{Lo: []float64{1e-4}, Hi: []float64{1}},
		Measure: fmap.Relative, Norm: fmap.LInf, Negative: fmap.NegativeSign}
	off := false
	c := &Chum{Opts: ChumOptions{Continuation: &off}}
	var skipped []string
	s := design.Settings{Progress: func(m string) {
		if strings.Contains(m, "refinement") && strings.Contains(m, "skipped") {
			skipped = append(skipped, m)
		}
	}}
	res, err := c.DesignOne(context.Background(), p, 13, s)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	var discrete, paper float64
	for _, st := range res.Steps {
		v := fmap.Verify(st.Map, ref)
		switch st.Name {
		case StepDiscrete:
			discrete = v.Reported.LInf
		case StepPaper:
			paper = v.Reported.LInf
		}
	}
	if len(skipped) > 0 || !(paper < discrete/5) {
		t.Errorf("refinement: %q; paper pipeline %.4g from the discrete LP's %.4g (want 5 times lower)", skipped, paper, discrete)
	}
}

// TestStageTruncate proves that truncation keeps the largest weights that
// fit in the target dimension, greedily: a term that does not fit is
// skipped and smaller ones that do fit are still taken (Chum §2.1 keeps the
// largest weights). Weights 0.4, 0.3, 0.2 on ω ≠ 0 (D = 2 each) and 0.1 on
// ω = 0 (D = 1): D ≤ 5 keeps 0.4, 0.3 and, skipping 0.2, 0.1; D ≤ 4 keeps
// 0.4 and 0.3; D ≤ 1 keeps only the constant; zero weights are never kept.
func TestStageTruncate(t *testing.T) {
	f := stageFit(fmap.LInf, 1, 4, func(float64) float64 { return 1 })
	omega := [][]float64{{0}, {0.5}, {1.0}, {1.5}, {2.0}}
	alpha := []float64{0.1, 0.4, 0.3, 0.2, 0}
	for _, tc := range []struct {
		dim   int
		omega []float64
		alpha []float64
	}{
		{9, []float64{0.5, 1.0, 1.5, 0}, []float64{0.4, 0.3, 0.2, 0.1}},
		{5, []float64{0.5, 1.0, 0}, []float64{0.4, 0.3, 0.1}},
		{4, []float64{0.5, 1.0}, []float64{0.4, 0.3}},
		{1, []float64{0}, []float64{0.1}},
		{0, nil, nil},
	} {
		om, al := truncate(f, omega, alpha, tc.dim)
		var got []float64
		for _, o := range om {
			got = append(got, o[0])
		}
		if !slices.Equal(got, tc.omega) || !slices.Equal(al, tc.alpha) {
			t.Errorf("D ≤ %d: kept ω = %v, α = %v; want %v, %v", tc.dim, got, al, tc.omega, tc.alpha)
		}
	}
}

// TestStageExchange proves the Remez-style exchange against an exact set:
// a constant fitted to k = 1 + λ on the working set Z = {0.3, 0.5} is 1.4
// (error 0.1 there), but on the exact set {0, 0.1, …, 1} its error is 0.6;
// the exchange adds the violating points, re-polishes, and ends at the
// exact set's L∞ optimum, the midrange 1.5 with error 0.5.
func TestStageExchange(t *testing.T) {
	sig := func(l []float64) float64 { return 1 + l[0] }
	exact := points(grid(1, 10))
	ones := func(n int) []float64 {
		w := make([]float64, n)
		for i := range w {
			w[i] = 1
		}
		return w
	}
	p := &FitProblem{
		Form:      fmap.FourierForm,
		Signature: sig,
		Norm:      fmap.LInf,
		Z:         [][]float64{{0.3}, {0.5}}, ZWeight: ones(2),
		Exact: exact, ExactWeight: ones(len(exact)),
	}
	work := newFitSet(fmap.FourierForm, fmap.LInf, p.Z, p.ZWeight, sig)
	c := &fitter{ctx: context.Background(), p: p, dim: 1, lp: &lpSolver{ctx: context.Background(), fit: work, sv: solver.Default()}, progress: func(string) {}}
	c.score = newFitSet(fmap.FourierForm, fmap.LInf, p.Exact, p.ExactWeight, sig)
	start := &candidate{omega: [][]float64{{0}}, alpha: []float64{1.4}}
	// 1e-12: the start is the working set's exact midrange.
	if e := work.objective(start.omega, start.alpha); math.Abs(e-0.1) > 1e-12 {
		t.Fatalf("the start's working-set error is %g, want 0.1", e)
	}
	got, _, err := c.exchange(start, c.progress)
	if err != nil {
		t.Fatal(err)
	}
	// 1e-9: the solver's tolerances in the polish LPs.
	if len(got.alpha) != 1 || got.omega[0][0] != 0 || math.Abs(got.alpha[0]-1.5) > 1e-9 || math.Abs(got.score-0.5) > 1e-9 {
		t.Errorf("exchange ended at ω = %v, α = %v, score %.12g; want the constant 1.5 with error 0.5", got.omega, got.alpha, got.score)
	}
}

// TestStageWarmRowGeneration: an L∞ LP solved by row generation from the
// largest errors, warm from the carried basis of a neighbouring LP (the
// polish's next step: the same columns, moved values), reaches the optimum
// of the whole LP solved at once, and leaves no point above it.
func TestStageWarmRowGeneration(t *testing.T) {
	f := stageFit(fmap.LInf, 3*math.Pi, 600, func(l float64) float64 { return math.Exp(-l * l / 2) })
	lp := &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}
	build := func(shift float64) *pairLP {
		p := newPairLP(lp.weightedSignature(), 1)
		for j := range 6 {
			om := 0.4*float64(j) + shift
			v := make([]float64, f.size())
			for i := range v {
				v[i] = math.Cos(om * f.point(i)[0])
			}
			p.add(0, 0, math.Inf(1), v)
		}
		return p
	}
	first := build(0)
	first.initial = largest(first.r, 2*len(first.cost)+polishStartMin)
	_, _, warm, err := lp.solvePairs(first, nil)
	if err != nil {
		t.Fatal(err)
	}
	next := build(0.03)
	next.initial = largest(next.r, 2*len(next.cost)+polishStartMin)
	x, tw, _, err := lp.solvePairs(next, warm.carry(next.initial))
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, f.size())
	for i := range all {
		all[i] = i
	}
	_, tf, _, err := lp.solveRows(next, all, nil)
	if err != nil {
		t.Fatal(err)
	}
	// 1e-9: the solver's tolerances, relative to the error's size.
	if math.Abs(tw-tf) > 1e-9*math.Max(tf, 1) {
		t.Errorf("warm row generation ends at t = %.12g, the whole LP at %.12g", tw, tf)
	}
	worst := 0.0
	for i := range f.size() {
		e := next.r[i]
		for j, xj := range x {
			e -= next.v[j][i] * xj
		}
		worst = math.Max(worst, math.Abs(e))
	}
	if worst > tw*(1+1e-9)+1e-12 {
		t.Errorf("a point's error %.12g exceeds the LP's bound %.12g", worst, tw)
	}
}

// TestLargest: the k entries of largest magnitude, in index order.
func TestLargest(t *testing.T) {
	r := []float64{0.1, -5, 3, 0, -2, 4}
	if got, want := largest(r, 3), []int{1, 2, 5}; !slices.Equal(got, want) {
		t.Errorf("largest(%v, 3) = %v, want %v", r, got, want)
	}
	if got := largest(r, 10); len(got) != len(r) {
		t.Errorf("largest with k > len: %v", got)
	}
	// Ties go to the lower index, as a stable sort by magnitude keeps
	// them: on many ties the same points as that sort.
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 200 {
		r := make([]float64, 1+rng.IntN(300))
		for i := range r {
			r[i] = float64(rng.IntN(7)-3) / 2 // many equal magnitudes, both signs
			if rng.IntN(50) == 0 {
				r[i] = math.NaN()
			}
		}
		k := rng.IntN(len(r) + 1)
		ref := make([]int, len(r))
		for i := range ref {
			ref[i] = i
		}
		slices.SortStableFunc(ref, func(a, b int) int { return cmp.Compare(math.Abs(r[b]), math.Abs(r[a])) })
		ref = ref[:k]
		slices.Sort(ref)
		if got := largest(r, k); !slices.Equal(got, ref) {
			t.Fatalf("trial %d: largest(%v, %d) = %v, want %v", trial, r, k, got, ref)
		}
	}
}

// TestKthLargest: the k-th largest of random values with many ties is the
// sorted values' (n − k)-th.
func TestKthLargest(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 500 {
		v := make([]float64, 1+rng.IntN(200))
		for i := range v {
			v[i] = float64(rng.IntN(1 + trial%20))
			if trial%3 == 0 {
				v[i] = rng.NormFloat64()
			}
		}
		k := 1 + rng.IntN(len(v))
		sorted := slices.Sorted(slices.Values(v))
		if got, want := kthLargest(slices.Clone(v), k), sorted[len(v)-k]; got != want {
			t.Fatalf("trial %d: kthLargest(%v, %d) = %v, want %v", trial, v, k, got, want)
		}
	}
}

// TestStartPoints: a refinement LP's row generation with RefineLarge starts
// from the reference output's 2·columns + 20 largest errors and the points
// its LP held tight; without a reference it has no start of its own.
func TestStartPoints(t *testing.T) {
	f := stageFit(fmap.LInf, math.Pi, 600, func(l float64) float64 { return math.Exp(-l * l / 0.18) })
	c := &fitter{lp: &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}}
	ref, err := c.lp.chum(stagePool(0.25, 20), 0, 10, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := c.startPoints(nil, 10); got != nil {
		t.Errorf("start without a reference: %v, want nil (the default)", got)
	}
	const cols = 10
	got := c.startPoints(ref, cols)
	in := map[int]bool{}
	for _, i := range got {
		if in[i] {
			t.Fatalf("point %d listed twice", i)
		}
		in[i] = true
	}
	r := make([]float64, f.size())
	f.residuals(r, ref.omega, ref.alpha)
	for _, i := range largest(r, 2*cols+polishStartMin) {
		if !in[i] {
			t.Errorf("largest-error point %d (|e| = %.3g) missing", i, math.Abs(r[i]))
		}
	}
	tight := 0
	for k, i := range ref.warm.rows {
		if ref.warm.basis.Rows[2*k] != solver.Basic || ref.warm.basis.Rows[2*k+1] != solver.Basic {
			tight++
			if !in[i] {
				t.Errorf("tight point %d missing", i)
			}
		}
	}
	if tight == 0 || len(got) >= f.size() {
		t.Errorf("%d tight points, %d start points of %d: the test proves nothing", tight, len(got), f.size())
	}
}

// TestRefineLargeSameOptimum: a refinement LP solved the RefineLarge way
// (row generation from a reference output's points, dual Devex pricing)
// reaches the optimum of the default way: the same error and weights.
func TestRefineLargeSameOptimum(t *testing.T) {
	f := stageFit(fmap.LInf, math.Pi, 600, func(l float64) float64 { return math.Exp(-l * l / 0.18) })
	plain := &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default()}
	large := &lpSolver{ctx: context.Background(), fit: f, sv: solver.Default(), refineLarge: true}
	c := &fitter{lp: large}
	ref, err := plain.chum(stagePool(0.25, 20), 0, 10, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	pool := heaviestFrequencies(ref, 8)
	a, err := plain.chum(pool, 0.1, 10, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := large.chum(pool, 0.1, 10, nil, func(cols int) []int { return c.startPoints(ref, cols) })
	if err != nil {
		t.Fatal(err)
	}
	ea, eb := f.objective(a.omega, a.alpha), f.objective(b.omega, b.alpha)
	// 1e-8: the solver's 1e-9 tolerances on the weights.
	if math.Abs(ea-eb) > 1e-8 || math.Abs(sumOf(a.alpha)-sumOf(b.alpha)) > 1e-8 {
		t.Errorf("RefineLarge: error %.12g, Σα %.12g; default: error %.12g, Σα %.12g", eb, sumOf(b.alpha), ea, sumOf(a.alpha))
	}
}

// chum solves Chum's LP over a pool at the tradeoff γ in one call (see
// chumColumns and solveChum), as the γ search does at each γ.
func (s *lpSolver) chum(pool [][]float64, dmax, gamma float64, warm *pairWarm, initial func(cols int) []int) (*lpOutput, error) {
	return s.solveChum(s.chumColumns(pool, dmax), gamma, warm, initial)
}

// TestScoredIsScoreMap: the step of a candidate that exchange returns
// (scored) has the score scoreMap gives its map, bit for bit — taken from
// the exchange when the map's terms are the candidate's in its order,
// computed when the map sorts them (a spoilt score shows it is not taken)
// — for the L∞ (an exchange against the exact set) and L1 (none; the
// score moves from Z to the exact set) χ² designs on 8-bit data.
func TestScoredIsScoreMap(t *testing.T) {
	for _, norm := range []fmap.Norm{fmap.LInf, fmap.L1} {
		p := chi2U8(fmap.Absolute)
		p.Norm = norm
		fp, opt, err := (&Chum{}).fitProblem(p)
		if err != nil {
			t.Fatal(err)
		}
		c, err := newFitter(context.Background(), &fp, 5, opt, design.Settings{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		reused := 0
		for _, omega := range [][][]float64{{{0}, {0.6}, {1.4}}, {{0}, {1.4}, {0.6}}, {{0.3}, {0}, {2.2}}} {
			// A candidate as the polish leaves it: its objective on Z.
			alpha := []float64{0.5, 0.4, 0.1}
			cand := &candidate{omega, alpha, c.lp.fit.objective(omega, alpha)}
			cand, _, err = c.exchange(cand, func(string) {})
			if err != nil {
				t.Fatal(err)
			}
			sorted := slices.IsSortedFunc(cand.omega, slices.Compare)
			if sorted {
				reused++
			} else {
				// Out of the map's order the score must not be taken:
				// spoil it to see.
				cand.score *= 1 + 1e-12
			}
			st := c.scored(StepPolished, cand)
			if want := c.scoreMap(st.Map); math.Float64bits(st.score) != math.Float64bits(want) {
				t.Errorf("%s, ω %v: scored %v, scoreMap %v", norm, cand.omega, st.score, want)
			}
		}
		if reused == 0 || reused == 3 {
			t.Errorf("%s: %d of 3 candidates in the map's order: both cases wanted", norm, reused)
		}
	}
}

// failFirst is an LP backend whose first n solves end in a numerical
// failure; it counts every solve.
type failFirst struct {
	n, calls int
}

func (b *failFirst) Name() string { return "fail-first" }

func (b *failFirst) Solve(p *solver.Problem, o solver.Options) (*solver.Solution, error) {
	b.calls++
	if b.calls <= b.n {
		return &solver.Solution{Status: solver.NumericalFailure, Message: "failFirst"}, nil
	}
	return solver.Default().Solve(p, o)
}

// TestSearchGivesUpAfterFailedScan: the γ search's scan stops once its
// first scanFailures γ have all failed (the refinement LPs of 2-D Proj ⊗
// that failed at every γ to 10¹³), and goes on as before when a γ among
// them solves. On TestStageGammaSearch's problem (target 2, γ0 = 100, D
// ≥ 2 above γ = 2) an LP that always fails costs exactly scanFailures
// solves; one that fails the first scanFailures − 1 times still brackets
// γ = 2 from below.
func TestSearchGivesUpAfterFailedScan(t *testing.T) {
	f := stageFit(fmap.LInf, 2*math.Pi, 16, func(l float64) float64 { return 0.6 + 0.4*math.Cos(l) })
	pool := [][]float64{{0}, {1}}
	fitterOn := func(b solver.Backend) *fitter {
		return &fitter{dim: 2, lp: &lpSolver{ctx: context.Background(), fit: f, sv: b}, progress: func(string) {}}
	}
	always := &failFirst{n: math.MaxInt}
	if _, err := fitterOn(always).search(pool, 0, 0.1, 12, nil, nil); err == nil {
		t.Fatal("a search whose every LP fails returned no error")
	}
	if always.calls != scanFailures {
		t.Errorf("a search whose every LP fails made %d solves, want %d", always.calls, scanFailures)
	}
	some := &failFirst{n: scanFailures - 1}
	outs, err := fitterOn(some).search(pool, 0, 0.1, 12, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var above bool
	for _, o := range outs {
		above = above || o.dims >= 2
	}
	if !above || some.calls <= some.n+1 {
		t.Errorf("after %d failed γ the search made %d more solves and found D ≥ 2: %v", scanFailures-1, some.calls-some.n, above)
	}
}

// TestSearchAhead: a lone design's discrete γ search with RefineLarge,
// solving the γ it will likely take next beside the one it takes, takes
// the same γ in the same order with the same outputs and LP count as
// without, and takes from its solves ahead exactly the outputs its
// guesses foretold (the scan's next γ; in the bisection, the side of the
// target D was on at the γ before), each guess's γ bit for bit the one
// the search computes next.
func TestSearchAhead(t *testing.T) {
	f := stageFit(fmap.LInf, 2*math.Pi, 64, func(l float64) float64 { return math.Exp(-l * l / 2) })
	pool := stagePool(0.25, 40)
	const dim = 6
	run := func(ahead bool) ([]*lpOutput, *fitter) {
		ctx := context.Background()
		c := &fitter{ctx: ctx, dim: dim, lp: &lpSolver{ctx: ctx, fit: f, sv: solver.Default(), refineLarge: true}, progress: func(string) {}, ahead: ahead}
		outs, err := c.search(pool, 0, 100, 12, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return outs, c
	}
	want, alone := run(false)
	got, c := run(true)
	if len(got) != len(want) {
		t.Fatalf("%d outputs ahead, %d without", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		same := g.tradeoff == w.tradeoff && g.dims == w.dims && slices.Equal(g.alpha, w.alpha) && len(g.omega) == len(w.omega)
		for j := 0; same && j < len(w.omega); j++ {
			same = slices.Equal(g.omega[j], w.omega[j])
		}
		if !same {
			t.Errorf("output %d: γ = %g, D = %d ahead; γ = %g, D = %d without (or other weights)", i, g.tradeoff, g.dims, w.tradeoff, w.dims)
		}
	}
	if c.lp.n != alone.lp.n {
		t.Errorf("%d LPs ahead, %d without", c.lp.n, alone.lp.n)
	}
	// The guesses, made again from the outputs without solving ahead (the
	// scan goes down from γ0 = 100: D(100) ≥ dim here).
	if want[0].dims < dim {
		t.Fatalf("D(100) = %d: the scan would go up", want[0].dims)
	}
	hits, bisected := 0, 0
	lo, hi, below, scan := 0.0, 0.0, false, true
	for i, o := range want[:len(want)-1] {
		g, guess := o.tradeoff, 0.0
		if scan {
			guess = g / 10
			if o.dims >= dim {
				hi = g
			} else {
				lo, below, scan = g, true, false
			}
		} else {
			bisected++
			if below {
				guess = math.Sqrt(g * hi)
			} else {
				guess = math.Sqrt(lo * g)
			}
			if below = o.dims < dim; below {
				lo = g
			} else {
				hi = g
			}
		}
		if want[i+1].tradeoff == guess {
			hits++
		}
	}
	if c.aheadTaken != hits || bisected < 3 {
		t.Errorf("%d outputs came from solves ahead, the guesses foretold %d (%d bisection steps)", c.aheadTaken, hits, bisected)
	}
	t.Logf("%d γ, %d LPs, %d outputs from solves ahead", len(got), c.lp.n, c.aheadTaken)
	// Who solves ahead: a lone design with two workers, unless NoAhead.
	fp := &FitProblem{Form: fmap.FourierForm, Signature: func(l []float64) float64 { return math.Exp(-l[0] * l[0] / 2) },
		Norm: fmap.LInf, Z: [][]float64{{0}, {1}}, ZWeight: []float64{1, 1}, Pool: pool, NewMap: func([]fmap.Term) *fmap.Map { return nil }}
	for _, s := range []struct {
		set  design.Settings
		want bool
	}{{design.Settings{}, true}, {design.Settings{Workers: 1}, false}, {design.Settings{NoAhead: true}, false}} {
		c, err := newFitter(context.Background(), fp, 3, FitOptions{}, s.set, nil)
		if err != nil {
			t.Fatal(err)
		}
		if c.ahead != s.want {
			t.Errorf("%+v: ahead %v, want %v", s.set, c.ahead, s.want)
		}
	}
}
