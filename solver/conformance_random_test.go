package solver_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/featmap/featmap/solver"
	"gonum.org/v1/gonum/mat"
)

// genSpec describes a family of random LPs.
type genSpec struct {
	name         string
	count        int
	minM, maxM   int
	minN, maxN   int
	density      float64 // probability that an entry of A is nonzero
	integer      bool    // entries and data on a small integer grid (degenerate ties)
	dyadic       bool    // entries and data on a grid of 1/64 (so every product and sum is exact)
	equalities   float64 // probability that a row is an equality
	freeCols     bool    // allow free columns
	boundedCols  bool    // every column has at least one finite bound
	bruteForce   bool    // compare with vertex enumeration
	seed         uint64
	vertexChecks bool // check that x is a basic solution
}

// Column and row bound kinds.
const (
	kBox = iota
	kLower
	kUpper
	kFree
	kFixed
)

// randLP is a random LP with a known feasible point x0 and a known dual
// feasible point, so it has a finite optimum.
type randLP struct {
	p  *solver.Problem
	x0 []float64
	a  [][]float64
}

func (g genSpec) value(r *rand.Rand) float64 {
	if g.integer {
		return float64(r.IntN(5) - 2)
	}
	return g.round(2*r.Float64() - 1)
}

// round puts v on the 1/64 grid of a dyadic family (and leaves it alone
// otherwise).
func (g genSpec) round(v float64) float64 {
	if g.dyadic {
		return math.Round(64*v) / 64
	}
	return v
}

// generate draws a feasible, bounded LP: x0 is within the column bounds and
// the row bounds are placed around A·x0 (some tight), and c = Aᵀy0 + d0 with
// y0, d0 sign-feasible for the bounds, so the dual is feasible too.
func (g genSpec) generate(r *rand.Rand) randLP {
	m := g.minM + r.IntN(g.maxM-g.minM+1)
	n := g.minN + r.IntN(g.maxN-g.minN+1)
	kinds := make([]int, n)
	nonFreeRows := 0
	rowKinds := make([]int, m)
	for i := range rowKinds {
		switch u := r.Float64(); {
		case u < g.equalities:
			rowKinds[i] = kFixed
		case u < g.equalities+(1-g.equalities)*0.3:
			rowKinds[i] = kLower
		case u < g.equalities+(1-g.equalities)*0.6:
			rowKinds[i] = kUpper
		case u < g.equalities+(1-g.equalities)*0.95:
			rowKinds[i] = kBox
		default:
			rowKinds[i] = kFree
		}
		if rowKinds[i] != kFree {
			nonFreeRows++
		}
	}
	free := 0
	for j := range kinds {
		kinds[j] = r.IntN(5)
		if kinds[j] == kFree && (!g.freeCols || g.boundedCols || 2*(free+1) > nonFreeRows) {
			kinds[j] = kBox
		}
		if kinds[j] == kFree {
			free++
		}
	}
	a := make([][]float64, m)
	for i := range a {
		a[i] = make([]float64, n)
		for j := range a[i] {
			// Free columns are dense so that they are independent and the
			// LP has a vertex.
			if kinds[j] == kFree || r.Float64() < g.density {
				a[i][j] = g.value(r)
			}
		}
	}
	x0 := make([]float64, n)
	cl, cu := make([]float64, n), make([]float64, n)
	for j := range x0 {
		x0[j] = g.round(4*r.Float64() - 2)
		if g.integer {
			x0[j] = math.Round(x0[j])
		}
		gap := func() float64 {
			if r.IntN(3) == 0 {
				return 0 // x0 on the bound
			}
			if g.integer {
				return float64(1 + r.IntN(2))
			}
			return g.round(2 * r.Float64())
		}
		cl[j], cu[j] = ninf, inf
		switch kinds[j] {
		case kBox:
			cl[j], cu[j] = x0[j]-gap(), x0[j]+gap()
		case kLower:
			cl[j] = x0[j] - gap()
		case kUpper:
			cu[j] = x0[j] + gap()
		case kFixed:
			cl[j], cu[j] = x0[j], x0[j]
		}
	}
	rl, ru := make([]float64, m), make([]float64, m)
	for i := range rl {
		act := 0.0
		for j := range x0 {
			act += a[i][j] * x0[j]
		}
		gap := func() float64 {
			if r.IntN(3) == 0 {
				return 0
			}
			if g.integer {
				return float64(1 + r.IntN(2))
			}
			return g.round(r.Float64())
		}
		rl[i], ru[i] = ninf, inf
		switch rowKinds[i] {
		case kBox:
			rl[i], ru[i] = act-gap(), act+gap()
		case kLower:
			rl[i] = act - gap()
		case kUpper:
			ru[i] = act + gap()
		case kFixed:
			rl[i], ru[i] = act, act
		}
	}
	// Dual feasible point.
	sgn := func(kind int, v float64) float64 {
		switch kind {
		case kLower:
			return math.Abs(v)
		case kUpper:
			return -math.Abs(v)
		case kFree:
			return 0
		}
		return v
	}
	y0 := make([]float64, m)
	for i := range y0 {
		if r.IntN(2) == 0 {
			y0[i] = sgn(rowKinds[i], g.value(r))
		}
	}
	c := make([]float64, n)
	for j := range c {
		if r.IntN(2) == 0 {
			c[j] = sgn(kinds[j], g.value(r))
		}
		for i := range y0 {
			c[j] += a[i][j] * y0[i]
		}
	}
	return randLP{p: dense(c, a, rl, ru, cl, cu), x0: x0, a: a}
}

var randomFamilies = []genSpec{
	{name: "tiny", count: 600, minM: 1, maxM: 5, minN: 1, maxN: 4, density: 0.8, boundedCols: true, bruteForce: true, seed: 1, vertexChecks: true},
	{name: "tiny-integer", count: 600, minM: 1, maxM: 5, minN: 1, maxN: 4, density: 0.7, integer: true, equalities: 0.2, boundedCols: true, bruteForce: true, seed: 2, vertexChecks: true},
	{name: "tall-dense", count: 400, minM: 8, maxM: 30, minN: 2, maxN: 8, density: 1, freeCols: true, seed: 3, vertexChecks: true},
	{name: "wide-sparse", count: 400, minM: 2, maxM: 8, minN: 8, maxN: 30, density: 0.3, seed: 4, vertexChecks: true},
	{name: "square-sparse-integer", count: 400, minM: 5, maxM: 15, minN: 5, maxN: 15, density: 0.3, integer: true, equalities: 0.15, freeCols: true, seed: 5, vertexChecks: true},
	{name: "equalities", count: 300, minM: 3, maxM: 12, minN: 6, maxN: 16, density: 0.6, equalities: 0.6, freeCols: true, seed: 6, vertexChecks: true},
	{name: "medium-tall", count: 60, minM: 60, maxM: 120, minN: 10, maxN: 30, density: 0.7, freeCols: true, seed: 7, vertexChecks: true},
	{name: "medium-wide", count: 60, minM: 10, maxM: 30, minN: 50, maxN: 100, density: 0.2, integer: true, equalities: 0.1, seed: 8, vertexChecks: true},
}

func TestRandomFeasibleLPs(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		for _, g := range randomFamilies {
			t.Run(g.name, func(t *testing.T) {
				r := rand.New(rand.NewPCG(g.seed, 0xfea7))
				failures, brute := 0, 0
				for k := 0; k < g.count; k++ {
					lp := g.generate(r)
					if err := lp.p.Validate(); err != nil {
						t.Fatalf("case %d: generator made an invalid problem: %v", k, err)
					}
					if v, where := primalViolation(lp.p, lp.x0); v > 1e-12 {
						t.Fatalf("case %d: generator's x0 is infeasible: %s", k, where)
					}
					msg := checkRandom(t, b, g, lp)
					if msg == "" && g.bruteForce {
						brute++
					}
					if msg != "" {
						failures++
						if failures <= 5 {
							t.Errorf("case %d (%d×%d): %s", k, lp.p.NumRows, lp.p.NumCols(), msg)
						}
					}
				}
				if failures > 0 {
					t.Errorf("%d of %d cases failed", failures, g.count)
				}
				if g.bruteForce && brute != g.count {
					t.Errorf("only %d of %d cases compared with vertex enumeration", brute, g.count)
				}
			})
		}
	})
}

func checkRandom(t *testing.T, b solver.Backend, g genSpec, lp randLP) string {
	sol := solve(t, b, lp.p, solver.Options{})
	if e := certify(lp.p, sol, defaultCert); e != "" {
		return e
	}
	if e := basisDefect(lp.p, sol); e != "" {
		return "basis: " + e
	}
	if g.vertexChecks {
		if e := vertexDefect(lp.p, sol.X, 1e-9); e != "" {
			return "not a vertex: " + e
		}
	}
	if g.bruteForce {
		best, ok := bruteForceMin(lp.p)
		if !ok {
			return "vertex enumeration found no feasible vertex"
		}
		if !relClose(sol.Objective, best, 1e-8) {
			return fmt.Sprintf("objective %.15g, vertex enumeration %.15g", sol.Objective, best)
		}
	}
	return ""
}

// bruteForceMin enumerates the vertices of a small LP whose columns all have
// a finite bound (so the feasible set is pointed): every choice of n
// linearly independent active constraints among the finite column and row
// bounds, solved densely, kept if feasible. It returns the least objective.
func bruteForceMin(p *solver.Problem) (float64, bool) {
	n := p.NumCols()
	a := denseOf(p)
	type hyper struct {
		row []float64
		rhs float64
	}
	var hs []hyper
	for j := 0; j < n; j++ {
		e := make([]float64, n)
		e[j] = 1
		for _, v := range []float64{p.ColLower[j], p.ColUpper[j]} {
			if !math.IsInf(v, 0) {
				hs = append(hs, hyper{e, v})
			}
		}
	}
	for i := 0; i < p.NumRows; i++ {
		for _, v := range []float64{p.RowLower[i], p.RowUpper[i]} {
			if !math.IsInf(v, 0) {
				hs = append(hs, hyper{a[i], v})
			}
		}
	}
	best, found := inf, false
	idx := make([]int, n)
	var rec func(pos, from int)
	rec = func(pos, from int) {
		if pos == n {
			A := mat.NewDense(n, n, nil)
			rhs := mat.NewVecDense(n, nil)
			for k, h := range idx {
				A.SetRow(k, hs[h].row)
				rhs.SetVec(k, hs[h].rhs)
			}
			var lu mat.LU
			lu.Factorize(A)
			if lu.Det() == 0 || lu.Cond() > 1e10 {
				return
			}
			var x mat.VecDense
			if err := lu.SolveVecTo(&x, false, rhs); err != nil {
				return
			}
			xs := x.RawVector().Data
			if v, _ := primalViolation(p, xs); v > 1e-9 {
				return
			}
			obj := 0.0
			for j, c := range p.Obj {
				obj += c * xs[j]
			}
			if obj < best {
				best = obj
			}
			found = true
			return
		}
		for h := from; h <= len(hs)-(n-pos); h++ {
			idx[pos] = h
			rec(pos+1, h+1)
		}
	}
	rec(0, 0)
	return best, found
}

func TestRandomInfeasibleLPs(t *testing.T) {
	g := genSpec{minM: 2, maxM: 12, minN: 2, maxN: 12, density: 0.6, freeCols: true, equalities: 0.2}
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		r := rand.New(rand.NewPCG(11, 0xfea7))
		failures := 0
		const count = 300
		for k := 0; k < count; k++ {
			p := infeasibleLP(r, g)
			sol := solve(t, b, p, solver.Options{})
			if sol.Status != solver.Infeasible {
				failures++
				if failures <= 5 {
					t.Errorf("case %d (%d×%d): status %v (%s), want infeasible", k, p.NumRows, p.NumCols(), sol.Status, sol.Message)
				}
			}
		}
		if failures > 0 {
			t.Errorf("%d of %d cases failed", failures, count)
		}
	})
}

// infeasibleLP draws a feasible LP (with dual feasible costs, so the only
// possible verdict is "infeasible") and appends the row g·x ≥ h + δ, δ > 0,
// where g·x ≤ h is a positive combination of some of the LP's finite row
// and column bounds (each written as an upper bound: A_i x ≥ l becomes
// −A_i x ≤ −l), so no x meets them all.
func infeasibleLP(r *rand.Rand, g genSpec) *solver.Problem {
	lp := g.generate(r)
	p := lp.p
	n := p.NumCols()
	type ineq struct {
		row []float64
		rhs float64
	}
	var ins []ineq
	neg := func(v []float64) []float64 {
		w := make([]float64, len(v))
		for k := range v {
			w[k] = -v[k]
		}
		return w
	}
	for i := 0; i < p.NumRows; i++ {
		if !math.IsInf(p.RowUpper[i], 1) {
			ins = append(ins, ineq{lp.a[i], p.RowUpper[i]})
		}
		if !math.IsInf(p.RowLower[i], -1) {
			ins = append(ins, ineq{neg(lp.a[i]), -p.RowLower[i]})
		}
	}
	for j := 0; j < n; j++ {
		e := make([]float64, n)
		e[j] = 1
		if !math.IsInf(p.ColUpper[j], 1) {
			ins = append(ins, ineq{e, p.ColUpper[j]})
		}
		if !math.IsInf(p.ColLower[j], -1) {
			ins = append(ins, ineq{neg(e), -p.ColLower[j]})
		}
	}
	gv := make([]float64, n)
	h := 0.0
	first := r.IntN(len(ins)) // always used
	for k, in := range ins {
		if k != first && r.IntN(3) != 0 {
			continue
		}
		lam := 0.1 + r.Float64()
		h += lam * in.rhs
		for j := range gv {
			gv[j] += lam * in.row[j]
		}
	}
	delta := 0.1 * (1 + math.Abs(h))
	a := append(lp.a, gv)
	rl := append(append([]float64(nil), p.RowLower...), h+delta)
	ru := append(append([]float64(nil), p.RowUpper...), inf)
	return dense(p.Obj, a, rl, ru, p.ColLower, p.ColUpper)
}

func TestRandomUnboundedLPs(t *testing.T) {
	forEachBackend(t, func(t *testing.T, b solver.Backend) {
		r := rand.New(rand.NewPCG(12, 0xfea7))
		failures := 0
		const count = 300
		for k := 0; k < count; k++ {
			p := unboundedLP(r)
			sol := solve(t, b, p, solver.Options{})
			if sol.Status != solver.Unbounded {
				failures++
				if failures <= 5 {
					t.Errorf("case %d (%d×%d): status %v (%s), want unbounded", k, p.NumRows, p.NumCols(), sol.Status, sol.Message)
				}
			}
		}
		if failures > 0 {
			t.Errorf("%d of %d cases failed", failures, count)
		}
	})
}

// unboundedLP draws a feasible LP with a recession direction d (A d stays
// within every row's unbounded side, d within every column's) along which
// the cost decreases: c·d = −1.
func unboundedLP(r *rand.Rand) *solver.Problem {
	m, n := 1+r.IntN(12), 1+r.IntN(12)
	x0 := make([]float64, n)
	d := make([]float64, n)
	cl, cu := make([]float64, n), make([]float64, n)
	for j := range x0 {
		x0[j] = 4*r.Float64() - 2
		kind := r.IntN(5)
		if j == 0 {
			kind = kLower
		}
		cl[j], cu[j] = ninf, inf
		switch kind {
		case kBox:
			cl[j], cu[j] = x0[j]-r.Float64(), x0[j]+r.Float64()
		case kFixed:
			cl[j], cu[j] = x0[j], x0[j]
		case kLower:
			cl[j] = x0[j] - r.Float64()
			d[j] = r.Float64()
		case kUpper:
			cu[j] = x0[j] + r.Float64()
			d[j] = -r.Float64()
		case kFree:
			d[j] = 2*r.Float64() - 1
		}
	}
	d[0] = 1 // d ≠ 0
	a := make([][]float64, m)
	rl, ru := make([]float64, m), make([]float64, m)
	for i := range a {
		a[i] = make([]float64, n)
		act, s := 0.0, 0.0
		for j := range a[i] {
			if r.Float64() < 0.6 {
				a[i][j] = 2*r.Float64() - 1
			}
			act += a[i][j] * x0[j]
			s += a[i][j] * d[j]
		}
		rl[i], ru[i] = ninf, inf
		switch {
		case s > 1e-12:
			rl[i] = act - r.Float64()
		case s < -1e-12:
			ru[i] = act + r.Float64()
		default: // A_i d = 0: any finite bounds
			rl[i], ru[i] = act-r.Float64(), act+r.Float64()
		}
	}
	c := make([]float64, n)
	cd, dd := 0.0, 0.0
	for j := range c {
		c[j] = 2*r.Float64() - 1
		cd += c[j] * d[j]
		dd += d[j] * d[j]
	}
	for j := range c {
		c[j] -= (cd + 1) / dd * d[j]
	}
	return dense(c, a, rl, ru, cl, cu)
}
