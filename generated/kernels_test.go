package generated

import (
	"math"
	"testing"

	"github.com/featmap/featmap/internal/wine"
)

// wineInputs are the 178 standardised wine rows (the domain [−5, 5]¹³
// holds them).
func wineInputs(t testing.TB) [][]float64 {
	t.Helper()
	xs, _, err := wine.Load("../testdata/wine.csv")
	if err != nil {
		t.Fatal(err)
	}
	return wine.Standardised(xs)
}

// wineMaps are the emitted maps of the wine data's kernels, with their
// scalar and slice functions.
var wineMaps = []struct {
	name  string
	n     func(out []float64, x []float64)
	slice func(dst, src []float64)
}{
	{"PolyWine", func(out, x []float64) { PolyWine((*[PolyWineDim]float64)(out), (*[PolyWineIn]float64)(x)) }, PolyWineSlice},
	{"LaplacianWine", func(out, x []float64) {
		LaplacianWine((*[LaplacianWineDim]float64)(out), (*[LaplacianWineIn]float64)(x))
	}, LaplacianWineSlice},
	{"MaternWine", func(out, x []float64) { MaternWine((*[MaternWineDim]float64)(out), (*[MaternWineIn]float64)(x)) }, MaternWineSlice},
}

// TestWineMapsMatchReference holds the emitted maps of the polynomial,
// Laplacian and Matérn kernels to featmap's reference evaluator on the
// wine rows: the polynomial map component for component to 1e-12 relative
// to ‖Ψ(x)‖ (the same operations in the same order: equal unless the
// compiler fuses multiply-adds), the random-feature maps' kernel values
// Ψ(x)·Ψ(y) to 1e-12; the slice forms equal the scalar ones bit for bit;
// nothing allocates.
func TestWineMapsMatchReference(t *testing.T) {
	xs := wineInputs(t)
	for _, w := range wineMaps {
		m := loadMap(t, w.name)
		got, want := make([][]float64, len(xs)), make([][]float64, len(xs))
		src := make([]float64, 0, len(xs)*m.InDim)
		for i, x := range xs {
			want[i], got[i] = make([]float64, m.Dim), make([]float64, m.Dim)
			m.Eval(want[i], x)
			w.n(got[i], x)
			src = append(src, x...)
		}
		worst := 0.0
		for i := range xs {
			if w.name == "PolyWine" {
				for k := range got[i] {
					worst = math.Max(worst, math.Abs(got[i][k]-want[i][k])/norm(want[i]))
				}
				continue
			}
			for j := range xs {
				worst = math.Max(worst, math.Abs(dot(got[i], got[j])-dot(want[i], want[j])))
			}
		}
		if worst > 1e-12 {
			t.Errorf("%s: the emitted map differs from the reference by %.3g", w.name, worst)
		}
		dst := make([]float64, len(xs)*m.Dim)
		w.slice(dst, src)
		for i := range xs {
			for k, v := range got[i] {
				if math.Float64bits(v) != math.Float64bits(dst[i*m.Dim+k]) {
					t.Fatalf("%s: slice row %d component %d is %v, the scalar function's %v", w.name, i, k, dst[i*m.Dim+k], v)
				}
			}
		}
		out := make([]float64, m.Dim)
		if n := testing.AllocsPerRun(10, func() { w.n(out, xs[0]); w.slice(dst, src) }); n != 0 {
			t.Errorf("%s: %v allocations per call", w.name, n)
		}
	}
}

// BenchmarkWineMaps times the emitted maps of the polynomial, Laplacian
// and Matérn kernels per wine row: go test -run '^$' -bench WineMaps
// ./generated
func BenchmarkWineMaps(b *testing.B) {
	xs := wineInputs(b)
	for _, w := range wineMaps {
		m := loadMap(b, w.name)
		src := make([]float64, 0, len(xs)*m.InDim)
		for _, x := range xs {
			src = append(src, x...)
		}
		dst := make([]float64, len(xs)*m.Dim)
		b.Run(w.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				w.slice(dst, src)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/vector")
		})
	}
}
