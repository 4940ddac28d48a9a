package dense

import (
	"fmt"
	"math"
)

const (
	// featmapDensePanel64 and featmapDensePanel32 are the columns of a
	// packed panel: 16 float64 or 32 float32, 128 bytes per k step.
	featmapDensePanel64 = 16
	featmapDensePanel32 = 32
	// featmapDenseKC is the chunk of k a tile of rows takes at a time, so
	// that the tile's chunk of A (12 rows of 256 float64, 24 KiB) stays
	// in the first-level data cache while every panel passes.
	featmapDenseKC = 256
)

// featmapDensePacked64 is the length of an m×k matrix packed by
// featmapDensePack64: ⌈m/16⌉ panels of 16·k.
func featmapDensePacked64(m, k int) int {
	return (m + featmapDensePanel64 - 1) / featmapDensePanel64 * featmapDensePanel64 * k
}

// featmapDensePacked32 is the length of an m×k matrix packed by
// featmapDensePack32: ⌈m/32⌉ panels of 32·k.
func featmapDensePacked32(m, k int) int {
	return (m + featmapDensePanel32 - 1) / featmapDensePanel32 * featmapDensePanel32 * k
}

// featmapDensePack64 packs the m×k row-major matrix w (row j at
// w[j*k:(j+1)*k]) as B for featmapDenseMul64: panel p holds rows 16p to
// 16p + 15, k steps of 16 numbers, dst[p*16*k + kk*16 + jj] = w[(16p +
// jj)*k + kk], and zeros beyond row m. The panel stride is 16·k.
func featmapDensePack64(dst, w []float64, m, k int) {
	const nr = featmapDensePanel64
	dst = dst[:featmapDensePacked64(m, k)]
	clear(dst)
	for j := range m {
		p, jj := j/nr, j%nr
		for kk, v := range w[j*k : (j+1)*k] {
			dst[p*nr*k+kk*nr+jj] = v
		}
	}
}

// featmapDensePack32 packs the m×k row-major matrix w as
// featmapDensePack64 does, in panels of 32 and rounded to float32. The
// panel stride is 32·k.
func featmapDensePack32(dst []float32, w []float64, m, k int) {
	const nr = featmapDensePanel32
	dst = dst[:featmapDensePacked32(m, k)]
	clear(dst)
	for j := range m {
		p, jj := j/nr, j%nr
		for kk, v := range w[j*k : (j+1)*k] {
			dst[p*nr*k+kk*nr+jj] = float32(v)
		}
	}
}

// featmapDenseMul64 sets C = A·Bᵀ, or adds A·Bᵀ to C with acc: for i <
// rows and j < cols, c[i*ldc+j] = Σ_{kk<k} a[i*lda+kk]·B[j][kk], B packed
// by featmapDensePack64 (panel p at b[p*pstride:]; a slice b[kk0*16:] of
// a packed matrix, with the packed stride, is B's columns kk0 and on).
// Each element is one sum in the order of kk, from 0 or from C's value,
// the same for every row of a call however many rows it has. Nothing else
// of c is written. It panics if a slice is too short for its rows.
func featmapDenseMul64(c []float64, ldc int, a []float64, lda int, b []float64, pstride, rows, k, cols int, acc bool) {
	if !featmapDenseFits(len(c), ldc, len(a), lda, len(b), pstride, rows, k, cols, featmapDensePanel64) {
		panic(fmt.Sprintf("featmapDenseMul64: %d×%d times %d×%d into %d×%d: slices of %d, %d and %d with strides %d, %d and %d", rows, k, k, cols, rows, cols, len(a), len(b), len(c), lda, pstride, ldc))
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
	if featmapDenseMul64Vec(c, ldc, a, lda, b, pstride, rows, k, cols, acc) {
		return
	}
	featmapDenseMul64Go(c, ldc, a, lda, b, pstride, rows, k, cols, acc)
}

// featmapDenseMul32 is featmapDenseMul64 in float32, B packed by
// featmapDensePack32 (panels of 32).
func featmapDenseMul32(c []float32, ldc int, a []float32, lda int, b []float32, pstride, rows, k, cols int, acc bool) {
	if !featmapDenseFits(len(c), ldc, len(a), lda, len(b), pstride, rows, k, cols, featmapDensePanel32) {
		panic(fmt.Sprintf("featmapDenseMul32: %d×%d times %d×%d into %d×%d: slices of %d, %d and %d with strides %d, %d and %d", rows, k, k, cols, rows, cols, len(a), len(b), len(c), lda, pstride, ldc))
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
	if featmapDenseMul32Vec(c, ldc, a, lda, b, pstride, rows, k, cols, acc) {
		return
	}
	featmapDenseMul32Go(c, ldc, a, lda, b, pstride, rows, k, cols, acc)
}

// featmapDenseFits reports whether slices of these lengths hold the rows
// a product reads and writes, the kernels' only bounds check.
func featmapDenseFits(lc, ldc, la, lda, lb, pstride, rows, k, cols, nr int) bool {
	if rows < 0 || k < 0 || cols < 0 {
		return false
	}
	if rows == 0 || cols == 0 {
		return true
	}
	panels := (cols + nr - 1) / nr
	return ldc >= cols && lc >= (rows-1)*ldc+cols &&
		lda >= k && la >= (rows-1)*lda+k &&
		pstride >= nr*k && lb >= (panels-1)*pstride+nr*k
}

// featmapDenseMul64Go is featmapDenseMul64 in Go: tiles of 4 rows by 4
// columns, sixteen sums held in registers over the whole of k, then the
// rows and columns left one at a time. Every element is one chain
// s = featmapDenseFMA(a, b, s) in the order of kk: the assembly's bits
// where featmapDenseFMA fuses.
func featmapDenseMul64Go(c []float64, ldc int, a []float64, lda int, b []float64, pstride, rows, k, cols int, acc bool) {
	const nr = featmapDensePanel64
	for p := 0; p*nr < cols; p++ {
		bp := b[p*pstride : p*pstride+nr*k]
		w := min(nr, cols-p*nr)
		j := 0
		for ; j+4 <= w; j += 4 {
			i := 0
			for ; i+4 <= rows; i += 4 {
				featmapDense4x4Go64(c[i*ldc+p*nr+j:], ldc, a[i*lda:], lda, bp[j:], k, acc)
			}
			for ; i < rows; i++ {
				featmapDense1x4Go64(c[i*ldc+p*nr+j:], a[i*lda:i*lda+k], bp[j:], acc)
			}
		}
		for ; j < w; j++ {
			for i := range rows {
				s := 0.0
				if acc {
					s = c[i*ldc+p*nr+j]
				}
				for kk, v := range a[i*lda : i*lda+k] {
					s = featmapDenseFMA(v, bp[kk*nr+j], s)
				}
				c[i*ldc+p*nr+j] = s
			}
		}
	}
}

// featmapDense4x4Go64 is one 4×4 tile of featmapDenseMul64Go: rows
// a[0:], a[lda:], a[2*lda:], a[3*lda:] against columns b[0:4] of the
// panel's k steps (stride 16).
func featmapDense4x4Go64(c []float64, ldc int, a []float64, lda int, b []float64, k int, acc bool) {
	const nr = featmapDensePanel64
	a0 := a[:k]
	a1, a2, a3 := a[lda:][:len(a0)], a[2*lda:][:len(a0)], a[3*lda:][:len(a0)]
	c0, c1, c2, c3 := c[:4], c[ldc:ldc+4], c[2*ldc:2*ldc+4], c[3*ldc:3*ldc+4]
	var s00, s01, s02, s03, s10, s11, s12, s13, s20, s21, s22, s23, s30, s31, s32, s33 float64
	if acc {
		s00, s01, s02, s03 = c0[0], c0[1], c0[2], c0[3]
		s10, s11, s12, s13 = c1[0], c1[1], c1[2], c1[3]
		s20, s21, s22, s23 = c2[0], c2[1], c2[2], c2[3]
		s30, s31, s32, s33 = c3[0], c3[1], c3[2], c3[3]
	}
	for kk := range a0 {
		bb := b[kk*nr : kk*nr+4]
		b0, b1, b2, b3 := bb[0], bb[1], bb[2], bb[3]
		x := a0[kk]
		s00 = featmapDenseFMA(x, b0, s00)
		s01 = featmapDenseFMA(x, b1, s01)
		s02 = featmapDenseFMA(x, b2, s02)
		s03 = featmapDenseFMA(x, b3, s03)
		x = a1[kk]
		s10 = featmapDenseFMA(x, b0, s10)
		s11 = featmapDenseFMA(x, b1, s11)
		s12 = featmapDenseFMA(x, b2, s12)
		s13 = featmapDenseFMA(x, b3, s13)
		x = a2[kk]
		s20 = featmapDenseFMA(x, b0, s20)
		s21 = featmapDenseFMA(x, b1, s21)
		s22 = featmapDenseFMA(x, b2, s22)
		s23 = featmapDenseFMA(x, b3, s23)
		x = a3[kk]
		s30 = featmapDenseFMA(x, b0, s30)
		s31 = featmapDenseFMA(x, b1, s31)
		s32 = featmapDenseFMA(x, b2, s32)
		s33 = featmapDenseFMA(x, b3, s33)
	}
	c0[0], c0[1], c0[2], c0[3] = s00, s01, s02, s03
	c1[0], c1[1], c1[2], c1[3] = s10, s11, s12, s13
	c2[0], c2[1], c2[2], c2[3] = s20, s21, s22, s23
	c3[0], c3[1], c3[2], c3[3] = s30, s31, s32, s33
}

// featmapDense1x4Go64 is one row of four columns of featmapDenseMul64Go.
func featmapDense1x4Go64(c []float64, a []float64, b []float64, acc bool) {
	const nr = featmapDensePanel64
	c = c[:4]
	var s0, s1, s2, s3 float64
	if acc {
		s0, s1, s2, s3 = c[0], c[1], c[2], c[3]
	}
	for kk, x := range a {
		bb := b[kk*nr : kk*nr+4]
		s0 = featmapDenseFMA(x, bb[0], s0)
		s1 = featmapDenseFMA(x, bb[1], s1)
		s2 = featmapDenseFMA(x, bb[2], s2)
		s3 = featmapDenseFMA(x, bb[3], s3)
	}
	c[0], c[1], c[2], c[3] = s0, s1, s2, s3
}

// featmapDenseMul32Go is featmapDenseMul64Go in float32 (panels of 32).
func featmapDenseMul32Go(c []float32, ldc int, a []float32, lda int, b []float32, pstride, rows, k, cols int, acc bool) {
	const nr = featmapDensePanel32
	for p := 0; p*nr < cols; p++ {
		bp := b[p*pstride : p*pstride+nr*k]
		w := min(nr, cols-p*nr)
		j := 0
		for ; j+4 <= w; j += 4 {
			i := 0
			for ; i+4 <= rows; i += 4 {
				featmapDense4x4Go32(c[i*ldc+p*nr+j:], ldc, a[i*lda:], lda, bp[j:], k, acc)
			}
			for ; i < rows; i++ {
				featmapDense1x4Go32(c[i*ldc+p*nr+j:], a[i*lda:i*lda+k], bp[j:], acc)
			}
		}
		for ; j < w; j++ {
			for i := range rows {
				var s float32
				if acc {
					s = c[i*ldc+p*nr+j]
				}
				for kk, v := range a[i*lda : i*lda+k] {
					s += v * bp[kk*nr+j]
				}
				c[i*ldc+p*nr+j] = s
			}
		}
	}
}

// featmapDense4x4Go32 is featmapDense4x4Go64 in float32.
func featmapDense4x4Go32(c []float32, ldc int, a []float32, lda int, b []float32, k int, acc bool) {
	const nr = featmapDensePanel32
	a0 := a[:k]
	a1, a2, a3 := a[lda:][:len(a0)], a[2*lda:][:len(a0)], a[3*lda:][:len(a0)]
	c0, c1, c2, c3 := c[:4], c[ldc:ldc+4], c[2*ldc:2*ldc+4], c[3*ldc:3*ldc+4]
	var s00, s01, s02, s03, s10, s11, s12, s13, s20, s21, s22, s23, s30, s31, s32, s33 float32
	if acc {
		s00, s01, s02, s03 = c0[0], c0[1], c0[2], c0[3]
		s10, s11, s12, s13 = c1[0], c1[1], c1[2], c1[3]
		s20, s21, s22, s23 = c2[0], c2[1], c2[2], c2[3]
		s30, s31, s32, s33 = c3[0], c3[1], c3[2], c3[3]
	}
	for kk := range a0 {
		bb := b[kk*nr : kk*nr+4]
		b0, b1, b2, b3 := bb[0], bb[1], bb[2], bb[3]
		x := a0[kk]
		s00 += x * b0
		s01 += x * b1
		s02 += x * b2
		s03 += x * b3
		x = a1[kk]
		s10 += x * b0
		s11 += x * b1
		s12 += x * b2
		s13 += x * b3
		x = a2[kk]
		s20 += x * b0
		s21 += x * b1
		s22 += x * b2
		s23 += x * b3
		x = a3[kk]
		s30 += x * b0
		s31 += x * b1
		s32 += x * b2
		s33 += x * b3
	}
	c0[0], c0[1], c0[2], c0[3] = s00, s01, s02, s03
	c1[0], c1[1], c1[2], c1[3] = s10, s11, s12, s13
	c2[0], c2[1], c2[2], c2[3] = s20, s21, s22, s23
	c3[0], c3[1], c3[2], c3[3] = s30, s31, s32, s33
}

// featmapDense1x4Go32 is featmapDense1x4Go64 in float32.
func featmapDense1x4Go32(c []float32, a []float32, b []float32, acc bool) {
	const nr = featmapDensePanel32
	c = c[:4]
	var s0, s1, s2, s3 float32
	if acc {
		s0, s1, s2, s3 = c[0], c[1], c[2], c[3]
	}
	for kk, x := range a {
		bb := b[kk*nr : kk*nr+4]
		s0 += x * bb[0]
		s1 += x * bb[1]
		s2 += x * bb[2]
		s3 += x * bb[3]
	}
	c[0], c[1], c[2], c[3] = s0, s1, s2, s3
}

// featmapDenseBeyond64 reports whether some |x[i]| exceeds limit or is
// NaN: the rows a map's fast path leaves to its exact one. It compares
// the bits of |x[i]| as integers, which order them as the numbers (NaN
// above +Inf), four at a time.
func featmapDenseBeyond64(x []float64, limit float64) bool {
	const abs = 1<<63 - 1
	var m0, m1, m2, m3 uint64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		v := x[i : i+4 : i+4]
		m0 = max(m0, math.Float64bits(v[0])&abs)
		m1 = max(m1, math.Float64bits(v[1])&abs)
		m2 = max(m2, math.Float64bits(v[2])&abs)
		m3 = max(m3, math.Float64bits(v[3])&abs)
	}
	for ; i < len(x); i++ {
		m0 = max(m0, math.Float64bits(x[i])&abs)
	}
	return max(m0, m1, m2, m3) > math.Float64bits(limit)
}

// featmapDenseBeyond32 is featmapDenseBeyond64 in float32.
func featmapDenseBeyond32(x []float32, limit float32) bool {
	const abs = 1<<31 - 1
	var m0, m1, m2, m3 uint32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		v := x[i : i+4 : i+4]
		m0 = max(m0, math.Float32bits(v[0])&abs)
		m1 = max(m1, math.Float32bits(v[1])&abs)
		m2 = max(m2, math.Float32bits(v[2])&abs)
		m3 = max(m3, math.Float32bits(v[3])&abs)
	}
	for ; i < len(x); i++ {
		m0 = max(m0, math.Float32bits(x[i])&abs)
	}
	return max(m0, m1, m2, m3) > math.Float32bits(limit)
}
