package sampled

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	winedata "github.com/featmap/featmap/internal/wine"
)

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
	st := res.Map.Stages[0].Kind.(*fmap.Nystroem)
	if res.Map.Dim != 8 || st.Size() != 32 || st.Dim() != 8 || len(st.Proj) != 8*32 {
		t.Errorf("D %d, %d landmarks, %d outputs, %d projection entries; want 8, 32, 8, 256", res.Map.Dim, st.Size(), st.Dim(), len(st.Proj))
	}
	if !slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, "the top 8 directions of 32 Nyström features") }) {
		t.Errorf("progress %q", said)
	}
	a := nystroemMap(t, p, 16, NystroemOptions{})
	b := nystroemMap(t, p, 16, NystroemOptions{NLandmarks: 16})
	if !slices.Equal(a.Stages[0].Kind.(*fmap.Nystroem).Proj, b.Stages[0].Kind.(*fmap.Nystroem).Proj) || !slices.Equal(a.Stages[0].Kind.(*fmap.Nystroem).Landmarks, b.Stages[0].Kind.(*fmap.Nystroem).Landmarks) {
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

// kpcaMapOf is kernel PCA of the rows fit at dim, as a Nyström map of every
// row: Λ_D^{−1/2}·U_Dᵀ·[K(x, r_1) … K(x, r_N)], from a decomposition of
// the rows' kernel matrix of its own (gonum's, every positive eigenvalue
// kept).
func kpcaMapOf(t testing.TB, k fmap.Kernel, fit [][]float64, dim int) *fmap.Map {
	n, in := len(fit), len(fit[0])
	g := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			g.SetSym(i, j, k.Eval(fit[i], fit[j]))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(g, true) {
		t.Fatal("eigendecomposition failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	proj := make([]float64, dim*n)
	for r := range dim {
		c := n - 1 - r // ascending
		if vals[c] <= 0 {
			continue
		}
		for i := range n {
			proj[r*n+i] = vecs.At(i, c) / math.Sqrt(vals[c])
		}
	}
	return &fmap.Map{Kernel: k, InDim: in, Dim: dim, Method: "kernel-pca",
		Stages: []fmap.Stage{{Kind: &fmap.Nystroem{Kernel: k, In: in, Landmarks: slices.Concat(fit...), Proj: proj}}}}
}

// TestNystroemRowsAreKernelPCA: with n_landmarks at least the rows to fit,
// the landmarks are those rows and the map of D < m outputs is kernel PCA
// of them: on the rows its Gram error is the rank-D limit (to 0.1 % of
// it), on the held-out rows within 1 % of kernel PCA's. The rows are the
// raw wine measurements (0.1 to 1 680) under (x·y/13 + 1)³, whose kernel
// matrix's eigenvalues span more than 20 decades: the top 64 need
// eigenvalues below 10⁻¹⁰ of the largest, which a fixed floor there
// dropped. n_landmarks above the rows is refused at its key.
func TestNystroemRowsAreKernelPCA(t *testing.T) {
	raw, _, err := winedata.Load("../testdata/wine.csv")
	if err != nil {
		t.Fatal(err)
	}
	fit, held := winedata.Split(raw)
	k := fmap.Kernel{Type: fmap.Poly, Degree: 3, Scale: 1.0 / 13, Offset: 1}
	p := &fmap.Problem{Kernel: k, Measure: fmap.Absolute, Norm: fmap.LInf,
		Domain: fmap.Domain{Lo: make([]float64, 13), Hi: slices.Repeat([]float64{1700}, 13)},
		Data:   &fmap.Data{File: "wine.csv", Rows: len(raw), Fit: fit, Held: held}}
	for _, dim := range []int{16, 64} {
		m := nystroemMap(t, p, dim, NystroemOptions{NLandmarks: len(fit)})
		st := m.Stages[0].Kind.(*fmap.Nystroem)
		if st.Size() != len(fit) || !slices.Equal(st.Landmarks, slices.Concat(fit...)) {
			t.Fatalf("D = %d: %d landmarks, not the %d rows to fit", dim, st.Size(), len(fit))
		}
		limit, onFit := kpcaLimit(t, k, fit, dim), gramError(m, fit)
		if math.Abs(onFit-limit) > 1e-3*limit {
			t.Errorf("D = %d: Gram error %.6g on the rows to fit, their rank-%d limit %.6g", dim, onFit, dim, limit)
		}
		kp := gramError(kpcaMapOf(t, k, fit, dim), held)
		got := gramError(m, held)
		t.Logf("D = %d: held-out %.4g, kernel PCA %.4g (%.4f×); rows to fit %.4g, limit %.4g", dim, got, kp, got/kp, onFit, limit)
		if got > 1.01*kp {
			t.Errorf("D = %d: held-out Gram error %.4g, %.3f× kernel PCA's %.4g", dim, got, got/kp, kp)
		}
		// More landmarks than rows to fit are refused at the option (a
		// spec says so at method.n_landmarks when it is read).
		_, err := (&Nystroem{Opts: NystroemOptions{NLandmarks: len(fit) + 50}}).Design(context.Background(), p, dim, design.Settings{})
		var oe *design.OptionError
		if !errors.As(err, &oe) || oe.Key != "n_landmarks" {
			t.Errorf("D = %d: n_landmarks %d above the %d rows: %v, want an n_landmarks option error", dim, len(fit)+50, len(fit), err)
		}
	}
}
