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
// Features. An input with a non-finite coordinate maps to 0, and t_i is
// taken at max(x_i + Offset, the smallest normal float64), so every
// component stays within √(2/m) (phase) or √(1/m) (cos-sin).
type Random struct {
	Features  Features  `json:"features"`
	Transform Transform `json:"transform"`
	Offset    float64   `json:"offset,omitempty"`
	In        int       `json:"in"`
	Freq      []float64 `json:"freq"`
	Phase     []float64 `json:"phase,omitempty"`
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
	for i := range m {
		ph := 0.0
		for j, w := range r.Freq[i*r.In : (i+1)*r.In] {
			ph += w * t[j]
		}
		if r.Features == CosSin {
			a := math.Sqrt(1 / float64(m))
			dst[2*i], dst[2*i+1] = a*math.Cos(ph), a*math.Sin(ph)
		} else {
			dst[i] = math.Sqrt(2/float64(m)) * math.Cos(ph+r.Phase[i])
		}
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

// signatureAt is a one-stage random map's approximation of the signature
// at λ = t(x) − t(y): for cos-sin features (1/m) Σ cos(ω·λ) exactly; for
// phase features Ψ(x)·Ψ(y) along a pair with that argument, x at the end
// of each axis from which t(x) + λ stays in the domain.
func (r *Random) signatureAt(m *Map, lambda []float64) float64 {
	if r.Features == CosSin {
		s := 0.0
		n := r.Frequencies()
		for i := range n {
			ph := 0.0
			for j, w := range r.Freq[i*r.In : (i+1)*r.In] {
				ph += w * lambda[j]
			}
			s += math.Cos(ph)
		}
		return s / float64(n)
	}
	return m.dotAlong(lambda, r.Transform == LogOffset, r.Offset)
}

// dotAlong is Ψ(x)·Ψ(y) for a pair with t(y) − t(x) = λ, x at the end of
// each axis from which t(x) + λ stays in the domain; t(x) = log(x + c)
// with logOffset, else x.
func (m *Map) dotAlong(lambda []float64, logOffset bool, c float64) float64 {
	x, y := make([]float64, m.InDim), make([]float64, m.InDim)
	for j, l := range lambda {
		x[j] = m.Domain.Lo[j]
		if l < 0 {
			x[j] = m.Domain.Hi[j]
		}
		y[j] = x[j] + l
		if logOffset {
			y[j] = math.Exp(math.Log(x[j]+c)+l) - c
		}
	}
	return m.Dot(x, y)
}
