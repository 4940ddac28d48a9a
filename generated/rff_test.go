package generated

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/digits"
)

// mapsRandom are the generated random-feature maps (tested here, not on
// the grids of multidim_test.go: their inputs have 64 axes).
var mapsRandom = []string{"RBFDigits"}

// rbfDigitsInputs are 100 digits rows and 100 seeded uniform points of
// the domain [0, 16]⁶⁴.
func rbfDigitsInputs(t testing.TB) [][]float64 {
	t.Helper()
	xs, err := digits.Load("../testdata/digits.csv.gz", 100)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100 {
		x := make([]float64, RBFDigitsIn)
		for j := range x {
			x[j] = 16 * rng.Float64()
		}
		xs = append(xs, x)
	}
	return xs
}

// TestRBFDigitsMatchesReference holds the emitted random-feature map to
// featmap's reference evaluator on digits rows and uniform points: no
// kernel value Ψ(x)·Ψ(y) moves by more than 1e-12 (the emitted code only
// reorders the dot products' additions: 64 terms of size ≤ 16·|ω| ≈ 2
// give phases within ~1e-14, far below its measured L∞ of 0.11); the slice
// form equals the scalar one bit for bit; float32 rounds every component;
// a NaN or ±Inf coordinate gives zeros; huge finite inputs give components
// within √(2/D); nothing allocates.
func TestRBFDigitsMatchesReference(t *testing.T) {
	m := loadMap(t, "RBFDigits")
	if m.Dim != RBFDigitsDim || m.InDim != RBFDigitsIn {
		t.Fatalf("designed %d→%d, emitted %d→%d", m.InDim, m.Dim, RBFDigitsIn, RBFDigitsDim)
	}
	xs := rbfDigitsInputs(t)
	got, want := make([][]float64, len(xs)), make([][]float64, len(xs))
	for i, x := range xs {
		want[i] = make([]float64, m.Dim)
		m.Eval(want[i], x)
		var out [RBFDigitsDim]float64
		RBFDigits(&out, (*[RBFDigitsIn]float64)(x))
		got[i] = out[:]
	}
	worst := 0.0
	for i := range xs {
		for j := range xs {
			worst = math.Max(worst, math.Abs(dot(got[i], got[j])-dot(want[i], want[j])))
		}
	}
	if worst > 1e-12 {
		t.Errorf("emitted kernel values differ from the reference's by %.3g", worst)
	}
	src := make([]float64, 0, len(xs)*RBFDigitsIn)
	for _, x := range xs {
		src = append(src, x...)
	}
	dst := make([]float64, len(xs)*RBFDigitsDim)
	RBFDigitsSlice(dst, src)
	for i := range xs {
		for c, v := range got[i] {
			if dst[i*RBFDigitsDim+c] != v {
				t.Fatalf("slice row %d component %d: %v, scalar %v", i, c, dst[i*RBFDigitsDim+c], v)
			}
		}
		var x32 [RBFDigitsIn]float32
		for j, v := range xs[i] {
			x32[j] = float32(v)
		}
		var o32 [RBFDigitsDim]float32
		RBFDigitsF32(&o32, &x32)
		// The float32 input is exact (digits are integers) or off by
		// 2⁻²⁴ relative (uniform points), which moves a phase by at most
		// Σ|ω_j|·16·2⁻²⁴ ≈ 2e-6; the output's rounding adds 2⁻²⁴ relative.
		for c, v := range o32 {
			if math.Abs(float64(v)-got[i][c]) > 1e-5 {
				t.Fatalf("float32 row %d component %d: %v, float64 %v", i, c, v, got[i][c])
			}
		}
	}
	bound := math.Sqrt(2.0 / RBFDigitsDim)
	for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e300} {
		x := xs[0]
		x[5] = bad
		var out [RBFDigitsDim]float64
		RBFDigits(&out, (*[RBFDigitsIn]float64)(x))
		for c, v := range out {
			finite := !math.IsInf(bad, 0) && !math.IsNaN(bad)
			switch {
			case !finite && v != 0:
				t.Fatalf("x_5 = %v: component %d is %v, want 0", bad, c, v)
			case finite && !(math.Abs(v) <= bound):
				t.Fatalf("x_5 = %v: component %d is %v, beyond √(2/D) = %v", bad, c, v, bound)
			}
		}
	}
	x := (*[RBFDigitsIn]float64)(xs[1])
	var out [RBFDigitsDim]float64
	if n := testing.AllocsPerRun(10, func() { RBFDigits(&out, x); RBFDigitsSlice(dst, src) }); n != 0 {
		t.Errorf("%v allocations per call", n)
	}
}

// BenchmarkRBFDigits times, per input vector, the emitted map against, in
// the same run, a plain Go dense matrix–vector product with the same
// frequencies plus the D cos/sin calls (the straightforward baseline), and
// one pass over the frequencies (the memory floor). Ratios:
// go test -run '^$' -bench RBFDigits ./generated
func BenchmarkRBFDigits(b *testing.B) {
	m := loadMap(b, "RBFDigits")
	r := m.Stages[0].Kind.(*fmap.Random)
	xs := rbfDigitsInputs(b)
	src := make([]float64, 0, len(xs)*RBFDigitsIn)
	for _, x := range xs {
		src = append(src, x...)
	}
	dst := make([]float64, len(xs)*RBFDigitsDim)
	per := func(b *testing.B) {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(xs)), "ns/vector")
	}
	b.Run("emitted", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			RBFDigitsSlice(dst, src)
		}
		per(b)
	})
	mf := r.Frequencies()
	scale := math.Sqrt(1 / float64(mf))
	b.Run("dense+cos", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i, x := range xs {
				out := dst[i*RBFDigitsDim : (i+1)*RBFDigitsDim]
				for k := range mf {
					w := r.Freq[k*RBFDigitsIn : (k+1)*RBFDigitsIn]
					var ph float64
					for j, v := range x {
						ph += w[j] * v
					}
					out[2*k], out[2*k+1] = scale*math.Cos(ph), scale*math.Sin(ph)
				}
			}
		}
		per(b)
	})
	var sink float64
	b.Run("pass-over-W", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for range xs {
				// Four independent sums, so that the adder's latency does
				// not hide the cost of reading W.
				var s0, s1, s2, s3 float64
				for k := 0; k+4 <= len(r.Freq); k += 4 {
					s0 += r.Freq[k]
					s1 += r.Freq[k+1]
					s2 += r.Freq[k+2]
					s3 += r.Freq[k+3]
				}
				sink += s0 + s1 + s2 + s3
			}
		}
		per(b)
	})
	_ = sink
}
