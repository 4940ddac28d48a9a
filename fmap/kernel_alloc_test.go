package fmap

import "testing"

// TestKernelEvalAllocatesNothing holds Kernel.Eval of every single-part
// family to zero allocations: verification and the samplers call it once
// per pair of rows, millions of times per design.
func TestKernelEvalAllocatesNothing(t *testing.T) {
	x := []float64{0.2, 0.5, 0.3}
	y := []float64{0.4, 0.1, 0.5}
	sigma := []float64{0.7, 1.1, 0.9}
	kernels := []Kernel{
		{Type: "chi2", Gamma: 1},
		{Type: "rbf", Sigma: sigma},
		{Type: "laplacian", Sigma: sigma},
		{Type: "matern", Sigma: sigma, Nu: 1.5},
		{Type: "exp-chi2", Beta: 1},
		{Type: "poly", Degree: 2, Scale: 1, Offset: 1},
	}
	for _, k := range kernels {
		if a := testing.AllocsPerRun(100, func() { k.Eval(x, y) }); a != 0 {
			t.Errorf("%s: Eval allocates %v times per call, want 0", k.Type, a)
		}
	}
}
