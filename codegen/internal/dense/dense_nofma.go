//go:build !(amd64.v3 || arm64 || loong64 || ppc64 || ppc64le || riscv64 || s390x)

package dense

// featmapDenseFMA is a·b + c, rounded twice: these targets have no fused
// multiply-add that math.FMA can use without a run-time check or a
// software fallback (slow), and on amd64 the Go paths run only where the
// processor lacks AVX2, or in tests.
func featmapDenseFMA(a, b, c float64) float64 { return a*b + c }
