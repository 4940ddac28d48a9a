package codegen

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
		i := j / per
		s := 0.0
		for l, v := range x {
			s += math.Abs(k.r.Freq[i*n+l] * v)
		}
		if k.r.Features == fmap.Phase {
			s += math.Abs(k.r.Phase[i])
		}
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
