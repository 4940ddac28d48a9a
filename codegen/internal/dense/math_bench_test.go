package dense

import (
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkElementwise: the elementwise functions on 1536 arguments (a
// tile of 12 rows of 128 phases, or of kernel values) on every path,
// against a loop over the math package in the same run; ns per argument.
func BenchmarkElementwise(b *testing.B) {
	rng := rand.New(rand.NewPCG(71, 72))
	const n = 1536
	p := make([]float64, n)
	e := make([]float64, n)
	for i := range p {
		p[i] = 60 * (rng.Float64() - 0.5)
		e[i] = -30 * rng.Float64()
	}
	p32, e32 := to32(p), to32(e)
	d := make([]float64, 2*n)
	d32 := make([]float32, 2*n)
	zero := make([]float64, n)
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/value")
		})
	}
	for _, path := range []string{"avx512", "avx2", "go"} {
		ok, restore := setPath(path)
		if !ok {
			restore()
			continue
		}
		restore()
		with := func(f func()) func() {
			return func() {
				_, restore := setPath(path)
				f()
				restore()
			}
		}
		run("cossin64/"+path, with(func() { featmapDenseCosSin64(d, p, 0.3) }))
		run("cos64/"+path, with(func() { featmapDenseCos64(d, p, zero, 0.3) }))
		run("exp64/"+path, with(func() { featmapDenseExp64(d, e) }))
		run("expdist64/"+path, with(func() { featmapDenseExpDist64(d, e, zero, 0.5) }))
		run("cossin32/"+path, with(func() { featmapDenseCosSin32(d32, p32, 0.3) }))
		run("exp32/"+path, with(func() { featmapDenseExp32(d32, e32) }))
	}
	run("cossin64/math", func() {
		for j, v := range p {
			s, c := math.Sincos(v)
			d[2*j], d[2*j+1] = 0.3*c, 0.3*s
		}
	})
	run("exp64/math", func() {
		for j, v := range e {
			d[j] = math.Exp(v)
		}
	})
}
