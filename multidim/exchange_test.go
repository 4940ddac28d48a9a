package multidim

import (
	"context"
	"testing"

	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// TestFitProblemExact: the exact set of a Table 2 fitting problem is the
// grid of Z's points and midpoints (161 × 81 for the projection's Z of
// 81 × 41), holds every point of Z bit for bit, and the exchange against
// it takes at most exchangeRounds rounds; a Z too large for it gets none.
func TestFitProblemExact(t *testing.T) {
	p := table2Problem(0.3)
	fp, err := fitProblem(p, fmap.FourierForm, "projection", 41, polarPool(2, 24, 16, 10), true, polarLower)
	if err != nil {
		t.Fatal(err)
	}
	if len(fp.Exact) != 161*81 || len(fp.ExactWeight) != len(fp.Exact) || fp.ExchangeRounds != exchangeRounds {
		t.Fatalf("exact set of %d points (%d weights), %d exchange rounds; want 161×81 and %d", len(fp.Exact), len(fp.ExactWeight), fp.ExchangeRounds, exchangeRounds)
	}
	in := map[[2]float64]bool{}
	for _, l := range fp.Exact {
		in[[2]float64{l[0], l[1]}] = true
	}
	for _, l := range fp.Z {
		if !in[[2]float64{l[0], l[1]}] {
			t.Fatalf("Z's point %v is not in the exact set", l)
		}
	}
	big, err := fitProblem(rbfBox(3, 0.3, 1), fmap.Modulation, "modulation", 61, [][]float64{{0, 0, 0}}, false, modulationLower)
	if err != nil {
		t.Fatal(err)
	}
	if big.Exact != nil {
		t.Errorf("a 61³ Z has an exact set of %d points", len(big.Exact))
	}
}

// TestExchangeLowersTheVerifiedError: the modulation design at D = 31
// (σ = 0.3) ends with the exchange against Z's midpoints; its error on
// the verification grid, ten times denser than Z, is below that of the
// same design without the exchange (measured 0.1115 against 0.1144).
func TestExchangeLowersTheVerifiedError(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("two designs, about 5 s; skipped with -short")
	}
	p := table2Problem(0.3)
	g := Grid{}.withDefaults(2, 31)
	fo := fitOptions(chum.FitOptions{})
	axes, _, err := axisDesigns(context.Background(), p, g.AxisDim, fo.Seed, design.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	var pool [][]float64
	for _, term := range tensorTerms(axes) {
		pool = append(pool, term.Freq)
	}
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	verified := func(exchange bool) float64 {
		fp, err := fitProblem(p, fmap.Modulation, "modulation", g.ZPoints, pool, false, modulationLower)
		if err != nil {
			t.Fatal(err)
		}
		fp.Spacing = 0.1
		if !exchange {
			fp.Exact, fp.ExactWeight = nil, nil
		}
		res, err := chum.Fit(context.Background(), fp, 31, fo, design.Settings{})
		if err != nil {
			t.Fatal(err)
		}
		return fmap.Verify(res.Map, ref).Reported.LInf
	}
	with, without := verified(true), verified(false)
	if !(with < without) {
		t.Errorf("verified L∞ with the exchange %.6g, without %.6g", with, without)
	}
	t.Logf("verified L∞: with the exchange %.6g, without %.6g", with, without)
}
