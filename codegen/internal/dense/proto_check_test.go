package dense

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// gamma is γ_k = k·u/(1 − k·u), the bound of the relative error of a sum
// of k terms in any order (Higham, Accuracy and Stability of Numerical
// Algorithms, §3.1) with unit roundoff u.
func gamma(k int, u float64) float64 { return float64(k) * u / (1 - float64(k)*u) }

const (
	u64 = 0x1p-53
	u32 = 0x1p-24
)

// protoRows returns rows of n inputs like the digits' pixel counts
// (integers 0–16, a third of them 0), then the edge rows: a NaN, an
// infinity, a coordinate of 1e300 and one of −MaxFloat64, a row of
// 1e20s (beyond float32's limit of the maps, within float64's).
func protoInputs(rng *rand.Rand, rows, n int) []float64 {
	x := make([]float64, rows*n)
	for i := range x {
		if rng.IntN(3) > 0 {
			x[i] = float64(rng.IntN(17))
		}
	}
	edge := func(i int, v float64) {
		for j := range n {
			x[i*n+j] = float64(rng.IntN(17))
		}
		x[i*n+rng.IntN(n)] = v
	}
	edge(rows-1, math.NaN())
	edge(rows-2, math.Inf(-1))
	edge(rows-3, 1e300)
	edge(rows-4, -math.MaxFloat64)
	for j := range n {
		x[(rows-5)*n+j] = 1e20
	}
	edge(rows-6, 4e38) // beyond float32, so that the float32 row is +Inf
	return x
}

// edgeRows is the number of edge rows at the end of protoInputs.
const edgeRows = 6

func to32(x []float64) []float32 {
	y := make([]float32, len(x))
	for i, v := range x {
		y[i] = float32(v)
	}
	return y
}

// protoShapes are the maps of the prototype: the digits' 64 inputs with
// the rff maps of D = 256 and 1024 and the Nyström maps of 256 landmarks
// (D = 256) and 64 (D = 64, examples/digits' shape).
var protoShapes = []struct {
	name    string
	nys     bool
	n, m, d int
	sigma   float64
}{
	{"rff-d256", false, 64, 128, 256, 49},
	{"rff-d1024", false, 64, 512, 1024, 49},
	{"nystroem-d256", true, 64, 256, 256, 34.7},
	{"nystroem-d64", true, 64, 64, 64, 34.7},
}

// TestPrototypeRFF: the prototype's NSlice of random Fourier features on
// every path is within the error bound of its arithmetic of the
// reference evaluator's Ψ (the phases' 2γ_n·Σ|ω_i x_i|, both sides', and
// the sines' and cosines' own), N gives NSlice's values bit for bit, and
// so does NSliceParallel; NSliceF32 is within its float32 bound (ω and
// the phase in float32, float32 cosines); edge rows behave as N's rules
// say (zeros for a non-finite coordinate, clamping at ±L).
func TestPrototypeRFF(t *testing.T) {
	for _, sh := range protoShapes {
		if sh.nys {
			continue
		}
		rng := rand.New(rand.NewPCG(31, uint64(sh.m)))
		p := newProtoRFF(rng, sh.n, sh.m, sh.sigma)
		rows := 157
		x := protoInputs(rng, rows, sh.n)
		x32 := to32(x)
		t.Run(sh.name, func(t *testing.T) {
			eachPath(t, func(t *testing.T) {
				d := 2 * p.m
				got := make([]float64, rows*d)
				p.NSlice(got, x)
				worst, worstAbs := 0.0, 0.0
				ref := make([]float64, d)
				one := make([]float64, d)
				for i := range rows {
					row := x[i*sh.n : (i+1)*sh.n]
					p.N(one, row)
					if !slices.Equal(one, got[i*d:(i+1)*d]) {
						t.Fatalf("%s row %d: N differs from NSlice", sh.name, i)
					}
					if i >= rows-edgeRows {
						continue // the edge rows: below
					}
					p.ref(ref, row)
					for k := range p.m {
						s := 0.0
						for j, w := range p.w[k*sh.n : (k+1)*sh.n] {
							s += math.Abs(w * row[j])
						}
						bound := p.scale * (2*gamma(sh.n, u64)*s + 0x1p-49)
						for c := range 2 {
							e := math.Abs(got[i*d+2*k+c] - ref[2*k+c])
							if e > bound {
								t.Fatalf("%s row %d component %d: %v, reference %v: error %.3g beyond the bound %.3g", sh.name, i, 2*k+c, got[i*d+2*k+c], ref[2*k+c], e, bound)
							}
							worst, worstAbs = max(worst, e/bound), max(worstAbs, e)
						}
					}
				}
				t.Logf("%s float64: largest error %.3g, %.3g of its bound", sh.name, worstAbs, worst)
				// Edge rows: zeros for a non-finite coordinate, else bounded
				// components (the phases keep no correct digit there).
				edges := func(what string, i int, row []float64, out func(c int) float64) {
					finite := true
					for _, v := range row {
						finite = finite && !math.IsNaN(v) && !math.IsInf(v, 0)
					}
					for c := range d {
						if v := out(c); !finite && v != 0 || !(math.Abs(v) <= p.scale*(1+0x1p-20)) {
							t.Fatalf("%s %s edge row %d: component %d is %v", sh.name, what, i, c, v)
						}
					}
				}
				for i := rows - edgeRows; i < rows; i++ {
					edges("float64", i, x[i*sh.n:(i+1)*sh.n], func(c int) float64 { return got[i*d+c] })
				}
				par := make([]float64, len(got))
				p.NSliceParallel(par, x, 2)
				if !slices.Equal(par, got) {
					t.Fatalf("%s: NSliceParallel differs from NSlice", sh.name)
				}

				g32 := make([]float32, rows*d)
				p.NSliceF32(g32, x32)
				worst, worstAbs = 0, 0
				for i := range rows - edgeRows {
					row := make([]float64, sh.n)
					for j, v := range x32[i*sh.n : (i+1)*sh.n] {
						row[j] = float64(v)
					}
					p.ref(ref, row)
					for k := range p.m {
						s := 0.0
						for j, w := range p.w[k*sh.n : (k+1)*sh.n] {
							s += math.Abs(w * row[j])
						}
						dph := (gamma(sh.n, u32)*(1+u32)+u32+gamma(sh.n, u64))*s + 0x1p-40
						bound := p.scale*(dph+0x1p-23+3*u32) + 0x1p-49
						for c := range 2 {
							e := math.Abs(float64(g32[i*d+2*k+c]) - ref[2*k+c])
							if e > bound {
								t.Fatalf("%s float32 row %d component %d: %v, reference %v: error %.3g beyond the bound %.3g", sh.name, i, 2*k+c, g32[i*d+2*k+c], ref[2*k+c], e, bound)
							}
							worst, worstAbs = max(worst, e/bound), max(worstAbs, e)
						}
					}
				}
				t.Logf("%s float32: largest error %.3g, %.3g of its bound", sh.name, worstAbs, worst)
				for i := rows - edgeRows; i < rows; i++ {
					row := make([]float64, sh.n)
					for j, v := range x32[i*sh.n : (i+1)*sh.n] {
						row[j] = float64(v)
					}
					edges("float32", i, row, func(c int) float64 { return float64(g32[i*d+c]) })
				}
			})
		})
	}
}

// nysBound returns the bound of |Ψ̃_i − Ψ_i| for every component of the
// prototype's Nyström map at row x against the reference evaluator's:
// d² from its parts is within δ_j = γ·A_j of the exact (A_j = ‖x'‖² +
// ‖l'_j‖² + 2|x'|·|l'_j| summed by coordinate, γ = γ_{n+8} of the
// arithmetic's unit roundoff u, the float32 constants' rounding
// included), so |K̃_j − K_j| ≤ e^{−(d²−δ)}·δ plus the exponentials' own
// errors; the projection adds Σ_j |P_ij|·|ΔK_j| and both sums' rounding.
func (p *protoNys) bound(x []float64, u float64) []float64 {
	n := p.n
	dk := make([]float64, p.m)
	kv := make([]float64, p.m)
	expErr := 0x1p-51
	if u == u32 {
		expErr = 0x1p-23 + 0x1p-51
	}
	for j := range p.m {
		a, d2 := 0.0, 0.0
		for i := range n {
			t, l := x[i]-p.c[i], p.land[j*n+i]-p.c[i]
			a += p.s2[i] * (t*t + l*l + 2*math.Abs(t*l))
			dd := x[i] - p.land[j*n+i]
			d2 += dd * dd * p.s2[i]
		}
		delta := 2*gamma(n+8, u)*a + gamma(n+3, u64)*d2
		kv[j] = math.Exp(-d2)
		dk[j] = math.Exp(-max(0, d2-delta))*delta*1.01 + expErr*kv[j]
	}
	out := make([]float64, p.d)
	for i := range p.d {
		s, sk := 0.0, 0.0
		for j, c := range p.proj[i*p.m : (i+1)*p.m] {
			s += math.Abs(c) * dk[j]
			sk += math.Abs(c) * kv[j]
		}
		out[i] = 1.01*(s+(gamma(p.m, u)+2*u+gamma(p.m, u64))*sk) + 0x1p-60
	}
	return out
}

// TestPrototypeNystroem: the prototype's Nyström NSlice on every path is
// within nysBound of the reference evaluator's Ψ, N and NSliceParallel
// give its values bit for bit, NSliceF32 is within the float32 bound,
// and the edge rows take the exact path (zeros for a non-finite input,
// the reference's values for a finite one).
func TestPrototypeNystroem(t *testing.T) {
	for _, sh := range protoShapes {
		if !sh.nys {
			continue
		}
		rng := rand.New(rand.NewPCG(37, uint64(sh.m)))
		p := newProtoNys(rng, sh.n, sh.m, sh.d, sh.sigma)
		rows := 157
		x := protoInputs(rng, rows, sh.n)
		for i := 0; i < 20; i++ { // rows at landmarks: d² = 0 for one of them
			copy(x[i*sh.n:(i+1)*sh.n], p.land[i*sh.n:(i+1)*sh.n])
		}
		x32 := to32(x)
		t.Run(sh.name, func(t *testing.T) {
			eachPath(t, func(t *testing.T) {
				d := p.d
				got := make([]float64, rows*d)
				p.NSlice(got, x)
				ref := make([]float64, d)
				one := make([]float64, d)
				worst, worstAbs := 0.0, 0.0
				for i := range rows {
					row := x[i*sh.n : (i+1)*sh.n]
					p.N(one, row)
					if !slices.Equal(one, got[i*d:(i+1)*d]) {
						t.Fatalf("%s row %d: N differs from NSlice", sh.name, i)
					}
					p.exact(ref, row)
					if i >= rows-edgeRows {
						if !slices.Equal(ref, got[i*d:(i+1)*d]) {
							t.Fatalf("%s edge row %d: not the exact path's values", sh.name, i)
						}
						continue
					}
					b := p.bound(row, u64)
					for c := range d {
						e := math.Abs(got[i*d+c] - ref[c])
						if e > b[c] {
							t.Fatalf("%s row %d component %d: %v, reference %v: error %.3g beyond the bound %.3g", sh.name, i, c, got[i*d+c], ref[c], e, b[c])
						}
						worst, worstAbs = max(worst, e/b[c]), max(worstAbs, e)
					}
				}
				t.Logf("%s float64: largest error %.3g, %.3g of its bound", sh.name, worstAbs, worst)
				par := make([]float64, len(got))
				p.NSliceParallel(par, x, 2)
				if !slices.Equal(par, got) {
					t.Fatalf("%s: NSliceParallel differs from NSlice", sh.name)
				}

				g32 := make([]float32, rows*d)
				p.NSliceF32(g32, x32)
				worst, worstAbs = 0, 0
				for i := range rows {
					row := make([]float64, sh.n)
					for j, v := range x32[i*sh.n : (i+1)*sh.n] {
						row[j] = float64(v)
					}
					p.exact(ref, row)
					if i >= rows-edgeRows {
						for c := range d {
							if g32[i*d+c] != float32(ref[c]) {
								t.Fatalf("%s float32 edge row %d: component %d %v, not the exact path's %v rounded", sh.name, i, c, g32[i*d+c], ref[c])
							}
						}
						continue
					}
					b := p.bound(row, u32)
					for c := range d {
						e := math.Abs(float64(g32[i*d+c]) - ref[c])
						if e > b[c] {
							t.Fatalf("%s float32 row %d component %d: %v, reference %v: error %.3g beyond the bound %.3g", sh.name, i, c, g32[i*d+c], ref[c], e, b[c])
						}
						worst, worstAbs = max(worst, e/b[c]), max(worstAbs, e)
					}
				}
				t.Logf("%s float32: largest error %.3g, %.3g of its bound", sh.name, worstAbs, worst)
			})
		})
	}
}

// TestPrototypeAllocs: N, NSlice and NSliceF32 of every prototype map
// allocate nothing.
func TestPrototypeAllocs(t *testing.T) {
	for _, sh := range protoShapes {
		rng := rand.New(rand.NewPCG(41, uint64(sh.m)))
		x := protoInputs(rng, 40, sh.n)
		x32 := to32(x)
		dst := make([]float64, 40*sh.d)
		dst32 := make([]float32, 40*sh.d)
		var n, s, s32 func()
		if sh.nys {
			p := newProtoNys(rng, sh.n, sh.m, sh.d, sh.sigma)
			n = func() { p.N(dst, x) }
			s = func() { p.NSlice(dst, x) }
			s32 = func() { p.NSliceF32(dst32, x32) }
		} else {
			p := newProtoRFF(rng, sh.n, sh.m, sh.sigma)
			n = func() { p.N(dst, x) }
			s = func() { p.NSlice(dst, x) }
			s32 = func() { p.NSliceF32(dst32, x32) }
		}
		for name, f := range map[string]func(){"N": n, "NSlice": s, "NSliceF32": s32} {
			if a := testing.AllocsPerRun(20, f); a != 0 {
				t.Errorf("%s %s: %v allocations per call", sh.name, name, a)
			}
		}
	}
	_ = fmt.Sprint()
}
