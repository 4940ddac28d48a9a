package generated

import (
	"encoding/binary"
	"math"
	"slices"
	"sync"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// fuzzMaps returns the designed maps of maps and mapsND by name, loaded
// once per test binary (the fuzzer calls its function millions of times).
func fuzzMaps(t testing.TB) map[string]designed {
	fuzzMu.Lock()
	defer fuzzMu.Unlock()
	if fuzzLoaded == nil {
		out := map[string]designed{}
		for _, e := range maps {
			out[e.name] = loadMap(t, e.name)
		}
		for _, e := range mapsND {
			out[e.name] = loadMap(t, e.name)
		}
		for _, e := range vectorMaps {
			out[e.name] = loadMap(t, e.name)
		}
		for _, name := range append(slices.Clone(mapsRandom), mapsAnchors...) {
			if _, ok := out[name]; !ok {
				t.Fatalf("%s is not in vectorMaps: the fuzz target does not call it", name)
			}
		}
		fuzzLoaded = out
	}
	return fuzzLoaded
}

// vectorMaps are the generated maps of a whole input vector, random
// features (mapsRandom) and anchors (mapsAnchors), behind slice adapters.
var vectorMaps = []emittedND{
	{"RBFDigits", RBFDigitsDim, RBFDigitsIn,
		func(o, x []float64) { RBFDigits((*[RBFDigitsDim]float64)(o), (*[RBFDigitsIn]float64)(x)) }, RBFDigitsSlice,
		func(o, x []float32) { RBFDigitsF32((*[RBFDigitsDim]float32)(o), (*[RBFDigitsIn]float32)(x)) }, RBFDigitsSliceF32},
	{"Chi2ANNFMDigits", Chi2ANNFMDigitsDim, Chi2ANNFMDigitsIn,
		func(o, x []float64) {
			Chi2ANNFMDigits((*[Chi2ANNFMDigitsDim]float64)(o), (*[Chi2ANNFMDigitsIn]float64)(x))
		}, Chi2ANNFMDigitsSlice,
		func(o, x []float32) {
			Chi2ANNFMDigitsF32((*[Chi2ANNFMDigitsDim]float32)(o), (*[Chi2ANNFMDigitsIn]float32)(x))
		}, Chi2ANNFMDigitsSliceF32},
}

var (
	fuzzMu     sync.Mutex
	fuzzLoaded map[string]designed
)

// floatClasses are one input of every float64 class and the bounds between
// them: zeros of both signs, the smallest and largest subnormals, the
// smallest normal, ordinary values, the largest finite value, infinities
// and NaNs (quiet, with a payload, negative).
var floatClasses = []uint64{
	0, 1 << 63, // ±0
	1, 1<<63 | 1, // ±5e-324
	0x000fffffffffffff, 0x0010000000000000, // largest subnormal, smallest normal
	math.Float64bits(1e-300), math.Float64bits(1e-4), math.Float64bits(0.5), math.Float64bits(1),
	math.Float64bits(math.Pi), math.Float64bits(255), math.Float64bits(-3), math.Float64bits(1e300),
	0x7fefffffffffffff, 0xffefffffffffffff, // ±MaxFloat64
	0x7ff0000000000000, 0xfff0000000000000, // ±Inf
	0x7ff8000000000001, 0xfff8000000000000, 0x7ff0000000000001, // NaNs: quiet with payload, negative, signalling
}

// FuzzEmittedMaps feeds every emitted map any float64 inputs (x from the
// first word; the two-input map takes both words; the maps of a whole
// vector, vectorMaps, take coordinate j from word j mod k of a, b and the
// 8-byte little-endian words of c) and holds them to what their files say:
// no call panics; the slice forms equal the scalar ones bit for bit; a NaN
// or ±Inf input gives NaN in every component (zeros for random features;
// zeros in its own components for an anchor map); in the domain no kernel
// value Ψ(x)·Ψ(y), y = x or a corner of the domain, moves by more than
// 10⁻³ of the map's measured error; outside it the formula's value
// (checkOutside); a shift-invariant map takes an input coordinate beyond
// its limit ±L as ±L (inputLimit), bit for bit; random features are the
// formula's value within the rounding of their phases, or bounded where
// the phases keep no digit (checkRandom); an anchor map is the reference
// evaluator's lookup to 1e-15; float32 stays within float32 rounding of
// float64. The seeds are every float64 class (floatClasses) and run with
// go test; `go test -fuzz FuzzEmittedMaps ./generated` searches further.
func FuzzEmittedMaps(f *testing.F) {
	for _, a := range floatClasses {
		f.Add(a, math.Float64bits(1), []byte(nil))
		f.Add(math.Float64bits(1), a, []byte(nil))
	}
	// A digits row with one pixel of every class in turn.
	row := []float64{0, 0, 5, 13, 9, 1, 0, 0, 0, 0, 13, 15, 10, 15, 5, 0, 0, 3, 15, 2, 0, 11, 8, 0, 0, 4, 12, 0, 0, 8, 8, 0,
		0, 5, 8, 0, 0, 9, 8, 0, 0, 4, 11, 0, 1, 12, 7, 0, 0, 2, 14, 5, 10, 12, 0, 0, 0, 0, 6, 13, 10, 0, 0, 0}
	for i, a := range floatClasses {
		x := slices.Clone(row)
		x[(5*i)%len(x)] = math.Float64frombits(a)
		f.Add(math.Float64bits(x[0]), math.Float64bits(x[1]), words(x[2:]))
	}
	// ±MaxFloat64 with the signs of the random frequency of largest Σ|ω|:
	// its phase is the largest any finite input makes.
	r := fuzzMaps(f)["RBFDigits"].Stages[0].Kind.(*fmap.Random)
	top, s := 0, 0.0
	for k := range r.Frequencies() {
		sum := 0.0
		for _, o := range r.Freq[k*r.In : (k+1)*r.In] {
			sum += math.Abs(o)
		}
		if sum > s {
			top, s = k, sum
		}
	}
	x := make([]float64, r.In)
	for j, o := range r.Freq[top*r.In : (top+1)*r.In] {
		x[j] = math.Copysign(math.MaxFloat64, o)
	}
	f.Add(math.Float64bits(x[0]), math.Float64bits(x[1]), words(x[2:]))
	f.Fuzz(func(t *testing.T, a, b uint64, c []byte) {
		ms := fuzzMaps(t)
		x := math.Float64frombits(a)
		for _, e := range maps {
			m := ms[e.name]
			lo, hi := m.Domain.Lo[0], m.Domain.Hi[0]
			w, g := make([]float64, e.dim), make([]float64, e.dim)
			m.Eval(w, []float64{x})
			e.f(g, x)
			s := make([]float64, e.dim)
			e.slice(s, []float64{x})
			for k := range g {
				if math.Float64bits(s[k]) != math.Float64bits(g[k]) && !(math.IsNaN(s[k]) && math.IsNaN(g[k])) {
					t.Fatalf("%s: Slice(%v)[%d] = %v, N %v", e.name, x, k, s[k], g[k])
				}
				if (math.IsNaN(x) || math.IsInf(x, 0)) && !math.IsNaN(g[k]) {
					t.Fatalf("%s: N(%v)[%d] = %v, want NaN", e.name, x, k, g[k])
				}
			}
			budget := 1e-3 * m.Errors.Reported.LInf
			ax := x
			if m.Homogeneous() {
				ax = math.Abs(x)
			}
			if ax >= lo && ax <= hi {
				checkKernelValues(t, e.name, m, func(o, y []float64) { e.f(o, y[0]) }, []float64{x}, g, budget)
			} else if !math.IsNaN(x) && !math.IsInf(x, 0) {
				checkOutside(t, e.name, m, []float64{x}, g, w, budget)
				checkLimit(t, e.name, m, func(o, y []float64) { e.f(o, y[0]) }, []float64{x}, g)
			}
			x32 := float32(x)
			o32 := make([]float32, e.dim)
			e.f32(o32, x32)
			e.f(g, float64(x32))
			tol := 0x1p-23*norm(g) + budget
			for k := range g {
				if math.IsNaN(g[k]) != isNaN32(o32[k]) || !math.IsNaN(g[k]) && math.Abs(float64(o32[k])-g[k]) > tol {
					t.Fatalf("%s: N32(%v)[%d] = %v, float64 %v (tolerance %.3g)", e.name, x32, k, o32[k], g[k], tol)
				}
			}
		}
		xy := []float64{x, math.Float64frombits(b)}
		for _, e := range mapsND {
			m := ms[e.name]
			w, g, s := make([]float64, e.dim), make([]float64, e.dim), make([]float64, e.dim)
			in := xy[:e.in]
			m.Eval(w, in)
			e.f(g, in)
			e.slice(s, in)
			bad, inside := false, true
			for a, v := range in {
				bad = bad || math.IsNaN(v) || math.IsInf(v, 0)
				inside = inside && v >= m.Domain.Lo[a] && v <= m.Domain.Hi[a]
			}
			for k := range g {
				if math.Float64bits(s[k]) != math.Float64bits(g[k]) && !(math.IsNaN(s[k]) && math.IsNaN(g[k])) {
					t.Fatalf("%s: Slice(%v)[%d] = %v, N %v", e.name, in, k, s[k], g[k])
				}
				if bad && !math.IsNaN(g[k]) {
					t.Fatalf("%s: N(%v)[%d] = %v, want NaN", e.name, in, k, g[k])
				}
			}
			budget := 1e-3 * m.Errors.Reported.LInf
			if inside {
				checkKernelValues(t, e.name, m, e.f, in, g, budget)
			} else if !bad {
				checkOutside(t, e.name, m, in, g, w, budget)
				checkLimit(t, e.name, m, e.f, in, g)
			}
			checkF32(t, e, m, in)
		}
		for _, e := range vectorMaps {
			checkVector(t, e, ms[e.name], vector(e.in, a, b, c))
		}
	})
}

// words returns the little-endian 8-byte words of xs, the fuzz target's
// form of a vector's coordinates.
func words(xs []float64) []byte {
	var b []byte
	for _, v := range xs {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
	}
	return b
}

// vector is the fuzz target's input of n coordinates: coordinate j is word
// j mod k of a, b and the whole 8-byte little-endian words of c.
func vector(n int, a, b uint64, c []byte) []float64 {
	ws := []uint64{a, b}
	for ; len(c) >= 8; c = c[8:] {
		ws = append(ws, binary.LittleEndian.Uint64(c))
	}
	x := make([]float64, n)
	for j := range x {
		x[j] = math.Float64frombits(ws[j%len(ws)])
	}
	return x
}

// checkVector holds a map of a whole vector (vectorMaps) at x to its
// file: the slice form equals N bit for bit; random features give zeros
// for a non-finite coordinate, take coordinates beyond ±L as ±L and
// otherwise are the formula's value or bounded (checkRandom); an anchor
// map gives zeros in a non-finite coordinate's components and the
// reference evaluator's lookup elsewhere, to 1e-15; float32 is the float64
// value at the float32 input, rounded (within 2⁻²³‖Ψ‖, plus 2⁻¹⁴⁹ for a
// float32 subnormal).
func checkVector(t *testing.T, e emittedND, m designed, x []float64) {
	t.Helper()
	g, s, w := make([]float64, e.dim), make([]float64, e.dim), make([]float64, e.dim)
	e.f(g, x)
	e.slice(s, x)
	for k := range g {
		if math.Float64bits(s[k]) != math.Float64bits(g[k]) {
			t.Fatalf("%s: Slice(%v)[%d] = %v, N %v", e.name, x, k, s[k], g[k])
		}
	}
	bad := false
	for _, v := range x {
		bad = bad || math.IsNaN(v) || math.IsInf(v, 0)
	}
	if _, ok := m.Stages[0].Kind.(*fmap.Random); ok {
		if bad {
			for k, v := range g {
				if v != 0 {
					t.Fatalf("%s: N(%v)[%d] = %v, want 0 for a non-finite coordinate", e.name, x, k, v)
				}
			}
		} else {
			checkRandom(t, e.name, m, x, g)
			checkLimit(t, e.name, m, e.f, x, g)
		}
	} else {
		fmap.RowFeatures(m.Map, w, x)
		per := e.dim / e.in
		for k := range g {
			v := x[k/per]
			if math.IsNaN(v) || math.IsInf(v, 0) {
				if g[k] != 0 {
					t.Fatalf("%s: N(%v)[%d] = %v, want 0 for the non-finite coordinate %d", e.name, x, k, g[k], k/per)
				}
			} else if !(math.Abs(g[k]-w[k]) <= 1e-15*math.Max(1, math.Abs(w[k]))) {
				t.Fatalf("%s: N(%v)[%d] = %v, reference %v", e.name, x, k, g[k], w[k])
			}
		}
	}
	checkF32(t, e, m, x)
}

// checkF32 fails t unless NF32 of e at x rounded to float32 is N at that
// input rounded: NaN where N is NaN, else within 2⁻²³‖Ψ‖ plus 2⁻¹⁴⁹ (a
// component rounded to a float32 subnormal keeps only that absolute
// spacing: found by the fuzzer, 4.21e-43 → 4.2e-43); a random map's
// float32 path, which computes in float32, within the bound its file
// states, c·(2⁻²³ + (n + 2)·2⁻²⁴·(Σⱼ|ωᵢⱼxⱼ| + |bᵢ|)) + 2⁻²⁴·|Ψᵢ| for the
// components of frequency i.
func checkF32(t *testing.T, e emittedND, m designed, x []float64) {
	t.Helper()
	x32, x64 := make([]float32, len(x)), make([]float64, len(x))
	for j, v := range x {
		x32[j] = float32(v)
		x64[j] = float64(x32[j])
	}
	g, o32 := make([]float64, e.dim), make([]float32, e.dim)
	e.f32(o32, x32)
	e.f(g, x64)
	tol0 := 0x1p-23*norm(g) + 0x1p-149
	r, _ := m.Stages[0].Kind.(*fmap.Random)
	for k := range g {
		tol := tol0
		if r != nil && r.Transform == fmap.Identity && len(m.Stages) == 1 {
			i := k / 2
			if r.Features == fmap.Phase {
				i = k
			}
			s := 0.0
			for j, v := range x64 {
				s += math.Abs(r.Freq[i*r.In+j] * v)
			}
			if r.Features == fmap.Phase {
				s += math.Abs(r.Phase[i])
			}
			if b := math.Abs(r.ComponentScale())*(0x1p-23+float64(r.In+2)*0x1p-24*s)*(1+1e-9) + 0x1p-24*math.Abs(g[k]) + 0x1p-149; b > tol {
				tol = b // (not for a NaN input: s is NaN)
			}
		}
		if math.IsNaN(g[k]) != isNaN32(o32[k]) || !math.IsNaN(g[k]) && !(math.Abs(float64(o32[k])-g[k]) <= tol) {
			t.Fatalf("%s: N32(%v)[%d] = %v, float64 %v (tolerance %.3g)", e.name, x32, k, o32[k], g[k], tol)
		}
	}
}

// checkRandom fails t unless the random features g of a finite input x
// are the formula's value w (the reference evaluator's) within the
// rounding of their phases, 2e-15·(32 + 4·P) of ‖w‖ for phases up to P =
// max_k Σ_j |ω_kj·x_j| (the emitted dot products add in another order),
// or, where P > 2²⁰ and the phases keep less than about ten correct
// digits, bounded as the file states: |Ψ_j| ≤ the features' scale (1/√m
// for cos-sin pairs, √(2/m) for phases), ‖Ψ‖² ≤ 1 (2 for phases).
func checkRandom(t *testing.T, name string, m designed, x, g []float64) {
	t.Helper()
	r := m.Stages[0].Kind.(*fmap.Random)
	p := 0.0
	for k := range r.Frequencies() {
		ph := 0.0
		for j, o := range r.Freq[k*r.In : (k+1)*r.In] {
			ph += math.Abs(o * x[j])
		}
		p = math.Max(p, ph)
	}
	if p > 1<<20 {
		scale, n2 := math.Sqrt(1/float64(r.Frequencies())), 1.0
		if r.Features == fmap.Phase {
			scale, n2 = math.Sqrt(2/float64(r.Frequencies())), 2
		}
		for k, v := range g {
			if !(math.Abs(v) <= scale*(1+1e-9)) {
				t.Fatalf("%s: N(%v)[%d] = %v, want a finite value within %v", name, x, k, v, scale)
			}
		}
		if n := dot(g, g); !(n <= n2*(1+1e-9)) {
			t.Fatalf("%s: ‖Ψ(%v)‖² = %v, want at most %v", name, x, n, n2)
		}
		return
	}
	w := make([]float64, len(g))
	m.Eval(w, x)
	tol := 2e-15 * (32 + 4*p) * norm(w)
	for k := range g {
		if !(math.Abs(g[k]-w[k]) <= tol) {
			t.Fatalf("%s: N(%v)[%d] = %v, reference %v (tolerance %.3g, phases up to %.3g)", name, x, k, g[k], w[k], tol, p)
		}
	}
}

// inputLimit is the limit L the file of a shift-invariant map states:
// an input coordinate beyond ±L is taken as ±L, L = MaxFloat64/(2·S), S the
// largest Σᵢ|ωᵢ| of a term or random frequency, where S > 1/2 (else
// +Inf: no finite input can overflow a phase). It is computed here from
// the designed map, independently of the code generator.
func inputLimit(m designed) float64 {
	s := 0.0
	f, _ := m.Stages[0].Kind.(*fmap.Fourier)
	r, _ := m.Stages[0].Kind.(*fmap.Random)
	switch {
	case f != nil && f.Transform == fmap.Identity:
		for _, term := range f.Terms {
			sum := 0.0
			for _, o := range term.Freq {
				sum += math.Abs(o)
			}
			s = math.Max(s, sum)
		}
	case r != nil && r.Transform == fmap.Identity && len(m.Stages) == 1:
		for k := range r.Frequencies() {
			sum := 0.0
			for _, o := range r.Freq[k*r.In : (k+1)*r.In] {
				sum += math.Abs(o)
			}
			s = math.Max(s, sum)
		}
	}
	if !(s > 0.5) {
		return math.Inf(1)
	}
	return math.MaxFloat64 / (2 * s)
}

// checkLimit fails t unless N(x) = g, for a finite x with a coordinate
// beyond the map's limit ±L, equals N at x taken within ±L bit for bit.
func checkLimit(t *testing.T, name string, m designed, f func(out, x []float64), x, g []float64) {
	t.Helper()
	lim := inputLimit(m)
	c := slices.Clone(x)
	beyond := false
	for i, v := range x {
		if math.Abs(v) > lim {
			c[i], beyond = math.Copysign(lim, v), true
		}
	}
	if !beyond {
		return
	}
	h := make([]float64, len(g))
	f(h, c)
	for k := range g {
		if math.Float64bits(g[k]) != math.Float64bits(h[k]) {
			t.Fatalf("%s: N(%v)[%d] = %v, N(%v) = %v: beyond ±L = %v an input is taken as ±L", name, x, k, g[k], c, h[k], lim)
		}
	}
}

// checkOutside fails t unless the emitted features g of a finite input x
// outside m's domain are the formula's value w (the reference evaluator's;
// relative 1e-9 of the vector, or within budget), with one exception the
// files state: for a shift-invariant kernel, where ω·x is so large that its
// float64 product keeps less than about ten correct digits (|ω·x| > 2²⁰)
// neither evaluation is meaningful and the emitted components need only be
// bounded — finite, with ‖Ψ(x)‖² at most Σα, the value every input of the
// formula attains (plus the fast paths' budget, for a map of several inputs
// with one of them in the domain).
func checkOutside(t *testing.T, name string, m designed, x, g, w []float64, budget float64) {
	t.Helper()
	if f, ok := m.Stages[0].Kind.(*fmap.Fourier); ok && m.Kernel.ShiftInvariant() {
		var wmax, sum float64
		for _, term := range f.Terms {
			sum += term.Weight
			for _, o := range term.Freq {
				wmax = max(wmax, math.Abs(o))
			}
		}
		far := false
		for _, v := range x {
			far = far || wmax*math.Abs(v) > 1<<20
		}
		if far {
			// A coordinate in the domain takes its cos/sin from the
			// polynomial pieces, whose c² + s² may pass 1 by their
			// error: within budget of Ψ(x)·Ψ(x).
			if n := dot(g, g); !(n <= sum*(1+1e-9)+budget) {
				t.Fatalf("%s: ‖Ψ(%v)‖² = %v, want at most Σα = %v (+ %.3g)", name, x, n, sum, budget)
			}
			return
		}
	}
	for k := range g {
		if math.IsNaN(w[k]) != math.IsNaN(g[k]) {
			t.Fatalf("%s: N(%v)[%d] = %v outside the domain, reference %v", name, x, k, g[k], w[k])
		}
		if d := math.Abs(g[k] - w[k]); d > 1e-9*norm(w)+1e-300 && d > budget {
			t.Fatalf("%s: N(%v)[%d] = %v outside the domain, reference %v", name, x, k, g[k], w[k])
		}
	}
}

// checkKernelValues fails t if the emitted features g = f(x) of an input x
// in m's domain move a kernel value Ψ(x)·Ψ(y) by more than budget from the
// reference evaluator's, for y = x and every corner of the domain.
func checkKernelValues(t *testing.T, name string, m designed, f func(out, x []float64), x, g []float64, budget float64) {
	t.Helper()
	n := len(x)
	w := make([]float64, len(g))
	m.Eval(w, x)
	ys := [][]float64{x}
	for c := range 1 << n {
		y := make([]float64, n)
		for a := range n {
			y[a] = m.Domain.Lo[a]
			if c>>a&1 == 1 {
				y[a] = m.Domain.Hi[a]
			}
		}
		ys = append(ys, y)
	}
	gy, wy := make([]float64, len(g)), make([]float64, len(g))
	for _, y := range ys {
		f(gy, y)
		m.Eval(wy, y)
		if d := math.Abs(dot(g, gy) - dot(w, wy)); !(d <= budget) {
			t.Fatalf("%s: Ψ(%v)·Ψ(%v) moves by %.3g, budget %.3g", name, x, y, d, budget)
		}
	}
}
