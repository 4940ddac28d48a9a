package vtrig

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// arguments returns n arguments drawn over the magnitudes the tests need:
// 10^-300 … 10^9 of both signs (log-uniform), values within a few ulps and
// within 10^-12 relative of multiples of π/4 (where the octant and the
// reduced argument are closest to a rounding's edge), near 2²⁹ (math's
// switch to Payne–Hanek), beyond it, and the special values: ±0,
// subnormals, ±Inf, NaN.
func arguments(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		sign := float64(1 - 2*rng.IntN(2))
		switch rng.IntN(16) {
		case 0:
			x[i] = []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
				math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, 0x1p-1023,
				math.MaxFloat64, -math.MaxFloat64, math.Pi / 4, math.Pi / 2, math.Pi, 1, -1}[rng.IntN(16)]
		case 1:
			x[i] = sign * rng.Float64() * 0x1p-1022 // subnormal
		case 2, 3:
			// Within a few ulps of k·π/4, k up to 10^8.
			k := float64(rng.IntN([]int{10, 1000, 100000000}[rng.IntN(3)]))
			v := k * (math.Pi / 4)
			for range rng.IntN(8) {
				v = math.Nextafter(v, math.Inf(2*rng.IntN(2)-1))
			}
			x[i] = sign * v
		case 4:
			k := float64(rng.IntN(1000000))
			x[i] = sign * k * (math.Pi / 4) * (1 + 1e-12*rng.NormFloat64())
		case 5:
			// Around 2²⁹.
			v := float64(reduceThreshold)
			for range rng.IntN(5) {
				v = math.Nextafter(v, math.Inf(2*rng.IntN(2)-1))
			}
			x[i] = sign * v * (1 + 1e-9*float64(rng.IntN(3)-1))
		case 6:
			x[i] = sign * math.Pow(10, 9+300*rng.Float64()) // beyond: Payne–Hanek
		default:
			x[i] = sign * math.Pow(10, -300+309*rng.Float64())
		}
	}
	return x
}

// mismatch returns the first index where a and b differ in any bit, or -1.
func mismatch(a, b []float64) int {
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i
		}
	}
	return -1
}

// check compares Cos and Sincos on x with math.Cos and math.Sincos, bit
// for bit (NaNs' payloads included), into fresh slices and in place.
func check(t *testing.T, x []float64) {
	t.Helper()
	n := len(x)
	wc, ws := make([]float64, n), make([]float64, n)
	for i, v := range x {
		wc[i] = math.Cos(v)
		if s, c := math.Sincos(v); math.Float64bits(c) != math.Float64bits(wc[i]) {
			t.Fatalf("math.Sincos(%v)'s cosine %v, math.Cos %v", v, c, wc[i])
		} else {
			ws[i] = s
		}
	}
	// One more entry in the outputs: only len(x) are written.
	c := make([]float64, n+1)
	Cos(c, x)
	if i := mismatch(c[:n], wc); i >= 0 {
		t.Fatalf("len %d: Cos(%v) = %v (%#x), math.Cos %v (%#x)", n, x[i], c[i], math.Float64bits(c[i]), wc[i], math.Float64bits(wc[i]))
	}
	if c[n] != 0 {
		t.Fatalf("len %d: Cos wrote c[%d]", n, n)
	}
	s := make([]float64, n+1)
	c = make([]float64, n+1)
	Sincos(s, c, x)
	if i := mismatch(s[:n], ws); i >= 0 {
		t.Fatalf("len %d: Sincos(%v)'s sine %v (%#x), math.Sincos %v (%#x)", n, x[i], s[i], math.Float64bits(s[i]), ws[i], math.Float64bits(ws[i]))
	}
	if i := mismatch(c[:n], wc); i >= 0 {
		t.Fatalf("len %d: Sincos(%v)'s cosine %v, math.Sincos %v", n, x[i], c[i], wc[i])
	}
	if s[n] != 0 || c[n] != 0 {
		t.Fatalf("len %d: Sincos wrote past len(x)", n)
	}
	in := slices.Clone(x)
	Cos(in, in)
	if i := mismatch(in, wc); i >= 0 {
		t.Fatalf("len %d: Cos in place (%v) = %v, math.Cos %v", n, x[i], in[i], wc[i])
	}
	in = slices.Clone(x)
	Sincos(s, in, in)
	if i := mismatch(in, wc); i >= 0 {
		t.Fatalf("len %d: Sincos into x's cosines (%v) = %v, math.Sincos %v", n, x[i], in[i], wc[i])
	}
	if i := mismatch(s[:n], ws); i >= 0 {
		t.Fatalf("len %d: Sincos into x's cosines (%v): sine %v, math.Sincos %v", n, x[i], s[i], ws[i])
	}
	in = slices.Clone(x)
	Sincos(in, c, in)
	if i := mismatch(in, ws); i >= 0 {
		t.Fatalf("len %d: Sincos into x's sines (%v) = %v, math.Sincos %v", n, x[i], in[i], ws[i])
	}
}

// TestBitForBit: Cos and Sincos give math.Cos's and math.Sincos's bits
// for every argument: every tail length 0…11 (and unaligned starts) of
// the four-wide loop, arguments over 10^-300 … 10^9 and beyond 2²⁹ of
// both signs, near multiples of π/4, and ±0, subnormals, ±Inf, NaN; 10^7
// arguments in the full run, 2·10^5 with -short. Where the assembly runs
// (Vector), swapping two of its operations (the sine's (z·zz)·P as
// z·(zz·P), the order of the subtractions of y·PI4A and y·PI4B, the
// cosine's (1 − 0.5·zz) + (zz·zz)·P as ((zz·zz)·P − 0.5·zz) + 1) or fusing
// its last multiply-adds fails it; TestFusionWitnesses catches the fusion
// of the others that change any result.
func TestBitForBit(t *testing.T) {
	if !Vector {
		t.Log("no assembly in this build: Cos and Sincos loop over math")
	}
	rng := rand.New(rand.NewPCG(29, 4))
	for trial := range 200 {
		for n := range 12 {
			x := arguments(rng, n+trial%3)
			check(t, x[trial%3:])
		}
	}
	total := 10_000_000
	if testing.Short() {
		total = 200_000
	}
	for done := 0; done < total; {
		n := 1 + rng.IntN(8192)
		check(t, arguments(rng, n))
		done += n
	}
}

// TestSpecialValues: the arguments math's special cases name, alone and
// among in-range lanes of one four-wide step.
func TestSpecialValues(t *testing.T) {
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.Float64frombits(0x7ff8000000000123), math.Float64frombits(0xfff0000000000001),
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, reduceThreshold,
		math.Nextafter(reduceThreshold, 0), -reduceThreshold, math.MaxFloat64}
	for _, v := range special {
		for lane := range 4 {
			x := []float64{0.5, -1.25, 3, 1e5}
			x[lane] = v
			check(t, x)
		}
	}
}

var sink float64

func benchArgs() []float64 {
	rng := rand.New(rand.NewPCG(1, 2))
	x := make([]float64, 1024)
	for i := range x {
		x[i] = 60 * (rng.Float64() - 0.5) // phases in ±30, as the designs' ω·z
	}
	return x
}

// BenchmarkCos: Cos over 1024 phases in ±30 against a loop of math.Cos
// in the same run (ns/op per 1024 arguments; the ratio is the gain), and
// over 1022 of them 7 at a time.
func BenchmarkCos(b *testing.B) {
	x := benchArgs()
	c := make([]float64, len(x))
	b.Run("vtrig", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Cos(c, x)
		}
		sink = c[7]
	})
	b.Run("math", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i, v := range x {
				c[i] = math.Cos(v)
			}
		}
		sink = c[7]
	})
	// In calls of 7 arguments, as Fourier.Signature's per λ of a 1-D map
	// of 13 or 14 dimensions: one four-wide step and one padded.
	b.Run("vtrig-by7", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i := 0; i+7 <= len(x); i += 7 {
				Cos(c[i:i+7], x[i:i+7])
			}
		}
		sink = c[7]
	})
}

// BenchmarkSincos: Sincos against a loop of math.Sincos, as BenchmarkCos.
func BenchmarkSincos(b *testing.B) {
	x := benchArgs()
	s, c := make([]float64, len(x)), make([]float64, len(x))
	b.Run("vtrig", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			Sincos(s, c, x)
		}
		sink = s[7] + c[7]
	})
	b.Run("math", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			for i, v := range x {
				s[i], c[i] = math.Sincos(v)
			}
		}
		sink = s[7] + c[7]
	})
}

// The operations of math.Sincos ($GOROOT/src/math/sincos.go) that a
// compiler or an assembly kernel could fuse into one multiply-add.
const (
	fuseNone    = 0
	fuseA       = 1 // x − y·PI4A
	fuseB       = 2 // … − y·PI4B
	fuseC       = 3 // … − y·PI4C
	fuseSin1    = 4 // the sine polynomial's Horner steps p·zz + _sin[k], k = 1…5: 4…8
	fuseSin5    = 8
	fuseCos1    = 9 // the cosine polynomial's, p·zz + _cos[k]: 9…13
	fuseCos5    = 13
	fuseSinLast = 14 // z + (z·zz)·P_sin
	fuseCosHalf = 15 // 1 − 0.5·zz
	fuseCosLast = 16 // (1 − 0.5·zz) + (zz·zz)·P_cos
)

var (
	sinCoef = [6]float64{1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6, -1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1}
	cosCoef = [6]float64{-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7, 2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2}
)

// mulAdd is a·b + c, fused (one rounding) if fused, else the product
// rounded first.
func mulAdd(a, b, c float64, fused bool) float64 {
	if fused {
		return math.FMA(a, b, c)
	}
	return float64(a*b) + c
}

// horner is math's (((((c0·zz)+c1)·zz+c2)·zz+c3)·zz+c4)·zz+c5 with step
// fuse − first + 1 fused.
func horner(c *[6]float64, zz float64, first, fuse int) float64 {
	p := mulAdd(c[0], zz, c[1], fuse == first)
	for k := 2; k <= 5; k++ {
		p = mulAdd(p, zz, c[k], fuse == first+k-1)
	}
	return p
}

// sincosOps is math.Sincos for 0 < |x| < 2²⁹, operation by operation, with
// the operation fuse fused into a multiply-add (none for fuseNone).
func sincosOps(x float64, fuse int) (sin, cos float64) {
	const (
		PI4A = 7.85398125648498535156e-1
		PI4B = 3.77489470793079817668e-8
		PI4C = 2.69515142907905952645e-15
	)
	sinSign, cosSign := x < 0, false
	x = math.Abs(x)
	j := uint64(x * (4 / math.Pi))
	y := float64(j)
	if j&1 == 1 {
		j++
		y++
	}
	j &= 7
	z := mulAdd(-y, PI4A, x, fuse == fuseA)
	z = mulAdd(-y, PI4B, z, fuse == fuseB)
	z = mulAdd(-y, PI4C, z, fuse == fuseC)
	if j > 3 {
		j -= 4
		sinSign, cosSign = !sinSign, !cosSign
	}
	if j > 1 {
		cosSign = !cosSign
	}
	zz := z * z
	cos = mulAdd(float64(zz*zz), horner(&cosCoef, zz, fuseCos1, fuse), mulAdd(-0.5, zz, 1, fuse == fuseCosHalf), fuse == fuseCosLast)
	sin = mulAdd(float64(z*zz), horner(&sinCoef, zz, fuseSin1, fuse), z, fuse == fuseSinLast)
	if j == 1 || j == 2 {
		sin, cos = cos, sin
	}
	if cosSign {
		cos = -cos
	}
	if sinSign {
		sin = -sin
	}
	return sin, cos
}

// fusionWitnesses are arguments whose sine or cosine changes if one of
// math.Sincos's operations is fused (found by sincosOps over 10^8
// arguments, half uniform in (0, π/4), half log-uniform in 10^-3 … 10^8).
// The other operations (fuseA, fuseB, the first two Horner steps of each
// polynomial, fuseCosHalf) changed no result there: fusing them cannot be
// seen in the outputs, which is all the designs use.
var fusionWitnesses = map[int][]float64{
	fuseC:        {6.021999577145498e+07, 8.017924861204492e+07},
	fuseSin1 + 2: {0.4655158460521993},
	fuseSin1 + 3: {0.7298289101368632, 0.7310919834145897},
	fuseSin5:     {2.1575082579038767e+06, 102.9236852476439},
	fuseCos1 + 2: {142256.7786485499},
	fuseCos1 + 3: {0.6670196814053952, 539.6384650594409},
	fuseCos5:     {0.7401942184452163, 0.7339536891056296},
	fuseSinLast:  {6.972975056450982, 0.6170851424791314},
	fuseCosLast:  {0.6940812266936278, 0.7464264312094816},
}

// TestFusionWitnesses: sincosOps without fusion is math.Sincos on random
// arguments and on the witnesses; each witness's sine or cosine changes
// when its operation is fused; and Cos and Sincos give math's bits on the
// witnesses, in every lane of a four-wide step, so that a kernel fusing
// any of those operations fails here whatever the random draws.
func TestFusionWitnesses(t *testing.T) {
	if !Vector {
		// GOAMD64=v3 and arm64 fuse math.Sincos's own operations, which
		// sincosOps models unfused; there is no assembly to test anyway.
		t.Skip("no assembly in this build")
	}
	rng := rand.New(rand.NewPCG(5, 8))
	for range 100000 {
		x := math.Pow(10, -3+11*rng.Float64()) * float64(1-2*rng.IntN(2))
		if math.Abs(x) >= reduceThreshold {
			continue
		}
		s0, c0 := math.Sincos(x)
		if s, c := sincosOps(x, fuseNone); s != s0 || c != c0 {
			t.Fatalf("sincosOps(%v) = %v, %v; math.Sincos %v, %v", x, s, c, s0, c0)
		}
	}
	var all []float64
	for op, xs := range fusionWitnesses {
		for _, x := range xs {
			s0, c0 := math.Sincos(x)
			if s, c := sincosOps(x, fuseNone); s != s0 || c != c0 {
				t.Fatalf("sincosOps(%v) = %v, %v; math.Sincos %v, %v", x, s, c, s0, c0)
			}
			if s, c := sincosOps(x, op); s == s0 && c == c0 {
				t.Errorf("fusing operation %d leaves Sincos(%v) as it is: not a witness", op, x)
			}
			all = append(all, x, -x)
		}
	}
	for lane := range 4 {
		check(t, append(make([]float64, lane), all...))
	}
}
