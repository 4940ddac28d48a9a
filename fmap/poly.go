package fmap

import (
	"fmt"
	"math"
)

// This file is the family of the polynomial kernel.

// Poly is the polynomial kernel (scale·x·y + offset)^degree
// (scikit-learn's polynomial_kernel with gamma = scale, coef0 =
// offset), degree an integer 1..MaxPolyDegree, scale > 0, offset ≥ 0.
const Poly = "poly"

// MaxPolyDegree is the largest degree of the polynomial kernel.
const MaxPolyDegree = 8

// polyFamily is the family of the polynomial kernel: degree, scale and
// offset.
type polyFamily struct{}

// Types are poly.
func (polyFamily) Types() []string { return []string{Poly} }

// Keys are degree, scale and offset.
func (polyFamily) Keys() []string { return []string{"degree", "scale", "offset"} }

func (f polyFamily) named() string { return f.Types()[0] }

// The degree has no default.
func (polyFamily) required() []KeyHint {
	return []KeyHint{{"degree", "an integer from 1 to 8: the power of (scale·x·y + offset)"}}
}

func (polyFamily) check(k Kernel, _ int) error {
	bad := func(key, format string, a ...any) error { return &KeyError{Key: key, Msg: fmt.Sprintf(format, a...)} }
	switch {
	case k.Degree < 1 || k.Degree > MaxPolyDegree:
		return bad("degree", "must be an integer from 1 to %d, not %d", MaxPolyDegree, k.Degree)
	case !(k.Scale > 0) || math.IsInf(k.Scale, 0):
		return bad("scale", "must be > 0 and finite, not %v", k.Scale)
	case !(k.Offset >= 0) || math.IsInf(k.Offset, 0):
		return bad("offset", "must be ≥ 0 and finite, not %v", k.Offset)
	}
	return nil
}

func (polyFamily) eval(k Kernel, x, y []float64) float64 { return k.evalPoly(x, y) }

// signature is NaN: the polynomial kernel has none.
func (polyFamily) signature(Kernel, []float64) float64 { return math.NaN() }

func (polyFamily) describe(k Kernel) string {
	return fmt.Sprintf("polynomial kernel (scale·x·y + offset)^%d (scale = %g, offset = %g)", k.Degree, k.Scale, k.Offset)
}

// evalPoly is (scale·Σ_i x_i y_i + offset)^degree: the dot product summed
// in order, then degree − 1 multiplications (the emitted Nyström kernel
// computes the same).
func (k Kernel) evalPoly(x, y []float64) float64 {
	// The conversions round each product apart: a build that fuses
	// multiply-adds (arm64, GOAMD64=v3) would otherwise fuse them here and
	// in the emitted code in different places.
	s := 0.0
	for i := range x {
		s += float64(x[i] * y[i])
	}
	return PowInt(float64(k.Scale*s)+k.Offset, k.Degree)
}

// PowInt is b^d for d ≥ 1 by d − 1 multiplications in order,
// b·b·…·b: the polynomial kernel's power, as every evaluator of featmap
// computes it.
func PowInt(b float64, d int) float64 {
	v := b
	for range d - 1 {
		v *= b
	}
	return v
}

// PolyMaxValue is the largest value the polynomial kernel may take on a
// domain, times n^degree: the features of a polynomial map (its
// monomials, and the sketches' products of sums of up to n inputs) stay
// within it, and so do their products and sums.
const PolyMaxValue = 0x1p1000

// polyRange returns the smallest and largest values of the polynomial
// kernel over pairs of the box d (t = x·y ranges over [Σ_i min(lo_i²,
// lo_i·hi_i, hi_i²), Σ_i max(lo_i², hi_i²)], a bilinear form's extremes at
// the corners; (scale·t + offset)^degree is monotone in t but for an even
// degree, whose smallest value is 0 where scale·t + offset crosses 0).
func (k Kernel) polyRange(d Domain) (lo, hi float64) {
	var tlo, thi float64
	for i := range d.Lo {
		a, b := d.Lo[i], d.Hi[i]
		tlo += min(a*a, a*b, b*b)
		thi += max(a*a, b*b)
	}
	u, v := k.Scale*tlo+k.Offset, k.Scale*thi+k.Offset
	p, q := PowInt(u, k.Degree), PowInt(v, k.Degree)
	lo, hi = min(p, q), max(p, q)
	if k.Degree%2 == 0 && u < 0 && v > 0 {
		lo = 0
	}
	return lo, hi
}

// PolyBound is the largest B such that inputs with every |x_i| ≤ B keep
// the polynomial kernel of n inputs within PolyMaxValue/n^degree, the
// bound Problem.Check holds the domain to: (scale·n·B² + offset)^degree
// = PolyMaxValue/n^degree.
func (k Kernel) PolyBound(n int) float64 {
	top := math.Pow(PolyMaxValue, 1/float64(k.Degree)) / float64(n)
	return math.Sqrt(math.Max(top-k.Offset, 0) / (k.Scale * float64(n)))
}

// CheckPolyDomain refuses a domain on which the polynomial kernel's
// values times n^degree exceed PolyMaxValue, naming the bound on the
// inputs (nil for another kernel): Problem.Check calls it, and the spec
// decoder at the domain's key. When the offset alone is beyond the bound
// (no domain would do), the error is a *KeyError of kernel.offset naming
// the largest offset.
func (p *Problem) CheckPolyDomain() error {
	if p.Kernel.Type != Poly {
		return nil
	}
	k, n := p.Kernel, p.InDim()
	_, hi := k.polyRange(p.Domain)
	limit := PolyMaxValue / math.Pow(float64(n), float64(k.Degree))
	if !(hi <= limit) {
		reach := reachOf(hi)
		if top := math.Pow(limit, 1/float64(k.Degree)); !(k.Offset < top) {
			// The offset alone, at x = 0, is beyond the bound: no
			// domain keeps the kernel within it.
			return &KeyError{Key: "offset", Msg: fmt.Sprintf("%g: offset^degree reaches %s at x = 0 already, beyond 2¹⁰⁰⁰/n^degree = %.3g, where the polynomial map's values would overflow float64: the offset must be below %.6g for degree %d on %d inputs",
				k.Offset, reachOf(math.Pow(k.Offset, float64(k.Degree))), limit, top, k.Degree, n)}
		}
		return fmt.Errorf("fmap: the polynomial kernel reaches %s on this domain, beyond 2¹⁰⁰⁰/n^degree = %.3g, where its map's values would overflow float64: keep every |x_i| ≤ %.6g",
			reach, limit, k.PolyBound(n))
	}
	return nil
}

// reachOf formats a value that may have overflowed to +Inf.
func reachOf(v float64) string {
	if math.IsInf(v, 1) {
		return "more than 1.8e308"
	}
	return fmt.Sprintf("%.3g", v)
}
