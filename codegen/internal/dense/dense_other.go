//go:build !amd64

package dense

// featmapDenseMul64Vec reports that there is no assembly off amd64: the
// tiled Go of dense.go computes the products.
func featmapDenseMul64Vec(c []float64, ldc int, a []float64, lda int, b []float64, pstride, rows, k, cols int, acc bool) bool {
	return false
}

// featmapDenseMul32Vec: see featmapDenseMul64Vec.
func featmapDenseMul32Vec(c []float32, ldc int, a []float32, lda int, b []float32, pstride, rows, k, cols int, acc bool) bool {
	return false
}

// The elementwise functions have no assembly off amd64 either.

func featmapDenseCosSin64Vec(dst, p []float64, s float64) (ok, bad bool) { return false, false }

func featmapDenseCos64Vec(dst, p, b []float64, s float64) (ok, bad bool) { return false, false }

func featmapDenseExp64Vec(dst, x []float64) bool { return false }

func featmapDenseExpDist64Vec(dst, g, nl []float64, q float64) bool { return false }

func featmapDenseCosSin32Vec(dst, p []float32, s float32) (ok, bad bool) { return false, false }

func featmapDenseCos32Vec(dst, p, b []float32, s float32) (ok, bad bool) { return false, false }

func featmapDenseExp32Vec(dst, x []float32) bool { return false }

func featmapDenseExpDist32Vec(dst, g, nl []float32, q float32) bool { return false }

// The distance products have no assembly off amd64 either.

func featmapDenseNegL1Dist64Vec(c []float64, ldc int, a []float64, lda int, b []float64, pstride, rows, k, cols int, acc bool) bool {
	return false
}

func featmapDenseNegL1Dist32Vec(c []float32, ldc int, a []float32, lda int, b []float32, pstride, rows, k, cols int, acc bool) bool {
	return false
}

func featmapDenseNegSqDist64Vec(c []float64, ldc int, a []float64, lda int, b []float64, pstride, rows, k, cols int, acc bool) bool {
	return false
}

func featmapDenseNegSqDist32Vec(c []float32, ldc int, a []float32, lda int, b []float32, pstride, rows, k, cols int, acc bool) bool {
	return false
}
