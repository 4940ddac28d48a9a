package vec

import "github.com/featmap/featmap/internal/cpuavx"

// AVX reports whether the processor and the operating system support
// AVX (CPUID's AVX and OSXSAVE bits, XGETBV's saved SSE and AVX states):
// only then may Axpy and Axpy8 be called.
var AVX = cpuavx.AVX

// Axpy sets y += a·x (len(x) ≥ len(y)) four entries at a time, each
// entry's product rounded, then added (vec_amd64.s).
//
//go:noescape
func Axpy(y []float64, a float64, x []float64)

// Axpy8 sets y += a[0]·x[0] + … + a[7]·x[7] (each x[j] at least len(y)
// long), adding the terms to each entry in that order, four entries at a
// time, each product rounded, then added (vec_amd64.s).
//
//go:noescape
func Axpy8(y []float64, a *[8]float64, x *[8][]float64)
