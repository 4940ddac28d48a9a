package featmap

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/sampled"
)

// glSpec is an rff-group-lasso spec over 3 column groups of 2 columns
// (data columns 0..5, label column 6).
func glSpec(kernels, method, data string) string {
	return `version: 1
name: GLSynth
kernels: ` + kernels + `
domain: {dims: 6, interval: [-3, 3]}
method: ` + method + `
data: ` + data + "\n"
}

const glKernels = `
  - {type: rbf, sigma: 1, columns: [0, 1]}
  - {type: rbf, sigma: 1, columns: [2, 3]}
  - {type: rbf, sigma: 1, columns: [4, 5]}`

// glData is seeded synthetic rows: 6 uniform inputs in [-3, 3] and a label
// that depends on columns 0..3 only (groups 0 and 1), none on group 2.
func glData(n int) string {
	rng := rand.New(rand.NewPCG(7, 11))
	var b strings.Builder
	for range n {
		x := make([]float64, 6)
		for j := range x {
			x[j] = -3 + 6*rng.Float64()
		}
		y := math.Sin(x[0])*math.Cos(x[1]) + 0.5*math.Sin(x[2]+x[3]) + 0.05*rng.NormFloat64()
		for _, v := range x {
			fmt.Fprintf(&b, "%.6f,", v)
		}
		fmt.Fprintf(&b, "%.6f\n", y)
	}
	return b.String()
}

// TestGroupLassoSpec: a spec with kernels learns the weights of the
// kernels from the data's rows to fit (the library's result on the same
// rows and options), drops the uninformative group, and the combined map's
// Ψ(x)·Ψ(y) is Σ_g d_g z_g(x_g)·z_g(y_g) with d_g the library's weights.
func TestGroupLassoSpec(t *testing.T) {
	spec := glSpec(glKernels, "{name: rff-group-lasso, dim_per_kernel: 64, lambda: auto, seed: 1}",
		"{file: d.csv, columns: [0, 5], label_column: 6}")
	s := loadSpec(t, writeSpecWith(t, spec, map[string]string{"d.csv": glData(1200)}))
	des, err := s.Design(context.Background(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	r := des.GroupLasso
	if r == nil {
		t.Fatal("no group-lasso result")
	}
	for _, l := range des.Describe() {
		t.Log(l)
	}
	d := s.Problem.Data
	want, err := learn.GroupLasso(context.Background(), d.Fit, d.FitLabels, learn.GroupLassoOptions{
		Kernels: kernelGroups(s), DimPerKernel: 64, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for g := range 3 {
		if r.GroupNorms[g] != want.GroupNorms[g] {
			t.Errorf("group %d norm %v, library on the same rows %v", g, r.GroupNorms[g], want.GroupNorms[g])
		}
	}
	if r.Zero[0] || r.Zero[1] || !r.Zero[2] {
		t.Fatalf("zero groups %v (norms %v): want only the uninformative group 2 zero", r.Zero, r.GroupNorms)
	}
	m := des.Map
	bl := m.Blocks()
	if bl == nil || len(bl.Parts) != 2 || m.Dim != 128 || s.Target != nil {
		t.Fatalf("map of stages %+v, D = %d: want one blocks stage of kernels 0 and 1, D = 128", m.Stages, m.Dim)
	}
	if m.Kernel.Type != fmap.Combined || len(m.Kernel.Parts) != 2 {
		t.Fatalf("map kernel %s: want the combined kernel of the 2 kept kernels", m.Kernel.Describe())
	}
	// The blocks are rff's maps of the kept kernels at the group lasso's
	// seeds (unshrunk: the group lasso weighs them), designed here
	// independently, scaled by √d_g.
	var zmaps []*fmap.Map
	for g, k := range s.GroupLasso.Kernels[:2] {
		p := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1, 1}}, Domain: fmap.Domain{Lo: []float64{-3, -3}, Hi: []float64{3, 3}}, Measure: fmap.Absolute, Norm: fmap.LInf}
		rff := &sampled.RFF{Opts: sampled.RFFOptions{Seed: 1 + int64(g)}, Unshrunk: true}
		res, err := rff.Design(context.Background(), p, 64, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if bl.Parts[g].First != k.Columns[0] || bl.Parts[g].Last != k.Columns[1] {
			t.Fatalf("block %d on [%d, %d], kernel on %v", g, bl.Parts[g].First, bl.Parts[g].Last, k.Columns)
		}
		zmaps = append(zmaps, res.Map)
	}
	dot := func(a, b []float64) (s float64) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	var maxDiff, maxErr float64
	held := d.Held
	for i := 0; i+1 < len(held) && i < 200; i++ {
		x, y := held[i], held[i+1]
		var want, exact float64
		for g, zm := range zmaps {
			zx, zy := make([]float64, 64), make([]float64, 64)
			xs, ys := x[2*g:2*g+2], y[2*g:2*g+2]
			zm.Eval(zx, xs)
			zm.Eval(zy, ys)
			want += r.KernelWeights[g] * dot(zx, zy)
			exact += r.KernelWeights[g] * zm.Kernel.Eval(xs, ys)
		}
		got := m.Dot(x, y)
		maxDiff = math.Max(maxDiff, math.Abs(got-want))
		maxErr = math.Max(maxErr, math.Abs(got-exact))
		if k := m.Kernel.Eval(x, y); math.Abs(k-exact) > 1e-15*math.Abs(exact) {
			t.Fatalf("combined kernel %v, Σ d_g K_g %v", k, exact)
		}
	}
	t.Logf("d = %.4g, D = %d: max |Ψ·Ψ − Σ d_g z_g·z_g| = %.3g, max |Ψ·Ψ − Σ d_g K_g| = %.3g over 200 held-out pairs", r.KernelWeights, m.Dim, maxDiff, maxErr)
	if maxDiff > 1e-12 {
		t.Errorf("Ψ·Ψ differs from Σ d_g z_g·z_g by %v", maxDiff)
	}
	// The blocks' features are the ones the group lasso learned on: the
	// library's refit model (rows of the kept groups) predicts the held-out
	// rows, which it never saw, through Ψ/√d_g about as well as it did its
	// own validation rows (other features would predict nothing).
	var mse, mean, vr float64
	for _, y := range d.HeldLabels {
		mean += y / float64(len(d.HeldLabels))
	}
	psi := make([]float64, m.Dim)
	for i, x := range held {
		m.Eval(psi, x)
		pred := r.Intercept[0]
		for g, b := range bl.Parts {
			for j := range 64 {
				pred += psi[64*g+j] / b.Scale * r.Refit.At(g*64+j, 0)
			}
		}
		mse += (pred - d.HeldLabels[i]) * (pred - d.HeldLabels[i]) / float64(len(held))
		vr += (d.HeldLabels[i] - mean) * (d.HeldLabels[i] - mean) / float64(len(held))
	}
	t.Logf("refit on the map's features: held-out MSE %.4g over %d rows (library's validation %.4g; label variance %.4g)", mse, len(held), r.RelaxedValidation, vr)
	if !(mse < 1.5*r.RelaxedValidation+0.01 && mse < 0.2*vr) {
		t.Errorf("held-out MSE %v through the map's features: want near the library's validation %v and far below the variance %v", mse, r.RelaxedValidation, vr)
	}
}

// TestGroupLassoVerify: Spec.Design verifies the combined map against
// the learned kernel Σ_g d_g K_g (fmap.Verify: on sampled points of the
// domain and on the held-out rows, which the group lasso never saw), and
// the error falls as the features per kernel grow, as random features'
// error does (~1/√D).
func TestGroupLassoVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("group lasso at 256 features per kernel (seconds); skipped with -short")
	}
	t.Parallel() // shares no state with the other tests
	data := map[string]string{"d.csv": glData(1200)}
	var rms []float64
	for _, dim := range []int{32, 256} {
		spec := glSpec(glKernels, fmt.Sprintf("{name: rff-group-lasso, dim_per_kernel: %d, lambda: auto, seed: 1}", dim),
			"{file: d.csv, columns: [0, 5], label_column: 6}")
		s := loadSpec(t, writeSpecWith(t, spec, data))
		des, err := s.Design(context.Background(), Settings{})
		if err != nil {
			t.Fatal(err)
		}
		v := des.Verification
		dv := v.Data
		if dv == nil {
			t.Fatal("no held-out data verification")
		}
		// The same measure by hand on a few held-out pairs bounds it.
		var worst float64
		held := s.Problem.Data.Held
		for i := range 20 {
			worst = math.Max(worst, math.Abs(des.Map.Dot(held[i], held[i+1])-des.Problem.Kernel.Eval(held[i], held[i+1])))
		}
		scale := 0.0
		for _, p := range des.Map.Kernel.Parts {
			scale += p.Weight
		}
		t.Logf("dim_per_kernel %d, D = %d: domain L∞ %.4g RMS %.4g (%s); held-out L∞ %.4g RMS %.4g, Frobenius %.4g (Σ d_g = %.4g)",
			dim, des.Map.Dim, v.Reported.LInf, v.Reported.RMS, v.Reported.On, dv.Absolute.LInf, dv.Absolute.RMS, dv.Frobenius, scale)
		if !(dv.Absolute.LInf >= worst && dv.Absolute.LInf >= dv.Absolute.RMS && dv.Absolute.RMS > 0 && v.Reported.LInf > 0) {
			t.Errorf("held-out L∞ %v below a pair's %v, or RMS %v", dv.Absolute.LInf, worst, dv.Absolute.RMS)
		}
		rms = append(rms, dv.Absolute.RMS/scale)
	}
	if !(rms[1] < rms[0]/2) {
		t.Errorf("relative RMS %v at 32 and 256 features per kernel: want it to fall by more than 2 (√8 ≈ 2.8 expected)", rms)
	}
}

// TestGroupLassoDigitsSpec runs the shipped spec
// specs/group-lasso-digits.yaml (exp-χ² on digits' pixels 0–31, rbf on
// 32–63, label column 64): it designs a map of one block per kept kernel,
// the exp-χ² block rff's two-stage map (the per-coordinate χ² map, then
// random features), verified on the held-out rows against the learned
// kernel Σ_g d_g K_g; and the map's blocks are the features the group
// lasso learned on (the exp-χ² block included): its refit model on
// Ψ(x)/√d_g classifies the held-out rows, which it never saw; and the map
// carries the ridge model trained on its Ψ.
func TestGroupLassoDigitsSpec(t *testing.T) {
	if testing.Short() {
		t.Skip("learns on 1797 rows of digits (about 10 s)")
	}
	t.Parallel() // shares no state with the other tests
	s := loadSpec(t, "specs/group-lasso-digits.yaml")
	d, err := s.Design(context.Background(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range d.Describe() {
		t.Log(l)
	}
	r, m := d.GroupLasso, d.Map
	bl := m.Blocks()
	if bl == nil {
		t.Fatalf("stages %+v: want one blocks stage", m.Stages)
	}
	kept := 0
	for g, z := range r.Zero {
		if !z {
			kept++
			if s.GroupLasso.Kernels[g].Kernel.Type == fmap.ExpChi2 {
				b := bl.Parts[0]
				if b.First != 0 || b.Last != 31 || len(b.Stages) != 2 || b.Stages[0].Name() != "per_coordinate" || b.Stages[1].Name() != "random" {
					t.Errorf("exp-chi2 block on [%d, %d] with stages %+v: want rff's per-coordinate and random stages on pixels 0–31", b.First, b.Last, b.Stages)
				}
			}
		}
	}
	if kept == 0 || len(bl.Parts) != kept || m.Dim != 512*kept || m.InDim != 64 {
		t.Fatalf("%d blocks, D = %d, n = %d for %d kept kernels: want one block of 512 per kept kernel, n = 64", len(bl.Parts), m.Dim, m.InDim, kept)
	}
	dv := d.Verification.Data
	if dv == nil || dv.Rows != 1797 {
		t.Fatalf("data verification %+v: want the 1797 rows of digits", dv)
	}
	t.Logf("D = %d: held-out L∞ %.4g, RMS %.4g, Gram Frobenius %.4g; domain %s", m.Dim, dv.Absolute.LInf, dv.Absolute.RMS, dv.Frobenius, d.Verification.Reported)
	// The library's refit model through the map's features.
	held, labels := s.Problem.Data.Held, s.Problem.Data.HeldLabels
	psi := make([]float64, m.Dim)
	right := 0
	for i, x := range held {
		m.Eval(psi, x)
		best, arg := math.Inf(-1), 0
		for k := range r.Classes {
			sc := r.Intercept[k]
			o := 0
			for g, z := range r.Zero {
				if z {
					continue
				}
				b := bl.Parts[o/512]
				for j := range 512 {
					sc += psi[o+j] / b.Scale * r.Refit.At(g*512+j, k)
				}
				o += 512
			}
			if sc > best {
				best, arg = sc, k
			}
		}
		if r.Classes[arg] == labels[i] {
			right++
		}
	}
	acc := float64(right) / float64(len(held))
	t.Logf("the group lasso's refit model on the map's features: held-out accuracy %.4f over %d rows", acc, len(held))
	if !(acc > 0.9) {
		t.Errorf("held-out accuracy %v through the map's features: want > 0.9 (features other than the learned ones predict nothing)", acc)
	}
	// The map carries the ridge model on its own Ψ, measured on the
	// held-out rows.
	mod := m.Model
	if mod == nil || len(mod.Classes) != 10 || mod.Ridge != learn.GroupLassoRidge || mod.HeldRows != len(held) {
		t.Fatalf("model %+v: want a 10-class ridge model (λ %g) measured on the %d held-out rows", mod, learn.GroupLassoRidge, len(held))
	}
	t.Logf("the map's model (ridge λ %g on Ψ, %d rows to fit): held-out accuracy %.4f", mod.Ridge, mod.Rows, mod.HeldAccuracy)
	if !(mod.HeldAccuracy > 0.9) {
		t.Errorf("the map's model classifies %v of the held-out rows, want > 0.9", mod.HeldAccuracy)
	}
	// 1024 random features of kernels with values in (0, Σd]: the Gram
	// matrix of the held-out rows within 10% (measured 2.8%).
	if !(dv.Frobenius < 0.1) {
		t.Errorf("held-out Gram matrix relative Frobenius error %v, want < 0.1", dv.Frobenius)
	}
}
