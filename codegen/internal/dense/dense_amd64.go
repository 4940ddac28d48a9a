package dense

// The processor's vector units, read once at init: featmapDenseAVX2 that
// it has AVX2 and FMA and the operating system saves the AVX registers,
// featmapDenseAVX512 that it also has AVX-512F and the operating system
// saves the opmask and ZMM registers. Tests turn them off to run the
// other paths; nothing else writes them.
var featmapDenseAVX2, featmapDenseAVX512 = featmapDenseCPU()

// featmapDenseCPU reads CPUID and XGETBV.
func featmapDenseCPU() (avx2, avx512 bool) {
	max, _, _, _ := featmapDenseCPUID(0, 0)
	if max < 7 {
		return false, false
	}
	_, _, c1, _ := featmapDenseCPUID(1, 0)
	const fma, osxsave, avx = 1 << 12, 1 << 27, 1 << 28
	if c1&(fma|osxsave|avx) != fma|osxsave|avx {
		return false, false
	}
	xcr0 := featmapDenseXGETBV()
	if xcr0&6 != 6 { // XMM and YMM state
		return false, false
	}
	_, b7, _, _ := featmapDenseCPUID(7, 0)
	avx2 = b7&(1<<5) != 0
	avx512 = avx2 && b7&(1<<16) != 0 && xcr0&0xe0 == 0xe0 // AVX-512F; opmask, ZMM_Hi256, Hi16_ZMM state
	return avx2, avx512
}

func featmapDenseCPUID(leaf, sub uint32) (a, b, c, d uint32)

func featmapDenseXGETBV() uint32

// The product kernels (dense_gemm_amd64.s): featmapDenseTile64Z and
// featmapDenseTile32Z compute 12 rows of C, featmapDenseTile64Y and
// featmapDenseTile32Y 6 rows, the Row kernels one, all over every panel
// of B up to cols; see featmapDenseMul64.

//go:noescape
func featmapDenseTile64Z(c *float64, ldc int, a *float64, lda int, b *float64, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseTile32Z(c *float32, ldc int, a *float32, lda int, b *float32, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseTile64Y(c *float64, ldc int, a *float64, lda int, b *float64, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseTile32Y(c *float32, ldc int, a *float32, lda int, b *float32, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseRow64Z(c *float64, a *float64, b *float64, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseRow32Z(c *float32, a *float32, b *float32, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseRow64Y(c *float64, a *float64, b *float64, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseRow32Y(c *float32, a *float32, b *float32, pstride, k, cols int, acc bool)

// featmapDenseMul64Vec is featmapDenseMul64 in the assembly, reporting
// false where the processor has none of it. The tiles take k in chunks
// of featmapDenseKC (the chunk of A stays in the first-level cache while
// the panels pass), continuing each chain with acc; the rows after the
// last whole tile take the one-row kernel.
func featmapDenseMul64Vec(c []float64, ldc int, a []float64, lda int, b []float64, pstride, rows, k, cols int, acc bool) bool {
	tile := 0
	switch {
	case featmapDenseAVX512:
		tile = 12
	case featmapDenseAVX2:
		tile = 6
	default:
		return false
	}
	i := 0
	for ; i+tile <= rows; i += tile {
		for k0 := 0; k0 < k; k0 += featmapDenseKC {
			kc := min(featmapDenseKC, k-k0)
			if tile == 12 {
				featmapDenseTile64Z(&c[i*ldc], ldc, &a[i*lda+k0], lda, &b[k0*featmapDensePanel64], pstride, kc, cols, acc || k0 > 0)
			} else {
				featmapDenseTile64Y(&c[i*ldc], ldc, &a[i*lda+k0], lda, &b[k0*featmapDensePanel64], pstride, kc, cols, acc || k0 > 0)
			}
		}
	}
	for ; i < rows; i++ {
		if tile == 12 {
			featmapDenseRow64Z(&c[i*ldc], &a[i*lda], &b[0], pstride, k, cols, acc)
		} else {
			featmapDenseRow64Y(&c[i*ldc], &a[i*lda], &b[0], pstride, k, cols, acc)
		}
	}
	return true
}

// featmapDenseMul32Vec is featmapDenseMul32 in the assembly (see
// featmapDenseMul64Vec).
func featmapDenseMul32Vec(c []float32, ldc int, a []float32, lda int, b []float32, pstride, rows, k, cols int, acc bool) bool {
	tile := 0
	switch {
	case featmapDenseAVX512:
		tile = 12
	case featmapDenseAVX2:
		tile = 6
	default:
		return false
	}
	i := 0
	for ; i+tile <= rows; i += tile {
		for k0 := 0; k0 < k; k0 += featmapDenseKC {
			kc := min(featmapDenseKC, k-k0)
			if tile == 12 {
				featmapDenseTile32Z(&c[i*ldc], ldc, &a[i*lda+k0], lda, &b[k0*featmapDensePanel32], pstride, kc, cols, acc || k0 > 0)
			} else {
				featmapDenseTile32Y(&c[i*ldc], ldc, &a[i*lda+k0], lda, &b[k0*featmapDensePanel32], pstride, kc, cols, acc || k0 > 0)
			}
		}
	}
	for ; i < rows; i++ {
		if tile == 12 {
			featmapDenseRow32Z(&c[i*ldc], &a[i*lda], &b[0], pstride, k, cols, acc)
		} else {
			featmapDenseRow32Y(&c[i*ldc], &a[i*lda], &b[0], pstride, k, cols, acc)
		}
	}
	return true
}

// The elementwise kernels (dense_math_amd64.s), four or eight lanes at a
// time (Y: AVX2) or eight or sixteen (Z: AVX-512); n is a multiple of
// the lanes. The trigonometric ones report whether they left a lane to
// the Go code (|x| at or beyond the limit, ±Inf, NaN).

//go:noescape
func featmapDenseCosSin64Y(dst, p *float64, n int, s float64) (bad bool)

//go:noescape
func featmapDenseCosSin64Z(dst, p *float64, n int, s float64) (bad bool)

//go:noescape
func featmapDenseCos64Y(dst, p, b *float64, n int, s float64) (bad bool)

//go:noescape
func featmapDenseCos64Z(dst, p, b *float64, n int, s float64) (bad bool)

//go:noescape
func featmapDenseExp64Y(dst, x *float64, n int)

//go:noescape
func featmapDenseExp64Z(dst, x *float64, n int)

//go:noescape
func featmapDenseExpDist64Y(dst, dot, nl *float64, n int, q float64)

//go:noescape
func featmapDenseExpDist64Z(dst, dot, nl *float64, n int, q float64)

//go:noescape
func featmapDenseCosSin32Y(dst, p *float32, n int, s float32) (bad bool)

//go:noescape
func featmapDenseCosSin32Z(dst, p *float32, n int, s float32) (bad bool)

//go:noescape
func featmapDenseCos32Y(dst, p, b *float32, n int, s float32) (bad bool)

//go:noescape
func featmapDenseCos32Z(dst, p, b *float32, n int, s float32) (bad bool)

//go:noescape
func featmapDenseExp32Y(dst, x *float32, n int)

//go:noescape
func featmapDenseExp32Z(dst, x *float32, n int)

//go:noescape
func featmapDenseExpDist32Y(dst, dot, nl *float32, n int, q float32)

//go:noescape
func featmapDenseExpDist32Z(dst, dot, nl *float32, n int, q float32)

// featmapDenseLanes is the float64 lanes of the widest path (8 with
// AVX-512, 4 with AVX2), 0 without assembly; float32 has twice as many.
func featmapDenseLanes() int {
	switch {
	case featmapDenseAVX512:
		return 8
	case featmapDenseAVX2:
		return 4
	}
	return 0
}

// featmapDenseCosSin64Vec is featmapDenseCosSin64 in the assembly (ok
// false without it), the last len(p) mod lanes phases in one more step
// padded with zeros; bad reports lanes left to the Go code.
func featmapDenseCosSin64Vec(dst, p []float64, s float64) (ok, bad bool) {
	l := featmapDenseLanes()
	if l == 0 {
		return false, false
	}
	n := len(p) &^ (l - 1)
	if n > 0 {
		if l == 8 {
			bad = featmapDenseCosSin64Z(&dst[0], &p[0], n, s)
		} else {
			bad = featmapDenseCosSin64Y(&dst[0], &p[0], n, s)
		}
	}
	if r := len(p) - n; r > 0 {
		var tp [8]float64
		var td [16]float64
		copy(tp[:], p[n:])
		if l == 8 {
			bad = featmapDenseCosSin64Z(&td[0], &tp[0], l, s) || bad
		} else {
			bad = featmapDenseCosSin64Y(&td[0], &tp[0], l, s) || bad
		}
		copy(dst[2*n:], td[:2*r])
	}
	return true, bad
}

// featmapDenseCos64Vec is featmapDenseCos64 in the assembly (see
// featmapDenseCosSin64Vec).
func featmapDenseCos64Vec(dst, p, b []float64, s float64) (ok, bad bool) {
	l := featmapDenseLanes()
	if l == 0 {
		return false, false
	}
	n := len(p) &^ (l - 1)
	if n > 0 {
		if l == 8 {
			bad = featmapDenseCos64Z(&dst[0], &p[0], &b[0], n, s)
		} else {
			bad = featmapDenseCos64Y(&dst[0], &p[0], &b[0], n, s)
		}
	}
	if r := len(p) - n; r > 0 {
		var tp, tb, td [8]float64
		copy(tp[:], p[n:])
		copy(tb[:], b[n:])
		if l == 8 {
			bad = featmapDenseCos64Z(&td[0], &tp[0], &tb[0], l, s) || bad
		} else {
			bad = featmapDenseCos64Y(&td[0], &tp[0], &tb[0], l, s) || bad
		}
		copy(dst[n:], td[:r])
	}
	return true, bad
}

// featmapDenseExp64Vec is featmapDenseExp64 in the assembly.
func featmapDenseExp64Vec(dst, x []float64) bool {
	l := featmapDenseLanes()
	if l == 0 {
		return false
	}
	n := len(x) &^ (l - 1)
	if n > 0 {
		if l == 8 {
			featmapDenseExp64Z(&dst[0], &x[0], n)
		} else {
			featmapDenseExp64Y(&dst[0], &x[0], n)
		}
	}
	if r := len(x) - n; r > 0 {
		var t [8]float64
		copy(t[:], x[n:])
		if l == 8 {
			featmapDenseExp64Z(&t[0], &t[0], l)
		} else {
			featmapDenseExp64Y(&t[0], &t[0], l)
		}
		copy(dst[n:], t[:r])
	}
	return true
}

// featmapDenseExpDist64Vec is featmapDenseExpDist64 in the assembly.
func featmapDenseExpDist64Vec(dst, g, nl []float64, q float64) bool {
	l := featmapDenseLanes()
	if l == 0 {
		return false
	}
	n := len(g) &^ (l - 1)
	if n > 0 {
		if l == 8 {
			featmapDenseExpDist64Z(&dst[0], &g[0], &nl[0], n, q)
		} else {
			featmapDenseExpDist64Y(&dst[0], &g[0], &nl[0], n, q)
		}
	}
	if r := len(g) - n; r > 0 {
		var tg, tn [8]float64
		copy(tg[:], g[n:])
		copy(tn[:], nl[n:])
		if l == 8 {
			featmapDenseExpDist64Z(&tg[0], &tg[0], &tn[0], l, q)
		} else {
			featmapDenseExpDist64Y(&tg[0], &tg[0], &tn[0], l, q)
		}
		copy(dst[n:], tg[:r])
	}
	return true
}

// featmapDenseCosSin32Vec is featmapDenseCosSin32 in the assembly.
func featmapDenseCosSin32Vec(dst, p []float32, s float32) (ok, bad bool) {
	l := 2 * featmapDenseLanes()
	if l == 0 {
		return false, false
	}
	n := len(p) &^ (l - 1)
	if n > 0 {
		if l == 16 {
			bad = featmapDenseCosSin32Z(&dst[0], &p[0], n, s)
		} else {
			bad = featmapDenseCosSin32Y(&dst[0], &p[0], n, s)
		}
	}
	if r := len(p) - n; r > 0 {
		var tp [16]float32
		var td [32]float32
		copy(tp[:], p[n:])
		if l == 16 {
			bad = featmapDenseCosSin32Z(&td[0], &tp[0], l, s) || bad
		} else {
			bad = featmapDenseCosSin32Y(&td[0], &tp[0], l, s) || bad
		}
		copy(dst[2*n:], td[:2*r])
	}
	return true, bad
}

// featmapDenseCos32Vec is featmapDenseCos32 in the assembly.
func featmapDenseCos32Vec(dst, p, b []float32, s float32) (ok, bad bool) {
	l := 2 * featmapDenseLanes()
	if l == 0 {
		return false, false
	}
	n := len(p) &^ (l - 1)
	if n > 0 {
		if l == 16 {
			bad = featmapDenseCos32Z(&dst[0], &p[0], &b[0], n, s)
		} else {
			bad = featmapDenseCos32Y(&dst[0], &p[0], &b[0], n, s)
		}
	}
	if r := len(p) - n; r > 0 {
		var tp, tb, td [16]float32
		copy(tp[:], p[n:])
		copy(tb[:], b[n:])
		if l == 16 {
			bad = featmapDenseCos32Z(&td[0], &tp[0], &tb[0], l, s) || bad
		} else {
			bad = featmapDenseCos32Y(&td[0], &tp[0], &tb[0], l, s) || bad
		}
		copy(dst[n:], td[:r])
	}
	return true, bad
}

// featmapDenseExp32Vec is featmapDenseExp32 in the assembly.
func featmapDenseExp32Vec(dst, x []float32) bool {
	l := 2 * featmapDenseLanes()
	if l == 0 {
		return false
	}
	n := len(x) &^ (l - 1)
	if n > 0 {
		if l == 16 {
			featmapDenseExp32Z(&dst[0], &x[0], n)
		} else {
			featmapDenseExp32Y(&dst[0], &x[0], n)
		}
	}
	if r := len(x) - n; r > 0 {
		var t [16]float32
		copy(t[:], x[n:])
		if l == 16 {
			featmapDenseExp32Z(&t[0], &t[0], l)
		} else {
			featmapDenseExp32Y(&t[0], &t[0], l)
		}
		copy(dst[n:], t[:r])
	}
	return true
}

// featmapDenseExpDist32Vec is featmapDenseExpDist32 in the assembly.
func featmapDenseExpDist32Vec(dst, g, nl []float32, q float32) bool {
	l := 2 * featmapDenseLanes()
	if l == 0 {
		return false
	}
	n := len(g) &^ (l - 1)
	if n > 0 {
		if l == 16 {
			featmapDenseExpDist32Z(&dst[0], &g[0], &nl[0], n, q)
		} else {
			featmapDenseExpDist32Y(&dst[0], &g[0], &nl[0], n, q)
		}
	}
	if r := len(g) - n; r > 0 {
		var tg, tn [16]float32
		copy(tg[:], g[n:])
		copy(tn[:], nl[n:])
		if l == 16 {
			featmapDenseExpDist32Z(&tg[0], &tg[0], &tn[0], l, q)
		} else {
			featmapDenseExpDist32Y(&tg[0], &tg[0], &tn[0], l, q)
		}
		copy(dst[n:], tg[:r])
	}
	return true
}

// The distance kernels (dense_dist_amd64.s): see featmapDenseMul64Vec.

//go:noescape
func featmapDenseL1Tile64Z(c *float64, ldc int, a *float64, lda int, b *float64, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseL1Tile64Y(c *float64, ldc int, a *float64, lda int, b *float64, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseL1Row64Z(c *float64, a *float64, b *float64, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseL1Row64Y(c *float64, a *float64, b *float64, pstride, k, cols int, acc bool)

// featmapDenseNegL1Dist64Vec is featmapDenseNegL1Dist64 in the assembly.
func featmapDenseNegL1Dist64Vec(c []float64, ldc int, a []float64, lda int, b []float64, pstride, rows, k, cols int, acc bool) bool {
	tile := 0
	switch {
	case featmapDenseAVX512:
		tile = 12
	case featmapDenseAVX2:
		tile = 6
	default:
		return false
	}
	i := 0
	for ; i+tile <= rows; i += tile {
		for k0 := 0; k0 < k; k0 += featmapDenseKC {
			kc := min(featmapDenseKC, k-k0)
			if tile == 12 {
				featmapDenseL1Tile64Z(&c[i*ldc], ldc, &a[i*lda+k0], lda, &b[k0*featmapDensePanel64], pstride, kc, cols, acc || k0 > 0)
			} else {
				featmapDenseL1Tile64Y(&c[i*ldc], ldc, &a[i*lda+k0], lda, &b[k0*featmapDensePanel64], pstride, kc, cols, acc || k0 > 0)
			}
		}
	}
	for ; i < rows; i++ {
		if tile == 12 {
			featmapDenseL1Row64Z(&c[i*ldc], &a[i*lda], &b[0], pstride, k, cols, acc)
		} else {
			featmapDenseL1Row64Y(&c[i*ldc], &a[i*lda], &b[0], pstride, k, cols, acc)
		}
	}
	return true
}

//go:noescape
func featmapDenseL1Tile32Z(c *float32, ldc int, a *float32, lda int, b *float32, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseL1Tile32Y(c *float32, ldc int, a *float32, lda int, b *float32, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseL1Row32Z(c *float32, a *float32, b *float32, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseL1Row32Y(c *float32, a *float32, b *float32, pstride, k, cols int, acc bool)

// featmapDenseNegL1Dist32Vec is featmapDenseNegL1Dist32 in the assembly.
func featmapDenseNegL1Dist32Vec(c []float32, ldc int, a []float32, lda int, b []float32, pstride, rows, k, cols int, acc bool) bool {
	tile := 0
	switch {
	case featmapDenseAVX512:
		tile = 12
	case featmapDenseAVX2:
		tile = 6
	default:
		return false
	}
	i := 0
	for ; i+tile <= rows; i += tile {
		for k0 := 0; k0 < k; k0 += featmapDenseKC {
			kc := min(featmapDenseKC, k-k0)
			if tile == 12 {
				featmapDenseL1Tile32Z(&c[i*ldc], ldc, &a[i*lda+k0], lda, &b[k0*featmapDensePanel32], pstride, kc, cols, acc || k0 > 0)
			} else {
				featmapDenseL1Tile32Y(&c[i*ldc], ldc, &a[i*lda+k0], lda, &b[k0*featmapDensePanel32], pstride, kc, cols, acc || k0 > 0)
			}
		}
	}
	for ; i < rows; i++ {
		if tile == 12 {
			featmapDenseL1Row32Z(&c[i*ldc], &a[i*lda], &b[0], pstride, k, cols, acc)
		} else {
			featmapDenseL1Row32Y(&c[i*ldc], &a[i*lda], &b[0], pstride, k, cols, acc)
		}
	}
	return true
}

//go:noescape
func featmapDenseL2Tile64Z(c *float64, ldc int, a *float64, lda int, b *float64, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseL2Tile64Y(c *float64, ldc int, a *float64, lda int, b *float64, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseL2Row64Z(c *float64, a *float64, b *float64, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseL2Row64Y(c *float64, a *float64, b *float64, pstride, k, cols int, acc bool)

// featmapDenseNegSqDist64Vec is featmapDenseNegSqDist64 in the assembly.
func featmapDenseNegSqDist64Vec(c []float64, ldc int, a []float64, lda int, b []float64, pstride, rows, k, cols int, acc bool) bool {
	tile := 0
	switch {
	case featmapDenseAVX512:
		tile = 12
	case featmapDenseAVX2:
		tile = 6
	default:
		return false
	}
	i := 0
	for ; i+tile <= rows; i += tile {
		for k0 := 0; k0 < k; k0 += featmapDenseKC {
			kc := min(featmapDenseKC, k-k0)
			if tile == 12 {
				featmapDenseL2Tile64Z(&c[i*ldc], ldc, &a[i*lda+k0], lda, &b[k0*featmapDensePanel64], pstride, kc, cols, acc || k0 > 0)
			} else {
				featmapDenseL2Tile64Y(&c[i*ldc], ldc, &a[i*lda+k0], lda, &b[k0*featmapDensePanel64], pstride, kc, cols, acc || k0 > 0)
			}
		}
	}
	for ; i < rows; i++ {
		if tile == 12 {
			featmapDenseL2Row64Z(&c[i*ldc], &a[i*lda], &b[0], pstride, k, cols, acc)
		} else {
			featmapDenseL2Row64Y(&c[i*ldc], &a[i*lda], &b[0], pstride, k, cols, acc)
		}
	}
	return true
}

//go:noescape
func featmapDenseL2Tile32Z(c *float32, ldc int, a *float32, lda int, b *float32, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseL2Tile32Y(c *float32, ldc int, a *float32, lda int, b *float32, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseL2Row32Z(c *float32, a *float32, b *float32, pstride, k, cols int, acc bool)

//go:noescape
func featmapDenseL2Row32Y(c *float32, a *float32, b *float32, pstride, k, cols int, acc bool)

// featmapDenseNegSqDist32Vec is featmapDenseNegSqDist32 in the assembly.
func featmapDenseNegSqDist32Vec(c []float32, ldc int, a []float32, lda int, b []float32, pstride, rows, k, cols int, acc bool) bool {
	tile := 0
	switch {
	case featmapDenseAVX512:
		tile = 12
	case featmapDenseAVX2:
		tile = 6
	default:
		return false
	}
	i := 0
	for ; i+tile <= rows; i += tile {
		for k0 := 0; k0 < k; k0 += featmapDenseKC {
			kc := min(featmapDenseKC, k-k0)
			if tile == 12 {
				featmapDenseL2Tile32Z(&c[i*ldc], ldc, &a[i*lda+k0], lda, &b[k0*featmapDensePanel32], pstride, kc, cols, acc || k0 > 0)
			} else {
				featmapDenseL2Tile32Y(&c[i*ldc], ldc, &a[i*lda+k0], lda, &b[k0*featmapDensePanel32], pstride, kc, cols, acc || k0 > 0)
			}
		}
	}
	for ; i < rows; i++ {
		if tile == 12 {
			featmapDenseL2Row32Z(&c[i*ldc], &a[i*lda], &b[0], pstride, k, cols, acc)
		} else {
			featmapDenseL2Row32Y(&c[i*ldc], &a[i*lda], &b[0], pstride, k, cols, acc)
		}
	}
	return true
}
