package sampled

import (
	"context"
	"math"
	"slices"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// TestKernelLaw: KernelLaw gives each shift-invariant kernel its named law,
// bit for bit, and no law to the kernels without one.
func TestKernelLaw(t *testing.T) {
	for _, c := range []struct {
		typ  string
		want Law
	}{
		{fmap.RBF, GaussianLaw(0.7)},
		{fmap.SkewedChi2, SkewedChi2Law(0.7)},
		{fmap.SkewedIntersection, SkewedIntersectionLaw(0.7)},
	} {
		law, ok := KernelLaw(c.typ, 0.7)
		if !ok {
			t.Fatalf("%s: no law", c.typ)
		}
		for _, u := range []float64{1e-12, 0.1, 0.5, 0.75, 1 - 1e-12} {
			if got, want := law(u), c.want(u); math.Float64bits(got) != math.Float64bits(want) {
				t.Errorf("%s: h(%v) = %v, want %v", c.typ, u, got, want)
			}
		}
	}
	for _, typ := range []string{fmap.ExpChi2, fmap.Chi2} {
		if _, ok := KernelLaw(typ, 1); ok {
			t.Errorf("%s: a law, want none", typ)
		}
	}
}

// TestKernelFrequencies: KernelFrequencies draws a product law as
// FrequenciesContext does with the kernel's one-axis laws and widths, and
// Matérn's whole as MaternFrequencies does, bit for bit, in every
// sampling its law takes; a kernel without a law is an error.
func TestKernelFrequencies(t *testing.T) {
	ctx := context.Background()
	sig := []float64{0.5, 2, 1}
	for _, sampling := range []string{SamplingRandom, SamplingQMC, SamplingOrthogonal} {
		for _, k := range []fmap.Kernel{
			{Type: fmap.RBF, Sigma: sig},
			{Type: fmap.Laplacian, Sigma: sig},
			{Type: fmap.SkewedChi2, Sigma: sig, C: 1},
			{Type: fmap.Matern, Nu: 1.5, Sigma: sig},
		} {
			if sampling == SamplingOrthogonal && !Spherical(k) {
				continue
			}
			got, err := KernelFrequencies(ctx, k, 9, 3, sig, sampling, 5)
			if err != nil {
				t.Fatalf("%s, %s: %v", k.Type, sampling, err)
			}
			var want []float64
			if k.Type == fmap.Matern {
				want, err = MaternFrequencies(ctx, 9, 3, k.Nu, sig, sampling, 5)
			} else {
				var laws []Law
				for _, s := range sig {
					law, _ := KernelLaw(k.Type, s)
					laws = append(laws, law)
				}
				want, err = FrequenciesContext(ctx, 9, 3, laws, sig, sampling, 5)
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want) {
				t.Errorf("%s, %s: KernelFrequencies %v, want %v", k.Type, sampling, got[:3], want[:3])
			}
		}
	}
	if _, err := KernelFrequencies(ctx, fmap.Kernel{Type: fmap.Poly}, 4, 3, sig, SamplingRandom, 1); err == nil {
		t.Error("frequencies of the polynomial kernel, which has no spectral law")
	}
}
