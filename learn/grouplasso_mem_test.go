package learn

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestInPlaceMatricesBitForBit: the group lasso's moment matrix made
// dense in its own storage (symToDense) and its refit solved in place
// (choleskySolve) give the bits of the copies they replace — DenseCopyOf,
// and mat.Cholesky's Factorize and SolveTo — so that its results are
// unchanged; a matrix that is not positive definite is reported so.
func TestInPlaceMatricesBitForBit(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 3))
	for _, n := range []int{1, 7, 64, 130} {
		z := mat.NewDense(n+5, n, nil)
		for i := range n + 5 {
			for j := range n {
				z.Set(i, j, rng.NormFloat64())
			}
		}
		sym := mat.NewSymDense(n, nil)
		sym.SymRankK(sym, 1, z.T())
		want := mat.DenseCopyOf(sym)
		q := mat.NewSymDense(n, nil)
		q.CopySym(sym)
		if got := symToDense(sym); !mat.Equal(got, want) {
			t.Fatalf("n = %d: symToDense differs from DenseCopyOf", n)
		}
		rhs := mat.NewDense(n, 3, nil)
		for i := range n {
			for j := range 3 {
				rhs.Set(i, j, rng.NormFloat64())
			}
		}
		var ch mat.Cholesky
		if !ch.Factorize(q) {
			t.Fatalf("n = %d: not positive definite", n)
		}
		var sol mat.Dense
		wantErr := ch.SolveTo(&sol, rhs)
		ok, err := choleskySolve(q, rhs)
		if !ok || (err == nil) != (wantErr == nil) {
			t.Fatalf("n = %d: choleskySolve %v %v, Cholesky %v", n, ok, err, wantErr)
		}
		for i := range n {
			for j := range 3 {
				if math.Float64bits(rhs.At(i, j)) != math.Float64bits(sol.At(i, j)) {
					t.Fatalf("n = %d: solution (%d, %d) %v, Cholesky's %v", n, i, j, rhs.At(i, j), sol.At(i, j))
				}
			}
		}
	}
	bad := mat.NewSymDense(2, []float64{1, 2, 2, 1})
	if ok, _ := choleskySolve(bad, mat.NewDense(2, 1, []float64{1, 1})); ok {
		t.Error("an indefinite matrix solved")
	}
}
