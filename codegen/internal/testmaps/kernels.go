package testmaps

import (
	"math/rand/v2"

	"github.com/featmap/featmap/fmap"
)

// The test maps of the polynomial, Laplacian and Matérn kernels.

// polyKernel is (0.3·x·y + 1)^3.
var polyKernel = fmap.Kernel{Type: fmap.Poly, Degree: 3, Scale: 0.3, Offset: 1}

// polyOn is where the polynomial test maps' errors were "measured".
const polyOn = "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"

// polyExact is the exact map of every degree of polyKernel on n inputs.
func polyExact(n int) *fmap.Polynomial {
	st := &fmap.Polynomial{In: n}
	for j, c := range []float64{1, 0.9, 0.27, 0.027} { // C(3, j)·0.3^j
		st.Exact = append(st.Exact, fmap.PolyExact{Degree: j, Coef: c})
	}
	return st
}

// sketch draws a TensorSRHT sketch of coef·(x·y)^degree of dim components
// on n inputs.
func sketch(r *rand.Rand, n, degree, dim int, coef float64) fmap.PolySketch {
	size := 1
	for size < n {
		size *= 2
	}
	s := fmap.PolySketch{Degree: degree, Coef: coef, Dim: dim, Size: size}
	f, b := s.Features(), s.Blocks()
	for range degree * b * n {
		s.Signs = append(s.Signs, int8(r.IntN(4)))
	}
	s.Rows = make([]int32, degree*f)
	for k := range degree {
		for bb := range b {
			perm := r.Perm(size)
			for i := bb * size; i < min((bb+1)*size, f); i++ {
				s.Rows[k*f+i] = int32(perm[i-bb*size])
			}
		}
	}
	return s
}

// PolyExact is the exact map of (0.3·x·y + 1)³ on [−1, 1]³: its 20
// monomials.
func PolyExact() fmap.Verified {
	st := polyExact(3)
	return random(&fmap.Map{Kernel: polyKernel, InDim: 3, Dim: st.Dim(), Domain: box(3, -1, 1, false), Method: "polynomial",
		Stages: []fmap.Stage{{Kind: st}}}, absolute(1e-15, 1e-16, 1000000, polyOn))
}

// PolySketch is a map of (0.3·x·y + 1)³ on [−1, 1]⁵ with the monomials of
// degrees 0 and 1 and TensorSRHT sketches of degrees 2 (21 components,
// two blocks of 8 features) and 3 (9 components: an odd dimension).
func PolySketch() fmap.Verified {
	r := rand.New(rand.NewPCG(7, 11))
	st := &fmap.Polynomial{In: 5, Exact: []fmap.PolyExact{{Degree: 0, Coef: 1}, {Degree: 1, Coef: 0.9}},
		Sketch: []fmap.PolySketch{sketch(r, 5, 2, 21, 0.27), sketch(r, 5, 3, 9, 0.027)}}
	return random(&fmap.Map{Kernel: polyKernel, InDim: 5, Dim: st.Dim(), Domain: box(5, -1, 1, false), Method: "polynomial",
		Stages: []fmap.Stage{{Kind: st}}}, absolute(0.5, 0.1, 1000000, polyOn))
}

// PolyPCA is the exact map of (0.3·x·y + 1)³ on [−1, 1]² (10 monomials)
// projected onto 4 directions of random entries.
func PolyPCA() fmap.Verified {
	r := rand.New(rand.NewPCG(8, 12))
	st := polyExact(2)
	lin := &fmap.Linear{In: st.Dim(), Proj: make([]float64, 4*st.Dim())}
	for i := range lin.Proj {
		lin.Proj[i] = r.NormFloat64() / 3
	}
	return random(&fmap.Map{Kernel: polyKernel, InDim: 2, Dim: 4, Domain: box(2, -1, 1, false), Method: "polynomial",
		Stages: []fmap.Stage{{Kind: st}, {Kind: lin}}}, absolute(0.3, 0.05, 1000000, polyOn))
}

// PolyOne is the exact map of (0.3·x·y + 1)³ on one input, [−2, 2]: 4
// monomials.
func PolyOne() fmap.Verified {
	st := polyExact(1)
	return random(&fmap.Map{Kernel: polyKernel, InDim: 1, Dim: st.Dim(), Domain: box(1, -2, 2, false), Method: "polynomial",
		Stages: []fmap.Stage{{Kind: st}}}, absolute(1e-15, 1e-16, 1000000, polyOn))
}

// NysLaplacian is a Nyström map of the Laplacian kernel (σ = 0.5, 1, 2) on
// [0, 1]³ with 5 landmarks.
func NysLaplacian() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.Laplacian, Sigma: []float64{0.5, 1, 2}}, box(3, 0, 1, false), 5, 21, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysMatern is a Nyström map of the Matérn kernel (ν = 3/2, σ = 0.7, 1.5)
// on [−1, 1]² with 4 landmarks.
func NysMatern() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.Matern, Nu: 1.5, Sigma: []float64{0.7, 1.5}}, box(2, -1, 1, false), 4, 22, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysMatern52 is a Nyström map of the Matérn kernel (ν = 5/2, σ = 1) on
// [0, 2]³ with 3 landmarks.
func NysMatern52() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.Matern, Nu: 2.5, Sigma: []float64{1, 1, 1}}, box(3, 0, 2, false), 3, 23, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysPoly is a Nyström map of (0.3·x·y + 1)³ on [−1, 1]⁴ with 5 landmarks.
func NysPoly() fmap.Verified {
	return nystroem(polyKernel, box(4, -1, 1, false), 5, 24, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysMatern12 is a Nyström map of the Matérn kernel (ν = ½, σ = 0.8, 1.2)
// on [−1, 1]² with 5 landmarks.
func NysMatern12() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.Matern, Nu: 0.5, Sigma: []float64{0.8, 1.2}}, box(2, -1, 1, false), 5, 25, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysLaplacianChunked is a Nyström map of the Laplacian kernel (σ = 3) on
// [0, 4]⁸ with 300 landmarks and 16 outputs: more landmarks than the dense
// evaluation's chunk of 256, so its products run over two chunks.
func NysLaplacianChunked() fmap.Verified {
	return nystroemReduced(fmap.Kernel{Type: fmap.Laplacian, Sigma: repeat(3, 8)}, box(8, 0, 4, false), 300, 16, 26, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysMatern12Chunked is a Nyström map of the Matérn kernel (ν = ½, σ = 2)
// on [0, 4]⁸ with 300 landmarks and 16 outputs (two chunks).
func NysMatern12Chunked() fmap.Verified {
	return nystroemReduced(fmap.Kernel{Type: fmap.Matern, Nu: 0.5, Sigma: repeat(2, 8)}, box(8, 0, 4, false), 300, 16, 27, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysMatern52Chunked is a Nyström map of the Matérn kernel (ν = 5/2,
// σ = 2) on [0, 4]⁸ with 300 landmarks and 16 outputs (two chunks).
func NysMatern52Chunked() fmap.Verified {
	return nystroemReduced(fmap.Kernel{Type: fmap.Matern, Nu: 2.5, Sigma: repeat(2, 8)}, box(8, 0, 4, false), 300, 16, 28, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysPolyChunked is a Nyström map of (0.3·x·y + 1)³ on [−1, 1]⁶ with 300
// landmarks and 16 outputs (two chunks).
func NysPolyChunked() fmap.Verified {
	return nystroemReduced(polyKernel, box(6, -1, 1, false), 300, 16, 29, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysMaternTight is NysMatern verified to 10⁻⁹: its budget of 10⁻¹² is
// below its float32 path's kernel error, so NF32 and NSliceF32 keep the
// float64 evaluation rounded.
func NysMaternTight() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.Matern, Nu: 1.5, Sigma: []float64{0.7, 1.5}}, box(2, -1, 1, false), 4, 22, absolute(1e-9, 1e-10, 1000000, nysOn))
}

// RFFLaplacian is random Fourier features of the Laplacian kernel (σ = 2)
// on [0, 1]⁴: 16 frequencies of Cauchy coordinates of scale 1/σ.
func RFFLaplacian() fmap.Verified {
	r := rand.New(rand.NewPCG(25, 1))
	rs := &fmap.Random{Features: fmap.CosSin, Transform: fmap.Identity, In: 4, Freq: make([]float64, 16*4)}
	for i := range rs.Freq {
		rs.Freq[i] = cauchy(r) / 2
	}
	return random(&fmap.Map{Kernel: fmap.Kernel{Type: fmap.Laplacian, Sigma: repeat(2, 4)}, InDim: 4, Dim: rs.Dim(), Domain: box(4, 0, 1, false),
		Method: "rff", Stages: []fmap.Stage{{Kind: rs}}}, absolute(0.2, 0.05, 1000000, polyOn))
}

// RFFMatern is random Fourier features of the Matérn kernel (ν = 1/2,
// σ = 1) on [−1, 1]³: 12 frequencies of the multivariate t law of one
// degree of freedom.
func RFFMatern() fmap.Verified {
	r := rand.New(rand.NewPCG(26, 1))
	rs := &fmap.Random{Features: fmap.CosSin, Transform: fmap.Identity, In: 3, Freq: make([]float64, 12*3)}
	for i := range 12 {
		v := r.NormFloat64()
		for j := range 3 {
			rs.Freq[i*3+j] = r.NormFloat64() / abs(v)
		}
	}
	return random(&fmap.Map{Kernel: fmap.Kernel{Type: fmap.Matern, Nu: 0.5, Sigma: repeat(1, 3)}, InDim: 3, Dim: rs.Dim(), Domain: box(3, -1, 1, false),
		Method: "rff", Stages: []fmap.Stage{{Kind: rs}}}, absolute(0.3, 0.05, 1000000, polyOn))
}

// cauchy draws a standard Cauchy number.
func cauchy(r *rand.Rand) float64 { return r.NormFloat64() / abs(r.NormFloat64()) }

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}

// NysKernel256 is a Nyström map of kernel k on [0, 1]⁶⁴ with 256 landmarks
// and 256 outputs (the benchmarks' map of the kernels beside the RBF
// kernel's NysBig256).
func NysKernel256(k fmap.Kernel) fmap.Verified {
	return nystroem(k, box(64, 0, 1, false), 256, 30, absolute(0.05, 0.01, 1000000, nysOn))
}
