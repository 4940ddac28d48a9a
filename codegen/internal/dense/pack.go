package dense

// What codegen needs of this package at generation time: the packed
// layout of the constant matrices it writes for the emitted code. This
// file is not copied into the emitted package.

// Panel64 and Panel32 are the columns of a packed panel of float64 and of
// float32: the panel stride of an m×k matrix is Panel64·k (Panel32·k).
const (
	Panel64 = featmapDensePanel64
	Panel32 = featmapDensePanel32
)

// Packed64 is the length of an m×k matrix packed in float64 panels, as the
// emitted code packs its constants at init (featmapDensePack64).
func Packed64(m, k int) int { return featmapDensePacked64(m, k) }

// Packed32 is the length of an m×k matrix packed by Pack32.
func Packed32(m, k int) int { return featmapDensePacked32(m, k) }

// Pack32 packs the m×k row-major matrix w, rounded to float32, into dst
// (Packed32(m, k) numbers) as the emitted float32 products read it: panel
// p holds rows 32p to 32p + 31 of w, k steps of 32 numbers, zeros beyond
// row m (the float64 panels hold 16 rows the same way).
func Pack32(dst []float32, w []float64, m, k int) { featmapDensePack32(dst, w, m, k) }

// Features32 computes random Fourier features of one row in float32 as
// the emitted float32 functions do, so that gen can measure that path's
// error: the phases p = W·x by Mul32 against w packed by Pack32 (m
// frequencies of k inputs), then s·[cos p, sin p] interleaved into dst (2m
// numbers), or with b (m phases) s·cos(p + b) into dst (m numbers).
func Features32(dst, x, packed, b []float32, m, k int, s float32) {
	p := make([]float32, m)
	featmapDenseMul32(p, m, x, k, packed, featmapDensePanel32*k, 1, k, m, false)
	if b != nil {
		featmapDenseCos32(dst, p, b, s)
		return
	}
	featmapDenseCosSin32(dst, p, s)
}

// Nystroem32 computes the components of one row of a dense Nyström map of
// the RBF kernel in float32 as the emitted float32 functions do, so that
// gen can measure that path's error: g = t·lp by Mul32 (m landmarks of k
// inputs, the scaled landmarks packed by Pack32), the kernel values
// e^{−max(0, q + nl − g)} by ExpDist32, then their product with the d×m
// projection pp (packed by Pack32) into dst (d numbers).
func Nystroem32(dst, t []float32, q float32, lp, nl, pp []float32, m, k, d int) {
	kv := make([]float32, m)
	featmapDenseMul32(kv, m, t, k, lp, featmapDensePanel32*k, 1, k, m, false)
	featmapDenseExpDist32(kv, kv, nl, q)
	featmapDenseMul32(dst, d, kv, m, pp, featmapDensePanel32*m, 1, m, d, false)
}

// Project32 computes the product of one row z (k numbers) with the d×k
// matrix pp packed by Pack32 into dst (d numbers), as the emitted float32
// projection of an rf-pca map does.
func Project32(dst, z, pp []float32, k, d int) {
	featmapDenseMul32(dst, d, z, k, pp, featmapDensePanel32*k, 1, k, d, false)
}

// Laplacian32 computes the components of one row of a dense Nyström map
// of the Laplacian kernel in float32 as the emitted float32 functions do,
// so that gen can measure that path's error: minus the L1 distances of t
// to the m scaled landmarks of k inputs (lp, packed by Pack32) by
// NegL1Dist32, the kernel values by Exp32, then their product with the
// d×m projection pp (packed by Pack32) into dst (d numbers).
func Laplacian32(dst, t, lp, pp []float32, m, k, d int) {
	kv := make([]float32, m)
	featmapDenseNegL1Dist32(kv, m, t, k, lp, featmapDensePanel32*k, 1, k, m, false)
	featmapDenseExp32(kv, kv)
	featmapDenseMul32(dst, d, kv, m, pp, featmapDensePanel32*m, 1, m, d, false)
}

// Matern32 computes the components of one row of a dense Nyström map of
// the Matérn kernel of smoothness nu in float32 as the emitted float32
// functions do, so that gen can measure that path's error: minus the
// squared distances of t to the m scaled landmarks of k inputs (lp,
// packed by Pack32) by NegSqDist32, negated, the kernel values by
// Matern32, then their product with the d×m projection pp (packed by
// Pack32) into dst (d numbers).
func Matern32(dst, t, lp, pp []float32, m, k, d int, nu float64) {
	kv := make([]float32, m)
	featmapDenseNegSqDist32(kv, m, t, k, lp, featmapDensePanel32*k, 1, k, m, false)
	for j, v := range kv {
		kv[j] = -v
	}
	featmapDenseMatern32(kv, kv, nu)
	featmapDenseMul32(dst, d, kv, m, pp, featmapDensePanel32*m, 1, m, d, false)
}

// Poly32 computes the components of one row of a dense Nyström map of the
// polynomial kernel in float32 as the emitted float32 functions do, so
// that gen can measure that path's error: the dot products of x with the
// m landmarks of k inputs (lp, packed by Pack32) by Mul32, the kernel
// values (scale·g + offset)^degree by Poly32, then their product with the
// d×m projection pp (packed by Pack32) into dst (d numbers).
func Poly32(dst, x, lp, pp []float32, m, k, d int, scale, offset float32, degree int) {
	kv := make([]float32, m)
	featmapDenseMul32(kv, m, x, k, lp, featmapDensePanel32*k, 1, k, m, false)
	featmapDensePoly32(kv, kv, scale, offset, degree)
	featmapDenseMul32(dst, d, kv, m, pp, featmapDensePanel32*m, 1, m, d, false)
}
