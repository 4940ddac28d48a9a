package simplex

import (
	"math"
	"testing"
)

// TestFarkasSignOfPair: a refined multiplier is a pair hi + lo that need
// not be normalised, and its sign is the pair's, not hi's. FuzzSolve
// 0e07fa4a1ffa125b: x₀ ∈ [−10⁶, 10⁻⁶], x₁ ≤ 1, x₂ free (in no row),
// 7x₀ + 7x₁ ≤ 0, −10⁶x₀ − 10⁶x₁ ≤ 0 and −10⁶x₀ ∈ [−10⁶, 0] is feasible
// (x = 0), yet the multipliers the simplex refined for it — on the last
// row −4.7·10⁻³⁸ + 7.1·10⁻³⁸, a positive multiplier — "proved" it
// infeasible when hi's sign chose the row's lower bound to price. No
// multiplier proves a feasible LP infeasible; the same row alone with a
// negative pair does not either, and a real certificate still passes.
func TestFarkasSignOfPair(t *testing.T) {
	inf := math.Inf(1)
	p := rowsLP([]float64{0, 0, 1},
		[][]float64{{7, 7, 0}, {0, 0, 0}, {-1e6, -1e6, 0}, {-1e6, 0, 0}},
		[]float64{-inf, -inf, -inf, -1e6}, []float64{0, inf, 0, 0},
		[]float64{-1e6, -inf, -inf}, []float64{1e-6, 1, inf})
	y := []float64{-0.13623918805803573, 0, -9.5367431640625e-07, -4.70197740328915e-38}
	ylo := []float64{1.1895246692412391e-17, 0, 0, 7.052966104933725e-38}
	if ok, _ := farkasProves(p, y, ylo); ok {
		t.Error("the simplex's refined multipliers prove a feasible LP infeasible")
	}
	if ok, _ := farkasProves(p, []float64{0, 0, 0, -4.7e-38}, []float64{0, 0, 0, 7.1e-38}); ok {
		t.Error("a positive multiplier on −10⁶x₀ ∈ [−10⁶, 0] alone proves infeasibility")
	}
	// x₀ ≥ 2 against the row 10⁶x₀ ≤ 10⁶ is infeasible: the multiplier
	// pair 10⁻⁶ + 0 (a row of p2) proves it.
	p2 := rowsLP([]float64{0}, [][]float64{{1e6}}, []float64{-inf}, []float64{1e6}, []float64{2}, []float64{inf})
	if ok, why := farkasProves(p2, []float64{1e-6}, []float64{0}); !ok {
		t.Errorf("a valid certificate fails: %s", why)
	}
}
