package digits

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestF32WithinBound holds DigitsF32 to the bound its file's header
// states: on seeded points of the domain (and integer ones, as the data
// are), every component within Σ_j |P_kj|·(e^{−(d²−δ)}·(δ + 2⁻²²) + 2⁻¹⁴⁸)
// + γ_{m+2}·Σ_j |P_kj|·K_j + 2⁻¹⁴⁹ of P·k at the float32 input, δ =
// 2γ_{n+8}·Σᵢ s2ᵢ(|tᵢ| + |l_ji − cᵢ|)², γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴) (plus
// the float64 reference's own rounding of P·k); DigitsSliceF32 equal to
// DigitsF32 row by row bit for bit; a NaN input NaN as Digits gives.
func TestF32WithinBound(t *testing.T) {
	gamma := func(k int, u float64) float64 { v := float64(k) * u; return v / (1 - v) }
	rng := rand.New(rand.NewPCG(1, 2))
	const rows = 300
	src := make([]float32, rows*DigitsIn)
	for i := range src {
		v := 16 * rng.Float64()
		if i/DigitsIn%2 == 1 {
			v = math.Round(v)
		}
		src[i] = float32(v)
	}
	dst := make([]float32, rows*DigitsDim)
	DigitsSliceF32(dst, src)
	worst := 0.0
	for r := range rows {
		x32 := (*[DigitsIn]float32)(src[r*DigitsIn:])
		var o [DigitsDim]float32
		DigitsF32(&o, x32)
		for k, v := range o {
			if math.Float32bits(v) != math.Float32bits(dst[r*DigitsDim+k]) {
				t.Fatalf("row %d: DigitsSliceF32 component %d is %v, DigitsF32 %v", r, k, dst[r*DigitsDim+k], v)
			}
		}
		var kv, dk [digitsM]float64
		for j := range digitsM {
			a, d2 := 0.0, 0.0
			for i := range DigitsIn {
				x, l := float64(x32[i]), digitsLandmarks[j*DigitsIn+i]
				tt, u := math.Abs(x-digitsCentre[i]), math.Abs(l-digitsCentre[i])
				a += digitsS2[i] * (tt + u) * (tt + u)
				d2 += digitsS2[i] * (x - l) * (x - l)
			}
			kv[j] = math.Exp(-d2)
			delta := 2 * gamma(DigitsIn+8, 0x1p-24) * a
			dk[j] = math.Exp(-(d2-delta))*(delta+0x1p-22)*(1+1e-9) + 0x1p-148
		}
		for k := range DigitsDim {
			ref, tol := 0.0, 0.0
			for j, p := range digitsProj[k*digitsM : (k+1)*digitsM] {
				ref += p * kv[j]
				tol += math.Abs(p) * (dk[j] + (gamma(digitsM+2, 0x1p-24)+2*gamma(digitsM+8, 0x1p-53))*kv[j])
			}
			tol = tol*(1+1e-9) + 0x1p-149
			d := math.Abs(float64(o[k]) - ref)
			if !(d <= tol) {
				t.Fatalf("row %d: DigitsF32 component %d is %v, P·k %v (difference %.3g > the stated bound %.3g)", r, k, o[k], ref, d, tol)
			}
			worst = math.Max(worst, d/tol)
		}
	}
	var x32 [DigitsIn]float32
	x32[3] = float32(math.NaN())
	var o32 [DigitsDim]float32
	var o64 [DigitsDim]float64
	var x64 [DigitsIn]float64
	x64[3] = math.NaN()
	DigitsF32(&o32, &x32)
	Digits(&o64, &x64)
	for k := range o32 {
		if math.IsNaN(float64(o32[k])) != math.IsNaN(o64[k]) || !math.IsNaN(o64[k]) && o32[k] != float32(o64[k]) {
			t.Fatalf("NaN input: DigitsF32 component %d is %v, Digits %v", k, o32[k], o64[k])
		}
	}
	t.Logf("%d rows: largest error %.3g of the stated bound", rows, worst)
}
