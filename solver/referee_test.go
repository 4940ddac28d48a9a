package solver_test

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/featmap/featmap/solver"
)

// The exact referee: a dense two-phase tableau simplex over math/big.Rat with
// Bland's rule, which decides the status and optimum of a small LP exactly
// (every float64 is a rational, so the problem it solves is exactly the one
// the backends see). It is slow and meant for LPs of up to a dozen rows and
// columns; it decides who is right when the backends disagree or when the
// answer is not known by construction.

// refereeMax bounds the size of an LP the referee accepts (rows and columns).
const refereeMax = 12

// exactResult is the referee's verdict: Optimal, Infeasible or Unbounded, and
// for Optimal the exact optimum and an optimal x (for Unbounded, x is a
// feasible vertex).
type exactResult struct {
	status solver.Status
	obj    *big.Rat
	x      []*big.Rat
}

// exactSolve solves p exactly. Bounds are removed by substitution: a column
// with a finite lower bound is lo + y (y ≥ 0, and y ≤ hi − lo as a row when
// the upper bound is finite too), one with only an upper bound is hi − y, and
// a free one is y⁺ − y⁻. Rows become ≤, ≥ or = constraints with slacks; phase 1
// minimises the sum of one artificial per row, phase 2 the cost.
func exactSolve(p *solver.Problem) exactResult {
	n, m := p.NumCols(), p.NumRows
	a := denseOf(p)
	rat := func(v float64) *big.Rat { return new(big.Rat).SetFloat64(v) }
	// x_j = off_j + Σ coef·y over the y's of column j.
	type term struct {
		y    int
		coef int64
	}
	off := make([]*big.Rat, n)
	terms := make([][]term, n)
	ny := 0
	type cons struct {
		a     map[int]*big.Rat // over y
		rhs   *big.Rat
		sense int // -1: ≤, 0: =, +1: ≥
	}
	var cs []cons
	for j := 0; j < n; j++ {
		lo, hi := p.ColLower[j], p.ColUpper[j]
		switch {
		case !math.IsInf(lo, -1):
			off[j] = rat(lo)
			terms[j] = []term{{ny, 1}}
			if !math.IsInf(hi, 1) {
				cs = append(cs, cons{a: map[int]*big.Rat{ny: big.NewRat(1, 1)}, rhs: new(big.Rat).Sub(rat(hi), rat(lo)), sense: -1})
			}
			ny++
		case !math.IsInf(hi, 1):
			off[j] = rat(hi)
			terms[j] = []term{{ny, -1}}
			ny++
		default:
			off[j] = new(big.Rat)
			terms[j] = []term{{ny, 1}, {ny + 1, -1}}
			ny += 2
		}
	}
	for i := 0; i < m; i++ {
		row := map[int]*big.Rat{}
		act := new(big.Rat)
		for j := 0; j < n; j++ {
			if a[i][j] == 0 {
				continue
			}
			aij := rat(a[i][j])
			act.Add(act, new(big.Rat).Mul(aij, off[j]))
			for _, t := range terms[j] {
				row[t.y] = new(big.Rat).Mul(aij, big.NewRat(t.coef, 1))
			}
		}
		lo, hi := p.RowLower[i], p.RowUpper[i]
		if lo == hi {
			cs = append(cs, cons{a: row, rhs: new(big.Rat).Sub(rat(lo), act), sense: 0})
			continue
		}
		if !math.IsInf(lo, -1) {
			cs = append(cs, cons{a: row, rhs: new(big.Rat).Sub(rat(lo), act), sense: 1})
		}
		if !math.IsInf(hi, 1) {
			cs = append(cs, cons{a: row, rhs: new(big.Rat).Sub(rat(hi), act), sense: -1})
		}
	}
	// Tableau columns: y (ny), one slack per inequality, one artificial per
	// constraint, then the right-hand side.
	nSlack := 0
	for _, c := range cs {
		if c.sense != 0 {
			nSlack++
		}
	}
	rows := len(cs)
	art0 := ny + nSlack
	width := art0 + rows + 1
	rhs := width - 1
	tab := make([][]*big.Rat, rows)
	basis := make([]int, rows)
	slack := ny
	for r, c := range cs {
		tab[r] = make([]*big.Rat, width)
		for k := range tab[r] {
			tab[r][k] = new(big.Rat)
		}
		for y, v := range c.a {
			tab[r][y].Set(v)
		}
		if c.sense != 0 {
			tab[r][slack].SetInt64(int64(-c.sense)) // ≤: +s, ≥: −s
			slack++
		}
		tab[r][rhs].Set(c.rhs)
		if c.rhs.Sign() < 0 {
			for k := range tab[r] {
				tab[r][k].Neg(tab[r][k])
			}
		}
		tab[r][art0+r].SetInt64(1)
		basis[r] = art0 + r
	}
	pivot := func(r, q int) {
		f := new(big.Rat).Inv(tab[r][q])
		for k := range tab[r] {
			tab[r][k].Mul(tab[r][k], f)
		}
		t := new(big.Rat)
		for i := range tab {
			if i == r || tab[i][q].Sign() == 0 {
				continue
			}
			g := new(big.Rat).Set(tab[i][q])
			for k := range tab[i] {
				if tab[r][k].Sign() != 0 {
					tab[i][k].Sub(tab[i][k], t.Mul(g, tab[r][k]))
				}
			}
		}
		basis[r] = q
	}
	// simplex minimises cost (len art0+rows) over the columns below limit
	// with Bland's rule; it reports false when the objective is unbounded.
	simplex := func(cost []*big.Rat, limit int) bool {
		d, t := new(big.Rat), new(big.Rat)
		for {
			q := -1
			for j := 0; j < limit && q < 0; j++ {
				d.Set(cost[j])
				for r, b := range basis {
					if cost[b].Sign() != 0 && tab[r][j].Sign() != 0 {
						d.Sub(d, t.Mul(cost[b], tab[r][j]))
					}
				}
				if d.Sign() < 0 {
					q = j
				}
			}
			if q < 0 {
				return true
			}
			r := -1
			var best *big.Rat
			for i := range tab {
				if tab[i][q].Sign() <= 0 {
					continue
				}
				ratio := new(big.Rat).Quo(tab[i][rhs], tab[i][q])
				if r < 0 || ratio.Cmp(best) < 0 || ratio.Cmp(best) == 0 && basis[i] < basis[r] {
					r, best = i, ratio
				}
			}
			if r < 0 {
				return false
			}
			pivot(r, q)
		}
	}
	cost1 := make([]*big.Rat, art0+rows)
	for k := range cost1 {
		cost1[k] = new(big.Rat)
		if k >= art0 {
			cost1[k].SetInt64(1)
		}
	}
	simplex(cost1, art0+rows) // phase 1 is bounded below by 0
	for r, b := range basis {
		if b >= art0 && tab[r][rhs].Sign() != 0 {
			return exactResult{status: solver.Infeasible}
		}
	}
	// Drive artificials at zero out of the basis; a row with no other
	// nonzero entry is redundant and never changes again.
	for r, b := range basis {
		if b < art0 {
			continue
		}
		for j := 0; j < art0; j++ {
			if tab[r][j].Sign() != 0 {
				pivot(r, j)
				break
			}
		}
	}
	cost2 := make([]*big.Rat, art0+rows)
	for k := range cost2 {
		cost2[k] = new(big.Rat)
	}
	obj := new(big.Rat)
	for j := 0; j < n; j++ {
		c := rat(p.Obj[j])
		obj.Add(obj, new(big.Rat).Mul(c, off[j]))
		for _, t := range terms[j] {
			cost2[t.y].Mul(c, big.NewRat(t.coef, 1))
		}
	}
	bounded := simplex(cost2, art0)
	y := make([]*big.Rat, art0)
	for k := range y {
		y[k] = new(big.Rat)
	}
	for r, b := range basis {
		if b < art0 {
			y[b].Set(tab[r][rhs])
		}
	}
	x := make([]*big.Rat, n)
	for j := 0; j < n; j++ {
		x[j] = new(big.Rat).Set(off[j])
		for _, t := range terms[j] {
			x[j].Add(x[j], new(big.Rat).Mul(y[t.y], big.NewRat(t.coef, 1)))
		}
		obj.Add(obj, new(big.Rat).Mul(cost2[terms[j][0].y], y[terms[j][0].y]))
		if len(terms[j]) == 2 {
			obj.Add(obj, new(big.Rat).Mul(cost2[terms[j][1].y], y[terms[j][1].y]))
		}
	}
	if !bounded {
		// x is the feasible vertex at which an improving ray was found.
		return exactResult{status: solver.Unbounded, x: x}
	}
	return exactResult{status: solver.Optimal, obj: obj, x: x}
}

// exactCheck verifies x against p in exact arithmetic and returns "" or the
// first violated bound.
func exactCheck(p *solver.Problem, x []*big.Rat) string {
	a := denseOf(p)
	in := func(v *big.Rat, lo, hi float64) bool {
		return (math.IsInf(lo, -1) || v.Cmp(new(big.Rat).SetFloat64(lo)) >= 0) &&
			(math.IsInf(hi, 1) || v.Cmp(new(big.Rat).SetFloat64(hi)) <= 0)
	}
	for j, v := range x {
		if !in(v, p.ColLower[j], p.ColUpper[j]) {
			return fmt.Sprintf("column %d = %s outside [%g, %g]", j, v.FloatString(6), p.ColLower[j], p.ColUpper[j])
		}
	}
	for i := range a {
		r := new(big.Rat)
		for j, v := range a[i] {
			if v != 0 {
				r.Add(r, new(big.Rat).Mul(new(big.Rat).SetFloat64(v), x[j]))
			}
		}
		if !in(r, p.RowLower[i], p.RowUpper[i]) {
			return fmt.Sprintf("row %d = %s outside [%g, %g]", i, r.FloatString(6), p.RowLower[i], p.RowUpper[i])
		}
	}
	return ""
}

// refereeCases are hand-made LPs with known exact answers.
func refereeCases() []struct {
	name   string
	p      *solver.Problem
	status solver.Status
	obj    *big.Rat
} {
	type rc = struct {
		name   string
		p      *solver.Problem
		status solver.Status
		obj    *big.Rat
	}
	return []rc{
		{"two-constraint vertex", dense([]float64{-1, -1}, [][]float64{{1, 2}, {3, 1}},
			[]float64{ninf, ninf}, []float64{4, 6}, []float64{0, 0}, []float64{inf, inf}),
			solver.Optimal, big.NewRat(-14, 5)},
		{"row contradicts column bound", dense([]float64{1}, [][]float64{{1}},
			[]float64{ninf}, []float64{-1}, []float64{0}, []float64{inf}),
			solver.Infeasible, nil},
		{"no rows, unbounded", dense([]float64{-1}, [][]float64{},
			[]float64{}, []float64{}, []float64{0}, []float64{inf}),
			solver.Unbounded, nil},
		{"free column through an equality", dense([]float64{1, 0}, [][]float64{{1, -1}},
			[]float64{1}, []float64{1}, []float64{ninf, -2}, []float64{inf, 3}),
			solver.Optimal, big.NewRat(-1, 1)},
		{"upper bound only", dense([]float64{-1}, [][]float64{},
			[]float64{}, []float64{}, []float64{ninf}, []float64{5}),
			solver.Optimal, big.NewRat(-5, 1)},
		{"boxed column, fractional bound", dense([]float64{3}, [][]float64{{2}},
			[]float64{1}, []float64{inf}, []float64{-4}, []float64{2.25}),
			solver.Optimal, big.NewRat(3, 2)},
		// Beale's example, on which Dantzig's rule with lowest-index ties
		// cycles; Bland's rule must reach x4 = x6 = 1, objective −5/4.
		{"Beale's cycling example", dense([]float64{-0.75, 20, -0.5, 6},
			[][]float64{{0.25, -8, -1, 9}, {0.5, -12, -0.5, 3}, {0, 0, 1, 0}},
			[]float64{ninf, ninf, ninf}, []float64{0, 0, 1}, []float64{0, 0, 0, 0}, []float64{inf, inf, inf, inf}),
			solver.Optimal, big.NewRat(-5, 4)},
		{"fixed column makes an equality infeasible", dense([]float64{0, 0}, [][]float64{{1, 1}},
			[]float64{3}, []float64{3}, []float64{1, 0}, []float64{1, 1}),
			solver.Infeasible, nil},
		// Unbounded along (1, 1), with the row x − y ≤ 1 repeated scaled
		// by 10⁹ (redundant), after the description.
		{"unbounded with a redundant row scaled by 1e9", dense([]float64{-1, -1}, [][]float64{{1, -1}, {1e9, -1e9}},
			[]float64{ninf, ninf}, []float64{1, 1e9}, []float64{0, 0}, []float64{inf, inf}),
			solver.Unbounded, nil},
		// Unbounded along (1, 0), with x + y ≥ 1 repeated scaled by 10¹²:
		// purego called it optimal before it scaled.
		{"unbounded with a redundant row scaled by 1e12", dense([]float64{-1, -2}, [][]float64{{1, 1}, {1e12, 1e12}},
			[]float64{1, 1e12}, []float64{inf, inf}, []float64{0, 0}, []float64{inf, inf}),
			solver.Unbounded, nil},
		{"redundant equality rows", dense([]float64{1, 2}, [][]float64{{1, 1}, {2, 2}},
			[]float64{2, 4}, []float64{2, 4}, []float64{0, 0}, []float64{inf, inf}),
			solver.Optimal, big.NewRat(2, 1)},
	}
}

// TestExactReferee checks the referee on hand-made LPs with known answers:
// status, exact optimum, and an exactly feasible x attaining it.
func TestExactReferee(t *testing.T) {
	for _, c := range refereeCases() {
		got := exactSolve(c.p)
		if got.status != c.status {
			t.Errorf("%s: status %v, want %v", c.name, got.status, c.status)
			continue
		}
		if c.status != solver.Optimal {
			continue
		}
		if got.obj.Cmp(c.obj) != 0 {
			t.Errorf("%s: optimum %s, want %s", c.name, got.obj.RatString(), c.obj.RatString())
		}
		if e := exactCheck(c.p, got.x); e != "" {
			t.Errorf("%s: x infeasible: %s", c.name, e)
		}
		cx := new(big.Rat)
		for j, v := range got.x {
			cx.Add(cx, new(big.Rat).Mul(new(big.Rat).SetFloat64(c.p.Obj[j]), v))
		}
		if cx.Cmp(got.obj) != 0 {
			t.Errorf("%s: cᵀx = %s but optimum %s", c.name, cx.RatString(), got.obj.RatString())
		}
	}
}

// TestExactRefereeAgainstVertexEnumeration compares the referee with the
// float vertex enumeration of conformance_random_test.go on small random
// LPs (feasible and bounded by construction), and checks it calls the
// generated infeasible and unbounded LPs so.
func TestExactRefereeAgainstVertexEnumeration(t *testing.T) {
	t.Parallel() // pure Go only, no shared state
	r := rand.New(rand.NewPCG(21, 0xfea7))
	// Data on the 1/64 grid, so the generated x0 is exactly feasible (with
	// arbitrary floats a tight row may miss it by a rounding error, and the
	// exact LP is then infeasible).
	g := genSpec{minM: 1, maxM: 5, minN: 1, maxN: 4, density: 0.8, boundedCols: true, dyadic: true}
	for k := 0; k < 150; k++ {
		lp := g.generate(r)
		got := exactSolve(lp.p)
		best, ok := bruteForceMin(lp.p)
		if got.status != solver.Optimal || !ok {
			t.Fatalf("case %d: referee %v, enumeration found a vertex: %v", k, got.status, ok)
		}
		if f, _ := got.obj.Float64(); !relClose(f, best, 1e-9) {
			t.Errorf("case %d: referee %.15g, enumeration %.15g", k, f, best)
		}
		if e := exactCheck(lp.p, got.x); e != "" {
			t.Errorf("case %d: referee's x infeasible: %s", k, e)
		}
	}
	// Bounded columns: with a free column, the rounding error of the
	// combined row's cancelled coefficient lets a huge x meet it, and the
	// exact LP is then feasible.
	gi := genSpec{minM: 2, maxM: 8, minN: 2, maxN: 8, density: 0.6, boundedCols: true, equalities: 0.2}
	huge := 0
	for k := 0; k < 50; k++ {
		p := infeasibleLP(r, gi)
		switch got := exactSolve(p); {
		case got.status == solver.Optimal && exactCheck(p, got.x) == "" && maxAbs(got.x) > 1e12:
			// The generator's combined row g·x ≥ h + δ cancels a
			// coefficient only up to rounding; a column unbounded on one
			// side then meets it exactly at |x| > 10¹²: exactly feasible.
			huge++
		case got.status != solver.Infeasible:
			t.Errorf("infeasible case %d: referee says %v", k, got.status)
		}
		if got := exactSolve(unboundedLP(r)); got.status != solver.Unbounded {
			t.Errorf("unbounded case %d: referee says %v", k, got.status)
		}
	}
	if huge > 5 {
		t.Errorf("%d of 50 infeasible LPs are exactly feasible at a huge x", huge)
	}
	t.Logf("%d of 50 generated infeasible LPs are exactly feasible at |x| > 1e12 (rounding in the generator)", huge)
}

// maxAbs is the largest |v| of x, as a float.
func maxAbs(x []*big.Rat) float64 {
	m := 0.0
	for _, v := range x {
		f, _ := v.Float64()
		m = math.Max(m, math.Abs(f))
	}
	return m
}

// TestRefereeCasesEveryBackend holds every backend to the referee's hand-made
// cases, among them unbounded LPs with a redundant row scaled by 10⁹ and by
// 10¹² (purego called the second optimal before it scaled).
func TestRefereeCasesEveryBackend(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		for _, c := range refereeCases() {
			sol := solve(t, b, c.p, solver.Options{})
			if sol.Status != c.status {
				t.Errorf("%s: status %v (%s), want %v", c.name, sol.Status, sol.Message, c.status)
				continue
			}
			if c.status == solver.Optimal {
				if want, _ := c.obj.Float64(); !relClose(sol.Objective, want, 1e-9) {
					t.Errorf("%s: objective %.15g, want %.15g", c.name, sol.Objective, want)
				}
			}
		}
	})
}
