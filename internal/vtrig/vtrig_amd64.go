//go:build amd64 && !amd64.v3

package vtrig

import "github.com/featmap/featmap/internal/cpuavx"

// Vector reports whether Cos and Sincos run the assembly: whether the
// processor and the operating system support AVX (CPUID's AVX and OSXSAVE
// bits, XGETBV's saved SSE and AVX states). Where it is false they loop
// over math, and a caller that arranges its own arithmetic around them
// for the assembly's sake (a block at a time) gains nothing from doing so.
var Vector = cpuavx.AVX

// cosAVX sets c[i] = math.Cos(x[i]) for i < n (a multiple of 4) where
// |x[i]| < 2²⁹, and c[i] = x[i] elsewhere, reporting whether there was
// any such lane (vtrig_amd64.s).
//
//go:noescape
func cosAVX(c, x *float64, n int) (bad bool)

// sincosAVX sets s[i], c[i] = math.Sincos(x[i]) for i < n (a multiple of
// 4) where |x[i]| < 2²⁹, and s[i], c[i] = x[i], x[i] elsewhere, reporting
// whether there was any such lane (vtrig_amd64.s).
//
//go:noescape
func sincosAVX(s, c, x *float64, n int) (bad bool)
