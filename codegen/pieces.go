package codegen

import (
	"math"
	"strconv"

	"github.com/featmap/featmap/fmap"
)

// fourierMap is a one-stage Fourier map as its fast paths and its formula
// read it: the map (its domain, dimensions and reference evaluator), its
// stage, and the error measure of its verification, which scales the
// pieces' error into the kernel's (polyScale).
type fourierMap struct {
	*fmap.Map
	f       *fmap.Fourier
	measure fmap.Measure
}

// pieceKind says how an input finds its polynomial piece.
type pieceKind int

const (
	// binade pieces split every binade [2^e, 2^{e+1}) into 2^k equal parts;
	// the piece index is the input's bits >> (52−k), the local variable
	// comes from the next mantissa bits. Used for the log transform, where
	// the components are smooth and self-similar from binade to binade.
	binade pieceKind = iota
	// uniform pieces split [lo, lo+count·h) into count parts of width h.
	// Used for one-dimensional shift-invariant maps.
	uniform
)

const (
	mantBits = 52
	mantMask = 1<<mantBits - 1
	oneBits  = 0x3ff0000000000000 // the bits of 1.0
	maxDeg   = 7
	// maxBinades caps the binades a binade table covers; below them (a
	// domain reaching down to 0) inputs take the exact path.
	maxBinades = 64
	// checkPoints is the number of equally spaced points per piece at
	// which a fit is measured (ends included).
	checkPoints = 17
)

// pieces is a piecewise polynomial approximation of Ψ on a range of
// inputs: on piece i with local variable s ∈ [−1/2, 1/2),
// Ψ_j(x) ≈ Σ_p coef[i][c][p]·s^p for j = cols[c], evaluated by Horner's
// rule; the components in exact are computed by their formula.
type pieces struct {
	kind  pieceKind
	deg   int
	count int
	// binade: 2^k pieces per binade, the first piece's index bits>>(52−k).
	k     int
	first uint64
	// uniform: pieces [lo + i·h, lo + (i+1)·h).
	lo, h, invH float64

	// coef[i][c] are the coefficients of component cols[c] on piece i.
	// The components in exact are not in the table: the fast path
	// computes them by their formula (see exactComps).
	coef  [][][]float64
	cols  []int
	exact []exactComp
	// err is the largest ‖δ(x)‖/‖Ψ(x)‖ measured at the check points, target
	// the bound it had to meet, points the number of check points.
	err, target float64
	points      int
	// scale converts the relative error ε into the kernel error it adds,
	// (2ε + ε²)·scale (see polyScale).
	scale float64
	// fm is the map the pieces approximate.
	fm *fourierMap
}

// exactComp is a component of a zero-frequency term, √α times the
// amplitude: 1 for the identity transform, |x|^{γ/2} for the log transform
// (√x for γ = 1, x for γ = 2). The fast path computes it as the exact
// evaluation does (amplitude times √α, one rounding each) instead of by
// a polynomial: for the 7-D χ² map on [1e-4, 1] that leaves 6 of 7
// components in the table and replaces 4 floating-point operations and 3
// loads per input by one square root and one multiplication (docs/gen.md,
// "Why the generated code is fast").
type exactComp struct {
	j int     // the component
	w float64 // √α
}

// exactComps returns the components of m that the fast path of its
// pieces computes exactly, and the others (the polynomials' columns):
// the zero-frequency terms of the identity transform (constants) and, for
// γ = 1 or 2, of the log transform. Other γ keep the polynomial (the
// amplitude would cost a math.Pow).
func exactComps(m *fourierMap) (exact []exactComp, cols []int) {
	ok := m.f.Transform == fmap.Identity || m.f.Transform == fmap.Log && (m.f.Gamma == 1 || m.f.Gamma == 2)
	k := 0
	for _, t := range m.f.Terms {
		n := fmap.TermDim(m.f.Form, t.Freq)
		if ok && isZeroFreq(t.Freq) {
			for range n {
				exact = append(exact, exactComp{j: k, w: math.Sqrt(t.Weight)})
				k++
			}
			continue
		}
		for range n {
			cols = append(cols, k)
			k++
		}
	}
	return exact, cols
}

// exactValue is component c at x as the emitted fast path computes it.
func (pc *pieces) exactValue(c exactComp, x float64) float64 {
	if pc.fm.f.Transform != fmap.Log {
		return c.w
	}
	if pc.fm.f.Gamma == 1 {
		return math.Sqrt(x) * c.w
	}
	return x * c.w
}

// start and end return the range [start, end) the pieces cover.
func (pc *pieces) start() float64 {
	if pc.kind == uniform {
		return pc.lo
	}
	return math.Float64frombits(pc.first << (mantBits - pc.k))
}

func (pc *pieces) end() float64 {
	if pc.kind == uniform {
		return pc.lo + float64(pc.count)*pc.h
	}
	return math.Float64frombits((pc.first + uint64(pc.count)) << (mantBits - pc.k))
}

// fitPieces returns the piecewise polynomial approximation of a
// one-dimensional Fourier or Modulation map whose measured error is within
// the budget — the cheapest to evaluate, or with Small tables the one of
// fewest coefficients —, or nil when the map has no such fast path or no fit
// within maxPolyCoefs meets the target. (An integer domain gets pieces only
// when it is too large for a table.)
func fitPieces(m *fourierMap, budget float64, tables Tables) (*pieces, error) {
	if m.InDim != 1 || (m.f.Form != fmap.FourierForm && m.f.Form != fmap.Modulation) {
		return nil, nil
	}
	if nonzeroTerms(m) == 0 || !(budget > 0) {
		return nil, nil
	}
	scale := polyScale(m)
	return fitTarget(m, budget/(2*scale*safety), scale, tables), nil
}

// fitTarget fits m (one input axis, log or identity transform) with the
// lowest degree, then the fewest pieces, that meets target (Fast tables);
// with Compact or Small tables it takes, at every degree up to one above
// Fast's (Compact) or up to maxDeg (Small), the fewest pieces that meet
// target and keeps the degree of the fewest coefficients (the lower
// degree on a tie). nil if none meets target within maxPolyCoefs
// (maxLinearCoefs for degree 1).
func fitTarget(m *fourierMap, target, scale float64, tables Tables) *pieces {
	if !(target > 0) {
		return nil
	}
	var g grid
	switch m.f.Transform {
	case fmap.Log:
		g = newBinadeGrid(m)
	case fmap.Identity:
		g = newUniformGrid(m)
	}
	if g == nil {
		return nil
	}
	exact, cols := exactComps(m)
	if len(cols) == 0 {
		return nil // nothing to fit: every component is exact
	}
	var best *pieces
	top := maxDeg
	for deg := 1; deg <= top; deg++ {
		for level := 0; ; level++ {
			count, ok := g.count(level)
			limit := maxPolyCoefs
			if deg == 1 {
				limit = maxLinearCoefs
			}
			if best != nil {
				limit = min(limit, best.coefs()-1)
			}
			if !ok || count*len(cols)*(deg+1) > limit {
				break
			}
			pc := g.pieces(level, deg)
			pc.target, pc.scale, pc.fm = target, scale, m
			pc.exact, pc.cols = exact, cols
			if fit(m, g, pc) && pc.err <= target {
				switch {
				case tables == Fast:
					return pc
				case tables == Compact && best == nil:
					top = deg + 1
				}
				best = pc
				break
			}
		}
	}
	return best
}

// coefs is the number of coefficients of the pieces.
func (pc *pieces) coefs() int { return len(pc.coef) * len(pc.coef[0]) * (pc.deg + 1) }

// axisPieces fits, for every axis of an n-D map evaluated per axis, the
// values cos(ωx_i), sin(ωx_i) of the axis's distinct frequencies on
// [lo_i, hi_i]. A component of the map is √α times a product (or, by angle
// addition, a rotation) of one such pair per axis, so relative errors ε_i
// of the pairs perturb Ψ by at most Σ_i ε_i relative to ‖Ψ‖; the axis
// vector of F frequencies has norm √F, so its fit must meet
// target/(n·√F) relative to that norm. The entry of an axis without
// frequencies or without a fit is nil.
func axisPieces(m *fourierMap, axes []axis, budget float64, tables Tables) []*pieces {
	if !(budget > 0) || m.InDim < 2 {
		return nil
	}
	scale := polyScale(m)
	target := budget / (2 * scale * safety)
	out := make([]*pieces, len(axes))
	for i, ax := range axes {
		if len(ax.freqs) == 0 {
			continue
		}
		am := axisMap(m, i, ax.freqs)
		out[i] = fitTarget(am, target/(float64(m.InDim)*math.Sqrt(float64(len(ax.freqs)))), scale, tables)
	}
	return out
}

// axisMap is the one-dimensional map x ↦ [cos ω₁x, sin ω₁x, cos ω₂x, …] of
// axis i with unit weights: its reference evaluator gives the exact values.
func axisMap(m *fourierMap, i int, freqs []float64) *fourierMap {
	f := &fmap.Fourier{Form: fmap.FourierForm, Transform: fmap.Identity}
	for _, w := range freqs {
		f.Terms = append(f.Terms, fmap.Term{Freq: []float64{w}, Weight: 1})
	}
	return &fourierMap{Map: fmap.NewFourierMap(fmap.Kernel{}, fmap.Domain{Lo: []float64{m.Domain.Lo[i]}, Hi: []float64{m.Domain.Hi[i]}}, "", f), f: f}
}

// polyScale is the factor that converts a bound ε on ‖δ(x)‖/‖Ψ(x)‖, the
// relative error of the polynomial components, into the kernel error it
// adds, at most (2ε + ε²)·scale. With
// Ψ̃ = Ψ + δ, Ψ̃(x)·Ψ̃(y) − Ψ(x)·Ψ(y) = δ(x)·Ψ(y) + Ψ(x)·δ(y) + δ(x)·δ(y),
// at most (2ε + ε²)‖Ψ(x)‖‖Ψ(y)‖. For absolute and uniform errors
// ‖Ψ(x)‖‖Ψ(y)‖ ≤ R², the largest ‖Ψ‖² on the domain; for relative errors
// it is divided by K(x, y) ≥ k_min·amp(x)·amp(y), with k_min the smallest
// value of the map's signature over the domain's range of λ. A map of
// n > 1 axes (identity transform, ‖Ψ‖² = Σα) takes the kernel's own
// smallest value on the domain instead, at its farthest λ
// (fmap.Problem.Farthest), with no search over the n-D range of λ.
func polyScale(m *fourierMap) float64 {
	r2 := amplitudeNorm2(m)
	if !(r2 > 0) || math.IsInf(r2, 0) {
		return math.Inf(1)
	}
	scale := r2
	if m.measure == fmap.Relative && m.InDim > 1 {
		p := &fmap.Problem{Kernel: m.Kernel, Domain: m.Domain}
		if _, kmin, err := p.Farthest(); err == nil && kmin > 0 {
			return r2 / math.Max(kmin, 1e-6*r2)
		}
		return math.Inf(1)
	}
	if m.measure == fmap.Relative {
		k0 := m.f.Signature([]float64{0})
		span := m.Domain.Hi[0] - m.Domain.Lo[0]
		if m.f.Transform == fmap.Log {
			span = math.Log(m.Domain.Hi[0] / math.Max(m.Domain.Lo[0], m.Domain.Hi[0]*0x1p-64))
		}
		kmin := k0
		for i := 0; i <= 1000; i++ {
			kmin = math.Min(kmin, m.f.Signature([]float64{span * float64(i) / 1000}))
		}
		scale = k0 / math.Max(kmin, 1e-6*k0)
	}
	return scale
}

// grid lays out pieces over the input range of one map.
type grid interface {
	// count returns the number of pieces at refinement level (each level
	// halves the width), and false when the level is not available.
	count(level int) (int, bool)
	// pieces returns an empty pieces value at the level with degree deg.
	pieces(level, deg int) *pieces
	// at returns the input at local variable s of piece i, rounded to
	// float64, and the local variable the emitted code computes for it.
	at(pc *pieces, i int, s float64) (x, sx float64)
}

// binadeGrid covers [lo, hi] (at most maxBinades binades below hi) with
// binade pieces.
type binadeGrid struct{ lo, hi float64 }

func newBinadeGrid(m *fourierMap) grid {
	lo, hi := m.Domain.Lo[0], m.Domain.Hi[0]
	if !(hi > 0) {
		return nil
	}
	if m.Domain.Integer && lo < 1 {
		lo = 1 // the smallest nonzero integer input
	}
	if floor := math.Ldexp(1, math.Ilogb(hi)-maxBinades+1); !(lo >= floor) {
		lo = floor
	}
	return binadeGrid{lo: lo, hi: hi}
}

func (g binadeGrid) index(x float64, k int) uint64 {
	return math.Float64bits(x) >> (mantBits - k)
}

func (g binadeGrid) count(k int) (int, bool) {
	if k > 20 {
		return 0, false
	}
	return int(g.index(g.hi, k)-g.index(g.lo, k)) + 1, true
}

func (g binadeGrid) pieces(k, deg int) *pieces {
	n, _ := g.count(k)
	return &pieces{kind: binade, deg: deg, count: n, k: k, first: g.index(g.lo, k)}
}

func (g binadeGrid) at(pc *pieces, i int, s float64) (x, sx float64) {
	left := math.Float64frombits((pc.first + uint64(i)) << (mantBits - pc.k))
	width := math.Float64frombits((pc.first+uint64(i)+1)<<(mantBits-pc.k)) - left
	x = left + (s+0.5)*width
	// Exact: x and left share a binade, width is a power of two.
	return x, (x-left)/width - 0.5
}

// sOfBinade is the local variable the emitted code computes for x in a
// binade piece with 2^k pieces per binade.
func sOfBinade(x float64, k int) float64 {
	b := math.Float64bits(x)
	return math.Float64frombits(b<<k&mantMask|oneBits) - 1.5
}

// uniformGrid covers [lo, hi] with pieces of equal width. Level 0 has
// about one piece per radian of the largest frequency.
type uniformGrid struct {
	lo, hi float64
	base   int
}

func newUniformGrid(m *fourierMap) grid {
	lo, hi := m.Domain.Lo[0], m.Domain.Hi[0]
	if !(hi > lo) {
		return nil
	}
	wmax := 0.0
	for _, t := range m.f.Terms {
		wmax = math.Max(wmax, math.Abs(t.Freq[0]))
	}
	base := int(math.Ceil((hi - lo) * wmax / 4))
	if base < 1 {
		base = 1
	}
	if base > maxPolyCoefs {
		return nil
	}
	return uniformGrid{lo: lo, hi: hi, base: base}
}

func (g uniformGrid) count(level int) (int, bool) {
	if level > 24 {
		return 0, false
	}
	return g.base << level, true
}

func (g uniformGrid) pieces(level, deg int) *pieces {
	n, _ := g.count(level)
	h := (g.hi - g.lo) / float64(n)
	return &pieces{kind: uniform, deg: deg, count: n, lo: g.lo, h: h, invH: float64(n) / (g.hi - g.lo)}
}

func (g uniformGrid) at(pc *pieces, i int, s float64) (x, sx float64) {
	x = pc.lo + (float64(i)+0.5+s)*pc.h
	return x, sOfUniform(pc, x, i)
}

// sOfUniform is the local variable the emitted code computes for x in
// uniform piece i; u is rounded before it is used (float64, which the
// compiler never fuses into the subtraction), as in the emitted code.
func sOfUniform(pc *pieces, x float64, i int) float64 {
	u := float64((x - pc.lo) * pc.invH)
	return u - float64(i) - 0.5
}

// fit interpolates every piece at deg+1 Chebyshev nodes and measures the
// error at checkPoints equally spaced points per piece. It stops early
// (returning false) as soon as a piece misses the target.
func fit(m *fourierMap, g grid, pc *pieces) bool {
	n := pc.deg + 1
	pc.coef = make([][][]float64, pc.count)
	pc.err, pc.points = 0, 0
	xs := make([]float64, n)
	vals := make([][]float64, n)
	for j := range vals {
		vals[j] = make([]float64, m.Dim)
	}
	psi := make([]float64, m.Dim)
	approx := make([]float64, m.Dim)
	for i := range pc.coef {
		for j := range n {
			s := 0.5 * math.Cos(math.Pi*(float64(j)+0.5)/float64(n))
			x, sx := g.at(pc, i, s)
			xs[j] = sx
			m.Eval(vals[j], []float64{x})
		}
		// Every component is interpolated and rounded as if it were in the
		// table (the rounding quantum depends on all of them), then the
		// table keeps the columns cols.
		all := interpolate(xs, vals, m.Dim)
		roundCoefs(all, pc.target)
		pc.coef[i] = make([][]float64, len(pc.cols))
		for c, j := range pc.cols {
			pc.coef[i][c] = all[j]
		}
		for j := range checkPoints {
			s := -0.5 + float64(j)/float64(checkPoints-1)
			x, sx := g.at(pc, i, s)
			m.Eval(psi, []float64{x})
			pc.eval(approx, pc.coef[i], x, sx)
			e := relErr(approx, psi)
			pc.points++
			if !(e <= pc.target) {
				pc.err = e
				return false
			}
			pc.err = math.Max(pc.err, e)
		}
	}
	return true
}

// roundCoefs rounds the coefficients of one piece to the fewest decimal
// digits that keep their rounding error, in ‖δ‖ at |s| ≤ 1/2, within an
// eighth of target·‖Ψ(centre)‖ (‖c[·][0]‖: the components' values at the
// centre): coefficient p is rounded to a quantum q_p = τ·2^p, so each
// component's polynomial moves by at most (deg+1)·τ/2 and the vector by
// √D·(deg+1)·τ/2 with τ = target·‖Ψ(centre)‖/(4·√D·(deg+1)). The emitted
// literals (the shortest decimal that parses back) are then about half as
// long, and fit measures the error of the rounded coefficients, as
// emitted.
func roundCoefs(c [][]float64, target float64) {
	n0 := 0.0
	for _, cj := range c {
		n0 += cj[0] * cj[0]
	}
	if !(n0 > 0) || !(target > 0) || len(c) == 0 {
		return
	}
	tau := target * math.Sqrt(n0) / (4 * math.Sqrt(float64(len(c))) * float64(len(c[0])))
	for _, cj := range c {
		q := tau
		for p, v := range cj {
			cj[p] = roundTo(v, q)
			q *= 2
		}
	}
}

// roundTo returns v rounded to the fewest significant decimal digits d
// (at least one) with 10^(⌊log10|v|⌋−d+1) ≤ q, so that |result − v| ≤ q/2
// (plus half a float64 ulp for parsing the decimal back); |v| < q/2
// rounds to 0.
func roundTo(v, q float64) float64 {
	a := math.Abs(v)
	if a == 0 || !(q > 0) || math.IsInf(a, 0) || math.IsNaN(a) {
		return v
	}
	if a < q/2 {
		return 0
	}
	digits := max(1, int(math.Floor(math.Log10(a))-math.Floor(math.Log10(q)))+1)
	if digits >= 17 {
		return v
	}
	r, err := strconv.ParseFloat(strconv.FormatFloat(v, 'e', digits-1, 64), 64)
	if err != nil {
		return v
	}
	return r
}

// relErr returns ‖a − b‖/‖b‖ (Euclidean norms).
func relErr(a, b []float64) float64 {
	var d, n float64
	for i := range a {
		d += (a[i] - b[i]) * (a[i] - b[i])
		n += b[i] * b[i]
	}
	return math.Sqrt(d / n)
}

// eval writes to dst (m.Dim components) what the emitted fast path
// computes at x, local variable s, with the coefficients coef of its piece.
func (pc *pieces) eval(dst []float64, coef [][]float64, x, s float64) {
	for c, j := range pc.cols {
		dst[j] = horner1(coef[c], s)
	}
	for _, c := range pc.exact {
		dst[c.j] = pc.exactValue(c, x)
	}
}

// horner evaluates the polynomials c[j] at s as the emitted code does:
// Horner's rule, every product rounded before it is added (float64(v*s),
// which the compiler never fuses into a multiply-add), so that the values
// are the same on every platform.
func horner(dst []float64, c [][]float64, s float64) {
	for j, cj := range c {
		dst[j] = horner1(cj, s)
	}
}

// horner1 is one polynomial of horner.
func horner1(c []float64, s float64) float64 {
	v := c[len(c)-1]
	for p := len(c) - 2; p >= 0; p-- {
		v = float64(v*s) + c[p]
	}
	return v
}

// interpolate returns, for every component j, the coefficients of the
// polynomial of degree len(s)−1 through (s[i], v[i][j]). It solves the
// Vandermonde system in u = 2·s ∈ [−1, 1] (well conditioned at Chebyshev
// nodes) by Gaussian elimination with partial pivoting and scales back.
func interpolate(s []float64, v [][]float64, dim int) [][]float64 {
	n := len(s)
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+dim)
		u := 2 * s[i]
		p := 1.0
		for k := range n {
			a[i][k] = p
			p *= u
		}
		copy(a[i][n:], v[i])
	}
	for col := range n {
		piv := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		a[col], a[piv] = a[piv], a[col]
		for r := range n {
			if r == col {
				continue
			}
			f := a[r][col] / a[col][col]
			for k := col; k < n+dim; k++ {
				a[r][k] -= f * a[col][k]
			}
		}
	}
	c := make([][]float64, dim)
	for j := range c {
		c[j] = make([]float64, n)
		scale := 1.0
		for k := range n {
			c[j][k] = a[k][n+j] / a[k][k] * scale
			scale *= 2
		}
	}
	return c
}
