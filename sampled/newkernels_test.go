package sampled

import (
	"context"
	"math"
	"slices"
	"testing"

	digitsdata "github.com/featmap/featmap/internal/digits"
	winedata "github.com/featmap/featmap/internal/wine"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// wineRows returns the 178 standardised rows of ../testdata/wine.csv.
func wineRows(t testing.TB) [][]float64 {
	t.Helper()
	xs, _, err := winedata.Load("../testdata/wine.csv")
	if err != nil {
		t.Fatal(err)
	}
	return winedata.Standardised(xs)
}

// medianL1 is the median L1 distance over the pairs i < j of the rows.
func medianL1(xs [][]float64) float64 {
	var d []float64
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			var s float64
			for k := range xs[i] {
				s += math.Abs(xs[i][k] - xs[j][k])
			}
			d = append(d, s)
		}
	}
	slices.Sort(d)
	return d[len(d)/2]
}

// TestLaplacianMaternLaws checks the spectral laws by their mean: the
// average of cos(ω·λ) over many frequencies drawn by every sampling that
// applies is the kernel's signature at λ (Bochner), within 0.01 at
// 2·10⁵ frequencies, for the Laplacian and the three Matérn kernels on 3
// axes of unequal widths.
func TestLaplacianMaternLaws(t *testing.T) {
	const m = 200000
	sig := []float64{0.5, 1, 2}
	lambdas := [][]float64{{0.1, 0, 0}, {0.3, -0.5, 1}, {1, 1, -2}, {0, 0, 4}}
	kernels := []fmap.Kernel{{Type: fmap.Laplacian, Sigma: sig}}
	for _, nu := range fmap.MaternNus {
		kernels = append(kernels, fmap.Kernel{Type: fmap.Matern, Nu: nu, Sigma: sig})
	}
	for _, k := range kernels {
		for _, sampling := range []string{SamplingRandom, SamplingQMC, SamplingOrthogonal} {
			if sampling == SamplingOrthogonal && !Spherical(k) {
				continue
			}
			var w []float64
			var err error
			if k.Type == fmap.Matern {
				w, err = MaternFrequencies(context.Background(), m, 3, k.Nu, sig, sampling, 7)
			} else {
				laws := []Law{LaplacianLaw(sig[0]), LaplacianLaw(sig[1]), LaplacianLaw(sig[2])}
				w, err = Frequencies(m, 3, laws, nil, sampling, 7)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range lambdas {
				var s float64
				for i := range m {
					s += math.Cos(w[3*i]*l[0] + w[3*i+1]*l[1] + w[3*i+2]*l[2])
				}
				if got, want := s/m, k.Signature(l); math.Abs(got-want) > 0.01 {
					t.Errorf("%s, %s: mean cos(ω·λ) at λ = %v is %.4f, the kernel %.4f", k.Describe(), sampling, l, got, want)
				}
			}
		}
	}
	// Orthogonal sampling of the Laplacian's law is refused.
	p := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.Laplacian, Sigma: []float64{1, 1}}, Domain: fmap.Domain{Lo: []float64{0, 0}, Hi: []float64{1, 1}}, Measure: fmap.Absolute, Norm: fmap.LInf}
	if err := (&RFF{Opts: RFFOptions{Sampling: SamplingOrthogonal}}).CheckOptions(p); err == nil {
		t.Error("orthogonal sampling of the Laplacian's Cauchy law was accepted")
	}
}

// TestNewKernelsNystroem designs Nyström maps of the Laplacian, Matérn and
// polynomial kernels from the wine data's rows and checks their held-out
// Gram error falls with D.
func TestNewKernelsNystroem(t *testing.T) {
	xs := wineRows(t)
	n := len(xs[0])
	fit, held := winedata.Split(xs)
	data := &fmap.Data{File: "wine.csv", Fit: fit, Held: held, Rows: len(xs)}
	lo, hi := slices.Repeat([]float64{-5}, n), slices.Repeat([]float64{5}, n)
	for _, k := range []fmap.Kernel{
		{Type: fmap.Laplacian, Sigma: slices.Repeat([]float64{medianL1(xs)}, n)},
		{Type: fmap.Matern, Nu: 1.5, Sigma: slices.Repeat([]float64{digitsdata.MedianDistance(xs)}, n)},
		{Type: fmap.Poly, Degree: 3, Scale: 1.0 / 13, Offset: 1},
	} {
		p := &fmap.Problem{Kernel: k, Domain: fmap.Domain{Lo: lo, Hi: hi}, Measure: fmap.Absolute, Norm: fmap.LInf, Data: data}
		prev := math.Inf(1)
		for _, dim := range []int{8, 32, 96} {
			res, err := (&Nystroem{}).Design(context.Background(), p, dim, design.Settings{})
			if err != nil {
				t.Fatalf("%s, D = %d: %v", k.Describe(), dim, err)
			}
			e := fmap.VerifyData(res.Map, data).Frobenius
			t.Logf("%s, D = %d: held-out Gram error %.4g", k.Describe(), dim, e)
			if !(e < prev) {
				t.Errorf("%s, D = %d: held-out Gram error %.4g, not below %.4g", k.Describe(), dim, e, prev)
			}
			prev = e
		}
	}
}
