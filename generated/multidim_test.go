package generated

import (
	"math"
	"testing"
)

// emittedND is a generated map of n > 1 inputs behind slice adapters.
type emittedND struct {
	name    string
	dim, in int
	f       func(out, x []float64)
	slice   func(dst, src []float64)
	f32     func(out, x []float32)
	slice32 func(dst, src []float32)
}

var mapsND = []emittedND{
	{"RBF2DModS03D31", RBF2DModS03D31Dim, RBF2DModS03D31In,
		func(o, x []float64) {
			RBF2DModS03D31((*[RBF2DModS03D31Dim]float64)(o), (*[RBF2DModS03D31In]float64)(x))
		}, RBF2DModS03D31Slice,
		func(o, x []float32) {
			RBF2DModS03D31F32((*[RBF2DModS03D31Dim]float32)(o), (*[RBF2DModS03D31In]float32)(x))
		}, RBF2DModS03D31SliceF32},
}

// TestEmittedNDMatchesReference holds the n-D maps to their reference
// evaluator: on a grid over the domain no kernel value Ψ(x)·Ψ(y) moves by
// more than 10⁻³ of the measured L∞ error; the slice form equals the scalar
// one bit for bit; float32 rounds float64 (2⁻²³ of the vector's norm); NaN
// and ±Inf inputs give NaN; and the kernel error measured through the
// emitted code stays within the design's own measured L∞.
func TestEmittedNDMatchesReference(t *testing.T) {
	for _, e := range mapsND {
		t.Run(e.name, func(t *testing.T) {
			m := loadMap(t, e.name)
			if m.Dim != e.dim || m.InDim != e.in {
				t.Fatalf("designed %d→%d, emitted %d→%d", m.InDim, m.Dim, e.in, e.dim)
			}
			const g = 13
			var pts [][]float64
			var walk func(prefix []float64)
			walk = func(prefix []float64) {
				if len(prefix) == e.in {
					pts = append(pts, append([]float64(nil), prefix...))
					return
				}
				a := len(prefix)
				lo, hi := m.Domain.Lo[a], m.Domain.Hi[a]
				for i := range g {
					walk(append(prefix, lo+(hi-lo)*float64(i)/(g-1)))
				}
			}
			walk(nil)
			want, got := make([][]float64, len(pts)), make([][]float64, len(pts))
			for i, x := range pts {
				want[i], got[i] = make([]float64, e.dim), make([]float64, e.dim)
				m.Eval(want[i], x)
				e.f(got[i], x)
			}
			budget := 1e-3 * m.Errors.Reported.LInf
			worst, kernelErr := 0.0, 0.0
			for i := range pts {
				for j := range pts {
					worst = math.Max(worst, math.Abs(dot(got[i], got[j])-dot(want[i], want[j])))
					d2 := 0.0
					for a := range pts[i] {
						d := (pts[i][a] - pts[j][a]) / m.Kernel.Sigma[a]
						d2 += d * d
					}
					kernelErr = math.Max(kernelErr, math.Abs(dot(got[i], got[j])-math.Exp(-d2/2)))
				}
			}
			if !(worst <= budget) {
				t.Errorf("fast path changes a kernel value by %.3g, budget %.3g", worst, budget)
			}
			if !(kernelErr <= m.Errors.Reported.LInf*(1+1e-3)) {
				t.Errorf("kernel error through the emitted code %.4g exceeds the measured %.4g", kernelErr, m.Errors.Reported.LInf)
			}
			t.Logf("%d points, all pairs: fast path changes a kernel value by at most %.3g (budget %.3g); kernel error through the emitted code %.4g (measured L∞ %.4g)",
				len(pts), worst, budget, kernelErr, m.Errors.Reported.LInf)
			src := make([]float64, 0, len(pts)*e.in)
			for _, x := range pts {
				src = append(src, x...)
			}
			dst := make([]float64, e.dim*len(pts))
			e.slice(dst, src)
			src32 := make([]float32, len(src))
			for i, v := range src {
				src32[i] = float32(v)
			}
			dst32 := make([]float32, len(dst))
			e.slice32(dst32, src32)
			o32, x32, g64 := make([]float32, e.dim), make([]float32, e.in), make([]float64, e.dim)
			for i := range pts {
				for k := range e.dim {
					if dst[i*e.dim+k] != got[i][k] {
						t.Fatalf("Slice differs from the scalar form at %v", pts[i])
					}
				}
				copy(x32, src32[i*e.in:(i+1)*e.in])
				e.f32(o32, x32)
				x64 := make([]float64, e.in)
				for a, v := range x32 {
					x64[a] = float64(v)
				}
				e.f(g64, x64)
				tol := 0x1p-23*norm(g64) + budget
				for k := range e.dim {
					if o32[k] != dst32[i*e.dim+k] || math.Abs(float64(o32[k])-g64[k]) > tol {
						t.Fatalf("float32 at %v: %v (slice %v), float64 %v", x32, o32[k], dst32[i*e.dim+k], g64[k])
					}
				}
			}
			out := make([]float64, e.dim)
			for _, bad := range [][]float64{{math.NaN(), 1}, {1, math.Inf(1)}, {math.Inf(-1), 0}} {
				e.f(out, bad[:e.in])
				for k, v := range out {
					if !math.IsNaN(v) {
						t.Errorf("Ψ(%v)[%d] = %v, want NaN", bad, k, v)
					}
				}
			}
			if n := testing.AllocsPerRun(100, func() { e.f(out, pts[3]) }); n != 0 {
				t.Errorf("%v allocations per call", n)
			}
			if n := testing.AllocsPerRun(20, func() { e.slice(dst, src) }); n != 0 {
				t.Errorf("%v allocations per slice call", n)
			}
			func() {
				defer func() {
					if recover() == nil {
						t.Error("a slice with a partial tuple did not panic")
					}
				}()
				e.slice(make([]float64, e.dim), make([]float64, e.in+1))
			}()
		})
	}
}
