package fmap

import (
	"fmt"
	"math"
)

// This file is the family of the skewed kernels (Li, Ionescu and
// Sminchisescu 2010): shift-invariant in t = log(x + c) per axis.

// The skewed kernel types.
const (
	// SkewedChi2 is Π_i sech(σ_i(log(x_i+c) − log(y_i+c))); σ = ½ gives
	// 2√((x+c)(y+c))/(x+y+2c) (Li, Ionescu, Sminchisescu 2010; Băzăvan et
	// al., Table 1).
	SkewedChi2 = "skewed-chi2"
	// SkewedIntersection is Π_i min(((x_i+c)/(y_i+c))^σ_i, ((y_i+c)/(x_i+c))^σ_i)
	// = exp(−Σ_i σ_i|log(x_i+c) − log(y_i+c)|).
	SkewedIntersection = "skewed-intersection"
)

// Skewed reports whether k is a skewed kernel: shift-invariant in
// t = log(x + c) per axis.
func (k Kernel) Skewed() bool { return k.Type == SkewedChi2 || k.Type == SkewedIntersection }

// skewedFamily is the family of the skewed kernels: one σ per axis and
// the offset c.
type skewedFamily struct{}

// Types are skewed-chi2 and skewed-intersection.
func (skewedFamily) Types() []string { return []string{SkewedChi2, SkewedIntersection} }

// Keys are sigma and c.
func (skewedFamily) Keys() []string { return []string{"sigma", "c"} }

func (skewedFamily) named() string { return "the skewed kernels" }

func (skewedFamily) check(k Kernel, n int) error {
	if math.IsNaN(k.C) || math.IsInf(k.C, 0) {
		return &KeyError{Key: "c", Msg: fmt.Sprintf("the offset must be finite, not %v", k.C)}
	}
	return checkSigma(k, n)
}

func (skewedFamily) eval(k Kernel, x, y []float64) float64 {
	l := make([]float64, len(x))
	for i := range x {
		a, b := x[i]+k.C, y[i]+k.C
		l[i] = logRatio(max(a, b), min(a, b)) // ≥ 0 either way round: symmetric to the bit
	}
	return k.Signature(l)
}

func (skewedFamily) signature(k Kernel, lambda []float64) float64 {
	if k.Type == SkewedChi2 {
		p := 1.0
		for i, v := range lambda {
			p *= homogeneousSignature(Chi2, 2*k.Sigma[i]*v) // sech(a/2) at a = 2σλ
		}
		return p
	}
	s := 0.0
	for i, v := range lambda {
		s += k.Sigma[i] * math.Abs(v)
	}
	return math.Exp(-s)
}

func (skewedFamily) describe(k Kernel) string {
	names := map[string]string{SkewedChi2: "skewed χ²", SkewedIntersection: "skewed intersection"}
	return fmt.Sprintf("%s kernel (σ = %s, c = %g)", names[k.Type], sigmaWords(k), k.C)
}
