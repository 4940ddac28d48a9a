package sampled

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// Shrinkage: a map drawn from samples (random features, polynomial
// sketches, PCA of random features) estimates the kernel without bias, and
// where its variance is large — a small D, inputs the kernel tells apart —
// its Gram error can exceed 1, what Ψ = 0 scores. Scaling a block of its
// components by c scales that block's Gram matrix by c² (and keeps the map
// a feature map, of the kernel with that block scaled); the c² that leave
// the least relative Frobenius error on a set of points are a
// nonnegative least-squares problem in closed form (one number per block:
// c² = ⟨K − E, Ĝ⟩/‖Ĝ‖² for one block, E the blocks left as they are),
// each c² held to [0, 1]. The method fits them on points of its design,
// never on the verification's: with data, the least error on the rows to
// fit; without, the map stays as drawn unless its Gram error on uniform
// points of the box exceeds BoxShrinkError, and is then changed least on
// typical inputs of the domain (TypicalPoints) among the c that hold the
// box there (fitShrinkage; docs/rff.md, "Shrinkage").

// Shrinkage's sizes: the points of a set of its own draws it is fitted on
// (ShrinkPoints), the rows to fit (MaxShrinkRows), or fewer of either so
// that a fit costs at most shrinkWork multiply-adds (N²·D for the Gram
// matrices of its blocks), and the Gram error on the box a data-free
// map's fit is held to (BoxShrinkError: below 1, with room for the
// verification's other points of the same box).
const (
	ShrinkPoints   = 500
	MaxShrinkRows  = 2000
	BoxShrinkError = 0.97
	shrinkWork     = 1 << 30
)

// typicalSpread is the standard deviation of the typical inputs' normal on
// each axis, in half-widths of the axis (TypicalPoints).
const typicalSpread = 1.0 / 6

// TypicalPoints returns n points of the typical inputs of domain d a
// data-free map is sized and shrunk for: on each axis the normal centred
// on the axis's middle with standard deviation typicalSpread times its
// half-width, drawn again where it falls outside (on an integer axis
// rounded to the nearest integer). Real inputs fill a box they are given
// in this way far more often than uniformly: uniform points of a box of
// many axes lie near its corners, where ‖x‖ is largest.
func TypicalPoints(d fmap.Domain, n int, rng *rand.Rand) [][]float64 {
	pts := make([][]float64, n)
	for i := range pts {
		x := make([]float64, len(d.Lo))
		for j := range x {
			lo, hi := d.Lo[j], d.Hi[j]
			mid, half := (lo+hi)/2, (hi-lo)/2
			for {
				u := rng.NormFloat64() * typicalSpread
				if u < -1 || u > 1 {
					continue
				}
				x[j] = mid + half*u
				if d.Integer {
					x[j] = math.Max(lo, math.Min(hi, math.Round(x[j])))
				}
				break
			}
		}
		pts[i] = x
	}
	return pts
}

// BoxPoints returns n points drawn uniformly from the box of d (uniform
// integers on an integer domain), the set the verification measures a map
// of many axes on, drawn here by the design's own generator.
func BoxPoints(d fmap.Domain, n int, rng *rand.Rand) [][]float64 {
	pts := make([][]float64, n)
	for i := range pts {
		x := make([]float64, len(d.Lo))
		for j := range x {
			lo, hi := d.Lo[j], d.Hi[j]
			if d.Integer {
				x[j] = lo + float64(rng.IntN(int(hi-lo)+1))
			} else {
				x[j] = lo + (hi-lo)*rng.Float64()
			}
		}
		pts[i] = x
	}
	return pts
}

// sampleRows returns at most n of rows: all of them, or a seeded uniform
// sample without replacement, in file order.
func sampleRows(rows [][]float64, n int, rng *rand.Rand) [][]float64 {
	if len(rows) <= n {
		return rows
	}
	idx := rng.Perm(len(rows))[:n]
	out := make([][]float64, n)
	slices.Sort(idx)
	for i, j := range idx {
		out[i] = rows[j]
	}
	return out
}

// shrinkBlock is a range [Lo, Hi) of a map's components that shrinkage
// scales as one.
type shrinkBlock struct{ Lo, Hi int }

// gramFit is what a fit needs of one set of points, every number divided
// by ‖K‖²: f(c) = rr − 2·Σ_b c_b·r_b + Σ_ab c_a·c_b·g_ab is the squared
// relative Frobenius error of the map with block b's Gram matrix scaled by
// c_b, K the exact kernel matrix of the points, E the Gram matrix of the
// components in no block, Ĝ_b that of block b, rr = ‖K − E‖², r_b =
// ⟨K − E, Ĝ_b⟩, g_ab = ⟨Ĝ_a, Ĝ_b⟩.
type gramFit struct {
	rr float64
	r  []float64
	g  [][]float64
	// fitR, if set, is the linear term the fit trades against the box's
	// error in place of r (fitShrinkage).
	fitR []float64
}

// err2 is f(c).
func (f *gramFit) err2(c []float64) float64 {
	e := f.rr
	for a := range c {
		e -= 2 * c[a] * f.r[a]
		for b := range c {
			e += c[a] * c[b] * f.g[a][b]
		}
	}
	return e
}

// shrinkSize is the number of points a fit of a map of dim components
// takes of a set of its own draws: at most ShrinkPoints, and
// N²·dim ≤ shrinkWork.
func shrinkSize(dim int) int { return min(ShrinkPoints, shrinkRows(dim)) }

// shrinkRows is the number of rows to fit a fit of a map of dim
// components takes: as many as N²·dim ≤ shrinkWork allows, at most
// MaxShrinkRows (the rows are given: the more, the nearer c² is to the
// rows' own).
func shrinkRows(dim int) int {
	return max(16, min(MaxShrinkRows, int(math.Sqrt(float64(shrinkWork)/float64(max(dim, 1))))))
}

// newGramFit measures m's blocks on the points pts, whose exact kernel
// matrix is k (see gramFit), as on a
// set of size points of their law: every sum over pairs is its mean over
// the points' pairs of distinct points times size·(size − 1), plus its
// mean over the points themselves times size. The relative Gram error of
// a set depends on its size — where the kernel tells the points apart,
// the diagonal holds much of ‖K‖ and the off-diagonal pairs much of the
// error, whose share grows with the pairs — so a fit on its own points
// aims at the size of the set the map is verified on. It stops, returning
// ctx's error, soon after ctx is done.
func newGramFit(ctx context.Context, m *fmap.Map, blocks []shrinkBlock, pts [][]float64, k *mat.SymDense, size int) (*gramFit, error) {
	n, dim := len(pts), m.Dim
	z := mat.NewDense(n, dim, nil)
	for i, x := range pts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		m.Eval(z.RawRowView(i), x)
	}
	inBlock := make([]bool, dim)
	for _, b := range blocks {
		for c := b.Lo; c < b.Hi; c++ {
			inBlock[c] = true
		}
	}
	// columns are the components cols of every point.
	columns := func(cols []int) *mat.Dense {
		zc := mat.NewDense(n, len(cols), nil)
		for i := range n {
			row := z.RawRowView(i)
			for j, c := range cols {
				zc.Set(i, j, row[c])
			}
		}
		return zc
	}
	gramOf := func(cols []int) *mat.SymDense {
		g := mat.NewSymDense(n, nil)
		g.SymOuterK(1, columns(cols))
		return g
	}
	var rest []int
	for c := range dim {
		if !inBlock[c] {
			rest = append(rest, c)
		}
	}
	resid := mat.NewSymDense(n, nil)
	resid.CopySym(k)
	if len(rest) > 0 {
		resid.SymRankK(k, -1, columns(rest))
	}
	grams := make([]*mat.SymDense, len(blocks))
	for b, bl := range blocks {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		cols := make([]int, 0, bl.Hi-bl.Lo)
		for c := bl.Lo; c < bl.Hi; c++ {
			cols = append(cols, c)
		}
		grams[b] = gramOf(cols)
	}
	dot := func(a, b *mat.SymDense) float64 { return symDot(a, b, size) }
	kk := dot(k, k)
	if !(kk > 0) || math.IsInf(kk, 0) {
		return nil, fmt.Errorf("sampled: the kernel's Gram matrix of %d design points is zero or not finite: no shrinkage fits it", n)
	}
	f := &gramFit{rr: dot(resid, resid) / kk, r: make([]float64, len(blocks)), g: make([][]float64, len(blocks))}
	for a := range blocks {
		f.r[a] = dot(resid, grams[a]) / kk
		f.g[a] = make([]float64, len(blocks))
		for b := range blocks {
			f.g[a][b] = dot(grams[a], grams[b]) / kk
		}
	}
	return f, nil
}

// symDot is the Frobenius inner product Σ_ij a_ij·b_ij of symmetric
// matrices of one size n, as for size points of the same law (see
// newGramFit): size times the mean of a_ii·b_ii plus size·(size − 1)
// times the mean of a_ij·b_ij over i ≠ j.
func symDot(a, b *mat.SymDense, size int) float64 {
	n := a.SymmetricDim()
	diag, off := 0.0, 0.0
	for i := range n {
		diag += a.At(i, i) * b.At(i, i)
		for j := i + 1; j < n; j++ {
			off += 2 * a.At(i, j) * b.At(i, j)
		}
	}
	m := float64(size)
	s := m * diag / float64(n)
	if n > 1 {
		s += m * (m - 1) * off / (float64(n) * float64(n-1))
	}
	return s
}

// boundedLS minimises rr − 2·cᵀr + cᵀG·c over 0 ≤ c ≤ 1 for the few
// blocks of a map: the problem is convex, and its minimum is, for some
// split of the blocks into those at 0, those at 1 and those free, the
// unconstrained minimum over the free ones with the others fixed, where
// that lies within the bounds; boundedLS tries every split (3^blocks: a
// map has at most a sketch per degree, eight) and keeps the least.
//
// c is a shrinkage: at most 1, since each block is an unbiased estimate
// of its part of the kernel, which scaling up makes worse on other points
// than those fitted (a c² above 1 fits the sample's correlations between
// blocks, not the kernel).
func boundedLS(g [][]float64, r []float64) []float64 {
	nb := len(r)
	obj := func(c []float64) float64 {
		o := 0.0
		for a := range nb {
			o -= 2 * c[a] * r[a]
			for b := range nb {
				o += c[a] * c[b] * g[a][b]
			}
		}
		return o
	}
	best, bestC := 0.0, make([]float64, nb) // c = 0 leaves rr
	splits := 1
	for range nb {
		splits *= 3
	}
	state := make([]int, nb) // 0: at 0, 1: at 1, 2: free
	for code := 1; code < splits; code++ {
		v := code
		var free []int
		c := make([]float64, nb)
		for b := range nb {
			state[b] = v % 3
			v /= 3
			switch state[b] {
			case 1:
				c[b] = 1
			case 2:
				free = append(free, b)
			}
		}
		if len(free) > 0 {
			// G_FF·c_F = r_F − G_F1·1.
			a := mat.NewDense(len(free), len(free), nil)
			rhs := mat.NewVecDense(len(free), nil)
			for i, bi := range free {
				t := r[bi]
				for b := range nb {
					if state[b] == 1 {
						t -= g[bi][b]
					}
				}
				rhs.SetVec(i, t)
				for j, bj := range free {
					a.Set(i, j, g[bi][bj])
				}
			}
			var x mat.VecDense
			if err := x.SolveVec(a, rhs); err != nil {
				continue
			}
			ok := true
			for i, bi := range free {
				if v := x.AtVec(i); !(v >= 0 && v <= 1) {
					ok = false
					break
				}
				c[bi] = x.AtVec(i)
			}
			if !ok {
				continue
			}
		}
		if o := obj(c); o < best {
			best, bestC = o, c
		}
	}
	return bestC
}

// shrinkFit is a fitted shrinkage: c² per block, and the relative Gram
// errors it leaves on the points it was fitted on (Box 0 without box
// points), and those of the map unshrunk.
type shrinkFit struct {
	C                    []float64
	Fit, Box             float64
	FitBefore, BoxBefore float64
	// Capped says the box's error held the fit back; Worst that no c
	// brought the box's error to BoxShrinkError, and c makes the larger
	// of the two errors least.
	Capped, Worst        bool
	FitPoints, BoxPoints int
	FitSize, BoxSize     int // the sizes of the sets the errors are stated for
	on                   string
}

// Score ranks fits of one problem, lower first: the error on the points
// fitted when the box's is within BoxShrinkError (or there are no box
// points), else, after every such fit, 1 plus the larger of the two.
func (s *shrinkFit) Score() float64 {
	if s.Worst {
		return 1 + math.Max(s.Fit, s.Box)
	}
	return s.Fit
}

// shrinkSets are the points a map's shrinkage is fitted on, with their
// exact kernel matrices, and the sizes of the sets the errors aim at
// (see shrinkPoints, newGramFit).
type shrinkSets struct {
	fit, box         [][]float64
	kFit, kBox       *mat.SymDense
	fitSize, boxSize int
	on               string
}

// newShrinkSets draws the shrinkage points of p for maps of dim
// components (shrinkPoints, shrinkSize) and computes the kernel k over
// their pairs. It stops, returning ctx's error, soon after ctx is done.
func newShrinkSets(ctx context.Context, p *fmap.Problem, k fmap.Kernel, dim int, seed int64) (*shrinkSets, error) {
	n := shrinkSize(dim)
	if p.Data != nil && len(p.Data.Fit) > 0 {
		n = shrinkRows(dim)
	}
	fit, box, fitSize, boxSize, on, err := shrinkPoints(p, n, seed)
	if err != nil {
		return nil, err
	}
	s := &shrinkSets{fit: fit, box: box, fitSize: fitSize, boxSize: boxSize, on: on}
	if s.kFit, err = kernelMatrix(ctx, k, fit); err != nil {
		return nil, err
	}
	if len(box) > 0 {
		if s.kBox, err = kernelMatrix(ctx, k, box); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// kernelMatrix is k over the pairs of pts, stopped by ctx.
func kernelMatrix(ctx context.Context, k fmap.Kernel, pts [][]float64) (*mat.SymDense, error) {
	n := len(pts)
	km := mat.NewSymDense(n, nil)
	for i := range n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for j := i; j < n; j++ {
			km.SetSym(i, j, k.Eval(pts[i], pts[j]))
		}
	}
	return km, nil
}

// fitShrinkage fits c² in [0, 1] per block of m on the sets' points. With
// data (no box points) it is the least relative Gram error on the rows
// fitted. Without, the map is left as drawn (c = 1) when its error on the
// box's points is at most BoxShrinkError, else changed least on the
// typical inputs (in their Gram matrix) among the c that hold the box's
// error there (bisection on the weight μ of the box's squared error: the
// weighted sums trace the best trades of the two), or, when no c holds it
// there, the c that makes the larger of the two errors least.
func fitShrinkage(ctx context.Context, m *fmap.Map, blocks []shrinkBlock, sets *shrinkSets) (*shrinkFit, error) {
	ft, err := newGramFit(ctx, m, blocks, sets.fit, sets.kFit, sets.fitSize)
	if err != nil {
		return nil, err
	}
	ones := make([]float64, len(blocks))
	for b := range ones {
		ones[b] = 1
	}
	out := &shrinkFit{FitPoints: len(sets.fit), BoxPoints: len(sets.box), FitSize: sets.fitSize, BoxSize: sets.boxSize, on: sets.on}
	out.FitBefore = math.Sqrt(math.Max(ft.err2(ones), 0))
	c := boundedLS(ft.g, ft.r)
	if len(sets.box) > 0 {
		// Without data the map stays as drawn, unbiased, unless the box
		// needs it shrunk: the points fitted are then typical inputs,
		// whose law is a guess, and the change the fit may make is the
		// least change of the map's Gram matrix on them, ‖Σ_b (c_b − 1)·Ĝ_b‖²
		// (minimal at c = 1), traded against the box's error.
		c = ones
		stay := make([]float64, len(blocks))
		for a := range blocks {
			for b := range blocks {
				stay[a] += ft.g[a][b]
			}
		}
		ft = &gramFit{rr: ft.rr, r: ft.r, g: ft.g, fitR: stay}
		fb, err := newGramFit(ctx, m, blocks, sets.box, sets.kBox, sets.boxSize)
		if err != nil {
			return nil, err
		}
		out.BoxBefore = math.Sqrt(math.Max(fb.err2(ones), 0))
		cap2 := BoxShrinkError * BoxShrinkError
		at := func(logMu float64) []float64 {
			mu := math.Exp2(logMu)
			g := make([][]float64, len(blocks))
			r := make([]float64, len(blocks))
			for a := range blocks {
				r[a] = ft.fitR[a] + mu*fb.r[a]
				g[a] = make([]float64, len(blocks))
				for b := range blocks {
					g[a][b] = ft.g[a][b] + mu*fb.g[a][b]
				}
			}
			return boundedLS(g, r)
		}
		// bisect returns the c at the smallest log₂ μ in [−40, 40] where
		// ok holds (ok holds at 40), as the weighted fits go.
		bisect := func(ok func([]float64) bool, top []float64) []float64 {
			lo, hi, best := -40.0, 40.0, top
			for range 60 {
				mid := (lo + hi) / 2
				if cm := at(mid); ok(cm) {
					hi, best = mid, cm
				} else {
					lo = mid
				}
			}
			return best
		}
		if fb.err2(c) > cap2 {
			out.Capped = true
			cb := boundedLS(fb.g, fb.r)
			if fb.err2(cb) <= cap2 {
				c = bisect(func(x []float64) bool { return fb.err2(x) <= cap2 }, cb)
			} else {
				out.Worst = true
				if ft.err2(cb) <= fb.err2(cb) {
					c = cb
				} else {
					c = bisect(func(x []float64) bool { return ft.err2(x) >= fb.err2(x) }, cb)
				}
			}
		}
		out.Box = math.Sqrt(math.Max(fb.err2(c), 0))
	}
	out.C = c
	out.Fit = math.Sqrt(math.Max(ft.err2(c), 0))
	return out, nil
}

// describe says what a fit did, for a progress line.
func (s *shrinkFit) describe() string {
	on := s.on
	t := fmt.Sprintf("shrinkage c² = %s fitted on %s: Gram error %.4g → %.4g there (as on %d)", formatC(s.C), on, s.FitBefore, s.Fit, s.FitSize)
	if s.BoxPoints > 0 {
		t += fmt.Sprintf(", %.4g → %.4g on %d uniform points of the box (as on %d)", s.BoxBefore, s.Box, s.BoxPoints, s.BoxSize)
		switch {
		case s.Worst:
			t += fmt.Sprintf(" (no shrinkage holds it to %g there: the larger of the two errors made least)", BoxShrinkError)
		case s.Capped:
			t += fmt.Sprintf(" (held to at most %g there)", BoxShrinkError)
		}
	}
	return t
}

// formatC lists c² per block.
func formatC(c []float64) string {
	if len(c) == 1 {
		return fmt.Sprintf("%.4g", c[0])
	}
	s := "["
	for i, v := range c {
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%.4g", v)
	}
	return s + "]"
}

// shrinkMap fits the shrinkage of m's blocks for problem p on the points
// of the seed (newShrinkSets) and says what it found.
func shrinkMap(ctx context.Context, m *fmap.Map, p *fmap.Problem, blocks []shrinkBlock, seed int64, s design.Settings) (*shrinkFit, error) {
	sets, err := newShrinkSets(ctx, p, m.Kernel, m.Dim, seed)
	if err != nil {
		return nil, err
	}
	f, err := fitShrinkage(ctx, m, blocks, sets)
	if err != nil {
		return nil, err
	}
	s.Say(m.Method + ": " + f.describe())
	return f, nil
}

// shrinkPoints returns the points a map's shrinkage is fitted on and the
// sizes of the sets it aims at: with data, at most n rows to fit (a seeded
// sample), as for as many rows as the verification holds out, and no box
// points; without, n typical inputs of the domain and n uniform points of
// its box (TypicalPoints, BoxPoints, drawn by a generator of the seed), as
// for as many points as the verification takes of the box.
func shrinkPoints(p *fmap.Problem, n int, seed int64) (fit, box [][]float64, fitSize, boxSize int, on string, err error) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x736872696e6b)) // "shrink"
	if p.Data != nil && len(p.Data.Fit) > 0 {
		fit = sampleRows(p.Data.Fit, n, rng)
		size := len(p.Data.Held)
		if size < 2 {
			size = len(p.Data.Fit)
		}
		return fit, nil, size, 0, fmt.Sprintf("%d rows to fit of %s", len(fit), p.Data.File), nil
	}
	ref, err := p.Reference()
	if err != nil {
		return nil, nil, 0, 0, "", err
	}
	size := len(ref.Inputs)
	fit = TypicalPoints(p.Domain, n, rng)
	box = BoxPoints(p.Domain, n, rng)
	return fit, box, size, size, fmt.Sprintf("%d typical inputs of the domain", len(fit)), nil
}
