//go:build !amd64

package vec

// AVX is false off amd64: Axpy and Axpy8 must not be called.
const AVX = false

// Axpy is not implemented off amd64.
func Axpy(y []float64, a float64, x []float64) { panic("vec: no AVX off amd64") }

// Axpy8 is not implemented off amd64.
func Axpy8(y []float64, a *[8]float64, x *[8][]float64) { panic("vec: no AVX off amd64") }
