package simplex

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/featmap/featmap/solver"
)

// computeScalingRef is computeScaling as it was before its sweeps were
// made lean (commit edfc311), kept to hold the lean one to its decisions and
// factors. It returns the factors for p, or nil when p needs none (every
// factor 1) or when scaling would overflow or underflow a number of p.
func computeScalingRef(p *solver.Problem) *scaling {
	m, n := p.NumRows, p.NumCols()
	row, col := make([]float64, m), make([]float64, n)
	for i := range row {
		row[i] = 1
	}
	for j := range col {
		col[j] = 1
	}
	// A row without finite bounds constrains nothing; its entries are
	// left out of the scaling (they may be far from the others).
	free := make([]bool, m)
	for i := range m {
		free[i] = math.IsInf(p.RowLower[i], -1) && math.IsInf(p.RowUpper[i], 1)
	}
	// ratio is max/min of the scaled entries' magnitudes.
	ratio := func() float64 {
		lo, hi := math.Inf(1), 0.0
		for j := range n {
			for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
				if v := math.Abs(p.Value[k]) * row[p.RowIndex[k]] * col[j]; v != 0 && !free[p.RowIndex[k]] {
					lo, hi = min(lo, v), max(hi, v)
				}
			}
		}
		if hi == 0 {
			return 1
		}
		return hi / lo
	}
	rmin, rmax := make([]float64, m), make([]float64, m)
	best, unscaled := math.Inf(1), 0.0
	bestRow, bestCol := append([]float64(nil), row...), append([]float64(nil), col...)
	for pass := 0; pass < scalePasses; pass++ {
		for i := range m {
			rmin[i], rmax[i] = math.Inf(1), 0
		}
		for j := range n {
			cj := col[j]
			for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
				if v := math.Abs(p.Value[k]) * cj; v != 0 && !free[p.RowIndex[k]] {
					i := p.RowIndex[k]
					rmin[i], rmax[i] = min(rmin[i], v), max(rmax[i], v)
				}
			}
		}
		if pass == 0 {
			// The entries' range before scaling, from the row sweep.
			lo, hi := math.Inf(1), 0.0
			for i := range m {
				if rmax[i] > 0 {
					lo, hi = min(lo, rmin[i]), max(hi, rmax[i])
				}
			}
			if hi == 0 {
				return nil
			}
			best, unscaled = hi/lo, hi/lo
		}
		for i := range m {
			if rmax[i] > 0 {
				row[i] = 1 / math.Sqrt(rmin[i]*rmax[i])
			}
		}
		// After the column pass, column j's entries span [√(lo/hi),
		// √(hi/lo)] of its own lo and hi, so the whole range is
		// max_j hi/lo, with no further sweep.
		r := 1.0
		for j := range n {
			lo, hi := math.Inf(1), 0.0
			for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
				if v := math.Abs(p.Value[k]) * row[p.RowIndex[k]]; v != 0 && !free[p.RowIndex[k]] {
					lo, hi = min(lo, v), max(hi, v)
				}
			}
			if hi > 0 {
				col[j] = 1 / math.Sqrt(lo*hi)
				r = max(r, hi/lo)
			}
		}
		if pass == 0 && !(minScaleGain*r <= unscaled) {
			// The first pass undoes most of a bad scaling; if it gains
			// little, scaling is not worth its cost (a few sweeps over A,
			// which on a dense design LP rival the solve itself).
			return nil
		}
		if !(r < 0.9*best) {
			break
		}
		best = r
		copy(bestRow, row)
		copy(bestCol, col)
	}
	row, col = bestRow, bestCol
	// Equilibrate: the largest entry of each column becomes 1.
	for j := range n {
		hi := 0.0
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			if !free[p.RowIndex[k]] {
				hi = max(hi, math.Abs(p.Value[k])*row[p.RowIndex[k]]*col[j])
			}
		}
		if hi > 0 {
			col[j] /= hi
		}
	}
	sc := &scaling{row: row, col: col}
	identity := true
	for i := range row {
		row[i] = pow2Log(row[i])
		identity = identity && row[i] == 1
	}
	for j := range col {
		col[j] = pow2Log(col[j])
		identity = identity && col[j] == 1
	}
	// Scaling changes the pivots; unless it narrows the entries' range
	// a good deal, solve the problem as given. featmap's design LPs
	// (solver/testdata/lp) narrow only 3× (χ²) and 1.3× (RBF), and their scaled
	// solves took more pivots (RBF: 700 against 464).
	if identity || !(minScaleGain*ratio() <= unscaled) {
		return nil
	}
	return sc
}

// sameAsPlain fails the test unless computeScaling decides as the plain
// computation (computeScalingRef) on problem k and gives its factors bit
// for bit; it reports whether p is scaled.
func sameAsPlain(t *testing.T, k int, p *solver.Problem) bool {
	t.Helper()
	want, got := computeScalingRef(p), computeScaling(p)
	if (want == nil) != (got == nil) {
		t.Fatalf("problem %d (%d×%d): scaled %v, plain computation %v", k, p.NumRows, p.NumCols(), got != nil, want != nil)
	}
	if want == nil {
		return false
	}
	for i := range want.row {
		if math.Float64bits(want.row[i]) != math.Float64bits(got.row[i]) {
			t.Fatalf("problem %d: row factor %d is %v, plain computation %v", k, i, got.row[i], want.row[i])
		}
	}
	for j := range want.col {
		if math.Float64bits(want.col[j]) != math.Float64bits(got.col[j]) {
			t.Fatalf("problem %d: column factor %d is %v, plain computation %v", k, j, got.col[j], want.col[j])
		}
	}
	return true
}

// TestComputeScalingUnchanged: the lean computeScaling scales exactly the
// problems the plain computation scales, with bit-identical factors, on
// the stored LPs (design LPs, regressions, fuzz finds) and on random ones
// that exercise its corners: free rows, stored zeros, magnitudes from
// 10^±300 (factors that overflow or underflow), badly scaled rows and
// columns, and well-scaled ones.
func TestComputeScalingUnchanged(t *testing.T) {
	t.Parallel() // pure Go only, no shared state
	var probs []*solver.Problem
	for _, pat := range []string{"../testdata/lp/*.json", "../testdata/regress/*.json"} {
		files, err := filepath.Glob(pat)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			fh, err := os.Open(f)
			if err != nil {
				t.Fatal(err)
			}
			p, err := solver.ReadJSON(fh)
			fh.Close()
			if err != nil {
				t.Fatalf("%s: %v", f, err)
			}
			probs = append(probs, p)
		}
	}
	if len(probs) < 4 {
		t.Fatalf("only %d stored LPs", len(probs))
	}
	r := rand.New(rand.NewPCG(17, 18))
	for range 20000 {
		probs = append(probs, scalingCase(r))
	}
	scaled := 0
	for k, p := range probs {
		if !sameAsPlain(t, k, p) {
			continue
		}
		scaled++
	}
	// Both outcomes must be well represented for the test to mean much.
	if scaled < len(probs)/10 || scaled > len(probs)*9/10 {
		t.Errorf("%d of %d problems scaled; the cases do not exercise both outcomes", scaled, len(probs))
	}
}

// scalingCase draws a sparse problem of up to 8 rows and columns for
// TestComputeScalingUnchanged.
func scalingCase(r *rand.Rand) *solver.Problem {
	m, n := 1+r.IntN(8), 1+r.IntN(8)
	spread := []float64{0, 1, 6, 18, 600}[r.IntN(5)] // decades of magnitude
	mag := func() float64 {
		v := math.Pow(10, spread*(r.Float64()-0.5))
		if r.IntN(2) == 0 {
			v = -v
		}
		return v
	}
	rs, cs := make([]float64, m), make([]float64, n)
	for i := range rs {
		rs[i] = 1
		if r.IntN(3) == 0 {
			rs[i] = math.Pow(10, 12*(r.Float64()-0.5))
		}
	}
	for j := range cs {
		cs[j] = 1
		if r.IntN(3) == 0 {
			cs[j] = math.Pow(10, 12*(r.Float64()-0.5))
		}
	}
	p := &solver.Problem{NumRows: m, ColStart: []int{0}}
	for j := range n {
		p.Obj = append(p.Obj, mag())
		p.ColLower = append(p.ColLower, 0)
		p.ColUpper = append(p.ColUpper, math.Inf(1))
		for i := range m {
			switch x := r.Float64(); {
			case x < 0.1:
				p.RowIndex, p.Value = append(p.RowIndex, i), append(p.Value, 0)
			case x < 0.7:
				p.RowIndex, p.Value = append(p.RowIndex, i), append(p.Value, rs[i]*mag()*cs[j])
			}
		}
		p.ColStart = append(p.ColStart, len(p.RowIndex))
	}
	for range m {
		lo, hi := -1.0, 1.0
		if r.IntN(4) == 0 {
			lo, hi = math.Inf(-1), math.Inf(1)
		}
		p.RowLower, p.RowUpper = append(p.RowLower, lo), append(p.RowUpper, hi)
	}
	return p
}

// scalingBenchLPs returns the χ² design LP of solver/testdata/lp, which scaling
// leaves alone after one pass, and a copy with rows and columns multiplied
// by powers of ten up to 10^±3, which it scales.
func scalingBenchLPs(b *testing.B) (plain, rescaled *solver.Problem) {
	f, err := os.Open("../testdata/lp/chi2_g2000.json")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	p, err := solver.ReadJSON(f)
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 2))
	rs := make([]float64, p.NumRows)
	for i := range rs {
		rs[i] = math.Pow(10, 6*r.Float64()-3)
	}
	q := *p
	q.Value = make([]float64, len(p.Value))
	for j := range p.NumCols() {
		cj := math.Pow(10, 6*r.Float64()-3)
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			q.Value[k] = p.Value[k] * rs[p.RowIndex[k]] * cj
		}
	}
	if computeScaling(p) != nil || computeScaling(&q) == nil {
		b.Fatal("the benchmark LPs no longer take the two paths of computeScaling")
	}
	return p, &q
}

// BenchmarkComputeScaling times the scaling decision on a design LP that
// is not scaled and on a rescaled copy that is.
func BenchmarkComputeScaling(b *testing.B) {
	plain, rescaled := scalingBenchLPs(b)
	for _, c := range []struct {
		name string
		f    func(*solver.Problem) *scaling
	}{{"lean", computeScaling}, {"plain", computeScalingRef}} {
		b.Run("unscaled/"+c.name, func(b *testing.B) {
			for b.Loop() {
				c.f(plain)
			}
		})
		b.Run("scaled/"+c.name, func(b *testing.B) {
			for b.Loop() {
				c.f(rescaled)
			}
		})
	}
}

// designShapedCase draws a dense LP shaped like featmap's 1-D design LPs
// (docs/lp-design.md's cone encoding): a row per point z_i ∈ [0, zmax]
// and a column per frequency, w_i cos(ω z_i) and w_i z_i sin(ω z_i), plus
// the bound column t of ones, with weights w_i spanning up to 10^±spread.
// Entries near a zero of the cosine or sine spread |A| over many decades,
// so most of these LPs take computeScaling's full path; every 5th has a
// free row.
func designShapedCase(r *rand.Rand, k int) *solver.Problem {
	m, nf := 20+r.IntN(140), 1+r.IntN(25)
	zmax := 1 + 20*r.Float64()
	spread := []float64{0, 1, 3, 8}[r.IntN(4)]
	z, w := make([]float64, m), make([]float64, m)
	for i := range m {
		z[i] = zmax * float64(i) / float64(m-1)
		w[i] = math.Pow(10, spread*(r.Float64()-0.5))
	}
	p := &solver.Problem{NumRows: m, ColStart: []int{0}}
	add := func(col func(i int) float64) {
		for i := range m {
			p.RowIndex, p.Value = append(p.RowIndex, i), append(p.Value, col(i))
		}
		p.ColStart = append(p.ColStart, len(p.RowIndex))
		p.Obj = append(p.Obj, 1+r.Float64())
		p.ColLower, p.ColUpper = append(p.ColLower, 0), append(p.ColUpper, math.Inf(1))
	}
	add(func(int) float64 { return 1 })
	for range nf {
		om := 4 * r.Float64()
		add(func(i int) float64 { return w[i] * math.Cos(om*z[i]) })
		add(func(i int) float64 { return w[i] * z[i] * math.Sin(om*z[i]) })
	}
	for i := range m {
		lo, hi := -w[i], math.Inf(1)
		if k%5 == 0 && i == m/2 {
			lo = math.Inf(-1)
		}
		p.RowLower, p.RowUpper = append(p.RowLower, lo), append(p.RowUpper, hi)
	}
	return p
}

// TestEquilibrationFromPass: computeScaling's equilibration, which takes
// each column's largest entry from the best geometric pass instead of a
// sweep over A, gives the plain computation's factors bit for bit on
// design-shaped LPs (most of them scaled, with several passes) and on the
// random corner cases of scalingCase that pass Validate, as every problem
// Solve scales does (free rows, stored zeros, magnitudes to 10^±300,
// factors that overflow or underflow; an entry that overflowed to ±Inf
// fails Validate, and on such a problem the lean computeScaling differed
// from the plain one before this shortcut too), and the shortcut is
// exercised: at least a fifth of the cases are scaled without free rows.
func TestEquilibrationFromPass(t *testing.T) {
	t.Parallel() // pure Go only, no shared state
	r := rand.New(rand.NewPCG(23, 29))
	var probs []*solver.Problem
	for k := range 1500 {
		probs = append(probs, designShapedCase(r, k))
	}
	for range 20000 {
		if p := scalingCase(r); p.Validate() == nil {
			probs = append(probs, p)
		}
	}
	shortcut := 0
	for k, p := range probs {
		if !sameAsPlain(t, k, p) {
			continue
		}
		if freeRows(p) == nil {
			shortcut++
		}
	}
	if shortcut < len(probs)/5 {
		t.Errorf("only %d of %d problems scaled without a free row", shortcut, len(probs))
	}
	design := 0
	for _, p := range probs[:1500] {
		if computeScaling(p) != nil {
			design++
		}
	}
	if design < 500 {
		t.Errorf("only %d of 1500 design-shaped problems scaled", design)
	}
	t.Logf("%d of %d scaled without a free row, %d of 1500 design-shaped scaled", shortcut, len(probs), design)
}

// TestGainsTooLittle: the early-stopping sweep decides as the whole
// matrix's ratio does, !(minScaleGain·scaledRatio ≤ unscaled), on random
// problems (free rows, zeros, entries that overflow) with power-of-two
// factors and thresholds at, just around and far from the ratio, Inf and
// NaN; both answers occur.
func TestGainsTooLittle(t *testing.T) {
	r := rand.New(rand.NewPCG(31, 37))
	count := [2]int{}
	for k := range 20000 {
		p := scalingCase(r)
		free := freeRows(p)
		row, col := make([]float64, p.NumRows), make([]float64, p.NumCols())
		for i := range row {
			row[i] = math.Ldexp(1, r.IntN(81)-40)
		}
		for j := range col {
			col[j] = math.Ldexp(1, r.IntN(81)-40)
		}
		q := minScaleGain * scaledRatio(p, free, row, col)
		for _, u := range []float64{q, math.Nextafter(q, 0), math.Nextafter(q, math.Inf(1)), q / 3, 3 * q, math.Inf(1), math.NaN(), 1} {
			want := !(minScaleGain*scaledRatio(p, free, row, col) <= u)
			got := gainsTooLittle(p, free, row, col, u, noRepeats)
			if got != want {
				t.Fatalf("problem %d, unscaled %v: gainsTooLittle %v, whole ratio %v", k, u, got, want)
			}
			if got {
				count[1]++
			} else {
				count[0]++
			}
		}
	}
	if count[0] == 0 || count[1] == 0 {
		t.Errorf("answers %v: the cases do not exercise both", count)
	}
}

// TestRowRangesBranchless: the two properties computeScaling's branchless
// row sweep rests on. On a finite A with finite factors (zeros and
// factors of 2^±60 included, so products overflow and underflow), it
// gives the comparisons' ranges bit for bit; and a NaN or ±Inf entry
// makes its row's rmax non-finite, so that computeScaling sees it and
// sweeps again with the comparisons. TestComputeScalingUnchanged holds the
// whole computation to the plain one.
func TestRowRangesBranchless(t *testing.T) {
	r := rand.New(rand.NewPCG(41, 43))
	for k := range 20000 {
		p := scalingCase(r)
		if p.Validate() != nil {
			continue
		}
		col := make([]float64, p.NumCols())
		for j := range col {
			col[j] = math.Ldexp(1+r.Float64(), r.IntN(121)-60)
			if r.IntN(10) == 0 {
				col[j] = 0
			}
		}
		m := p.NumRows
		lo0, hi0, lo1, hi1 := make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
		rowRanges(p, nil, col, lo0, hi0, false, noRepeats)
		rowRanges(p, nil, col, lo1, hi1, true, noRepeats)
		for i := range m {
			if math.Float64bits(lo0[i]) != math.Float64bits(lo1[i]) || math.Float64bits(hi0[i]) != math.Float64bits(hi1[i]) {
				t.Fatalf("problem %d row %d: branchless [%v, %v], comparisons [%v, %v]", k, i, lo1[i], hi1[i], lo0[i], hi0[i])
			}
		}
		if len(p.Value) == 0 {
			continue
		}
		q := *p
		q.Value = append([]float64(nil), p.Value...)
		at := r.IntN(len(q.Value))
		q.Value[at] = []float64{math.NaN(), math.Inf(1), math.Inf(-1)}[r.IntN(3)]
		ones := make([]float64, q.NumCols())
		for j := range ones {
			ones[j] = 1
		}
		rowRanges(&q, nil, ones, lo1, hi1, true, noRepeats)
		if i := q.RowIndex[at]; finite(hi1[i]) {
			t.Fatalf("problem %d: entry %v in row %d left its rmax finite (%v)", k, q.Value[at], i, hi1[i])
		}
	}
}

// scaledRatio is max/min of the magnitudes of the nonzero entries of
// R A C outside the free rows (1 if there are none). The factors are
// finite (pow2's), so no entry is NaN.
func scaledRatio(p *solver.Problem, free []bool, row, col []float64) float64 {
	lo, hi := math.Inf(1), 0.0
	for j := range p.NumCols() {
		lo, hi = scaledColumnRange(p, free, row, col, j, lo, hi, 1)
	}
	if hi == 0 {
		return 1
	}
	return hi / lo
}

// TestScaledSimplexAsApplied: newScaledSimplex refuses exactly the
// scalings apply refuses (a number that overflows or underflows) and
// otherwise starts with the dense matrices, costs and bounds of
// newSimplex on apply's scaled problem, bit for bit, on design-shaped LPs
// with their computed factors and on scalingCase's corner cases (stored
// zeros, magnitudes to 10^±300) with their computed factors or random
// powers of two up to 2^±600; both outcomes occur.
func TestScaledSimplexAsApplied(t *testing.T) {
	t.Parallel() // pure Go only, no shared state
	r := rand.New(rand.NewPCG(47, 53))
	refused, taken, total := 0, 0, cases(12000)
	for k := range total {
		var p *solver.Problem
		if k%4 == 0 {
			p = designShapedCase(r, k)
		} else if p = scalingCase(r); p.Validate() != nil {
			continue
		}
		sc := computeScaling(p)
		if sc == nil || k%3 == 0 {
			sc = &scaling{row: make([]float64, p.NumRows), col: make([]float64, p.NumCols())}
			for i := range sc.row {
				sc.row[i] = math.Ldexp(1, r.IntN(1201)-600)
			}
			for j := range sc.col {
				sc.col[j] = math.Ldexp(1, r.IntN(1201)-600)
			}
		}
		o := solver.Options{}.WithDefaults(p)
		got := newScaledSimplex(p, sc, o)
		q := sc.apply(p)
		if (got == nil) != (q == nil) {
			t.Fatalf("problem %d: newScaledSimplex refused %v, apply %v", k, got == nil, q == nil)
		}
		if q == nil {
			refused++
			continue
		}
		taken++
		want := newSimplex(q, o)
		for _, c := range []struct {
			name      string
			got, want []float64
		}{{"A", got.a, want.a}, {"Aᵀ", got.ar, want.ar}, {"cost", got.cost, want.cost}, {"orig", got.orig, want.orig}, {"lo", got.lo, want.lo}, {"hi", got.hi, want.hi}, {"loT", got.loT, want.loT}, {"hiT", got.hiT, want.hiT}} {
			if len(c.got) != len(c.want) {
				t.Fatalf("problem %d: %s has %d entries, want %d", k, c.name, len(c.got), len(c.want))
			}
			for i := range c.got {
				if math.Float64bits(c.got[i]) != math.Float64bits(c.want[i]) {
					t.Fatalf("problem %d: %s[%d] = %v, want %v", k, c.name, i, c.got[i], c.want[i])
				}
			}
		}
		got.release()
		want.release()
	}
	if refused < total/120 || taken < total/12 {
		t.Errorf("%d scalings refused, %d taken: the cases do not exercise both", refused, taken)
	}
	t.Logf("%d scalings refused, %d taken", refused, taken)
}

// repeatLines returns p with rows and columns repeated, each right after
// itself, negated or not (as a design LP's ±(…) ≥ ±r_i rows and the
// polish's Δ⁺, Δ⁻ columns): every row in half the cases (pairs), some
// otherwise; some columns. Now and then an entry of a repeat is changed by
// one ulp (no longer a repeat) or dropped (a repeat in all but one entry).
func repeatLines(r *rand.Rand, p *solver.Problem) *solver.Problem {
	m, n := p.NumRows, p.NumCols()
	dense := make([][]float64, n) // dense[j][i], NaN where no entry
	for j := range n {
		dense[j] = make([]float64, m)
		for i := range m {
			dense[j][i] = math.NaN()
		}
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			dense[j][p.RowIndex[k]] = p.Value[k]
		}
	}
	all := r.IntN(2) == 0
	var rows []int // source row of each new row; −1−i for a negated repeat of i
	var lo, hi []float64
	for i := range m {
		rows, lo, hi = append(rows, i), append(lo, p.RowLower[i]), append(hi, p.RowUpper[i])
		if all || r.IntN(2) == 0 {
			rows, lo, hi = append(rows, -1-i), append(lo, -p.RowUpper[i]), append(hi, -p.RowLower[i])
		}
	}
	q := &solver.Problem{NumRows: len(rows), RowLower: lo, RowUpper: hi, ColStart: []int{0}}
	addCol := func(j int, sign float64) {
		for k, src := range rows {
			i, s := src, sign
			if src < 0 {
				i, s = -1-src, -sign
			}
			v := dense[j][i]
			if v != v {
				continue
			}
			if src < 0 || sign < 0 {
				switch r.IntN(300) {
				case 0:
					v = math.Nextafter(v, math.Inf(1))
				case 1:
					continue
				}
			}
			q.RowIndex, q.Value = append(q.RowIndex, k), append(q.Value, s*v)
		}
		q.ColStart = append(q.ColStart, len(q.RowIndex))
		q.Obj = append(q.Obj, p.Obj[j])
		q.ColLower, q.ColUpper = append(q.ColLower, p.ColLower[j]), append(q.ColUpper, p.ColUpper[j])
	}
	for j := range n {
		addCol(j, 1)
		if r.IntN(2) == 0 {
			addCol(j, -1)
		}
	}
	return q
}

// TestScalingOfRepeats: computeScaling, whose sweeps skip the rows and
// columns that repeat others (scanRepeats), gives the plain computation's
// decisions and factors bit for bit on design-shaped LPs and scalingCase's
// corner cases with rows and columns repeated (negated or not, some
// repeats spoiled by an ulp or a missing entry) and on a stored design LP,
// and rowRanges gives every row's range, repeats included; the repeats are
// found in most of those that have them (no free row).
func TestScalingOfRepeats(t *testing.T) {
	t.Parallel() // pure Go only, no shared state
	r := rand.New(rand.NewPCG(41, 43))
	var probs []*solver.Problem
	for k := range cases(1500) {
		probs = append(probs, repeatLines(r, designShapedCase(r, k)))
	}
	for range cases(20000) {
		probs = append(probs, repeatLines(r, scalingCase(r)))
	}
	f, err := os.Open("../testdata/lp/chi2_g2000.json")
	if err != nil {
		t.Fatal(err)
	}
	p, err := solver.ReadJSON(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if rp := scanRepeats(p, freeRows(p)); rp.step != 2 {
		t.Error("the stored χ² design LP: its pairs of rows not found")
	}
	probs = append(probs, p)
	paired, dups, noFree, scaled := 0, 0, 0, 0
	for k, p := range probs {
		free := freeRows(p)
		if free == nil {
			noFree++
		}
		rp := scanRepeats(p, free)
		if rp.step == 2 {
			paired++
		}
		if rp.dup != nil {
			dups++
		}
		if rp.step == 2 || rp.dup != nil {
			// rowRanges fills in every row's range, repeats included.
			col := make([]float64, p.NumCols())
			for j := range col {
				col[j] = math.Ldexp(1, r.IntN(41)-20)
			}
			for j := 1; j < len(col); j++ {
				if rp.repeated(j) {
					col[j] = col[j-1] // a repeat gets its column's factor
				}
			}
			m := p.NumRows
			lo0, hi0, lo1, hi1 := make([]float64, m), make([]float64, m), make([]float64, m), make([]float64, m)
			rowRanges(p, free, col, lo0, hi0, false, noRepeats)
			rowRanges(p, free, col, lo1, hi1, false, rp)
			for i := range m {
				if math.Float64bits(lo0[i]) != math.Float64bits(lo1[i]) || math.Float64bits(hi0[i]) != math.Float64bits(hi1[i]) {
					t.Fatalf("problem %d: row %d's range [%v, %v] skipping repeats, [%v, %v] over all", k, i, lo1[i], hi1[i], lo0[i], hi0[i])
				}
			}
		}
		if !sameAsPlain(t, k, p) {
			continue
		}
		scaled++
	}
	if paired < noFree/5 || dups < noFree/3 || scaled < len(probs)/10 {
		t.Errorf("of %d problems without a free row, %d paired and %d with repeated columns; %d of %d scaled: the cases do not exercise the repeats", noFree, paired, dups, scaled, len(probs))
	}
	t.Logf("of %d problems without a free row, %d paired and %d with repeated columns; %d of %d scaled", noFree, paired, dups, scaled, len(probs))
}
