// Package testmaps builds the hand-made verified maps that codegen's
// tests, golden files and benchmarks share. Their parameters and measured
// errors are realistic: they were taken from featmap's own designers and
// verification (χ² maps verified on the homogeneous reference, the RBF maps
// with their exact signature) and are hard-coded here so that codegen's
// tests do not depend on the designers.
package testmaps

import (
	"math"

	"github.com/featmap/featmap/design/fmap"
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
		{"Chi2Wide", false, Chi2Wide},
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
		m.Stages = []fmap.Stage{{Fourier: st}}
	default:
		m.Stages = []fmap.Stage{{Series: &fmap.Series{Form: f.Form, K: f.LiK, Dim: f.Dim, Negative: f.Negative}}}
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
	return chi2(intDomain(0, 65535), absolute(3.094, 1.349, 65536*65536, "0..65535, scaled from {0..255} by homogeneity"))
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
