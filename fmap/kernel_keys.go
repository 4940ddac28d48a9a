package fmap

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// MaxPolyDegree is the largest degree of the polynomial kernel.
const MaxPolyDegree = 8

// MaternNus are the smoothness values ν of the Matérn kernels featmap
// takes: those with a closed form in exponentials, as scikit-learn
// evaluates them without Bessel functions.
var MaternNus = []float64{0.5, 1.5, 2.5}

// KeyError is a bad value of one key of a kernel's section (the spec's
// kernel.degree, kernel.sigma, …, a map file's map.kernel.sigma):
// Kernel.Check returns one for every kernel, so that the spec decoder can
// report it at the key, as "file:line: kernel.Key: Msg", and featmap eval
// at the map file's field.
type KeyError struct {
	// Key is the key within the kernel section: type, gamma, sigma, c,
	// beta, degree, scale, offset, nu, or parts (a combined kernel's,
	// parts[g]… for part g's).
	Key string
	// Msg says what is wrong, e.g. "must be an integer from 1 to 8, not 9".
	Msg string
}

// Error returns "fmap: kernel.Key: Msg".
func (e *KeyError) Error() string { return "fmap: kernel." + e.Key + ": " + e.Msg }

// checkKeys checks the keys of a kernel of n input axes, each in its
// range, and that no key of another kernel is set: γ > 0 (0 meaning 1) of
// a homogeneous kernel; one σ in [MinSigma, MaxSigma] per axis of rbf,
// laplacian, matern and the skewed kernels, and their c finite; β > 0 of
// exp-χ²; degree 1..MaxPolyDegree, scale > 0 and offset ≥ 0 (finite) of
// poly; ν one of MaternNus; the parts of a combined kernel (checkCombined).
// Every error is a *KeyError naming the key.
func (k Kernel) checkKeys(n int) error {
	bad := func(key, format string, a ...any) error { return &KeyError{Key: key, Msg: fmt.Sprintf(format, a...)} }
	homog, widths := k.Homogeneous(), k.ShiftInvariant()
	// Keys of other kernels, set on this one.
	other := []struct {
		key  string
		set  bool
		owns string
	}{
		{"gamma", k.Gamma != 0 && !homog, "the homogeneous kernels"},
		{"c", k.C != 0 && !k.Skewed(), "the skewed kernels"},
		{"beta", k.Beta != 0 && k.Type != ExpChi2, "exp-chi2"},
		{"degree", k.Degree != 0 && k.Type != Poly, "poly"},
		{"scale", k.Scale != 0 && k.Type != Poly, "poly"},
		{"offset", k.Offset != 0 && k.Type != Poly, "poly"},
		{"nu", k.Nu != 0 && k.Type != Matern, "matern"},
		{"sigma", len(k.Sigma) > 0 && !widths, "rbf, laplacian, matern and the skewed kernels"},
		{"parts", len(k.Parts) > 0 && k.Type != Combined, "a combined kernel"},
	}
	known := homog || widths || k.Type == ExpChi2 || k.Type == Poly || k.Type == Combined
	for _, o := range other {
		if o.set && known {
			return bad(o.key, "%s is a key of %s; %s has none", o.key, o.owns, k.Type)
		}
	}
	switch {
	case !known:
		return bad("type", "unknown kernel %q (want one of %s)", k.Type, strings.Join(KernelTypes(), ", "))
	case homog:
		if g := k.gamma(); !(g > 0) || math.IsInf(g, 0) {
			return bad("gamma", "the homogeneity degree must be > 0 and finite, not %v", k.Gamma)
		}
		return nil
	case k.Type == ExpChi2:
		if !(k.Beta > 0) || math.IsInf(k.Beta, 0) {
			return bad("beta", "must be > 0 and finite, not %v", k.Beta)
		}
		return nil
	case k.Type == Combined:
		return k.checkCombined(n)
	case k.Type == Poly:
		switch {
		case k.Degree < 1 || k.Degree > MaxPolyDegree:
			return bad("degree", "must be an integer from 1 to %d, not %d", MaxPolyDegree, k.Degree)
		case !(k.Scale > 0) || math.IsInf(k.Scale, 0):
			return bad("scale", "must be > 0 and finite, not %v", k.Scale)
		case !(k.Offset >= 0) || math.IsInf(k.Offset, 0):
			return bad("offset", "must be ≥ 0 and finite, not %v", k.Offset)
		}
		return nil
	case k.Type == Matern && !slices.Contains(MaternNus, k.Nu):
		return bad("nu", "must be 0.5, 1.5 or 2.5 (the Matérn kernels of a closed form), not %v", k.Nu)
	case k.Skewed() && (math.IsNaN(k.C) || math.IsInf(k.C, 0)):
		return bad("c", "the offset must be finite, not %v", k.C)
	}
	if len(k.Sigma) != n {
		return bad("sigma", "has %d values for %d input axes: want one per axis", len(k.Sigma), n)
	}
	for i, s := range k.Sigma {
		at := ""
		if n > 1 {
			at = "[" + strconv.Itoa(i) + "]"
		}
		if !(s > 0) || math.IsInf(s, 0) {
			return bad("sigma", "σ%s must be > 0 and finite, not %v", at, s)
		}
		if s < MinSigma || s > MaxSigma {
			return bad("sigma", "σ%s = %v: %s", at, s, SigmaRange)
		}
	}
	return nil
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

// maternOf is the Matérn kernel at r = ‖(x − y)/σ‖.
func (k Kernel) maternOf(x, y []float64) float64 {
	s := 0.0
	for i := range x {
		u := (x[i] - y[i]) / k.Sigma[i]
		s += u * u
	}
	return MaternOf(k.Nu, math.Sqrt(s))
}

// MaternOf is the Matérn function of smoothness ν at the scaled distance
// r ≥ 0 (scikit-learn's Matern): e^{−r} (ν = ½), (1 + √3r)e^{−√3r}
// (ν = 3/2), (1 + √5r + 5r²/3)e^{−√5r} (ν = 5/2), 0 at r = +Inf (a
// distance that overflows); NaN for another ν.
func MaternOf(nu, r float64) float64 {
	if math.IsInf(r, 1) && (nu == 0.5 || nu == 1.5 || nu == 2.5) {
		return 0
	}
	switch nu {
	case 0.5:
		return math.Exp(-r)
	case 1.5:
		a := math.Sqrt(3) * r
		return (1 + a) * math.Exp(-a)
	case 2.5:
		a := math.Sqrt(5) * r
		return (1 + a + a*a/3) * math.Exp(-a)
	}
	return math.NaN()
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
