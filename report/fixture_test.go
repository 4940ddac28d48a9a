package report

import (
	"fmt"
	"math"

	"github.com/featmap/featmap/design"
)

// chi2Reference is a small hand-made reference: the χ² kernel on the
// integers {0..hi}, its signature sech(λ/2) and the absolute-error weight
// e^{−λ/2}, with a dense λ grid on [0, ln hi].
func chi2Reference(hi int) *design.Reference {
	ref := &design.Reference{
		Measure: design.Absolute,
		Exact: func(x, y []float64) float64 {
			if x[0]+y[0] == 0 {
				return 0
			}
			return 2 * x[0] * y[0] / (x[0] + y[0])
		},
		Signature: func(l []float64) float64 { return 1 / math.Cosh(l[0]/2) },
		Weight:    func(l []float64) float64 { return math.Exp(-math.Abs(l[0]) / 2) },
		InputsOn:  fmt.Sprintf("x, y ∈ {0..%d}", hi),
	}
	for i := 0; i <= hi; i++ {
		ref.Inputs = append(ref.Inputs, []float64{float64(i)})
	}
	M := math.Log(float64(hi))
	for i := range 501 {
		ref.Dense = append(ref.Dense, []float64{M * float64(i) / 500})
	}
	ref.DenseOn = fmt.Sprintf("501 points of λ ∈ [0, %.4g]", M)
	return ref
}

// fourierMap returns a verified log-domain Fourier map of the χ² kernel
// with frequencies omega (0 first) and weights alpha.
func fourierMap(ref *design.Reference, hi int, method string, omega, alpha []float64) *design.Map {
	m := &design.Map{
		Kernel: design.Kernel{Type: "chi2", Gamma: 1}, InDim: 1,
		Domain:    design.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{float64(hi)}},
		Transform: design.Log, Gamma: 1, Negative: design.NegativeSign,
		Form: design.Fourier, Method: method,
	}
	for i := range omega {
		m.Terms = append(m.Terms, design.Term{Freq: []float64{omega[i]}, Weight: alpha[i]})
	}
	m.Dim = m.CountDim()
	if err := m.Validate(); err != nil {
		panic(err)
	}
	design.Verify(m, ref)
	return m
}

// testInput is a comparison of two methods at D = 1, 2, 3 on {0..31}:
// "wide" makes every D but fails at D = 2, "odd" makes odd D only.
func testInput() *Input {
	const hi = 31
	ref := chi2Reference(hi)
	wide1 := fourierMap(ref, hi, "wide", []float64{0}, []float64{0.9})
	wide3 := fourierMap(ref, hi, "wide", []float64{0, 0.8}, []float64{0.55, 0.43})
	odd1 := fourierMap(ref, hi, "odd", []float64{0}, []float64{1})
	odd3 := fourierMap(ref, hi, "odd", []float64{0, 0.6}, []float64{0.5, 0.5})
	return &Input{
		Name: "Test", SpecPath: "specs/test.yaml", SpecSHA: "0123456789abcdef",
		Spec:    []Item{{"kernel", "χ² kernel (γ = 1)"}, {"domain", "the integers {0..31}"}},
		Summary: "χ² kernel (γ = 1) on the integers {0..31}, absolute error",
		Kernel:  design.Kernel{Type: "chi2", Gamma: 1},
		Domain:  design.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{hi}},
		Measure: design.Absolute,
		Methods: []Method{{Label: "wide", Name: "wide"}, {Label: "odd (x)", Name: "odd", Options: "x"}},
		Dims:    []int{1, 2, 3},
		Cells: [][]Cell{
			{{Map: wide1, Seconds: 0.5, LPs: 3, Stages: []design.Stage{{Name: "lp", Error: wide1.Errors.Reported}}}, {Err: "boom", Seconds: 0.1}, {Map: wide3, Seconds: 1.5}},
			{{Map: odd1, Seconds: 0.001}, {NA: "odd makes odd dimensions only"}, {Map: odd3, Seconds: 0.002}},
		},
		Reference: ref, Workers: 2, CPUs: 2,
		Generator: "featmap test", Command: "featmap compare specs/test.yaml",
	}
}
