package codegen

import (
	"math"
	"math/rand/v2"
	"slices"

	"github.com/featmap/featmap/fmap"
)

// testInputs are the inputs a map is checked on: edge cases first, then a
// dense grid. dense marks the points of the designed domain that the
// kernel-error budget is checked on.
type testInputs struct {
	xs    [][]float64
	edges int
	dense []bool
}

func (in *testInputs) add(dense bool, x ...float64) {
	in.xs = append(in.xs, x)
	in.dense = append(in.dense, dense)
}

// inputsFor returns the inputs for the map of p.
func inputsFor(p *plan) *testInputs {
	var in *testInputs
	if p.in == 1 {
		in = inputs1D(p)
	} else {
		in = inputsND(p)
	}
	addLimited(in, inputLimit(p))
	return in
}

// inputLimit is the limit L beyond which the map's N takes an input
// coordinate as ±L (limit.go), +Inf for a map without one (and for random
// features after a per-coordinate map, whose limit applies to ψ's values).
func inputLimit(p *plan) float64 {
	switch {
	case p.asRandom() != nil && p.asRandom().inner == nil:
		return randomLimit(p.asRandom().r)
	case p.asRandom() == nil && p.asNystroem() == nil && p.asAnchors() == nil && p.asBlocks() == nil:
		return p.limit()
	}
	return math.Inf(1)
}

// addLimited adds, for a map with a limit L, first among the edge inputs
// (the allocation test takes the first 64), inputs at and just beyond ±L
// on every coordinate at once and, for every edge input with a finite
// coordinate beyond ±L, the input taken within ±L (limitedIndex finds
// it): checkAgreement holds N of the one to N of the other bit for bit.
func addLimited(in *testInputs, lim float64) {
	if math.IsInf(lim, 1) {
		return
	}
	n := len(in.xs[0])
	for _, v := range []float64{lim, math.Nextafter(lim, math.Inf(1)), 2 * lim} {
		for _, sign := range []float64{1, -1} {
			x := make([]float64, n)
			for i := range x {
				x[i] = sign * v
			}
			in.xs = slices.Insert(in.xs, 0, x)
			in.dense = slices.Insert(in.dense, 0, false)
			in.edges++
		}
	}
	var add [][]float64
	for _, x := range in.xs[:in.edges] {
		if c := limited(x, lim); c != nil && limitedIndex(in, c) < 0 && !slices.ContainsFunc(add, func(y []float64) bool { return slices.Equal(c, y) }) {
			add = append(add, c)
		}
	}
	in.xs = slices.Insert(in.xs, 0, add...)
	in.dense = slices.Insert(in.dense, 0, make([]bool, len(add))...)
	in.edges += len(add)
}

// limited returns x with every coordinate taken within ±lim, or nil when x
// has a non-finite coordinate or none beyond ±lim.
func limited(x []float64, lim float64) []float64 {
	var c []float64
	for i, v := range x {
		if !finite(v) {
			return nil
		}
		if math.Abs(v) > lim {
			if c == nil {
				c = slices.Clone(x)
			}
			c[i] = math.Copysign(lim, v)
		}
	}
	return c
}

// limitedIndex is the index of the input equal to x bit for bit, or -1.
func limitedIndex(in *testInputs, x []float64) int {
	for i, y := range in.xs[:in.edges] {
		if slices.EqualFunc(x, y, func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }) {
			return i
		}
	}
	return -1
}

// edgeValues are the non-finite, signed-zero, subnormal and huge inputs.
var edgeValues = []float64{
	0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1),
	5e-324, 1e-310, 0x1p-1022, 1e-300, 1e-20, 1e20, 1e300, -1e300, 1e15, -1e15,
	-5e-324, -1e-310, math.MaxFloat64 / 4, -math.MaxFloat64 / 4, math.MaxFloat64, -math.MaxFloat64,
}

func inputs1D(p *plan) *testInputs {
	m := p.m
	lo, hi := m.Domain.Lo[0], m.Domain.Hi[0]
	in := &testInputs{}
	for _, v := range edgeValues {
		in.add(false, v)
	}
	// Ends, just outside, far outside; negatives of all of these.
	ends := []float64{lo, hi, math.Nextafter(lo, math.Inf(-1)), math.Nextafter(lo, math.Inf(1)),
		math.Nextafter(hi, math.Inf(-1)), math.Nextafter(hi, math.Inf(1)),
		lo - 1, hi + 1, hi + 0.5, 2 * hi, 10 * hi, lo / 2, lo - 0.5, (lo + hi) / 2}
	if p.pieces() != nil {
		a, b := p.pieces().start(), p.pieces().end()
		ends = append(ends, a, b, math.Nextafter(a, math.Inf(-1)), math.Nextafter(b, math.Inf(-1)))
	}
	for _, v := range ends {
		in.add(false, v)
		in.add(false, -v)
	}
	in.edges = len(in.xs)

	if m.Domain.Integer {
		for k := lo; k <= hi; k++ {
			in.add(true, k)
			in.add(false, k+0.5)
			in.add(false, k+0.25)
			in.add(false, -k)
		}
		return in
	}
	if p.pieces() != nil {
		// Every piece boundary and the float just below it.
		for i := 0; i <= p.pieces().count; i++ {
			var x float64
			if p.pieces().kind == binade {
				x = math.Float64frombits((p.pieces().first + uint64(i)) << (mantBits - p.pieces().k))
			} else {
				x = p.pieces().lo + float64(i)*p.pieces().h
			}
			in.add(false, x)
			in.add(false, math.Nextafter(x, math.Inf(-1)))
		}
	}
	const n = 4000
	for i := range n + 1 {
		f := float64(i) / n
		in.add(true, lo+f*(hi-lo))
		if m.Homogeneous() {
			a := math.Max(lo, hi*1e-12)
			x := a * math.Pow(hi/a, f)
			in.add(true, math.Min(math.Max(x, lo), hi))
			in.add(false, -x)
		}
	}
	return in
}

// inputDomain is the domain of the emitted N's n inputs: the map's, or
// for a map with a table per coordinate its one axis on every coordinate.
func (p *plan) inputDomain() fmap.Domain {
	d := p.m.Domain
	if d.Dims() == 1 && p.in > 1 {
		return fmap.Domain{Integer: d.Integer, Lo: slices.Repeat(d.Lo, p.in), Hi: slices.Repeat(d.Hi, p.in)}
	}
	return d
}

func inputsND(p *plan) *testInputs {
	n := p.in
	in := &testInputs{}
	dom := p.inputDomain()
	mid := make([]float64, n)
	for i := range mid {
		mid[i] = (dom.Lo[i] + dom.Hi[i]) / 2
	}
	// Every coordinate huge at once, of one sign and of alternating signs
	// (first: the allocation test takes the first 64 inputs).
	for _, v := range []float64{math.MaxFloat64, -math.MaxFloat64, math.MaxFloat64 / 4, 1e300} {
		x, alt := make([]float64, n), make([]float64, n)
		for i := range x {
			x[i], alt[i] = v, v
			if i%2 == 1 {
				alt[i] = -v
			}
		}
		in.add(false, x...)
		in.add(false, alt...)
	}
	// The edge values on every axis, or on four of them (the first, the
	// second, the middle and the last) beyond eight axes.
	axes := make([]int, n)
	for i := range axes {
		axes[i] = i
	}
	if n > 8 {
		axes = []int{0, 1, n / 2, n - 1}
	}
	for _, i := range axes {
		for _, v := range edgeValues {
			x := append([]float64(nil), mid...)
			x[i] = v
			in.add(false, x...)
		}
		for _, v := range []float64{dom.Lo[i] - 1, dom.Hi[i] + 1, 100 * dom.Hi[i]} {
			x := append([]float64(nil), mid...)
			x[i] = v
			in.add(false, x...)
		}
	}
	in.edges = len(in.xs)
	// A 41ⁿ grid over the domain (up to three axes) and 2000 random points
	// in it (500 for a map of more than 256 components).
	if n <= 3 {
		addGrid(in, dom, 40)
	}
	points := 2000
	if p.dim > 256 {
		points = 500
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range points {
		x := make([]float64, n)
		for i := range n {
			x[i] = dom.Lo[i] + r.Float64()*(dom.Hi[i]-dom.Lo[i])
		}
		in.add(true, x...)
	}
	return in
}

// addGrid adds the (g+1)ⁿ grid over the domain as dense inputs.
func addGrid(in *testInputs, dom fmap.Domain, g int) {
	n := dom.Dims()
	idx := make([]int, n)
	for {
		x := make([]float64, n)
		for i := range n {
			x[i] = dom.Lo[i] + float64(idx[i])/float64(g)*(dom.Hi[i]-dom.Lo[i])
		}
		in.add(true, x...)
		i := 0
		for ; i < n; i++ {
			if idx[i]++; idx[i] <= g {
				break
			}
			idx[i] = 0
		}
		if i == n {
			return
		}
	}
}

// phaseSize is the largest |ω·t| of the map at x: the size of the phases
// whose rounding limits the agreement of any two evaluations.
func phaseSize(m *fmap.Map, x []float64) float64 {
	if r, _ := randomStages(m); r != nil {
		return randomPhaseSize(m, x)
	}
	f := m.Fourier()
	if f == nil {
		return 0
	}
	t := x
	if f.Transform == fmap.Log {
		if x[0] == 0 {
			return 0
		}
		t = []float64{math.Log(math.Abs(x[0]))}
	}
	s := 0.0
	for _, term := range f.Terms {
		ph := 0.0
		for i, w := range term.Freq {
			if w != 0 {
				ph += math.Abs(w * t[i])
			}
		}
		s = math.Max(s, ph)
	}
	return s
}

// randomPhaseSize is the largest Σ_j |ω_ij|·(|t_j| + δ_j) of a random map
// at x, with t the random stage's argument and δ_j the scale of the
// rounding of t_j: none for t = x or log(x + c), which the emitted code
// computes as the reference evaluator does, and ‖ψ(x_i)‖ times ψ's own
// phase size (plus one) for the per-coordinate map's values. NaN phases
// count as infinite.
func randomPhaseSize(m *fmap.Map, x []float64) float64 {
	r, inner := randomStages(m)
	t := make([]float64, r.In)
	slack := make([]float64, r.In)
	switch {
	case inner != nil:
		d := inner.Dim
		for i, v := range x {
			u := t[i*d : (i+1)*d]
			inner.Eval(u, []float64{v})
			s := norm(u) * (1 + phaseSize(inner, []float64{v}))
			for k := range u {
				slack[i*d+k] = s
			}
		}
	case r.Transform == fmap.LogOffset:
		for j, v := range x {
			t[j] = math.Log(math.Max(v+r.Offset, 0x1p-1022))
		}
	default:
		copy(t, x)
	}
	s := 0.0
	for i := range r.Frequencies() {
		ph := 0.0
		for j, w := range r.Freq[i*r.In : (i+1)*r.In] {
			ph += math.Abs(w) * (math.Abs(t[j]) + slack[j])
		}
		if math.IsNaN(ph) {
			return math.Inf(1)
		}
		s = math.Max(s, ph)
	}
	return s
}
