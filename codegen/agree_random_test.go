package codegen

// The bounds TestEmittedAgree holds random-feature maps to (rff's and
// rf-pca's float32 paths, dense rf-pca maps, the components' bounds at
// huge phases) and its kernel errors on the domain.

import (
	"fmt"
	"math"

	"github.com/featmap/featmap/fmap"
)

// rfpcaDenseCheck checks one output of a dense rf-pca map of the input
// itself against the reference ref at x, within the bound the file
// states: each random feature z_j of frequency i within δ_j =
// c·(2γ_{n+1}·(Σₗ|ωᵢₗxₗ| + |bᵢ|) + 2⁻⁵³) + 2⁻⁵²·|z_j| of the reference's,
// each component within Σ_j |P_kj|·(δ_j + 2γ_{F+1}·|z_j − μ_j|), plus
// the float32 rounding round·|ref_k|. A non-finite input, or one beyond
// ±L (taken within ±L), is compare's business, as are maps whose t is
// ψ(x) (their stated bound is at the file's values of ψ).
func rfpcaDenseCheck(p *plan, x, got, ref []float64, round float64) string {
	k := p.asRandom()
	lim := k.denseLimit()
	for _, v := range x {
		if !(math.Abs(v) <= lim) {
			return compare(p, x, got, ref, round)
		}
	}
	if k.prepared() {
		return compare(p, x, got, ref, round)
	}
	bound, _ := rfpcaBounds(p, x)
	for c := range got {
		tol := bound[c]*(1+1e-9) + round*math.Abs(ref[c]) + 1e-300
		if round != 0 {
			tol += 0x1p-149
		}
		if d := math.Abs(got[c] - ref[c]); !(d <= tol) {
			return fmt.Sprintf("component %d is %v, want %v (difference %.3g > the stated bound %.3g)", c, got[c], ref[c], d, tol)
		}
	}
	return ""
}

// rfpcaBounds returns, per component of a dense rf-pca map of the input
// at x, the bound its file states against the reference evaluator (see
// rfpcaDenseCheck) and the float32 path's against the float64 value at
// x (see rfpca32Check).
func rfpcaBounds(p *plan, x []float64) (b64, b32 []float64) {
	k := p.asRandom()
	gamma := func(n int, u float64) float64 { v := float64(n) * u; return v / (1 - v) }
	// z: the reference's random features at x (the map without its
	// projection).
	m := p.m
	zm := &fmap.Map{Kernel: m.Kernel, InDim: m.InDim, Dim: k.lin.In, Domain: m.Domain, Method: m.Method, Stages: m.Stages[:len(m.Stages)-1]}
	z := make([]float64, k.lin.In)
	fmap.RowFeatures(zm, z, x)
	n, per := k.args, k.perFreq()
	dz, dz32 := make([]float64, len(z)), make([]float64, len(z))
	for j := range z {
		s := phaseSum(k, x, j/per)
		dz[j] = math.Abs(k.scale)*(2*gamma(n+1, 0x1p-53)*s+0x1p-53) + 0x1p-52*math.Abs(z[j])
		dz32[j] = math.Abs(k.scale)*(0x1p-23+float64(n+2)*0x1p-24*s) + 0x1p-24*math.Abs(z[j])
	}
	f := k.lin.In
	b64, b32 = make([]float64, p.dim), make([]float64, p.dim)
	g32 := gamma(f+3, 0x1p-24)
	for c := range b64 {
		row := k.lin.Proj[c*f : (c+1)*f]
		for j, pc := range row {
			zc, mu := z[j], 0.0
			if k.centred() {
				mu = k.lin.Mean[j]
				zc -= mu
			}
			b64[c] += math.Abs(pc) * (dz[j] + 2*gamma(f+1, 0x1p-53)*math.Abs(zc))
			b32[c] += math.Abs(pc) * ((1+g32)*(dz32[j]+0x1p-23*math.Abs(mu)) + g32*math.Abs(zc))
		}
	}
	return b64, b32
}

// rfpca32Check checks one output of a dense rf-pca map's float32 path
// against the reference ref at the float32 input x, within the bound the
// file states of the float64 value there — (1 + γ_{F+3})·Σ_j
// |P_kj|·(ε_j + 2⁻²³|μ_j|) + γ_{F+3}·Σ_j |P_kj|·|z_j − μ_j|, ε_j the rff
// float32 path's bound of feature j, γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴) — plus
// the float64 value's own bound against the reference. A row beyond
// ±L32 or not finite (the float64 evaluation rounded) is
// rfpcaDenseCheck's business.
func rfpca32Check(p *plan, x, got, ref []float64) string {
	k := p.asRandom()
	for _, v := range x {
		if !(math.Abs(v) <= k.limit32()) {
			return rfpcaDenseCheck(p, x, got, ref, 0x1p-24)
		}
	}
	b64, b32 := rfpcaBounds(p, x)
	for c := range got {
		tol := (b64[c]+b32[c])*(1+1e-9) + 0x1p-149*float64(k.lin.In+1)
		if d := math.Abs(got[c] - ref[c]); !(d <= tol) {
			return fmt.Sprintf("component %d is %v, want %v (difference %.3g > the stated bound %.3g)", c, got[c], ref[c], d, tol)
		}
	}
	return ""
}

// rff32Check checks one output of a random map's float32 path against
// the reference ref at the float32 input x, within the bound the file
// states: c·(2⁻²³ + (n + 2)·2⁻²⁴·(Σⱼ|ωᵢⱼxⱼ| + |bᵢ|)) + 2⁻²⁴·|Ψᵢ| per
// component of frequency i. A row beyond ±L32 or not finite (the float64
// evaluation rounded) is compare's business.
func rff32Check(p *plan, x, got, ref []float64) string {
	k := p.asRandom()
	for _, v := range x {
		if !(math.Abs(v) <= k.limit32()) {
			return compare(p, x, got, ref, 0x1p-24)
		}
	}
	n, per := k.args, k.perFreq()
	for c := range got {
		s := phaseSum(k, x, c/per)
		tol := math.Abs(k.scale)*(0x1p-23+float64(n+2)*0x1p-24*s)*(1+1e-9) + 0x1p-24*math.Abs(ref[c]) + 0x1p-149
		if d := math.Abs(got[c] - ref[c]); !(d <= tol) {
			return fmt.Sprintf("component %d is %v, want %v (difference %.3g > the stated bound %.3g)", c, got[c], ref[c], d, tol)
		}
	}
	return ""
}

// componentBounds returns the largest |Ψ_j| of every component of the map
// at any finite input, as the files state it, and the largest ‖Ψ‖²: √α of
// its term for a Fourier or modulation map (‖Ψ‖² ≤ Σα), the scale of
// random features (‖Ψ‖² ≤ 1 for cos-sin pairs, 2 for phases), ‖z‖ + ‖μ‖
// after a projection (P's rows are orthonormal, ‖z‖ ≤ √2).
func componentBounds(p *plan) (bounds []float64, total float64) {
	bounds = make([]float64, p.dim)
	fill := func(b float64) {
		for k := range bounds {
			bounds[k] = b
		}
	}
	switch {
	case p.asRandom() != nil && p.asRandom().lin != nil:
		b := math.Sqrt2 + norm(p.asRandom().lin.Mean)
		fill(b)
		return bounds, b * b
	case p.asRandom() != nil:
		fill(p.asRandom().scale)
		if p.asRandom().r.Features == fmap.Phase {
			return bounds, 2
		}
		return bounds, 1
	}
	k := 0
	for _, t := range p.m.Fourier().Terms {
		n := 0
		for _, w := range t.Freq {
			if w != 0 {
				n++
			}
		}
		c := 2
		switch {
		case n == 0:
			c = 1
		case p.form() == fmap.Modulation:
			c = 1 << n
		}
		for range c {
			bounds[k] = math.Sqrt(t.Weight)
			k++
		}
		total += t.Weight
	}
	if k != p.dim {
		panic(fmt.Sprintf("componentBounds: %d components for D = %d", k, p.dim))
	}
	return bounds, total
}

// kernelErrors returns the largest |Ψ̃(x)·Ψ̃(y) − Ψ(x)·Ψ(y)| over pairs of
// at most 500 of the domain's dense inputs, for the float64 and the float32
// outputs, and the largest ‖Ψ(x)‖² among them. Inputs whose phases reach
// 10⁹ (ExpChi2HugePsi's, all of its domain) are left out: their phases
// keep no correct digit in any evaluation, and what the files promise
// there (bounded components) is compare's.
func kernelErrors(g generatedCase, out64 []float64, out32 []float32) (k64, k32, r2 float64) {
	var idx []int
	for i, ok := range g.in.dense {
		if ok && phaseSize(g.p.m, g.in.xs[i]) < 1e9 {
			idx = append(idx, i)
		}
	}
	if step := (len(idx) + 499) / 500; step > 1 {
		var sub []int
		for j := 0; j < len(idx); j += step {
			sub = append(sub, idx[j])
		}
		idx = sub
	}
	d := g.p.dim
	ref := make([][]float64, len(idx))
	ref32 := make([][]float64, len(idx))
	o64 := make([][]float64, len(idx))
	o32 := make([][]float64, len(idx))
	for j, i := range idx {
		x := g.in.xs[i]
		ref[j] = make([]float64, d)
		fmap.RowFeatures(g.p.m, ref[j], x)
		x32 := make([]float64, len(x))
		for a, v := range x {
			x32[a] = float64(float32(v))
		}
		ref32[j] = make([]float64, d)
		fmap.RowFeatures(g.p.m, ref32[j], x32)
		o64[j] = out64[i*d : (i+1)*d]
		o32[j] = make([]float64, d)
		for k := range d {
			o32[j][k] = float64(out32[i*d+k])
		}
		r2 = math.Max(r2, dot(ref[j], ref[j]))
	}
	// dot(u, v) and dot(v, u) are the same products added in the same
	// order, so the pairs b ≥ a are every pair.
	for a := range idx {
		for b := a; b < len(idx); b++ {
			k64 = math.Max(k64, math.Abs(dot(o64[a], o64[b])-dot(ref[a], ref[b])))
			k32 = math.Max(k32, math.Abs(dot(o32[a], o32[b])-dot(ref32[a], ref32[b])))
		}
	}
	return k64, k32, r2
}

// phaseSum is Σₗ|ωᵢₗxₗ| (+ |bᵢ| for phase features) of frequency i at x,
// the scale of its phase's rounding in the bounds above.
func phaseSum(k *randomKind, x []float64, i int) float64 {
	s := 0.0
	for l, v := range x {
		s += math.Abs(k.r.Freq[i*k.args+l] * v)
	}
	if k.r.Features == fmap.Phase {
		s += math.Abs(k.r.Phase[i])
	}
	return s
}
