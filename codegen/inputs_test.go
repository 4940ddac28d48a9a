package codegen

import (
	"math"
	"math/rand/v2"

	"github.com/featmap/featmap/design/fmap"
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
	if p.in == 1 {
		return inputs1D(p)
	}
	return inputsND(p)
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
	if p.pieces != nil {
		a, b := p.pieces.start(), p.pieces.end()
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
	if p.pieces != nil {
		// Every piece boundary and the float just below it.
		for i := 0; i <= p.pieces.count; i++ {
			var x float64
			if p.pieces.kind == binade {
				x = math.Float64frombits((p.pieces.first + uint64(i)) << (mantBits - p.pieces.k))
			} else {
				x = p.pieces.lo + float64(i)*p.pieces.h
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

func inputsND(p *plan) *testInputs {
	m := p.m
	n := p.in
	in := &testInputs{}
	mid := make([]float64, n)
	for i := range mid {
		mid[i] = (m.Domain.Lo[i] + m.Domain.Hi[i]) / 2
	}
	for i := range n {
		for _, v := range edgeValues {
			x := append([]float64(nil), mid...)
			x[i] = v
			in.add(false, x...)
		}
		for _, v := range []float64{m.Domain.Lo[i] - 1, m.Domain.Hi[i] + 1, 100 * m.Domain.Hi[i]} {
			x := append([]float64(nil), mid...)
			x[i] = v
			in.add(false, x...)
		}
	}
	in.edges = len(in.xs)
	// A 41ⁿ grid over the domain and 2000 random points in it.
	const g = 40
	idx := make([]int, n)
	for {
		x := make([]float64, n)
		for i := range n {
			x[i] = m.Domain.Lo[i] + float64(idx[i])/g*(m.Domain.Hi[i]-m.Domain.Lo[i])
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
			break
		}
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		x := make([]float64, n)
		for i := range n {
			x[i] = m.Domain.Lo[i] + r.Float64()*(m.Domain.Hi[i]-m.Domain.Lo[i])
		}
		in.add(true, x...)
	}
	return in
}

// phaseSize is the largest |ω·t| of the map at x: the size of the phases
// whose rounding limits the agreement of any two evaluations.
func phaseSize(m *shape, x []float64) float64 {
	if m.Form != fmap.FourierForm && m.Form != fmap.Modulation {
		return 0
	}
	t := x
	if m.Transform == fmap.Log {
		if x[0] == 0 {
			return 0
		}
		t = []float64{math.Log(math.Abs(x[0]))}
	}
	s := 0.0
	for _, term := range m.Terms {
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
