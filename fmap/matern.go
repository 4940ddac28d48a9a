package fmap

import (
	"fmt"
	"math"
	"slices"
)

// This file is the family of the Matérn kernels (scikit-learn's Matern;
// docs/kernels.md).

// Matern is scikit-learn's Matern(length_scale = σ, nu = ν) of the
// scaled Euclidean distance r = ‖(x − y)/σ‖ (one σ per axis), ν in
// {0.5, 1.5, 2.5}: e^{−r}, (1 + √3r)e^{−√3r}, (1 + √5r + 5r²/3)e^{−√5r}.
const Matern = "matern"

// MaternNus are the smoothness values ν of the Matérn kernels featmap
// takes: those with a closed form in exponentials, as scikit-learn
// evaluates them without Bessel functions.
var MaternNus = []float64{0.5, 1.5, 2.5}

// maternFamily is the family of the Matérn kernels: one σ per axis and
// the smoothness ν.
type maternFamily struct{}

// Types are matern.
func (maternFamily) Types() []string { return []string{Matern} }

// Keys are sigma and nu.
func (maternFamily) Keys() []string { return []string{"sigma", "nu"} }

func (f maternFamily) named() string { return f.Types()[0] }

// The smoothness ν has no default.
func (maternFamily) required() []KeyHint {
	return []KeyHint{{"nu", "the smoothness: 0.5, 1.5 or 2.5"}}
}

func (maternFamily) check(k Kernel, n int) error {
	if !slices.Contains(MaternNus, k.Nu) {
		return &KeyError{Key: "nu", Msg: fmt.Sprintf("must be 0.5, 1.5 or 2.5 (the Matérn kernels of a closed form), not %v", k.Nu)}
	}
	return checkSigma(k, n)
}

func (maternFamily) eval(k Kernel, x, y []float64) float64 { return k.maternOf(x, y) }

func (maternFamily) signature(k Kernel, lambda []float64) float64 {
	s := 0.0
	for i, v := range lambda {
		u := v / k.Sigma[i]
		s += u * u
	}
	return MaternOf(k.Nu, math.Sqrt(s))
}

func (maternFamily) describe(k Kernel) string {
	return fmt.Sprintf("Matérn kernel (ν = %g, σ = %s)", k.Nu, sigmaWords(k))
}

// maternOf is the Matérn kernel at r = ‖(x − y)/σ‖.
func (k Kernel) maternOf(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		u := (x[i] - y[i]) / k.Sigma[i]
		s += u * u
	}
	return MaternOf(k.Nu, math.Sqrt(s))
}

// MaternOf is the Matérn function of smoothness ν at the scaled distance
// r ≥ 0 (scikit-learn's Matern): e^{−r} (ν = ½), (1 + √3r)e^{−√3r}
// (ν = 3/2), (1 + √5r + 5r²/3)e^{−√5r} (ν = 5/2), 0 at r = +Inf (a
// distance that overflows); NaN for another ν.
func MaternOf(nu, r float64) float64 {
	if math.IsInf(r, 1) && (nu == 0.5 || nu == 1.5 || nu == 2.5) {
		return 0
	}
	switch nu {
	case 0.5:
		return math.Exp(-r)
	case 1.5:
		a := math.Sqrt(3) * r
		return (1 + a) * math.Exp(-a)
	case 2.5:
		a := math.Sqrt(5) * r
		return (1 + a + a*a/3) * math.Exp(-a)
	}
	return math.NaN()
}
