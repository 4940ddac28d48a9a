package codegen

import (
	"fmt"
	"math"

	"github.com/featmap/featmap/fmap"
)

// The exact evaluation of a shift-invariant map computes sin and cos of
// phases ω·x (Σᵢ ωᵢ·tᵢ of random features). A finite x gives a finite
// phase, and so bounded components, only while no product ωᵢ·xᵢ and no sum
// of them overflows; math.Sincos of ±Inf is NaN. So the exact path takes
// an input coordinate (or random-feature argument tᵢ) beyond ±L as ±L,
//
//	L = MaxFloat64 / (2·S),  S = the largest Σᵢ|ωᵢ| of a term (a frequency),
//
// where |ω·x| ≤ S·L = MaxFloat64/2 before rounding: no overflow. Such an
// input is far outside any domain (its phase keeps no correct digit
// anyway), so the values there are bounded but not meaningful either way;
// every input within ±L is evaluated as before, bit for bit. Where S ≤ 1/2
// no finite input overflows and there is no limit (L = +Inf).

// limitOf returns L = MaxFloat64/(2·s), or +Inf for s ≤ 1/2.
func limitOf(s float64) float64 {
	if !(s > 0.5) {
		return math.Inf(1)
	}
	return math.MaxFloat64 / (2 * s)
}

// freqSum is S, the largest Σᵢ|ωᵢ| over the rows of freq (rows of n).
func freqSum(freq []float64, n int) float64 {
	s := 0.0
	for k := 0; k+n <= len(freq); k += n {
		r := 0.0
		for _, w := range freq[k : k+n] {
			r += math.Abs(w)
		}
		s = math.Max(s, r)
	}
	return s
}

// termSum is S of a Fourier or modulation stage: the largest Σᵢ|ωᵢ| of a
// term.
func termSum(f *fmap.Fourier) float64 {
	s := 0.0
	for _, t := range f.Terms {
		s = math.Max(s, freqSum(t.Freq, len(t.Freq)))
	}
	return s
}

// phaseLimit is L of a Fourier or modulation stage in the identity
// transform (a shift-invariant kernel's), +Inf in the log transform (its
// t = log|x| is at most 745 in magnitude; checkPhases refuses frequencies
// that would overflow even there).
func phaseLimit(f *fmap.Fourier) float64 {
	if f.Transform != fmap.Identity {
		return math.Inf(1)
	}
	return limitOf(termSum(f))
}

// randomLimit is L of a random stage in the identity transform (on x, or
// on the values of a per-coordinate map before it), +Inf in the
// log-offset transform, whose t = log(max(x + c, 2⁻¹⁰²²)) is at most 710
// in magnitude.
func randomLimit(r *fmap.Random) float64 {
	if r.Transform != fmap.Identity {
		return math.Inf(1)
	}
	return limitOf(freqSum(r.Freq, r.In))
}

// fourierPhases is checkPhases of a Fourier or modulation stage on dom.
func fourierPhases(f *fmap.Fourier, dom fmap.Domain) error {
	tmax := 0.0
	if f.Transform == fmap.Log {
		tmax = 745
	}
	return checkPhases(termSum(f), tmax, dom)
}

// randomPhases is checkPhases of a random stage on dom (the map's domain;
// after a per-coordinate stage, whose values dom does not bound, none:
// fmap.Domain{}).
func randomPhases(r *fmap.Random, dom fmap.Domain) error {
	tmax := 0.0
	if r.Transform == fmap.LogOffset {
		tmax = 710
	}
	return checkPhases(freqSum(r.Freq, r.In), tmax, dom)
}

// checkPhases refuses frequencies of sum s whose phases overflow where no
// limit applies (beyond 10³⁰⁴ where the argument reaches tmax: 745 in a
// log transform, 710 in the log-offset one; 0 for the identity, whose
// arguments the limit bounds) or whose limit L would cut into the domain
// (frequencies so large that ω·x overflows there).
func checkPhases(s, tmax float64, dom fmap.Domain) error {
	if !(s <= math.MaxFloat64/2) || tmax != 0 && !(s*tmax <= math.MaxFloat64/2) {
		return fmt.Errorf("codegen: frequencies of Σ|ω| up to %v make the phases overflow", s)
	}
	if tmax != 0 {
		return nil
	}
	l := limitOf(s)
	for i := range dom.Lo {
		if b := math.Max(math.Abs(dom.Lo[i]), math.Abs(dom.Hi[i])); !(b <= l) {
			return fmt.Errorf("codegen: frequencies of Σ|ω| up to %v make the phases overflow on the domain (|x| up to %v)", s, b)
		}
	}
	return nil
}
