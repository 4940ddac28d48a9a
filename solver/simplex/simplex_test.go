package simplex

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/featmap/featmap/solver"
)

// randomDenseLP returns a feasible LP with general bounds: rows and columns
// are boxed, one-sided, free, fixed or ranged around a random point.
func randomDenseLP(r *rand.Rand, m, n int) *solver.Problem {
	bounds := func(x float64) (float64, float64) {
		inf := math.Inf(1)
		switch r.IntN(6) {
		case 0:
			return x - 2*r.Float64(), inf
		case 1:
			return -inf, inf
		case 2:
			return x - r.Float64(), x + r.Float64()
		case 3:
			return -inf, x + r.Float64()
		case 4:
			return x, x
		}
		return x - 3*r.Float64(), x + 3*r.Float64()
	}
	x0 := make([]float64, n)
	for j := range x0 {
		x0[j] = math.Round(r.NormFloat64()*4) / 2
	}
	cols := make([][]float64, n)
	act := make([]float64, m)
	for j := range cols {
		cols[j] = make([]float64, m)
		for i := range cols[j] {
			if r.Float64() < 0.6 {
				cols[j][i] = math.Round(r.NormFloat64() * 4)
				act[i] += cols[j][i] * x0[j]
			}
		}
	}
	lo, hi := make([]float64, m), make([]float64, m)
	for i := range lo {
		lo[i], hi[i] = bounds(act[i])
	}
	b := solver.NewBuilder(lo, hi)
	for j := range cols {
		l, h := bounds(x0[j])
		b.AddDenseColumn(math.Round(r.NormFloat64()*3), l, h, cols[j])
	}
	return b.Problem()
}

// TestKernelInverseStaysAccurate checks the O(k²) kernel updates (grow,
// shrink, row and column replacement) against a fresh inversion: after each
// solve the updated G times K must be the identity.
func TestKernelInverseStaysAccurate(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	checked := 0
	for trial := 0; trial < 400; trial++ {
		p := randomDenseLP(r, 2+r.IntN(15), 2+r.IntN(15))
		o := solver.Options{}.WithDefaults(p)
		s := newSimplex(p, o)
		s.slackBasis()
		if err := s.refresh(); err != nil {
			t.Fatal(err)
		}
		// Drive some pivots with the primal phase 1 and phase 2, without the
		// clean-up refresh of run.
		if _, err := s.primalSimplex(true); err != nil {
			continue
		}
		k := s.k()
		worst := 0.0
		for l := range k {
			for t2 := range k {
				// (G K)[l][l'] = Σ_t G[l][t] K[t][l'], K[t][l'] = A[T[t], S[l']].
				sum := 0.0
				for tt, i := range s.T {
					sum += s.g[l*s.cap+tt] * s.a[s.S[t2]*s.m+i]
				}
				want := 0.0
				if l == t2 {
					want = 1
				}
				worst = math.Max(worst, math.Abs(sum-want))
			}
		}
		if worst > 1e-8 {
			t.Errorf("trial %d: |GK − I| = %.3g after %d updates (k = %d)", trial, worst, s.updates, k)
		}
		if s.updates > 0 && k > 1 {
			checked++
		}
	}
	if checked < 100 {
		t.Fatalf("only %d trials exercised kernel updates", checked)
	}
}

// TestWarmStartFromOwnBasis re-solves from the optimal basis: no pivots.
func TestWarmStartFromOwnBasis(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for trial := 0; trial < 200; trial++ {
		p := randomDenseLP(r, 3+r.IntN(10), 3+r.IntN(10))
		s, err := pureGo{}.Solve(p, solver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if s.Status != solver.Optimal {
			continue
		}
		w, err := pureGo{}.Solve(p, solver.Options{WarmStart: s.Basis})
		if err != nil {
			t.Fatal(err)
		}
		if w.Status != solver.Optimal || w.Iterations != 0 || math.Abs(w.Objective-s.Objective) > 1e-9*(1+math.Abs(s.Objective)) {
			t.Errorf("trial %d: warm re-solve %v after %d pivots, objective %v vs %v", trial, w.Status, w.Iterations, w.Objective, s.Objective)
		}
	}
}

// TestPureGoContext: a solve whose context is done returns the context's
// error, not a solution.
func TestPureGoContext(t *testing.T) {
	b := solver.NewBuilder([]float64{1}, []float64{math.Inf(1)})
	b.AddColumn(1, 0, math.Inf(1), []int{0}, []float64{1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if sol, err := solver.Default().Solve(b.Problem(), solver.Options{Context: ctx}); err != context.Canceled || sol != nil {
		t.Errorf("Solve with a cancelled context: %v, %v; want nil, context.Canceled", sol, err)
	}
}

// TestPooledBuffersLeaveNoTrace: a solve reuses the slices of earlier
// solves (simplexPool), so each LP of a list of different sizes is solved
// again after the others, in the opposite order, from buffers the others
// left dirty: every solution is the same, iterations and duals included.
func TestPooledBuffersLeaveNoTrace(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var lps []*solver.Problem
	for _, size := range [][2]int{{30, 12}, {5, 3}, {60, 40}, {12, 20}, {1, 1}, {40, 8}} {
		lps = append(lps, randomDenseLP(r, size[0], size[1]))
	}
	first := make([]*solver.Solution, len(lps))
	for k, p := range lps {
		sol, err := (pureGo{}).Solve(p, solver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		first[k] = sol
	}
	for k := len(lps) - 1; k >= 0; k-- {
		sol, err := (pureGo{}).Solve(lps[k], solver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(sol, first[k]) {
			t.Errorf("LP %d (%d×%d) solved again: %v in %d iterations, first %v in %d", k, lps[k].NumRows, lps[k].NumCols(), sol.Status, sol.Iterations, first[k].Status, first[k].Iterations)
		}
	}
}

// TestBuilderReset: a Builder reset after one problem builds the next as a
// new Builder would, whether the next is larger or smaller.
func TestBuilderReset(t *testing.T) {
	build := func(b *solver.Builder, m, n int, seed float64) *solver.Problem {
		lo, hi := make([]float64, m), make([]float64, m)
		for i := range lo {
			lo[i], hi[i] = -seed-float64(i), seed+float64(i)
		}
		if b == nil {
			b = solver.NewBuilder(lo, hi)
		} else {
			b.Reset(lo, hi)
		}
		col := make([]float64, m)
		for j := range n {
			for i := range col {
				col[i] = float64((i+j)%3) - 1 + seed
			}
			b.AddDenseColumn(seed*float64(j), -1, float64(j), col)
		}
		return b.Problem()
	}
	b := &solver.Builder{}
	for _, c := range []struct {
		m, n int
		seed float64
	}{{4, 3, 0.5}, {9, 7, 0}, {2, 1, 2}, {0, 0, 1}, {6, 5, 0.25}} {
		got, want := build(b, c.m, c.n, c.seed), build(nil, c.m, c.n, c.seed)
		if got.NumRows != want.NumRows || !slices.Equal(got.Obj, want.Obj) || !slices.Equal(got.ColLower, want.ColLower) ||
			!slices.Equal(got.ColUpper, want.ColUpper) || !slices.Equal(got.RowLower, want.RowLower) || !slices.Equal(got.RowUpper, want.RowUpper) ||
			!slices.Equal(got.ColStart, want.ColStart) || !slices.Equal(got.RowIndex, want.RowIndex) || !slices.Equal(got.Value, want.Value) {
			t.Errorf("%d×%d after a reset: %+v, new builder %+v", c.m, c.n, got, want)
		}
	}
}
