package learn

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/fmap"
	digitsdata "github.com/featmap/featmap/internal/digits"
)

// glData is rows of groups×width inputs uniform on [−1, 1] whose target
// depends on the groups informative only (one smooth function of each),
// plus noise.
func glData(rows, groups, width int, informative []int, seed uint64) ([][]float64, []float64) {
	rng := rand.New(rand.NewPCG(seed, 11))
	xs, ys := make([][]float64, rows), make([]float64, rows)
	for i := range xs {
		xs[i] = make([]float64, groups*width)
		for a := range xs[i] {
			xs[i][a] = 2*rng.Float64() - 1
		}
		for c, g := range informative {
			x := xs[i][g*width:]
			ys[i] += math.Sin(2*x[0]+float64(c)) + x[1]*x[1]
		}
		ys[i] += glNoise * rng.NormFloat64()
	}
	return xs, ys
}

var glNoise = 0.3

// glOptions are 8 rbf kernels of σ = 1, one per column group of width.
func glOptions(groups, width, dim int) GroupLassoOptions {
	o := GroupLassoOptions{DimPerKernel: dim, Seed: 3}
	for g := range groups {
		o.Kernels = append(o.Kernels, KernelGroup{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, Columns: [2]int{g * width, (g+1)*width - 1}})
	}
	return o
}

// explicitZ is the training rows' N×D feature matrix and N×K centred
// targets, built row by row from the kernels' learners (not from the
// accumulated quadratic the solver uses).
func explicitZ(t *testing.T, p *glProblem) (*mat.Dense, *mat.Dense) {
	t.Helper()
	idx := p.ls[0].train
	z := mat.NewDense(len(idx), p.d, nil)
	y := mat.NewDense(len(idx), p.k, nil)
	off := 0
	for _, l := range p.ls {
		l.chunkFeatures(idx, l.freqs(make([]float64, l.params())), z.Slice(0, len(idx), off, off+l.d).(*mat.Dense),
			make([]float64, len(idx)*l.n), make([]float64, len(idx)*l.m))
		off += l.d
	}
	p.ls[0].chunkTargets(idx, y)
	return z, y
}

// TestGroupLassoSelects: 8 kernel groups, 3 informative, λ chosen on the
// validation split: the 5 others end with group norm ≤ 1e-6 of the
// largest, the 3 informative are nonzero.
func TestGroupLassoSelects(t *testing.T) {
	const groups, width = 8, 4
	informative := []int{1, 4, 6}
	xs, ys := glData(2000, groups, width, informative, 5)
	start := time.Now()
	res, err := GroupLasso(context.Background(), xs, ys, glOptions(groups, width, 32))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("λ = %.4g (λ_max %.4g), iterations %d (path %d), KKT %.2g, validation %.4g, %v", res.Lambda, res.LambdaMax,
		res.Iterations, res.TotalIterations, res.KKT, res.ValidationError, time.Since(start))
	t.Logf("group norms %.4g", res.GroupNorms)
	for _, s := range res.Path {
		t.Logf("path λ %.4g: validation %.5g, relaxed %.5g, %d nonzero, %d iterations", s.Lambda, s.Validation, s.Relaxed, s.Nonzero, s.Iterations)
	}
	var largest float64
	for _, n := range res.GroupNorms {
		largest = math.Max(largest, n)
	}
	for g, n := range res.GroupNorms {
		inf := g == informative[0] || g == informative[1] || g == informative[2]
		switch {
		case inf && !(n > 1e-3*largest):
			t.Errorf("informative group %d: norm %.3g of largest %.3g", g, n, largest)
		case !inf && n > 1e-6*largest:
			t.Errorf("uninformative group %d: norm %.3g > 1e-6 × largest %.3g", g, n, largest)
		}
		if res.Zero[g] != (n == 0) {
			t.Errorf("group %d: Zero %v with norm %v", g, res.Zero[g], n)
		}
	}
	if res.Lambda >= res.LambdaMax {
		t.Errorf("λ %v of λ_max %v: want a λ below λ_max", res.Lambda, res.LambdaMax)
	}
	// The chosen λ is the path's least relaxed validation error, and the
	// refit is better on the validation rows than the 8-group fit of the
	// path's last λ.
	for _, s := range res.Path {
		if s.Relaxed < res.RelaxedValidation {
			t.Errorf("λ %v has relaxed validation %v < chosen %v", s.Lambda, s.Relaxed, res.RelaxedValidation)
		}
	}
	if last := res.Path[len(res.Path)-1]; !(res.RelaxedValidation < last.Validation) {
		t.Errorf("relaxed validation %v at λ %v ≥ %v of the plain fit at λ %v", res.RelaxedValidation, res.Lambda, last.Validation, last.Lambda)
	}
}

// TestGroupLassoMKL: the solution relates to MKL as §3.3 (eqs. 15–17)
// says: with C = √2/λ and d_g = ‖w_g‖/√2 the MKL objective equals the
// group-lasso objective (loss from the explicit features) to 1e-8
// relative; any other d is worse; and no perturbation of w lowers it.
func TestGroupLassoMKL(t *testing.T) {
	xs, ys := glData(600, 8, 3, []int{0, 2, 7}, 9)
	opts := glOptions(8, 3, 16)
	opts.Tol = 1e-9
	p, err := newGLProblem(context.Background(), xs, ys, opts)
	if err != nil {
		t.Fatal(err)
	}
	opts.Lambda = 0.2 * p.lambdaMax
	res, err := GroupLasso(context.Background(), xs, ys, opts)
	if err != nil {
		t.Fatal(err)
	}
	z, y := explicitZ(t, p)
	lossAt := func(w *mat.Dense) float64 {
		var r mat.Dense
		r.Mul(z, w)
		r.Sub(&r, y)
		n := mat.Norm(&r, 2)
		return 0.5 * n * n / float64(p.n)
	}
	glAt := func(w *mat.Dense) float64 {
		f := lossAt(w)
		for _, n := range p.norms(w) {
			f += res.Lambda * n
		}
		return f
	}
	gl := glAt(res.Weights)
	if math.Abs(gl-res.Objective) > 1e-10*gl {
		t.Errorf("objective %v, explicit %v", res.Objective, gl)
	}
	nz := 0
	for g, n := range res.GroupNorms {
		if d := res.KernelWeights[g]; math.Abs(d-n/math.Sqrt2) > 1e-15*n {
			t.Errorf("group %d: d %v, ‖w‖/√2 %v", g, d, n/math.Sqrt2)
		}
		if n > 0 {
			nz++
		}
	}
	if nz < 2 || nz == len(res.GroupNorms) {
		t.Fatalf("%d nonzero groups of %d: want a solution with zero and nonzero groups", nz, len(res.GroupNorms))
	}
	var share float64
	for _, s := range res.KernelShares {
		share += s
	}
	if math.Abs(share-1) > 1e-12 {
		t.Errorf("kernel shares sum to %v", share)
	}
	mkl := MKLObjective(res.GroupNorms, res.KernelWeights, res.Lambda, lossAt(res.Weights))
	if math.Abs(mkl-gl) > 1e-8*gl {
		t.Errorf("MKL objective %.15g at d = ‖w‖/√2, group lasso %.15g", mkl, gl)
	}
	t.Logf("λ %.3g: objective %.12g, MKL %.12g, norms %.4g, d shares %.4g", res.Lambda, gl, mkl, res.GroupNorms, res.KernelShares)
	rng := rand.New(rand.NewPCG(1, 2))
	for range 20 {
		d := make([]float64, len(res.KernelWeights))
		for g := range d {
			d[g] = res.KernelWeights[g] * math.Exp(0.2*rng.NormFloat64())
		}
		if m := MKLObjective(res.GroupNorms, d, res.Lambda, lossAt(res.Weights)); !(m > mkl) {
			t.Errorf("MKL objective %v at a perturbed d ≤ %v at eq. 16's d", m, mkl)
		}
		// Joint minimum: a perturbed w with its own best d is no better.
		w := mat.DenseCopyOf(res.Weights)
		for i := range p.d {
			for j := range p.k {
				w.Set(i, j, w.At(i, j)+1e-4*rng.NormFloat64())
			}
		}
		norms := p.norms(w)
		dw, _ := KernelWeights(norms)
		if m := MKLObjective(norms, dw, res.Lambda, lossAt(w)); m < mkl-1e-12*mkl {
			t.Errorf("MKL objective %v at a perturbed w < %v at the solution", m, mkl)
		}
	}
}

// TestGroupLassoKKT: at the solution the KKT conditions hold within the
// stopping tolerance, with the residual r = Y − ZW from the explicit
// features: zero groups ‖Z_gᵀr‖/N ≤ λ(1+tol), nonzero ones
// Z_gᵀr/N = λ w_g/‖w_g‖; for regression and for classes (one-vs-rest),
// with rbf and skewed kernels mixed.
func TestGroupLassoKKT(t *testing.T) {
	for _, classes := range []bool{false, true} {
		xs, ys := glData(500, 6, 3, []int{1, 3}, 13)
		if classes {
			for i, v := range ys {
				ys[i] = math.Floor(math.Max(-1, math.Min(1, v/1.5))) // classes −1, 0, 1
			}
		}
		opts := glOptions(6, 3, 16)
		opts.Classes = classes
		// Mixed kernels: groups 2 and 3 skewed (inputs in [−1, 1], c = 1.5).
		opts.Kernels[2].Kernel = fmap.Kernel{Type: fmap.SkewedChi2, Sigma: []float64{0.5}, C: 1.5}
		opts.Kernels[3].Kernel = fmap.Kernel{Type: fmap.SkewedIntersection, Sigma: []float64{0.5}, C: 1.5}
		const tol = 1e-6
		opts.Tol = tol
		p, err := newGLProblem(context.Background(), xs, ys, opts)
		if err != nil {
			t.Fatal(err)
		}
		opts.Lambda = 0.2 * p.lambdaMax
		res, err := GroupLasso(context.Background(), xs, ys, opts)
		if err != nil {
			t.Fatal(err)
		}
		z, y := explicitZ(t, p)
		var r, g mat.Dense
		r.Mul(z, res.Weights)
		r.Sub(y, &r)
		g.Mul(z.T(), &r)
		g.Scale(1/float64(p.n), &g)
		lam := res.Lambda
		zero := 0
		for k, gr := range p.groups {
			wg := res.Weights.Slice(gr[0], gr[1], 0, p.k)
			gg := g.Slice(gr[0], gr[1], 0, p.k)
			nw := mat.Norm(wg, 2)
			if nw == 0 {
				zero++
				if n := mat.Norm(gg, 2); n > lam*(1+tol) {
					t.Errorf("classes %v: zero group %d: ‖Z_gᵀr‖/N = %v > λ(1+tol) = %v", classes, k, n, lam*(1+tol))
				}
				continue
			}
			var e mat.Dense
			e.Scale(lam/nw, wg)
			e.Sub(gg, &e)
			if n := mat.Norm(&e, 2); n > tol*lam*1.01 {
				t.Errorf("classes %v: group %d: ‖Z_gᵀr/N − λw_g/‖w_g‖‖ = %v > tol·λ = %v", classes, k, n, tol*lam)
			}
		}
		t.Logf("classes %v (K = %d): %d zero groups of %d, %d iterations, KKT %.2g, norms %.4g", classes, p.k, zero, len(p.groups), res.Iterations, res.KKT, res.GroupNorms)
		if zero == 0 || zero == len(p.groups) {
			t.Errorf("classes %v: %d zero groups of %d: want some zero and some not", classes, zero, len(p.groups))
		}
	}
}

// TestGroupLassoDeterministic: the same seed gives the same weights bit for
// bit; another seed other features, hence other weights.
func TestGroupLassoDeterministic(t *testing.T) {
	xs, ys := glData(400, 4, 3, []int{0, 2}, 17)
	opts := glOptions(4, 3, 16)
	a, err := GroupLasso(context.Background(), xs, ys, opts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := GroupLasso(context.Background(), xs, ys, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !mat.Equal(a.Weights, b.Weights) || a.Lambda != b.Lambda || a.TotalIterations != b.TotalIterations {
		t.Errorf("same seed, different results: λ %v / %v, iterations %d / %d", a.Lambda, b.Lambda, a.TotalIterations, b.TotalIterations)
	}
	opts.Seed = 4
	c, err := GroupLasso(context.Background(), xs, ys, opts)
	if err != nil {
		t.Fatal(err)
	}
	if mat.Equal(a.Weights, c.Weights) {
		t.Error("seeds 3 and 4 give the same weights")
	}
}

// TestGroupLassoErrors: bad options are errors naming what is wrong.
func TestGroupLassoErrors(t *testing.T) {
	xs, ys := glData(50, 2, 2, []int{0}, 1)
	for name, o := range map[string]GroupLassoOptions{
		"no kernels": {DimPerKernel: 8},
		"columns":    {DimPerKernel: 8, Kernels: []KernelGroup{{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, Columns: [2]int{2, 4}}}},
		"kernel":     {DimPerKernel: 8, Kernels: []KernelGroup{{Kernel: fmap.Kernel{Type: fmap.Chi2}, Columns: [2]int{0, 1}}}},
		"dim":        {DimPerKernel: 3, Kernels: []KernelGroup{{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, Columns: [2]int{0, 1}}}},
		"lambda":     {DimPerKernel: 8, Lambda: -1, Kernels: []KernelGroup{{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1}}, Columns: [2]int{0, 1}}}},
	} {
		if _, err := GroupLasso(context.Background(), xs, ys, o); err == nil {
			t.Errorf("%s: no error", name)
		} else {
			t.Logf("%s: %v", name, err)
		}
	}
}

// BenchmarkGroupLasso: 5000 rows, 8 kernel groups of 8 columns (3
// informative), 64 features each (D = 512), λ auto.
func BenchmarkGroupLasso(b *testing.B) {
	xs, ys := glData(5000, 8, 8, []int{1, 4, 6}, 21)
	opts := glOptions(8, 8, 64)
	for range b.N {
		res, err := GroupLasso(context.Background(), xs, ys, opts)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(res.TotalIterations), "iterations")
		b.Logf("λ %.4g (λ_max %.4g), iterations %d at λ, %d path of %d steps, KKT %.2g, validation %.4g relaxed %.4g, norms %.4g",
			res.Lambda, res.LambdaMax, res.Iterations, res.TotalIterations, len(res.Path), res.KKT, res.ValidationError, res.RelaxedValidation, res.GroupNorms)
	}
}

// BenchmarkGroupLassoDigits: digits (1797 rows, 10 classes one-vs-rest),
// one rbf kernel per image row (8 groups of 8 pixels, σ the group's median
// distance), 64 features each, λ auto; logs the kernel shares and the
// validation accuracy of the refit.
func BenchmarkGroupLassoDigits(b *testing.B) {
	xs, labels, err := digitsdata.LoadLabelled("../testdata/digits.csv.gz", 1797)
	if err != nil {
		b.Fatal(err)
	}
	opts := GroupLassoOptions{DimPerKernel: 64, Seed: 1, Classes: true}
	for g := range 8 {
		sub := make([][]float64, len(xs))
		for i, r := range xs {
			sub[i] = r[8*g : 8*g+8]
		}
		opts.Kernels = append(opts.Kernels, KernelGroup{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{digitsdata.MedianDistance(sub)}},
			Columns: [2]int{8 * g, 8*g + 7}})
	}
	for range b.N {
		res, err := GroupLasso(context.Background(), xs, labels, opts)
		if err != nil {
			b.Fatal(err)
		}
		p, err := newGLProblem(context.Background(), xs, labels, opts)
		if err != nil {
			b.Fatal(err)
		}
		// Validation accuracy of the refit: the class of largest score.
		val := p.ls[0].val
		z := mat.NewDense(len(val), p.d, nil)
		off := 0
		for _, l := range p.ls {
			l.chunkFeatures(val, l.freqs(make([]float64, l.params())), z.Slice(0, len(val), off, off+l.d).(*mat.Dense),
				make([]float64, len(val)*l.n), make([]float64, len(val)*l.m))
			off += l.d
		}
		var sc mat.Dense
		sc.Mul(z, res.Refit)
		right := 0
		for i, r := range val {
			best := 0
			for j := range p.k {
				if sc.At(i, j)+res.Intercept[j] > sc.At(i, best)+res.Intercept[best] {
					best = j
				}
			}
			if res.Classes[best] == labels[r] {
				right++
			}
		}
		b.Logf("λ %.4g (λ_max %.4g), %d path steps, %d iterations, KKT %.2g, relaxed validation %.4g, refit accuracy %.4f on %d rows, shares %.3f",
			res.Lambda, res.LambdaMax, len(res.Path), res.TotalIterations, res.KKT, res.RelaxedValidation, float64(right)/float64(len(val)), len(val), res.KernelShares)
	}
}

// TestGroupLassoCancelSolve: a context cancelled while the proximal
// solver runs stops it: GroupLasso returns the context's error soon after
// the cancel, not after MaxIterations iterations of D² work (here 2 kernels
// of 1024 features, a λ far below λ_max and a tolerance no iteration
// reaches: about 10 s of solving otherwise).
func TestGroupLassoCancelSolve(t *testing.T) {
	if testing.Short() {
		t.Skip("a D = 2048 problem")
	}
	xs, ys := glData(60, 2, 2, []int{0}, 5)
	opts := glOptions(2, 2, 1024)
	opts.Lambda, opts.Tol, opts.MaxIterations = 1e-9, 1e-300, 3000
	cancelledSoon(t, "GroupLasso", 300*time.Millisecond, 3*time.Second, func(ctx context.Context) error {
		_, err := GroupLasso(ctx, xs, ys, opts)
		return err
	})
}

// TestGroupLassoCancelFrequencies: a context cancelled while a kernel's
// orthogonal frequencies are drawn (one rbf kernel on 2048 columns, 2048
// frequencies: MaxOrthogonalWork, about 10 s) stops the drawing: GroupLasso
// returns the context's error soon after the cancel.
func TestGroupLassoCancelFrequencies(t *testing.T) {
	if testing.Short() {
		t.Skip("2³³ multiply-adds if the cancel is missed")
	}
	xs, ys := glData(8, 1, 2048, []int{0}, 5)
	opts := glOptions(1, 2048, 4096)
	cancelledSoon(t, "GroupLasso", 200*time.Millisecond, 2*time.Second, func(ctx context.Context) error {
		_, err := GroupLasso(ctx, xs, ys, opts)
		return err
	})
}
