package chum

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/fmap"
)

// line is the one-dimensional signature-fitting problem of a fmap.Problem
// (Chum §2 and §5): approximate the signature k on [0, M] by
// k̂(λ) = Σ_j α_j cos(ω_j λ), α ≥ 0, minimising a weighted norm of k − k̂
// over an evaluation set Z. Shift-invariant kernels have λ = x − y and
// M = hi − lo; homogeneous ones λ = log(y/x) and M = log(hi/m) with m the
// smallest nonzero input, with the weight turning the signature error into
// the kernel error the user asked for (fmap.Problem.Weight).
type line struct {
	p *fmap.Problem
	// M is the end of the interval [0, M] on which k is approximated.
	M float64
	// OmegaMax and ZStep are the defaults of the pool's largest frequency
	// and the spacing of Z; ChumOptions override them.
	OmegaMax float64
	ZStep    float64
	// Exact, if set, is the complete finite set of signature arguments the
	// domain attains (an integer domain), with the exact weight of each; the
	// designer then optimises the error on exactly these points.
	Exact *ExactSet
}

// Defaults of the log-domain design problem of a homogeneous kernel: the
// pool reaches ω = 5 and Z is spaced 0.01 in λ, enough for 8-bit data,
// where optimising on this grid is exact (docs/lp-design.md).
const (
	HomogeneousOmegaMax = 5
	HomogeneousZStep    = 0.01
)

// MaxExactInput is the largest integer-domain end for which the attainable
// signature arguments are enumerated (about 0.3·hi² of them); larger
// integer domains are optimised on the grid.
const MaxExactInput = 1024

// newLine returns the one-dimensional fitting problem of p. For the RBF
// kernel of width σ the pool reaches 5/σ, where the spectrum has fallen to
// e^{−12.5}, and Z has at least 20 points per period of the pool's largest
// frequency and at least 200 points (fmap.RBFZStep).
func newLine(p *fmap.Problem) (*line, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if p.InDim() != 1 {
		return nil, fmt.Errorf("chum: a one-dimensional design for a domain of %d axes", p.InDim())
	}
	lo, hi := p.Domain.Lo[0], p.Domain.Hi[0]
	if !p.Kernel.Homogeneous() {
		sigma := p.Kernel.Sigma[0]
		return &line{p: p, M: hi - lo, OmegaMax: 5 / sigma, ZStep: fmap.RBFZStep(sigma, lo, hi, p.Domain.Integer)}, nil
	}
	m, err := p.SmallestNonzero()
	if err != nil {
		return nil, err
	}
	l := &line{p: p, M: math.Log(hi / m), OmegaMax: HomogeneousOmegaMax, ZStep: HomogeneousZStep}
	if p.Domain.Integer {
		l.Exact = exactSet(p)
	}
	return l, nil
}

// signature is k(λ) and weight the error weight w(λ), for λ ≥ 0.
func (l *line) signature(lambda float64) float64 { return l.p.Kernel.Signature1(lambda) }
func (l *line) weight(lambda float64) float64 {
	return l.p.Weight([]float64{lambda})
}

// fourier returns an empty one-input Fourier stage for l's problem.
func (l *line) fourier() *fmap.Fourier {
	f := &fmap.Fourier{Form: fmap.FourierForm, Transform: fmap.Identity}
	if l.p.Kernel.Homogeneous() {
		f.Transform, f.Gamma, f.Negative = fmap.Log, gammaOf(l.p.Kernel), l.p.Negative
	}
	return f
}

// gammaOf is the homogeneity degree γ of a kernel (0 means 1).
func gammaOf(k fmap.Kernel) float64 {
	if k.Gamma == 0 {
		return 1
	}
	return k.Gamma
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

// exactSet enumerates λ = log(b/a) over the reduced fractions b/a ≥ 1 of an
// integer domain {lo..hi} with the exact weight of each: for the absolute
// error the largest amplitude (xy)^{γ/2}/hi^γ over the pairs (x, y) =
// (ma, mb) in the domain, for the relative error 1/k(λ), else 1. It returns
// nil beyond MaxExactInput.
func exactSet(p *fmap.Problem) *ExactSet {
	lo, hi := int(math.Max(p.Domain.Lo[0], 1)), int(p.Domain.Hi[0])
	if hi > MaxExactInput {
		return nil
	}
	gamma := gammaOf(p.Kernel)
	type point struct{ l, w float64 }
	var pts []point
	for a := 1; a <= hi; a++ { // a reduced ratio's a may lie below lo: (2, 4) → 1/2
		for b := a; b <= hi; b++ {
			if gcd(a, b) != 1 {
				continue
			}
			mMin, mMax := (lo+a-1)/a, hi/b
			if mMin > mMax {
				continue
			}
			l := math.Log(float64(b) / float64(a))
			w := 1.0
			switch p.Measure {
			case fmap.Absolute:
				w = math.Pow(float64(mMax*mMax)*float64(a)*float64(b), gamma/2) / math.Pow(float64(hi), gamma)
			case fmap.Relative:
				w = 1 / p.Kernel.Signature1(l)
			}
			pts = append(pts, point{l, w})
		}
	}
	slices.SortFunc(pts, func(p, q point) int { return cmp.Compare(p.l, q.l) })
	e := &ExactSet{Lambda: make([]float64, len(pts)), Weight: make([]float64, len(pts))}
	for i, p := range pts {
		e.Lambda[i], e.Weight[i] = p.l, p.w
	}
	return e
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
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

// grid returns n+1 equally spaced points on [0, M].
func grid(M float64, n int) []float64 {
	z := make([]float64, n+1)
	for i := range z {
		z[i] = M * float64(i) / float64(n)
	}
	return z
}

// newMap returns the one-stage Fourier map of the terms for l's problem.
func (l *line) newMap(method string, terms []fmap.Term) *fmap.Map {
	f := l.fourier()
	f.Terms = terms
	return fmap.NewFourierMap(l.p.Kernel, l.p.Domain, method, f)
}
