// Package testmaps builds the hand-made verified maps that codegen's
// tests, golden files and benchmarks share. Their parameters and measured
// errors are realistic: they were taken from featmap's own designers and
// verification (χ² maps verified on the homogeneous reference, the RBF maps
// with their exact signature) and are hard-coded here so that codegen's
// tests do not depend on the designers.
package testmaps

import (
	"math"
	"math/rand/v2"

	"github.com/featmap/featmap/fmap"
)

// Case is one test map.
type Case struct {
	// Name is the Go name of the emitted map.
	Name string
	// Golden marks the maps whose emitted source is kept in
	// codegen/testdata/<name>.golden.
	Golden bool
	// Map builds a fresh, validated map with its verification.
	Map func() fmap.Verified
}

// Cases returns every test map, golden ones first.
func Cases() []Case {
	return []Case{
		{"Chi2Int", true, Chi2Int},
		{"Chi2Interval", true, Chi2Interval},
		{"VZ", true, VZ},
		{"Li", true, Li},
		{"Cheb", true, Cheb},
		{"RBF", true, RBF},
		{"Proj2", true, Proj2},
		{"Mod2", true, Mod2},
		{"ExpChi2", true, ExpChi2},
		{"RFFSkew", true, RFFSkew},
		{"NysRBF", true, NysRBF},
		{"NysChi2", true, NysChi2},
		{"AnchorUni", true, AnchorUni},
		{"RFPCA", true, RFPCA},
		{"RFFModel", true, RFFModel},
		{"Chi2Gamma", false, Chi2Gamma},
		{"VZInt", false, VZInt},
		{"LiInt", false, LiInt},
		{"ChebInt", false, ChebInt},
		{"RBFHarmonic", false, RBFHarmonic},
		{"RBFInt", false, RBFInt},
		{"Hellinger", false, Hellinger},
		{"Li1", false, Li1},
		{"Cheb2", false, Cheb2},
		{"Proj3", false, Proj3},
		{"ProjWide", false, ProjWide},
		{"Mod2Rel", false, Mod2Rel},
		{"Chi2Wide", false, Chi2Wide},
		{"RFF64", false, RFF64},
		{"RFFIntersect", false, RFFIntersect},
		{"RFF1", false, RFF1},
		{"ExpChi2Li", false, ExpChi2Li},
		{"ExpChi2Cheb", false, ExpChi2Cheb},
		{"ExpChi21", false, ExpChi21},
		{"NysExpChi2", false, NysExpChi2},
		{"NysSkew", false, NysSkew},
		{"NysInter", false, NysInter},
		{"NysBig", false, NysBig},
		{"NysChi2Gamma", false, NysChi2Gamma},
		{"NysInterAdd", false, NysInterAdd},
		{"NysJS", false, NysJS},
		{"NysHell", false, NysHell},
		{"NysReduced", false, NysReduced},
		{"NysBigReduced", false, NysBigReduced},
		{"NysChunked", false, NysChunked},
		{"AnchorKM", false, AnchorKM},
		{"AnchorMean", false, AnchorMean},
		{"AnchorBig", false, AnchorBig},
		{"RFPCAExpChi2", false, RFPCAExpChi2},
		{"RFPCAExpChi2Phase", false, RFPCAExpChi2Phase},
		{"RFPCA64", false, RFPCA64},
		{"RFPCAChunked", false, RFPCAChunked},
		{"RFPCAPhase", false, RFPCAPhase},
		{"ExpChi2Chunked", false, ExpChi2Chunked},
		{"ExpChi2Wide", false, ExpChi2Wide},
		{"ExpChi2WideChunked", false, ExpChi2WideChunked},
		{"RFFSkewWide", false, RFFSkewWide},
		{"RFPCAExpChi2Wide", false, RFPCAExpChi2Wide},
		{"RFFReg", false, RFFReg},
		{"RFF64Model", false, RFF64Model},
		{"PolyExact", false, PolyExact},
		{"PolySketch", false, PolySketch},
		{"PolyPCA", false, PolyPCA},
		{"PolyOne", false, PolyOne},
		{"NysLaplacian", true, NysLaplacian},
		{"NysMatern", false, NysMatern},
		{"NysMatern52", false, NysMatern52},
		{"NysPoly", true, NysPoly},
		{"NysMatern12", false, NysMatern12},
		{"NysLaplacianChunked", false, NysLaplacianChunked},
		{"NysMatern12Chunked", false, NysMatern12Chunked},
		{"NysMatern52Chunked", false, NysMatern52Chunked},
		{"NysPolyChunked", false, NysPolyChunked},
		{"NysMaternTight", false, NysMaternTight},
		{"RFFLaplacian", false, RFFLaplacian},
		{"RFFMatern", false, RFFMatern},
	}
}

// flat lists a one-stage map's parameters the way the cases write them.
type flat struct {
	Kernel    fmap.Kernel
	InDim     int
	Dim       int
	Domain    fmap.Domain
	Transform fmap.Transform
	Gamma     float64
	Negative  fmap.Negative
	Form      fmap.Form
	Terms     []fmap.Term
	LiK       []float64
	Method    string
	Errors    *fmap.Verification
}

// must builds the one-stage map of f (a Fourier stage for Fourier and
// modulation forms, a series stage otherwise), as written (not made
// canonical), and panics unless it is valid with the dimension f states.
func must(f flat) fmap.Verified {
	m := &fmap.Map{Kernel: f.Kernel, InDim: f.InDim, Dim: f.Dim, Domain: f.Domain, Method: f.Method}
	switch f.Form {
	case fmap.FourierForm, fmap.Modulation:
		st := &fmap.Fourier{Form: f.Form, Transform: f.Transform, Gamma: f.Gamma, Negative: f.Negative, Terms: f.Terms}
		if m.Dim == 0 {
			m.Dim = st.Dim()
		}
		m.Stages = []fmap.Stage{{Kind: st}}
	default:
		m.Stages = []fmap.Stage{{Kind: &fmap.Series{Form: f.Form, K: f.LiK, Dim: f.Dim, Negative: f.Negative}}}
	}
	if err := m.Validate(); err != nil {
		panic("testmaps: " + err.Error())
	}
	return fmap.Verified{Map: m, Verification: f.Errors}
}

func terms1(freq, weight []float64) []fmap.Term {
	ts := make([]fmap.Term, len(freq))
	for i := range freq {
		ts[i] = fmap.Term{Freq: []float64{freq[i]}, Weight: weight[i]}
	}
	return ts
}

func intDomain(lo, hi float64) fmap.Domain {
	return fmap.Domain{Integer: true, Lo: []float64{lo}, Hi: []float64{hi}}
}

func interval(lo, hi float64) fmap.Domain {
	return fmap.Domain{Lo: []float64{lo}, Hi: []float64{hi}}
}

func absolute(linf, rms float64, points int, on string) *fmap.Verification {
	r := fmap.Measurement{On: on, Points: points, LInf: linf, RMS: rms}
	return &fmap.Verification{Measure: fmap.Absolute, Reported: r, Absolute: r}
}

// chi2Terms are the 7-D χ² Fourier map in log x of the brief (Chum's LP).
func chi2Terms() []fmap.Term {
	return terms1([]float64{0, 0.5736, 1.3268, 2.2816}, []float64{0.52044, 0.42386, 0.052239, 0.0034187})
}

func chi2(dom fmap.Domain, v *fmap.Verification) fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "chi2", Gamma: 1}, InDim: 1, Dim: 7, Domain: dom,
		Transform: fmap.Log, Gamma: 1, Negative: fmap.NegativeSign, Form: fmap.FourierForm,
		Terms: chi2Terms(), Method: "chum", Errors: v,
	})
}

// Chi2Int is the 7-D χ² map on the integers 0..255 (8-bit histograms).
func Chi2Int() fmap.Verified {
	return chi2(intDomain(0, 255), absolute(0.01204, 0.005249, 65536, "all 65536 ordered pairs of x, y ∈ {0..255}"))
}

// Chi2Interval is the same map on the interval [0.001, 1] (normalised
// histograms).
func Chi2Interval() fmap.Verified {
	return chi2(interval(0.001, 1), absolute(0.003618, 0.0001768, 2253001, "all 2253001 ordered pairs of x, y ∈ {0} ∪ 1500 log-spaced points in [0.001, 1]"))
}

// Chi2Wide is the same map on the integers 0..65535 (16-bit data): too
// many rows for a table. Its error is the 0..255 one scaled by 65535/255
// (the kernel and the map are 1-homogeneous), not a measurement.
func Chi2Wide() fmap.Verified {
	return chi2(intDomain(0, 65535), absolute(3.094, 1.349, 65536, "the 65536 ordered pairs of {0..255}, scaled to 0..65535 by homogeneity"))
}

// vzTerms are VZ's 7-D χ² map (rectangular window, VLFeat's period): the
// harmonic ladder ω = j·L.
func vzTerms() []fmap.Term {
	const step = 0.5510019489889677
	return terms1([]float64{0, step, 2 * step, 3 * step},
		[]float64{0.5104983455180482, 0.41500878815396286, 0.055275632312763105, 0.018999984997677466})
}

// VZ is VZ's 7-D χ² map on [0.001, 1] with the zero rule for x < 0.
func VZ() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "chi2", Gamma: 1}, InDim: 1, Dim: 7, Domain: interval(0.001, 1),
		Transform: fmap.Log, Gamma: 1, Negative: fmap.NegativeZero, Form: fmap.FourierForm,
		Terms: vzTerms(), Method: "vz",
		Errors: absolute(0.00448, 0.0003468, 2253001, "all 2253001 ordered pairs of x, y ∈ {0} ∪ 1500 log-spaced points in [0.001, 1]"),
	})
}

// VZInt is the same ladder on the integers 0..255.
func VZInt() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "chi2", Gamma: 1}, InDim: 1, Dim: 7, Domain: intDomain(0, 255),
		Transform: fmap.Log, Gamma: 1, Negative: fmap.NegativeSign, Form: fmap.FourierForm,
		Terms: vzTerms(), Method: "vz",
		Errors: absolute(0.142, 0.05316, 65536, "all 65536 ordered pairs of x, y ∈ {0..255}"),
	})
}

// Chi2Gamma is a 0.5-homogeneous χ² map on [0.01, 100] with the zero rule
// (exercises math.Pow and a domain across 1).
func Chi2Gamma() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "chi2", Gamma: 0.5}, InDim: 1, Dim: 7, Domain: interval(0.01, 100),
		Transform: fmap.Log, Gamma: 0.5, Negative: fmap.NegativeZero, Form: fmap.FourierForm,
		Terms: chi2Terms(), Method: "chum",
		Errors: absolute(0.7766, 0.09429, 2253001, "all 2253001 ordered pairs of x, y ∈ {0} ∪ 1500 log-spaced points in [0.01, 100]"),
	})
}

// Hellinger is the exact one-dimensional Hellinger map √x.
func Hellinger() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "hellinger", Gamma: 1}, InDim: 1, Dim: 1, Domain: interval(0, 1),
		Transform: fmap.Log, Gamma: 1, Negative: fmap.NegativeSign, Form: fmap.FourierForm,
		Terms: terms1([]float64{0}, []float64{1}), Method: "vz",
		Errors: absolute(0, 0, 2253001, "all 2253001 ordered pairs of x, y ∈ {0} ∪ 1500 log-spaced points in [1e-06, 1]"),
	})
}

// liK are Algorithm 1's parameters for N = 7, log-uniform on [0.001, 1].
var liK = []float64{0.9660508789898133, 0.3198895109691398, 0.09885530946569389, 0.6382634861905487,
	0.028510182675039093, 0.00881048873008014, 0.18407720014689558}

// Li is Li's 7-D direct χ² series on [0.001, 1].
func Li() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "chi2", Gamma: 1}, InDim: 1, Dim: 7, Domain: interval(0.001, 1),
		Transform: fmap.Identity, Gamma: 1, Negative: fmap.NegativeSign, Form: fmap.LiSeries,
		LiK: append([]float64(nil), liK...), Method: "li",
		Errors: absolute(0.000538, 9.736e-05, 2253001, "all 2253001 ordered pairs of x, y ∈ {0} ∪ 1500 log-spaced points in [0.001, 1]"),
	})
}

// LiInt is Li's 7-D series for the integers 0..255 (Algorithm 1 on
// [1, 255]), with the zero rule.
func LiInt() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "chi2", Gamma: 1}, InDim: 1, Dim: 7, Domain: intDomain(0, 255),
		Transform: fmap.Identity, Gamma: 1, Negative: fmap.NegativeZero, Form: fmap.LiSeries,
		LiK:    []float64{248.03186540138742, 10.538518850204053, 1.7893146550102468, 55.55736387131201, 4.342433214313359, 127.5623930316889, 1.0280937071828902},
		Method: "li",
		Errors: absolute(0.05845, 0.01172, 65536, "all 65536 ordered pairs of x, y ∈ {0..255}"),
	})
}

// Cheb is Li's 7-D Chebyshev series on [1e-6, 1].
func Cheb() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "chi2", Gamma: 1}, InDim: 1, Dim: 7, Domain: interval(1e-6, 1),
		Transform: fmap.Identity, Gamma: 1, Negative: fmap.NegativeSign, Form: fmap.Chebyshev,
		Method: "chebyshev",
		Errors: absolute(0.006184, 0.0009091, 2253001, "all 2253001 ordered pairs of x, y ∈ {0} ∪ 1500 log-spaced points in [1e-06, 1]"),
	})
}

// ChebInt is the 11-D Chebyshev series on the integers 0..255.
func ChebInt() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "chi2", Gamma: 1}, InDim: 1, Dim: 11, Domain: intDomain(0, 255),
		Transform: fmap.Identity, Gamma: 1, Negative: fmap.NegativeSign, Form: fmap.Chebyshev,
		Method: "chebyshev",
		Errors: absolute(26.92, 10.19, 65536, "all 65536 ordered pairs of x, y ∈ {0..255}"),
	})
}

// rbfTerms are Chum's 11-D design for the RBF kernel, σ = 0.3 on [0, π]
// (continuous refinement and polish: off-grid frequencies).
func rbfTerms() []fmap.Term {
	return terms1(
		[]float64{0, 1.6072094369295384, 3.224073745080786, 4.8612860589077656, 6.531447523732628, 8.245796045542516},
		[]float64{0.19216682647712752, 0.3431694131559485, 0.24366842384100457, 0.1364776930080118, 0.059327056881231945, 0.020353930458880384})
}

func rbfErrors(linf, rms float64, points int, on string) *fmap.Verification {
	r := fmap.Measurement{On: on, Points: points, LInf: linf, RMS: rms}
	return &fmap.Verification{Measure: fmap.Uniform, Reported: r, Absolute: r, Signature: r}
}

// RBF is the 11-D map of the Gaussian RBF kernel, σ = 0.3, on [0, π].
func RBF() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "rbf", Sigma: []float64{0.3}}, InDim: 1, Dim: 11, Domain: interval(0, math.Pi),
		Transform: fmap.Identity, Form: fmap.FourierForm, Terms: rbfTerms(), Method: "chum",
		Errors: rbfErrors(0.004852, 0.003421, 2001, "2001 equally spaced λ in [0, 3.14159]"),
	})
}

// RBFInt is the same design used on the integers −1..2 (differences 0..3,
// inside the designed [0, π]).
func RBFInt() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "rbf", Sigma: []float64{0.3}}, InDim: 1, Dim: 11, Domain: intDomain(-1, 2),
		Transform: fmap.Identity, Form: fmap.FourierForm, Terms: rbfTerms(), Method: "chum",
		Errors: rbfErrors(0.004837, 0.003482, 4, "the differences λ = 0..3"),
	})
}

// RBFHarmonic is the 17-D harmonic projection of the RBF kernel σ = 0.3 on
// [0, π]: ω = j (a ladder with base 1).
func RBFHarmonic() fmap.Verified {
	freq := make([]float64, 9)
	weight := make([]float64, 9)
	for j := range freq {
		freq[j] = float64(j)
		// Spectrum of exp(−λ²/(2σ²)) sampled with step 1 (2× for j > 0).
		weight[j] = 0.3 / math.Sqrt(2*math.Pi) * math.Exp(-0.09*float64(j*j)/2)
		if j > 0 {
			weight[j] *= 2
		}
	}
	return must(flat{
		Kernel: fmap.Kernel{Type: "rbf", Sigma: []float64{0.3}}, InDim: 1, Dim: 17, Domain: interval(0, math.Pi),
		Transform: fmap.Identity, Form: fmap.FourierForm, Terms: terms1(freq, weight), Method: "harmonic",
		Errors: rbfErrors(0.01048, 0.00487, 2001, "2001 equally spaced λ in [0, 3.14159]"),
	})
}

// Proj2 is a 2-D projection map of the RBF kernel, σ = 0.3 per axis, on
// [0, π]²: the "Proj ⊗" pool of the 1-D design's first four frequencies,
// ω = (ω_i, ±ω_j) with α = α_iα_j/2 (α_iα_j when one of them is 0).
func Proj2() fmap.Verified {
	ts := rbfTerms()[:4]
	var terms []fmap.Term
	for _, a := range ts {
		for _, b := range ts {
			w := a.Weight * b.Weight / 2
			terms = append(terms,
				fmap.Term{Freq: []float64{a.Freq[0], b.Freq[0]}, Weight: w},
				fmap.Term{Freq: []float64{a.Freq[0], -b.Freq[0]}, Weight: w})
		}
	}
	f := flat{
		Kernel: fmap.Kernel{Type: "rbf", Sigma: []float64{0.3, 0.3}}, InDim: 2,
		Domain:    fmap.Domain{Lo: []float64{0, 0}, Hi: []float64{math.Pi, math.Pi}},
		Transform: fmap.Identity, Form: fmap.FourierForm, Terms: terms, Method: "projection",
		Errors: rbfErrors(0.1619, 0.01749, 10201, "101 × 101 equally spaced λ in [−3.14159, 3.14159] × [0, 3.14159]"),
	}
	st := &fmap.Fourier{Form: f.Form, Terms: f.Terms}
	st.Canonical()
	f.Terms = st.Terms
	return must(f)
}

// Mod2 is a 2-D modulation map of the same kernel: the Cartesian product of
// the 1-D design's first four terms, α = α_iα_j.
func Mod2() fmap.Verified {
	ts := rbfTerms()[:4]
	var terms []fmap.Term
	for _, a := range ts {
		for _, b := range ts {
			terms = append(terms, fmap.Term{Freq: []float64{a.Freq[0], b.Freq[0]}, Weight: a.Weight * b.Weight})
		}
	}
	f := flat{
		Kernel: fmap.Kernel{Type: "rbf", Sigma: []float64{0.3, 0.3}}, InDim: 2,
		Domain:    fmap.Domain{Lo: []float64{0, 0}, Hi: []float64{math.Pi, math.Pi}},
		Transform: fmap.Identity, Form: fmap.Modulation, Terms: terms, Method: "modulation",
		Errors: rbfErrors(0.1619, 0.01783, 10201, "101 × 101 equally spaced λ in [0, 3.14159]²"),
	}
	st := &fmap.Fourier{Form: f.Form, Terms: f.Terms}
	st.Canonical()
	f.Terms = st.Terms
	return must(f)
}

// Mod2Rel is a 2-D modulation map measured by the relative error: the
// tensor-greedy design of the RBF kernel σ = 1 on [0, 1]² at D = 9
// (featmap design, weight: relative), its verification as featmap
// measured it. Its kernel falls to e^{−1} on the domain, so its pieces'
// relative budget allows per-axis pieces.
func Mod2Rel() fmap.Verified {
	w := 1.00015625
	r := fmap.Measurement{On: "the 50625 ordered pairs with K > 0 of a 15×15 grid on the box", Points: 50625, LInf: 0.2203, RMS: 0.1621}
	return must(flat{
		Kernel: fmap.Kernel{Type: "rbf", Sigma: []float64{1, 1}}, InDim: 2,
		Domain:    fmap.Domain{Lo: []float64{0, 0}, Hi: []float64{1, 1}},
		Transform: fmap.Identity, Form: fmap.Modulation, Method: "tensor-greedy",
		Terms: []fmap.Term{
			{Freq: []float64{0, 0}, Weight: 0.15914433250732923},
			{Freq: []float64{0, w}, Weight: 0.1931076618057483},
			{Freq: []float64{w, 0}, Weight: 0.1931076618057483},
			{Freq: []float64{w, w}, Weight: 0.2343191771932304},
		},
		Errors: &fmap.Verification{Measure: fmap.Relative, Reported: r,
			Absolute:  fmap.Measurement{On: "all 50625 ordered pairs of a 15×15 grid on the box", Points: 50625, LInf: 0.2203, RMS: 0.1471},
			Signature: fmap.Measurement{On: "a 801×401 grid of λ = x − y over [−1, 1] × [0, 1]", Points: 321201, LInf: 0.2203, RMS: 0.1263}},
	})
}

// Li1 is Li's series with one term, k = 0.3, on [0.001, 1].
func Li1() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "chi2", Gamma: 1}, InDim: 1, Dim: 1, Domain: interval(0.001, 1),
		Transform: fmap.Identity, Gamma: 1, Negative: fmap.NegativeSign, Form: fmap.LiSeries,
		LiK: []float64{0.3}, Method: "li",
		Errors: absolute(0.2899, 0.01794, 2253001, "all 2253001 ordered pairs of x, y ∈ {0} ∪ 1500 log-spaced points in [0.001, 1]"),
	})
}

// Cheb2 is the Chebyshev series with two terms on [0.001, 1].
func Cheb2() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "chi2", Gamma: 1}, InDim: 1, Dim: 2, Domain: interval(0.001, 1),
		Transform: fmap.Identity, Gamma: 1, Negative: fmap.NegativeZero, Form: fmap.Chebyshev,
		Method: "chebyshev",
		Errors: absolute(0.03243, 0.01012, 2253001, "all 2253001 ordered pairs of x, y ∈ {0} ∪ 1500 log-spaced points in [0.001, 1]"),
	})
}

// Proj3 is a hand-made, non-canonical 3-D projection map of the RBF
// kernel σ = 0.5 on [0, 2]³ (a poor one: L∞ 0.91): negative frequencies (a
// negative first coordinate included) and three-axis phases exercise the
// sign handling and the chained angle addition.
func Proj3() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "rbf", Sigma: []float64{0.5, 0.5, 0.5}}, InDim: 3, Dim: 9,
		Domain:    fmap.Domain{Lo: []float64{0, 0, 0}, Hi: []float64{2, 2, 2}},
		Transform: fmap.Identity, Form: fmap.FourierForm, Method: "projection",
		Terms: []fmap.Term{
			{Freq: []float64{0, 0, 0}, Weight: 0.2},
			{Freq: []float64{1.5, -1.5, 0}, Weight: 0.3},
			{Freq: []float64{-1.5, 0, 1.5}, Weight: 0.25},
			{Freq: []float64{0, 3, -1.5}, Weight: 0.15},
			{Freq: []float64{1.5, 1.5, 1.5}, Weight: 0.1},
		},
		Errors: rbfErrors(0.9069, 0.3677, 9261, "21 × 21 × 21 equally spaced λ in [−2, 2] × [0, 2]²"),
	})
}

// ProjWide is a hand-made 2-D projection map with three off-grid terms on
// the wide domain [0, 10⁴]²: too many periods for polynomial pieces, so it
// is evaluated with one sincos of ω·x per term.
func ProjWide() fmap.Verified {
	return must(flat{
		Kernel: fmap.Kernel{Type: "rbf", Sigma: []float64{3, 3}}, InDim: 2, Dim: 5,
		Domain:    fmap.Domain{Lo: []float64{0, 0}, Hi: []float64{1e4, 1e4}},
		Transform: fmap.Identity, Form: fmap.FourierForm, Method: "projection",
		Terms: []fmap.Term{
			{Freq: []float64{0, 0}, Weight: 0.4},
			{Freq: []float64{0.21, -0.13}, Weight: 0.35},
			{Freq: []float64{0.37, 0.29}, Weight: 0.25},
		},
		Errors: rbfErrors(0.5, 0.2, 10201, "101 × 101 equally spaced λ in [−10⁴, 10⁴] × [0, 10⁴] (a poor map, for tests only)"),
	})
}

// GaussianRFF returns random Fourier features (cos-sin) of the Gaussian
// RBF kernel with σ = 3 on every axis of [0, 1]ⁿ: m frequencies with
// coordinates drawn from N(0, 1/σ²) by a PCG seeded with (seed, 1), so
// that Ψ(x)·Ψ(y) = (1/m) Σ cos(ω·(x − y)) estimates
// exp(−‖x − y‖²/(2σ²)). D = 2m. v is its verification.
func GaussianRFF(n, m int, seed uint64, v *fmap.Verification) fmap.Verified {
	const sigma = 3
	r := rand.New(rand.NewPCG(seed, 1))
	rs := &fmap.Random{Features: fmap.CosSin, Transform: fmap.Identity, In: n, Freq: make([]float64, m*n)}
	for i := range rs.Freq {
		rs.Freq[i] = r.NormFloat64() / sigma
	}
	dom := fmap.Domain{Lo: make([]float64, n), Hi: make([]float64, n)}
	for i := range dom.Hi {
		dom.Hi[i] = 1
	}
	return random(&fmap.Map{
		Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: repeat(sigma, n)}, InDim: n, Dim: rs.Dim(), Domain: dom,
		Method: "rff", Stages: []fmap.Stage{{Kind: rs}},
	}, v)
}

// PhaseRFF is GaussianRFF with phase features √(2/m)·cos(ω·x + b): m
// frequencies and phases seeded with (seed, 3). D = m.
func PhaseRFF(n, m int, seed uint64) fmap.Verified {
	const sigma = 3
	r := rand.New(rand.NewPCG(seed, 3))
	rs := &fmap.Random{Features: fmap.Phase, Transform: fmap.Identity, In: n, Freq: gaussianFreqs(r, m, n, 1.0/sigma)}
	rs.Phase = uniformPhases(r, m)
	return random(&fmap.Map{
		Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: repeat(sigma, n)}, InDim: n, Dim: m, Domain: box(n, 0, 1, false),
		Method: "rff", Stages: []fmap.Stage{{Kind: rs}},
	}, nil)
}

// RFF64 is GaussianRFF with n = 64 inputs and D = 1024 (m = 512): its 32768
// frequency coordinates go to a data file.
func RFF64() fmap.Verified {
	return GaussianRFF(64, 512, 64, absolute(0.1111, 0.0217, 1000000, "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"))
}

// random validates m and returns it with v.
func random(m *fmap.Map, v *fmap.Verification) fmap.Verified {
	if err := m.Validate(); err != nil {
		panic("testmaps: " + err.Error())
	}
	return fmap.Verified{Map: m, Verification: v}
}

func repeat(v float64, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// box is [lo, hi]ⁿ.
func box(n int, lo, hi float64, integer bool) fmap.Domain {
	return fmap.Domain{Integer: integer, Lo: repeat(lo, n), Hi: repeat(hi, n)}
}

// gaussianFreqs draws m×n frequency coordinates from N(0, s²).
func gaussianFreqs(r *rand.Rand, m, n int, s float64) []float64 {
	w := make([]float64, m*n)
	for i := range w {
		w[i] = s * r.NormFloat64()
	}
	return w
}

// uniformPhases draws m phases uniformly from [0, 2π).
func uniformPhases(r *rand.Rand, m int) []float64 {
	b := make([]float64, m)
	for i := range b {
		b[i] = 2 * math.Pi * r.Float64()
	}
	return b
}

// sechFreqs draws m×n frequency coordinates ω = σ_j·(2/π)·log(tan(πU/2))
// of the hyperbolic secant distribution, whose characteristic function is
// sech(σ_j λ): the spectrum of the skewed χ² kernel on axis j.
func sechFreqs(r *rand.Rand, m int, sigma []float64) []float64 {
	n := len(sigma)
	w := make([]float64, m*n)
	for i := range w {
		u := r.Float64()
		for u == 0 {
			u = r.Float64()
		}
		w[i] = sigma[i%n] * 2 / math.Pi * math.Log(math.Tan(math.Pi*u/2))
	}
	return w
}

// cauchyFreqs draws m×n frequency coordinates σ_j·tan(π(U − ½)), whose
// characteristic function is e^{−σ_j|λ|}: the skewed intersection kernel.
func cauchyFreqs(r *rand.Rand, m int, sigma []float64) []float64 {
	n := len(sigma)
	w := make([]float64, m*n)
	for i := range w {
		w[i] = sigma[i%n] * math.Tan(math.Pi*(r.Float64()-0.5))
	}
	return w
}

// expChi2 is the exp-χ² map of n coordinates on box: the per-coordinate
// map inner (d components, ‖ψ(x) − ψ(y)‖² ≈ (x−y)²/(x+y)) followed by m
// random features of the Gaussian exp(−β‖u − v‖²), ω ~ N(0, 2β), seeded
// with seed.
func expChi2(n int, dom fmap.Domain, beta float64, inner fmap.Stage, d int, feat fmap.Features, m int, seed uint64, v *fmap.Verification) fmap.Verified {
	r := rand.New(rand.NewPCG(seed, 2))
	rs := &fmap.Random{Features: feat, Transform: fmap.Identity, In: n * d, Freq: gaussianFreqs(r, m, n*d, math.Sqrt(2*beta))}
	if feat == fmap.Phase {
		rs.Phase = uniformPhases(r, m)
	}
	return random(&fmap.Map{
		Kernel: fmap.Kernel{Type: fmap.ExpChi2, Beta: beta}, InDim: n, Dim: rs.Dim(), Domain: dom, Method: "rff",
		Stages: []fmap.Stage{{Kind: &fmap.PerCoordinate{Inner: inner}}, {Kind: rs}},
	}, v)
}

// chi2Inner3 is Chum's 3-D χ² map in log x for [1e-4, 1] (featmap's chum
// design: L∞ 0.01257 absolute).
func chi2Inner3() fmap.Stage {
	return fmap.Stage{Kind: &fmap.Fourier{Form: fmap.FourierForm, Transform: fmap.Log, Gamma: 1, Negative: fmap.NegativeSign,
		Terms: terms1([]float64{0, 0.6384171203594143}, []float64{0.5435885739396161, 0.4438406017579781})}}
}

// ExpChi2 is the exp-χ² kernel, β = 1, on [0, 1]⁴: the 3-D χ² map of
// every coordinate, then 8 random frequencies in ℝ¹² (D = 16).
func ExpChi2() fmap.Verified {
	return expChi2(4, box(4, 0, 1, false), 1, chi2Inner3(), 3, fmap.CosSin, 8, 1, absolute(0.613, 0.1606, 1000000, "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"))
}

// ExpChi2Li is the exp-χ² kernel, β = 0.5, on [0, 1]⁵ with Li's 7-D
// series per coordinate and 40 phase features in ℝ³⁵.
func ExpChi2Li() fmap.Verified {
	inner := fmap.Stage{Kind: &fmap.Series{Form: fmap.LiSeries, K: append([]float64(nil), liK...), Dim: 7, Negative: fmap.NegativeZero}}
	return expChi2(5, box(5, 0, 1, false), 0.5, inner, 7, fmap.Phase, 40, 2, absolute(0.6518, 0.167, 1000000, "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"))
}

// ExpChi2Cheb is the exp-χ² kernel, β = 2, on [0, 1]² with the 7-D
// Chebyshev series per coordinate and 24 cos-sin frequencies in ℝ¹⁴.
func ExpChi2Cheb() fmap.Verified {
	inner := fmap.Stage{Kind: &fmap.Series{Form: fmap.Chebyshev, Dim: 7, Negative: fmap.NegativeSign}}
	return expChi2(2, box(2, 0, 1, false), 2, inner, 7, fmap.CosSin, 24, 3,
		absolute(0.3553, 0.1252, 50625, "all 50625 ordered pairs of a 15×15 grid on the box"))
}

// ExpChi216 is the exp-χ² kernel, β = 1, on [0, 1]¹⁶: the 3-D χ² map per
// coordinate, then 64 cos-sin frequencies in ℝ⁴⁸ (D = 128).
func ExpChi216() fmap.Verified {
	return expChi2(16, box(16, 0, 1, false), 1, chi2Inner3(), 3, fmap.CosSin, 64, 10, absolute(0.2, 0.05, 1000000, "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"))
}

// ExpChi2Wide is ExpChi2Li's kernel and series on [0, 1]³⁷: t of 259
// values, beyond the 256 the dense evaluation computes into a scratch at a
// time (two chunks of t: 36 coordinates, then 1), and 12 phase features.
func ExpChi2Wide() fmap.Verified {
	inner := fmap.Stage{Kind: &fmap.Series{Form: fmap.LiSeries, K: append([]float64(nil), liK...), Dim: 7, Negative: fmap.NegativeZero}}
	return expChi2(37, box(37, 0, 1, false), 0.5, inner, 7, fmap.Phase, 12, 5, absolute(0.65, 0.17, 1000000, "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"))
}

// ExpChi2WideChunked is the exp-χ² kernel, β = 1, on [0, 1]¹⁰⁰: the 3-D
// χ² map of every coordinate (t of 300 values: two chunks of t, 85
// coordinates then 15), then 300 cos-sin frequencies (D = 600, two chunks
// of frequencies).
func ExpChi2WideChunked() fmap.Verified {
	return expChi2(100, box(100, 0, 1, false), 1, chi2Inner3(), 3, fmap.CosSin, 300, 11, absolute(0.2, 0.05, 1000000, "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"))
}

// ExpChi2128 is the exp-χ² kernel, β = 1, on [0, 1]¹²⁸: the 3-D χ² map of
// every coordinate (t of 384 values), then 256 cos-sin frequencies
// (D = 512).
func ExpChi2128() fmap.Verified {
	return expChi2(128, box(128, 0, 1, false), 1, chi2Inner3(), 3, fmap.CosSin, 256, 12, absolute(0.2, 0.05, 1000000, "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"))
}

// ExpChi21 is the exp-χ² kernel of one coordinate, β = 1, on [0, 1]: the
// 3-D χ² map, then 6 random frequencies in ℝ³.
func ExpChi21() fmap.Verified {
	return expChi2(1, box(1, 0, 1, false), 1, chi2Inner3(), 3, fmap.CosSin, 6, 4,
		absolute(0.1923, 0.05724, 4004001, "all 4004001 ordered pairs of x, y on 2001 equally spaced points of [0, 1]"))
}

// ExpChi2Chunked is the exp-χ² kernel, β = 1, on [0, 1]³: the 3-D χ² map
// of every coordinate, then 300 random frequencies in ℝ⁹ (D = 600), more
// than the dense evaluation's chunk of 256.
func ExpChi2Chunked() fmap.Verified {
	return expChi2(3, box(3, 0, 1, false), 1, chi2Inner3(), 3, fmap.CosSin, 300, 8, absolute(0.2, 0.05, 1000000, "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"))
}

// ExpChi264 is the exp-χ² kernel, β = 1, on [0, 1]⁶⁴: the 3-D χ² map of
// every coordinate, then 256 random frequencies in ℝ¹⁹² (D = 512).
func ExpChi264() fmap.Verified {
	return expChi2(64, box(64, 0, 1, false), 1, chi2Inner3(), 3, fmap.CosSin, 256, 9, absolute(0.2, 0.05, 1000000, "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"))
}

// RFFSkew is the skewed χ² kernel, σ = (0.5, 1, 2) and c = 0.01, on
// [0, 1]³: 16 phase features √(2/m)·cos(ω·t + b) in t = log(x + c).
func RFFSkew() fmap.Verified {
	sigma := []float64{0.5, 1, 2}
	r := rand.New(rand.NewPCG(5, 3))
	rs := &fmap.Random{Features: fmap.Phase, Transform: fmap.LogOffset, Offset: 0.01, In: 3, Freq: sechFreqs(r, 16, sigma)}
	rs.Phase = uniformPhases(r, 16)
	return random(&fmap.Map{
		Kernel: fmap.Kernel{Type: fmap.SkewedChi2, Sigma: sigma, C: 0.01}, InDim: 3, Dim: 16, Domain: box(3, 0, 1, false),
		Method: "rff", Stages: []fmap.Stage{{Kind: rs}},
	}, &fmap.Verification{
		Measure:   fmap.Uniform,
		Reported:  fmap.Measurement{On: skewOn, Points: 113 * 113 * 57, LInf: 0.9738, RMS: 0.2402},
		Absolute:  fmap.Measurement{On: "all 262144 ordered pairs of a 8×8×8 grid on the box", Points: 262144, LInf: 0.9555, RMS: 0.2199},
		Signature: fmap.Measurement{On: skewOn, Points: 113 * 113 * 57, LInf: 0.9738, RMS: 0.2402},
	})
}

const skewOn = "a 113×113×57 grid of λ = t(x) − t(y) over [−4.615, 4.615] × [−4.615, 4.615] × [0, 4.615]"

// RFFIntersect is the skewed intersection kernel, σ = 1 and c = 0.5, on
// [0, 1]¹⁶: 512 phase features in t = log(x + c), whose 8704 constants go
// to a data file.
func RFFIntersect() fmap.Verified {
	sigma := repeat(1, 16)
	r := rand.New(rand.NewPCG(6, 3))
	rs := &fmap.Random{Features: fmap.Phase, Transform: fmap.LogOffset, Offset: 0.5, In: 16, Freq: cauchyFreqs(r, 512, sigma)}
	rs.Phase = uniformPhases(r, 512)
	return random(&fmap.Map{
		Kernel: fmap.Kernel{Type: fmap.SkewedIntersection, Sigma: sigma, C: 0.5}, InDim: 16, Dim: 512, Domain: box(16, 0, 1, false),
		Method: "rff", Stages: []fmap.Stage{{Kind: rs}},
	}, absolute(0.2139, 0.04424, 1000000, "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"))
}

// RFFSkewWide is the skewed intersection kernel, σ = 1 and c = 0.5, on
// [0, 1]³⁰⁰: 24 phase features in t = log(x + c), t of 300 values (two
// chunks of 256 and 44), whose 7224 constants go to a data file.
func RFFSkewWide() fmap.Verified {
	sigma := repeat(1, 300)
	r := rand.New(rand.NewPCG(14, 3))
	rs := &fmap.Random{Features: fmap.Phase, Transform: fmap.LogOffset, Offset: 0.5, In: 300, Freq: cauchyFreqs(r, 24, sigma)}
	rs.Phase = uniformPhases(r, 24)
	return random(&fmap.Map{
		Kernel: fmap.Kernel{Type: fmap.SkewedIntersection, Sigma: sigma, C: 0.5}, InDim: 300, Dim: 24, Domain: box(300, 0, 1, false),
		Method: "rff", Stages: []fmap.Stage{{Kind: rs}},
	}, absolute(0.5, 0.1, 1000000, "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"))
}

// RFF1 is the Gaussian RBF kernel, σ = 0.3, on [0, π] with 24 phase
// features (one input).
func RFF1() fmap.Verified {
	r := rand.New(rand.NewPCG(7, 3))
	rs := &fmap.Random{Features: fmap.Phase, Transform: fmap.Identity, In: 1, Freq: gaussianFreqs(r, 24, 1, 1/0.3)}
	rs.Phase = uniformPhases(r, 24)
	return random(&fmap.Map{
		Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{0.3}}, InDim: 1, Dim: 24, Domain: interval(0, math.Pi),
		Method: "rff", Stages: []fmap.Stage{{Kind: rs}},
	}, &fmap.Verification{
		Measure:   fmap.Uniform,
		Reported:  fmap.Measurement{On: "2001 equally spaced λ in [0, 3.14159]", Points: 2001, LInf: 0.4034, RMS: 0.1726},
		Absolute:  fmap.Measurement{On: "all 4004001 ordered pairs of x, y on 2001 equally spaced points of [0, 3.141592653589793]", Points: 4004001, LInf: 0.4398, RMS: 0.1657},
		Signature: fmap.Measurement{On: "2001 equally spaced λ in [0, 3.14159]", Points: 2001, LInf: 0.4034, RMS: 0.1726},
	})
}

// nysOn is where the Nyström test maps' errors were "measured".
const nysOn = "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"

// nysRowsOn is where the additive Nyström test maps' errors were
// "measured" (fmap's verification of whole rows).
const nysRowsOn = "all 289 ordered pairs of the rows (v, …, v) of 4 equal coordinates, v ∈ {0..16}, per coordinate (|K − Ψ·Ψ|/4)"

// rfpcaOn is where the rf-pca test maps' errors were "measured" (they are
// plausible figures for tests, not measurements).
const rfpcaOn = "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)"
