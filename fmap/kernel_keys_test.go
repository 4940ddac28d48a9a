package fmap

import (
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
)

// TestNewKernelsAgainstScikitLearn holds the polynomial, Laplacian and
// Matérn kernels to scikit-learn's values (polynomial_kernel,
// laplacian_kernel of x/σ with gamma 1, Matern(length_scale = σ, nu)) at
// one pair of 3-D points, to 1e-15 relative.
func TestNewKernelsAgainstScikitLearn(t *testing.T) {
	x, y := []float64{0.3, -1.2, 2.5}, []float64{1.1, 0.4, -0.7}
	sig := []float64{0.7, 1.3, 2.0}
	for _, c := range []struct {
		k    Kernel
		want float64
	}{
		{Kernel{Type: Poly, Degree: 3, Scale: 0.25, Offset: 1.5}, 1.0768906249999997},
		{Kernel{Type: Laplacian, Sigma: sig}, 0.018805114963467685},
		{Kernel{Type: Matern, Nu: 0.5, Sigma: sig}, 0.09830503720944589},
		{Kernel{Type: Matern, Nu: 1.5, Sigma: sig}, 0.09028252855350641},
		{Kernel{Type: Matern, Nu: 2.5, Sigma: sig}, 0.08470154070455518},
	} {
		if err := c.k.Check(3); err != nil {
			t.Fatal(err)
		}
		got := c.k.Eval(x, y)
		if e := math.Abs(got-c.want) / c.want; e > 1e-15 {
			t.Errorf("%s: K = %.17g, scikit-learn %.17g (rel. %.2g)", c.k.Describe(), got, c.want, e)
		}
		if got2 := c.k.Eval(y, x); got2 != got {
			t.Errorf("%s is not symmetric: %v, %v", c.k.Describe(), got, got2)
		}
		if c.k.ShiftInvariant() {
			l := []float64{x[0] - y[0], x[1] - y[1], x[2] - y[2]}
			if s := c.k.Signature(l); math.Abs(s-got) > 1e-16 {
				t.Errorf("%s: signature %v, kernel %v", c.k.Describe(), s, got)
			}
		}
	}
}

// TestKernelKeyErrors checks that every bad value of the new kernels'
// keys is a KeyError naming the key, with the value in its message.
func TestKernelKeyErrors(t *testing.T) {
	for _, c := range []struct {
		k        Kernel
		key, msg string
	}{
		{Kernel{Type: Poly, Degree: 0, Scale: 1}, "degree", "from 1 to 8, not 0"},
		{Kernel{Type: Poly, Degree: 9, Scale: 1}, "degree", "from 1 to 8, not 9"},
		{Kernel{Type: Poly, Degree: 2, Scale: -1}, "scale", "> 0 and finite, not -1"},
		{Kernel{Type: Poly, Degree: 2, Scale: 0}, "scale", "not 0"},
		{Kernel{Type: Poly, Degree: 2, Scale: 1, Offset: -0.5}, "offset", "≥ 0 and finite, not -0.5"},
		{Kernel{Type: Poly, Degree: 2, Scale: 1, Offset: math.Inf(1)}, "offset", "not +Inf"},
		{Kernel{Type: Poly, Degree: 2, Scale: 1, Sigma: []float64{1, 1}}, "sigma", "poly has none"},
		{Kernel{Type: Matern, Nu: 2, Sigma: []float64{1, 1}}, "nu", "0.5, 1.5 or 2.5"},
		{Kernel{Type: Matern, Nu: 1.5, Sigma: []float64{1, 0}}, "sigma", "σ[1] must be > 0 and finite, not 0"},
		{Kernel{Type: Laplacian, Sigma: []float64{1}}, "sigma", "1 values for 2 input axes"},
		{Kernel{Type: Laplacian, Sigma: []float64{-1, 1}}, "sigma", "not -1"},
		{Kernel{Type: Laplacian, Nu: 1.5, Sigma: []float64{1, 1}}, "nu", "laplacian has none"},
		{Kernel{Type: Laplacian, Degree: 2, Sigma: []float64{1, 1}}, "degree", "laplacian has none"},
	} {
		err := c.k.Check(2)
		var ke *KeyError
		if !errors.As(err, &ke) || ke.Key != c.key || !strings.Contains(ke.Msg, c.msg) {
			t.Errorf("%+v: %v, want kernel.%s: …%s…", c.k, err, c.key, c.msg)
		}
	}
	for _, k := range []Kernel{
		{Type: Poly, Degree: 1, Scale: 1},
		{Type: Poly, Degree: 8, Scale: 1e-3, Offset: 2},
		{Type: Laplacian, Sigma: []float64{1, 2}},
		{Type: Matern, Nu: 0.5, Sigma: []float64{1, 2}},
	} {
		if err := k.Check(2); err != nil {
			t.Errorf("%+v: %v", k, err)
		}
	}
}

// TestPolyDomainBound checks that a domain where the polynomial kernel
// (times n^degree) would pass 2¹⁰⁰⁰ is refused naming the bound on the
// inputs, and that a domain within the bound is accepted; and that the
// relative error sees the kernel's smallest value on the domain.
func TestPolyDomainBound(t *testing.T) {
	k := Kernel{Type: Poly, Degree: 8, Scale: 1, Offset: 1}
	b := k.PolyBound(4)
	dom := func(hi float64) Domain {
		return Domain{Lo: []float64{-hi, -hi, -hi, -hi}, Hi: []float64{hi, hi, hi, hi}}
	}
	ok := &Problem{Kernel: k, Domain: dom(b * 0.999), Measure: Absolute, Norm: LInf}
	if err := ok.Check(); err != nil {
		t.Errorf("within the bound %g: %v", b, err)
	}
	bad := &Problem{Kernel: k, Domain: dom(b * 1.01), Measure: Absolute, Norm: LInf}
	err := bad.Check()
	if err == nil || !strings.Contains(err.Error(), "|x_i| ≤ "+fmt.Sprintf("%.6g", b)) {
		t.Errorf("beyond the bound %g: %v", b, err)
	}
	// (x·y + 0)³ on [−1, 1]²: negative for some pairs, so no relative error.
	rel := &Problem{Kernel: Kernel{Type: Poly, Degree: 3, Scale: 1}, Domain: Domain{Lo: []float64{-1, -1}, Hi: []float64{1, 1}}, Measure: Relative, Norm: LInf}
	if err := rel.Check(); err == nil || !strings.Contains(err.Error(), "relative error") {
		t.Errorf("relative error of an odd polynomial kernel on a symmetric box: %v", err)
	}
	rel.Kernel.Offset, rel.Domain.Lo = 1, []float64{0, 0}
	if err := rel.Check(); err != nil {
		t.Errorf("relative error of (x·y + 1)³ on [0, 1]²: %v", err)
	}
}
