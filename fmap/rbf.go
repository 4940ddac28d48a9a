package fmap

import (
	"fmt"
	"math"
)

// This file is the family of the Gaussian kernel.

// RBF is the multiplicative Gaussian kernel
// Π_i exp(−(x_i − y_i)²/(2σ_i²)) with a diagonal Σ.
const RBF = "rbf"

// rbfFamily is the family of the Gaussian kernel: one σ per axis.
type rbfFamily struct{}

// Types are rbf.
func (rbfFamily) Types() []string { return []string{RBF} }

// Keys are sigma.
func (rbfFamily) Keys() []string { return []string{"sigma"} }

func (f rbfFamily) named() string { return f.Types()[0] }

func (rbfFamily) check(k Kernel, n int) error { return checkSigma(k, n) }

func (rbfFamily) eval(k Kernel, x, y []float64) float64 {
	s := 0.0
	for i := range x {
		d := x[i] - y[i]
		s += d * d / (2 * k.Sigma[i] * k.Sigma[i])
	}
	return math.Exp(-s)
}

func (rbfFamily) signature(k Kernel, lambda []float64) float64 {
	s := 0.0
	for i, v := range lambda {
		s += v * v / (2 * k.Sigma[i] * k.Sigma[i])
	}
	return math.Exp(-s)
}

func (rbfFamily) describe(k Kernel) string {
	return fmt.Sprintf("RBF kernel (σ = %s)", sigmaWords(k))
}
