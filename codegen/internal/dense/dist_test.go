package dense

import (
	"math"
	"math/rand/v2"
	"testing"
)

// refDist64 is C = −Σ|a − w| (l1) or −Σ(a − w)² (+ C0 with acc), one
// chain per element in the order of k, the squares fused or not.
func refDist64(c0, a, w []float64, rows, k, cols, lda, ldc int, acc, l1, fused bool) []float64 {
	c := append([]float64(nil), c0...)
	for i := range rows {
		for j := range cols {
			s := 0.0
			if acc {
				s = c[i*ldc+j]
			}
			for kk := range k {
				t := a[i*lda+kk] - w[j*k+kk]
				switch {
				case l1:
					s -= math.Abs(t)
				case fused:
					s = math.FMA(-t, t, s)
				default:
					s -= float64(t * t)
				}
			}
			c[i*ldc+j] = s
		}
	}
	return c
}

func refDist32(c0, a, w []float32, rows, k, cols, lda, ldc int, acc, l1, fused bool) []float32 {
	c := append([]float32(nil), c0...)
	for i := range rows {
		for j := range cols {
			var s float32
			if acc {
				s = c[i*ldc+j]
			}
			for kk := range k {
				t := a[i*lda+kk] - w[j*k+kk]
				switch {
				case l1:
					s -= float32(math.Abs(float64(t)))
				case fused:
					s = float32(math.FMA(-float64(t), float64(t), float64(s)))
				default:
					s -= float32(t * t)
				}
			}
			c[i*ldc+j] = s
		}
	}
	return c
}

// TestDist: featmapDenseNegL1Dist64/32 and featmapDenseNegSqDist64/32 on
// every path and the short shapes of mulShapes (the kernels share the
// products' loops, which TestMul64 holds on every shape), with and without acc, give every
// element as one chain in the order of k: on the assembly's paths the
// fused chain bit for bit, on Go's the fused or the unfused one; nothing
// written beyond cols.
func TestDist(t *testing.T) {
	rng := rand.New(rand.NewPCG(61, 62))
	rs, ks, cs := mulShapes(true)
	eachPath(t, func(t *testing.T) {
		asm := pathName() != "go"
		for _, l1 := range []bool{true, false} {
			for _, rows := range rs {
				for _, k := range ks {
					for _, cols := range cs {
						for _, acc := range []bool{false, true} {
							lda, ldc := k+rng.IntN(3), cols+rng.IntN(3)
							a := randMat(rng, max(rows*lda, 1))
							w := randMat(rng, cols*k)
							b := make([]float64, featmapDensePacked64(cols, k))
							featmapDensePack64(b, w, cols, k)
							c0 := randMat(rng, max(rows*ldc, 1))
							c := append([]float64(nil), c0...)
							if l1 {
								featmapDenseNegL1Dist64(c, ldc, a, lda, b, featmapDensePanel64*k, rows, k, cols, acc)
							} else {
								featmapDenseNegSqDist64(c, ldc, a, lda, b, featmapDensePanel64*k, rows, k, cols, acc)
							}
							fused := refDist64(c0, a, w, rows, k, cols, lda, ldc, acc, l1, true)
							plain := refDist64(c0, a, w, rows, k, cols, lda, ldc, acc, l1, false)
							for i, v := range c {
								if math.Float64bits(v) != math.Float64bits(fused[i]) && (asm || math.Float64bits(v) != math.Float64bits(plain[i])) {
									t.Fatalf("l1 %v rows %d k %d cols %d acc %v: c[%d] = %v, want %v (unfused %v)", l1, rows, k, cols, acc, i, v, fused[i], plain[i])
								}
							}

							a32, w32, c032 := to32(a), to32(w), to32(c0)
							b32 := make([]float32, featmapDensePacked32(cols, k))
							featmapDensePack32(b32, w, cols, k)
							c32 := append([]float32(nil), c032...)
							if l1 {
								featmapDenseNegL1Dist32(c32, ldc, a32, lda, b32, featmapDensePanel32*k, rows, k, cols, acc)
							} else {
								featmapDenseNegSqDist32(c32, ldc, a32, lda, b32, featmapDensePanel32*k, rows, k, cols, acc)
							}
							f32 := refDist32(c032, a32, w32, rows, k, cols, lda, ldc, acc, l1, true)
							p32 := refDist32(c032, a32, w32, rows, k, cols, lda, ldc, acc, l1, false)
							for i, v := range c32 {
								if v != f32[i] && (asm || v != p32[i]) && !(!asm && ulps32(v, f32[i]) <= 1) {
									t.Fatalf("float32 l1 %v rows %d k %d cols %d acc %v: c[%d] = %v, want %v (unfused %v)", l1, rows, k, cols, acc, i, v, f32[i], p32[i])
								}
							}
						}
					}
				}
			}
		}
	})
}

// TestMaternPoly: featmapDenseMatern64 is fmap.MaternOf's formula of
// √d² within 2 ulp of e^{−a} times its factor's rounding, in place too,
// and featmapDensePoly64 is (scale·g + offset)^degree bit for bit.
func TestMaternPoly(t *testing.T) {
	rng := rand.New(rand.NewPCG(63, 64))
	d2 := make([]float64, 1003)
	for j := range d2 {
		d2[j] = 30 * rng.Float64() * rng.Float64()
	}
	d2[0], d2[1], d2[2] = 0, -1e-17, 800*800
	eachPath(t, func(t *testing.T) {
		for _, nu := range []float64{0.5, 1.5, 2.5} {
			got := make([]float64, len(d2))
			featmapDenseMatern64(got, d2, nu)
			in := append([]float64(nil), d2...)
			featmapDenseMatern64(in, in, nu)
			for j, v := range d2 {
				r := math.Sqrt(max(v, 0))
				var want float64
				switch nu {
				case 0.5:
					want = math.Exp(-r)
				case 1.5:
					a := math.Sqrt(3) * r
					want = (1 + a) * math.Exp(-a)
				default:
					a := math.Sqrt(5) * r
					want = (1 + a + a*a/3) * math.Exp(-a)
				}
				if math.Abs(got[j]-want) > 8e-16*want || in[j] != got[j] {
					t.Fatalf("ν %v at d² %v: %v (in place %v), want %v", nu, v, got[j], in[j], want)
				}
			}
		}
		g := randMat(rng, 100)
		p := make([]float64, len(g))
		featmapDensePoly64(p, g, 0.5, 1, 3)
		for j, v := range g {
			b := float64(0.5*v) + 1
			if want := b * b * b; p[j] != want {
				t.Fatalf("poly(%v) = %v, want %v", v, p[j], want)
			}
		}
	})
}

// TestMaternPoly32: featmapDenseMatern32 is the Matérn function of the
// float32 r = √d² rounded, a = c·r (c rounded to float32): e^{−r} within
// 2⁻²³ relative + 2⁻¹⁴⁹, the other two within the rounding of a times
// their slope (at most 1/e in a) + 2⁻²¹ (the exp's and the factor's
// roundings, each value at most 1), in place too, finite and at most
// 2⁻¹³⁰ far beyond; featmapDensePoly32 is (scale·g + offset)^degree in
// float32 bit for bit.
func TestMaternPoly32(t *testing.T) {
	rng := rand.New(rand.NewPCG(63, 65))
	d2 := make([]float32, 1003)
	for j := range d2 {
		d2[j] = float32(30 * rng.Float64() * rng.Float64())
	}
	d2[0], d2[1], d2[2], d2[3], d2[4] = 0, -1e-17, 800*800, 1e36, 0x1p-140
	eachPath(t, func(t *testing.T) {
		for _, nu := range []float64{0.5, 1.5, 2.5} {
			got := make([]float32, len(d2))
			featmapDenseMatern32(got, d2, nu)
			in := append([]float32(nil), d2...)
			featmapDenseMatern32(in, in, nu)
			c := 1.0
			switch nu {
			case 1.5:
				c = float64(float32(math.Sqrt(3)))
			case 2.5:
				c = float64(float32(math.Sqrt(5)))
			}
			for j, v := range d2 {
				r := float64(float32(math.Sqrt(float64(max(v, 0)))))
				a := c * r
				var want, tol float64
				switch nu {
				case 0.5:
					want = math.Exp(-r)
					tol = 0x1p-23*want + 0x1p-149
				case 1.5:
					want = (1 + a) * math.Exp(-a)
					tol = a*0x1p-24/math.E + 0x1p-21
				default:
					want = (1 + a + a*a/3) * math.Exp(-a)
					tol = a*0x1p-24/math.E + 0x1p-21
				}
				if a > 104 {
					tol = 0x1p-130
				}
				if g := float64(got[j]); !(math.Abs(g-want) <= tol) || in[j] != got[j] {
					t.Fatalf("ν %v at d² %v: %v (in place %v), want %v ± %.3g", nu, v, got[j], in[j], want, tol)
				}
			}
		}
		g := make([]float32, 100)
		for j := range g {
			g[j] = float32(4*rng.Float64() - 2)
		}
		p := make([]float32, len(g))
		featmapDensePoly32(p, g, 0.5, 1, 3)
		for j, v := range g {
			b := float32(0.5*v) + 1
			if want := b * b * b; p[j] != want {
				t.Fatalf("poly(%v) = %v, want %v", v, p[j], want)
			}
		}
	})
}
