package dense

import (
	"math"
	"math/big"
	"math/rand/v2"
	"testing"
)

// ulps64 is the distance of a and b in units in the last place: how many
// float64 lie between them, counting one of the ends (0 for the same
// bits, and for +0 and −0).
func ulps64(a, b float64) uint64 {
	ord := func(x float64) int64 {
		i := int64(math.Float64bits(x))
		if i < 0 {
			i = math.MinInt64 - i
		}
		return i
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return uint64(d)
}

// ulps32 is ulps64 for float32.
func ulps32(a, b float32) uint32 {
	ord := func(x float32) int32 {
		i := int32(math.Float32bits(x))
		if i < 0 {
			i = math.MinInt32 - i
		}
		return i
	}
	d := ord(a) - ord(b)
	if d < 0 {
		d = -d
	}
	return uint32(d)
}

// trigArgs returns n arguments for the sines and cosines: uniform in
// ±10^e for e from −300 to 9 (most below 10³, where phases live), near
// multiples of π/4 and π/2, at and around the limits 2¹⁵ and 2²⁹, and a
// few special values.
func trigArgs(rng *rand.Rand, n int) []float64 {
	special := []float64{0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(),
		math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 0x1p-1022, 1e-300, -1e-300,
		featmapDenseTrigLimit64, -featmapDenseTrigLimit64, math.Nextafter(featmapDenseTrigLimit64, 0),
		featmapDenseTrigLimit32, math.Nextafter(featmapDenseTrigLimit32, 0), math.MaxFloat64, -math.MaxFloat64}
	x := make([]float64, n)
	for i := range x {
		switch r := rng.IntN(16); {
		case r == 0:
			x[i] = special[rng.IntN(len(special))]
		case r <= 2:
			x[i] = float64(rng.IntN(1<<20)-1<<19)*math.Pi/4 + (rng.Float64()-0.5)*1e-9
		case r == 3:
			x[i] = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(310)-300))
		case r == 4:
			x[i] = (rng.Float64() - 0.5) * 2 * featmapDenseTrigLimit64 * (1 + rng.Float64())
		default:
			x[i] = (rng.Float64() - 0.5) * math.Pow(10, float64(rng.IntN(4)))
		}
	}
	return x
}

// sampleSize is the number of arguments a function's test takes: 2²⁰,
// 2¹⁶ with -short.
func sampleSize() int {
	if testing.Short() {
		return 1 << 16
	}
	return 1 << 20
}

// TestCosSin64: featmapDenseCosSin64 on every path, over trigArgs and
// every length 0–40 (the tails of every lane width), gives cosines and
// sines within 1 ulp of math.Cos's and math.Sin's below 2²⁹ and theirs
// bit for bit beyond, for ±Inf and NaN; the features with a scale s are
// s times the unscaled values, rounded; it writes nothing beyond 2·len(p).
func TestCosSin64(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := trigArgs(rng, sampleSize())
	eachPath(t, func(t *testing.T) {
		check := func(p []float64) {
			d := make([]float64, 2*len(p)+1)
			d[2*len(p)] = 42
			featmapDenseCosSin64(d[:2*len(p)], p, 1)
			if d[2*len(p)] != 42 {
				t.Fatalf("len %d: wrote beyond 2·len(p)", len(p))
			}
			for j, v := range p {
				c, s := d[2*j], d[2*j+1]
				wc, ws := math.Cos(v), math.Sin(v)
				limit := uint64(1)
				if !(math.Abs(v) < featmapDenseTrigLimit64) {
					limit = 0
				}
				if math.IsNaN(v) {
					if !math.IsNaN(c) || !math.IsNaN(s) {
						t.Fatalf("cos, sin(NaN) = %v, %v", c, s)
					}
					continue
				}
				if ulps64(c, wc) > limit || ulps64(s, ws) > limit {
					t.Fatalf("cos, sin(%v) = %v, %v; math %v, %v (%d, %d ulp)", v, c, s, wc, ws, ulps64(c, wc), ulps64(s, ws))
				}
			}
			const scale = 0.08838834764831845
			e := make([]float64, 2*len(p))
			featmapDenseCosSin64(e, p, scale)
			for j := range e {
				if w := scale * d[j]; math.Float64bits(e[j]) != math.Float64bits(w) && !(math.IsNaN(w) && math.IsNaN(e[j])) {
					t.Fatalf("scaled by %v: %v, not %v·%v", scale, e[j], scale, d[j])
				}
			}
		}
		for n := range 41 {
			check(x[n : 2*n])
		}
		check(x)
	})
}

// TestCos64: featmapDenseCos64's s·cos(p + b) is s times the cosine
// featmapDenseCosSin64 gives for the rounded sum p + b, on every path and
// every length 0–40.
func TestCos64(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	p := trigArgs(rng, sampleSize())
	b := make([]float64, len(p))
	for j := range b {
		b[j] = 2 * math.Pi * rng.Float64()
	}
	eachPath(t, func(t *testing.T) {
		check := func(p, b []float64) {
			const scale = 0.125
			d := make([]float64, len(p)+1)
			d[len(p)] = 42
			featmapDenseCos64(d[:len(p)], p, b, scale)
			if d[len(p)] != 42 {
				t.Fatalf("len %d: wrote beyond len(p)", len(p))
			}
			a := make([]float64, len(p))
			for j := range a {
				a[j] = p[j] + b[j]
			}
			cs := make([]float64, 2*len(p))
			featmapDenseCosSin64(cs, a, 1)
			for j := range a {
				if w := scale * cs[2*j]; math.Float64bits(d[j]) != math.Float64bits(w) && !(math.IsNaN(w) && math.IsNaN(d[j])) {
					t.Fatalf("%v·cos(%v + %v) = %v, not %v", scale, p[j], b[j], d[j], w)
				}
			}
		}
		for n := range 41 {
			check(p[n:2*n], b[n:2*n])
		}
		check(p, b)
	})
}

// TestCosSin32: featmapDenseCosSin32 and featmapDenseCos32 on every path
// give cosines and sines within 2⁻²³ of the exact values of their float32
// arguments below 2¹⁵ (math's float64 functions stand for exact: their
// error is below 2⁻⁵²), math's float64 values rounded beyond, NaN for
// ±Inf and NaN, every length 0–40.
func TestCosSin32(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	x64 := trigArgs(rng, sampleSize())
	x := make([]float32, len(x64))
	b := make([]float32, len(x64))
	for j, v := range x64 {
		x[j] = float32(v)
		b[j] = float32(2 * math.Pi * rng.Float64())
	}
	eachPath(t, func(t *testing.T) {
		check := func(p []float32, v float32, c, s float32, what string) {
			w := float64(v)
			if math.IsNaN(w) || math.IsInf(w, 0) {
				if !math.IsNaN(float64(c)) || !math.IsNaN(float64(s)) {
					t.Fatalf("%s: cos, sin(%v) = %v, %v", what, v, c, s)
				}
				return
			}
			wc, ws := math.Cos(w), math.Sin(w)
			if !(math.Abs(w) < featmapDenseTrigLimit32) {
				if c != float32(wc) || s != float32(ws) {
					t.Fatalf("%s: cos, sin(%v) = %v, %v; not math's %v, %v", what, v, c, s, float32(wc), float32(ws))
				}
				return
			}
			if math.Abs(float64(c)-wc) > 0x1p-23 || math.Abs(float64(s)-ws) > 0x1p-23 {
				t.Fatalf("%s: cos, sin(%v) = %v, %v; exact %v, %v", what, v, c, s, wc, ws)
			}
		}
		run := func(p, b []float32) {
			d := make([]float32, 2*len(p)+1)
			d[2*len(p)] = 42
			featmapDenseCosSin32(d[:2*len(p)], p, 1)
			if d[2*len(p)] != 42 {
				t.Fatalf("len %d: wrote beyond 2·len(p)", len(p))
			}
			for j, v := range p {
				check(p, v, d[2*j], d[2*j+1], "CosSin32")
			}
			const scale = 0.0625
			e := make([]float32, 2*len(p))
			featmapDenseCosSin32(e, p, scale)
			for j := range e {
				if w := scale * d[j]; e[j] != w && !(w != w && e[j] != e[j]) {
					t.Fatalf("scaled by %v: %v, not %v·%v", scale, e[j], scale, d[j])
				}
			}
			c := make([]float32, len(p)+1)
			c[len(p)] = 42
			featmapDenseCos32(c[:len(p)], p, b, 1)
			if c[len(p)] != 42 {
				t.Fatalf("len %d: Cos32 wrote beyond len(p)", len(p))
			}
			for j, v := range p {
				a := v + b[j]
				s, _ := featmapDenseSincos32(a) // Cos32 gives no sine: check the cosine with a good one
				check(p, a, c[j], s, "Cos32")
			}
		}
		for n := range 41 {
			run(x[n:2*n], b[n:2*n])
		}
		run(x, b)
	})
}

// bigExp is e^x to about 100 bits, rounded to float64: the Taylor series
// of e^{x/2¹⁶} squared 16 times.
func bigExp(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x > 710:
		return math.Inf(1)
	case x < -800:
		return 0
	}
	const prec = 200
	r := new(big.Float).SetPrec(prec).SetFloat64(x)
	r.SetMantExp(r, -16)
	sum := new(big.Float).SetPrec(prec).SetInt64(1)
	term := new(big.Float).SetPrec(prec).SetInt64(1)
	for k := int64(1); k < 40; k++ {
		term.Mul(term, r)
		term.Quo(term, new(big.Float).SetPrec(prec).SetInt64(k))
		sum.Add(sum, term)
	}
	for range 16 {
		sum.Mul(sum, sum)
	}
	f, _ := sum.Float64()
	return f
}

// expArgs returns n arguments for the exponentials: uniform over
// [lo, hi], a quarter of them in [−1, 1].
func expArgs(rng *rand.Rand, n int, lo, hi float64) []float64 {
	x := make([]float64, n)
	for j := range x {
		x[j] = lo + (hi-lo)*rng.Float64()
		if j%4 == 0 {
			x[j] = 2*rng.Float64() - 1
		}
	}
	return x
}

// TestExp64: featmapDenseExp64 on every path is within 1 ulp of e^x
// (computed to 100 bits by bigExp) on [−750, 710] where the result is
// normal and within 2⁻¹⁰⁷⁴ where it is subnormal, +Inf from
// ln(MaxFloat64) on; e^{+Inf} = +Inf, e^{−Inf} = 0, NaN stays
// NaN; in place and every length 0–40. featmapDenseExpDist64 is
// featmapDenseExp64 of min(0, g − (q + nl)), bit for bit, also in place.
func TestExp64(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	x := expArgs(rng, sampleSize()/8, -750, 709)
	want := make([]float64, len(x))
	for j, v := range x {
		want[j] = bigExp(v)
	}
	edges := []float64{math.Inf(1), math.Inf(-1), math.NaN(), 0, math.Copysign(0, -1), -745.1332191019411, -745.1332191019412,
		-708.3964185322641, -708.3964185322642, 709.782712893384, 709.7827128933841, 710, 1e300, -1e300}
	for range 200 {
		edges = append(edges, 709+0.78*rng.Float64())
	}
	eachPath(t, func(t *testing.T) {
		run := func(x, exact []float64) {
			d := make([]float64, len(x)+1)
			d[len(x)] = 42
			featmapDenseExp64(d[:len(x)], x)
			if d[len(x)] != 42 {
				t.Fatalf("len %d: wrote beyond len(x)", len(x))
			}
			for j, v := range x {
				w := exact[j]
				switch {
				case math.IsNaN(v):
					if !math.IsNaN(d[j]) {
						t.Fatalf("exp(NaN) = %v", d[j])
					}
				case w < 0x1p-1022:
					if math.Abs(d[j]-w) > 0x1p-1074 {
						t.Fatalf("exp(%v) = %v, math %v: beyond 2⁻¹⁰⁷⁴", v, d[j], w)
					}
				case ulps64(d[j], w) > 1:
					t.Fatalf("exp(%v) = %v, not within 1 ulp of %v", v, d[j], w)
				}
			}
			in := append([]float64(nil), x...)
			featmapDenseExp64(in, in)
			for j := range in {
				if math.Float64bits(in[j]) != math.Float64bits(d[j]) && !math.IsNaN(d[j]) {
					t.Fatalf("in place: exp(%v) = %v, not %v", x[j], in[j], d[j])
				}
			}
		}
		for n := range 41 {
			run(x[n:2*n], want[n:2*n])
		}
		run(x, want)
		exact := make([]float64, len(edges))
		for j, v := range edges {
			exact[j] = bigExp(v)
		}
		run(edges, exact)

		// ExpDist: g and nl such that the argument spans [−750, 0] and a
		// little above 0 (rounding's negative d², clamped).
		g := make([]float64, len(x))
		nl := make([]float64, len(x))
		arg := make([]float64, len(x))
		const q = 3.25
		for j := range g {
			nl[j] = 10 * rng.Float64()
			g[j] = q + nl[j] - 750*rng.Float64()*rng.Float64() + 1e-9*(rng.Float64()-0.25)
			arg[j] = min(0, g[j]-(q+nl[j]))
		}
		want := make([]float64, len(x))
		featmapDenseExp64(want, arg)
		got := make([]float64, len(x))
		featmapDenseExpDist64(got, g, nl, q)
		featmapDenseExpDist64(g, g, nl, q)
		for j := range got {
			if math.Float64bits(got[j]) != math.Float64bits(want[j]) || math.Float64bits(g[j]) != math.Float64bits(want[j]) {
				t.Fatalf("ExpDist: %v (in place %v), not exp(%v) = %v", got[j], g[j], arg[j], want[j])
			}
		}
	})
}

// TestExp32: featmapDenseExp32 on every path is within 2⁻²³ (relative)
// of the exact e^x of its float32 argument where the result is a normal
// float32, within 2⁻¹⁴⁹ where it is subnormal, +Inf from 89 (and where
// e^x exceeds MaxFloat32), 0 below −104; e^{±Inf}, NaN as in float64;
// featmapDenseExpDist32 is featmapDenseExp32 of its argument, bit for bit.
func TestExp32(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	x64 := expArgs(rng, sampleSize(), -110, 90)
	x := make([]float32, len(x64))
	for j, v := range x64 {
		x[j] = float32(v)
	}
	x = append(x, float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.NaN()), 88.72283, 88.72284, -103.97208, -87.33654)
	eachPath(t, func(t *testing.T) {
		run := func(x []float32) {
			d := make([]float32, len(x)+1)
			d[len(x)] = 42
			featmapDenseExp32(d[:len(x)], x)
			if d[len(x)] != 42 {
				t.Fatalf("len %d: wrote beyond len(x)", len(x))
			}
			for j, v := range x {
				w := math.Exp(float64(v))
				got := float64(d[j])
				switch {
				case v != v:
					if got == got {
						t.Fatalf("exp(NaN) = %v", got)
					}
				case w > math.MaxFloat32:
					if !math.IsInf(got, 1) {
						t.Fatalf("exp(%v) = %v, not +Inf", v, got)
					}
				case w < 0x1p-126:
					if math.Abs(got-w) > 0x1p-149 {
						t.Fatalf("exp(%v) = %v, exact %v: beyond 2⁻¹⁴⁹", v, got, w)
					}
				case math.Abs(got-w) > 0x1p-23*w:
					t.Fatalf("exp(%v) = %v, exact %v: relative %v", v, got, w, math.Abs(got-w)/w)
				}
			}
		}
		for n := range 41 {
			run(x[n : 2*n])
		}
		run(x)

		g := make([]float32, len(x64))
		nl := make([]float32, len(x64))
		arg := make([]float32, len(x64))
		const q = 3.25
		for j := range g {
			nl[j] = float32(10 * rng.Float64())
			g[j] = float32(q + float64(nl[j]) - 110*rng.Float64()*rng.Float64())
			arg[j] = min(0, g[j]-(q+nl[j]))
		}
		want := make([]float32, len(g))
		featmapDenseExp32(want, arg)
		got := make([]float32, len(g))
		featmapDenseExpDist32(got, g, nl, q)
		for j := range got {
			if math.Float32bits(got[j]) != math.Float32bits(want[j]) {
				t.Fatalf("ExpDist32: %v, not exp(%v) = %v", got[j], arg[j], want[j])
			}
		}
	})
}
