package fmap

import (
	"math"
	"testing"
)

// TestRandomScale: a random stage's Scale c multiplies every component by
// c (Ψ·Ψ and the cos-sin signature by c²), Scale 0 is the unscaled map bit
// for bit, and a negative or non-finite Scale is invalid; a polynomial
// sketch of coefficient 0 has Dim zero components, counted by
// ZeroComponents.
func TestRandomScale(t *testing.T) {
	for _, feat := range []Features{CosSin, Phase} {
		r := &Random{Features: feat, Transform: Identity, In: 2, Freq: []float64{0.3, -1.2, 2.5, 0.7, -0.4, 1.9}}
		if feat == Phase {
			r.Phase = []float64{0.1, 2, 4}
		}
		m := &Map{Kernel: Kernel{Type: RBF, Sigma: []float64{1, 1}}, InDim: 2, Dim: r.Dim(), Domain: Domain{Lo: []float64{0, 0}, Hi: []float64{1, 1}}, Method: "rff", Stages: []Stage{{Kind: r}}}
		x, y := []float64{0.2, 0.9}, []float64{0.7, 0.1}
		plain := make([]float64, m.Dim)
		m.Eval(plain, x)
		dot, sig := m.Dot(x, y), m.SignatureAt([]float64{0.4, -0.3})
		r.Scale = 0.6
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		got := make([]float64, m.Dim)
		m.Eval(got, x)
		for i := range got {
			if math.Abs(got[i]-0.6*plain[i]) > 1e-15 {
				t.Errorf("%s: component %d is %v, want 0.6·%v", feat, i, got[i], plain[i])
			}
		}
		if d := m.Dot(x, y); math.Abs(d-0.36*dot) > 1e-15 {
			t.Errorf("%s: Ψ(x)·Ψ(y) = %v, want 0.36·%v", feat, d, dot)
		}
		if s := m.SignatureAt([]float64{0.4, -0.3}); feat == CosSin && math.Abs(s-0.36*sig) > 1e-15 {
			t.Errorf("%s: signature %v, want 0.36·%v", feat, s, sig)
		}
		for _, bad := range []float64{-0.5, math.Inf(1), math.NaN()} {
			r.Scale = bad
			if m.Validate() == nil {
				t.Errorf("%s: scale %v accepted", feat, bad)
			}
		}
		r.Scale = 0
		m.Eval(got, x)
		for i := range got {
			if got[i] != plain[i] {
				t.Fatalf("%s: scale 0 changed component %d", feat, i)
			}
		}
	}
	st := &Polynomial{In: 2, Exact: []PolyExact{{Degree: 0, Coef: 1}}, Sketch: []PolySketch{{Degree: 2, Coef: 0, Dim: 3, Size: 2, Signs: make([]int8, 2*2), Rows: []int32{0, 1, 0, 1}}}}
	m := &Map{Kernel: Kernel{Type: Poly, Degree: 2, Scale: 1, Offset: 1}, InDim: 2, Dim: 4, Domain: Domain{Lo: []float64{-1, -1}, Hi: []float64{1, 1}}, Method: "polynomial", Stages: []Stage{{Kind: st}}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if z := m.ZeroComponents(); z != 3 {
		t.Errorf("a sketch of coefficient 0: %d zero components, want 3", z)
	}
	out := make([]float64, 4)
	m.Eval(out, []float64{0.3, -0.8})
	if out[0] != 1 || out[1] != 0 || out[2] != 0 || out[3] != 0 {
		t.Errorf("Ψ = %v, want [1 0 0 0]", out)
	}
}
