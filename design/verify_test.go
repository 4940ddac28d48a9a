package design

import (
	"math"
	"testing"
)

// TestVerifyKnownError measures a map whose error is known in closed form:
// k̂ = 0.9·cos(λ) against K(x, y) = cos(x − y) has kernel error 0.1·|cos(x−y)|,
// relative error 0.1 wherever K > 0, and weighted signature error
// 0.1·|cos λ|.
func TestVerifyKnownError(t *testing.T) {
	m := &Map{Kernel: Kernel{Type: "test"}, InDim: 1, Domain: Domain{Lo: []float64{0}, Hi: []float64{1}},
		Transform: Identity, Form: Fourier, Terms: []Term{{Freq: []float64{1}, Weight: 0.9}}, Dim: 2}
	var inputs [][]float64
	for i := range 11 {
		inputs = append(inputs, []float64{float64(i) / 10})
	}
	dense, on := DenseGrid(1, 0.01)
	ref := &Reference{
		Measure: Absolute, Exact: func(x, y []float64) float64 { return math.Cos(x[0] - y[0]) },
		Inputs: inputs, InputsOn: "11 points", Signature: func(l []float64) float64 { return math.Cos(l[0]) },
		Weight: func([]float64) float64 { return 1 }, Dense: dense, DenseOn: on,
	}
	v := Verify(m, ref)
	if m.Errors != v {
		t.Fatal("Verify did not store its result in the map")
	}
	// Absolute: max over pairs of 0.1|cos(x−y)| = 0.1 at x = y.
	if math.Abs(v.Reported.LInf-0.1) > 1e-15 || v.Reported != v.Absolute || v.Absolute.Points != 121 {
		t.Errorf("absolute L∞ %v (points %d), want 0.1 over 121 pairs", v.Reported.LInf, v.Absolute.Points)
	}
	sum := 0.0
	for _, x := range inputs {
		for _, y := range inputs {
			sum += math.Pow(0.1*math.Cos(x[0]-y[0]), 2)
		}
	}
	if want := math.Sqrt(sum / 121); math.Abs(v.Reported.RMS-want) > 1e-15 {
		t.Errorf("absolute RMS %v, want %v", v.Reported.RMS, want)
	}
	if math.Abs(v.Signature.LInf-0.1) > 1e-15 || v.Signature.Points != len(dense) {
		t.Errorf("signature L∞ %v on %d points, want 0.1 on %d", v.Signature.LInf, v.Signature.Points, len(dense))
	}
	ref.Measure = Relative
	if v := Verify(m, ref); math.Abs(v.Reported.LInf-0.1) > 1e-14 || math.Abs(v.Reported.RMS-0.1) > 1e-14 {
		t.Errorf("relative L∞/RMS %v/%v, want 0.1/0.1", v.Reported.LInf, v.Reported.RMS)
	}
}

// TestVerifyNaNIsNotHidden: a map that yields NaN must not verify as exact.
func TestVerifyNaNIsNotHidden(t *testing.T) {
	m := &Map{Kernel: Kernel{Type: "test"}, InDim: 1, Domain: Domain{Lo: []float64{0}, Hi: []float64{1}},
		Transform: Identity, Form: Fourier, Terms: []Term{{Freq: []float64{1}, Weight: math.Inf(1)}}, Dim: 2}
	ref := &Reference{Measure: Absolute, Exact: func(x, y []float64) float64 { return 1 },
		Inputs: [][]float64{{0}, {0.5}}, Signature: func([]float64) float64 { return 1 }, Weight: func([]float64) float64 { return 1 }}
	if v := Verify(m, ref); !math.IsNaN(v.Reported.LInf) {
		t.Errorf("L∞ %v for a map with an infinite weight, want NaN", v.Reported.LInf)
	}
}
