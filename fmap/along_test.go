package fmap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSignaturesAlongBitForBit: a map whose signature is Ψ(x)·Ψ(y) along
// a pair (phase random features, on t = x and on t = log(x + c)) gives
// through signaturesAt — which evaluates Ψ at each end x of the pairs
// once, not once per point — the bits of dotAlong point by point, on 1 to
// 3 inputs (and 9, more than dotsAlong remembers ends for), with λ of
// either sign, ±0 and beyond the box; and SignatureAt gives them too.
func TestSignaturesAlongBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 7))
	for trial := range 40 {
		n := 1 + trial%3
		if trial == 39 {
			n = maxAlongAxes + 1
		}
		m := phaseMap(rng, n, 1+rng.IntN(70), trial%2 == 1)
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		along, logOffset, c := m.signedAlong()
		if !along {
			t.Fatalf("a phase map's signature is not taken along pairs")
		}
		pts := make([][]float64, 300)
		for p := range pts {
			l := make([]float64, n)
			for i := range l {
				switch rng.IntN(6) {
				case 0:
				case 1:
					l[i] = math.Copysign(0, -1)
				case 2:
					l[i] = 30 * rng.NormFloat64()
				default:
					l[i] = 3 * rng.NormFloat64()
				}
			}
			pts[p] = l
		}
		got := make([]float64, len(pts))
		m.signaturesAt(got, pts)
		for p, l := range pts {
			want := m.dotAlong(l, logOffset, c)
			if math.Float64bits(got[p]) != math.Float64bits(want) {
				t.Fatalf("%d inputs, λ %v: signaturesAt %v, dotAlong %v", n, l, got[p], want)
			}
			if one := m.SignatureAt(l); math.Float64bits(one) != math.Float64bits(want) {
				t.Fatalf("%d inputs, λ %v: SignatureAt %v, dotAlong %v", n, l, one, want)
			}
		}
	}
}

// phaseMap is a one-stage map of m phase random features of n inputs on
// [0.5, 4]ⁿ, with t = log(x + 0.1) if logOffset (a skewed kernel's).
func phaseMap(rng *rand.Rand, n, m int, logOffset bool) *Map {
	r := &Random{Features: Phase, Transform: Identity, In: n}
	k := Kernel{Type: Laplacian, Sigma: make([]float64, n)}
	if logOffset {
		r.Transform, r.Offset = LogOffset, 0.1
		k = Kernel{Type: SkewedChi2, Sigma: make([]float64, n), C: 0.1}
	}
	d := Domain{Lo: make([]float64, n), Hi: make([]float64, n)}
	for i := range n {
		k.Sigma[i], d.Lo[i], d.Hi[i] = 1, 0.5, 4
	}
	for range m {
		for range n {
			r.Freq = append(r.Freq, 2*rng.NormFloat64())
		}
		r.Phase = append(r.Phase, 2*math.Pi*rng.Float64())
	}
	return &Map{Kernel: k, InDim: n, Dim: m, Domain: d, Method: "rff", Stages: []Stage{{Kind: r}}}
}
