package benchmaps

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/design"
)

// batch is the number of inputs per benchmark operation: one histogram of
// 4096 bins, whose 7-D maps (229 KB) do not fit in L1.
const batch = 4096

// integerInputs are uniform random integers 0..255.
func integerInputs() []float64 {
	r := rand.New(rand.NewPCG(1, 1))
	xs := make([]float64, batch)
	for i := range xs {
		xs[i] = float64(r.IntN(256))
	}
	return xs
}

// continuousInputs are log-uniform random values in [0.001, 1].
func continuousInputs() []float64 {
	r := rand.New(rand.NewPCG(2, 2))
	xs := make([]float64, batch)
	for i := range xs {
		xs[i] = math.Pow(1000, -r.Float64())
	}
	return xs
}

func to32(xs []float64) []float32 {
	v := make([]float32, len(xs))
	for i, x := range xs {
		v[i] = float32(x)
	}
	return v
}

// perInput reports the time per input of a benchmark whose operations
// each map one batch.
func perInput(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/batch, "ns/input")
}

// suite benchmarks the emitted functions of one 7-D map against the
// reference evaluator and against copying 7 floats per input.
func suite(b *testing.B, m *design.Map, xs []float64,
	f func(*[7]float64, float64), slice func(dst, src []float64),
	f32 func(*[7]float32, float32), slice32 func(dst, src []float32)) {
	dst := make([]float64, 7*len(xs))
	dst32 := make([]float32, 7*len(xs))
	xs32 := to32(xs)
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			for i, x := range xs {
				f((*[7]float64)(dst[7*i:]), x)
			}
		}
		perInput(b)
	})
	b.Run("slice", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			slice(dst, xs)
		}
		perInput(b)
	})
	b.Run("float32", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			for i, x := range xs32 {
				f32((*[7]float32)(dst32[7*i:]), x)
			}
		}
		perInput(b)
	})
	b.Run("slice32", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			slice32(dst32, xs32)
		}
		perInput(b)
	})
	b.Run("reference", func(b *testing.B) {
		b.ReportAllocs()
		x := make([]float64, 1)
		for range b.N {
			for i, v := range xs {
				x[0] = v
				m.Eval(dst[7*i:7*i+7], x)
			}
		}
		perInput(b)
	})
	b.Run("copy", func(b *testing.B) {
		b.ReportAllocs()
		var row [7]float64
		f(&row, 0.5)
		for range b.N {
			for i := range xs {
				copy(dst[7*i:7*i+7], row[:])
			}
		}
		perInput(b)
	})
}

// BenchmarkChi2Int: the 7-D χ² map on the integers 0..255 (table path).
func BenchmarkChi2Int(b *testing.B) {
	suite(b, testmaps.Chi2Int(), integerInputs(), Chi2Int, Chi2IntSlice, Chi2Int32, Chi2IntSlice32)
}

// BenchmarkChi2Interval: the same map on [0.001, 1] (polynomial pieces).
func BenchmarkChi2Interval(b *testing.B) {
	suite(b, testmaps.Chi2Interval(), continuousInputs(), Chi2Interval, Chi2IntervalSlice, Chi2Interval32, Chi2IntervalSlice32)
}
