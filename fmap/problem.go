package fmap

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
)

// Domain is the input domain a map is designed for: per axis the closed
// range [Lo[i], Hi[i]], of integers when Integer is set.
type Domain struct {
	Integer bool      `json:"integer,omitempty"`
	Lo      []float64 `json:"lo"`
	Hi      []float64 `json:"hi"`
}

// Dims is the number of input axes n.
func (d Domain) Dims() int { return len(d.Lo) }

// Clone returns a deep copy of d.
func (d Domain) Clone() Domain {
	return Domain{Integer: d.Integer, Lo: append([]float64(nil), d.Lo...), Hi: append([]float64(nil), d.Hi...)}
}

// Check reports why d is not a domain of finite nonempty ranges (of
// nonnegative values when nonneg is set, integral ends for integers).
func (d Domain) Check(nonneg bool) error {
	if len(d.Lo) == 0 || len(d.Lo) != len(d.Hi) {
		return errors.New("fmap: the domain has no axes or unequal lo and hi lists")
	}
	for i := range d.Lo {
		lo, hi := d.Lo[i], d.Hi[i]
		switch {
		case math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0):
			return fmt.Errorf("fmap: domain [%v, %v] on axis %d is not finite", lo, hi, i)
		case !(lo < hi):
			return fmt.Errorf("fmap: domain [%v, %v] on axis %d is empty or a single point (need lo < hi)", lo, hi, i)
		case math.IsInf(hi-lo, 0):
			return fmt.Errorf("fmap: domain [%v, %v] on axis %d is wider than the largest float64", lo, hi, i)
		case nonneg && lo < 0:
			return fmt.Errorf("fmap: domain [%v, %v] has negative inputs; homogeneous kernels are defined for x ≥ 0", lo, hi)
		case d.Integer && (lo != math.Trunc(lo) || hi != math.Trunc(hi)):
			return fmt.Errorf("fmap: integer domain [%v, %v] has non-integer ends", lo, hi)
		}
	}
	return nil
}

// Describe names the domain in words, e.g. "the integers {0..255}" or
// "the interval [0, 1] × [0, 2]"; beyond three inputs on one range,
// "the interval [0, 16] on each of 64 inputs".
func (d Domain) Describe() string {
	if n := len(d.Lo); n > 3 && !slices.ContainsFunc(d.Lo, func(v float64) bool { return v != d.Lo[0] }) &&
		!slices.ContainsFunc(d.Hi, func(v float64) bool { return v != d.Hi[0] }) {
		one := Domain{Integer: d.Integer, Lo: d.Lo[:1], Hi: d.Hi[:1]}
		return fmt.Sprintf("%s on each of %d inputs", one.Describe(), n)
	}
	var parts []string
	for i := range d.Lo {
		if d.Integer {
			parts = append(parts, fmt.Sprintf("{%g..%g}", d.Lo[i], d.Hi[i]))
		} else {
			parts = append(parts, fmt.Sprintf("[%g, %g]", d.Lo[i], d.Hi[i]))
		}
	}
	if d.Integer {
		return "the integers " + strings.Join(parts, " × ")
	}
	return "the interval " + strings.Join(parts, " × ")
}

// Measure is the error measure a design optimises and reports.
type Measure string

// The error measures.
const (
	// Absolute is |K(x,y) − Ψ(x)·Ψ(y)| over pairs of inputs (Chum's ε_A,
	// eq. 15).
	Absolute Measure = "absolute"
	// Relative is |K − Ψ·Ψ|/K over pairs with K > 0 (Chum's ε_R, eq. 17).
	Relative Measure = "relative"
	// Uniform is the unweighted signature error |k(λ) − k̂(λ)|, which equals
	// the kernel error of a shift-invariant kernel.
	Uniform Measure = "uniform"
)

// Norm is the norm of the weighted signature error that a design minimises.
type Norm string

// The norms of Chum's error functions (eqs. 4 and 5).
const (
	LInf Norm = "linf" // C_∞ = max_Z w|k − k̂|
	L1   Norm = "l1"   // C_1 = Σ_Z w|k − k̂|
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

// Problem is what a design method is asked to approximate: a kernel on a
// domain, the error measure and norm, and for homogeneous kernels what the
// map does with negative inputs. It is built once per spec and must not
// change after its first use: its Reference is built once, on first use,
// and shared by every design of the problem, and methods may remember
// their designs of it.
type Problem struct {
	Kernel   Kernel
	Domain   Domain
	Measure  Measure
	Norm     Norm
	Negative Negative // homogeneous kernels only
	// Data, if not nil, is a sample of the user's inputs (the spec's data
	// section): methods may learn from its Fit rows, and every design is
	// also verified on its Held rows.
	Data *Data

	refOnce sync.Once
	ref     *Reference
	refErr  error
}

// InDim is the number of input axes n.
func (p *Problem) InDim() int { return p.Domain.Dims() }

// Check reports the first inconsistency of p.
func (p *Problem) Check() error {
	n := p.InDim()
	if err := p.Kernel.Check(n); err != nil {
		return err
	}
	if err := p.Domain.Check(p.Kernel.Homogeneous() || p.Kernel.needsNonnegative()); err != nil {
		return err
	}
	if err := p.CheckPolyDomain(); err != nil {
		return err
	}
	for g, part := range p.Kernel.Parts {
		if k := part.Kernel; k.Skewed() {
			for i := part.First; i <= part.Last; i++ {
				if !(p.Domain.Lo[i]+k.C > 0) {
					return fmt.Errorf("fmap: combined kernel part %d: %s needs x + c > 0 on the domain; axis %d starts at %v with c = %v", g, k.Type, i, p.Domain.Lo[i], k.C)
				}
			}
		}
	}
	if p.Kernel.Type == Combined && p.Measure != Absolute {
		return fmt.Errorf("fmap: a combined kernel's maps are measured by the absolute error (it has no signature), not %s", p.Measure)
	}
	if k := p.Kernel; k.Skewed() {
		for i, lo := range p.Domain.Lo {
			if !(lo+k.C > 0) {
				return fmt.Errorf("fmap: %s needs x + c > 0 on the domain; axis %d starts at %v with c = %v", k.Type, i, lo, k.C)
			}
		}
	}
	if p.Measure == Uniform && !p.Kernel.ShiftInvariant() && !p.Kernel.Homogeneous() {
		return fmt.Errorf("fmap: the uniform error is the signature error, and %s has no signature", p.Kernel.Type)
	}
	switch p.Measure {
	case Absolute, Relative, Uniform:
	default:
		return fmt.Errorf("fmap: unknown error measure %q (want %q, %q or %q)", string(p.Measure), string(Absolute), string(Relative), string(Uniform))
	}
	switch p.Norm {
	case LInf, L1:
	default:
		return fmt.Errorf("fmap: unknown norm %q", p.Norm)
	}
	if p.Measure == Relative {
		if l, k, err := p.Farthest(); err == nil && !(k >= MinRelativeKernel) {
			return fmt.Errorf("fmap: the relative error divides by K, which falls to %.2g on the domain (%s), below %g", k, p.FarthestWhere(l), MinRelativeKernel)
		}
	}
	if p.Kernel.Homogeneous() {
		if n != 1 {
			return fmt.Errorf("fmap: a homogeneous kernel's map is designed per input coordinate; the domain has %d axes", n)
		}
		if p.Negative != NegativeSign && p.Negative != NegativeZero {
			return fmt.Errorf("fmap: unknown negative-input rule %q (want %q or %q)", string(p.Negative), string(NegativeSign), string(NegativeZero))
		}
	}
	return nil
}

// Weight is the error weight w(λ) of the problem's measure at the signature
// argument λ: with it the weighted signature error w|k − k̂| is the kernel
// error the measure asks for (Chum §5). For a homogeneous kernel, w_A =
// e^{−γ|λ|/2} for the absolute error (eq. 16: at y = hi, x = y·e^{−λ} the
// kernel error is (xy)^{γ/2}|k − k̂| = hi^γ·e^{−γλ/2}|k − k̂|) and w_R =
// 1/k(λ) for the relative error (eq. 18); for a shift-invariant kernel the
// absolute error is the signature error (w = 1) and the relative one has
// w = 1/k(λ). The uniform measure has w = 1.
func (p *Problem) Weight(lambda []float64) float64 {
	switch p.Measure {
	case Relative:
		return 1 / p.Kernel.Signature(lambda)
	case Absolute:
		if p.Kernel.Homogeneous() {
			return math.Exp(-p.Kernel.gamma() * math.Abs(lambda[0]) / 2)
		}
	}
	return 1
}

// Reference returns what maps designed for p are verified against, built
// on the first call (see NewReference) and shared afterwards.
func (p *Problem) Reference() (*Reference, error) {
	p.refOnce.Do(func() { p.ref, p.refErr = newReference(p) })
	return p.ref, p.refErr
}

// MinRelativeKernel is the smallest value of the kernel's signature on the
// domain for which the relative error is accepted: its weight 1/k(λ) is at
// most 1e4 there. Beyond, a fit of cosines cannot follow k where it is
// tiny, and the LPs lose their accuracy to the weights' range.
const MinRelativeKernel = 1e-4

// Farthest returns the largest signature argument the domain attains (per
// axis t(hi) − t(lo) for a shift-invariant kernel, log(hi/m) for a
// homogeneous one, m the smallest nonzero input) and the signature there,
// the smallest value of the kernel's signature on the domain; for exp-χ²,
// which has none, no λ and the kernel's smallest value,
// exp(−β Σ_i (hi_i − lo_i)²/(hi_i + lo_i)); for the polynomial kernel no λ
// and its smallest value over pairs of the domain (negative for an odd
// degree where scale·x·y + offset is).
func (p *Problem) Farthest() (lambda []float64, k float64, err error) {
	d := p.Domain
	switch {
	case p.Kernel.Homogeneous():
		m, err := p.SmallestNonzero()
		if err != nil {
			return nil, 0, err
		}
		lambda = []float64{math.Log(d.Hi[0] / m)}
	case p.Kernel.Type == ExpChi2:
		return nil, p.Kernel.Eval(d.Hi, d.Lo), nil
	case p.Kernel.Type == Poly:
		lo, _ := p.Kernel.polyRange(d)
		return nil, lo, nil
	default:
		for i := range d.Lo {
			lambda = append(lambda, p.Kernel.T(d.Hi[i])-p.Kernel.T(d.Lo[i]))
		}
	}
	return lambda, p.Kernel.Signature(lambda), nil
}

// FarthestWhere says where on the domain the kernel takes the value
// Farthest returns, lambda the λ it returned: "at λ = …" for a kernel
// with a signature, else at which inputs (the polynomial kernel at the
// least x·y of the box, exp-χ² between its corners).
func (p *Problem) FarthestWhere(lambda []float64) string {
	switch k := p.Kernel; {
	case k.Type == Poly:
		var t float64
		for i := range p.Domain.Lo {
			a, b := p.Domain.Lo[i], p.Domain.Hi[i]
			t += min(a*a, a*b, b*b)
		}
		return fmt.Sprintf("at the least x·y of the box, %.4g, where scale·x·y + offset = %.4g", t, k.Scale*t+k.Offset)
	case k.Type == ExpChi2:
		return "between the box's corners"
	case len(lambda) == 0:
		return "on the domain"
	}
	return "at λ = " + strings.Trim(fmt.Sprintf("%.4g", lambda), "[]")
}

// SmallestNonzero returns the smallest nonzero input of a one-dimensional
// homogeneous problem's domain: 1 for an integer domain starting at 0,
// otherwise lo. An interval starting at 0 has none, which is an error.
func (p *Problem) SmallestNonzero() (float64, error) {
	d := p.Domain
	lo := d.Lo[0]
	switch {
	case lo > 0:
		return lo, nil
	case d.Integer:
		return 1, nil
	}
	return 0, fmt.Errorf("fmap: the interval [0, %v] has no smallest nonzero input; give the domain a positive lower end", d.Hi[0])
}
