package report

import (
	"math"
	"testing"

	"github.com/featmap/featmap/design/fmap"
)

// TestKernelErrorsWholeRows: the kernel-error map of a Nyström map of
// whole rows of the additive Hellinger kernel is taken on the rows
// (v, …, v), per coordinate, as fmap.Verify measures it. The map
// Ψ(x) = 0.9·K(x, l)/√K(l, l), l = (3, 3, 3), gives Ψ·Ψ = 0.81·3√(vw) on
// those rows: the error per coordinate is 0.19√(vw), largest 1.9 at
// v = w = 10 (on 1-D inputs, as before, it would be nonsense).
func TestKernelErrorsWholeRows(t *testing.T) {
	k := fmap.Kernel{Type: fmap.Hellinger, Gamma: 1}
	land := []float64{3, 3, 3}
	m := &fmap.Map{Kernel: k, InDim: 3, Dim: 1, Method: "nystroem",
		Domain: fmap.Domain{Integer: true, Lo: []float64{0, 0, 0}, Hi: []float64{10, 10, 10}},
		Stages: []fmap.Stage{{Nystroem: &fmap.Nystroem{Kernel: k, In: 3, Landmarks: land, Proj: []float64{0.9 / math.Sqrt(k.Eval(land, land))}}}}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := &fmap.Problem{Kernel: k, Domain: fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{10}}, Measure: fmap.Absolute, Norm: fmap.LInf, Negative: fmap.NegativeSign}
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	g, top := kernelErrors(m, ref)
	if math.Abs(top-1.9) > 1e-13 {
		t.Errorf("largest |error| %v, want 1.9", top)
	}
	for r, y := range g.v {
		for c, x := range g.v {
			if e, want := g.e[r*len(g.v)+c], 0.19*math.Sqrt(x*y); math.Abs(e-want) > 1e-13 {
				t.Fatalf("error at (%v, %v) = %v, want %v", x, y, e, want)
			}
		}
	}
}
