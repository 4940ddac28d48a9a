package fmap

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// PerCoordinate applies a map of one input to every coordinate of its
// input: Ψ(x) = [ψ(x_1), …, ψ(x_n)], so that Ψ(x)·Ψ(y) = Σ_i ψ(x_i)·ψ(y_i)
// approximates an additive kernel (Vedaldi–Zisserman §2). Inner is a
// Fourier stage of one input or a series stage.
type PerCoordinate struct {
	Inner Stage `json:"inner"`
}

// out is the number of components: ψ's for each of the in inputs.
func (p *PerCoordinate) out(in int) int { return in * p.Inner.out(1) }

func (p *PerCoordinate) validate(int) error {
	switch p.Inner.Kind.(type) {
	case nil, *Fourier, *Series:
		return p.Inner.validate(1)
	}
	return errors.New("fmap: a per-coordinate stage's inner map is a Fourier or series stage")
}

// eval writes ψ(v) of every input value v, in order.
func (p *PerCoordinate) eval(dst, in []float64) {
	d := p.Inner.out(1)
	for i, v := range in {
		p.Inner.eval(dst[i*d:(i+1)*d], []float64{v})
	}
}

// Features is the form of random features.
type Features string

// The forms of random features (Rahimi–Recht; Băzăvan et al. §2).
const (
	// CosSin is the pair [cos ω·t, sin ω·t]/√m per frequency (D = 2m):
	// Ψ(x)·Ψ(y) = (1/m) Σ cos(ω·(t_x − t_y)), shift-invariant exactly.
	CosSin Features = "cos-sin"
	// Phase is √(2/m)·cos(ω·t + b) per frequency (D = m), b uniform on
	// [0, 2π): Ψ(x)·Ψ(y) is k's estimate only on average over b.
	Phase Features = "phase"
)

// Random is random Fourier features of its input: with frequencies
// ω_1..ω_m ∈ ℝⁿ (Freq, row-major m×n) and t = x (Identity) or
// t_i = log(x_i + Offset) (LogOffset: the skewed kernels), the features of
// Features, each multiplied by Scale. An input with a non-finite
// coordinate maps to 0, and t_i is taken at max(x_i + Offset, the
// smallest normal float64), so every component stays within
// Scale·√(2/m) (phase) or Scale·√(1/m) (cos-sin).
type Random struct {
	Features  Features  `json:"features"`
	Transform Transform `json:"transform"`
	Offset    float64   `json:"offset,omitempty"`
	In        int       `json:"in"`
	Freq      []float64 `json:"freq"`
	Phase     []float64 `json:"phase,omitempty"`
	// Scale is the shrinkage c of every component (Ψ(x)·Ψ(y) estimates
	// c²·K): a method fits it so that the map's Gram error is least on
	// the points it was designed for (the variance-optimal shrinkage of
	// an unbiased estimate, docs/rff.md). 0, or absent, stands for 1.
	Scale float64 `json:"scale,omitempty"`
}

// ComponentScale is the factor of every component: Scale·√(1/m) for
// cos-sin features, Scale·√(2/m) for phase features (the unscaled factor
// alone when Scale is 0), one rounded number that the reference
// evaluator and the emitted code multiply by.
func (r *Random) ComponentScale() float64 {
	m := r.Frequencies()
	a := math.Sqrt(1 / float64(m))
	if r.Features != CosSin {
		a = math.Sqrt(2 / float64(m))
	}
	if r.Scale != 0 {
		a *= r.Scale
	}
	return a
}

// Shrinkage is c², the factor Ψ(x)·Ψ(y) carries on the kernel's estimate
// (1 when Scale is 0).
func (r *Random) Shrinkage() float64 {
	if r.Scale == 0 {
		return 1
	}
	return r.Scale * r.Scale
}

// LogOffset uses t = log(x + c) per input (the skewed kernels), c the
// stage's Offset.
const LogOffset Transform = "log-offset"

// Frequencies is the number m of frequencies.
func (r *Random) Frequencies() int {
	if r.In < 1 {
		return 0
	}
	return len(r.Freq) / r.In
}

// Dim is the number of components: 2m for cos-sin, m for phase.
func (r *Random) Dim() int {
	if r.Features == CosSin {
		return 2 * r.Frequencies()
	}
	return r.Frequencies()
}

// out is the number of components, Dim.
func (r *Random) out(int) int { return r.Dim() }

func (r *Random) validate(in int) error {
	switch {
	case r.Features != CosSin && r.Features != Phase:
		return fmt.Errorf("fmap: unknown random features %q", r.Features)
	case r.Transform != Identity && r.Transform != LogOffset:
		return fmt.Errorf("fmap: random features with transform %q", r.Transform)
	case r.In != in:
		return fmt.Errorf("fmap: random features of %d inputs after a stage of %d outputs", r.In, in)
	case len(r.Freq) == 0 || len(r.Freq)%r.In != 0:
		return fmt.Errorf("fmap: %d frequency coordinates for %d inputs", len(r.Freq), r.In)
	case r.Features == Phase && len(r.Phase) != r.Frequencies():
		return fmt.Errorf("fmap: %d phases for %d frequencies", len(r.Phase), r.Frequencies())
	case r.Features == CosSin && len(r.Phase) != 0:
		return errors.New("fmap: cos-sin features have no phases")
	case math.IsNaN(r.Offset) || math.IsInf(r.Offset, 0):
		return fmt.Errorf("fmap: random features with offset %v", r.Offset)
	case !(r.Scale >= 0) || math.IsInf(r.Scale, 0):
		return fmt.Errorf("fmap: random features with scale %v", r.Scale)
	}
	for _, v := range append(slices.Clone(r.Freq), r.Phase...) {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("fmap: random features with a parameter %v", v)
		}
	}
	return nil
}

// eval writes the random features of x to dst.
func (r *Random) eval(dst, x []float64) {
	if nonFinite(x) {
		clear(dst)
		return
	}
	t := r.args(x)
	m := r.Frequencies()
	a := r.ComponentScale()
	if r.Features == CosSin {
		for i := range m {
			ph := 0.0
			for j, w := range r.Freq[i*r.In : (i+1)*r.In] {
				ph += w * t[j]
			}
			dst[2*i], dst[2*i+1] = a*math.Cos(ph), a*math.Sin(ph)
		}
		return
	}
	for i := range m {
		ph := 0.0
		for j, w := range r.Freq[i*r.In : (i+1)*r.In] {
			ph += w * t[j]
		}
		dst[i] = a * math.Cos(ph+r.Phase[i])
	}
}

// args returns t(x) of the stage's transform.
func (r *Random) args(x []float64) []float64 {
	if r.Transform != LogOffset {
		return x
	}
	t := make([]float64, len(x))
	for j, v := range x {
		t[j] = math.Log(math.Max(v+r.Offset, 0x1p-1022))
	}
	return t
}

// random returns the map's random-features stage if it is a one-stage
// random map, else nil.
func (m *Map) random() *Random { return stageOf[*Random](m) }

// signatureAt is a one-stage map of cos-sin random features' signature at
// λ = t(x) − t(y): (c²/m) Σ cos(ω·λ), exactly (c² the shrinkage).
func (r *Random) signatureAt(lambda []float64) float64 {
	s := 0.0
	n := r.Frequencies()
	for i := range n {
		ph := 0.0
		for j, w := range r.Freq[i*r.In : (i+1)*r.In] {
			ph += w * lambda[j]
		}
		s += math.Cos(ph)
	}
	return r.Shrinkage() * (s / float64(n))
}

// signedAlong reports whether SignatureAt takes m's signature as
// Ψ(x)·Ψ(y) along a pair (dotAlong) — phase random features, Nyström maps
// and projected random features (rf-pca), but not maps of whole rows —
// and the transform t of that pair: t(x) = log(x + c) with logOffset.
func (m *Map) signedAlong() (along, logOffset bool, c float64) {
	if m.Fourier() != nil {
		return false, false, 0
	}
	if r := m.random(); r != nil {
		return r.Features == Phase, r.Transform == LogOffset, r.Offset
	}
	if m.WholeRows() || len(m.Stages) == 0 {
		return false, false, 0
	}
	switch m.Stages[len(m.Stages)-1].Kind.(type) {
	case *Nystroem, *Linear:
		return true, m.Kernel.Skewed(), m.Kernel.C
	}
	return false, false, 0
}

// alongEnds sets x to the end of each axis from which t(x) + λ stays in
// the domain (the lower end for λ_j ≥ 0, else the upper) and y to the
// other point of the pair, t(y) − t(x) = λ; t(x) = log(x + c) with
// logOffset, else x. It returns the pattern of upper ends taken (bit j for
// axis j < 64).
func (m *Map) alongEnds(x, y, lambda []float64, logOffset bool, c float64) uint64 {
	var ends uint64
	for j, l := range lambda {
		x[j] = m.Domain.Lo[j]
		if l < 0 {
			x[j] = m.Domain.Hi[j]
			if j < 64 {
				ends |= 1 << j
			}
		}
		y[j] = x[j] + l
		if logOffset {
			y[j] = math.Exp(math.Log(x[j]+c)+l) - c
		}
	}
	return ends
}

// dotAlong is Ψ(x)·Ψ(y) for the pair of alongEnds.
func (m *Map) dotAlong(lambda []float64, logOffset bool, c float64) float64 {
	x, y := make([]float64, m.InDim), make([]float64, m.InDim)
	m.alongEnds(x, y, lambda, logOffset, c)
	return m.Dot(x, y)
}

// maxAlongAxes bounds the axes whose ends dotsAlong remembers Ψ of: 2^n
// ends at most, and the dense grids of signature arguments have at most
// MaxGridAxes axes.
const maxAlongAxes = 8

// dotsAlong sets out[k] = m.dotAlong(pts[k], logOffset, c) for every k, bit
// for bit, evaluating Ψ(x) once for each end x that pts reach (x depends
// only on the signs of λ) rather than once per point: half the
// evaluations of a signature along pairs.
func (m *Map) dotsAlong(out []float64, pts [][]float64, logOffset bool, c float64) {
	if m.InDim > maxAlongAxes {
		for k, l := range pts {
			out[k] = m.dotAlong(l, logOffset, c)
		}
		return
	}
	x, y := make([]float64, m.InDim), make([]float64, m.InDim)
	psiY := make([]float64, m.Dim)
	var psiX [1 << maxAlongAxes][]float64
	for k, l := range pts {
		ends := m.alongEnds(x, y, l, logOffset, c)
		if psiX[ends] == nil {
			psiX[ends] = make([]float64, m.Dim)
			m.Eval(psiX[ends], x)
		}
		m.Eval(psiY, y)
		out[k] = dot(psiX[ends], psiY)
	}
}
