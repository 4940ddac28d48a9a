package fmap

import (
	"errors"
	"fmt"
	"math"
)

// Linear is a linear map of its input z ∈ ℝ^In: Ψ = Proj·(z − Mean), Proj
// row-major k×In, Mean empty (Ψ = Proj·z) or of length In. It is the
// projection of PCA of random features (Li et al. §6, Algorithm 3): Proj's
// rows are the leading eigenvectors of the features' second-moment (or,
// with Mean, covariance) matrix over the data.
type Linear struct {
	In   int       `json:"in"`
	Proj []float64 `json:"proj"`
	Mean []float64 `json:"mean,omitempty"`
}

// Dim is the number k of outputs.
func (l *Linear) Dim() int {
	if l.In < 1 {
		return 0
	}
	return len(l.Proj) / l.In
}

// out is the number of components, Dim.
func (l *Linear) out(int) int { return l.Dim() }

func (l *Linear) validate(in int) error {
	switch {
	case l.In != in:
		return fmt.Errorf("fmap: a linear stage of %d inputs after a stage of %d outputs", l.In, in)
	case l.Dim() < 1 || len(l.Proj) != l.Dim()*l.In:
		return fmt.Errorf("fmap: a %d-entry projection of %d inputs", len(l.Proj), l.In)
	case len(l.Mean) != 0 && len(l.Mean) != l.In:
		return fmt.Errorf("fmap: a mean of %d entries for %d inputs", len(l.Mean), l.In)
	}
	for _, v := range append(append([]float64(nil), l.Proj...), l.Mean...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("fmap: a linear stage with a non-finite entry")
		}
	}
	return nil
}

// eval writes Proj·(z − Mean) to dst, each component one sum in order,
// every product rounded before it is added (an explicit conversion, which
// the compiler never fuses into a multiply-add, as it may on arm64 or
// with GOAMD64=v3), as the emitted code computes it.
func (l *Linear) eval(dst, z []float64) {
	for i := range dst {
		row := l.Proj[i*l.In : (i+1)*l.In]
		var v float64
		for j, c := range row {
			zj := z[j]
			if len(l.Mean) > 0 {
				zj -= l.Mean[j]
			}
			v += float64(c * zj)
		}
		dst[i] = v
	}
}
