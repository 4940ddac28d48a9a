package codegen

import (
	"fmt"
	"math"
)

// nysDenseCheck checks one output of a dense Nyström map against the
// reference ref at x, within the bound the file states: each kernel value
// within its form's bound of the exact (nysKernelBounds, with the
// reference's own rounding), each component within Σ_j |P_kj|·that +
// γ_m·Σ_j |P_kj|·|K_j| (and the reference's own rounding of P·k, as much
// again), plus the float32 rounding round·|ref_k|. A non-finite input, or
// one the exact path takes, is compare's business.
func nysDenseCheck(p *plan, x, got, ref []float64, round float64) string {
	q := p.asNystroem()
	for i, v := range x {
		c := 0.0
		if q.centre != nil {
			c = q.centre[i]
		}
		if !(math.Abs(v-c) <= q.limit) {
			return compare(p, x, got, ref, round)
		}
	}
	kv, dk := nysKernelBounds(q, x)
	for k := range got {
		row := q.s.Proj[k*q.m : (k+1)*q.m]
		tol := 0.0
		for j, c := range row {
			tol += math.Abs(c) * (dk[j] + 2*gamma53(q.m)*math.Abs(kv[j]))
		}
		tol = tol*(1+1e-9) + round*math.Abs(ref[k]) + 1e-300
		if round != 0 {
			tol += 0x1p-149
			if math.IsInf(got[k], 0) && math.Abs(ref[k])+tol >= math.MaxFloat32 && math.Signbit(got[k]) == math.Signbit(ref[k]) {
				continue // beyond float32: ±Inf is the right rounding
			}
		}
		if d := math.Abs(got[k] - ref[k]); !(d <= tol) {
			return fmt.Sprintf("component %d is %v, want %v (difference %.3g > the stated bound %.3g)", k, got[k], ref[k], d, tol)
		}
	}
	return ""
}

// gamma53 is γ_k = k·2⁻⁵³/(1 − k·2⁻⁵³).
func gamma53(k int) float64 { u := float64(k) * 0x1p-53; return u / (1 - u) }

// nysKernelBounds are the exact kernel values K(x, l_j) of a dense
// Nyström map and the bound on each computed value's distance from the
// reference evaluator's: the bound the header states for its form plus
// the reference's own rounding.
func nysKernelBounds(q *nystroemKind, x []float64) (kv, dk []float64) {
	k := q.s.Kernel
	n := q.n
	kv, dk = make([]float64, q.m), make([]float64, q.m)
	// expBound is e^{−(s−ε)}·ε + 2⁻⁵², the error of e^{−s̃} for |s̃ − s| ≤ ε.
	expBound := func(s, eps float64) float64 { return math.Exp(-(s-eps))*eps*(1+1e-9) + 0x1p-52 }
	switch q.dform.prod {
	case nysParts:
		var a, d2 []float64
		kv, a, d2 = nysTerms(q, x)
		for j := range q.m {
			delta := 2 * gamma53(n+8) * a[j]
			if q.dform.half {
				dk[j] = math.Exp(-(d2[j]-delta))*delta*(1+1e-9) + kv[j]*0x1p-51 + 0x1p-1074
				continue
			}
			slope := 1.5
			if k.Nu == 2.5 {
				slope = 5.0 / 6
			}
			dk[j] = slope*(delta+gamma53(n+4)*d2[j])*(1+1e-9) + 0x1p-47
		}
	case nysL1, nysSq:
		for j := range q.m {
			l := q.s.Landmarks[j*n : (j+1)*n]
			kv[j] = k.Eval(x, l)
			s, a, a2 := 0.0, 0.0, 0.0
			for i := range n {
				d := (x[i] - l[i]) / k.Sigma[i]
				b := math.Abs((x[i]-q.centre[i])/k.Sigma[i]) + math.Abs((l[i]-q.centre[i])/k.Sigma[i])
				if q.dform.prod == nysL1 {
					s += math.Abs(d)
				} else {
					s += d * d
				}
				a += b
				a2 += b * b
			}
			if q.dform.prod == nysL1 {
				dk[j] = expBound(s, gamma53(n+3)*(s+a)) + expBound(s, gamma53(n+2)*s)
				continue
			}
			r := math.Sqrt(s)
			dk[j] = expBound(r, gamma53(n+5)*(r+math.Sqrt(a2))) + expBound(r, gamma53(n+4)*r)
		}
	case nysDot:
		d := k.Degree
		for j := range q.m {
			l := q.s.Landmarks[j*n : (j+1)*n]
			kv[j] = k.Eval(x, l)
			g, gAbs := dotAbs(x, l)
			b := k.Scale*g + k.Offset
			delta := math.Abs(k.Scale)*gamma53(n+2)*gAbs + gamma53(2)*(math.Abs(k.Scale*g)+math.Abs(k.Offset))
			hi := math.Abs(b) + delta
			// The computed value's bound and the reference's own, the same.
			dk[j] = 2*(float64(d)*math.Pow(hi, float64(d-1))*delta+gamma53(d-1)*math.Pow(hi, float64(d)))*(1+1e-9) + 1e-300
		}
	}
	return kv, dk
}

// nysTerms are the exact kernel values K(x, l_j) of a dense Nyström map,
// the sums Σᵢ s2ᵢ(|tᵢ| + |l_ji − cᵢ|)² of its bounds and the scaled squared
// distances d²(x, l_j).
func nysTerms(q *nystroemKind, x []float64) (kv, a, d2 []float64) {
	kv, a, d2 = make([]float64, q.m), make([]float64, q.m), make([]float64, q.m)
	for j := range q.m {
		l := q.s.Landmarks[j*q.n : (j+1)*q.n]
		kv[j] = q.s.Kernel.Eval(x, l)
		for i := range q.n {
			t, u := x[i]-q.centre[i], l[i]-q.centre[i]
			a[j] += q.s2[i] * (math.Abs(t) + math.Abs(u)) * (math.Abs(t) + math.Abs(u))
			d2[j] += q.s2[i] * (x[i] - l[i]) * (x[i] - l[i])
		}
	}
	return kv, a, d2
}

// nys32Check checks one output of a dense Nyström map's float32 path
// against the reference ref at the float32 input x, within the bound the
// file states: each kernel value within its form's bound of the exact (the
// RBF kernel's e^{−(d²−δ)}·(δ + 2⁻²²) + 2⁻¹⁴⁸, δ = 2γ_{n+8}·Σᵢ s2ᵢ(|tᵢ| +
// |l_ji − cᵢ|)² with γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴); lap32Bounds,
// matern32Bounds, poly32Bounds), each component within Σ_j |P_kj|·that +
// γ_{m+2}·Σ_j |P_kj|·|K_j| + 2⁻¹⁴⁹ (and the reference's own rounding of
// P·k). A row beyond L32 or not finite (the float64 evaluation rounded)
// is nysDenseCheck's business.
func nys32Check(p *plan, x, got, ref []float64) string {
	q := p.asNystroem()
	gamma := func(k int) float64 { u := float64(k) * 0x1p-24; return u / (1 - u) }
	for i, v := range x {
		c := 0.0
		if q.centre != nil {
			c = q.centre[i]
		}
		if !(math.Abs(v-c) <= q.limit32) {
			return nysDenseCheck(p, x, got, ref, 0x1p-24)
		}
	}
	var kv, dk []float64
	switch q.dform.prod32 {
	case nysL1:
		kv, dk = lap32Bounds(q, x)
	case nysSq:
		kv, dk = matern32Bounds(q, x)
	case nysDot:
		kv, dk = poly32Bounds(q, x)
	default:
		var a, d2 []float64
		kv, a, d2 = nysTerms(q, x)
		dk = make([]float64, q.m)
		for j := range q.m {
			delta := 2 * gamma(q.n+8) * a[j]
			dk[j] = math.Exp(-(d2[j]-delta))*(delta+0x1p-22)*(1+1e-9) + 0x1p-148
		}
	}
	for k := range got {
		row := q.s.Proj[k*q.m : (k+1)*q.m]
		tol := 0.0
		for j, c := range row {
			tol += math.Abs(c) * (dk[j] + (gamma(q.m+2)+0x1p-50)*math.Abs(kv[j]))
		}
		tol = tol*(1+1e-9) + 0x1p-149
		if d := math.Abs(got[k] - ref[k]); !(d <= tol) {
			return fmt.Sprintf("component %d is %v, want %v (difference %.3g > the stated bound %.3g)", k, got[k], ref[k], d, tol)
		}
	}
	return ""
}

// lap32Bounds are the exact kernel values of a dense Nyström map of the
// Laplacian kernel at the float32 input x and the bound its file states
// of its float32 path's values: e^{−(s−ε)}·(ε + 2⁻²³) + 2⁻¹⁴⁹, ε =
// γ_{n+3}·(s + Σᵢ(|tᵢ| + |l'_ji|)) with γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴), and the
// reference's own float64 rounding beside it.
func lap32Bounds(q *nystroemKind, x []float64) (kv, dk []float64) {
	k := q.s.Kernel
	n := q.n
	gamma := func(k int) float64 { u := float64(k) * 0x1p-24; return u / (1 - u) }
	kv, dk = make([]float64, q.m), make([]float64, q.m)
	for j := range q.m {
		l := q.s.Landmarks[j*n : (j+1)*n]
		kv[j] = k.Eval(x, l)
		s, a := 0.0, 0.0
		for i := range n {
			s += math.Abs(x[i]-l[i]) / k.Sigma[i]
			a += math.Abs((x[i]-q.centre[i])/k.Sigma[i]) + math.Abs((l[i]-q.centre[i])/k.Sigma[i])
		}
		eps, epsRef := gamma(n+3)*(s+a), gamma53(n+2)*s
		dk[j] = math.Exp(-(s-eps))*(eps+0x1p-23)*(1+1e-9) + 0x1p-148 + math.Exp(-(s-epsRef))*epsRef + 0x1p-52
	}
	return kv, dk
}

// gamma24 is γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴).
func gamma24(k int) float64 { u := float64(k) * 0x1p-24; return u / (1 - u) }

// matern32Bounds are the exact kernel values of a dense Nyström map of the
// Matérn kernel at the float32 input x and the bound its file states of
// its float32 path's values: ν = ½ e^{−(r−ε)}·(ε + 2⁻²³) + 2⁻¹⁴⁹, ε =
// γ_{n+5}·(r + (Σᵢ(|tᵢ| + |l'_ji|)²)^{1/2}) + 2⁻⁷⁰; ν = 3/2 and 5/2
// (2/3)·ε + 2⁻²⁰, ε = γ_{n+7}·(…) + 2⁻⁷⁰ (γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴)); and
// the reference's own float64 rounding beside it (at most the float64
// path's bound, nysKernelBounds).
func matern32Bounds(q *nystroemKind, x []float64) (kv, dk []float64) {
	k := q.s.Kernel
	n := q.n
	kv, dk = make([]float64, q.m), make([]float64, q.m)
	_, ref := nysKernelBounds(q, x)
	for j := range q.m {
		l := q.s.Landmarks[j*n : (j+1)*n]
		kv[j] = k.Eval(x, l)
		s, a2 := 0.0, 0.0
		for i := range n {
			d := (x[i] - l[i]) / k.Sigma[i]
			b := math.Abs((x[i]-q.centre[i])/k.Sigma[i]) + math.Abs((l[i]-q.centre[i])/k.Sigma[i])
			s += d * d
			a2 += b * b
		}
		r := math.Sqrt(s)
		if k.Nu == 0.5 {
			eps := gamma24(n+5)*(r+math.Sqrt(a2)) + 0x1p-70
			dk[j] = math.Exp(-(r-eps))*(eps+0x1p-23)*(1+1e-9) + 0x1p-149 + ref[j]
			continue
		}
		eps := gamma24(n+7)*(r+math.Sqrt(a2)) + 0x1p-70
		dk[j] = (2.0/3*eps+0x1p-20)*(1+1e-9) + ref[j]
	}
	return kv, dk
}

// poly32Bounds are the exact kernel values of a dense Nyström map of the
// polynomial kernel at the float32 input x and the bound its file states
// of its float32 path's values: d·(|b_j| + δ_j)^{d−1}·δ_j + γ_{d−1}·(|b_j|
// + δ_j)^d + d·2⁻¹⁴⁹, δ_j = |s|·γ_{n+4}·Σᵢ|xᵢl_ji| + γ₃·(|s·x·l_j| + |c|) +
// (n + 3)·2⁻¹⁴⁹ (γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴)); and the reference's own
// float64 rounding beside it (at most the float64 path's bound,
// nysKernelBounds).
func poly32Bounds(q *nystroemKind, x []float64) (kv, dk []float64) {
	k := q.s.Kernel
	n, d := q.n, k.Degree
	kv, dk = make([]float64, q.m), make([]float64, q.m)
	_, ref := nysKernelBounds(q, x)
	for j := range q.m {
		l := q.s.Landmarks[j*n : (j+1)*n]
		kv[j] = k.Eval(x, l)
		g, gAbs := dotAbs(x, l)
		b := k.Scale*g + k.Offset
		delta := math.Abs(k.Scale)*gamma24(n+4)*gAbs + gamma24(3)*(math.Abs(k.Scale*g)+math.Abs(k.Offset)) + float64(n+3)*0x1p-149
		hi := math.Abs(b) + delta
		dk[j] = (float64(d)*math.Pow(hi, float64(d-1))*delta+gamma24(d-1)*math.Pow(hi, float64(d))+float64(d)*0x1p-149)*(1+1e-9) + ref[j]
	}
	return kv, dk
}

// dotAbs returns x·l and Σᵢ|xᵢlᵢ|, the dot product and the sum its
// rounding error is bounded by.
func dotAbs(x, l []float64) (g, gAbs float64) {
	for i := range x {
		g += x[i] * l[i]
		gAbs += math.Abs(x[i] * l[i])
	}
	return g, gAbs
}
