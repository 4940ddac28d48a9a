package sampled

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// The samplings of random Fourier features' frequencies (method rff's
// option sampling).
const (
	// SamplingRandom draws every coordinate u of every frequency
	// independently and uniformly (plain Monte Carlo; error ∝ D^{-1/2}).
	SamplingRandom = "random"
	// SamplingQMC takes u from a randomly shifted Kronecker sequence in
	// any dimension (see kronecker), stratified coordinate by coordinate
	// (the m values of a coordinate fall one in each of m equal strata,
	// in the order of the Kronecker points), pushed through the quantile
	// h(u) of each coordinate's law.
	SamplingQMC = "qmc"
	// SamplingOrthogonal draws Gaussian frequencies in blocks of n
	// orthogonal directions with χ_n-distributed norms (Yu et al.,
	// "Orthogonal random features", 2016): each block is an orthonormal
	// basis from the Gram–Schmidt of n Gaussian vectors, every direction
	// scaled by the norm of another Gaussian vector, so each frequency is
	// still N(0, I) but the frequencies of a block are not independent.
	SamplingOrthogonal = "orthogonal"
)

// Streams separate the seeded draws of one design, so that the phases do
// not depend on how many uniforms the frequencies took.
const (
	streamFreq  = 0x6672657175656e63 // "frequenc"
	streamNorm  = 0x6e6f726d73000000 // "norms"
	streamPhase = 0x7068617365000000 // "phase"
	// streamMixture draws the radii of Matérn's orthogonal frequencies
	// (their directions' lengths and χ² scales).
	streamMixture = 0x6d69787475726500 // "mixture"
)

// uniform turns 64 random bits into a float64 in the open interval (0, 1):
// (k + ½)/2⁵³ for the top 53 bits k, exact and the same on every platform.
func uniform(x uint64) float64 { return (float64(x>>11) + 0.5) / (1 << 53) }

// kronecker is a randomly shifted Kronecker sequence, Roberts' R_n: point i
// has coordinates u_ij = frac(s_j + i·α_j) with α_j = φ^{-(j+1)}, φ the
// positive root of x^{n+1} = x + 1, and s uniform (a Cranley–Patterson
// rotation). In fixed point modulo 2⁶⁴, so that its points are exact.
// Measured on digits it beat Richtmyer's α_j = frac(√p_j) and an
// Owen-scrambled Sobol' sequence with untuned direction numbers (see
// docs/rff.md).
type kronecker struct {
	alpha, shift []uint64
}

// newKronecker makes the sequence of dimension n shifted by rng. φ comes
// from Newton's method in divisions, subtractions and products that feed
// no addition, so no platform fuses them: the same bits everywhere.
func newKronecker(n int, rng *rand.Rand) *kronecker {
	k := &kronecker{alpha: make([]uint64, n), shift: make([]uint64, n)}
	phi := 2.0
	for range 200 {
		p := 1.0
		for range n + 1 {
			p *= phi
		}
		phi -= (p - phi - 1) / (float64(n+1)*p/phi - 1)
	}
	a := 1.0
	for j := range n {
		a /= phi
		k.alpha[j] = uint64(a*(1<<53)) << 11
		k.shift[j] = rng.Uint64()
	}
	return k
}

// at is coordinate j of point i in fixed point.
func (k *kronecker) at(i, j int) uint64 { return k.shift[j] + uint64(i)*k.alpha[j] }

// MaxOrthogonalWork bounds the Gram–Schmidt work of orthogonal sampling,
// m·n·min(m, n) multiply-adds for m frequencies of n inputs (its time at
// the limit: docs/rff.md, "Size limits").
const MaxOrthogonalWork = 1 << 33

// Frequencies draws m frequencies of n inputs, row-major (frequency i is
// out[i*n : (i+1)*n]), coordinate j from laws[j], by the sampling named.
// Orthogonal sampling ignores laws: its frequencies are Gaussian with
// widths sigmas (σ_j per input; coordinate j of N(0, I) divided by σ_j).
// The same arguments give the same frequencies, bit for bit.
func Frequencies(m, n int, laws []Law, sigmas []float64, sampling string, seed int64) ([]float64, error) {
	return FrequenciesContext(context.Background(), m, n, laws, sigmas, sampling, seed)
}

// FrequenciesContext is Frequencies that stops soon after ctx is done
// and then returns ctx's error: orthogonal sampling looks at it before
// every row of its Gram–Schmidt (up to MaxOrthogonalWork multiply-adds in
// all).
func FrequenciesContext(ctx context.Context, m, n int, laws []Law, sigmas []float64, sampling string, seed int64) ([]float64, error) {
	if m < 1 || n < 1 {
		return nil, fmt.Errorf("sampled: %d frequencies of %d inputs", m, n)
	}
	rng := rand.New(rand.NewPCG(uint64(seed), streamFreq))
	out := make([]float64, m*n)
	switch sampling {
	case SamplingRandom:
		if len(laws) != n {
			return nil, fmt.Errorf("sampled: %d laws for %d inputs", len(laws), n)
		}
		for i := range m {
			for j := range n {
				out[i*n+j] = laws[j](uniform(rng.Uint64()))
			}
		}
	case SamplingQMC:
		if len(laws) != n {
			return nil, fmt.Errorf("sampled: %d laws for %d inputs", len(laws), n)
		}
		// Point i's coordinate j is stratum r of m, r the rank of the
		// Kronecker point's u_ij among the m points, jittered within it.
		k := newKronecker(n, rng)
		idx := make([]int, m)
		for j := range n {
			for i := range idx {
				idx[i] = i
			}
			slices.SortFunc(idx, func(a, b int) int { return cmp.Compare(k.at(a+1, j), k.at(b+1, j)) })
			for r, i := range idx {
				// (r + v)/m < 1 for v < 1, but it may round to 1.
				u := min((float64(r)+uniform(rng.Uint64()))/float64(m), 1-0x1p-53)
				out[i*n+j] = laws[j](u)
			}
		}
	case SamplingOrthogonal:
		if len(sigmas) != n {
			return nil, fmt.Errorf("sampled: %d widths for %d inputs", len(sigmas), n)
		}
		if w := float64(m) * float64(n) * float64(min(m, n)); w > MaxOrthogonalWork {
			return nil, fmt.Errorf("sampled: orthogonal frequencies of %d inputs: %d frequencies need %.3g multiply-adds, more than %.3g: use sampling qmc or random, or lower target.dim",
				n, m, w, float64(MaxOrthogonalWork))
		}
		if err := orthogonal(ctx, out, m, n, rng, rand.New(rand.NewPCG(uint64(seed), streamNorm))); err != nil {
			return nil, err
		}
		for i := range m {
			for j := range n {
				out[i*n+j] /= sigmas[j]
			}
		}
	default:
		return nil, fmt.Errorf("sampled: unknown sampling %q (random, qmc or orthogonal)", sampling)
	}
	for _, w := range out {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return nil, fmt.Errorf("sampled: a non-finite frequency %v (a kernel width too small?)", w)
		}
	}
	return out, nil
}

// stratifiedNormals draws m points of n standard normals (row-major) as a
// Latin hypercube: coordinate j of the m points is Φ⁻¹ of one uniform in
// each of the m strata of (0, 1), dealt to the points by a permutation of
// its own. Every point's coordinates are independent standard normals (the
// permutations are independent); the m values of a coordinate fill its
// law evenly.
func stratifiedNormals(m, n int, rng *rand.Rand) []float64 {
	out := make([]float64, m*n)
	for j := range n {
		for r, i := range rng.Perm(m) {
			// (r + v)/m < 1 for v < 1, but it may round to 1.
			u := min((float64(r)+uniform(rng.Uint64()))/float64(m), 1-0x1p-53)
			out[i*n+j] = NormalQuantile(u)
		}
	}
	return out
}

// orthogonal fills out (m × n) with orthogonal random features' standard
// frequencies: blocks of min(n, rows left) orthonormal rows (Gram–Schmidt of
// Gaussian rows, twice for stability), row i scaled by the norm of its own
// Gaussian n-vector (χ_n), so every row is N(0, I). It looks at ctx
// before every row (at most 4n² multiply-adds each) and returns its error
// once it is done.
func orthogonal(ctx context.Context, out []float64, m, n int, rng, norms *rand.Rand) error {
	gauss := func(r *rand.Rand) float64 { return NormalQuantile(uniform(r.Uint64())) }
	for start := 0; start < m; start += n {
		rows := min(n, m-start)
		block := out[start*n : (start+rows)*n]
		for i := range rows {
			if err := ctx.Err(); err != nil {
				return err
			}
			row := block[i*n : (i+1)*n]
			for {
				for j := range row {
					row[j] = gauss(rng)
				}
				for range 2 {
					for k := range i {
						prev := block[k*n : (k+1)*n]
						var d float64
						for j := range row {
							d += float64(row[j] * prev[j]) // never fused: see horner
						}
						for j := range row {
							row[j] -= float64(d * prev[j])
						}
					}
				}
				var s float64
				for _, v := range row {
					s += float64(v * v)
				}
				// A Gaussian row almost never lies in the span of the
				// rows before it; if it nearly does, draw it again.
				if s > 1e-20 {
					s = 1 / math.Sqrt(s)
					for j := range row {
						row[j] *= s
					}
					break
				}
			}
		}
		for i := range rows {
			var s float64
			for range n {
				g := gauss(norms)
				s += float64(g * g)
			}
			s = math.Sqrt(s)
			row := block[i*n : (i+1)*n]
			for j := range row {
				row[j] *= s
			}
		}
	}
	return nil
}

// Phases draws m phases b_i uniform on [0, 2π): independent for random and
// orthogonal sampling, a shifted golden-ratio (Kronecker) sequence for qmc.
func Phases(m int, sampling string, seed int64) []float64 {
	rng := rand.New(rand.NewPCG(uint64(seed), streamPhase))
	out := make([]float64, m)
	if sampling == SamplingQMC {
		const golden = 0x9e3779b97f4a7c15 // frac(1/φ)·2⁶⁴
		s := rng.Uint64()
		for i := range out {
			out[i] = 2 * math.Pi * uniform(s+uint64(i+1)*golden)
		}
		return out
	}
	for i := range out {
		out[i] = 2 * math.Pi * uniform(rng.Uint64())
	}
	return out
}
