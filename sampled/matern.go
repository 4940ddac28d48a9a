package sampled

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/featmap/featmap/fmap"
)

// This file is the spectral law of the Matérn kernels (fmap/matern.go):
// its entry in spectra draws the frequencies whole, as the law is no
// product over the inputs.

// maternDraw draws m frequencies of n inputs of the Matérn kernel k at
// widths sigmas (spectrum.draw): MaternFrequencies of k's ν.
func maternDraw(ctx context.Context, k fmap.Kernel, m, n int, sigmas []float64, sampling string, seed int64) ([]float64, error) {
	return MaternFrequencies(ctx, m, n, k.Nu, sigmas, sampling, seed)
}

// MaternFrequencies draws m frequencies of n inputs (row-major) of the
// Matérn kernel of smoothness ν and widths sigmas: its spectral law is the
// multivariate t law of 2ν degrees of freedom scaled by 1/σ, a Gaussian
// scale mixture, ω_j = g_j·√(2ν/V)/σ_j with g ~ N(0, I_n) and V ~ χ²_{2ν}
// (V = Σ_k g′_k² of 2ν further standard normals; 2ν is 1, 3 or 5). Random
// and qmc sampling draw the n + 2ν normals of a frequency by the quantile
// Φ⁻¹ of the n + 2ν coordinates of a point (for qmc, of the
// low-discrepancy sequence in n + 2ν dimensions); orthogonal sampling
// draws the directions of g by orthogonal blocks (Frequencies), their
// lengths and the 2ν normals of V as the n + 2ν normals of a point of a
// Latin hypercube (stratifiedNormals: each frequency's radius has its
// exact law), so that the directions of a block stay orthogonal. The same arguments give the same frequencies.
func MaternFrequencies(ctx context.Context, m, n int, nu float64, sigmas []float64, sampling string, seed int64) ([]float64, error) {
	df := int(2 * nu)
	if float64(df) != 2*nu || df < 1 || len(sigmas) != n {
		return nil, fmt.Errorf("sampled: Matérn frequencies of ν = %v and %d widths for %d inputs", nu, len(sigmas), n)
	}
	var g, v []float64 // m×n directions and m×df normals of V
	var err error
	switch sampling {
	case SamplingOrthogonal:
		if g, err = FrequenciesContext(ctx, m, n, nil, slices.Repeat([]float64{1}, n), sampling, seed); err != nil {
			return nil, err
		}
		// The radii stratified: each direction's length is that of n
		// normals and V the sum of df squared normals, the n + df normals
		// of a frequency one point of a Latin hypercube
		// (stratifiedNormals), so that every frequency's radius keeps its
		// exact law while each normal's m values spread over its law as a
		// stratified sample does.
		z := stratifiedNormals(m, n+df, rand.New(rand.NewPCG(uint64(seed), streamMixture)))
		v = make([]float64, m*df)
		for i := range m {
			row, zi := g[i*n:(i+1)*n], z[i*(n+df):(i+1)*(n+df)]
			var a, b float64
			for j := range n {
				a += float64(row[j] * row[j]) // never fused: see horner
				b += float64(zi[j] * zi[j])
			}
			f := math.Sqrt(b / a)
			for j := range row {
				row[j] *= f
			}
			copy(v[i*df:(i+1)*df], zi[n:])
		}
	default:
		all, err := FrequenciesContext(ctx, m, n+df, slices.Repeat([]Law{GaussianLaw(1)}, n+df), nil, sampling, seed)
		if err != nil {
			return nil, err
		}
		g, v = make([]float64, m*n), make([]float64, m*df)
		for i := range m {
			copy(g[i*n:(i+1)*n], all[i*(n+df):i*(n+df)+n])
			copy(v[i*df:(i+1)*df], all[i*(n+df)+n:(i+1)*(n+df)])
		}
	}
	out := make([]float64, m*n)
	for i := range m {
		var q float64
		for _, a := range v[i*df : (i+1)*df] {
			q += float64(a * a) // never fused: see horner
		}
		r := math.Sqrt(float64(df) / q)
		for j := range n {
			out[i*n+j] = g[i*n+j] * r / sigmas[j]
		}
	}
	for _, w := range out {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("sampled: a non-finite Matérn frequency %v (a kernel width too small?)", w)
		}
	}
	return out, nil
}
