// Package design holds featmap's central value, Map, with its reference
// evaluator and error measurement, and the generic LP designer for a sampled
// kernel signature (Chum, ICCV 2015): frequency pool, evaluation set,
// weights, γ search for a target dimension, continuous refinement, refit and
// polish. Shift-invariant signatures (RBF) live here too; homogeneous kernels
// build on this package in package homogeneous.
package design

import (
	"errors"
	"fmt"
	"math"
	"sort"
)

// Kernel names the kernel a Map approximates. It is descriptive: the maths of
// each kernel lives with the method and problem that use it.
type Kernel struct {
	Type  string    `json:"type"`            // chi2, intersection, js, hellinger, rbf
	Gamma float64   `json:"gamma,omitempty"` // homogeneity degree (homogeneous kernels)
	Sigma []float64 `json:"sigma,omitempty"` // RBF width per input axis
}

// Domain is the input domain a map was designed for: per axis the closed
// range [Lo[i], Hi[i]], of integers when Integer is set.
type Domain struct {
	Integer bool      `json:"integer,omitempty"`
	Lo      []float64 `json:"lo"`
	Hi      []float64 `json:"hi"`
}

// Transform says how an input is turned into the argument of the map's
// functional form.
type Transform string

const (
	// Identity uses x as it is (shift-invariant kernels).
	Identity Transform = "identity"
	// Log uses t = log|x| and scales every component by |x|^{γ/2}
	// (γ-homogeneous kernels); x = 0 maps to 0 and negative x follows the
	// map's Negative rule. Only Fourier maps use it; the Li and Chebyshev
	// forms are written directly in x and also follow Negative.
	Log Transform = "log"
)

// Negative says what a homogeneous map does with x < 0.
type Negative string

const (
	// NegativeSign maps x < 0 to −Ψ(|x|): the positive-definite extension
	// sign(x)sign(y)k(|x|,|y|) of Vedaldi–Zisserman's Lemma 2, as VLFeat does.
	NegativeSign Negative = "sign"
	// NegativeZero maps x < 0 to 0.
	NegativeZero Negative = "zero"
)

// Form is the functional form of a map.
type Form string

// The functional forms.
const (
	// Fourier: Ψ = [√α cos(ω·t), √α sin(ω·t)] per term, one component √α for
	// ω = 0, so that Ψ(x)·Ψ(y) = Σ α cos(ω·(t_x − t_y)). With n = 1 this is
	// Chum's eq. (2), the VZ map and the harmonic projection; with n > 1 it is
	// the projection form of Chum §6.1.
	Fourier Form = "fourier"
	// Modulation: per term √α ⊗_i [cos(ω_i t_i), sin(ω_i t_i)] over the axes
	// with ω_i ≠ 0 (axes with ω_i = 0 contribute the factor 1), so that
	// Ψ(x)·Ψ(y) = Σ α Π_i cos(ω_i (t_i − s_i)) (Chum §6.2).
	Modulation Form = "modulation"
	// LiSeries: Li, Lebanon and Sminchisescu's direct χ² series with
	// parameters LiK (γ = 1): c_q(x) = Π_{p<q} ρ_p(x) · 2√k_q · x/(x+k_q),
	// ρ_p(x) = (x − k_p)/(x + k_p).
	LiSeries Form = "li"
	// Chebyshev: Li et al.'s Chebyshev χ² series d_0..d_{D−1} (γ = 1).
	Chebyshev Form = "chebyshev"
)

// Term is one frequency of a Fourier or Modulation map.
type Term struct {
	Freq   []float64 `json:"freq"`   // ω, one entry per input axis
	Weight float64   `json:"weight"` // α ≥ 0
}

// Map is a designed feature map Ψ: ℝⁿ → ℝᴰ with Ψ(x)·Ψ(y) ≈ K(x, y). It is
// plain data: everything needed to evaluate it is in its fields, and it
// round-trips through encoding/json.
type Map struct {
	Kernel    Kernel    `json:"kernel"`
	InDim     int       `json:"in_dim"` // n
	Dim       int       `json:"dim"`    // D
	Domain    Domain    `json:"domain"`
	Transform Transform `json:"transform"`
	// Gamma is the homogeneity degree of a homogeneous map; the Log
	// transform scales every component by |x|^{Gamma/2}.
	Gamma    float64   `json:"gamma,omitempty"`
	Negative Negative  `json:"negative,omitempty"` // homogeneous maps only
	Form     Form      `json:"form"`
	Terms    []Term    `json:"terms,omitempty"` // Fourier, Modulation
	LiK      []float64 `json:"li_k,omitempty"`  // LiSeries
	Method   string    `json:"method"`          // the method that made it
	// Errors is the measured error of the map, filled in by Verify.
	Errors *Verification `json:"errors,omitempty"`
}

// termDim is the number of components a term contributes.
func termDim(f Form, t Term) int {
	nz := 0
	for _, w := range t.Freq {
		if w != 0 {
			nz++
		}
	}
	switch {
	case f == Modulation:
		return 1 << nz
	case nz == 0:
		return 1
	default:
		return 2
	}
}

// CountDim returns the output dimension implied by the map's form and
// parameters (what Dim must equal).
func (m *Map) CountDim() int {
	switch m.Form {
	case LiSeries:
		return len(m.LiK)
	case Chebyshev:
		return m.Dim
	}
	d := 0
	for _, t := range m.Terms {
		d += termDim(m.Form, t)
	}
	return d
}

// Validate checks that the map is self-consistent and evaluable.
func (m *Map) Validate() error {
	if m.InDim < 1 {
		return fmt.Errorf("design: map input dimension %d", m.InDim)
	}
	if len(m.Domain.Lo) != m.InDim || len(m.Domain.Hi) != m.InDim {
		return errors.New("design: map domain does not match its input dimension")
	}
	for i := range m.InDim {
		lo, hi := m.Domain.Lo[i], m.Domain.Hi[i]
		if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) || !(lo < hi) {
			return fmt.Errorf("design: map domain [%v, %v] on axis %d is not a finite interval", lo, hi, i)
		}
	}
	switch m.Transform {
	case Identity:
	case Log:
		if m.InDim != 1 {
			return errors.New("design: the log transform is one-dimensional")
		}
		if m.Form != Fourier {
			return errors.New("design: the log transform applies to Fourier maps only")
		}
	default:
		return fmt.Errorf("design: unknown transform %q", m.Transform)
	}
	switch m.Form {
	case Fourier, Modulation:
		for i, t := range m.Terms {
			if len(t.Freq) != m.InDim {
				return fmt.Errorf("design: term %d has %d frequencies for %d inputs", i, len(t.Freq), m.InDim)
			}
			if !(t.Weight >= 0) || math.IsInf(t.Weight, 0) {
				return fmt.Errorf("design: term %d has weight %v", i, t.Weight)
			}
			for _, w := range t.Freq {
				if math.IsNaN(w) || math.IsInf(w, 0) {
					return fmt.Errorf("design: term %d has frequency %v", i, w)
				}
			}
		}
	case LiSeries:
		if m.InDim != 1 || m.Gamma != 1 {
			return errors.New("design: the Li series is one-dimensional with gamma 1")
		}
		for _, k := range m.LiK {
			if !(k > 0) || math.IsInf(k, 0) {
				return fmt.Errorf("design: Li parameter %v is not positive and finite", k)
			}
		}
	case Chebyshev:
		if m.InDim != 1 || m.Gamma != 1 {
			return errors.New("design: the Chebyshev series is one-dimensional with gamma 1")
		}
	default:
		return fmt.Errorf("design: unknown form %q", m.Form)
	}
	if m.Homogeneous() {
		if !(m.Gamma > 0) || math.IsInf(m.Gamma, 0) {
			return fmt.Errorf("design: homogeneous map with gamma %v", m.Gamma)
		}
		if m.Negative != NegativeSign && m.Negative != NegativeZero {
			return fmt.Errorf("design: homogeneous map with negative rule %q", m.Negative)
		}
	}
	if m.Dim < 1 || m.Dim != m.CountDim() {
		return fmt.Errorf("design: map dimension %d, its form gives %d", m.Dim, m.CountDim())
	}
	return nil
}

// Homogeneous reports whether the map treats 0 and negative inputs the way a
// homogeneous kernel's map does (x = 0 maps to 0; x < 0 follows Negative).
func (m *Map) Homogeneous() bool {
	return m.Transform == Log || m.Form == LiSeries || m.Form == Chebyshev
}

// Canonical sorts the terms of a Fourier or Modulation map by frequency,
// merges terms with equal frequencies, drops zero weights and sets Dim. One
// dimensional Fourier frequencies are made non-negative (cos is even, and
// negating ω negates a sine component in every Ψ alike).
func (m *Map) Canonical() {
	if m.Form != Fourier && m.Form != Modulation {
		return
	}
	var ts []Term
	for _, t := range m.Terms {
		if t.Weight <= 0 {
			continue
		}
		t.Freq = append([]float64(nil), t.Freq...)
		if m.Form == Modulation {
			for i := range t.Freq {
				t.Freq[i] = math.Abs(t.Freq[i])
			}
		} else {
			// The first nonzero coordinate is made positive.
			for _, w := range t.Freq {
				if w != 0 {
					if w < 0 {
						for i := range t.Freq {
							t.Freq[i] = -t.Freq[i]
						}
					}
					break
				}
			}
		}
		ts = append(ts, t)
	}
	sort.SliceStable(ts, func(a, b int) bool { return lessFreq(ts[a].Freq, ts[b].Freq) })
	var out []Term
	for _, t := range ts {
		if n := len(out); n > 0 && equalFreq(out[n-1].Freq, t.Freq) {
			out[n-1].Weight += t.Weight
			continue
		}
		out = append(out, t)
	}
	m.Terms = out
	m.Dim = m.CountDim()
}

func lessFreq(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return a[i] < b[i]
		}
	}
	return false
}

func equalFreq(a, b []float64) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Eval writes Ψ(x) to dst. len(x) must be InDim and len(dst) Dim. It is the
// reference evaluator: plain, direct and meant to be obviously right, not
// fast. Non-finite inputs give NaN components.
func (m *Map) Eval(dst, x []float64) {
	for _, v := range x {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			for i := range dst {
				dst[i] = math.NaN()
			}
			return
		}
	}
	if !m.Homogeneous() {
		m.evalTerms(dst, x, 1)
		return
	}
	v := x[0]
	sign := 1.0
	switch {
	case v == 0 || (v < 0 && m.Negative == NegativeZero):
		clear(dst)
		return
	case v < 0:
		sign, v = -1, -v
	}
	switch m.Form {
	case LiSeries:
		evalLi(dst, m.LiK, v)
	case Chebyshev:
		evalChebyshev(dst, v)
	default:
		t := math.Log(v)
		m.evalTerms(dst, []float64{t}, math.Pow(v, m.Gamma/2))
	}
	if sign < 0 {
		for i := range dst {
			dst[i] = -dst[i]
		}
	}
}

// evalTerms writes the Fourier or Modulation components at argument t,
// scaled by amp.
func (m *Map) evalTerms(dst, t []float64, amp float64) {
	k := 0
	for _, term := range m.Terms {
		a := amp * math.Sqrt(term.Weight)
		if m.Form == Modulation {
			k += modulationComponents(dst[k:], term.Freq, t, a)
			continue
		}
		phase := 0.0
		zero := true
		for i, w := range term.Freq {
			phase += w * t[i]
			zero = zero && w == 0
		}
		if zero {
			dst[k] = a
			k++
			continue
		}
		dst[k] = a * math.Cos(phase)
		dst[k+1] = a * math.Sin(phase)
		k += 2
	}
}

// modulationComponents writes a ⊗_i (cos ω_i t_i, sin ω_i t_i) over the axes
// with ω_i ≠ 0, the first such axis varying slowest, and returns the count.
func modulationComponents(dst, freq, t []float64, a float64) int {
	n := 1
	dst[0] = a
	for i, w := range freq {
		if w == 0 {
			continue
		}
		c, s := math.Cos(w*t[i]), math.Sin(w*t[i])
		// Expand in place from the back: entry j becomes (2j: ·c, 2j+1: ·s).
		for j := n - 1; j >= 0; j-- {
			v := dst[j]
			dst[2*j] = v * c
			dst[2*j+1] = v * s
		}
		n *= 2
	}
	return n
}

// evalLi writes Li's direct series c_1..c_N at x > 0 with a running product.
func evalLi(dst, ks []float64, x float64) {
	p := 1.0
	for q, k := range ks {
		dst[q] = p * 2 * math.Sqrt(k) * (x / (x + k)) // x/(x+k) first: no overflow at huge x
		p *= (x - k) / (x + k)
	}
}

// evalChebyshev writes d_0..d_{len(dst)−1} at x > 0 by the stable upward
// recurrence d_0 = 2x/(x+1), d_1 = −(√2 log x/π) d_0,
// d_q = [(−1)^q c d_{q−1} + (q−2) d_{q−2}]/q with c = 2 log x/π.
func evalChebyshev(dst []float64, x float64) {
	if len(dst) == 0 {
		return
	}
	c := 2 * math.Log(x) / math.Pi
	dst[0] = 2 * (x / (x + 1)) // x/(x+1) first: no overflow at huge x
	if len(dst) > 1 {
		dst[1] = -c / math.Sqrt2 * dst[0]
	}
	for q := 2; q < len(dst); q++ {
		s := c
		if q%2 == 1 {
			s = -c
		}
		dst[q] = (s*dst[q-1] + float64(q-2)*dst[q-2]) / float64(q)
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

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// Signature returns k̂(λ) = Σ α Πcos or Σ α cos(ω·λ) for Fourier and
// Modulation maps: the approximated signature, with Ψ(x)·Ψ(y) =
// amp(x)amp(y)·k̂(t_x − t_y). It panics for other forms.
func (m *Map) Signature(lambda []float64) float64 {
	s := 0.0
	for _, t := range m.Terms {
		switch m.Form {
		case Fourier:
			ph := 0.0
			for i, w := range t.Freq {
				ph += w * lambda[i]
			}
			s += t.Weight * math.Cos(ph)
		case Modulation:
			p := t.Weight
			for i, w := range t.Freq {
				p *= math.Cos(w * lambda[i])
			}
			s += p
		default:
			panic("design: Signature of a " + string(m.Form) + " map")
		}
	}
	return s
}
