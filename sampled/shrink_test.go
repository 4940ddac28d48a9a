package sampled

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// TestShrinkageClosedForm: for one block, as for the set's own size, the
// fitted c² is ⟨K, Ĝ⟩/‖Ĝ‖² computed directly from the Gram matrices, and
// the error it states is the map's, scaled, on those points; aimed at
// another size, the mean over distinct pairs and over the points weigh as
// that many points' would.
func TestShrinkageClosedForm(t *testing.T) {
	xs := wineRows(t)[:120]
	k := fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{1.5}, 13)}
	m := rffMapOf(t, &RFF{Opts: RFFOptions{Sampling: SamplingRandom, Seed: 3}, Unshrunk: true}, k, 13, -5, 5, 32)
	km, err := kernelMatrix(context.Background(), k, xs)
	if err != nil {
		t.Fatal(err)
	}
	sets := &shrinkSets{fit: xs, kFit: km, fitSize: len(xs)}
	f, err := fitShrinkage(context.Background(), m, []shrinkBlock{{0, 32}}, sets)
	if err != nil {
		t.Fatal(err)
	}
	var kg, gg float64
	for i, x := range xs {
		for j, y := range xs {
			g := m.Dot(x, y)
			kg += km.At(i, j) * g
			gg += g * g
		}
	}
	if want := kg / gg; math.Abs(f.C[0]-want) > 1e-12*want {
		t.Errorf("c² = %v, want ⟨K, Ĝ⟩/‖Ĝ‖² = %v", f.C[0], want)
	}
	scaled := &fmap.Map{Kernel: m.Kernel, InDim: m.InDim, Dim: m.Dim, Domain: m.Domain, Method: m.Method, Stages: []fmap.Stage{{Kind: &fmap.Random{}}}}
	*scaled.Stages[0].Kind.(*fmap.Random) = *m.Stages[0].Kind.(*fmap.Random)
	scaled.Stages[0].Kind.(*fmap.Random).Scale = math.Sqrt(f.C[0])
	if got := gramError(scaled, xs); math.Abs(got-f.Fit) > 1e-9 || f.Fit >= f.FitBefore {
		t.Errorf("stated error %v (before %v), the scaled map's %v", f.Fit, f.FitBefore, got)
	}
	// Aimed at 8 times the points: the error of 960 points of the box
	// is estimated from 120 of them within their sampling spread, where
	// the error of the 120 themselves is far below it (the kernel tells
	// the points apart: the diagonal holds much of ‖K‖).
	box := BoxPoints(m.Domain, 960, rand.New(rand.NewPCG(5, 6)))
	kAll, _ := kernelMatrix(context.Background(), k, box)
	kSub, _ := kernelMatrix(context.Background(), k, box[:120])
	all, err := newGramFit(context.Background(), m, []shrinkBlock{{0, 32}}, box, kAll, 960)
	if err != nil {
		t.Fatal(err)
	}
	est, err := newGramFit(context.Background(), m, []shrinkBlock{{0, 32}}, box[:120], kSub, 960)
	if err != nil {
		t.Fatal(err)
	}
	own, err := newGramFit(context.Background(), m, []shrinkBlock{{0, 32}}, box[:120], kSub, 120)
	if err != nil {
		t.Fatal(err)
	}
	one := []float64{1}
	a, e, o := math.Sqrt(all.err2(one)), math.Sqrt(est.err2(one)), math.Sqrt(own.err2(one))
	t.Logf("Gram error of 960 box points %.4g; estimated from 120 of them %.4g; theirs %.4g", a, e, o)
	if math.Abs(e-a) > 0.1*a || o > 0.6*a {
		t.Errorf("960 points' error %.4g, estimated from 120 %.4g (theirs %.4g)", a, e, o)
	}
}

// TestBoundedLS: the bounded least squares of the shrinkage keeps every c²
// in [0, 1] and finds the unconstrained minimum when it lies inside.
func TestBoundedLS(t *testing.T) {
	g := [][]float64{{2, 0.5}, {0.5, 1}}
	// Inside: G·c = r at c = (0.3, 0.6).
	r := []float64{2*0.3 + 0.5*0.6, 0.5*0.3 + 0.6}
	if c := boundedLS(g, r); math.Abs(c[0]-0.3) > 1e-12 || math.Abs(c[1]-0.6) > 1e-12 {
		t.Errorf("c = %v, want [0.3 0.6]", c)
	}
	// The unconstrained minimum (1.5, −0.2) is outside: c₂ = 0, c₁ at 1.
	r = []float64{2*1.5 - 0.5*0.2, 0.5*1.5 - 0.2}
	if c := boundedLS(g, r); c[0] != 1 || c[1] < 0 || c[1] > 1 {
		t.Errorf("c = %v, want c₁ = 1 and c₂ in [0, 1]", c)
	}
	for range 200 {
		rng := rand.New(rand.NewPCG(1, 2))
		a := mat.NewDense(3, 3, nil)
		for i := range 3 {
			for j := range 3 {
				a.Set(i, j, rng.NormFloat64())
			}
		}
		var gm mat.Dense
		gm.Mul(a, a.T())
		g := [][]float64{gm.RawRowView(0), gm.RawRowView(1), gm.RawRowView(2)}
		r := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		c := boundedLS(g, r)
		f := func(c []float64) float64 {
			v := 0.0
			for i := range 3 {
				v -= 2 * c[i] * r[i]
				for j := range 3 {
					v += c[i] * c[j] * g[i][j]
				}
			}
			return v
		}
		for i := range c {
			if c[i] < 0 || c[i] > 1 {
				t.Fatalf("c = %v outside [0, 1]", c)
			}
		}
		// No point of a grid of the box does better.
		for _, u := range [][]float64{{0, 0, 0}, {1, 1, 1}, {0.5, 0.5, 0.5}, {1, 0, 0.3}, {0.2, 0.9, 0}} {
			if f(u) < f(c)-1e-12 {
				t.Fatalf("c = %v (f %v) beaten by %v (f %v)", c, f(c), u, f(u))
			}
		}
	}
}

// TestShrinkNeverWorseThanZero: the shipped Laplacian map of the wine
// data's box (σ = 13 on [−5, 5]¹³, D = 256, seed 1), whose unshrunk
// random features leave a Gram error above 1 on the box's verification
// points, is shrunk below 1 there (held to BoxShrinkError on the design's
// own box points, and so below 1 on the verification's), and stays far
// below 1 on the wine rows.
func TestShrinkNeverWorseThanZero(t *testing.T) {
	k := fmap.Kernel{Type: fmap.Laplacian, Sigma: slices.Repeat([]float64{13}, 13)}
	p := &fmap.Problem{Kernel: k, Domain: fmap.Domain{Lo: slices.Repeat([]float64{-5}, 13), Hi: slices.Repeat([]float64{5}, 13)}, Measure: fmap.Absolute, Norm: fmap.LInf}
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	xs := wineRows(t)
	for _, un := range []bool{true, false} {
		res, err := (&RFF{Opts: RFFOptions{Seed: 1}, Unshrunk: un}).Design(context.Background(), p, 256, design.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		box, wine := fmap.Verify(res.Map, ref).Frobenius, gramError(res.Map, xs)
		t.Logf("unshrunk %v: box %.4g, wine rows %.4g (scale %v)", un, box, wine, res.Map.Stages[0].Kind.(*fmap.Random).Scale)
		switch {
		case un && box < 1:
			t.Errorf("unshrunk: box %.4g; this test wants a map above 1 there", box)
		case !un && (box >= 1 || box > BoxShrinkError+0.02 || wine > 0.2):
			t.Errorf("shrunk: box %.4g (want below 1, near %g at most), wine %.4g", box, BoxShrinkError, wine)
		}
	}
}
