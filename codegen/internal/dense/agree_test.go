package dense

import (
	"math"
	"math/rand/v2"
	"testing"
)

// fusedGo reports whether featmapDenseFMA rounds once in this build (a
// target with math.FMA, or amd64 built with GOAMD64=v3).
func fusedGo() bool {
	a := witness(1 + 0x1p-30)
	return featmapDenseFMA(a, a, -1) != float64(a*a)-1
}

// witness returns x where the compiler cannot see it as a constant.
//
//go:noinline
func witness(x float64) float64 { return x }

// outputs are every function's outputs on one set of arguments, as the
// path the flags select computes them.
type outputs struct {
	mul64                          []float64
	mul32                          []float32
	cossin64, cos64, exp64, dist64 []float64
	cossin32, cos32, exp32, dist32 []float32
}

func allOutputs(rng *rand.Rand) func() outputs {
	const rows, k, cols = 13, 70, 37
	a := randMat(rng, rows*k)
	w := randMat(rng, cols*k)
	b64 := make([]float64, featmapDensePacked64(cols, k))
	featmapDensePack64(b64, w, cols, k)
	b32 := make([]float32, featmapDensePacked32(cols, k))
	featmapDensePack32(b32, w, cols, k)
	a32 := make([]float32, len(a))
	for i, v := range a {
		a32[i] = float32(v)
	}
	p := trigArgs(rng, 4099)
	ph := make([]float64, len(p))
	for j := range ph {
		ph[j] = 6 * rng.Float64()
	}
	e := expArgs(rng, 4099, -750, 710)
	nl := make([]float64, len(e))
	for j := range nl {
		nl[j] = rng.Float64()
	}
	f32 := func(x []float64) []float32 {
		y := make([]float32, len(x))
		for i, v := range x {
			y[i] = float32(v)
		}
		return y
	}
	p32, ph32, nl32 := f32(p), f32(ph), f32(nl)
	e32 := f32(expArgs(rng, 4099, -110, 90))
	return func() outputs {
		var o outputs
		o.mul64 = make([]float64, rows*cols)
		featmapDenseMul64(o.mul64, cols, a, k, b64, 16*k, rows, k, cols, false)
		o.mul32 = make([]float32, rows*cols)
		featmapDenseMul32(o.mul32, cols, a32, k, b32, 32*k, rows, k, cols, false)
		o.cossin64 = make([]float64, 2*len(p))
		featmapDenseCosSin64(o.cossin64, p, 0.3)
		o.cos64 = make([]float64, len(p))
		featmapDenseCos64(o.cos64, p, ph, 0.3)
		o.exp64 = make([]float64, len(e))
		featmapDenseExp64(o.exp64, e)
		o.dist64 = make([]float64, len(e))
		featmapDenseExpDist64(o.dist64, e, nl, 0.5)
		o.cossin32 = make([]float32, 2*len(p32))
		featmapDenseCosSin32(o.cossin32, p32, 0.3)
		o.cos32 = make([]float32, len(p32))
		featmapDenseCos32(o.cos32, p32, ph32, 0.3)
		o.exp32 = make([]float32, len(e32))
		featmapDenseExp32(o.exp32, e32)
		o.dist32 = make([]float32, len(e32))
		featmapDenseExpDist32(o.dist32, e32, nl32, 0.5)
		return o
	}
}

// TestPathsAgree: the AVX2 and AVX-512 paths give every function's
// outputs bit for bit alike; so does the Go path for the float64
// functions in a build where featmapDenseFMA fuses (GOAMD64=v3 here, or
// arm64), and for the float32 ones within 1 ulp (its multiply-adds round
// twice in rare ties) in any build.
func TestPathsAgree(t *testing.T) {
	run := allOutputs(rand.New(rand.NewPCG(21, 22)))
	got := map[string]outputs{}
	eachPath(t, func(t *testing.T) { got[pathName()] = run() })
	same64 := func(what string, a, b []float64) {
		for i := range a {
			if math.Float64bits(a[i]) != math.Float64bits(b[i]) && !(math.IsNaN(a[i]) && math.IsNaN(b[i])) {
				t.Errorf("%s[%d]: %v and %v", what, i, a[i], b[i])
				return
			}
		}
	}
	near32 := func(what string, a, b []float32, tol uint32) {
		n := 0
		for i := range a {
			if a[i] != a[i] && b[i] != b[i] {
				continue
			}
			if d := ulps32(a[i], b[i]); d > tol {
				t.Errorf("%s[%d]: %v and %v", what, i, a[i], b[i])
				return
			} else if d > 0 {
				n++
			}
		}
		if n > 0 {
			t.Logf("%s: %d of %d outputs 1 ulp apart", what, n, len(a))
		}
	}
	cmp := func(x, y string, go64 bool, tol uint32) {
		a, b := got[x], got[y]
		if go64 {
			same64(x+"/"+y+" mul64", a.mul64, b.mul64)
			same64(x+"/"+y+" cossin64", a.cossin64, b.cossin64)
			same64(x+"/"+y+" cos64", a.cos64, b.cos64)
			same64(x+"/"+y+" exp64", a.exp64, b.exp64)
			same64(x+"/"+y+" dist64", a.dist64, b.dist64)
		}
		near32(x+"/"+y+" cossin32", a.cossin32, b.cossin32, tol)
		near32(x+"/"+y+" cos32", a.cos32, b.cos32, tol)
		near32(x+"/"+y+" exp32", a.exp32, b.exp32, tol)
		near32(x+"/"+y+" dist32", a.dist32, b.dist32, tol)
	}
	ref := ""
	for _, p := range []string{"avx512", "avx2"} {
		if _, ok := got[p]; ok {
			if ref != "" {
				cmp(ref, p, true, 0)
				t.Logf("%s and %s agree", ref, p)
				same32 := got[ref].mul32
				for i, v := range got[p].mul32 {
					if v != same32[i] {
						t.Errorf("mul32[%d]: %v and %v", i, same32[i], v)
						break
					}
				}
			}
			ref = p
		}
	}
	if ref == "" {
		t.Skip("no assembly here")
	}
	cmp(ref, "go", fusedGo(), 1)
	if !fusedGo() {
		t.Log("featmapDenseFMA does not fuse in this build: the Go path's float64 bits are not compared")
	}
}
