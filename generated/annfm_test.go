package generated

import (
	"math"
	"testing"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/digits"
)

// mapsAnchors are the generated anchor maps (tested here: their inputs
// are whole digits rows, one table per pixel).
var mapsAnchors = []string{"Chi2ANNFMDigits"}

// annfmDigitsInputs are 200 digits rows and, per pixel, values between and
// beyond the anchors (half-integers, 16.5, 40).
func annfmDigitsInputs(t testing.TB) [][]float64 {
	t.Helper()
	xs, err := digits.Load("../testdata/digits.csv.gz", 200)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []float64{0.5, 3.5, 7.25, 15.5, 16.5, 40} {
		x := make([]float64, Chi2ANNFMDigitsIn)
		for j := range x {
			x[j] = v
		}
		xs = append(xs, x)
	}
	return xs
}

// TestChi2ANNFMDigitsMatchesReference holds the emitted anchor map to
// featmap's reference evaluator (fmap.RowFeatures: table j for pixel j):
// every component equal to 1e-15 (the same lookup and interpolation; a
// fused multiply-add could move the last bit); the slice form equal to the
// scalar one; float32 the float64 value rounded; a NaN or ±Inf pixel gives
// zeros in its own components only; nothing allocates.
func TestChi2ANNFMDigitsMatchesReference(t *testing.T) {
	m := loadMap(t, "Chi2ANNFMDigits")
	if got := m.Coordinates() * m.Dim; got != Chi2ANNFMDigitsDim || m.Coordinates() != Chi2ANNFMDigitsIn {
		t.Fatalf("designed %d tables × %d, emitted %d→%d", m.Coordinates(), m.Dim, Chi2ANNFMDigitsIn, Chi2ANNFMDigitsDim)
	}
	xs := annfmDigitsInputs(t)
	src := make([]float64, 0, len(xs)*Chi2ANNFMDigitsIn)
	for _, x := range xs {
		src = append(src, x...)
	}
	dst := make([]float64, len(xs)*Chi2ANNFMDigitsDim)
	Chi2ANNFMDigitsSlice(dst, src)
	want := make([]float64, Chi2ANNFMDigitsDim)
	for i, x := range xs {
		var out [Chi2ANNFMDigitsDim]float64
		Chi2ANNFMDigits(&out, (*[Chi2ANNFMDigitsIn]float64)(x))
		fmap.RowFeatures(m.Map, want, x)
		var x32 [Chi2ANNFMDigitsIn]float32
		for j, v := range x {
			x32[j] = float32(v) // exact: integers and binary fractions
		}
		var o32 [Chi2ANNFMDigitsDim]float32
		Chi2ANNFMDigitsF32(&o32, &x32)
		for c, v := range out {
			if math.Abs(v-want[c]) > 1e-15 {
				t.Fatalf("row %d component %d: %v, reference %v", i, c, v, want[c])
			}
			if dst[i*Chi2ANNFMDigitsDim+c] != v {
				t.Fatalf("slice row %d component %d: %v, scalar %v", i, c, dst[i*Chi2ANNFMDigitsDim+c], v)
			}
			if o32[c] != float32(v) {
				t.Fatalf("float32 row %d component %d: %v, want %v", i, c, o32[c], float32(v))
			}
		}
	}
	per := Chi2ANNFMDigitsDim / Chi2ANNFMDigitsIn
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		x := *(*[Chi2ANNFMDigitsIn]float64)(xs[0])
		x[20] = bad
		var out, ref [Chi2ANNFMDigitsDim]float64
		Chi2ANNFMDigits(&out, &x)
		Chi2ANNFMDigits(&ref, (*[Chi2ANNFMDigitsIn]float64)(xs[0]))
		for c, v := range out {
			if c/per == 20 && v != 0 || c/per != 20 && v != ref[c] {
				t.Fatalf("x_20 = %v: component %d is %v", bad, c, v)
			}
		}
	}
	x := (*[Chi2ANNFMDigitsIn]float64)(xs[1])
	var out [Chi2ANNFMDigitsDim]float64
	if n := testing.AllocsPerRun(10, func() { Chi2ANNFMDigits(&out, x); Chi2ANNFMDigitsSlice(dst, src) }); n != 0 {
		t.Errorf("%v allocations per call", n)
	}
}

// BenchmarkChi2ANNFMDigits times the emitted map per pixel on digits rows
// against, in the same run, writing the same number of components (each
// pixel's value into its D slots: the floor of any map of this size).
// Ratios: go test -run '^$' -bench ANNFM ./generated
func BenchmarkChi2ANNFMDigits(b *testing.B) {
	xs := annfmDigitsInputs(b)[:200]
	src := make([]float64, 0, len(xs)*Chi2ANNFMDigitsIn)
	for _, x := range xs {
		src = append(src, x...)
	}
	dst := make([]float64, len(xs)*Chi2ANNFMDigitsDim)
	per := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(src)), "ns/pixel")
	}
	b.Run("emitted", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Chi2ANNFMDigitsSlice(dst, src)
		}
		per(b)
	})
	d := Chi2ANNFMDigitsDim / Chi2ANNFMDigitsIn
	b.Run("write-floor", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i, v := range src {
				o := dst[i*d : (i+1)*d]
				for c := range o {
					o[c] = v
				}
			}
		}
		per(b)
	})
}
