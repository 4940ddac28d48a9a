package chum

import (
	"math"
	"slices"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/vtrig"
)

// fitSet is a sampled fitting problem in n ≥ 1 dimensions: evaluation
// points z_i (flattened, n coordinates each), weights w_i and signature
// values k_i, the functional form of the terms and the norm to minimise.
// A term with frequency ω contributes α·φ(ω, z) with φ = cos(ω·z) (Fourier,
// the projection form in n-D) or Π_c cos(ω_c z_c) (Modulation).
type fitSet struct {
	n    int
	form fmap.Form
	z    []float64
	w, k []float64
	norm fmap.Norm
	// nonneg keeps frequencies nonnegative: 1-D Fourier maps (cos is even)
	// and modulation terms (each factor is).
	nonneg bool
}

// newFitSet samples sig on the points z with the weights w.
func newFitSet(form fmap.Form, norm fmap.Norm, z [][]float64, w []float64, sig func([]float64) float64) *fitSet {
	n := 1
	if len(z) > 0 {
		n = len(z[0])
	}
	f := &fitSet{n: n, form: form, z: make([]float64, 0, n*len(z)), w: w, k: make([]float64, len(z)), norm: norm}
	f.nonneg = form == fmap.Modulation || n == 1
	for i, p := range z {
		f.z = append(f.z, p...)
		f.k[i] = sig(p)
	}
	return f
}

func (f *fitSet) size() int { return len(f.w) }

func (f *fitSet) point(i int) []float64 { return f.z[i*f.n : (i+1)*f.n] }

// phiGrad returns φ(ω, z) and stores ∂φ/∂ω_c in g (if g is not nil).
func (f *fitSet) phiGrad(om, z, g []float64) float64 {
	if f.form == fmap.Modulation {
		p := 1.0
		for c, w := range om {
			if w != 0 {
				p *= math.Cos(w * z[c])
			}
		}
		if g != nil {
			for c, w := range om {
				g[c] = 0
				if w == 0 {
					continue
				}
				q := -z[c] * math.Sin(w*z[c])
				for d, v := range om {
					if d != c && v != 0 {
						q *= math.Cos(v * z[d])
					}
				}
				g[c] = q
			}
		}
		return p
	}
	ph := 0.0
	for c, w := range om {
		ph += w * z[c]
	}
	if g == nil {
		return math.Cos(ph)
	}
	// math.Sincos gives math.Sin's and math.Cos's values (the same
	// reduction and polynomials) in less time than the two calls.
	s, co := math.Sincos(ph)
	for c := range om {
		g[c] = -z[c] * s
	}
	return co
}

// phiGrads sets phi[i] = φ(ω, z_i) and grad[i·n:(i+1)·n] = ∂φ/∂ω at every
// point, bit for bit as phiGrad does, with the cosines and sines of
// vtrig.Sincos (math.Sincos's bits, a batch at a time); a 1-D Fourier
// term without phiGrad's loops (its sum 0 + ωz is ωz, or +0 for −0: the
// same sine and cosine).
func (f *fitSet) phiGrads(om, phi, grad []float64) {
	if f.n != 1 || f.form != fmap.FourierForm {
		if f.n > trigChunk {
			for i := range phi {
				phi[i] = f.phiGrad(om, f.point(i), grad[i*f.n:(i+1)*f.n])
			}
			return
		}
		var sn, cs [trigChunk]float64
		for i0 := 0; i0 < len(phi); i0 += trigChunk / f.n {
			m := min(len(phi)-i0, trigChunk/f.n)
			f.trig(om, i0, m, sn[:], cs[:])
			f.phiBlock(om, m, cs[:], phi[i0:i0+m])
			f.gradBlock(om, i0, m, sn[:], cs[:], grad[i0*f.n:(i0+m)*f.n])
		}
		return
	}
	w := om[0]
	phi, grad = phi[:len(f.z)], grad[:len(f.z)]
	for i, z := range f.z {
		ph := w * z
		if ph == 0 {
			ph = 0
		}
		phi[i] = ph
	}
	vtrig.Sincos(grad, phi, phi)
	for i, z := range f.z {
		grad[i] = -z * grad[i]
	}
}

// trigChunk is the size of the arrays on the stack in which phiGrads and
// phis take the cosines and sines of a block of points at once: in n
// dimensions, trigChunk/n points.
const trigChunk = 256

// trig computes the cosines (and, if sn is not nil, the sines) that φ(ω, ·)
// and ∂φ/∂ω take at the m points i0 ≤ i < i0 + m, for phiBlock and
// gradBlock: for a
// modulation term cos(ω_c z_ic) at cs[c·m + i − i0] for each c with
// ω_c ≠ 0, for a Fourier term cos(ω·z_i) at cs[i − i0] (ω·z summed as
// phiGrad sums it); the sines at the same places in sn. n·m ≤ len(cs).
func (f *fitSet) trig(om []float64, i0, m int, sn, cs []float64) {
	n := f.n
	if f.form == fmap.Modulation {
		for c, w := range om {
			if w == 0 {
				continue
			}
			x := cs[c*m : (c+1)*m]
			for k := range x {
				x[k] = w * f.z[(i0+k)*n+c]
			}
			if sn == nil {
				vtrig.Cos(x, x)
			} else {
				vtrig.Sincos(sn[c*m:(c+1)*m], x, x)
			}
		}
		return
	}
	x := cs[:m]
	for k := range x {
		z := f.point(i0 + k)
		ph := 0.0
		for c, w := range om {
			ph += w * z[c]
		}
		x[k] = ph
	}
	if sn == nil {
		vtrig.Cos(x, x)
	} else {
		vtrig.Sincos(sn[:m], x, x)
	}
}

// phiBlock sets phi[k] = φ(ω, z_i), i = i0 + k, for the block of m points
// from i0 whose cosines trig computed: phiGrad's products, 1·Π cos(ω_c z_ic)
// over the c with ω_c ≠ 0 in that order (a modulation term), or cos(ω·z_i)
// (a Fourier term), so the same bits. It takes the block a coordinate at a
// time, every point's product in the same order as phiGrad's.
func (f *fitSet) phiBlock(om []float64, m int, cs, phi []float64) {
	phi = phi[:m]
	if f.form != fmap.Modulation {
		copy(phi, cs[:m])
		return
	}
	for k := range phi {
		phi[k] = 1
	}
	for c, w := range om {
		if w != 0 {
			x := cs[c*m : (c+1)*m]
			for k := range phi {
				phi[k] *= x[k]
			}
		}
	}
}

// gradBlock sets g[k·n + c] = ∂φ/∂ω_c at z_i, i = i0 + k, for the block of
// m points from i0 whose cosines and sines trig computed: phiGrad's
// −z_c·sin(ω_c z_c)·Π_{d≠c} cos(ω_d z_d) in its order (a modulation term;
// 0 for ω_c = 0), or −z_c·sin(ω·z) (a Fourier term), a coordinate at a
// time.
func (f *fitSet) gradBlock(om []float64, i0, m int, sn, cs, g []float64) {
	n := f.n
	z := f.z[i0*n : (i0+m)*n]
	g = g[:m*n]
	if f.form != fmap.Modulation {
		for c := range om {
			for k, s := range sn[:m] {
				g[k*n+c] = -z[k*n+c] * s
			}
		}
		return
	}
	for c, w := range om {
		if w == 0 {
			for k := range m {
				g[k*n+c] = 0
			}
			continue
		}
		for k, s := range sn[c*m : (c+1)*m] {
			g[k*n+c] = -z[k*n+c] * s
		}
		for d, v := range om {
			if d != c && v != 0 {
				for k, x := range cs[d*m : (d+1)*m] {
					g[k*n+c] *= x
				}
			}
		}
	}
}

// phis sets phi[i] = φ(ω, z_i) for the points i0 ≤ i < i0 + len(phi), bit
// for bit phiGrad's (as phiGrads, without the gradient).
func (f *fitSet) phis(om []float64, i0 int, phi []float64) {
	if f.n > trigChunk {
		for k := range phi {
			phi[k] = f.phiGrad(om, f.point(i0+k), nil)
		}
		return
	}
	var cs [trigChunk]float64
	step := trigChunk / f.n
	for b := 0; b < len(phi); b += step {
		m := min(len(phi)-b, step)
		f.trig(om, i0+b, m, nil, cs[:])
		f.phiBlock(om, m, cs[:], phi[b:b+m])
	}
}

// movable lists the coordinates of ω that the continuous refinement and the
// polish may move: all of a nonzero Fourier frequency, the nonzero ones of
// a modulation term (a zero factor stays 1, keeping D fixed).
func (f *fitSet) movable(om []float64) []int {
	var mv []int
	zero := isZero(om)
	for c, w := range om {
		if f.form == fmap.Modulation && w == 0 || f.form == fmap.FourierForm && zero {
			continue
		}
		mv = append(mv, c)
	}
	return mv
}

func isZero(om []float64) bool {
	for _, w := range om {
		if w != 0 {
			return false
		}
	}
	return true
}

// termDims is D_ω: 1 for ω = 0 and 2 otherwise for Fourier terms (Chum eq.
// 3), 2^{#nonzero ω_c} for modulation terms (§6.2).
func (f *fitSet) termDims(om []float64) int {
	return fmap.TermDim(f.form, om)
}

// residuals sets r_i = w_i (k_i − Σ_j α_j φ(ω_j, z_i)), the sum over j in
// order for each point, with the cosines of vtrig (math.Cos's bits) taken
// a term and a block of points at a time.
func (f *fitSet) residuals(r []float64, omega [][]float64, alpha []float64) {
	var buf [trigChunk]float64
	for i0 := 0; i0 < len(r); i0 += trigChunk {
		rr := r[i0:min(len(r), i0+trigChunk)]
		copy(rr, f.k[i0:])
		for j, a := range alpha {
			if a == 0 {
				continue
			}
			phi := buf[:len(rr)]
			if f.n == 1 && f.form == fmap.FourierForm {
				// φ = cos(ω z), without phiGrad's loops (its 0 + ωz is
				// ωz, or +0 for −0, whose cosine is the same).
				w := omega[j][0]
				for k, z := range f.z[i0 : i0+len(rr)] {
					phi[k] = w * z
				}
				vtrig.Cos(phi, phi)
			} else {
				f.phis(omega[j], i0, phi)
			}
			for k, p := range phi {
				rr[k] -= a * p
			}
		}
		for k := range rr {
			rr[k] = f.w[i0+k] * rr[k]
		}
	}
}

// polishTrig holds cos(ω_j z_i) and sin(ω_j z_i) of a 1-D Fourier iterate
// at every point, for the terms of nonzero weight (known[j]): the trial
// point's residuals compute them (residualsTrig) and, once the step is
// accepted, the polish's columns take them instead of computing them again.
type polishTrig struct {
	cos, sin [][]float64
	known    []bool
}

// residualsTrig is residuals for a 1-D Fourier set that also records
// cos(ω_j z_i) and sin(ω_j z_i) of the terms of nonzero weight in t. Its
// residuals are residuals' bit for bit: vtrig.Sincos gives math.Sincos's
// values, whose cosine is math.Cos's (the same reduction and polynomial),
// and the sum runs in the same order.
func (f *fitSet) residualsTrig(r []float64, omega [][]float64, alpha []float64, t *polishTrig) {
	nz := len(r)
	t.known = slices.Grow(t.known[:0], len(alpha))[:len(alpha)]
	for len(t.cos) < len(alpha) {
		t.cos, t.sin = append(t.cos, nil), append(t.sin, nil)
	}
	for j, a := range alpha {
		t.known[j] = a != 0
		if a != 0 {
			t.cos[j], t.sin[j] = grow(t.cos[j], nz), grow(t.sin[j], nz)
		}
	}
	for j, a := range alpha {
		if a == 0 {
			continue
		}
		// phiGrads' argument: ωz, or +0 for −0 (whose cosine is the same;
		// its sine is the +0 phiGrads takes).
		w, c := omega[j][0], t.cos[j][:nz]
		for i, z := range f.z[:nz] {
			ph := w * z
			if ph == 0 {
				ph = 0
			}
			c[i] = ph
		}
		vtrig.Sincos(t.sin[j][:nz], c, c)
	}
	// r_i = k_i − Σ_j α_j cos(ω_j z_i), the terms in order for each point,
	// taken a term at a time over all points.
	copy(r, f.k[:nz])
	for j, a := range alpha {
		if a != 0 {
			for i, c := range t.cos[j][:nz] {
				r[i] -= a * c
			}
		}
	}
	for i := range r {
		r[i] = f.w[i] * r[i]
	}
}

// objective is the weighted error of (ω, α) on the set in the set's norm.
func (f *fitSet) objective(omega [][]float64, alpha []float64) float64 {
	r := make([]float64, f.size())
	f.residuals(r, omega, alpha)
	return f.normOf(r)
}

func (f *fitSet) normOf(r []float64) float64 {
	v := 0.0
	for _, e := range r {
		if f.norm == fmap.L1 {
			v += math.Abs(e)
		} else {
			v = maxAbs(v, e)
		}
	}
	return v
}

// maxAbs is math.Max(m, |x|) for m ≥ 0 or NaN. math.Max is a call to an
// assembly routine on amd64, the better part of the loops over points that
// take a maximum; this one inlines (the built-in max would too, but where
// a NaN meets +Inf it gives NaN, math.Max +Inf).
func maxAbs(m, x float64) float64 {
	a := math.Abs(x)
	switch {
	case a > m:
		return a
	case a <= m:
		return m
	case m > math.MaxFloat64 || a > math.MaxFloat64:
		return math.Inf(1) // a NaN beside +Inf: math.Max's +Inf
	}
	return a + m // a NaN
}
