package fmap

import (
	"errors"
	"fmt"
	"math"
)

// Map is a designed feature map Ψ: ℝⁿ → ℝᴰ with Ψ(x)·Ψ(y) ≈ K(x, y). It is
// plain data: everything needed to evaluate it is in its fields, and it
// round-trips through encoding/json.
//
// Ψ is the composition of Stages, applied in order; the first stage takes
// the n inputs and the last one gives the D outputs: a Fourier or series
// map alone, or a map of every coordinate followed by random features
// (exp-χ²), or one blocks stage (a map of column groups: Blocks), or a
// polynomial stage (the polynomial kernel's monomials and sketches),
// alone or followed by a linear stage (PCA of the monomials).
type Map struct {
	Kernel Kernel  `json:"kernel"`
	InDim  int     `json:"in_dim"` // n
	Dim    int     `json:"dim"`    // D
	Domain Domain  `json:"domain"`
	Method string  `json:"method"` // the method that made it
	Stages []Stage `json:"stages"`
	// Model, if not nil, is a linear model on the map's features (a learn
	// section's ridge model, trained at the learned σ).
	Model *LinearModel `json:"model,omitempty"`
}

// Fourier returns the map's Fourier stage if it is a one-stage Fourier map,
// else nil.
func (m *Map) Fourier() *Fourier { return stageOf[*Fourier](m) }

// Series returns the map's series stage if it is a one-stage series map,
// else nil.
func (m *Map) Series() *Series { return stageOf[*Series](m) }

// Homogeneous reports whether the map treats 0 and negative inputs the way a
// homogeneous kernel's map does (x = 0 maps to 0; x < 0 follows the
// Negative rule).
func (m *Map) Homogeneous() bool {
	if f := m.Fourier(); f != nil {
		return f.Homogeneous()
	}
	return m.Series() != nil || m.Anchors() != nil
}

// Negative is the map's rule for x < 0 ("" if it is not homogeneous).
func (m *Map) Negative() Negative {
	if f := m.Fourier(); f != nil && f.Homogeneous() {
		return f.Negative
	}
	if s := m.Series(); s != nil {
		return s.Negative
	}
	if a := m.Anchors(); a != nil {
		return a.Negative
	}
	return ""
}

// ZeroComponents is the number of components of the map that are
// identically 0 (terms a design kept with weight 0 to make exactly D: a
// Fourier map's, a polynomial map's sketches of coefficient 0).
func (m *Map) ZeroComponents() int {
	if f := m.Fourier(); f != nil {
		return f.ZeroComponents()
	}
	if pl := stageOf[*Polynomial](m); pl != nil {
		n := 0
		for _, s := range pl.Sketch {
			if s.Coef == 0 {
				n += s.Dim
			}
		}
		return n
	}
	return 0
}

// Validate checks that the map is self-consistent and evaluable.
func (m *Map) Validate() error {
	if m.InDim < 1 {
		return fmt.Errorf("fmap: map input dimension %d", m.InDim)
	}
	if len(m.Domain.Lo) != m.InDim || len(m.Domain.Hi) != m.InDim {
		return errors.New("fmap: map domain does not match its input dimension")
	}
	for i := range m.InDim {
		lo, hi := m.Domain.Lo[i], m.Domain.Hi[i]
		if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || !(lo < hi) {
			return fmt.Errorf("fmap: map domain [%v, %v] on axis %d is not a finite interval", lo, hi, i)
		}
	}
	if len(m.Stages) == 0 {
		return errors.New("fmap: map without stages")
	}
	in := m.InDim
	for _, st := range m.Stages {
		if err := st.validate(in); err != nil {
			return err
		}
		in = st.out(in)
	}
	if m.Dim < 1 || m.Dim != in {
		return fmt.Errorf("fmap: map dimension %d, its stages give %d", m.Dim, in)
	}
	if m.Model != nil {
		return m.Model.validate(m.Dim)
	}
	return nil
}

func checkNegative(n Negative) error {
	if n != NegativeSign && n != NegativeZero {
		return fmt.Errorf("fmap: homogeneous map with negative rule %q", n)
	}
	return nil
}

// Eval writes Ψ(x) to dst. len(x) must be InDim and len(dst) Dim. It is the
// reference evaluator: plain, direct and meant to be obviously right, not
// fast. Non-finite inputs give NaN components from a Fourier or series
// stage, zeros from a random-feature stage.
func (m *Map) Eval(dst, x []float64) { evalStages(m.Stages, dst, x) }

// evalStages applies stages in order to x, the last one writing to dst.
func evalStages(stages []Stage, dst, x []float64) {
	in := x
	for i, st := range stages {
		out := dst
		if i < len(stages)-1 {
			out = make([]float64, st.out(len(in)))
		}
		st.eval(out, in)
		in = out
	}
}

// homogeneousInput splits a homogeneous map's input into its absolute value
// and sign; ok is false when the map gives zeros (x = 0, or x < 0 with the
// zero rule).
func homogeneousInput(v float64, neg Negative) (a, sign float64, ok bool) {
	switch {
	case v == 0 || (v < 0 && neg == NegativeZero):
		return 0, 0, false
	case v < 0:
		return -v, -1, true
	}
	return v, 1, true
}

// nonFinite reports whether x has a NaN or infinite value.
func nonFinite(x []float64) bool {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return true
		}
	}
	return false
}

// fillNaN sets every component to NaN.
func fillNaN(dst []float64) {
	for i := range dst {
		dst[i] = math.NaN()
	}
}

// Dot returns Ψ(x)·Ψ(y), the map's approximation of K(x, y).
func (m *Map) Dot(x, y []float64) float64 {
	a := make([]float64, m.Dim)
	b := make([]float64, m.Dim)
	m.Eval(a, x)
	m.Eval(b, y)
	return dot(a, b)
}

// dot is Σ a_i·b_i in order. Every product is rounded before it is added
// (an explicit conversion, which the Go compiler never fuses into a
// multiply-add, as it may on arm64 or with GOAMD64=v3), so that dot4
// gives dot's bits everywhere.
func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += float64(a[i] * b[i])
	}
	return s
}

// dot4 is dot(a, b0), …, dot(a, b3), each summed in dot's order (so bit
// for bit the same), in one pass over a: four independent sums keep the
// floating-point adder busy where one sum waits on each addition.
func dot4(a, b0, b1, b2, b3 []float64) (s0, s1, s2, s3 float64) {
	b0, b1, b2, b3 = b0[:len(a)], b1[:len(a)], b2[:len(a)], b3[:len(a)]
	for i, x := range a {
		s0 += float64(x * b0[i])
		s1 += float64(x * b1[i])
		s2 += float64(x * b2[i])
		s3 += float64(x * b3[i])
	}
	return s0, s1, s2, s3
}
