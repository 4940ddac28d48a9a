package quality

import (
	"slices"
	"sort"
	"testing"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/digits"
	"github.com/featmap/featmap/internal/wine"
	"github.com/featmap/featmap/sampled"
)

// The Laplacian and Matérn kernels' random features against plain random
// features (docs/kernels.md, "Which sampling").

// wineRows returns the 178 standardised rows of the repository's wine data.
func wineRows(t testing.TB) [][]float64 {
	t.Helper()
	xs, _, err := wine.Load("../testdata/wine.csv")
	if err != nil {
		t.Fatal(err)
	}
	return wine.Standardised(xs)
}

// medianL1 is the median L1 distance over the pairs i < j of the rows.
func medianL1(xs [][]float64) float64 {
	var d []float64
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			s := 0.0
			for k := range xs[i] {
				if v := xs[i][k] - xs[j][k]; v < 0 {
					s -= v
				} else {
					s += v
				}
			}
			d = append(d, s)
		}
	}
	sort.Float64s(d)
	return d[len(d)/2]
}

// meanPlainError is the Gram error of plain random features (Rahimi and
// Recht's: independent draws of the kernel's law, unshrunk) on the rows
// xs, averaged over the seeds 1..seeds.
func meanPlainError(t testing.TB, k fmap.Kernel, lo, hi float64, dim int, xs [][]float64, seeds int) float64 {
	var e float64
	for seed := range int64(seeds) {
		m := &sampled.RFF{Opts: sampled.RFFOptions{Sampling: sampled.SamplingRandom, Seed: seed + 1}, Unshrunk: true}
		e += gramError(rffMapOf(t, m, k, len(xs[0]), lo, hi, dim), xs)
	}
	return e / float64(seeds)
}

// TestNewKernelsBeatRandom: at D = 1024 rff's default map of the Laplacian
// and Matérn kernels (qmc sampling for the Laplacian, orthogonal directions
// with stratified radii for Matérn; shrunk) leaves at most 0.9 times the
// Gram error of plain random features from the exact law, mean of 10
// seeds, and at most that of random sampling shrunk alike: on the first
// 500 digits rows and the 178 standardised wine rows, each with σ the
// median L1 distance (the Laplacian) or Euclidean distance (Matérn), and
// on the wine rows with σ = 3 for Matérn ν = ½ and 3/2. A long test
// (-long): 480 maps of 1 024 features.
func TestNewKernelsBeatRandom(t *testing.T) {
	needLong(t)
	type set struct {
		name    string
		xs      [][]float64
		lo, hi  float64
		kernels []fmap.Kernel
	}
	var sets []set
	for _, s := range []set{{name: "digits", xs: digitsRows(t, 500), lo: 0, hi: 16}, {name: "wine", xs: wineRows(t), lo: -5, hi: 5}} {
		n := len(s.xs[0])
		s.kernels = []fmap.Kernel{{Type: fmap.Laplacian, Sigma: slices.Repeat([]float64{medianL1(s.xs)}, n)}}
		for _, nu := range fmap.MaternNus {
			s.kernels = append(s.kernels, fmap.Kernel{Type: fmap.Matern, Nu: nu, Sigma: slices.Repeat([]float64{digits.MedianDistance(s.xs)}, n)})
		}
		if s.name == "wine" {
			for _, nu := range []float64{0.5, 1.5} {
				s.kernels = append(s.kernels, fmap.Kernel{Type: fmap.Matern, Nu: nu, Sigma: slices.Repeat([]float64{3}, n)})
			}
		}
		sets = append(sets, s)
	}
	// Each kernel is a parallel subtest: its three measurements are minutes
	// of single-threaded sampling, independent of the other kernels'.
	for _, set := range sets {
		for _, k := range set.kernels {
			t.Run(set.name+"/"+k.Describe(), func(t *testing.T) {
				t.Parallel()
				r := meanPlainError(t, k, set.lo, set.hi, 1024, set.xs, 10)
				rs := meanGramError(t, k, set.lo, set.hi, 1024, sampled.RFFOptions{Sampling: sampled.SamplingRandom}, set.xs, 10)
				d := meanGramError(t, k, set.lo, set.hi, 1024, sampled.RFFOptions{}, set.xs, 10)
				t.Logf("plain random %.4g, random shrunk %.4g, %s %.4g (%.3f× plain, %.3f× random shrunk)", r, rs, sampled.DefaultSampling(k), d, d/r, d/rs)
				if d > 0.9*r {
					t.Errorf("the default map's Gram error %.4g is %.3f× plain random features' %.4g, want ≤ 0.9×", d, d/r, r)
				}
				if d > rs {
					t.Errorf("the default map's Gram error %.4g is above random sampling's shrunk alike, %.4g", d, rs)
				}
			})
		}
	}
}
