//go:build amd64.v3 || arm64 || loong64 || ppc64 || ppc64le || riscv64 || s390x

package dense

import "math"

// featmapDenseFMA is a·b + c rounded once: math.FMA, one instruction on
// these targets (amd64 built with GOAMD64=v3 or higher among them), so
// that the Go paths give the assembly's bits.
func featmapDenseFMA(a, b, c float64) float64 { return math.FMA(a, b, c) }
