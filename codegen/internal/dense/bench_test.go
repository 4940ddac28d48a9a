package dense

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkMul: featmapDenseMul64 and featmapDenseMul32 of 1200 rows on
// the shapes of the dense maps (k inputs against cols columns) on every
// path, in GFLOP/s (2·rows·k·cols per call).
func BenchmarkMul(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	const rows = 1200
	for _, sh := range [][2]int{{64, 128}, {64, 256}, {64, 512}, {256, 256}, {1024, 1024}} {
		k, cols := sh[0], sh[1]
		a := randMat(rng, rows*k)
		w := randMat(rng, cols*k)
		b64 := make([]float64, featmapDensePacked64(cols, k))
		featmapDensePack64(b64, w, cols, k)
		c := make([]float64, rows*cols)
		a32 := make([]float32, len(a))
		for i, v := range a {
			a32[i] = float32(v)
		}
		b32 := make([]float32, featmapDensePacked32(cols, k))
		featmapDensePack32(b32, w, cols, k)
		c32 := make([]float32, rows*cols)
		for _, path := range []string{"avx512", "avx2", "go"} {
			b.Run(fmt.Sprintf("k%d/cols%d/f64/%s", k, cols, path), func(b *testing.B) {
				ok, restore := setPath(path)
				defer restore()
				if !ok {
					b.Skip("no such path here")
				}
				b.ReportAllocs()
				for b.Loop() {
					featmapDenseMul64(c, cols, a, k, b64, featmapDensePanel64*k, rows, k, cols, false)
				}
				b.ReportMetric(2*rows*float64(k*cols)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
			b.Run(fmt.Sprintf("k%d/cols%d/f32/%s", k, cols, path), func(b *testing.B) {
				ok, restore := setPath(path)
				defer restore()
				if !ok {
					b.Skip("no such path here")
				}
				b.ReportAllocs()
				for b.Loop() {
					featmapDenseMul32(c32, cols, a32, k, b32, featmapDensePanel32*k, rows, k, cols, false)
				}
				b.ReportMetric(2*rows*float64(k*cols)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
			})
		}
	}
}
