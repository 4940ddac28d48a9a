package homogeneous

import "math"

// Gauss–Kronrod 7/15 nodes and weights on [−1, 1] (QUADPACK's qk15). The
// Kronrod nodes are xgk[0..7] (xgk[7] = 0) with their mirror images; the
// Gauss nodes are the odd-indexed ones, xgk[1], xgk[3], xgk[5], xgk[7].
var (
	xgk = [8]float64{
		0.991455371120812639206854697526329,
		0.949107912342758524526189684047851,
		0.864864423359769072789712788640926,
		0.741531185599394439863864773280788,
		0.586087235467691130294144845693013,
		0.405845151377397166906606412076961,
		0.207784955007898467600689403773245,
		0,
	}
	wgk = [8]float64{
		0.022935322010529224963732008058970,
		0.063092092629978553290700663189204,
		0.104790010322250183839876322541518,
		0.140653259715525918745189590510238,
		0.169004726639267902826583426598550,
		0.190350578064785409913256402421014,
		0.204432940075298892414161999234649,
		0.209482141084727828012999174891714,
	}
	wg = [4]float64{
		0.129484966168869693270611432679082,
		0.279705391489276667901467771423780,
		0.381830050505118944950369775488975,
		0.417959183673469387755102040816327,
	}
)

// gk15 returns the 15-point Kronrod estimate of ∫_a^b f, the 7-point Gauss
// estimate, and ∫_a^b |f| by the Kronrod rule.
func gk15(f func(float64) float64, a, b float64) (kron, gauss, absKron float64) {
	c := (a + b) / 2
	h := (b - a) / 2
	fc := f(c)
	kron = wgk[7] * fc
	gauss = wg[3] * fc
	absKron = wgk[7] * math.Abs(fc)
	for i := range 7 {
		f1 := f(c - h*xgk[i])
		f2 := f(c + h*xgk[i])
		kron += wgk[i] * (f1 + f2)
		absKron += wgk[i] * (math.Abs(f1) + math.Abs(f2))
		if i%2 == 1 {
			gauss += wg[i/2] * (f1 + f2)
		}
	}
	return kron * h, gauss * h, absKron * math.Abs(h)
}

const eps = 0x1p-52

// integrate returns ∫_a^b f by adaptive Gauss–Kronrod 7/15 bisection: a
// panel is accepted when its Kronrod and Gauss estimates differ by at most
// tol (scaled by the panel's share of the interval), when the difference
// is at the rounding level of the panel, or after 30 bisections. f must be finite on [a, b].
func integrate(f func(float64) float64, a, b, tol float64) float64 {
	if a == b {
		return 0
	}
	return integrateRec(f, a, b, tol/math.Abs(b-a), 0)
}

func integrateRec(f func(float64) float64, a, b, tolPerLength float64, depth int) float64 {
	k, g, ak := gk15(f, a, b)
	// The second bound stops the bisection at the rounding level of the
	// panel, where the Gauss–Kronrod difference is noise.
	if e := math.Abs(k - g); e <= tolPerLength*math.Abs(b-a) || e <= 50*eps*ak || depth >= 30 || math.IsNaN(k) {
		return k
	}
	m := (a + b) / 2
	return integrateRec(f, a, m, tolPerLength, depth+1) + integrateRec(f, m, b, tolPerLength, depth+1)
}
