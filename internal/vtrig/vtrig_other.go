//go:build !amd64 || amd64.v3

package vtrig

// vector is false off amd64 and where the compiler fuses multiply-adds
// (GOAMD64=v3 and higher, which fuse math.Cos's own polynomial): Cos and
// Sincos loop over math.
const vector = false

func cosAVX(c, x *float64, n int) bool { panic("vtrig: no assembly in this build") }

func sincosAVX(s, c, x *float64, n int) bool { panic("vtrig: no assembly in this build") }
