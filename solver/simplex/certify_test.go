package simplex

import (
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/featmap/featmap/solver"
)

// rowsLP builds a problem from dense rows.
func rowsLP(c []float64, a [][]float64, rl, ru, cl, cu []float64) *solver.Problem {
	b := solver.NewBuilder(rl, ru)
	for j := range c {
		col := make([]float64, len(a))
		for i := range a {
			col[i] = a[i][j]
		}
		b.AddDenseColumn(c[j], cl[j], cu[j], col)
	}
	return b.Problem()
}

// TestDot2ErrorBound compares dot2 with the exact sum of products (big.Float
// at a precision that holds every product and sum exactly) on vectors whose
// entries span 10^±12 and cancel: the exact value must lie within the
// returned error bound, and the bound must be far below the naive sum's
// error on the cancelling case.
func TestDot2ErrorBound(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 18))
	for k := range 2000 {
		n := 1 + r.IntN(12)
		x, y := make([]float64, n), make([]float64, n)
		var d dot2
		exact := new(big.Float).SetPrec(4096)
		for i := range x {
			x[i] = (2*r.Float64() - 1) * math.Pow(10, 24*r.Float64()-12)
			y[i] = (2*r.Float64() - 1) * math.Pow(10, 24*r.Float64()-12)
			if i == n-1 && k%2 == 0 { // cancel the sum so far
				v, _ := d.result()
				x[i], y[i] = -v, 1
			}
			d.add(x[i], y[i])
			p := new(big.Float).SetPrec(4096).Mul(big.NewFloat(x[i]), big.NewFloat(y[i]))
			exact.Add(exact, p)
		}
		v, e := d.result()
		diff, _ := new(big.Float).Sub(exact, big.NewFloat(v)).Float64()
		if math.Abs(diff) > e {
			t.Fatalf("case %d: dot2 %g, exact %s: error %g beyond the bound %g", k, v, exact.Text('g', 20), diff, e)
		}
	}
	// 10¹⁶ + 1 − 10¹⁶: the naive sum gives 0, dot2 gives 1 exactly.
	var d dot2
	d.add(1e16, 1)
	d.add(1, 1)
	d.add(-1e16, 1)
	if v, e := d.result(); v != 1 || e > 1e-13 {
		t.Errorf("10¹⁶ + 1 − 10¹⁶: dot2 %g ± %g, want 1", v, e)
	}
}

// TestFarkasProves checks the infeasibility certificate's check on an LP
// that is infeasible (x ≥ 1 and x ≤ 0 as rows) and on its feasible
// neighbour (x ≤ 2), with the multiplier of either sign, and on an
// feasible LP whose multiplier leaves 10⁻⁹ on a free column (no proof), and
// on an infeasible LP whose free column the multiplier cancels only to rounding
// (3x = 1 and 7x ≥ 3: y = (7/3, −1) leaves (Aᵀy)_x ≈ 4·10⁻¹⁶), where the
// row 3x = 1 bounds x and so the check must still succeed.
func TestFarkasProves(t *testing.T) {
	inf := math.Inf(1)
	infeasible := rowsLP([]float64{0}, [][]float64{{1}, {1}}, []float64{1, -inf}, []float64{inf, 0}, []float64{-inf}, []float64{inf})
	zero := []float64{0, 0}
	for _, y := range [][]float64{{1, -1}, {-1, 1}, {0.5, -0.5}} {
		if ok, why := farkasProves(infeasible, y, zero); !ok {
			t.Errorf("x ≥ 1, x ≤ 0, y = %v: not proven (%s)", y, why)
		}
	}
	feasible := rowsLP([]float64{0}, [][]float64{{1}, {1}}, []float64{1, -inf}, []float64{inf, 2}, []float64{-inf}, []float64{inf})
	if ok, _ := farkasProves(feasible, []float64{1, -1}, zero); ok {
		t.Error("x ≥ 1, x ≤ 2: a multiplier proved it infeasible")
	}
	// x + w ≥ 1 and 1.000000001x + w ≤ 0.5, both free: feasible, with
	// x ≤ −5·10⁸. y = (−1, 1) leaves 10⁻⁹ on x, whose range no row
	// bounds: within the cap of 10¹⁵ that is no proof.
	far := rowsLP([]float64{0, 0}, [][]float64{{1, 1}, {1.000000001, 1}}, []float64{1, -inf}, []float64{inf, 0.5}, []float64{-inf, -inf}, []float64{inf, inf})
	if ok, _ := farkasProves(far, []float64{-1, 1}, zero); ok {
		t.Error("x + w ≥ 1, 1.000000001x + w ≤ 0.5 (feasible at x = −10⁹): a multiplier proved it infeasible")
	}
	third := rowsLP([]float64{0}, [][]float64{{3}, {7}}, []float64{1, 3}, []float64{1, inf}, []float64{-inf}, []float64{inf})
	if ok, why := farkasProves(third, []float64{7.0 / 3, -1}, zero); !ok {
		t.Errorf("3x = 1, 7x ≥ 3: not proven (%s)", why)
	}
	if ok, _ := farkasProves(third, []float64{7.0 / 3}, []float64{0}); ok {
		t.Error("a multiplier of the wrong length proved something")
	}
}

// TestRayProves checks the ray's check on min −x, x ≥ 0, y ≥ 0, x − y ≤ 1:
// the ray (1, 1) is improving and unblocked, (1, 0) is blocked by the row
// at step 1, (−1, 0) does not improve. A real rate of 10⁻¹⁰ towards a bound
// 10⁹ away (blocking after 10¹⁹) does not keep the objective from falling
// below −10¹⁵·Σ|c|, and the ray stands.
func TestRayProves(t *testing.T) {
	inf := math.Inf(1)
	p := rowsLP([]float64{-1, 0}, [][]float64{{1, -1}}, []float64{-inf}, []float64{1}, []float64{0, 0}, []float64{inf, inf})
	x, zero2 := []float64{0, 0}, []float64{0, 0}
	o := solver.Options{}.WithDefaults(p)
	if ok, why := rayProves(p, o, x, []float64{1, 1}, zero2, nil, nil); !ok {
		t.Errorf("ray (1, 1): not proven (%s)", why)
	}
	if ok, _ := rayProves(p, o, x, []float64{1, 0}, zero2, nil, nil); ok {
		t.Error("ray (1, 0): the row blocks it at step 1, yet it was proven")
	}
	if ok, _ := rayProves(p, o, x, []float64{-1, 0}, zero2, nil, nil); ok {
		t.Error("ray (−1, 0): not improving, yet it was proven")
	}
	far := rowsLP([]float64{-1, 0}, [][]float64{{1, -1}, {1e-10, 0}}, []float64{-inf, -inf}, []float64{1, 1e9}, []float64{0, 0}, []float64{inf, inf})
	if ok, why := rayProves(far, o, x, []float64{1, 1}, zero2, nil, nil); !ok {
		t.Errorf("a block after 10¹⁹: not proven (%s)", why)
	}
	near := rowsLP([]float64{-1, 0}, [][]float64{{1, -1}, {1e-10, 0}}, []float64{-inf, -inf}, []float64{1, 1}, []float64{0, 0}, []float64{inf, inf})
	if ok, _ := rayProves(near, o, x, []float64{1, 1}, zero2, nil, nil); ok {
		t.Error("a block after 10¹⁰ (rate 10⁻¹⁰, bound 1): proven")
	}
}

// TestRayProvesNearParallelKernel: min x₁ with −2²⁰x₀ + 10⁻⁹x₁ − 3x₂ ≥ 0
// and −2²⁰x₀ − 3x₂ ≤ 0 is bounded (optimum 0: x₁ ≥ 0), but
// d = (3·2⁻²⁰, −10⁻²⁰, −1) from x = 0 keeps the second row exactly and
// moves the first by −10⁻²⁹, within the noise of its terms, at a cost rate
// of −10⁻²⁰. Each kernel row alone (residual over ‖a_i‖ ≈ 10⁻³⁵) does not
// account for that rate; the basis's duals ±10⁹ (10⁻⁹·y₁ = c₁) do: making
// both rows exact moves the cost rate by Σ y_i·r_i = −10⁻²⁰, all of it
// (FuzzSolve 57cbf59b0758b89f). With them the ray is not proven.
func TestRayProvesNearParallelKernel(t *testing.T) {
	inf := math.Inf(1)
	p := rowsLP([]float64{0, 1, 0}, [][]float64{{-0x1p20, 1e-9, -3}, {-0x1p20, 0, -3}},
		[]float64{0, -inf}, []float64{inf, 0}, []float64{-inf, -inf, -inf}, []float64{inf, inf, inf})
	o := solver.Options{}.WithDefaults(p)
	x, d, zero := []float64{0, 0, 0}, []float64{3 * 0x1p-20, -1e-20, -1}, []float64{0, 0, 0}
	fixed := []bool{true, true}
	if ok, _ := rayProves(p, o, x, d, zero, fixed, []float64{1e9, -1e9}); ok {
		t.Error("a ray whose cost rate the kernel rows' residuals and duals explain: proven")
	}
	ok, why := rayProves(p, o, x, d, zero, fixed, nil)
	t.Logf("without the duals: proven %v (%s)", ok, why)
}

// TestExactRay builds rays exactly and checks them: on max x₀ s.t.
// x₀ − x₁ ≤ 1, x ≥ 0 (TestRayProves's LP), the basis {x₀} on the row with
// x₁ entering gives the ray (1, 1), which is proven; on
// TestRayProvesNearParallelKernel's bounded LP, the basis {x₁, x₂} on both
// rows with x₀ entering gives an exact ray of cost rate 0 (x₁ does not
// move), which is not, nor is a ray of a singular kernel.
func TestExactRay(t *testing.T) {
	inf := math.Inf(1)
	p := rowsLP([]float64{-1, 0}, [][]float64{{1, -1}}, []float64{-inf}, []float64{1}, []float64{0, 0}, []float64{inf, inf})
	o := solver.Options{}.WithDefaults(p)
	d, ok := exactRay(p, []int{0}, []int{0}, 1, 1)
	if !ok || d[0].Cmp(big.NewRat(1, 1)) != 0 || d[1].Cmp(big.NewRat(1, 1)) != 0 {
		t.Fatalf("ray of x₁ entering: %v (ok %v), want (1, 1)", d, ok)
	}
	if ok, why := exactRayProves(p, o, []float64{0, 0}, d, nil); !ok {
		t.Errorf("ray (1, 1): not proven (%s)", why)
	}
	if d, ok = exactRay(p, []int{0}, []int{0}, 2, 1); !ok || d[0].Cmp(big.NewRat(1, 1)) != 0 || d[1].Sign() != 0 {
		t.Errorf("ray of the row's activity rising: %v (ok %v), want (1, 0)", d, ok)
	}
	near := rowsLP([]float64{0, 1, 0}, [][]float64{{-0x1p20, 1e-9, -3}, {-0x1p20, 0, -3}},
		[]float64{0, -inf}, []float64{inf, 0}, []float64{-inf, -inf, -inf}, []float64{inf, inf, inf})
	d, ok = exactRay(near, []int{1, 2}, []int{0, 1}, 0, 1)
	if !ok || d[1].Sign() != 0 {
		t.Fatalf("near-parallel rows: ray %v (ok %v), want x₁'s rate exactly 0", d, ok)
	}
	if ok, _ := exactRayProves(near, o, []float64{0, 0, 0}, d, nil); ok {
		t.Error("near-parallel rows: a ray of cost rate 0 proven")
	}
	if _, ok := exactRay(near, []int{0, 2}, []int{0, 1}, 1, 1); ok {
		t.Error("kernel of columns x₀, x₂ on both rows (singular): a ray")
	}
	// FuzzSolve ffc1f62a60efde62: max x₂ with −10⁶x₁ + 10⁻⁹x₂ ≤ 0,
	// x₁ ≤ 10⁶, 7x₀ + 10⁻⁹x₁ ≤ 0 and 10⁻⁹x₀ ≥ 0 has the optimum 0. From
	// x = (−1/7000, 10⁶, 0), feasible within the tolerance only, x₂ rises
	// along d = e₂ until the first row blocks it at 10²¹, beyond the step
	// to −2·10¹⁵: that block must count, and d proves nothing.
	ffc := rowsLP([]float64{0, 0, -1}, [][]float64{{0, -1e6, 1e-9}, {7, 1e-9, 0}, {1e-9, 0, 0}},
		[]float64{-inf, -inf, 0}, []float64{0, 0, inf}, []float64{-inf, -inf, -inf}, []float64{inf, 1e6, inf})
	e2 := make([]big.Rat, 3)
	e2[2].SetInt64(1)
	if ok, _ := exactRayProves(ffc, o, []float64{-1.0 / 7000, 1e6, 0}, e2, nil); ok {
		t.Error("a ray blocked at 10²¹ from an origin feasible only within the tolerance: proven")
	}
}

// TestCheckCertificateDemotes checks that a verdict whose certificate
// fails is demoted to NumericalFailure with the reason, and that one whose
// certificate holds is kept.
func TestCheckCertificateDemotes(t *testing.T) {
	inf := math.Inf(1)
	p := rowsLP([]float64{0}, [][]float64{{1}, {1}}, []float64{1, -inf}, []float64{inf, 2}, []float64{-inf}, []float64{inf})
	s := newSimplex(p, solver.Options{}.WithDefaults(p))
	s.farkas = []float64{1, -1, 0, 0} // hi, lo: no certificate for a feasible LP
	sol := &solver.Solution{Status: solver.Infeasible, X: []float64{0}}
	s.checkCertificate(p, solver.Options{}, nil, sol)
	if sol.Status != solver.NumericalFailure || !strings.Contains(sol.Message, "infeasible unproven") {
		t.Errorf("feasible LP claimed infeasible: %v (%s), want a numerical failure", sol.Status, sol.Message)
	}
	q := rowsLP([]float64{0}, [][]float64{{1}, {1}}, []float64{1, -inf}, []float64{inf, 0}, []float64{-inf}, []float64{inf})
	s = newSimplex(q, solver.Options{}.WithDefaults(q))
	s.farkas = []float64{1, -1, 0, 0}
	sol = &solver.Solution{Status: solver.Infeasible, X: []float64{0}}
	s.checkCertificate(q, solver.Options{}, nil, sol)
	if sol.Status != solver.Infeasible {
		t.Errorf("infeasible LP with a valid certificate: %v (%s)", sol.Status, sol.Message)
	}
	s.farkas = nil
	sol = &solver.Solution{Status: solver.Infeasible, X: []float64{0}}
	s.checkCertificate(q, solver.Options{}, nil, sol)
	if sol.Status != solver.NumericalFailure {
		t.Errorf("infeasible without a certificate: %v, want a numerical failure", sol.Status)
	}
}

// TestFaintCheck solves FuzzSolve's two LPs whose improvement hides behind
// a reduced cost within the dual tolerance. The first, min x₃ with
// x₁ ≤ −10⁶, x₃ ≥ 0 and 0 ≤ −10⁶x₁ + 10⁻⁹x₂ − 10⁶x₃ ≤ 10⁻⁶, has the exact
// optimum 0 at x₂ ≈ −10²¹: the vertex x₃ = 10⁶ (a reduced cost of 10⁻¹⁵ on
// x₂) must not be called optimal. Both keep FuzzSolve's empty rows (the
// first fails on the old code only with them). The second, min 10⁶(x₁ + x₃) with
// −10⁶x₁ + 10⁻⁹x₂ − 10⁶x₃ ≤ 0, −10⁶(x₁ + x₂) ≤ 0 and x₂, x₃ ≤ 10⁶, is
// exactly unbounded (x₂ falling, x₁ rising, x₃ falling by 1 + 10⁻¹⁵, at a
// cost rate of −10⁻⁹): it must not be called optimal (the ray is found a
// pivot away from the vertex, where faintLook does not trust its
// certificate, so the answer is a numerical failure).
func TestFaintCheck(t *testing.T) {
	inf := math.Inf(1)
	p1 := rowsLP([]float64{0, 0, 1},
		[][]float64{{0, 0, 0}, {0, 0, 0}, {0, 0, -1e6}, {-1e6, 1e-9, -1e6}, {0, 0, 0}},
		[]float64{-inf, -inf, -inf, 0, -inf}, []float64{inf, inf, 0, 1e-6, inf},
		[]float64{-inf, -inf, -inf}, []float64{-1e6, inf, inf})
	sol, err := pureGo{}.Solve(p1, solver.Options{MaxIterations: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Status == solver.Optimal && math.Abs(sol.Objective) > 1e-6 || sol.Status != solver.Optimal && sol.Status != solver.NumericalFailure {
		t.Errorf("first LP: %v, objective %g (%s); want optimum 0 or a numerical failure", sol.Status, sol.Objective, sol.Message)
	}
	p2 := rowsLP([]float64{1e6, 0, 1e6},
		[][]float64{{-1e6, 1e-9, -1e6}, {0, 0, 0}, {-1e6, -1e6, 0}, {0, 0, 0}},
		[]float64{-inf, -inf, -inf, -inf}, []float64{0, inf, 0, inf},
		[]float64{-inf, -inf, -inf}, []float64{inf, 1e6, 1e6})
	if sol, err = (pureGo{}).Solve(p2, solver.Options{MaxIterations: 1000}); err != nil {
		t.Fatal(err)
	}
	if sol.Status != solver.Unbounded && sol.Status != solver.NumericalFailure {
		t.Errorf("second LP: %v, objective %g (%s); want unbounded or a numerical failure", sol.Status, sol.Objective, sol.Message)
	}
}

// TestFaintStep solves FuzzSolve dda5fb683fad4697: min x₀ + x₂ with
// x₀ ∈ [−10⁶, 0], x₃ ≥ −10⁶, x₁ and x₂ free, 7x₁ + 10⁻⁹x₂ ≥ 0,
// 7x₂ − 10⁶x₃ ≥ −2 and −10⁶x₀ − 10⁻⁶x₁ ≤ 0. Its optimum is
// −10⁶ − (10¹² + 2)/7 at x₀ = x₃ = −10⁶, x₂ = −(10¹² + 2)/7, x₁ ≈ 10¹⁸
// (x₀ reaches its bound only when 10⁻⁶x₁ = 10¹²). The simplex stops at
// x₀ ≈ 0, x₁ ≈ 20, 10⁶ higher, where the first row's dual −1.4·10⁻¹³ is
// within the dual tolerance; faintCheck finds its step of 7·10¹⁸ and the
// solve must take it (takeStep) and reach the optimum, not give up.
func TestFaintStep(t *testing.T) {
	inf := math.Inf(1)
	p := rowsLP([]float64{1, 0, 1, 0},
		[][]float64{{0, 0, 0, 0}, {0, 7, 1e-9, 0}, {0, 0, 7, -1e6}, {0, 0, 0, 0}, {-1e6, -1e-6, 0, 0}},
		[]float64{-inf, 0, -2, -inf, -inf}, []float64{inf, inf, inf, inf, 0},
		[]float64{-1e6, -inf, -inf, -1e6}, []float64{0, inf, inf, inf})
	sol, err := pureGo{}.Solve(p, solver.Options{MaxIterations: 1000})
	if err != nil {
		t.Fatal(err)
	}
	want := -1e6 - (1e12+2)/7
	if sol.Status != solver.Optimal || math.Abs(sol.Objective-want) > 1e-9*math.Abs(want) {
		t.Fatalf("%v, objective %.12g (%s); want optimal %.12g", sol.Status, sol.Objective, sol.Message, want)
	}
	if sol.MaxRowViolation > 0 || sol.MaxColViolation > 0 {
		t.Errorf("x = %v violates a row by %g, a column by %g", sol.X, sol.MaxRowViolation, sol.MaxColViolation)
	}
}

// TestFaintRayExact: TestFaintStep's LP with x₀ free (FuzzSolve
// 301c6227631396bf) is unbounded: the first row's activity rising takes
// x₁ up and x₀ = −10⁻¹²·x₁ down without end, at a cost rate of
// −1.4·10⁻¹³ that sits next to a reduced cost of 1.4·10⁵ (scaled, 10⁻¹⁴
// next to 10⁷), where faintLook's threshold calls it round-off. The ray
// built exactly proves it, and the answer must be Unbounded.
func TestFaintRayExact(t *testing.T) {
	inf := math.Inf(1)
	p := rowsLP([]float64{1, 0, 1, 0},
		[][]float64{{0, 0, 0, 0}, {0, 7, 1e-9, 0}, {0, 0, 7, -1e6}, {0, 0, 0, 0}, {-1e6, -1e-6, 0, 0}},
		[]float64{-inf, 0, -2, -inf, -inf}, []float64{inf, inf, inf, inf, 0},
		[]float64{-inf, -inf, -inf, -1e6}, []float64{inf, inf, inf, inf})
	wantUnbounded(t, p)
}

// TestRefineVertexExact solves FuzzSolve d59508ae5de1798e: max x₀ with
// 10⁻⁹x₀ − 10⁶x₂ ≤ 1, 7x₀ − 10⁶x₁ + x₂ ≤ 1 and 0 ≤ 7x₀ − 10⁶x₁ ≤ 1, whose
// optimum x₀ = (1 + 10⁶)·10⁹ lies at a vertex whose kernel has a
// condition of about 10²¹. The float64 solve reached that basis with
// x₀ = 5.5·10¹⁴, feasible within the tolerance but 45 % short, and the
// float refinement could not move it; refineVertex must build the vertex
// exactly, so that the answer is the optimum −(1 + 10⁶)·10⁹.
func TestRefineVertexExact(t *testing.T) {
	inf := math.Inf(1)
	p := rowsLP([]float64{-1, 0, 0},
		[][]float64{{1e-9, 0, -1e6}, {7, -1e6, 1}, {7, -1e6, 0}},
		[]float64{-inf, -inf, 0}, []float64{1, 1, 1},
		[]float64{-inf, -inf, -inf}, []float64{inf, inf, inf})
	sol, err := pureGo{}.Solve(p, solver.Options{MaxIterations: 1000})
	if err != nil {
		t.Fatal(err)
	}
	want := -(1 + 1e6) * 1e9
	if sol.Status != solver.Optimal || math.Abs(sol.Objective-want) > 1e-9*math.Abs(want) {
		t.Errorf("%v, objective %.12g (%s); want optimal %.12g", sol.Status, sol.Objective, sol.Message, want)
	}
}

// TestFaintDegenerate solves FuzzSolve 5d9123eebd25ce0e: min 10⁻⁹x₀ + x₂
// with x₀, x₁, x₂ free, x₃ ≥ −10⁶, 7x₂ − 10⁶x₃ ≥ −2 and −10⁶(x₀ + x₁) ≤ 0,
// unbounded (x₀ falling, x₁ rising); 6f91ba1866a892b0, the same with
// x₀ ≤ 1; f078ef4a4ff7d736, that with −10⁻⁶x₂ in the last row; and
// 8a52879ffeffcd5a, that with x₁ ≥ 0. The
// simplex stops where x₀'s reduced cost equals the tolerance, 10⁻⁹
// (beside one of 1.4·10⁵), and its ray starts a pivot away: a degenerate
// one (the last row, basic at its bound, leaves first), or after a step
// from x₀ = 1, after which x₁'s float64 reduced cost has the wrong sign
// (1.7·10⁻¹² scaled, exactly −1.5·10⁻¹⁷, beyond the scaled tolerance
// 1.5·10⁻¹⁷ for x₁ ≥ 0). faintCheck must look through
// that pivot, find the ray proven exactly, take the pivot and report
// Unbounded.
func TestFaintDegenerate(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct{ up, lo1, a42 float64 }{{inf, -inf, 0}, {1, -inf, 0}, {1, -inf, -1e-6}, {1, 0, -1e-6}} {
		p := rowsLP([]float64{1e-9, 0, 1, 0},
			[][]float64{{0, 0, 7, -1e6}, {-1e6, -1e6, c.a42, 0}},
			[]float64{-2, -inf}, []float64{inf, 0},
			[]float64{-inf, c.lo1, -inf, -1e6}, []float64{c.up, inf, inf, inf})
		sol, err := pureGo{}.Solve(p, solver.Options{MaxIterations: 1000})
		if err != nil {
			t.Fatal(err)
		}
		if sol.Status != solver.Unbounded {
			t.Errorf("x₀ ≤ %g, x₁ ≥ %g, a₄₂ = %g: %v, objective %.12g (%s); want unbounded", c.up, c.lo1, c.a42, sol.Status, sol.Objective, sol.Message)
		}
	}
}

// TestFaintWeakRay solves FuzzSolve 6eb811e9abe5403f: min 10⁻⁹x₀ + x₂ with
// x₀, x₁, x₂ free, x₃ ≥ −10⁶, −10⁶x₀ − 10⁻⁶x₁ + 7x₂ − 10⁶x₃ ≥ 0.5 and
// −10⁶x₀ − 10⁻⁶x₁ + 10⁻⁹x₂ ≤ 0: unbounded along x₀ falling, x₁ rising
// 10¹² times as fast, which keeps both rows. x₀'s reduced cost is its
// cost alone (scaled 4.7·10⁻¹⁹), the duals' terms of 10⁻⁴ cancelling
// exactly, so faintNoise of its terms calls it round-off; the exact ray
// must decide, and the answer must be Unbounded.
func TestFaintWeakRay(t *testing.T) {
	inf := math.Inf(1)
	p := rowsLP([]float64{1e-9, 0, 1, 0},
		[][]float64{{-1e6, -1e-6, 7, -1e6}, {-1e6, -1e-6, 1e-9, 0}},
		[]float64{0.5, -inf}, []float64{inf, 0},
		[]float64{-inf, -inf, -inf, -1e6}, []float64{inf, inf, inf, inf})
	wantUnbounded(t, p)
}

// TestExactCheckSingular solves FuzzSolve 3cf2b3eb68ba0687: max x₀ with
// 10⁻⁹x₀ − 10⁶x₂ ≤ 0 and two rows 7x₀ − 10⁶x₁ + 7x₂, one ≤ 0, the other in
// [−1, 0], all columns free: unbounded (x₂ = 10⁻¹⁵x₀, x₁ keeping the
// rows). The simplex ended on a basis holding both identical rows, whose
// float64 inverse (duals ±2.5·10¹⁵) called it optimal at −2.5·10¹⁵.
// exactCheck must find the kernel singular: no optimum may be reported.
func TestExactCheckSingular(t *testing.T) {
	inf := math.Inf(1)
	p := rowsLP([]float64{-1, 0, 0},
		[][]float64{{1e-9, 0, -1e6}, {7, -1e6, 7}, {7, -1e6, 7}},
		[]float64{-inf, -inf, -1}, []float64{0, 0, 0},
		[]float64{-inf, -inf, -inf}, []float64{inf, inf, inf})
	sol, err := pureGo{}.Solve(p, solver.Options{MaxIterations: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Status == solver.Optimal || sol.Status == solver.Infeasible {
		t.Errorf("%v, objective %.12g (%s); want unbounded or a numerical failure", sol.Status, sol.Objective, sol.Message)
	}
}

// TestExactCheckVerdicts runs exactCheck on TestRefineVertexExact's LP
// (kernel condition about 10²¹) with an empty column x₀ in front, at
// lower bound 0, free, or at upper bound 0, cost 0 while the simplex
// runs. At the simplex's optimum (x₁ = 5.5·10¹⁴) exactCheck must judge
// the basis and put the vertex built exactly into x (x₁ = 1.000001·10¹⁵).
// Then x₀'s cost is set: a reduced cost exactly 0 leaves the optimum
// standing, and one of the improving sign, however small (10⁻³⁰⁰), makes
// it a numerical failure: at lower bound a negative one, free either
// sign, at upper bound a positive one.
func TestExactCheckVerdicts(t *testing.T) {
	inf := math.Inf(1)
	tiny := 1e-300
	for _, c := range []struct {
		name           string
		lo, up         float64
		opt, improving []float64
	}{
		{"x₀ ≥ 0", 0, inf, []float64{0, tiny, 1}, []float64{-tiny, -1}},
		{"x₀ free", -inf, inf, []float64{0}, []float64{-tiny, tiny, 1}},
		{"x₀ ≤ 0", -inf, 0, []float64{0, -tiny, -1}, []float64{tiny, 1}},
	} {
		p := rowsLP([]float64{0, -1, 0, 0},
			[][]float64{{0, 1e-9, 0, -1e6}, {0, 7, -1e6, 1}, {0, 7, -1e6, 0}},
			[]float64{-inf, -inf, 0}, []float64{1, 1, 1},
			[]float64{c.lo, -inf, -inf, -inf}, []float64{c.up, inf, inf, inf})
		s := newSimplex(p, solver.Options{}.WithDefaults(p))
		s.src = p
		if st, msg := s.run(nil); st != solver.Optimal || s.st[0] == stBasic {
			t.Fatalf("%s: simplex %v (%s), x₀'s status %d; want optimal with x₀ nonbasic", c.name, st, msg, s.st[0])
		}
		judged, st, msg := s.exactCheck()
		if !judged || st != solver.Optimal {
			t.Fatalf("%s: exactCheck judged %v, %v (%s); want an optimum judged", c.name, judged, st, msg)
		}
		v, ok := exactVertex(p, s.S, s.T, s.st)
		if !ok {
			t.Fatalf("%s: no exact vertex", c.name)
		}
		for _, j := range s.S {
			if s.x[j] != ratFloat(&v[j]) {
				t.Errorf("%s: x%d = %.17g, the exact vertex's %.17g", c.name, j, s.x[j], ratFloat(&v[j]))
			}
		}
		if want := (1 + 1e6) * 1e9; math.Abs(s.x[1]-want) > 1e-9*want {
			t.Errorf("%s: x₁ = %.17g, want %.17g", c.name, s.x[1], want)
		}
		for _, cost := range c.opt {
			s.cost[0] = cost
			if judged, st, msg := s.exactCheck(); !judged || st != solver.Optimal {
				t.Errorf("%s, cost %g: judged %v, %v (%s); want optimal", c.name, cost, judged, st, msg)
			}
		}
		for _, cost := range c.improving {
			s.cost[0] = cost
			if judged, st, msg := s.exactCheck(); !judged || st != solver.NumericalFailure || !strings.Contains(msg, "variable 0") {
				t.Errorf("%s, cost %g: judged %v, %v (%s); want variable 0 improving, a numerical failure", c.name, cost, judged, st, msg)
			}
		}
	}
}

// TestExactBlockAndRayHolds builds the basis {x₀} on the row x₀ − x₁ = 0
// with x₁ ≥ 0 nonbasic at 0 (min x₀ − x₁, every point optimal) and moves
// x₁ up: x₀ follows, and a row 10⁻³⁰x₁ ≤ 1 blocks only at 10³⁰, at a rate
// a float64 ratio test takes for none. exactBlock must name that row at
// its upper bound, or x₀'s upper bound 5 where there is one; with x₁ ≤ 0
// at its upper bound moving down, x₀ ≥ −2 blocks at its lower bound; and
// x₀ ≤ 0, beyond it by 10⁻¹² (within the tolerance), blocks at once
// (step 0, not a negative one).
// exactRayHolds, with x₁'s cost −(1 + 5·10⁻¹³), must prove the ray (a
// cost rate of 2.5·10⁻¹³ of its terms, beyond faintNoise; the row's block
// lies beyond the step to −2·10¹⁵·Σ|c|) from x = 0 and from an x whose
// row misses by 10⁻¹² (within the tolerance: the vertex, built exactly,
// is then the origin), and must not with −(1 + 5·10⁻¹⁴) (2.5·10⁻¹⁴ of its
// terms, cancellation). checkCertificate must prove such a ray too from
// a solution's x off by 10⁻¹².
func TestExactBlockAndRayHolds(t *testing.T) {
	inf := math.Inf(1)
	for _, c := range []struct {
		name      string
		c, lo, up []float64
		v         int
		dir       float64
		b         int
		theta     float64
		pst       uint8
		x0        float64 // x₀ set before exactBlock, if not 0
	}{
		{"10⁻³⁰x₁ ≤ 1", []float64{1, -1}, []float64{-inf, 0}, []float64{inf, inf}, 1, 1, 2 + 1, 1e30, stUpper, 0},
		{"x₀ ≤ 5", []float64{1, -1}, []float64{-inf, 0}, []float64{5, inf}, 1, 1, 0, 5, stUpper, 0},
		{"x₀ ≥ −2", []float64{-1, 1}, []float64{-2, -inf}, []float64{inf, 0}, 1, -1, 0, 2, stLower, 0},
		{"x₀ ≤ 0, x₀ = 10⁻¹²", []float64{1, -1}, []float64{-inf, 0}, []float64{0, inf}, 1, 1, 0, 0, stUpper, 1e-12},
	} {
		p := rowsLP(c.c, [][]float64{{1, -1}, {0, 1e-30}}, []float64{0, -inf}, []float64{0, 1}, c.lo, c.up)
		s := newSimplex(p, solver.Options{}.WithDefaults(p))
		s.src = p
		if st, msg := s.run(nil); st != solver.Optimal || !slices.Equal(s.S, []int{0}) || s.st[1] == stBasic {
			t.Fatalf("%s: %v (%s), basic columns %v; want optimal on {x₀}", c.name, st, msg, s.S)
		}
		if c.x0 != 0 {
			s.x[0] = c.x0
		}
		b, theta, pst, exact := s.exactBlock(c.v, c.dir)
		if !exact || b != c.b || !(math.Abs(theta-c.theta) <= 1e-15*c.theta) || pst != c.pst {
			t.Errorf("%s: exactBlock %d, step %g, status %d (exact %v); want %d, %g, %d", c.name, b, theta, pst, exact, c.b, c.theta, c.pst)
		}
	}
	p := rowsLP([]float64{1, -1}, [][]float64{{1, -1}, {0, 1e-30}}, []float64{0, -inf}, []float64{0, 1}, []float64{-inf, 0}, []float64{inf, inf})
	s := newSimplex(p, solver.Options{}.WithDefaults(p))
	s.src = p
	if st, msg := s.run(nil); st != solver.Optimal || !slices.Equal(s.S, []int{0}) {
		t.Fatalf("%v (%s), basic columns %v; want optimal on {x₀}", st, msg, s.S)
	}
	p.Obj[1] = -(1 + 5e-13)
	if !s.exactRayHolds(1, 1) {
		t.Error("cost rate 2.5·10⁻¹³ of its terms, from x = 0: ray not proven")
	}
	s.x[0] = 1e-12
	if !s.exactRayHolds(1, 1) {
		t.Error("cost rate 2.5·10⁻¹³ of its terms, from x₀ = 10⁻¹² (the vertex exactly feasible): ray not proven")
	}
	s.x[0] = 0
	p.Obj[1] = -(1 + 5e-14)
	if s.exactRayHolds(1, 1) {
		t.Error("cost rate 2.5·10⁻¹⁴ of its terms: ray proven")
	}
	// checkCertificate, on the same LP with x₁'s cost −(1 + 10⁻¹²): the
	// ray is proven from the vertex, built exactly, though the solution's
	// x misses the first row by 10⁻¹² (within the tolerance).
	p.Obj[1] = -(1 + 1e-12)
	s.ray, s.rayEnter = []float64{1, 1, 0, 0}, 1
	sol := &solver.Solution{Status: solver.Unbounded, X: []float64{1e-12, 0}}
	s.checkCertificate(p, solver.Options{}.WithDefaults(p), nil, sol)
	if sol.Status != solver.Unbounded {
		t.Errorf("checkCertificate from x₀ = 10⁻¹²: %v (%s), want unbounded", sol.Status, sol.Message)
	}
}

// TestRefineVertexAlone runs TestRefineVertexExact's LP through the
// simplex alone (no exactCheck, which rebuilds the same vertex first in a
// solve) to its optimal basis, whose x₁ = 5.5·10¹⁴ misses the vertex
// 1.000001·10¹⁵ of its kernel (condition 10²¹); refineVertex must put x
// on the vertex built exactly. Without the exact problem (the float64
// refinement alone) it must not leave the kernel rows further off their
// bounds than it found them.
func TestRefineVertexAlone(t *testing.T) {
	inf := math.Inf(1)
	p := rowsLP([]float64{-1, 0, 0},
		[][]float64{{1e-9, 0, -1e6}, {7, -1e6, 1}, {7, -1e6, 0}},
		[]float64{-inf, -inf, 0}, []float64{1, 1, 1},
		[]float64{-inf, -inf, -inf}, []float64{inf, inf, inf})
	worst := func(s *simplex) float64 {
		w := 0.0
		for _, i := range s.T {
			var d dot2
			row := s.row(i)
			for j := range s.n {
				d.add(row[j], s.x[j])
			}
			v, _ := d.result()
			w = math.Max(w, math.Abs(v-s.boundValue(s.n+i, s.st[s.n+i])))
		}
		return w
	}
	for _, exact := range []bool{true, false} {
		s := newSimplex(p, solver.Options{}.WithDefaults(p))
		if exact {
			s.src = p
		}
		if st, msg := s.run(nil); st != solver.Optimal || s.k() != 3 {
			t.Fatalf("%v (%s), kernel of %d; want optimal on a kernel of 3", st, msg, s.k())
		}
		before := worst(s)
		s.refineVertex()
		after := worst(s)
		t.Logf("exact %v: worst miss %g → %g, x = %v", exact, before, after, s.x[:3])
		if !(after <= before) {
			t.Errorf("exact problem %v: worst kernel row miss %g → %g", exact, before, after)
		}
		if want := (1 + 1e6) * 1e9; exact && math.Abs(s.x[0]-want) > 1e-9*want {
			t.Errorf("x₀ = %.17g, want %.17g", s.x[0], want)
		}
	}
}

// TestTakeStep takes faint steps on the LP of TestExactBlockAndRayHolds
// (basis {x₀} on x₀ − x₁ = 0, x₁ nonbasic at its lower bound, min x₀ − x₁).
// With the row 10⁻³⁰x₁ ≤ 1 and the step exactBlock found (the row leaving
// at its upper bound after 10³⁰), takeStep must pivot on that row, whose
// rate the float64 ratio test takes for none: x₁ becomes basic, the row
// nonbasic at its upper bound. With x₁ ∈ [−3, 10¹⁶ + 2] and no such row,
// the ratio test's step is x₁'s bound flip, there and back, and x₁ must
// then sit exactly on the other bound (a bound plus or minus the step
// rounds off the other in both directions).
func TestTakeStep(t *testing.T) {
	inf := math.Inf(1)
	p := rowsLP([]float64{1, -1}, [][]float64{{1, -1}, {0, 1e-30}}, []float64{0, -inf}, []float64{0, 1}, []float64{-inf, 0}, []float64{inf, inf})
	s := newSimplex(p, solver.Options{}.WithDefaults(p))
	s.src = p
	if st, msg := s.run(nil); st != solver.Optimal || !slices.Equal(s.S, []int{0}) || s.st[1] != stLower {
		t.Fatalf("%v (%s), basic columns %v; want optimal on {x₀}, x₁ at its lower bound", st, msg, s.S)
	}
	b, theta, pst, _ := s.exactBlock(1, 1)
	if !s.takeStep(faintStep{v: 1, dir: 1, leave: b, theta: theta, pst: pst}) {
		t.Fatal("step along the exact block: not taken")
	}
	if s.st[1] != stBasic || s.st[2+1] != stUpper || math.Abs(s.x[1]-1e30) > 1e15 {
		t.Errorf("after the step: statuses %v, x = %v; want x₁ = 10³⁰ basic, row 1 at its upper bound", s.st, s.x)
	}
	q := rowsLP([]float64{1, -1}, [][]float64{{1, -1}}, []float64{0}, []float64{0}, []float64{-inf, -3}, []float64{inf, 1e16 + 2})
	s = newSimplex(q, solver.Options{}.WithDefaults(q))
	s.src = q
	if st, msg := s.run(nil); st != solver.Optimal || !slices.Equal(s.S, []int{0}) || s.st[1] == stBasic {
		t.Fatalf("x₁ ∈ [−3, 10¹⁶ + 2]: %v (%s), basic columns %v; want optimal on {x₀}", st, msg, s.S)
	}
	for range 2 {
		from, to, dir := s.st[1], uint8(stUpper), 1.0
		if from == stUpper {
			to, dir = stLower, -1
		}
		if !s.takeStep(faintStep{v: 1, dir: dir, leave: -1}) {
			t.Fatal("x₁ ∈ [−3, 10¹⁶ + 2]: bound flip not taken")
		}
		if want := s.boundValue(1, to); s.st[1] != to || s.x[1] != want {
			t.Errorf("x₁ ∈ [−3, 10¹⁶ + 2] after a flip from status %d: status %d, x₁ = %g; want %g", from, s.st[1], s.x[1], want)
		}
	}
}

// TestRatFloat checks ratFloat's rounding of a nonzero rational too small
// for float64: the smallest nonzero float64 of its sign (a step divided by
// it stays finite and short), never 0; others round to nearest.
func TestRatFloat(t *testing.T) {
	tiny := new(big.Rat).SetFrac(big.NewInt(1), new(big.Int).Exp(big.NewInt(10), big.NewInt(400), nil))
	if f := ratFloat(tiny); f != math.SmallestNonzeroFloat64 {
		t.Errorf("10⁻⁴⁰⁰ → %g, want %g", f, math.SmallestNonzeroFloat64)
	}
	if f := ratFloat(new(big.Rat).Neg(tiny)); f != -math.SmallestNonzeroFloat64 {
		t.Errorf("−10⁻⁴⁰⁰ → %g, want %g", f, -math.SmallestNonzeroFloat64)
	}
	if f := ratFloat(new(big.Rat)); f != 0 {
		t.Errorf("0 → %g", f)
	}
	if f := ratFloat(big.NewRat(1, 3)); f != 1.0/3 {
		t.Errorf("1/3 → %.17g", f)
	}
}

// wantUnbounded solves p with the pure-Go backend and fails t unless the
// verdict is Unbounded.
func wantUnbounded(t *testing.T, p *solver.Problem) {
	t.Helper()
	sol, err := pureGo{}.Solve(p, solver.Options{MaxIterations: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if sol.Status != solver.Unbounded {
		t.Errorf("%v, objective %.12g (%s); want unbounded", sol.Status, sol.Objective, sol.Message)
	}
}
