package report

import (
	"github.com/featmap/featmap/fmap"
)

// chi2Reference is the reference of the χ² kernel on the integers
// {0..hi} with the absolute error.
func chi2Reference(hi int) *fmap.Reference {
	p := &fmap.Problem{
		Kernel:  fmap.Kernel{Type: fmap.Chi2, Gamma: 1},
		Domain:  fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{float64(hi)}},
		Measure: fmap.Absolute, Norm: fmap.LInf, Negative: fmap.NegativeSign,
	}
	ref, err := p.Reference()
	if err != nil {
		panic(err)
	}
	return ref
}

// fourierMap returns a log-domain Fourier map of the χ² kernel with
// frequencies omega (0 first) and weights alpha, and its verification.
func fourierMap(ref *fmap.Reference, hi int, method string, omega, alpha []float64) (*fmap.Map, *fmap.Verification) {
	f := &fmap.Fourier{Form: fmap.FourierForm, Transform: fmap.Log, Gamma: 1, Negative: fmap.NegativeSign}
	for i := range omega {
		f.Terms = append(f.Terms, fmap.Term{Freq: []float64{omega[i]}, Weight: alpha[i]})
	}
	m := fmap.NewFourierMap(fmap.Kernel{Type: "chi2", Gamma: 1}, fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{float64(hi)}}, method, f)
	if err := m.Validate(); err != nil {
		panic(err)
	}
	v := fmap.Verify(m, ref)
	return m, &v
}

// testInput is a comparison of two methods at D = 1, 2, 3 on {0..31}:
// "wide" makes every D but fails at D = 2, "odd" makes odd D only.
func testInput() *Input {
	const hi = 31
	ref := chi2Reference(hi)
	wide1, wide1v := fourierMap(ref, hi, "wide", []float64{0}, []float64{0.9})
	wide3, wide3v := fourierMap(ref, hi, "wide", []float64{0, 0.8}, []float64{0.55, 0.43})
	odd1, odd1v := fourierMap(ref, hi, "odd", []float64{0}, []float64{1})
	odd3, odd3v := fourierMap(ref, hi, "odd", []float64{0, 0.6}, []float64{0.5, 0.5})
	return &Input{
		Name: "Test", SpecPath: "specs/test.yaml", SpecSHA: "0123456789abcdef",
		Spec:    []Item{{"kernel", "χ² kernel (γ = 1)"}, {"domain", "the integers {0..31}"}},
		Summary: "χ² kernel (γ = 1) on the integers {0..31}, absolute error",
		Kernel:  fmap.Kernel{Type: "chi2", Gamma: 1},
		Domain:  fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{hi}},
		Measure: fmap.Absolute,
		Methods: []Method{{Label: "wide", Name: "wide"}, {Label: "odd (x)", Name: "odd", Options: "x"}},
		Dims:    []int{1, 2, 3},
		Cells: [][]Cell{
			{{Map: wide1, Verification: wide1v, Seconds: 0.5, LPs: 3, Steps: []Step{{Name: "lp", Error: wide1v.Reported}}}, {Err: "boom", Seconds: 0.1}, {Map: wide3, Verification: wide3v, Seconds: 1.5}},
			{{Map: odd1, Verification: odd1v, Seconds: 0.001}, {NA: "odd makes odd dimensions only"}, {Map: odd3, Verification: odd3v, Seconds: 0.002}},
		},
		Reference: ref, Workers: 2, CPUs: 2,
		Generator: "featmap test", Command: "featmap compare specs/test.yaml",
	}
}
