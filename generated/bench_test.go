package generated

import (
	"math"
	"slices"
	"testing"
	"time"
)

// The benchmarks compare, per input x, the generated 7-D χ² maps (Table 1's
// on the integers 0..255, and the histogram map on [1e-4, 1]) with copying
// the same 56 bytes per input (the copy floor docs/results.md's ratios
// use, "The generated code"), with storing them as one array assignment (the
// same bytes without runtime.memmove's call: the lower floor) and with the
// reference evaluator of the same map. Run with:
// go test -run '^$' -bench . ./generated
//
// The machine they run on is often shared, so every b.Loop iteration times
// each form once over the same inputs, one after the other (interleaved),
// and the benchmark reports the median ns/input of each form and the ratios
// slice/copy and loop/slice of those medians: a ratio compares forms timed
// under the same load.

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

// benchMap times a map's forms over the same inputs, interleaved:
//
//   - copy: copy(dst[i*dim:(i+1)*dim], row) per input, D floats (the copy
//     floor: a runtime.memmove call per input);
//   - store: store(dst, row), row assigned to dst's D-float rows as an array
//     (the compiler's inline moves, no call);
//   - slice: NSlice over all inputs;
//   - loop: the scalar function N called directly once per input, as a
//     caller's loop would (not through a func value per input);
//   - reference: the reference evaluator m.Eval (timed on a quarter of the
//     rounds, it is two orders of magnitude slower).
func benchMap(b *testing.B, name string, dim int, integer bool, store, scalarLoop, slice func(dst, src []float64)) {
	src := benchSrc(integer)
	dst := make([]float64, dim*len(src))
	m := loadMap(b, name)
	x := make([]float64, 1)
	row := make([]float64, dim)
	slice(row, src[1:2])
	forms := []struct {
		name string
		run  func()
	}{
		{"copy", func() {
			for i := range src {
				copy(dst[i*dim:(i+1)*dim], row)
			}
		}},
		{"store", func() { store(dst, row) }},
		{"slice", func() { slice(dst, src) }},
		{"loop", func() { scalarLoop(dst, src) }},
		{"reference", func() {
			for i, v := range src {
				x[0] = v
				m.Eval(dst[i*dim:(i+1)*dim], x)
			}
		}},
	}
	// The samples' storage is allocated before the timed loop (b.Loop
	// resets the counters on its first call); rounds past maxRounds are
	// timed but not recorded.
	const maxRounds = 1 << 15
	times := make([][]float64, len(forms))
	for f := range times {
		times[f] = make([]float64, 0, maxRounds)
	}
	b.ReportAllocs()
	for round := 0; b.Loop(); round++ {
		for f, form := range forms {
			if form.name == "reference" && round%4 != 0 {
				continue
			}
			start := time.Now()
			form.run()
			if len(times[f]) < maxRounds {
				times[f] = append(times[f], float64(time.Since(start).Nanoseconds())/float64(len(src)))
			}
		}
	}
	med := map[string]float64{}
	for f, form := range forms {
		slices.Sort(times[f])
		med[form.name] = times[f][len(times[f])/2]
		b.ReportMetric(med[form.name], form.name+"-ns/input")
	}
	b.ReportMetric(med["slice"]/med["copy"], "slice/copy")
	b.ReportMetric(med["loop"]/med["slice"], "loop/slice")
}

func BenchmarkChi2U8D7(b *testing.B) {
	benchMap(b, "Chi2U8D7", Chi2U8D7Dim, true,
		func(dst, row []float64) {
			r := [Chi2U8D7Dim]float64(row)
			for i := range len(dst) / Chi2U8D7Dim {
				*(*[Chi2U8D7Dim]float64)(dst[i*Chi2U8D7Dim:]) = r
			}
		},
		func(dst, src []float64) {
			for i, x := range src {
				Chi2U8D7((*[Chi2U8D7Dim]float64)(dst[i*Chi2U8D7Dim:]), x)
			}
		}, Chi2U8D7Slice)
}

func BenchmarkChi2HistD7(b *testing.B) {
	benchMap(b, "Chi2HistD7", Chi2HistD7Dim, false,
		func(dst, row []float64) {
			r := [Chi2HistD7Dim]float64(row)
			for i := range len(dst) / Chi2HistD7Dim {
				*(*[Chi2HistD7Dim]float64)(dst[i*Chi2HistD7Dim:]) = r
			}
		},
		func(dst, src []float64) {
			for i, x := range src {
				Chi2HistD7((*[Chi2HistD7Dim]float64)(dst[i*Chi2HistD7Dim:]), x)
			}
		}, Chi2HistD7Slice)
}
