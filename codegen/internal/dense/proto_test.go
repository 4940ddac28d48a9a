package dense

// A hand-written prototype of the emitted functions N, NSlice, NSliceF32
// (and NSliceParallel) of two dense maps over the kernels of this package:
// random Fourier features of the RBF kernel (cos-sin, protoRFF) and
// Nyström maps of the RBF kernel (protoNys). It is the template codegen
// follows: where a field holds a size or a constant here, the emitted code
// has a Go constant or a package-level array decoded at init, in the same
// packed layout, and the functions take arrays (*[NIn]float64, …) instead
// of slices. docs/measurements/dense.md states the call sequences.

import (
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
)

const (
	// protoRows is the tile of rows NSlice takes at a time: a multiple of
	// the AVX-512 tile (12), the AVX2 tile (6) and the Go tile (4).
	protoRows = 12
	// protoCols is the chunk of a product's columns (phases, landmarks)
	// a tile takes at a time: the scratch of a tile is protoRows ×
	// protoCols numbers on the stack (24 KiB of float64), whatever the
	// map's size.
	protoCols = 256
	// protoMaxIn bounds n in this prototype (the emitted code's stack
	// arrays have the map's own n).
	protoMaxIn = 64
)

// protoRFF is a random-feature map of the RBF kernel: Ψ(x) = [cos ω_k·x,
// sin ω_k·x]/√m, m frequencies ω_k ∈ ℝⁿ.
type protoRFF struct {
	n, m   int
	scale  float64   // 1/√m, as the reference evaluator computes it
	w      []float64 // ω, m×n row-major: the reference loops'
	wp     []float64 // ω packed by featmapDensePack64 (what gen writes)
	wp32   []float32 // ω packed by featmapDensePack32 (decoded at init)
	limit  float64   // L = MaxFloat64/(2·max_k Σ_i |ω_ki|): beyond, N clamps
	lim32  float32   // MaxFloat32/(2·max_k Σ_i |ω_ki|): beyond, the float32 path is float64's
	scale3 float32
}

// newProtoRFF draws m frequencies of the RBF kernel of width sigma on n
// inputs.
func newProtoRFF(rng *rand.Rand, n, m int, sigma float64) *protoRFF {
	p := &protoRFF{n: n, m: m, scale: math.Sqrt(1 / float64(m)), w: make([]float64, m*n)}
	smax := 0.0
	for k := range m {
		s := 0.0
		for i := range n {
			v := rng.NormFloat64() / sigma
			p.w[k*n+i] = v
			s += math.Abs(v)
		}
		smax = max(smax, s)
	}
	p.limit = math.MaxFloat64 / (2 * smax)
	p.lim32 = float32(math.MaxFloat32 / (2 * smax))
	p.scale3 = float32(p.scale)
	p.wp = make([]float64, featmapDensePacked64(m, n))
	featmapDensePack64(p.wp, p.w, m, n)
	p.wp32 = make([]float32, featmapDensePacked32(m, n))
	featmapDensePack32(p.wp32, p.w, m, n)
	return p
}

// N writes Ψ(x) to out (2m numbers): today's edge rules (a non-finite
// input gives zeros, a coordinate beyond ±L is taken as ±L), then the
// phases by the one-row product and their cosines and sines.
func (p *protoRFF) N(out, x []float64) {
	n := p.n
	x = x[:n]
	if featmapDenseBeyond64(x, p.limit) {
		var c [protoMaxIn]float64
		for j, v := range x {
			if !(math.Abs(v) <= math.MaxFloat64) {
				clear(out[:2*p.m])
				return
			}
			c[j] = max(-p.limit, min(v, p.limit))
		}
		x = c[:n]
	}
	var ph [protoCols]float64
	for c0 := 0; c0 < p.m; c0 += protoCols {
		cols := min(protoCols, p.m-c0)
		featmapDenseMul64(ph[:], cols, x, n, p.wp[c0*n:], featmapDensePanel64*n, 1, n, cols, false)
		featmapDenseCosSin64(out[2*c0:], ph[:cols], p.scale)
	}
}

// NSlice maps the rows of src (n numbers each) to those of dst (2m each):
// tiles of protoRows rows, each a product per chunk of protoCols phases
// and the chunk's cosines and sines; rows with a coordinate beyond ±L
// (or not finite) are then done again by N.
func (p *protoRFF) NSlice(dst, src []float64) {
	n, d := p.n, 2*p.m
	rows := len(src) / n
	var ph [protoRows * protoCols]float64
	for i0 := 0; i0 < rows; i0 += protoRows {
		r := min(protoRows, rows-i0)
		x := src[i0*n : (i0+r)*n]
		for c0 := 0; c0 < p.m; c0 += protoCols {
			cols := min(protoCols, p.m-c0)
			featmapDenseMul64(ph[:], cols, x, n, p.wp[c0*n:], featmapDensePanel64*n, r, n, cols, false)
			if cols == p.m { // the tile's rows of dst are one run
				featmapDenseCosSin64(dst[i0*d:(i0+r)*d], ph[:r*cols], p.scale)
				continue
			}
			for i := range r {
				featmapDenseCosSin64(dst[(i0+i)*d+2*c0:], ph[i*cols:(i+1)*cols], p.scale)
			}
		}
		for i := range r {
			if row := x[i*n : (i+1)*n]; featmapDenseBeyond64(row, p.limit) {
				p.N(dst[(i0+i)*d:(i0+i+1)*d], row)
			}
		}
	}
}

// NSliceF32 is NSlice in float32: the product of the float32 rows with ω
// rounded to float32, the float32 cosines and sines; rows with a
// coordinate beyond ±MaxFloat32/(2·max Σ|ω|) (or not finite), where the
// float32 phases could overflow, are computed by N in float64 and
// rounded.
func (p *protoRFF) NSliceF32(dst, src []float32) {
	n, d := p.n, 2*p.m
	rows := len(src) / n
	var ph [protoRows * protoCols]float32
	for i0 := 0; i0 < rows; i0 += protoRows {
		r := min(protoRows, rows-i0)
		x := src[i0*n : (i0+r)*n]
		for c0 := 0; c0 < p.m; c0 += protoCols {
			cols := min(protoCols, p.m-c0)
			featmapDenseMul32(ph[:], cols, x, n, p.wp32[c0*n:], featmapDensePanel32*n, r, n, cols, false)
			if cols == p.m {
				featmapDenseCosSin32(dst[i0*d:(i0+r)*d], ph[:r*cols], p.scale3)
				continue
			}
			for i := range r {
				featmapDenseCosSin32(dst[(i0+i)*d+2*c0:], ph[i*cols:(i+1)*cols], p.scale3)
			}
		}
		for i := range r {
			if row := x[i*n : (i+1)*n]; featmapDenseBeyond32(row, p.lim32) {
				var x64 [protoMaxIn]float64
				var o64 [2 * 512]float64
				for j, v := range row {
					x64[j] = float64(v)
				}
				p.N(o64[:d], x64[:n])
				for j := range d {
					dst[(i0+i)*d+j] = float32(o64[j])
				}
			}
		}
	}
}

// NSliceParallel is NSlice over workers goroutines (GOMAXPROCS if
// workers < 1), each a stripe of whole tiles of rows, no scratch shared.
func (p *protoRFF) NSliceParallel(dst, src []float64, workers int) {
	protoParallel(p.n, 2*p.m, dst, src, workers, p.NSlice)
}

// protoParallel splits the rows of src into stripes of whole tiles, one
// per worker, and maps each with slice in its own goroutine.
func protoParallel(n, d int, dst, src []float64, workers int, slice func(dst, src []float64)) {
	rows := len(src) / n
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	tiles := (rows + protoRows - 1) / protoRows
	workers = min(workers, tiles)
	if workers <= 1 {
		slice(dst, src)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		a, b := tiles*w/workers*protoRows, min(rows, tiles*(w+1)/workers*protoRows)
		wg.Add(1)
		go func() {
			defer wg.Done()
			slice(dst[a*d:b*d], src[a*n:b*n])
		}()
	}
	wg.Wait()
}

// ref is the reference evaluator's Ψ(x) (fmap.Random.eval): each phase
// one sum in the order of the inputs, math.Cos and math.Sin.
func (p *protoRFF) ref(out, x []float64) {
	for k := range p.m {
		ph := 0.0
		for i, w := range p.w[k*p.n : (k+1)*p.n] {
			ph += w * x[i]
		}
		out[2*k], out[2*k+1] = p.scale*math.Cos(ph), p.scale*math.Sin(ph)
	}
}

// today is the emitted code's N before the dense kernels (four partial
// sums per phase, then math.Sincos's arithmetic), the baseline of the
// benchmarks; its edge rules are left out (they cost a compare per input).
func (p *protoRFF) today(out, x []float64) {
	n := p.n
	for k := range p.m {
		w := p.w[k*n : (k+1)*n]
		var s0, s1, s2, s3 float64
		for j := 0; j <= n-4; j += 4 {
			s0 += w[j] * x[j]
			s1 += w[j+1] * x[j+1]
			s2 += w[j+2] * x[j+2]
			s3 += w[j+3] * x[j+3]
		}
		s, c := math.Sincos((s0 + s1) + (s2 + s3))
		out[2*k], out[2*k+1] = p.scale*c, p.scale*s
	}
}

// protoNys is a Nyström map of the RBF kernel: Ψ(x) = P·[K(x, l_j)]_j,
// m landmarks l_j ∈ ℝⁿ, P (d×m) standing for W^{+1/2}. NSlice computes
// the kernel values from d² = ‖x'‖² + ‖l'‖² − 2x'·l' (x' = (x − c)/(√2σ),
// l' likewise, c the domain's centre), the cross terms by a product.
type protoNys struct {
	n, m, d int
	sigma   []float64 // σ_i
	land    []float64 // l_j, m×n row-major
	proj    []float64 // P, d×m row-major
	// The packed constants gen writes (float64) and init rounds (float32).
	c, s2     []float64 // the centre c_i and 1/(2σ_i²)
	lp        []float64 // 2·s2 ⊙ (l_j − c) packed by featmapDensePack64 (m×n)
	nl        []float64 // ‖l'_j‖² = Σ_i s2_i (l_ji − c_i)²
	pp        []float64 // P packed by featmapDensePack64 (d×m)
	c32, s232 []float32
	lp32      []float32
	nl32      []float32
	pp32      []float32
	// lim: a row with some |x_i − c_i| beyond it (or not finite) takes
	// the exact path, where d²'s parts could overflow.
	lim float64
}

// newProtoNys draws m landmarks uniformly on [0, 16]ⁿ, P with normal
// entries of variance 1/m, width sigma on every axis.
func newProtoNys(rng *rand.Rand, n, m, d int, sigma float64) *protoNys {
	p := &protoNys{n: n, m: m, d: d, sigma: make([]float64, n), land: make([]float64, m*n), proj: make([]float64, d*m)}
	for i := range p.sigma {
		p.sigma[i] = sigma
	}
	for i := range p.land {
		p.land[i] = float64(rng.IntN(17))
	}
	for i := range p.proj {
		p.proj[i] = rng.NormFloat64() / math.Sqrt(float64(m))
	}
	p.c, p.s2 = make([]float64, n), make([]float64, n)
	s2max := 0.0
	for i := range n {
		p.c[i] = 8 // the centre of the domain [0, 16]
		p.s2[i] = 1 / (2 * p.sigma[i] * p.sigma[i])
		s2max = max(s2max, p.s2[i])
	}
	lc := make([]float64, m*n)
	p.nl = make([]float64, m)
	for j := range m {
		for i := range n {
			t := p.land[j*n+i] - p.c[i]
			lc[j*n+i] = 2 * p.s2[i] * t
			p.nl[j] += p.s2[i] * t * t
		}
	}
	p.lp = make([]float64, featmapDensePacked64(m, n))
	featmapDensePack64(p.lp, lc, m, n)
	p.pp = make([]float64, featmapDensePacked64(d, m))
	featmapDensePack64(p.pp, p.proj, d, m)
	p.lp32 = make([]float32, featmapDensePacked32(m, n))
	featmapDensePack32(p.lp32, lc, m, n)
	p.pp32 = make([]float32, featmapDensePacked32(d, m))
	featmapDensePack32(p.pp32, p.proj, d, m)
	p.c32, p.s232, p.nl32 = make([]float32, n), make([]float32, n), make([]float32, m)
	for i := range n {
		p.c32[i], p.s232[i] = float32(p.c[i]), float32(p.s2[i])
	}
	for j := range m {
		p.nl32[j] = float32(p.nl[j])
	}
	// ‖x'‖², ‖l'‖² and |2x'·l'| stay below MaxFloat32/4 when every
	// |x_i − c_i| and |l_i − c_i| is below lim: n·s2max·lim² ≤ that.
	p.lim = math.Sqrt(math.MaxFloat32 / (4 * float64(n) * s2max))
	return p
}

// prep writes t = x − c of one row and returns q = Σ s2_i t_i² (four
// partial sums, so that the additions overlap), and whether the row takes
// the exact path.
func (p *protoNys) prep(t, x []float64) (q float64, exact bool) {
	t, x = t[:p.n], x[:p.n]
	c, s2 := p.c[:len(x)], p.s2[:len(x)]
	var q0, q1, q2, q3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		u0, u1, u2, u3 := x[i]-c[i], x[i+1]-c[i+1], x[i+2]-c[i+2], x[i+3]-c[i+3]
		t[i], t[i+1], t[i+2], t[i+3] = u0, u1, u2, u3
		q0 = featmapDenseFMA(s2[i]*u0, u0, q0)
		q1 = featmapDenseFMA(s2[i+1]*u1, u1, q1)
		q2 = featmapDenseFMA(s2[i+2]*u2, u2, q2)
		q3 = featmapDenseFMA(s2[i+3]*u3, u3, q3)
	}
	for ; i < len(x); i++ {
		u := x[i] - c[i]
		t[i] = u
		q0 = featmapDenseFMA(s2[i]*u, u, q0)
	}
	return (q0 + q1) + (q2 + q3), featmapDenseBeyond64(t, p.lim)
}

// prep32 is prep in float32.
func (p *protoNys) prep32(t, x []float32) (q float32, exact bool) {
	t, x = t[:p.n], x[:p.n]
	c, s2 := p.c32[:len(x)], p.s232[:len(x)]
	var q0, q1, q2, q3 float32
	i := 0
	for ; i+4 <= len(x); i += 4 {
		u0, u1, u2, u3 := x[i]-c[i], x[i+1]-c[i+1], x[i+2]-c[i+2], x[i+3]-c[i+3]
		t[i], t[i+1], t[i+2], t[i+3] = u0, u1, u2, u3
		q0 += s2[i] * u0 * u0
		q1 += s2[i+1] * u1 * u1
		q2 += s2[i+2] * u2 * u2
		q3 += s2[i+3] * u3 * u3
	}
	for ; i < len(x); i++ {
		u := x[i] - c[i]
		t[i] = u
		q0 += s2[i] * u * u
	}
	return (q0 + q1) + (q2 + q3), featmapDenseBeyond32(t, float32(p.lim))
}

// N writes Ψ(x) to out: the one-row products, so its values are NSlice's
// bit for bit.
func (p *protoNys) N(out, x []float64) {
	var t [protoMaxIn]float64
	q, exact := p.prep(t[:], x)
	if exact {
		p.exact(out, x)
		return
	}
	var kv [protoCols]float64
	for j0 := 0; j0 < p.m; j0 += protoCols {
		mb := min(protoCols, p.m-j0)
		featmapDenseMul64(kv[:], mb, t[:p.n], p.n, p.lp[j0*p.n:], featmapDensePanel64*p.n, 1, p.n, mb, false)
		featmapDenseExpDist64(kv[:mb], kv[:mb], p.nl[j0:j0+mb], q)
		featmapDenseMul64(out, p.d, kv[:mb], mb, p.pp[j0*featmapDensePanel64:], featmapDensePanel64*p.m, 1, mb, p.d, j0 > 0)
	}
}

// NSlice maps the rows of src to those of dst: per tile of protoRows
// rows, t = x − c and q; per chunk of protoCols landmarks the cross terms
// by a product, the kernel values in place, and their product with P's
// chunk added into dst; rows on the exact path are then done again.
func (p *protoNys) NSlice(dst, src []float64) {
	n, d := p.n, p.d
	rows := len(src) / n
	var t [protoRows * protoMaxIn]float64
	var q [protoRows]float64
	var kv [protoRows * protoCols]float64
	for i0 := 0; i0 < rows; i0 += protoRows {
		r := min(protoRows, rows-i0)
		var exact uint16
		for i := range r {
			var e bool
			q[i], e = p.prep(t[i*n:], src[(i0+i)*n:])
			if e {
				exact |= 1 << i
			}
		}
		for j0 := 0; j0 < p.m; j0 += protoCols {
			mb := min(protoCols, p.m-j0)
			featmapDenseMul64(kv[:], mb, t[:], n, p.lp[j0*n:], featmapDensePanel64*n, r, n, mb, false)
			for i := range r {
				k := kv[i*mb : (i+1)*mb]
				featmapDenseExpDist64(k, k, p.nl[j0:j0+mb], q[i])
			}
			featmapDenseMul64(dst[i0*d:], d, kv[:], mb, p.pp[j0*featmapDensePanel64:], featmapDensePanel64*p.m, r, mb, d, j0 > 0)
		}
		for i := range r {
			if exact&(1<<i) != 0 {
				p.exact(dst[(i0+i)*d:(i0+i+1)*d], src[(i0+i)*n:(i0+i+1)*n])
			}
		}
	}
}

// NSliceF32 is NSlice in float32 (rows on the exact path: float64's
// exact path, rounded).
func (p *protoNys) NSliceF32(dst, src []float32) {
	n, d := p.n, p.d
	rows := len(src) / n
	var t [protoRows * protoMaxIn]float32
	var q [protoRows]float32
	var kv [protoRows * protoCols]float32
	for i0 := 0; i0 < rows; i0 += protoRows {
		r := min(protoRows, rows-i0)
		var exact uint16
		for i := range r {
			var e bool
			q[i], e = p.prep32(t[i*n:], src[(i0+i)*n:])
			if e {
				exact |= 1 << i
			}
		}
		for j0 := 0; j0 < p.m; j0 += protoCols {
			mb := min(protoCols, p.m-j0)
			featmapDenseMul32(kv[:], mb, t[:], n, p.lp32[j0*n:], featmapDensePanel32*n, r, n, mb, false)
			for i := range r {
				k := kv[i*mb : (i+1)*mb]
				featmapDenseExpDist32(k, k, p.nl32[j0:j0+mb], q[i])
			}
			featmapDenseMul32(dst[i0*d:], d, kv[:], mb, p.pp32[j0*featmapDensePanel32:], featmapDensePanel32*p.m, r, mb, d, j0 > 0)
		}
		for i := range r {
			if exact&(1<<i) != 0 {
				var x64 [protoMaxIn]float64
				var o64 [1024]float64
				for j, v := range src[(i0+i)*n : (i0+i+1)*n] {
					x64[j] = float64(v)
				}
				p.exact(o64[:d], x64[:n])
				for j := range d {
					dst[(i0+i)*d+j] = float32(o64[j])
				}
			}
		}
	}
}

// NSliceParallel is NSlice over workers goroutines (see protoParallel).
func (p *protoNys) NSliceParallel(dst, src []float64, workers int) {
	protoParallel(p.n, p.d, dst, src, workers, p.NSlice)
}

// exact is the reference evaluator's Ψ(x) (fmap.Nystroem.eval): zeros for
// a non-finite input, else each kernel value from the exact differences,
// then each component one sum over the landmarks in order. It is the
// emitted code's path for the rows the fast path leaves.
func (p *protoNys) exact(out, x []float64) {
	for _, v := range x[:p.n] {
		if !(math.Abs(v) <= math.MaxFloat64) {
			clear(out[:p.d])
			return
		}
	}
	var k [1024]float64
	for j := range p.m {
		s := 0.0
		for i, v := range x[:p.n] {
			u := v - p.land[j*p.n+i]
			s += u * u / (2 * p.sigma[i] * p.sigma[i])
		}
		k[j] = math.Exp(-s)
	}
	for i := range p.d {
		v := 0.0
		for j, c := range p.proj[i*p.m : (i+1)*p.m] {
			v += c * k[j]
		}
		out[i] = v
	}
}

// today is the emitted code's N before the dense kernels (the kernel
// values by the exact differences, each divided by 2σ², then P·k), the
// benchmarks' baseline.
func (p *protoNys) today(out, x []float64) { p.exact(out, x) }
