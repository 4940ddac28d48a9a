package sampled

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/symeig"
)

// kpcaMap is the kernel-PCA limit of p's rows to fit at dim as a map: the
// top dim eigenvectors v_r (eigenvalues λ_r) of their Gram matrix,
// extended to any x by Ψ_r(x) = Σ_i v_ri K(x, f_i)/√λ_r — a Nyström map
// with every row to fit a landmark, reduced to dim, computed here apart
// from the method's code.
func kpcaMap(t testing.TB, p *fmap.Problem, dims []int) map[int]*fmap.Map {
	t.Helper()
	fit := p.Data.Fit
	n, in := len(fit), len(fit[0])
	g := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			g.SetSym(i, j, p.Kernel.Eval(fit[i], fit[j]))
		}
	}
	vals, vecs, ok := symeig.Descending(g)
	if !ok {
		t.Fatal("the eigendecomposition of the rows to fit's Gram matrix failed")
	}
	var land []float64
	for _, f := range fit {
		land = append(land, f...)
	}
	out := map[int]*fmap.Map{}
	for _, dim := range dims {
		proj := make([]float64, dim*n)
		for r := range dim {
			s := 1 / math.Sqrt(vals[r])
			for i := range n {
				proj[r*n+i] = vecs.At(i, r) * s
			}
		}
		out[dim] = &fmap.Map{Kernel: p.Kernel, InDim: in, Dim: dim, Domain: p.Domain, Method: "kernel-pca",
			Stages: []fmap.Stage{{Nystroem: &fmap.Nystroem{Kernel: p.Kernel, In: in, Landmarks: land, Proj: proj}}}}
	}
	return out
}

// TestNystroemRankLimit: on the digits (the first 1400 rows fit, the other
// 397 held out), for the Gaussian kernel (σ = 49, about the median
// distance) and exp-χ² (β = 0.005, about 1/median χ² distance of the raw
// counts) at D = 16, 64 and 256, Nyström of m = 8D landmarks (at most
// 1024) reduced to D is within 1.1× of the kernel-PCA limit of the rows to
// fit on the held-out rows, and below plain Nyström of D landmarks; every
// map's held-out error is at least the rank-D bound there. It logs the
// four figures (docs/nystroem.md, "More landmarks than D").
func TestNystroemRankLimit(t *testing.T) {
	if testing.Short() {
		t.Skip("about 90 s of CPU (the kernel-PCA limits, m = 1024 landmarks twice)")
	}
	xs := digits(t, 1797)
	problems := []struct {
		name string
		k    fmap.Kernel
	}{
		{"rbf", fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{49}, 64)}},
		{"exp-chi2", fmap.Kernel{Type: fmap.ExpChi2, Beta: 0.005}},
	}
	dims := []int{16, 64, 256}
	for _, pr := range problems {
		p := digitsProblem(pr.k, 16, xs)
		t0 := time.Now()
		limits := kpcaMap(t, p, dims)
		t.Logf("%s: the kernel-PCA limits in %.1f s", pr.name, time.Since(t0).Seconds())
		for _, dim := range dims {
			nl := min(8*dim, MaxLandmarks)
			t0 := time.Now()
			reduced := fmap.VerifyData(nystroemMap(t, p, dim, NystroemOptions{NLandmarks: nl}), p.Data)
			took := time.Since(t0).Seconds()
			plain := fmap.VerifyData(nystroemMap(t, p, dim, NystroemOptions{}), p.Data)
			kpca := fmap.VerifyData(limits[dim], p.Data)
			bound := reduced.RankBound.Frobenius
			t.Logf("%-8s D = %3d: m = %4d %.4g (%.1f s), kernel-PCA limit %.4g (%.3f×), rank-D bound %.4g, nystroem of D %.4g",
				pr.name, dim, nl, reduced.Frobenius, took, kpca.Frobenius, reduced.Frobenius/kpca.Frobenius, bound, plain.Frobenius)
			if reduced.Frobenius > 1.1*kpca.Frobenius {
				t.Errorf("%s D = %d: m = %d gives %.4g, more than 1.1× the kernel-PCA limit %.4g", pr.name, dim, nl, reduced.Frobenius, kpca.Frobenius)
			}
			if reduced.Frobenius >= plain.Frobenius {
				t.Errorf("%s D = %d: m = %d gives %.4g, not below nystroem of D %.4g", pr.name, dim, nl, reduced.Frobenius, plain.Frobenius)
			}
			for name, v := range map[string]*fmap.DataVerification{"reduced": reduced, "plain": plain, "kernel-PCA": kpca} {
				if b := v.RankBound; b == nil || b.Rank != dim || b.Frobenius != bound || v.Frobenius < bound {
					t.Errorf("%s D = %d: %s map %.4g, bound %+v (want rank %d, %.4g, below the map)", pr.name, dim, name, v.Frobenius, b, dim, bound)
				}
			}
		}
	}
}

// TestNystroemLandmarksOption: n_landmarks m > D makes a map of D outputs
// whose projection is D × m, and says so; n_landmarks = D is the map of D
// landmarks, bit for bit; D above m, and m × inputs beyond
// MaxLandmarkValues, are refused naming the key.
func TestNystroemLandmarksOption(t *testing.T) {
	xs := digits(t, 1797)
	p := digitsProblem(fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{49}, 64)}, 16, xs)
	var said []string
	res, err := (&Nystroem{Opts: NystroemOptions{NLandmarks: 32}}).Design(context.Background(), p, 8, design.Settings{Progress: func(s string) { said = append(said, s) }})
	if err != nil {
		t.Fatal(err)
	}
	st := res.Map.Stages[0].Nystroem
	if res.Map.Dim != 8 || st.Size() != 32 || st.Dim() != 8 || len(st.Proj) != 8*32 {
		t.Errorf("D %d, %d landmarks, %d outputs, %d projection entries; want 8, 32, 8, 256", res.Map.Dim, st.Size(), st.Dim(), len(st.Proj))
	}
	if !slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, "the top 8 directions of 32 Nyström features") }) {
		t.Errorf("progress %q", said)
	}
	a := nystroemMap(t, p, 16, NystroemOptions{})
	b := nystroemMap(t, p, 16, NystroemOptions{NLandmarks: 16})
	if !slices.Equal(a.Stages[0].Nystroem.Proj, b.Stages[0].Nystroem.Proj) || !slices.Equal(a.Stages[0].Nystroem.Landmarks, b.Stages[0].Nystroem.Landmarks) {
		t.Error("n_landmarks = D differs from the default")
	}
	m := &Nystroem{Opts: NystroemOptions{NLandmarks: 16}}
	if err := m.CheckTarget(17); err == nil || !strings.Contains(err.Error(), "method.n_landmarks") {
		t.Errorf("D = 17 of 16 landmarks: %v", err)
	}
	if _, err := m.Design(context.Background(), p, 17, design.Settings{}); err == nil {
		t.Error("designed D = 17 of 16 landmarks")
	}
	wide := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{1}, 10_000)},
		Domain: fmap.Domain{Lo: make([]float64, 10_000), Hi: slices.Repeat([]float64{1}, 10_000)}}
	err = (&Nystroem{Opts: NystroemOptions{NLandmarks: 1000}}).CheckOptions(wide)
	if err == nil || !strings.Contains(err.Error(), "at most 838 landmarks of 10000 inputs") {
		t.Errorf("1000 landmarks of 10000 inputs: %v", err)
	}
}

// TestNystroemAutoVariants: with data method auto is offered m = 8D
// landmarks, at most MaxLandmarks and the rows to fit, and nothing when
// that is not more than D.
func TestNystroemAutoVariants(t *testing.T) {
	xs := digits(t, 1797)
	p := digitsProblem(fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{49}, 64)}, 16, xs)
	for dim, want := range map[int]int{4: 32, 64: 512, 256: 1024, 1024: 0} {
		vs := (&Nystroem{}).AutoVariants(p, dim)
		got := 0
		if len(vs) == 1 {
			got = vs[0].(*Nystroem).Opts.NLandmarks
		}
		if got != want || len(vs) > 1 {
			t.Errorf("D = %d: %d variants, n_landmarks %d; want %d", dim, len(vs), got, want)
		}
	}
}
