package simplex

import (
	"math"
	"testing"

	"github.com/featmap/featmap/solver"
)

// TestExactProblemLazy: the exact checks' copy of the problem in the
// simplex's units (exactProblem; on a scaled solve a scaled copy of every
// entry) is built only when an exact check needs it. exactCheck on an
// optimum of a well-conditioned small kernel judges nothing and builds
// nothing: it runs after every optimal solve, and building the copy there
// cost 7 % of a Table 1 design's instructions. (That it is built and
// used where a kernel's condition estimate reaches illConditioned,
// TestExactCheckSingular and TestRefineVertexExact show.)
func TestExactProblemLazy(t *testing.T) {
	inf := math.Inf(1)
	// min −x₀ − x₁ with x₀ + 2x₁ ≤ 4, 3x₀ + x₁ ≤ 6, x ≥ 0: optimum at
	// x = (1.6, 1.2), a kernel of condition about 5.
	p := rowsLP([]float64{-1, -1}, [][]float64{{1, 2}, {3, 1}},
		[]float64{-inf, -inf}, []float64{4, 6}, []float64{0, 0}, []float64{inf, inf})
	o := solver.Options{}.WithDefaults(p)
	s := newSimplex(p, o)
	defer s.release()
	s.src = p
	if st, msg := s.run(nil); st != solver.Optimal || s.k() == 0 {
		t.Fatalf("%v %s, kernel %d", st, msg, s.k())
	}
	if judged, _, _ := s.exactCheck(); judged || s.prob != nil {
		t.Errorf("well-conditioned kernel: judged %v, exact problem built %v", judged, s.prob != nil)
	}
}
