//go:build !amd64 || amd64.v3

package vtrig

// Vector is false off amd64 and where the compiler fuses multiply-adds
// (GOAMD64=v3 and higher, which fuse math.Cos's own polynomial): Cos and
// Sincos loop over math. There the compiler's fusions also depend on how
// the caller's code is arranged (at GOAMD64=v3, s += a·b was fused with s
// in a register and not with s in memory, an ADDSD from it), so a caller
// keeps its plain arithmetic where Vector is false.
const Vector = false

func cosAVX(c, x *float64, n int) bool { panic("vtrig: no assembly in this build") }

func sincosAVX(s, c, x *float64, n int) bool { panic("vtrig: no assembly in this build") }
