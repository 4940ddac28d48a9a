// Package vtrig computes cosines and sines of many arguments at once, each
// bit for bit what math.Cos and math.Sincos return for it. The designer's
// inner loops take thousands of them per LP (docs/lp-design.md, "Table 1's
// 1-D designs"), and its maps must keep every bit (the same section: any
// change to the arithmetic re-draws Table 2). On amd64 with AVX (and not
// built with GOAMD64=v3 or higher) four arguments at a time take math's
// own reduction and polynomials in Go assembly, the same IEEE operations
// in the same order, never fused (vtrig_amd64.s), the last len(x) mod 4
// in one more four-wide step, padded; arguments of magnitude 2²⁹ or more
// (where math reduces by Payne–Hanek), ±Inf and NaN go to math one by
// one. Elsewhere, and with GOAMD64=v3, where the compiler fuses math's own
// multiply-adds, the functions are plain loops over math.
package vtrig

import "math"

// reduceThreshold is math's: below it math.Cos and math.Sincos reduce
// the argument by Cody–Waite (π/4 in three parts), which the assembly
// reproduces; above it, by Payne–Hanek, which it leaves to math.
const reduceThreshold = 1 << 29

// Cos sets c[i] = math.Cos(x[i]) for every i < len(x), bit for bit. c must
// be at least as long as x; it may be x itself, but overlap x in no other
// way.
func Cos(c, x []float64) {
	c = c[:len(x)]
	if !Vector {
		for i, v := range x {
			c[i] = math.Cos(v)
		}
		return
	}
	n := len(x) &^ 3
	if n > 0 && cosAVX(&c[0], &x[0], n) {
		fixCos(c[:n], x[:n])
	}
	if r := len(x) - n; r > 0 {
		// The last 1–3 in one more four-wide step, padded with zeros.
		var t [4]float64
		copy(t[:], x[n:])
		if cosAVX(&t[0], &t[0], 4) {
			fixCos(t[:r], t[:r])
		}
		copy(c[n:], t[:r])
	}
}

// fixCos sets c[i] = math.Cos(x[i]) where |x[i]| ≥ 2²⁹ or x[i] is NaN: the
// lanes cosAVX left to math, which hold x in c (so x[i] is still the
// argument there if c is x); the others hold a cosine, below 2²⁹.
func fixCos(c, x []float64) {
	for i, v := range x {
		if !(math.Abs(v) < reduceThreshold) {
			c[i] = math.Cos(v)
		}
	}
}

// Sincos sets s[i], c[i] = math.Sincos(x[i]) for every i < len(x), bit for
// bit. s and c must be at least as long as x; either may be x itself, but
// they must not overlap x or each other in any other way.
func Sincos(s, c, x []float64) {
	s, c = s[:len(x)], c[:len(x)]
	if !Vector {
		for i, v := range x {
			s[i], c[i] = math.Sincos(v)
		}
		return
	}
	n := len(x) &^ 3
	if n > 0 && sincosAVX(&s[0], &c[0], &x[0], n) {
		fixSincos(s[:n], c[:n], x[:n])
	}
	if r := len(x) - n; r > 0 {
		var ts, tc [4]float64
		copy(tc[:], x[n:])
		if sincosAVX(&ts[0], &tc[0], &tc[0], 4) {
			fixSincos(ts[:r], tc[:r], tc[:r])
		}
		copy(s[n:], ts[:r])
		copy(c[n:], tc[:r])
	}
}

// fixSincos is fixCos for sincosAVX, whose lanes left to math hold x in
// both s and c.
func fixSincos(s, c, x []float64) {
	for i, v := range x {
		if !(math.Abs(v) < reduceThreshold) {
			s[i], c[i] = math.Sincos(v)
		}
	}
}
