package design

import (
	"errors"
	"fmt"
	"math"
)

// Norm is the norm of the weighted signature error that a design minimises.
type Norm string

// The norms of Chum's error functions (4) and (5).
const (
	LInf Norm = "linf" // C_∞ = max_Z w|k − k̂|
	L1   Norm = "l1"   // C_1 = Σ_Z w|k − k̂|
)

// Problem is a one-dimensional signature-fitting problem: approximate the
// signature k on [0, M] by k̂(λ) = Σ_j α_j cos(ω_j λ), α ≥ 0, minimising a
// weighted norm of k − k̂ over an evaluation set Z. Shift-invariant kernels
// have λ = x − y; homogeneous ones λ = log(y/x) (Chum §5), with the weight
// turning the signature error into the kernel error the user asked for.
type Problem struct {
	// Kernel, Domain, Transform, Gamma and Negative are copied into every
	// map designed for the problem.
	Kernel    Kernel
	Domain    Domain
	Transform Transform
	Gamma     float64
	Negative  Negative
	// Signature is k(λ) for λ ≥ 0 and Weight the error weight w(λ) > 0.
	Signature func(lambda float64) float64
	Weight    func(lambda float64) float64
	// M is the end of the interval [0, M] on which k is approximated.
	M    float64
	Norm Norm
	// OmegaMax and ZStep are the problem's defaults for the pool's largest
	// frequency and the spacing of Z; ChumOptions override them.
	OmegaMax float64
	ZStep    float64
	// Exact, if set, is the complete finite set of signature arguments the
	// domain attains (an integer domain), with the exact weight of each; the
	// designer then optimises the error on exactly these points.
	Exact *ExactSet
	// Reference measures designed maps (Verify).
	Reference *Reference
}

// ExactSet is the complete finite set of signature arguments λ ≥ 0 that an
// integer domain attains, with the exact error weight of each: for the
// absolute error of a homogeneous kernel on {lo..hi}, the largest amplitude
// (xy)^{γ/2}/hi^γ over the pairs with log(y/x) = λ, which the continuous
// weight w_A = e^{−γλ/2} only bounds from above. With one, the designer's
// LPs use the heaviest point of each grid cell, and the polish exchanges in
// every point whose error exceeds the working set's maximum until none does,
// so that the integer-grid error itself is what is minimised.
type ExactSet struct {
	Lambda []float64 // ascending
	Weight []float64
}

// cells picks from the set the heaviest point of every cell of width step
// on [0, M] (and always the first point): the LP working set.
func (e *ExactSet) cells(M, step float64) (z, w []float64) {
	best := -1
	cell := -1
	flush := func() {
		if best >= 0 {
			z = append(z, e.Lambda[best])
			w = append(w, e.Weight[best])
		}
	}
	for i, l := range e.Lambda {
		c := int(math.Floor(l / step))
		if i == 0 || c != cell {
			flush()
			best, cell = i, c
			if i == 0 {
				// The first point (λ = 0 on a homogeneous domain) is a cell
				// of its own: it carries the largest weight of all.
				flush()
				best, cell = -1, -1
			}
			continue
		}
		if e.Weight[i] > e.Weight[best] {
			best = i
		}
	}
	flush()
	return z, w
}

// Check reports the first inconsistency of p.
func (p *Problem) Check() error {
	switch {
	case p.Signature == nil || p.Weight == nil:
		return errors.New("design: problem without signature or weight")
	case !(p.M > 0) || math.IsInf(p.M, 0):
		return fmt.Errorf("design: signature interval [0, %v] is empty", p.M)
	case p.Norm != LInf && p.Norm != L1:
		return fmt.Errorf("design: unknown norm %q", p.Norm)
	case !(p.OmegaMax > 0) || !(p.ZStep > 0):
		return errors.New("design: problem without default pool or evaluation step")
	case p.Reference == nil:
		return errors.New("design: problem without a reference to verify against")
	}
	return nil
}

// newMap returns an empty Fourier map for p.
func (p *Problem) newMap(method string) *Map {
	return &Map{
		Kernel:    p.Kernel,
		InDim:     1,
		Domain:    p.Domain,
		Transform: p.Transform,
		Gamma:     p.Gamma,
		Negative:  p.Negative,
		Form:      Fourier,
		Method:    method,
	}
}

// grid returns n+1 equally spaced points on [0, M].
func grid(M float64, n int) []float64 {
	z := make([]float64, n+1)
	for i := range z {
		z[i] = M * float64(i) / float64(n)
	}
	return z
}

// DenseGrid returns λ points on [0, M] at least ten times denser than a set
// of spacing step (and never fewer than 2001), named in words.
func DenseGrid(M, step float64) ([][]float64, string) {
	n := max(2000, int(math.Ceil(10*M/step)))
	pts := make([][]float64, n+1)
	for i := range pts {
		pts[i] = []float64{M * float64(i) / float64(n)}
	}
	return pts, fmt.Sprintf("%d equally spaced λ in [0, %.6g]", n+1, M)
}
