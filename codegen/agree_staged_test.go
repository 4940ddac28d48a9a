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
	gamma := func(n int) float64 { u := float64(n) * 0x1p-53; return u / (1 - u) }
	// z: the reference's random features at x (the map without its
	// projection).
	m := p.m
	zm := &fmap.Map{Kernel: m.Kernel, InDim: m.InDim, Dim: k.lin.In, Domain: m.Domain, Method: m.Method, Stages: m.Stages[:len(m.Stages)-1]}
	z := make([]float64, k.lin.In)
	fmap.RowFeatures(zm, z, x)
	n, per := k.args, k.perFreq()
	dz := make([]float64, len(z))
	for j := range z {
		i := j / per
		s := 0.0
		for l, v := range x {
			s += math.Abs(k.r.Freq[i*n+l] * v)
		}
		if k.r.Features == fmap.Phase {
			s += math.Abs(k.r.Phase[i])
		}
		dz[j] = math.Abs(k.scale)*(2*gamma(n+1)*s+0x1p-53) + 0x1p-52*math.Abs(z[j])
	}
	f := k.lin.In
	for c := range got {
		row := k.lin.Proj[c*f : (c+1)*f]
		tol := 0.0
		for j, pc := range row {
			zc := z[j]
			if k.centred() {
				zc -= k.lin.Mean[j]
			}
			tol += math.Abs(pc) * (dz[j] + 2*gamma(f+1)*math.Abs(zc))
		}
		tol = tol*(1+1e-9) + round*math.Abs(ref[c]) + 1e-300
		if round != 0 {
			tol += 0x1p-149
		}
		if d := math.Abs(got[c] - ref[c]); !(d <= tol) {
			return fmt.Sprintf("component %d is %v, want %v (difference %.3g > the stated bound %.3g)", c, got[c], ref[c], d, tol)
		}
	}
	return ""
}
