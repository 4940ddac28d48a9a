package testmaps

// This file holds the test maps learned from data in featmap: Nyström
// maps, anchor tables, rf-pca projections and maps that carry a linear
// model.

import (
	"math"
	"math/rand/v2"

	"github.com/featmap/featmap/fmap"
)

// nystroem builds a Nyström map of kernel k on dom with m landmarks drawn
// uniformly from the box and a symmetric projection of random entries (the
// emitter does not care how the map was designed).
func nystroem(k fmap.Kernel, dom fmap.Domain, m int, seed uint64, v *fmap.Verification) fmap.Verified {
	r := rand.New(rand.NewPCG(seed, 9))
	n := len(dom.Lo)
	st := &fmap.Nystroem{Kernel: k, In: n, Landmarks: make([]float64, m*n), Proj: make([]float64, m*m)}
	for j := range m {
		for i := range n {
			st.Landmarks[j*n+i] = dom.Lo[i] + (dom.Hi[i]-dom.Lo[i])*r.Float64()
		}
	}
	for i := range m {
		for j := i; j < m; j++ {
			x := r.NormFloat64() / float64(m)
			st.Proj[i*m+j], st.Proj[j*m+i] = x, x
		}
	}
	return random(&fmap.Map{Kernel: k, InDim: n, Dim: m, Domain: dom, Method: "nystroem", Stages: []fmap.Stage{{Kind: st}}}, v)
}

// nystroemReduced is nystroem with dim < m outputs: a dim × m projection
// of random entries (a Nyström map of more landmarks than outputs).
func nystroemReduced(k fmap.Kernel, dom fmap.Domain, m, dim int, seed uint64, v *fmap.Verification) fmap.Verified {
	vm := nystroem(k, dom, m, seed, v)
	r := rand.New(rand.NewPCG(seed, 10))
	st := vm.Map.Stages[0].Kind.(*fmap.Nystroem)
	st.Proj = make([]float64, dim*m)
	for i := range st.Proj {
		st.Proj[i] = r.NormFloat64() / float64(m)
	}
	vm.Map.Dim = dim
	if err := vm.Map.Validate(); err != nil {
		panic(err)
	}
	return vm
}

// NysRBF is a Nyström map of the RBF kernel (σ = 0.5, 1, 2) on [0, 1]³ with
// 5 landmarks.
func NysRBF() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.RBF, Sigma: []float64{0.5, 1, 2}}, box(3, 0, 1, false), 5, 1, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysExpChi2 is a Nyström map of exp-χ² (β = 0.7) on [0, 1]⁴ with 6
// landmarks.
func NysExpChi2() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.ExpChi2, Beta: 0.7}, box(4, 0, 1, false), 6, 2, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysSkew is a Nyström map of the skewed χ² kernel (σ = 0.5, 2, c = 0.01)
// on [0, 1]² with 4 landmarks.
func NysSkew() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.SkewedChi2, Sigma: []float64{0.5, 2}, C: 0.01}, box(2, 0, 1, false), 4, 3, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysInter is a Nyström map of the skewed intersection kernel (σ = 1,
// c = 0.1) on [0, 2]³ with 3 landmarks.
func NysInter() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.SkewedIntersection, Sigma: []float64{1, 1, 1}, C: 0.1}, box(3, 0, 2, false), 3, 4, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysChi2 is a Nyström map of the additive χ² kernel on rows of {0..16}⁴
// with 5 landmarks.
func NysChi2() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.Chi2}, box(4, 0, 16, true), 5, 6, absolute(0.5, 0.1, 289, nysRowsOn))
}

// NysChi2Gamma is a Nyström map of the additive 0.6-homogeneous χ² kernel
// on rows of [0, 2]³ with 4 landmarks (the general form: two powers and
// the signature).
func NysChi2Gamma() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.Chi2, Gamma: 0.6}, box(3, 0, 2, false), 4, 7, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysInterAdd is a Nyström map of the additive intersection kernel on rows
// of [0, 1]⁵ with 3 landmarks.
func NysInterAdd() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.Intersection, Gamma: 1}, box(5, 0, 1, false), 3, 8, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysJS is a Nyström map of the additive Jensen–Shannon kernel on rows of
// [0, 4]² with 4 landmarks.
func NysJS() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.JS}, box(2, 0, 4, false), 4, 9, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysHell is a Nyström map of the additive 1.5-homogeneous Hellinger kernel
// on rows of [0, 3]³ with 2 landmarks.
func NysHell() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.Hellinger, Gamma: 1.5}, box(3, 0, 3, false), 2, 10, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysBig is a Nyström map of the RBF kernel on [0, 16]⁶⁴ with 64 landmarks:
// its 8192 constants go to a data file.
func NysBig() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.RBF, Sigma: repeat(40, 64)}, box(64, 0, 16, false), 64, 5, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysReduced is a Nyström map of the RBF kernel (σ = 0.5, 1, 2) on [0, 1]³
// with 8 landmarks and 3 outputs (a 3 × 8 projection).
func NysReduced() fmap.Verified {
	return nystroemReduced(fmap.Kernel{Type: fmap.RBF, Sigma: []float64{0.5, 1, 2}}, box(3, 0, 1, false), 8, 3, 11, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysBigReduced is a Nyström map of the RBF kernel on [0, 16]⁶⁴ with 256
// landmarks and 64 outputs: its 32768 constants go to a data file.
func NysBigReduced() fmap.Verified {
	return nystroemReduced(fmap.Kernel{Type: fmap.RBF, Sigma: repeat(40, 64)}, box(64, 0, 16, false), 256, 64, 12, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysChunked is a Nyström map of the RBF kernel on [0, 4]⁸ with 300
// landmarks and 16 outputs: more landmarks than the dense evaluation's
// chunk of 256, so its products run over two chunks, the second
// accumulating.
func NysChunked() fmap.Verified {
	return nystroemReduced(fmap.Kernel{Type: fmap.RBF, Sigma: repeat(2, 8)}, box(8, 0, 4, false), 300, 16, 14, absolute(0.05, 0.01, 1000000, nysOn))
}

// NysBig256 is a Nyström map of the RBF kernel on [0, 16]⁶⁴ with 256
// landmarks and 256 outputs (the benchmark's plain map of m landmarks).
func NysBig256() fmap.Verified {
	return nystroem(fmap.Kernel{Type: fmap.RBF, Sigma: repeat(40, 64)}, box(64, 0, 16, false), 256, 13, absolute(0.05, 0.01, 1000000, nysOn))
}

// anchors builds an anchor map of the χ² kernel on dom (one axis) with the
// given tables (nil points: uniform over the domain with n points), dim
// components and random features (the emitter does not care how the map
// was designed).
func anchors(as fmap.Assign, neg fmap.Negative, dom fmap.Domain, dim int, seed uint64, sizes []int, uniform []bool) fmap.Verified {
	r := rand.New(rand.NewPCG(seed, 11))
	st := &fmap.Anchors{Assign: as, Dim: dim, Negative: neg}
	lo, hi := dom.Lo[0], dom.Hi[0]
	for t, n := range sizes {
		pts := make([]float64, n)
		if uniform[t] {
			for i := range pts {
				pts[i] = lo + (hi-lo)*float64(i)/float64(n-1)
			}
		} else {
			// Increasing points, not equally spaced, some beyond the domain's
			// middle only.
			x := lo + (hi-lo)*r.Float64()/4
			for i := range pts {
				pts[i] = x
				x += (hi - lo) * (0.02 + r.Float64()) / float64(n)
			}
		}
		f := make([]float64, n*dim)
		for i := range f {
			f[i] = r.NormFloat64()
		}
		st.Tables = append(st.Tables, fmap.AnchorTable{Uniform: uniform[t], Points: pts, Features: f})
	}
	m := &fmap.Map{Kernel: fmap.Kernel{Type: fmap.Chi2}, InDim: 1, Dim: dim, Domain: dom, Method: "annfm", Stages: []fmap.Stage{{Kind: st}}}
	return random(m, absolute(0.05, 0.01, 289, "all 289 ordered pairs of x, y ∈ {0..16}"))
}

// AnchorUni is an anchor map of χ² on [0, 1] with one shared table of 11
// equally spaced anchors, 3 components, linear interpolation.
func AnchorUni() fmap.Verified {
	return anchors(fmap.Pair2Linear, fmap.NegativeSign, box(1, 0, 1, false), 3, 1, []int{11}, []bool{true})
}

// AnchorKM is an anchor map of χ² on {0..16} with five per-coordinate
// tables of 1, 2, 5, 9 and 17 (equally spaced) anchors, 4 components, the
// nearest anchor, zeros for negative inputs.
func AnchorKM() fmap.Verified {
	return anchors(fmap.Nearest1, fmap.NegativeZero, box(1, 0, 16, true), 4, 2, []int{1, 2, 5, 9, 17}, []bool{false, false, false, false, true})
}

// AnchorMean is an anchor map of χ² on [0, 2] with four per-coordinate
// tables, 2 components, the mean of the two nearest anchors.
func AnchorMean() fmap.Verified {
	return anchors(fmap.Pair2Mean, fmap.NegativeSign, box(1, 0, 2, false), 2, 3, []int{2, 3, 7, 30}, []bool{false, true, false, false})
}

// AnchorBig is an anchor map of χ² on [0, 16] with 64 per-coordinate
// tables of 20 anchors and 5 components: its 7680 constants go to a data
// file.
func AnchorBig() fmap.Verified {
	sizes, uni := make([]int, 64), make([]bool, 64)
	for i := range sizes {
		sizes[i] = 20
	}
	return anchors(fmap.Pair2Linear, fmap.NegativeSign, box(1, 0, 16, false), 5, 4, sizes, uni)
}

// rfpca projects the random map base (one random stage, or a
// per-coordinate stage and a random stage) onto k dimensions: the rows of P
// are k orthonormal vectors (Gram–Schmidt of Gaussian rows seeded with
// seed) and, with center, μ is the mean of base's features at 200 points
// drawn uniformly from the box. The emitter does not care how P was
// learned; rf-pca's P has orthonormal rows too.
func rfpca(base fmap.Verified, k int, center bool, seed uint64, v *fmap.Verification) fmap.Verified {
	bm := base.Map
	m := bm.Dim
	r := rand.New(rand.NewPCG(seed, 13))
	proj := make([]float64, k*m)
	for i := range k {
		row := proj[i*m : (i+1)*m]
		for j := range row {
			row[j] = r.NormFloat64()
		}
		for p := range i {
			prev := proj[p*m : (p+1)*m]
			d := 0.0
			for j := range row {
				d += row[j] * prev[j]
			}
			for j := range row {
				row[j] -= d * prev[j]
			}
		}
		nrm := 0.0
		for _, x := range row {
			nrm += x * x
		}
		nrm = math.Sqrt(nrm)
		for j := range row {
			row[j] /= nrm
		}
	}
	lin := &fmap.Linear{In: m, Proj: proj}
	if center {
		lin.Mean = make([]float64, m)
		z := make([]float64, m)
		x := make([]float64, bm.InDim)
		const points = 200
		for range points {
			for i := range x {
				x[i] = bm.Domain.Lo[i] + r.Float64()*(bm.Domain.Hi[i]-bm.Domain.Lo[i])
			}
			bm.Eval(z, x)
			for j, v := range z {
				lin.Mean[j] += v / points
			}
		}
	}
	stages := append(append([]fmap.Stage(nil), bm.Stages...), fmap.Stage{Kind: lin})
	return random(&fmap.Map{Kernel: bm.Kernel, InDim: bm.InDim, Dim: k, Domain: bm.Domain, Method: "rf-pca", Stages: stages}, v)
}

// RFPCA projects 8 cos-sin random frequencies of the RBF kernel (σ = 3)
// on [0, 1]³, 16 features, onto k = 5, uncentred.
func RFPCA() fmap.Verified {
	return rfpca(GaussianRFF(3, 8, 21, nil), 5, false, 1, absolute(0.08, 0.02, 1000000, rfpcaOn))
}

// RFPCAExpChi2 projects the exp-χ² map of ExpChi2 (β = 1 on [0, 1]⁴, the
// 3-D χ² map per coordinate, 8 cos-sin frequencies in ℝ¹²: 16 features)
// onto k = 6, centred.
func RFPCAExpChi2() fmap.Verified {
	return rfpca(ExpChi2(), 6, true, 2, absolute(0.5, 0.1, 1000000, rfpcaOn))
}

// RFPCAExpChi2Phase projects the exp-χ² map of ExpChi2Li (β = 0.5 on
// [0, 1]⁵, Li's 7-D series per coordinate, 40 phase features in ℝ³⁵) onto
// k = 12, uncentred: the phase features' path of the projection.
func RFPCAExpChi2Phase() fmap.Verified {
	return rfpca(ExpChi2Li(), 12, false, 3, absolute(0.5, 0.1, 1000000, rfpcaOn))
}

// RFPCAExpChi2Wide projects an exp-χ² map (β = 1 on [0, 1]⁹⁰, the 3-D χ²
// map per coordinate: t of 270 values, two chunks of t; 40 cos-sin
// frequencies, 80 features) onto k = 10, centred.
func RFPCAExpChi2Wide() fmap.Verified {
	base := expChi2(90, box(90, 0, 1, false), 1, chi2Inner3(), 3, fmap.CosSin, 40, 13, nil)
	return rfpca(base, 10, true, 8, absolute(0.5, 0.1, 1000000, rfpcaOn))
}

// RFPCAExpChi2WideChunked projects ExpChi2WideChunked (t of 300 values,
// 300 cos-sin frequencies: more than one chunk of 128 before a
// projection) onto k = 8, uncentred.
func RFPCAExpChi2WideChunked() fmap.Verified {
	return rfpca(ExpChi2WideChunked(), 8, false, 9, absolute(0.5, 0.1, 1000000, rfpcaOn))
}

// RFPCA64 projects 96 cos-sin frequencies of the RBF kernel on [0, 1]⁶⁴
// (192 features, rf-pca's default 3·D) onto k = 64, centred: its 18624
// constants (frequencies, projection, mean) go to a data file.
func RFPCA64() fmap.Verified {
	return rfpca(GaussianRFF(64, 96, 64, nil), 64, true, 4, absolute(0.1, 0.02, 1000000, rfpcaOn))
}

// RFPCAChunked projects 300 cos-sin frequencies of the RBF kernel on
// [0, 1]⁸ (600 features) onto k = 20, centred: more frequencies than the
// dense evaluation's chunk of 128 before a projection, so that its
// products run over three chunks, the projection's accumulating.
func RFPCAChunked() fmap.Verified {
	return rfpca(GaussianRFF(8, 300, 66, nil), 20, true, 5, absolute(0.1, 0.02, 1000000, rfpcaOn))
}

// RFPCAPhase projects 300 phase features of the RBF kernel on [0, 1]⁴ onto
// k = 260, centred: the phase features' path of the dense projection, two
// chunks of frequencies and more than 256 outputs.
func RFPCAPhase() fmap.Verified {
	return rfpca(PhaseRFF(4, 300, 67), 260, true, 6, absolute(0.1, 0.02, 1000000, rfpcaOn))
}

// RFPCA256 projects 384 cos-sin frequencies of the RBF kernel on [0, 1]⁶⁴
// (768 features, rf-pca's default 3·D) onto k = 256, centred.
func RFPCA256() fmap.Verified {
	return rfpca(GaussianRFF(64, 384, 68, nil), 256, true, 7, absolute(0.1, 0.02, 1000000, rfpcaOn))
}

// WithModel returns vm with a linear model of its features attached:
// weights and biases drawn from N(0, 1) by a PCG seeded with (seed, 2),
// for the given class labels (nil: a regression model), as a learn
// section's design would carry (codegen emits NScores, NClass or NScore).
func WithModel(vm fmap.Verified, classes []float64, seed uint64) fmap.Verified {
	r := rand.New(rand.NewPCG(seed, 2))
	k := max(1, len(classes))
	mod := &fmap.LinearModel{Classes: classes, W: make([]float64, vm.Map.Dim*k), Bias: make([]float64, k),
		Ridge: 1e-3, RidgeFrom: fmap.RidgeDefault, Rows: 480, DataSHA256: "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", HeldRows: 120}
	for i := range mod.W {
		mod.W[i] = r.NormFloat64()
	}
	for i := range mod.Bias {
		mod.Bias[i] = r.NormFloat64()
	}
	if classes != nil {
		mod.HeldAccuracy = 0.9583
	} else {
		mod.HeldRMSE = 0.25
	}
	m := *vm.Map
	m.Model = mod
	return random(&m, vm.Verification)
}

// RFFModel is RFFSkew with a model of 3 classes (16×3 weights, Go
// literals).
func RFFModel() fmap.Verified { return WithModel(RFFSkew(), []float64{-1, 2, 7.5}, 1) }

// RFFReg is RFFSkew with a regression model.
func RFFReg() fmap.Verified { return WithModel(RFFSkew(), nil, 2) }

// RFF64Model is GaussianRFF with n = 64 inputs and D = 256 (m = 128) and
// a model of 10 classes: its 8192 frequency coordinates and 2570 model
// constants go to a data file.
func RFF64Model() fmap.Verified {
	return WithModel(GaussianRFF(64, 128, 64, RFF64().Verification), []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, 3)
}
