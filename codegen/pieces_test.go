package codegen

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// TestRoundTo: the rounded value is within q/2 of v (plus half an ulp of
// the result, the parsing of its decimal), and its shortest
// decimal has no more significant digits than q requires.
func TestRoundTo(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		// v rounded (an explicit conversion): where the compiler fuses
		// multiply-adds, got − v below would otherwise subtract the
		// unrounded product (arm64: off by 1.3e-12 for a bound of 1.2e-12).
		v := float64((r.Float64() - 0.5) * math.Pow(10, float64(r.IntN(20)-12)))
		q := math.Pow(10, float64(r.IntN(20)-16)) * (0.5 + r.Float64())
		got := roundTo(v, q)
		ulp := math.Nextafter(math.Abs(got), math.Inf(1)) - math.Abs(got)
		if !(math.Abs(got-v) <= q/2+ulp/2) {
			t.Fatalf("roundTo(%v, %v) = %v: off by %v > q/2", v, q, got, math.Abs(got-v))
		}
		if got == 0 {
			continue
		}
		want := max(1, int(math.Floor(math.Log10(math.Abs(v)))-math.Floor(math.Log10(q)))+1)
		mant := strconv.FormatFloat(math.Abs(got), 'e', -1, 64)
		digits := 0
		for _, c := range mant {
			if c == 'e' {
				break
			}
			if c >= '0' && c <= '9' {
				digits++
			}
		}
		// Rounding up across a power of ten (9.99 → 10.0) may leave one
		// digit fewer, never more.
		if digits > want && !(digits <= 17 && want >= 17) {
			t.Fatalf("roundTo(%v, %v) = %v has %d digits, want at most %d", v, q, got, digits, want)
		}
	}
	if got := roundTo(1e-9, 1e-6); got != 0 {
		t.Errorf("roundTo(1e-9, 1e-6) = %v, want 0", got)
	}
}

// TestRoundCoefs: rounding one piece's coefficients moves its polynomials
// by at most target/8 of ‖Ψ(centre)‖ anywhere on s ∈ [−1/2, 1/2].
func TestRoundCoefs(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		dim, deg := 1+r.IntN(17), 1+r.IntN(5)
		c := make([][]float64, dim)
		for j := range c {
			c[j] = make([]float64, deg+1)
			for p := range c[j] {
				c[j][p] = (r.Float64() - 0.5) * math.Pow(0.1, float64(p))
			}
		}
		orig := make([][]float64, dim)
		n0 := 0.0
		for j := range c {
			orig[j] = append([]float64(nil), c[j]...)
			n0 += c[j][0] * c[j][0]
		}
		target := math.Pow(10, -4-4*r.Float64())
		roundCoefs(c, target)
		a, b := make([]float64, dim), make([]float64, dim)
		for i := range 101 {
			s := -0.5 + float64(i)/100
			horner(a, c, s)
			horner(b, orig, s)
			d := 0.0
			for j := range a {
				d += (a[j] - b[j]) * (a[j] - b[j])
			}
			if lim := target * math.Sqrt(n0) / 8 * (1 + 1e-9); math.Sqrt(d) > lim {
				t.Fatalf("D=%d deg %d: rounding moves Ψ by %v at s=%v, more than target/8·‖Ψ‖ = %v", dim, deg, math.Sqrt(d), s, lim)
			}
		}
	}
}
