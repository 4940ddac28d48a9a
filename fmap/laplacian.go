package fmap

import (
	"fmt"
	"math"
)

// This file is the family of the Laplacian kernel.

// Laplacian is exp(−Σ_i |x_i − y_i|/σ_i), one σ per input axis: the
// L1 distance, scaled per axis.
const Laplacian = "laplacian"

// laplacianFamily is the family of the Laplacian kernel: one σ per axis.
type laplacianFamily struct{}

// Types are laplacian.
func (laplacianFamily) Types() []string { return []string{Laplacian} }

// Keys are sigma.
func (laplacianFamily) Keys() []string { return []string{"sigma"} }

func (f laplacianFamily) named() string { return f.Types()[0] }

func (laplacianFamily) check(k Kernel, n int) error { return checkSigma(k, n) }

func (laplacianFamily) eval(k Kernel, x, y []float64) float64 {
	s := 0.0
	for i := range x {
		s += math.Abs(x[i]-y[i]) / k.Sigma[i]
	}
	return math.Exp(-s)
}

func (laplacianFamily) signature(k Kernel, lambda []float64) float64 {
	s := 0.0
	for i, v := range lambda {
		s += math.Abs(v) / k.Sigma[i]
	}
	return math.Exp(-s)
}

func (laplacianFamily) describe(k Kernel) string {
	return fmt.Sprintf("Laplacian kernel (σ = %s)", sigmaWords(k))
}
