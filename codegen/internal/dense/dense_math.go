package dense

import "math"

// The elementwise functions of a tile: the cosines and sines of the
// phases of random Fourier features, the cosines of phases plus offsets,
// exponentials, and the RBF kernel's exp(−max(0, d²)) from the parts of
// d² a product gives. On amd64 they run in the assembly of
// dense_math_amd64.s; the Go here is the same algorithm for every other
// path and for the lanes the assembly leaves (arguments beyond the
// Cody–Waite limit, ±Inf, NaN), which take the math package's functions.
// Their errors (docs/measurements/dense.md, held by the package's tests):
//
//   - featmapDenseCosSin64, featmapDenseCos64: every cosine and sine is
//     within 1 ulp of math.Cos's and math.Sin's, and is theirs bit for bit
//     at |x| ≥ 2²⁹, ±Inf and NaN; the output is s times it, rounded.
//   - featmapDenseCosSin32, featmapDenseCos32: within 2⁻²³ (absolute) of
//     the exact sine and cosine of the float32 argument below 2¹⁵ (about
//     1.6 ulp of 1), and math's float64 value rounded beyond.
//   - featmapDenseExp64, featmapDenseExpDist64: within 1 ulp of math.Exp
//     where the result is normal, within 2⁻¹⁰⁷⁴ where it is subnormal.
//   - featmapDenseExp32, featmapDenseExpDist32: within 1 ulp (float32) of
//     the exact exponential of the float32 argument where the result is
//     normal, within 2⁻¹⁴⁹ where it is subnormal.

const (
	// featmapDenseTrigLimit64 is math's Cody–Waite limit: below it the
	// float64 reduction is math's own, bit for bit.
	featmapDenseTrigLimit64 = 1 << 29
	// featmapDenseTrigLimit32 is the float32 reduction's: below it y·DP1
	// is exact.
	featmapDenseTrigLimit32 = 1 << 15
)

// featmapDenseCosSin64 sets dst[2j] = s·cos(p[j]) and dst[2j+1] =
// s·sin(p[j]) for j < len(p), the cos-sin features of the phases p. dst
// must not overlap p; it panics if dst is shorter than 2·len(p).
func featmapDenseCosSin64(dst, p []float64, s float64) {
	dst = dst[:2*len(p)]
	ok, bad := featmapDenseCosSin64Vec(dst, p, s)
	if !ok {
		for j, v := range p {
			sn, cs := featmapDenseSincos64(v)
			dst[2*j], dst[2*j+1] = s*cs, s*sn
		}
		return
	}
	if bad {
		for j, v := range p {
			if !(math.Abs(v) < featmapDenseTrigLimit64) {
				sn, cs := math.Sincos(v)
				dst[2*j], dst[2*j+1] = s*cs, s*sn
			}
		}
	}
}

// featmapDenseCos64 sets dst[j] = s·cos(p[j] + b[j]) for j < len(p), the
// phase features of the phases p with offsets b. dst must not overlap p
// or b; it panics if b or dst is shorter than p.
func featmapDenseCos64(dst, p, b []float64, s float64) {
	dst, b = dst[:len(p)], b[:len(p)]
	ok, bad := featmapDenseCos64Vec(dst, p, b, s)
	if !ok {
		for j, v := range p {
			_, cs := featmapDenseSincos64(v + b[j])
			dst[j] = s * cs
		}
		return
	}
	if bad {
		for j, v := range p {
			if a := v + b[j]; !(math.Abs(a) < featmapDenseTrigLimit64) {
				dst[j] = s * math.Cos(a)
			}
		}
	}
}

// featmapDenseExp64 sets dst[j] = e^x[j] for j < len(x). dst may be x
// itself but must not overlap it otherwise; it panics if dst is shorter.
func featmapDenseExp64(dst, x []float64) {
	dst = dst[:len(x)]
	if featmapDenseExp64Vec(dst, x) {
		return
	}
	for j, v := range x {
		dst[j] = featmapDenseExpOne64(min(max(v, -746), 710))
	}
}

// featmapDenseExpDist64 sets dst[j] = exp(min(0, g[j] − (q + nl[j]))) for
// j < len(g): the RBF kernel e^{−max(0, d²)} with d² = q + nl[j] − g[j]
// (q the row's ‖x‖², nl[j] the landmark's ‖l‖², g[j] 2x·l, all scaled),
// clamped at 0 where rounding made it negative. dst may be g itself but
// must not overlap g or nl otherwise; it panics if nl or dst is shorter
// than g.
func featmapDenseExpDist64(dst, g, nl []float64, q float64) {
	dst, nl = dst[:len(g)], nl[:len(g)]
	if featmapDenseExpDist64Vec(dst, g, nl, q) {
		return
	}
	for j, v := range g {
		dst[j] = featmapDenseExpOne64(max(min(v-(q+nl[j]), 0), -746))
	}
}

// featmapDenseCosSin32 is featmapDenseCosSin64 in float32.
func featmapDenseCosSin32(dst, p []float32, s float32) {
	dst = dst[:2*len(p)]
	ok, bad := featmapDenseCosSin32Vec(dst, p, s)
	if !ok {
		for j, v := range p {
			sn, cs := featmapDenseSincos32(v)
			dst[2*j], dst[2*j+1] = s*cs, s*sn
		}
		return
	}
	if bad {
		for j, v := range p {
			if !(float32(math.Abs(float64(v))) < featmapDenseTrigLimit32) {
				sn, cs := featmapDenseSincos32(v)
				dst[2*j], dst[2*j+1] = s*cs, s*sn
			}
		}
	}
}

// featmapDenseCos32 is featmapDenseCos64 in float32.
func featmapDenseCos32(dst, p, b []float32, s float32) {
	dst, b = dst[:len(p)], b[:len(p)]
	ok, bad := featmapDenseCos32Vec(dst, p, b, s)
	if !ok {
		for j, v := range p {
			_, cs := featmapDenseSincos32(v + b[j])
			dst[j] = s * cs
		}
		return
	}
	if bad {
		for j, v := range p {
			if a := v + b[j]; !(float32(math.Abs(float64(a))) < featmapDenseTrigLimit32) {
				_, cs := featmapDenseSincos32(a)
				dst[j] = s * cs
			}
		}
	}
}

// featmapDenseExp32 is featmapDenseExp64 in float32.
func featmapDenseExp32(dst, x []float32) {
	dst = dst[:len(x)]
	if featmapDenseExp32Vec(dst, x) {
		return
	}
	for j, v := range x {
		dst[j] = featmapDenseExpOne32(min(max(v, -104), 89))
	}
}

// featmapDenseExpDist32 is featmapDenseExpDist64 in float32.
func featmapDenseExpDist32(dst, g, nl []float32, q float32) {
	dst, nl = dst[:len(g)], nl[:len(g)]
	if featmapDenseExpDist32Vec(dst, g, nl, q) {
		return
	}
	for j, v := range g {
		dst[j] = featmapDenseExpOne32(max(min(v-(q+nl[j]), 0), -104))
	}
}

// featmapDenseSincos64 is the sine and cosine of x as the assembly
// computes them (dense_math_amd64.s): math.Sincos's reduction, each
// product rounded apart, and its polynomials with fused multiply-adds;
// math.Sincos itself at |x| ≥ 2²⁹, ±Inf and NaN.
func featmapDenseSincos64(x float64) (sin, cos float64) {
	const (
		pi4a = 7.85398125648498535156e-1  // 0x3fe921fb40000000: π/4 in three parts (math's)
		pi4b = 3.77489470793079817668e-8  // 0x3e64442d00000000
		pi4c = 2.69515142907905952645e-15 // 0x3ce8469898cc5170
		s0   = 1.58962301576546568060e-10 // math's sine polynomial
		s1   = -2.50507477628578072866e-8
		s2   = 2.75573136213857245213e-6
		s3   = -1.98412698295895385996e-4
		s4   = 8.33333333332211858878e-3
		s5   = -1.66666666666666307295e-1
		c0   = -1.13585365213876817300e-11 // math's cosine polynomial
		c1   = 2.08757008419747316778e-9
		c2   = -2.75573141792967388112e-7
		c3   = 2.48015872888517045348e-5
		c4   = -1.38888888888730564116e-3
		c5   = 4.16666666666665929218e-2
	)
	ax := math.Abs(x)
	if !(ax < featmapDenseTrigLimit64) {
		return math.Sincos(x)
	}
	y := 2 * math.Ceil(0.5*math.Trunc(ax*(4/math.Pi)))
	// y·pi4a and y·pi4b are exact below the limit, so fusing them changes
	// nothing; y·pi4c is rounded apart, as math rounds it.
	z := ((ax - y*pi4a) - y*pi4b) - float64(y*pi4c)
	zz := z * z
	ps := featmapDenseFMA(featmapDenseFMA(featmapDenseFMA(featmapDenseFMA(featmapDenseFMA(s0, zz, s1), zz, s2), zz, s3), zz, s4), zz, s5)
	pc := featmapDenseFMA(featmapDenseFMA(featmapDenseFMA(featmapDenseFMA(featmapDenseFMA(c0, zz, c1), zz, c2), zz, c3), zz, c4), zz, c5)
	sp := featmapDenseFMA(float64(z*zz), ps, z)
	cp := featmapDenseFMA(float64(zz*zz), pc, featmapDenseFMA(-0.5, zz, 1))
	q := uint64(y)
	swap, past := q&2 != 0, q&4 != 0
	if swap {
		sp, cp = cp, sp
	}
	if past != math.Signbit(x) {
		sp = -sp
	}
	if swap != past {
		cp = -cp
	}
	return sp, cp
}

// featmapDenseSincos32 is the sine and cosine of x as the float32
// assembly computes them: the octant as in featmapDenseSincos64, the
// reduction by Cephes' π/4 in three float32 parts with fused
// multiply-adds, Cephes' float32 polynomials; math.Sincos in float64,
// rounded, at |x| ≥ 2¹⁵, ±Inf and NaN.
func featmapDenseSincos32(x float32) (sin, cos float32) {
	const (
		dp1 = 0.78515625 // π/4 in three parts (Cephes)
		dp2 = 2.4187564849853515625e-4
		dp3 = 3.77489497744594108e-8
		s0  = -1.9515295891e-4 // Cephes' sinf polynomial
		s1  = 8.3321608736e-3
		s2  = -1.6666654611e-1
		c0  = 2.443315711809948e-5 // Cephes' cosf polynomial
		c1  = -1.388731625493765e-3
		c2  = 4.166664568298827e-2
	)
	ax := float32(math.Abs(float64(x)))
	if !(ax < featmapDenseTrigLimit32) {
		s, c := math.Sincos(float64(x))
		return float32(s), float32(c)
	}
	y := 2 * float32(math.Ceil(float64(0.5*float32(math.Trunc(float64(ax*float32(4/math.Pi)))))))
	z := featmapDenseFMA32(-y, dp1, ax)
	z = featmapDenseFMA32(-y, dp2, z)
	z = featmapDenseFMA32(-y, dp3, z)
	zz := z * z
	ps := featmapDenseFMA32(featmapDenseFMA32(s0, zz, s1), zz, s2)
	pc := featmapDenseFMA32(featmapDenseFMA32(c0, zz, c1), zz, c2)
	sp := featmapDenseFMA32(float32(z*zz), ps, z)
	cp := featmapDenseFMA32(float32(zz*zz), pc, featmapDenseFMA32(-0.5, zz, 1))
	q := uint32(y)
	swap, past := q&2 != 0, q&4 != 0
	if swap {
		sp, cp = cp, sp
	}
	if past != math.Signbit(float64(x)) {
		sp = -sp
	}
	if swap != past {
		cp = -cp
	}
	return sp, cp
}

// featmapDenseFMA32 is a·b + c in float32 as the assembly's fused
// multiply-add computes it, but for double rounding: the product of two
// float32 is exact in float64 (fused or not), the sum is rounded to
// float64 and then to float32, which differs from rounding once in rare
// ties, by 1 ulp.
func featmapDenseFMA32(a, b, c float32) float32 {
	return float32(float64(a)*float64(b) + float64(c))
}

// featmapDenseExpOne64 is e^x for x in [−746, 710] (or NaN) as the
// assembly computes it: n = round(x·log₂e), r = x − n·ln2 in two parts,
// e^r by its Taylor polynomial of degree 13, times 2^⌊n/2⌋ and then
// 2^(n−⌊n/2⌋), so that a subnormal result is rounded once.
func featmapDenseExpOne64(x float64) float64 {
	const (
		shift = 0x1.8p52
		log2e = 1.4426950408889634 // 0x3ff71547652b82fe
		ln2hi = 6.93147180369123816490e-01
		ln2lo = 1.90821492927058770002e-10
	)
	t := featmapDenseFMA(x, log2e, shift)
	kf := t - shift
	r := featmapDenseFMA(-kf, ln2hi, x)
	r = featmapDenseFMA(-kf, ln2lo, r)
	p := 1.0 / 6227020800 // 1/13!
	p = featmapDenseFMA(p, r, 1.0/479001600)
	p = featmapDenseFMA(p, r, 1.0/39916800)
	p = featmapDenseFMA(p, r, 1.0/3628800)
	p = featmapDenseFMA(p, r, 1.0/362880)
	p = featmapDenseFMA(p, r, 1.0/40320)
	p = featmapDenseFMA(p, r, 1.0/5040)
	p = featmapDenseFMA(p, r, 1.0/720)
	p = featmapDenseFMA(p, r, 1.0/120)
	p = featmapDenseFMA(p, r, 1.0/24)
	p = featmapDenseFMA(p, r, 1.0/6)
	p = featmapDenseFMA(p, r, 0.5)
	p = featmapDenseFMA(p, r, 1)
	p = featmapDenseFMA(p, r, 1)
	k1 := math.Floor(kf * 0.5)
	k2 := kf - k1
	s1 := math.Float64frombits(uint64(int64(k1)+1023) << 52)
	s2 := math.Float64frombits(uint64(int64(k2)+1023) << 52)
	return p * s1 * s2
}

// featmapDenseExpOne32 is featmapDenseExpOne64 in float32 for x in
// [−104, 89] (or NaN): the Taylor polynomial of degree 7.
func featmapDenseExpOne32(x float32) float32 {
	const (
		shift = 0x1.8p23
		log2e = 1 / math.Ln2
		ln2hi = 0.693145751953125
		ln2lo = 1.428606765330187045e-06
	)
	t := featmapDenseFMA32(x, log2e, shift)
	kf := t - shift
	r := featmapDenseFMA32(-kf, ln2hi, x)
	r = featmapDenseFMA32(-kf, ln2lo, r)
	p := float32(1.0 / 5040)
	p = featmapDenseFMA32(p, r, 1.0/720)
	p = featmapDenseFMA32(p, r, 1.0/120)
	p = featmapDenseFMA32(p, r, 1.0/24)
	p = featmapDenseFMA32(p, r, 1.0/6)
	p = featmapDenseFMA32(p, r, 0.5)
	p = featmapDenseFMA32(p, r, 1)
	p = featmapDenseFMA32(p, r, 1)
	k1 := float32(math.Floor(float64(kf * 0.5)))
	k2 := kf - k1
	s1 := math.Float32frombits(uint32(int32(k1)+127) << 23)
	s2 := math.Float32frombits(uint32(int32(k2)+127) << 23)
	return p * s1 * s2
}
