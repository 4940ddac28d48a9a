package generated

import (
	"math"
	"testing"
)

// The benchmarks compare, per input x, the generated 7-D χ² maps (Table 1's
// on the integers 0..255, and the histogram map on [1e-4, 1]) with the
// reference evaluator of the same map and with copying the same 56 bytes
// (the memory floor). Run with: go test -bench . ./generated

const benchInputs = 1024

func benchSrc(integer bool) []float64 {
	src := make([]float64, benchInputs)
	for i := range src {
		if integer {
			src[i] = float64((i * 97) % 256)
		} else {
			src[i] = 1e-4 * math.Pow(1e4, float64((i*389)%benchInputs)/benchInputs)
		}
	}
	return src
}

// benchMap times a map's forms over the same inputs. scalarLoop calls the
// scalar function N directly once per input, as a caller's loop would (not
// through a func value per input); slice is NSlice.
func benchMap(b *testing.B, name string, dim int, integer bool, scalarLoop, slice func(dst, src []float64)) {
	src := benchSrc(integer)
	dst := make([]float64, dim*len(src))
	perInput := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(src)), "ns/input")
	}
	b.Run("generated", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			scalarLoop(dst, src)
		}
		perInput(b)
	})
	b.Run("generated-slice", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			slice(dst, src)
		}
		perInput(b)
	})
	m := loadMap(b, name)
	x := make([]float64, 1)
	b.Run("reference", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i, v := range src {
				x[0] = v
				m.Eval(dst[i*dim:(i+1)*dim], x)
			}
		}
		perInput(b)
	})
	row := make([]float64, dim)
	slice(row, src[1:2])
	b.Run("copy", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := range src {
				copy(dst[i*dim:(i+1)*dim], row)
			}
		}
		perInput(b)
	})
}

func BenchmarkChi2U8D7(b *testing.B) {
	benchMap(b, "Chi2U8D7", Chi2U8D7Dim, true,
		func(dst, src []float64) {
			for i, x := range src {
				Chi2U8D7((*[Chi2U8D7Dim]float64)(dst[i*Chi2U8D7Dim:]), x)
			}
		}, Chi2U8D7Slice)
}

func BenchmarkChi2HistD7(b *testing.B) {
	benchMap(b, "Chi2HistD7", Chi2HistD7Dim, false,
		func(dst, src []float64) {
			for i, x := range src {
				Chi2HistD7((*[Chi2HistD7Dim]float64)(dst[i*Chi2HistD7Dim:]), x)
			}
		}, Chi2HistD7Slice)
}
