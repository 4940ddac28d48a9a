package fmap

import (
	"fmt"
	"math"
)

// This file is the family of the exponential χ² kernel.

// ExpChi2 is exp(−β Σ_i (x_i−y_i)²/(x_i+y_i)), terms with x_i + y_i = 0
// being 0 (scikit-learn's chi2_kernel; Li et al., Algorithm 2).
const ExpChi2 = "exp-chi2"

// expChi2Family is the family of the exp-χ² kernel: β.
type expChi2Family struct{}

// Types are exp-chi2.
func (expChi2Family) Types() []string { return []string{ExpChi2} }

// Keys are beta.
func (expChi2Family) Keys() []string { return []string{"beta"} }

func (f expChi2Family) named() string { return f.Types()[0] }

func (expChi2Family) check(k Kernel, _ int) error {
	if !(k.Beta > 0) || math.IsInf(k.Beta, 0) {
		return &KeyError{Key: "beta", Msg: fmt.Sprintf("must be > 0 and finite, not %v", k.Beta)}
	}
	return nil
}

func (expChi2Family) eval(k Kernel, x, y []float64) float64 {
	s := 0.0
	for i := range x {
		if t := x[i] + y[i]; t != 0 {
			d := x[i] - y[i]
			s += d * d / t
		}
	}
	return math.Exp(-k.Beta * s)
}

// signature is NaN: exp-χ² has none.
func (expChi2Family) signature(Kernel, []float64) float64 { return math.NaN() }

func (expChi2Family) describe(k Kernel) string {
	return fmt.Sprintf("exp-χ² kernel (β = %g)", k.Beta)
}
