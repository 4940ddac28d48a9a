package fmap

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"github.com/featmap/featmap/internal/vtrig"
)

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

// out is the number of components, Dim.
func (f *Fourier) out(int) int { return f.Dim() }

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
	return &Map{Kernel: k, InDim: d.Dims(), Dim: f.Dim(), Domain: d.Clone(), Method: method, Stages: []Stage{{Kind: f}}}
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
	if along, logOffset, c := m.signedAlong(); along {
		m.dotsAlong(out, pts, logOffset, c)
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
	if r := m.random(); r != nil && r.Features == CosSin {
		return r.signatureAt(lambda)
	}
	if along, logOffset, c := m.signedAlong(); along {
		return m.dotAlong(lambda, logOffset, c)
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
	l := math.Abs(lambda[0])
	y := m.Domain.Hi[0]
	x := y * math.Exp(-l)
	return m.Dot([]float64{x}, []float64{y}) / (math.Sqrt(x) * math.Sqrt(y))
}
