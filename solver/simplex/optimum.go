package simplex

import (
	"math"
	"slices"
)

// An "optimal" verdict's vertex and duals, made accurate where they lost
// accuracy: the basis is optimal when its x is its vertex, primal
// feasible, and its duals are dual feasible. refineVertex moves x back
// onto the kernel rows' bounds when one misses its bound by more than the
// primal tolerance (one step of refinement with dot2 residuals; on a
// small kernel, the vertex built exactly). refineDuals refines π when a
// basic column's reduced cost is not zero within the dual tolerance, and
// reports whether the basis is still dual feasible. Bases solved to the
// usual accuracy, the design LPs' among them, are left alone.

// refineVertex makes an optimal x the basic solution of its basis again
// when a kernel row, which sits at a bound, misses it by more than the
// primal tolerance: one step of refinement, x_S += G(b_T −
// A[T, :]x) with the residual by dot2, and the basic rows' activities
// recomputed (and where that leaves it off, on a small kernel, the vertex
// built exactly and rounded). The inverse's rounding on a kernel with entries of 10⁻⁹
// next to 10⁶ had put a column 0.12 off its vertex, feasible within the
// tolerance but 0.12 above the exact optimum (FuzzSolve). A basis solved
// to the usual accuracy is left alone (and so are the design LPs' x).
func (s *simplex) refineVertex() {
	k := s.k()
	if k == 0 {
		return
	}
	res := make([]float64, k)
	// miss sets res to the kernel rows' residuals b_T − A[T, :]x and
	// returns the largest in units of the primal tolerance.
	miss := func() float64 {
		worst := 0.0
		for t, i := range s.T {
			var d dot2
			row := s.row(i)
			for j := range s.n {
				if x := s.x[j]; x != 0 {
					d.add(row[j], x)
				}
			}
			d.add(-1, s.x[s.n+i])
			v, _ := d.result()
			res[t] = -v
			worst = math.Max(worst, math.Abs(v)/(s.tolP*math.Max(s.unit[s.n+i], math.Abs(s.x[s.n+i]))))
		}
		return worst
	}
	before := miss()
	if !(before > 1) {
		return
	}
	saved := slices.Clone(s.x)
	for l, j := range s.S {
		s.x[j] += dotN(s.gRow(l), res)
	}
	s.basicRowActivities()
	// Where float64 cannot place x any closer (coordinates of 10¹⁵, a
	// row's sum of 7·10¹⁵ terms), the step may trade one row's miss for
	// another's: keep it only if the worst miss shrinks (FuzzSolve).
	after := miss()
	if !(after < before) {
		copy(s.x, saved)
		after = before
	}
	if !(after > 1) || k > exactRayMax || s.exactProblem() == nil {
		return
	}
	// Still off: on a kernel of condition 10²¹ the refinement's G is no
	// better than x (FuzzSolve d59508ae5de1798e: a kernel row 0.45 off
	// its bound, x₀ = 5.5·10¹⁴ where the vertex has 1.000001·10¹⁵, an
	// objective 45 % above the optimum, yet feasible within the
	// tolerance). On a small kernel the vertex is built exactly
	// (exactVertex) and rounded: as close as float64 holds it, whether or
	// not Finish then finds it feasible.
	if v, ok := exactVertex(s.exactProblem(), s.S, s.T, s.st); ok {
		for _, j := range s.S {
			s.x[j] = ratFloat(&v[j])
		}
		s.basicRowActivities()
	}
}

// refineDuals checks an optimal basis's duals: a basic column's reduced
// cost c_j − (Aᵀπ)_j must be zero, and one beyond the dual tolerance
// (FuzzSolve: 2.8·10⁻⁵ after a solve whose duals reached 10⁶) means π
// lost accuracy. Then one step of refinement, π_T += Gᵀ(c_S − A[T, S]ᵀπ_T)
// with the residual by dot2, recomputes the reduced costs; it reports
// false if they are no longer dual feasible (the caller then does not
// report an optimum). Accurate duals are left alone (the design LPs'
// among them).
func (s *simplex) refineDuals() bool {
	k := s.k()
	if k == 0 {
		return true
	}
	pi := make([]float64, k)
	for t, i := range s.T {
		pi[t] = s.d[s.n+i]
	}
	res := make([]float64, k)
	need := false
	for l, j := range s.S {
		var z dot2
		col := s.col(j)
		for t, i := range s.T {
			z.add(col[i], pi[t])
		}
		z.add(-1, s.cost[j])
		v, _ := z.result()
		res[l] = -v
		if math.Abs(v) > s.tolDv[j] {
			need = true
		}
	}
	if !need {
		return true
	}
	for l := range k {
		if res[l] != 0 {
			axpy(pi, res[l], s.gRow(l))
		}
	}
	s.reducedCosts(s.cost, pi, nil)
	return !s.dualInfeasible()
}
