package dense

import (
	"fmt"
	"math"
)

// The distance products of the Nyström kernels that are no function of
// a dot product: the Laplacian kernel's exp(−Σ|xᵢ − lᵢ|/σᵢ) takes
// featmapDenseNegL1Dist64 of the rows and landmarks divided by σ, then
// featmapDenseExp64; the Matérn kernel of ν = ½, whose e^{−r} has a cusp
// at r = 0 where d² from its parts would lose half its digits, takes the
// exact squared distances of featmapDenseNegSqDist64. On amd64 they run
// in dense_dist_amd64.s (three or two vector operations per product term
// where the product takes one); elsewhere one row of four columns at a
// time in Go.

// featmapDenseNegL1Dist64 sets C = −Σ_kk |a[i*lda+kk] − B[j][kk]| for i < rows and j < cols
// (minus the L1 distances of A's rows to B's), or adds it to C with acc, B packed by featmapDensePack64
// as for featmapDenseMul64: each element one chain over kk in order,
// c = c − |a − b|, the same on every path. It panics if a slice is
// too short for its rows.
func featmapDenseNegL1Dist64(c []float64, ldc int, a []float64, lda int, b []float64, pstride, rows, k, cols int, acc bool) {
	if !featmapDenseFits(len(c), ldc, len(a), lda, len(b), pstride, rows, k, cols, featmapDensePanel64) {
		panic(fmt.Sprintf("featmapDenseNegL1Dist64: %d×%d against %d×%d into %d×%d: slices of %d, %d and %d with strides %d, %d and %d", rows, k, cols, k, rows, cols, len(a), len(b), len(c), lda, pstride, ldc))
	}
	if rows == 0 || cols == 0 {
		return
	}
	if k == 0 {
		if !acc {
			for i := range rows {
				clear(c[i*ldc : i*ldc+cols])
			}
		}
		return
	}
	if featmapDenseNegL1Dist64Vec(c, ldc, a, lda, b, pstride, rows, k, cols, acc) {
		return
	}
	const nr = featmapDensePanel64
	for p := 0; p*nr < cols; p++ {
		bp := b[p*pstride : p*pstride+nr*k]
		w := min(nr, cols-p*nr)
		j := 0
		for ; j+4 <= w; j += 4 {
			for i := range rows {
				featmapDenseNegL1Dist1x4Go64(c[i*ldc+p*nr+j:], a[i*lda:i*lda+k], bp[j:], acc)
			}
		}
		for ; j < w; j++ {
			for i := range rows {
				var s float64
				if acc {
					s = c[i*ldc+p*nr+j]
				}
				for kk, v := range a[i*lda : i*lda+k] {
					s -= math.Abs(v - bp[kk*nr+j])
				}
				c[i*ldc+p*nr+j] = s
			}
		}
	}
}

// featmapDenseNegL1Dist1x4Go64 is one row of four columns of
// featmapDenseNegL1Dist64 in Go.
func featmapDenseNegL1Dist1x4Go64(c []float64, a []float64, b []float64, acc bool) {
	const nr = featmapDensePanel64
	c = c[:4]
	var s0, s1, s2, s3 float64
	if acc {
		s0, s1, s2, s3 = c[0], c[1], c[2], c[3]
	}
	for kk, x := range a {
		bb := b[kk*nr : kk*nr+4]
		s0 -= math.Abs(x - bb[0])
		s1 -= math.Abs(x - bb[1])
		s2 -= math.Abs(x - bb[2])
		s3 -= math.Abs(x - bb[3])
	}
	c[0], c[1], c[2], c[3] = s0, s1, s2, s3
}

// featmapDenseNegL1Dist32 sets C = −Σ_kk |a[i*lda+kk] − B[j][kk]| for i < rows and j < cols
// (minus the L1 distances of A's rows to B's), or adds it to C with acc, B packed by featmapDensePack32
// as for featmapDenseMul32: each element one chain over kk in order,
// c = c − |a − b|, the same on every path. It panics if a slice is
// too short for its rows.
func featmapDenseNegL1Dist32(c []float32, ldc int, a []float32, lda int, b []float32, pstride, rows, k, cols int, acc bool) {
	if !featmapDenseFits(len(c), ldc, len(a), lda, len(b), pstride, rows, k, cols, featmapDensePanel32) {
		panic(fmt.Sprintf("featmapDenseNegL1Dist32: %d×%d against %d×%d into %d×%d: slices of %d, %d and %d with strides %d, %d and %d", rows, k, cols, k, rows, cols, len(a), len(b), len(c), lda, pstride, ldc))
	}
	if rows == 0 || cols == 0 {
		return
	}
	if k == 0 {
		if !acc {
			for i := range rows {
				clear(c[i*ldc : i*ldc+cols])
			}
		}
		return
	}
	if featmapDenseNegL1Dist32Vec(c, ldc, a, lda, b, pstride, rows, k, cols, acc) {
		return
	}
	const nr = featmapDensePanel32
	for p := 0; p*nr < cols; p++ {
		bp := b[p*pstride : p*pstride+nr*k]
		w := min(nr, cols-p*nr)
		j := 0
		for ; j+4 <= w; j += 4 {
			for i := range rows {
				featmapDenseNegL1Dist1x4Go32(c[i*ldc+p*nr+j:], a[i*lda:i*lda+k], bp[j:], acc)
			}
		}
		for ; j < w; j++ {
			for i := range rows {
				var s float32
				if acc {
					s = c[i*ldc+p*nr+j]
				}
				for kk, v := range a[i*lda : i*lda+k] {
					s -= float32(math.Abs(float64(v - bp[kk*nr+j])))
				}
				c[i*ldc+p*nr+j] = s
			}
		}
	}
}

// featmapDenseNegL1Dist1x4Go32 is one row of four columns of
// featmapDenseNegL1Dist32 in Go.
func featmapDenseNegL1Dist1x4Go32(c []float32, a []float32, b []float32, acc bool) {
	const nr = featmapDensePanel32
	c = c[:4]
	var s0, s1, s2, s3 float32
	if acc {
		s0, s1, s2, s3 = c[0], c[1], c[2], c[3]
	}
	for kk, x := range a {
		bb := b[kk*nr : kk*nr+4]
		s0 -= float32(math.Abs(float64(x - bb[0])))
		s1 -= float32(math.Abs(float64(x - bb[1])))
		s2 -= float32(math.Abs(float64(x - bb[2])))
		s3 -= float32(math.Abs(float64(x - bb[3])))
	}
	c[0], c[1], c[2], c[3] = s0, s1, s2, s3
}

// featmapDenseNegSqDist64 sets C = −Σ_kk (a[i*lda+kk] − B[j][kk])² for i < rows and j < cols
// (minus the squared distances of A's rows to B's), or adds it to C with acc, B packed by featmapDensePack64
// as for featmapDenseMul64: each element one chain over kk in order,
// c = fma(−t, t, c) with t = a − b, the same on every path where featmapDenseFMA fuses. It panics if a slice is
// too short for its rows.
func featmapDenseNegSqDist64(c []float64, ldc int, a []float64, lda int, b []float64, pstride, rows, k, cols int, acc bool) {
	if !featmapDenseFits(len(c), ldc, len(a), lda, len(b), pstride, rows, k, cols, featmapDensePanel64) {
		panic(fmt.Sprintf("featmapDenseNegSqDist64: %d×%d against %d×%d into %d×%d: slices of %d, %d and %d with strides %d, %d and %d", rows, k, cols, k, rows, cols, len(a), len(b), len(c), lda, pstride, ldc))
	}
	if rows == 0 || cols == 0 {
		return
	}
	if k == 0 {
		if !acc {
			for i := range rows {
				clear(c[i*ldc : i*ldc+cols])
			}
		}
		return
	}
	if featmapDenseNegSqDist64Vec(c, ldc, a, lda, b, pstride, rows, k, cols, acc) {
		return
	}
	const nr = featmapDensePanel64
	for p := 0; p*nr < cols; p++ {
		bp := b[p*pstride : p*pstride+nr*k]
		w := min(nr, cols-p*nr)
		j := 0
		for ; j+4 <= w; j += 4 {
			for i := range rows {
				featmapDenseNegSqDist1x4Go64(c[i*ldc+p*nr+j:], a[i*lda:i*lda+k], bp[j:], acc)
			}
		}
		for ; j < w; j++ {
			for i := range rows {
				var s float64
				if acc {
					s = c[i*ldc+p*nr+j]
				}
				for kk, v := range a[i*lda : i*lda+k] {
					t := v - bp[kk*nr+j]
					s = featmapDenseFMA(-t, t, s)
				}
				c[i*ldc+p*nr+j] = s
			}
		}
	}
}

// featmapDenseNegSqDist1x4Go64 is one row of four columns of
// featmapDenseNegSqDist64 in Go.
func featmapDenseNegSqDist1x4Go64(c []float64, a []float64, b []float64, acc bool) {
	const nr = featmapDensePanel64
	c = c[:4]
	var s0, s1, s2, s3 float64
	if acc {
		s0, s1, s2, s3 = c[0], c[1], c[2], c[3]
	}
	for kk, x := range a {
		bb := b[kk*nr : kk*nr+4]
		t0 := x - bb[0]
		s0 = featmapDenseFMA(-t0, t0, s0)
		t1 := x - bb[1]
		s1 = featmapDenseFMA(-t1, t1, s1)
		t2 := x - bb[2]
		s2 = featmapDenseFMA(-t2, t2, s2)
		t3 := x - bb[3]
		s3 = featmapDenseFMA(-t3, t3, s3)
	}
	c[0], c[1], c[2], c[3] = s0, s1, s2, s3
}

// featmapDenseNegSqDist32 sets C = −Σ_kk (a[i*lda+kk] − B[j][kk])² for i < rows and j < cols
// (minus the squared distances of A's rows to B's), or adds it to C with acc, B packed by featmapDensePack32
// as for featmapDenseMul32: each element one chain over kk in order,
// c = fma(−t, t, c) with t = a − b, the same on every path but for featmapDenseFMA32's rare double rounding. It panics if a slice is
// too short for its rows.
func featmapDenseNegSqDist32(c []float32, ldc int, a []float32, lda int, b []float32, pstride, rows, k, cols int, acc bool) {
	if !featmapDenseFits(len(c), ldc, len(a), lda, len(b), pstride, rows, k, cols, featmapDensePanel32) {
		panic(fmt.Sprintf("featmapDenseNegSqDist32: %d×%d against %d×%d into %d×%d: slices of %d, %d and %d with strides %d, %d and %d", rows, k, cols, k, rows, cols, len(a), len(b), len(c), lda, pstride, ldc))
	}
	if rows == 0 || cols == 0 {
		return
	}
	if k == 0 {
		if !acc {
			for i := range rows {
				clear(c[i*ldc : i*ldc+cols])
			}
		}
		return
	}
	if featmapDenseNegSqDist32Vec(c, ldc, a, lda, b, pstride, rows, k, cols, acc) {
		return
	}
	const nr = featmapDensePanel32
	for p := 0; p*nr < cols; p++ {
		bp := b[p*pstride : p*pstride+nr*k]
		w := min(nr, cols-p*nr)
		j := 0
		for ; j+4 <= w; j += 4 {
			for i := range rows {
				featmapDenseNegSqDist1x4Go32(c[i*ldc+p*nr+j:], a[i*lda:i*lda+k], bp[j:], acc)
			}
		}
		for ; j < w; j++ {
			for i := range rows {
				var s float32
				if acc {
					s = c[i*ldc+p*nr+j]
				}
				for kk, v := range a[i*lda : i*lda+k] {
					t := v - bp[kk*nr+j]
					s = featmapDenseFMA32(-t, t, s)
				}
				c[i*ldc+p*nr+j] = s
			}
		}
	}
}

// featmapDenseNegSqDist1x4Go32 is one row of four columns of
// featmapDenseNegSqDist32 in Go.
func featmapDenseNegSqDist1x4Go32(c []float32, a []float32, b []float32, acc bool) {
	const nr = featmapDensePanel32
	c = c[:4]
	var s0, s1, s2, s3 float32
	if acc {
		s0, s1, s2, s3 = c[0], c[1], c[2], c[3]
	}
	for kk, x := range a {
		bb := b[kk*nr : kk*nr+4]
		t0 := x - bb[0]
		s0 = featmapDenseFMA32(-t0, t0, s0)
		t1 := x - bb[1]
		s1 = featmapDenseFMA32(-t1, t1, s1)
		t2 := x - bb[2]
		s2 = featmapDenseFMA32(-t2, t2, s2)
		t3 := x - bb[3]
		s3 = featmapDenseFMA32(-t3, t3, s3)
	}
	c[0], c[1], c[2], c[3] = s0, s1, s2, s3
}

// featmapDenseMatern64 sets dst[j] to the Matérn kernel of smoothness nu
// (½, 3/2 or 5/2) at the squared scaled distance d2[j] (clamped at 0):
// with r = √d² and a = c·r (c = 1, √3, √5), e^{−a}, (1 + a)·e^{−a} or
// (1 + a + a²/3)·e^{−a}, as fmap.MaternOf writes them, e^{−a} by
// featmapDenseExp64. dst may be d2 itself but must not overlap it
// otherwise.
func featmapDenseMatern64(dst, d2 []float64, nu float64) {
	dst = dst[:len(d2)]
	c := 1.0
	switch nu {
	case 1.5:
		c = math.Sqrt(3)
	case 2.5:
		c = math.Sqrt(5)
	}
	// a is kept in dst until the exponentials replace it; the factor
	// needs a again, from d2 (or from dst's copy when dst is d2).
	for j, v := range d2 {
		dst[j] = c * math.Sqrt(max(v, 0))
	}
	if nu == 0.5 {
		for j, a := range dst {
			dst[j] = -a
		}
		featmapDenseExp64(dst, dst)
		return
	}
	const chunk = 64
	var a [chunk]float64
	for j0 := 0; j0 < len(dst); j0 += chunk {
		part := dst[j0:min(j0+chunk, len(dst))]
		for j, v := range part {
			a[j] = v
			part[j] = -v
		}
		featmapDenseExp64(part, part)
		for j := range part {
			if nu == 1.5 {
				part[j] *= 1 + a[j]
			} else {
				part[j] *= 1 + a[j] + a[j]*a[j]/3
			}
		}
	}
}

// featmapDensePoly64 sets dst[j] = (scale·g[j] + offset)^degree, the
// polynomial kernel of the dot products g (fmap.PowInt's degree − 1
// multiplications in order). dst may be g itself.
func featmapDensePoly64(dst, g []float64, scale, offset float64, degree int) {
	dst = dst[:len(g)]
	for j, v := range g {
		b := float64(scale*v) + offset
		p := b
		for range degree - 1 {
			p *= b
		}
		dst[j] = p
	}
}

// featmapDenseMatern32 is featmapDenseMatern64 in float32: r = √d² the
// float64 square root of the float32 d² (clamped at 0), rounded (the
// correctly rounded float32 square root), a = c·r with c rounded to
// float32 and taken at most 104, where e^{−a} is below half of float32's
// least subnormal (so the factors stay finite), e^{−a} by
// featmapDenseExp32. dst may be d2 itself but must not overlap it
// otherwise.
func featmapDenseMatern32(dst, d2 []float32, nu float64) {
	dst = dst[:len(d2)]
	c := float32(1)
	switch nu {
	case 1.5:
		c = float32(math.Sqrt(3))
	case 2.5:
		c = float32(math.Sqrt(5))
	}
	// Comparisons rather than min and max, which order ±0 and NaN at a
	// cost; a NaN d² stays NaN.
	for j, v := range d2 {
		if v < 0 {
			v = 0
		}
		a := c * float32(math.Sqrt(float64(v)))
		if a > 104 {
			a = 104
		}
		dst[j] = a
	}
	if nu == 0.5 {
		for j, a := range dst {
			dst[j] = -a
		}
		featmapDenseExp32(dst, dst)
		return
	}
	const chunk = 64
	var a [chunk]float32
	for j0 := 0; j0 < len(dst); j0 += chunk {
		part := dst[j0:min(j0+chunk, len(dst))]
		for j, v := range part {
			a[j] = v
			part[j] = -v
		}
		featmapDenseExp32(part, part)
		if nu == 1.5 {
			for j, v := range a[:len(part)] {
				part[j] *= 1 + v
			}
			continue
		}
		for j, v := range a[:len(part)] {
			part[j] *= 1 + v + v*v/3
		}
	}
}

// featmapDensePoly32 is featmapDensePoly64 in float32: dst[j] =
// (scale·g[j] + offset)^degree, the product and the sum each rounded,
// then degree − 1 multiplications in order. dst may be g itself.
func featmapDensePoly32(dst, g []float32, scale, offset float32, degree int) {
	dst = dst[:len(g)]
	for j, v := range g {
		b := float32(scale*v) + offset
		p := b
		for range degree - 1 {
			p *= b
		}
		dst[j] = p
	}
}
