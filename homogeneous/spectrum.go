// Package homogeneous holds what featmap knows of the γ-homogeneous
// additive kernels (χ², intersection, Jensen–Shannon, Hellinger) beyond
// their exact values (package fmap): their spectra and the closed-form
// maps of Vedaldi–Zisserman (method "vz"), Li's direct χ² series (method
// "li") and the Chebyshev χ² series (method "chebyshev"). Every method
// here returns a fmap.Map.
package homogeneous

import (
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/fmap"
)

// Spectrum returns κ(ω) of the homogeneous kernel type typ (fmap.Chi2,
// fmap.Intersection, fmap.JS, fmap.Hellinger), with
// k(λ) = ∫ κ(ω) e^{−iωλ} dω (Vedaldi–Zisserman, TPAMI 2012, Fig. 1):
// sech(πω) for χ², (2/π)/(1+4ω²) for intersection and
// (2/ln 4)·sech(πω)/(1+4ω²) for JS. It is even in ω, finite and
// nonnegative for every non-NaN ω. Hellinger's spectrum is the Dirac delta
// δ(ω); Spectrum returns +Inf at ω = 0 and 0 elsewhere for it (callers that
// need κ̂ treat Hellinger separately). NaN gives NaN, and so does an
// unknown type.
func Spectrum(typ string, omega float64) float64 {
	if math.IsNaN(omega) {
		return math.NaN()
	}
	w := math.Abs(omega)
	switch typ {
	case fmap.Chi2:
		return sech(math.Pi * w)
	case fmap.Intersection:
		return (2 / math.Pi) / (1 + 4*w*w)
	case fmap.JS:
		return (2 / math.Log(4)) * sech(math.Pi*w) / (1 + 4*w*w)
	case fmap.Hellinger:
		if w == 0 {
			return math.Inf(1)
		}
		return 0
	}
	return math.NaN()
}

// sech returns 1/cosh(a) for a ≥ 0 without overflow.
func sech(a float64) float64 {
	e := math.Exp(-a)
	return 2 * e / (1 + e*e)
}

// signature is the kernel type's signature k(λ).
func signature(typ string, lambda float64) float64 {
	return fmap.Kernel{Type: typ}.Signature1(lambda)
}

// checkType returns an error unless typ is a homogeneous kernel type.
func checkType(typ string) error {
	if !slices.Contains(fmap.HomogeneousTypes(), typ) {
		return fmt.Errorf("homogeneous: unknown kernel %q (want chi2, intersection, js or hellinger)", typ)
	}
	return nil
}
