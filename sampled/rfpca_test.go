package sampled

import (
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	digitsdata "github.com/featmap/featmap/internal/digits"
)

// TestRFPCAOutOfCore: Z′Z and Z′1 accumulated 7, 100 and all rows at a
// time equal the in-memory product of the whole feature matrix to 1e-10
// relative, for rbf and for exp-χ² (two-stage features).
func TestRFPCAOutOfCore(t *testing.T) {
	for _, k := range []fmap.Kernel{
		{Type: fmap.RBF, Sigma: slices.Repeat([]float64{49}, 64)},
		{Type: fmap.ExpChi2, Beta: 0.5},
	} {
		p := digitsProblem(k, 16, digits(t, 1797))
		rows := p.Data.Fit[:500]
		res, err := (&RFF{}).Design(context.Background(), p, 128, design.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		base := res.Map
		z := mat.NewDense(len(rows), base.Dim, nil)
		for i, x := range rows {
			fmap.RowFeatures(base, z.RawRowView(i), x)
		}
		var full mat.Dense
		full.Mul(z.T(), z)
		for _, chunk := range []int{7, 100, len(rows)} {
			h, sum, err := SecondMoment(context.Background(), base, rows, chunk)
			if err != nil {
				t.Fatal(err)
			}
			var diff, norm float64
			for i := range base.Dim {
				for j := range base.Dim {
					diff = max(diff, math.Abs(h.At(i, j)-full.At(i, j)))
					norm = max(norm, math.Abs(full.At(i, j)))
				}
				s := 0.0
				for r := range rows {
					s += z.At(r, i)
				}
				diff = max(diff, math.Abs(sum[i]-s))
			}
			if diff > 1e-10*norm {
				t.Errorf("%s, chunks of %d: max |ΔZ′Z|, |ΔZ′1| = %.3g, above 1e-10 × %.3g", k.Type, chunk, diff, norm)
			}
		}
	}
}

// TestRFPCABeatsRFF: on the digits' held-out rows a D-dimensional rf-pca
// map (3·D random features projected) leaves a lower Gram error than a
// D-dimensional rff map with the same sampling, at D = 16, 64, 128 (rbf at
// the median distance; D = 128, the costliest, not under -short); the
// centred variant approximates the centred kernel and is worse against K,
// as its documentation says.
func TestRFPCABeatsRFF(t *testing.T) {
	xs := digits(t, 1797)
	sigma := digitsdata.MedianDistance(xs)
	p := digitsProblem(fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{sigma}, 64)}, 16, xs)
	dims := []int{16, 64, 128}
	if testing.Short() {
		dims = dims[:2]
	}
	for _, dim := range dims {
		pca, err := (&RFPCA{}).Design(context.Background(), p, dim, design.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		plain, err := (&RFF{}).Design(context.Background(), p, dim, design.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		a, b := gramError(pca.Map, p.Data.Held), gramError(plain.Map, p.Data.Held)
		t.Logf("D = %d: held-out Gram error rf-pca %.4g, rff %.4g", dim, a, b)
		if a >= b {
			t.Errorf("D = %d: rf-pca (%.4g) not below rff (%.4g)", dim, a, b)
		}
		if dim == 64 {
			c, err := (&RFPCA{Opts: RFPCAOptions{Center: true}}).Design(context.Background(), p, dim, design.Settings{})
			if err != nil {
				t.Fatal(err)
			}
			e := gramError(c.Map, p.Data.Held)
			t.Logf("D = %d: centred rf-pca against K %.4g", dim, e)
			if e <= a {
				t.Errorf("centred rf-pca %.4g not above uncentred %.4g against K", e, a)
			}
		}
	}
}
