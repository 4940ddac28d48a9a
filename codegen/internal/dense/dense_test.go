package dense

import (
	"math"
	"math/rand/v2"
	"testing"
)

// randMat returns n normal numbers (a few of them 0, negative zero or
// large, so that signs and magnitudes vary).
func randMat(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64()
		switch rng.IntN(50) {
		case 0:
			x[i] = 0
		case 1:
			x[i] = math.Copysign(0, -1)
		case 2:
			x[i] *= 1e6
		}
	}
	return x
}

// refMul64 is C = A·Wᵀ (+ C0 with acc) as one sum per element in the
// order of k, fused (math.FMA) or not.
func refMul64(c0, a, w []float64, rows, k, cols, lda, ldc int, acc, fused bool) []float64 {
	c := append([]float64(nil), c0...)
	for i := range rows {
		for j := range cols {
			s := 0.0
			if acc {
				s = c[i*ldc+j]
			}
			for kk := range k {
				if fused {
					s = math.FMA(a[i*lda+kk], w[j*k+kk], s)
				} else {
					s += float64(a[i*lda+kk] * w[j*k+kk])
				}
			}
			c[i*ldc+j] = s
		}
	}
	return c
}

func refMul32(c0, a, w []float32, rows, k, cols, lda, ldc int, acc, fused bool) []float32 {
	c := append([]float32(nil), c0...)
	for i := range rows {
		for j := range cols {
			var s float32
			if acc {
				s = c[i*ldc+j]
			}
			for kk := range k {
				if fused {
					s = float32(math.FMA(float64(a[i*lda+kk]), float64(w[j*k+kk]), float64(s)))
				} else {
					s += float32(a[i*lda+kk] * w[j*k+kk])
				}
			}
			c[i*ldc+j] = s
		}
	}
	return c
}

// mulShapes are the shapes TestMul checks: rows around the tiles of 12,
// 6 and 4, k around the chunk of 256 and 0, columns around the panels of
// 16 and 32 and the groups of panels of the one-row kernels.
func mulShapes(short bool) (rows, ks, cols []int) {
	rows = []int{0, 1, 5, 6, 7, 12, 13, 25}
	ks = []int{0, 1, 3, 64, 256, 257, 600}
	cols = []int{1, 8, 15, 16, 17, 32, 33, 64, 65, 130}
	if short {
		rows = []int{1, 7, 13}
		ks = []int{0, 1, 64, 257}
		cols = []int{1, 17, 33, 65}
	}
	return rows, ks, cols
}

// TestMul64: featmapDenseMul64 on every path and shape of mulShapes,
// with and without acc and with strides beyond the widths, gives every
// element of C as one sum in the order of k: bit for bit the fused chain
// on the assembly's paths (and so the same bits on each), on Go's the
// fused or the unfused chain (as the compiler builds it); it writes
// nothing beyond cols and reads A only in its first k columns.
func TestMul64(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 64))
	rs, ks, cs := mulShapes(testing.Short())
	eachPath(t, func(t *testing.T) {
		asm := pathName() != "go"
		for _, rows := range rs {
			for _, k := range ks {
				for _, cols := range cs {
					for _, acc := range []bool{false, true} {
						lda, ldc := k+rng.IntN(3), cols+rng.IntN(3)
						a := randMat(rng, max(rows*lda, 1))
						for i := range rows { // what lies beyond k must not be read
							for kk := k; kk < lda; kk++ {
								a[i*lda+kk] = math.NaN()
							}
						}
						w := randMat(rng, cols*k)
						b := make([]float64, featmapDensePacked64(cols, k)+rng.IntN(2))
						featmapDensePack64(b, w, cols, k)
						c0 := randMat(rng, max(rows*ldc, 1))
						c := append([]float64(nil), c0...)
						featmapDenseMul64(c, ldc, a, lda, b, featmapDensePanel64*k, rows, k, cols, acc)
						fused := refMul64(c0, a, w, rows, k, cols, lda, ldc, acc, true)
						plain := refMul64(c0, a, w, rows, k, cols, lda, ldc, acc, false)
						for i, v := range c {
							if math.Float64bits(v) == math.Float64bits(fused[i]) || !asm && math.Float64bits(v) == math.Float64bits(plain[i]) {
								continue
							}
							t.Fatalf("rows %d k %d cols %d acc %v: c[%d] = %v, the fused chain %v, unfused %v (c0 %v)", rows, k, cols, acc, i, v, fused[i], plain[i], c0[i])
						}
					}
				}
			}
		}
	})
}

// TestMul32: TestMul64 for featmapDenseMul32.
func TestMul32(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 32))
	rs, ks, cs := mulShapes(testing.Short())
	f32 := func(x []float64) []float32 {
		y := make([]float32, len(x))
		for i, v := range x {
			y[i] = float32(v)
		}
		return y
	}
	eachPath(t, func(t *testing.T) {
		asm := pathName() != "go"
		for _, rows := range rs {
			for _, k := range ks {
				for _, cols := range cs {
					for _, acc := range []bool{false, true} {
						lda, ldc := k+rng.IntN(3), cols+rng.IntN(3)
						a := f32(randMat(rng, max(rows*lda, 1)))
						for i := range rows {
							for kk := k; kk < lda; kk++ {
								a[i*lda+kk] = float32(math.NaN())
							}
						}
						w64 := randMat(rng, cols*k)
						w := f32(w64)
						b := make([]float32, featmapDensePacked32(cols, k)+rng.IntN(2))
						featmapDensePack32(b, w64, cols, k)
						c0 := f32(randMat(rng, max(rows*ldc, 1)))
						c := append([]float32(nil), c0...)
						featmapDenseMul32(c, ldc, a, lda, b, featmapDensePanel32*k, rows, k, cols, acc)
						fused := refMul32(c0, a, w, rows, k, cols, lda, ldc, acc, true)
						plain := refMul32(c0, a, w, rows, k, cols, lda, ldc, acc, false)
						for i, v := range c {
							if math.Float32bits(v) == math.Float32bits(fused[i]) || !asm && math.Float32bits(v) == math.Float32bits(plain[i]) {
								continue
							}
							t.Fatalf("rows %d k %d cols %d acc %v: c[%d] = %v, the fused chain %v, unfused %v (c0 %v)", rows, k, cols, acc, i, v, fused[i], plain[i], c0[i])
						}
					}
				}
			}
		}
	})
}
