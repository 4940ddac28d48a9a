package fmap

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/featmap/featmap/internal/vtrig"
)

// Map is a designed feature map Ψ: ℝⁿ → ℝᴰ with Ψ(x)·Ψ(y) ≈ K(x, y). It is
// plain data: everything needed to evaluate it is in its fields, and it
// round-trips through encoding/json.
//
// Ψ is the composition of Stages, applied in order; the first stage takes
// the n inputs and the last one gives the D outputs: a Fourier or series
// map alone, or a map of every coordinate followed by random features
// (exp-χ²), or one blocks stage (a map of column groups: Blocks).
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

// Stage is one step of a map's pipeline. Exactly one field is set.
type Stage struct {
	Fourier       *Fourier       `json:"fourier,omitempty"`
	Series        *Series        `json:"series,omitempty"`
	PerCoordinate *PerCoordinate `json:"per_coordinate,omitempty"`
	Random        *Random        `json:"random,omitempty"`
	Nystroem      *Nystroem      `json:"nystroem,omitempty"`
	Anchors       *Anchors       `json:"anchors,omitempty"`
	Linear        *Linear        `json:"linear,omitempty"`
	Blocks        *Blocks        `json:"blocks,omitempty"`
}

// PerCoordinate applies a map of one input to every coordinate of its
// input: Ψ(x) = [ψ(x_1), …, ψ(x_n)], so that Ψ(x)·Ψ(y) = Σ_i ψ(x_i)·ψ(y_i)
// approximates an additive kernel (Vedaldi–Zisserman §2). Inner is a
// Fourier stage of one input or a series stage.
type PerCoordinate struct {
	Inner Stage `json:"inner"`
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

// Transform says how an input is turned into the argument of a Fourier
// stage.
type Transform string

const (
	// Identity uses x as it is (shift-invariant kernels).
	Identity Transform = "identity"
	// Log uses t = log|x| and scales every component by |x|^{γ/2}
	// (γ-homogeneous kernels, one input); x = 0 maps to 0 and negative x
	// follows the stage's Negative rule.
	Log Transform = "log"
)

// Form is the functional form of a stage.
type Form string

// The functional forms.
const (
	// FourierForm: Ψ = [√α cos(ω·t), √α sin(ω·t)] per term, one component
	// √α for ω = 0, so that Ψ(x)·Ψ(y) = Σ α cos(ω·(t_x − t_y)). With one
	// input this is Chum's eq. (2), the VZ map and the harmonic projection;
	// with n > 1 it is the projection form of Chum §6.1.
	FourierForm Form = "fourier"
	// Modulation: per term √α ⊗_i [cos(ω_i t_i), sin(ω_i t_i)] over the axes
	// with ω_i ≠ 0 (axes with ω_i = 0 contribute the factor 1), so that
	// Ψ(x)·Ψ(y) = Σ α Π_i cos(ω_i (t_i − s_i)) (Chum §6.2).
	Modulation Form = "modulation"
	// LiSeries: Li, Lebanon and Sminchisescu's direct χ² series with
	// parameters k_1..k_D (γ = 1): c_q(x) = Π_{p<q} ρ_p(x) · 2√k_q · x/(x+k_q),
	// ρ_p(x) = (x − k_p)/(x + k_p).
	LiSeries Form = "li"
	// Chebyshev: Li et al.'s Chebyshev χ² series d_0..d_{D−1} (γ = 1).
	Chebyshev Form = "chebyshev"
)

// Term is one frequency of a Fourier stage.
type Term struct {
	Freq   []float64 `json:"freq"`   // ω, one entry per input axis
	Weight float64   `json:"weight"` // α ≥ 0
}

// Fourier is a cosine feature map of its n inputs (Chum, ICCV 2015, eqs.
// 2–3 and §6): per term √α·[cos(ω·t), sin(ω·t)] (FourierForm) or √α times
// the product of per-axis [cos, sin] pairs (Modulation), with t = x
// (Identity) or t = log|x| and every component scaled by |x|^{γ/2} (Log:
// homogeneous kernels, one input). A term with ω = 0 contributes the one
// component √α; a term of weight 0 contributes components that are
// identically 0 (a design that keeps them states so).
type Fourier struct {
	Form      Form      `json:"form"` // FourierForm or Modulation
	Transform Transform `json:"transform"`
	// Gamma and Negative apply to the Log transform: the homogeneity degree
	// and what the map does with x < 0.
	Gamma    float64  `json:"gamma,omitempty"`
	Negative Negative `json:"negative,omitempty"`
	Terms    []Term   `json:"terms"`
}

// Series is a χ² series map of one input (γ = 1): Li's direct series with
// parameters K (LiSeries) or the Chebyshev series of dimension Dim. Both
// give 0 at x = 0 and follow Negative for x < 0.
type Series struct {
	Form     Form      `json:"form"` // LiSeries or Chebyshev
	K        []float64 `json:"k,omitempty"`
	Dim      int       `json:"dim"`
	Negative Negative  `json:"negative"`
}

// TermDim is the number of components a Fourier term with frequency ω
// contributes: 1 for ω = 0 and 2 otherwise in FourierForm (Chum eq. 3),
// 2^{#nonzero ω_i} in Modulation (§6.2).
func TermDim(form Form, freq []float64) int {
	nz := 0
	for _, w := range freq {
		if w != 0 {
			nz++
		}
	}
	switch {
	case form == Modulation:
		return 1 << nz
	case nz == 0:
		return 1
	default:
		return 2
	}
}

// Dim is the number of components of the stage.
func (f *Fourier) Dim() int {
	d := 0
	for _, t := range f.Terms {
		d += TermDim(f.Form, t.Freq)
	}
	return d
}

// ZeroComponents is the number of components of terms with weight 0
// (identically 0).
func (f *Fourier) ZeroComponents() int {
	d := 0
	for _, t := range f.Terms {
		if t.Weight == 0 {
			d += TermDim(f.Form, t.Freq)
		}
	}
	return d
}

// Homogeneous reports whether the stage treats 0 and negative inputs the
// way a homogeneous kernel's map does.
func (f *Fourier) Homogeneous() bool { return f.Transform == Log }

// out is the output dimension of the stage for in inputs.
func (s Stage) out(in int) int {
	switch {
	case s.Fourier != nil:
		return s.Fourier.Dim()
	case s.Series != nil:
		return s.Series.Dim
	case s.PerCoordinate != nil:
		return in * s.PerCoordinate.Inner.out(1)
	case s.Random != nil:
		return s.Random.Dim()
	case s.Nystroem != nil:
		return s.Nystroem.Size()
	case s.Anchors != nil:
		return s.Anchors.Dim
	case s.Linear != nil:
		return s.Linear.Dim()
	case s.Blocks != nil:
		return s.Blocks.Dim()
	}
	return 0
}

// validate checks the stage for in inputs.
func (s Stage) validate(in int) error {
	set := 0
	for _, b := range []bool{s.Fourier != nil, s.Series != nil, s.PerCoordinate != nil, s.Random != nil, s.Nystroem != nil, s.Anchors != nil, s.Linear != nil, s.Blocks != nil} {
		if b {
			set++
		}
	}
	if set != 1 {
		return errors.New("fmap: a stage must hold exactly one of fourier, series, per_coordinate, random, nystroem, anchors, linear and blocks")
	}
	switch {
	case s.Fourier != nil:
		return s.Fourier.validate(in)
	case s.Series != nil:
		return s.Series.validate(in)
	case s.PerCoordinate != nil:
		inner := s.PerCoordinate.Inner
		if inner.Fourier == nil && inner.Series == nil {
			return errors.New("fmap: a per-coordinate stage's inner map is a Fourier or series stage")
		}
		return inner.validate(1)
	case s.Nystroem != nil:
		return s.Nystroem.validate(in)
	case s.Anchors != nil:
		return s.Anchors.validate(in)
	case s.Linear != nil:
		return s.Linear.validate(in)
	case s.Blocks != nil:
		return s.Blocks.validate(in)
	}
	return s.Random.validate(in)
}

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

// Fourier returns the map's Fourier stage if it is a one-stage Fourier map,
// else nil.
func (m *Map) Fourier() *Fourier {
	if len(m.Stages) == 1 {
		return m.Stages[0].Fourier
	}
	return nil
}

// Series returns the map's series stage if it is a one-stage series map,
// else nil.
func (m *Map) Series() *Series {
	if len(m.Stages) == 1 {
		return m.Stages[0].Series
	}
	return nil
}

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
// identically 0 (terms a design kept with weight 0 to make exactly D).
func (m *Map) ZeroComponents() int {
	if f := m.Fourier(); f != nil {
		return f.ZeroComponents()
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

func (f *Fourier) validate(n int) error {
	switch f.Form {
	case FourierForm, Modulation:
	default:
		return fmt.Errorf("fmap: unknown Fourier form %q", f.Form)
	}
	switch f.Transform {
	case Identity:
	case Log:
		if n != 1 {
			return errors.New("fmap: the log transform is one-dimensional")
		}
		if !(f.Gamma > 0) || math.IsInf(f.Gamma, 0) {
			return fmt.Errorf("fmap: homogeneous map with gamma %v", f.Gamma)
		}
		if err := checkNegative(f.Negative); err != nil {
			return err
		}
	default:
		return fmt.Errorf("fmap: unknown transform %q", f.Transform)
	}
	for i, t := range f.Terms {
		if len(t.Freq) != n {
			return fmt.Errorf("fmap: term %d has %d frequencies for %d inputs", i, len(t.Freq), n)
		}
		if !(t.Weight >= 0) || math.IsInf(t.Weight, 0) {
			return fmt.Errorf("fmap: term %d has weight %v", i, t.Weight)
		}
		for _, w := range t.Freq {
			if math.IsNaN(w) || math.IsInf(w, 0) {
				return fmt.Errorf("fmap: term %d has frequency %v", i, w)
			}
		}
	}
	return nil
}

func (s *Series) validate(n int) error {
	if n != 1 {
		return errors.New("fmap: the χ² series maps are one-dimensional")
	}
	switch s.Form {
	case LiSeries:
		if len(s.K) != s.Dim {
			return fmt.Errorf("fmap: Li series with %d parameters and dimension %d", len(s.K), s.Dim)
		}
		for _, k := range s.K {
			if !(k > 0) || math.IsInf(k, 0) {
				return fmt.Errorf("fmap: Li parameter %v is not positive and finite", k)
			}
		}
	case Chebyshev:
		if len(s.K) != 0 {
			return errors.New("fmap: the Chebyshev series has no parameters")
		}
	default:
		return fmt.Errorf("fmap: unknown series form %q", s.Form)
	}
	return checkNegative(s.Negative)
}

func checkNegative(n Negative) error {
	if n != NegativeSign && n != NegativeZero {
		return fmt.Errorf("fmap: homogeneous map with negative rule %q", n)
	}
	return nil
}

// Canonical sorts the terms by frequency and merges terms with equal
// frequencies. One-dimensional Fourier frequencies are made non-negative
// (cos is even, and negating ω negates a sine component in every Ψ alike),
// as are modulation frequencies; a projection's first nonzero coordinate is
// made positive. Terms of weight 0 are kept (they are components the design
// asked for); negative weights are not valid and left for Validate.
func (f *Fourier) Canonical() {
	ts := make([]Term, 0, len(f.Terms))
	for _, t := range f.Terms {
		t.Freq = slices.Clone(t.Freq)
		if f.Form == Modulation {
			for i := range t.Freq {
				t.Freq[i] = math.Abs(t.Freq[i])
			}
		} else {
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
	sort.SliceStable(ts, func(a, b int) bool { return slices.Compare(ts[a].Freq, ts[b].Freq) < 0 })
	var out []Term
	for _, t := range ts {
		if n := len(out); n > 0 && slices.Equal(out[n-1].Freq, t.Freq) {
			out[n-1].Weight += t.Weight
			continue
		}
		out = append(out, t)
	}
	f.Terms = out
}

// NewFourierMap returns a one-stage map of f (made canonical) with its
// dimension set.
func NewFourierMap(k Kernel, d Domain, method string, f *Fourier) *Map {
	f.Canonical()
	return &Map{Kernel: k, InDim: d.Dims(), Dim: f.Dim(), Domain: d.Clone(), Method: method, Stages: []Stage{{Fourier: f}}}
}

// NewSeriesMap returns a one-stage map of s with its dimension set.
func NewSeriesMap(k Kernel, d Domain, method string, s *Series) *Map {
	return &Map{Kernel: k, InDim: d.Dims(), Dim: s.Dim, Domain: d.Clone(), Method: method, Stages: []Stage{{Series: s}}}
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

// eval writes the stage's output for in to dst.
func (s Stage) eval(dst, in []float64) {
	switch {
	case s.Fourier != nil:
		s.Fourier.eval(dst, in)
	case s.Series != nil:
		s.Series.eval(dst, in)
	case s.PerCoordinate != nil:
		d := s.PerCoordinate.Inner.out(1)
		for i, v := range in {
			s.PerCoordinate.Inner.eval(dst[i*d:(i+1)*d], []float64{v})
		}
	case s.Nystroem != nil:
		s.Nystroem.eval(dst, in)
	case s.Anchors != nil:
		// A map with a table per coordinate is evaluated per coordinate
		// through Coordinate; alone, it evaluates coordinate 0's.
		s.Anchors.eval(dst, in[0], &s.Anchors.Tables[0])
	case s.Linear != nil:
		s.Linear.eval(dst, in)
	case s.Blocks != nil:
		s.Blocks.eval(dst, in)
	default:
		s.Random.eval(dst, in)
	}
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

func (f *Fourier) eval(dst, x []float64) {
	if nonFinite(x) {
		fillNaN(dst)
		return
	}
	if f.Transform != Log {
		f.evalTerms(dst, x, 1)
		return
	}
	v, sign, ok := homogeneousInput(x[0], f.Negative)
	if !ok {
		clear(dst)
		return
	}
	f.evalTerms(dst, []float64{math.Log(v)}, math.Pow(v, f.Gamma/2))
	if sign < 0 {
		for i := range dst {
			dst[i] = -dst[i]
		}
	}
}

func (s *Series) eval(dst, x []float64) {
	if nonFinite(x) {
		fillNaN(dst)
		return
	}
	v, sign, ok := homogeneousInput(x[0], s.Negative)
	if !ok {
		clear(dst)
		return
	}
	if s.Form == LiSeries {
		evalLi(dst, s.K, v)
	} else {
		evalChebyshev(dst, v)
	}
	if sign < 0 {
		for i := range dst {
			dst[i] = -dst[i]
		}
	}
}

// evalTerms writes the components at argument t, scaled by amp.
func (f *Fourier) evalTerms(dst, t []float64, amp float64) {
	k := 0
	for _, term := range f.Terms {
		a := amp * math.Sqrt(term.Weight)
		if f.Form == Modulation {
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

// Signature returns the approximated signature k̂(λ) = Σ α cos(ω·λ)
// (FourierForm) or Σ α Π_i cos(ω_i λ_i) (Modulation), with
// Ψ(x)·Ψ(y) = amp(x)amp(y)·k̂(t_x − t_y). The cosines of a block of terms
// are taken at once (vtrig.Cos, math.Cos's bits), then multiplied and
// summed in order, term by term, as termSignature does.
func (f *Fourier) Signature(lambda []float64) float64 {
	var x [signatureChunk]float64
	s := 0.0
	for t0 := 0; t0 < len(f.Terms); {
		// The arguments of the terms t0 … t1−1: one phase per Fourier
		// term, one per coordinate of a modulation term.
		m, t1 := 0, t0
		for ; t1 < len(f.Terms); t1++ {
			t := f.Terms[t1]
			if f.Form == Modulation {
				if m+len(t.Freq) > len(x) {
					break
				}
				for i, w := range t.Freq {
					x[m] = w * lambda[i]
					m++
				}
				continue
			}
			if m == len(x) {
				break
			}
			ph := 0.0
			for i, w := range t.Freq {
				ph += w * lambda[i]
			}
			x[m] = ph
			m++
		}
		if t1 == t0 {
			// A term of more coordinates than x holds.
			s += f.termSignature(f.Terms[t0], lambda)
			t0++
			continue
		}
		vtrig.Cos(x[:m], x[:m])
		k := 0
		for _, t := range f.Terms[t0:t1] {
			if f.Form == Modulation {
				p := t.Weight
				for range t.Freq {
					p *= x[k]
					k++
				}
				s += p
				continue
			}
			s += t.Weight * x[k]
			k++
		}
		t0 = t1
	}
	return s
}

// Signatures sets out[k] = f.Signature(pts[k]) for every k, bit for bit:
// for a block of points at a time, each term's cosines at all of them at
// once (vtrig.Cos), then multiplied and added to each point's sum in
// Signature's order (the terms in order, each product from α in the
// coordinates' order). The verification's grids take it (signatureErrors).
// Where vtrig has no assembly it calls Signature point by point: built
// with GOAMD64=v3 the compiler fuses Signature's α·cos + s but not the
// same sum kept in memory here (TestSignatureBitForBit failed there).
func (f *Fourier) Signatures(out []float64, pts [][]float64) {
	if !vtrig.Vector {
		for k, l := range pts {
			out[k] = f.Signature(l)
		}
		return
	}
	var x, p [signaturesBlock]float64
	for b0 := 0; b0 < len(pts); b0 += len(x) {
		blk := pts[b0:min(len(pts), b0+len(x))]
		o := out[b0 : b0+len(blk)]
		n := len(blk)
		for k := range o {
			o[k] = 0
		}
		for _, t := range f.Terms {
			if f.Form == Modulation {
				for k := range n {
					p[k] = t.Weight
				}
				for i, w := range t.Freq {
					for k, l := range blk {
						x[k] = w * l[i]
					}
					vtrig.Cos(x[:n], x[:n])
					for k := range n {
						p[k] *= x[k]
					}
				}
				for k := range o {
					o[k] += p[k]
				}
				continue
			}
			for k, l := range blk {
				ph := 0.0
				for i, w := range t.Freq {
					ph += w * l[i]
				}
				x[k] = ph
			}
			vtrig.Cos(x[:n], x[:n])
			for k := range o {
				o[k] += t.Weight * x[k]
			}
		}
	}
}

// signaturesBlock is how many points Signatures takes at once, in arrays
// on the stack.
const signaturesBlock = 256

// signatureChunk is how many cosines Signature takes at once, in an array
// on the stack.
const signatureChunk = 64

// termSignature is one term's part of Signature, α Π_i cos(ω_i λ_i) or
// α cos(ω·λ), with math.Cos.
func (f *Fourier) termSignature(t Term, lambda []float64) float64 {
	if f.Form == Modulation {
		p := t.Weight
		for i, w := range t.Freq {
			p *= math.Cos(w * lambda[i])
		}
		return p
	}
	ph := 0.0
	for i, w := range t.Freq {
		ph += w * lambda[i]
	}
	return t.Weight * math.Cos(ph)
}

// signaturesAt sets out[k] = m.SignatureAt(pts[k]) for every k, bit for
// bit: by Fourier.Signatures for a Fourier map, else point by point.
func (m *Map) signaturesAt(out []float64, pts [][]float64) {
	if f := m.Fourier(); f != nil {
		f.Signatures(out, pts)
		return
	}
	for k, l := range pts {
		out[k] = m.SignatureAt(l)
	}
}

// SignatureAt returns the map's approximation of the kernel's signature at
// λ. For a Fourier map it is k̂(λ) itself, which is what
// Ψ(x)·Ψ(y)/(amp(x)amp(y)) equals for every pair with argument λ. The Li
// and Chebyshev series are not exactly homogeneous: for them it is computed
// with the reference evaluator along the pairs where the absolute error is
// largest, y = the domain's upper end and x = y·e^{−|λ|}, divided by the
// amplitude √(xy). For a map of whole rows of an additive kernel (see
// WholeRows) it is taken along rows of equal coordinates, divided by n
// and the amplitude (xy)^{γ/2}.
func (m *Map) SignatureAt(lambda []float64) float64 {
	if f := m.Fourier(); f != nil {
		return f.Signature(lambda)
	}
	if r := m.random(); r != nil {
		return r.signatureAt(m, lambda)
	}
	if m.WholeRows() {
		// Along the rows of equal coordinates (verifyRows): x = (u, …, u),
		// y = (w, …, w) with w the domain's upper end and u = w·e^{−|λ|},
		// Ψ(x)·Ψ(y) divided by n·(uw)^{γ/2}.
		l := math.Abs(lambda[0])
		w := m.Domain.Hi[0]
		u := w * math.Exp(-l)
		x, y := make([]float64, m.InDim), make([]float64, m.InDim)
		for j := range x {
			x[j], y[j] = u, w
		}
		g := m.Kernel.gamma() / 2
		return m.Dot(x, y) / (float64(m.InDim) * math.Pow(u, g) * math.Pow(w, g))
	}
	if last := m.Stages[len(m.Stages)-1]; last.Nystroem != nil || last.Linear != nil {
		// Nyström maps and projected random features (rf-pca).
		return m.dotAlong(lambda, m.Kernel.Skewed(), m.Kernel.C)
	}
	l := math.Abs(lambda[0])
	y := m.Domain.Hi[0]
	x := y * math.Exp(-l)
	return m.Dot([]float64{x}, []float64{y}) / (math.Sqrt(x) * math.Sqrt(y))
}

// random returns the map's random-features stage if it is a one-stage
// random map, else nil.
func (m *Map) random() *Random {
	if len(m.Stages) == 1 {
		return m.Stages[0].Random
	}
	return nil
}

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
