package fmap

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSignatureBitForBit: Fourier.Signature and Fourier.Signatures, which
// take their cosines a block at a time from vtrig, give the bits of the
// plain sum Σ α cos(ω·λ) or Σ α Π_i cos(ω_i λ_i) with math.Cos, term by
// term in order: 1 to 3 coordinates (and 70), both forms, 1 to 90 terms
// (across Signature's blocks of 64 cosines), 20 points or more than one of
// Signatures' blocks, zero and −0 frequency coordinates, λ = ±0 and large.
func TestSignatureBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 5))
	for trial := range 300 {
		n := 1 + trial%3
		if trial%50 == 49 {
			n = 70 // a modulation term of more cosines than one block holds
		}
		f := &Fourier{Form: FourierForm}
		if trial%2 == 1 {
			f.Form = Modulation
		}
		for range 1 + rng.IntN(90) {
			w := make([]float64, n)
			for i := range w {
				switch rng.IntN(5) {
				case 0:
				case 1:
					w[i] = math.Copysign(0, -1)
				default:
					w[i] = 20 * rng.Float64()
				}
			}
			f.Terms = append(f.Terms, Term{Freq: w, Weight: rng.Float64()})
		}
		npts := 20
		if trial%30 == 0 {
			npts = signaturesBlock + 45 // across Signatures' blocks
		}
		pts := make([][]float64, npts)
		for p := range pts {
			l := make([]float64, n)
			for i := range l {
				switch rng.IntN(6) {
				case 0:
				case 1:
					l[i] = math.Copysign(0, -1)
				case 2:
					l[i] = 1e8 * rng.NormFloat64()
				default:
					l[i] = 3 * rng.NormFloat64()
				}
			}
			pts[p] = l
		}
		many := make([]float64, npts)
		f.Signatures(many, pts)
		for p, l := range pts {
			want := 0.0
			for _, tm := range f.Terms {
				if f.Form == Modulation {
					prod := tm.Weight
					for i, w := range tm.Freq {
						prod *= math.Cos(w * l[i])
					}
					want += prod
					continue
				}
				ph := 0.0
				for i, w := range tm.Freq {
					ph += w * l[i]
				}
				want += tm.Weight * math.Cos(ph)
			}
			if got := f.Signature(l); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("form %v, %d terms of %d coordinates, λ %v: %v, the plain sum %v", f.Form, len(f.Terms), n, l, got, want)
			}
			if math.Float64bits(many[p]) != math.Float64bits(want) {
				t.Fatalf("form %v, %d terms of %d coordinates, λ %v (point %d): Signatures %v, the plain sum %v", f.Form, len(f.Terms), n, l, p, many[p], want)
			}
		}
	}
}
