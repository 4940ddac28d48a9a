package simplex

import (
	"github.com/featmap/featmap/solver/internal/vec"
)

// The row operations a pivot and a refactorisation spend their time in:
// axpy, axpy8 (eight axpys in one pass) and dotN. axpy and axpy8 round
// every product before adding it (never a fused multiply-add), and run in
// AVX assembly (solver/internal/vec) where the processor has it, bit for
// bit the Go loops, so that a solve takes the same pivots on every
// platform (docs/lp-design.md, "Fused multiply-adds").

// axpy sets y += a·x, rounding each product before adding it. Where the
// processor has AVX it runs vec.Axpy, the same operations four entries at
// a time (packed IEEE multiplications and additions round each entry as
// the scalar ones the Go code compiles to do: TestVectorKernelsBitForBit);
// else axpyGo.
func axpy(y []float64, a float64, x []float64) {
	x = x[:len(y)]
	if vec.AVX && len(y) >= vectorMin {
		vec.Axpy(y, a, x)
		return
	}
	axpyGo(y, a, x)
}

// vectorMin is the shortest vector axpy and axpy8 hand to package vec;
// shorter ones take the Go loops, which cost less than the call.
const vectorMin = 8

// axpyGo is axpy in Go.
func axpyGo(y []float64, a float64, x []float64) {
	x = x[:len(y)]
	// Four at a time, the same operations: the processor overlaps them
	// (BenchmarkRefactor, whose row operations are axpys, measures the
	// gain: docs/lp-design.md).
	i := 0
	for ; i+4 <= len(y); i += 4 {
		y[i] += float64(a * x[i])
		y[i+1] += float64(a * x[i+1])
		y[i+2] += float64(a * x[i+2])
		y[i+3] += float64(a * x[i+3])
	}
	for ; i < len(y); i++ {
		y[i] += float64(a * x[i])
	}
}

// axpy8 sets y += a[0]·x[0] + … + a[7]·x[7], adding the terms to each
// y[i] in that order: bit for bit eight axpy calls. Where the processor
// has AVX it runs vec.Axpy8, four entries of y at a time, each by the same
// operations in the same order; else axpy8Go.
func axpy8(y []float64, a *[8]float64, x *[8][]float64) {
	if vec.AVX && len(y) >= vectorMin {
		for _, xj := range x {
			_ = xj[:len(y)] // vec.Axpy8 reads len(y) entries of each
		}
		vec.Axpy8(y, a, x)
		return
	}
	axpy8Go(y, a, x)
}

// axpy8Go is axpy8 in Go. Both round every product before adding it (an
// explicit conversion, which the compiler never fuses into a multiply-add,
// as it may on arm64 or with GOAMD64=v3, and not necessarily alike in the
// two loops).
func axpy8Go(y []float64, a *[8]float64, x *[8][]float64) {
	n := len(y)
	x0, x1, x2, x3 := x[0][:n], x[1][:n], x[2][:n], x[3][:n]
	x4, x5, x6, x7 := x[4][:n], x[5][:n], x[6][:n], x[7][:n]
	a0, a1, a2, a3, a4, a5, a6, a7 := a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]
	for i := range y {
		v := y[i]
		v += float64(a0 * x0[i])
		v += float64(a1 * x1[i])
		v += float64(a2 * x2[i])
		v += float64(a3 * x3[i])
		v += float64(a4 * x4[i])
		v += float64(a5 * x5[i])
		v += float64(a6 * x6[i])
		v += float64(a7 * x7[i])
		y[i] = v
	}
}

func dotN(a, b []float64) float64 {
	b = b[:len(a)]
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
