package generated

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// emitted is one generated map: its four functions behind slice adapters.
type emitted struct {
	name    string
	dim     int
	f       func(out []float64, x float64)
	slice   func(dst, src []float64)
	f32     func(out []float32, x float32)
	slice32 func(dst, src []float32)
}

// maps lists every map in this package (TestEveryMapIsTested keeps it
// complete).
var maps = []emitted{
	{"Chi2U8D5", Chi2U8D5Dim, func(o []float64, x float64) { Chi2U8D5((*[Chi2U8D5Dim]float64)(o), x) }, Chi2U8D5Slice,
		func(o []float32, x float32) { Chi2U8D5F32((*[Chi2U8D5Dim]float32)(o), x) }, Chi2U8D5SliceF32},
	{"Chi2U8D7", Chi2U8D7Dim, func(o []float64, x float64) { Chi2U8D7((*[Chi2U8D7Dim]float64)(o), x) }, Chi2U8D7Slice,
		func(o []float32, x float32) { Chi2U8D7F32((*[Chi2U8D7Dim]float32)(o), x) }, Chi2U8D7SliceF32},
	{"IntersectionU8D5", IntersectionU8D5Dim, func(o []float64, x float64) { IntersectionU8D5((*[IntersectionU8D5Dim]float64)(o), x) }, IntersectionU8D5Slice,
		func(o []float32, x float32) { IntersectionU8D5F32((*[IntersectionU8D5Dim]float32)(o), x) }, IntersectionU8D5SliceF32},
	{"IntersectionU8D7", IntersectionU8D7Dim, func(o []float64, x float64) { IntersectionU8D7((*[IntersectionU8D7Dim]float64)(o), x) }, IntersectionU8D7Slice,
		func(o []float32, x float32) { IntersectionU8D7F32((*[IntersectionU8D7Dim]float32)(o), x) }, IntersectionU8D7SliceF32},
	{"JSU8D5", JSU8D5Dim, func(o []float64, x float64) { JSU8D5((*[JSU8D5Dim]float64)(o), x) }, JSU8D5Slice,
		func(o []float32, x float32) { JSU8D5F32((*[JSU8D5Dim]float32)(o), x) }, JSU8D5SliceF32},
	{"JSU8D7", JSU8D7Dim, func(o []float64, x float64) { JSU8D7((*[JSU8D7Dim]float64)(o), x) }, JSU8D7Slice,
		func(o []float32, x float32) { JSU8D7F32((*[JSU8D7Dim]float32)(o), x) }, JSU8D7SliceF32},
	{"Chi2VLFeatU8D5", Chi2VLFeatU8D5Dim, func(o []float64, x float64) { Chi2VLFeatU8D5((*[Chi2VLFeatU8D5Dim]float64)(o), x) }, Chi2VLFeatU8D5Slice,
		func(o []float32, x float32) { Chi2VLFeatU8D5F32((*[Chi2VLFeatU8D5Dim]float32)(o), x) }, Chi2VLFeatU8D5SliceF32},
	{"Chi2VLFeatU8D7", Chi2VLFeatU8D7Dim, func(o []float64, x float64) { Chi2VLFeatU8D7((*[Chi2VLFeatU8D7Dim]float64)(o), x) }, Chi2VLFeatU8D7Slice,
		func(o []float32, x float32) { Chi2VLFeatU8D7F32((*[Chi2VLFeatU8D7Dim]float32)(o), x) }, Chi2VLFeatU8D7SliceF32},
	{"IntersectionVLFeatU8D7", IntersectionVLFeatU8D7Dim, func(o []float64, x float64) { IntersectionVLFeatU8D7((*[IntersectionVLFeatU8D7Dim]float64)(o), x) }, IntersectionVLFeatU8D7Slice,
		func(o []float32, x float32) { IntersectionVLFeatU8D7F32((*[IntersectionVLFeatU8D7Dim]float32)(o), x) }, IntersectionVLFeatU8D7SliceF32},
	{"JSVLFeatU8D7", JSVLFeatU8D7Dim, func(o []float64, x float64) { JSVLFeatU8D7((*[JSVLFeatU8D7Dim]float64)(o), x) }, JSVLFeatU8D7Slice,
		func(o []float32, x float32) { JSVLFeatU8D7F32((*[JSVLFeatU8D7Dim]float32)(o), x) }, JSVLFeatU8D7SliceF32},
	{"Chi2HistD7", Chi2HistD7Dim, func(o []float64, x float64) { Chi2HistD7((*[Chi2HistD7Dim]float64)(o), x) }, Chi2HistD7Slice,
		func(o []float32, x float32) { Chi2HistD7F32((*[Chi2HistD7Dim]float32)(o), x) }, Chi2HistD7SliceF32},
	{"Chi2LiHistD7", Chi2LiHistD7Dim, func(o []float64, x float64) { Chi2LiHistD7((*[Chi2LiHistD7Dim]float64)(o), x) }, Chi2LiHistD7Slice,
		func(o []float32, x float32) { Chi2LiHistD7F32((*[Chi2LiHistD7Dim]float32)(o), x) }, Chi2LiHistD7SliceF32},
	{"Chi2ChebHistD7", Chi2ChebHistD7Dim, func(o []float64, x float64) { Chi2ChebHistD7((*[Chi2ChebHistD7Dim]float64)(o), x) }, Chi2ChebHistD7Slice,
		func(o []float32, x float32) { Chi2ChebHistD7F32((*[Chi2ChebHistD7Dim]float32)(o), x) }, Chi2ChebHistD7SliceF32},
	{"RBFS03D11", RBFS03D11Dim, func(o []float64, x float64) { RBFS03D11((*[RBFS03D11Dim]float64)(o), x) }, RBFS03D11Slice,
		func(o []float32, x float32) { RBFS03D11F32((*[RBFS03D11Dim]float32)(o), x) }, RBFS03D11SliceF32},
	{"RBFS03Harmonic17", RBFS03Harmonic17Dim, func(o []float64, x float64) { RBFS03Harmonic17((*[RBFS03Harmonic17Dim]float64)(o), x) }, RBFS03Harmonic17Slice,
		func(o []float32, x float32) { RBFS03Harmonic17F32((*[RBFS03Harmonic17Dim]float32)(o), x) }, RBFS03Harmonic17SliceF32},
}

// designed is a map featmap designed for a generated file, with its
// measured errors.
type designed struct {
	*fmap.Map
	Errors *fmap.Verification
}

// loadMap reads the map featmap designed for a generated file
// (featmap gen -map).
func loadMap(t testing.TB, name string) designed {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".map.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vm fmap.Verified
	if err := json.Unmarshal(b, &vm); err != nil {
		t.Fatal(err)
	}
	if vm.Map == nil || vm.Verification == nil {
		t.Fatalf("%s: no map or no measured errors", name)
	}
	if err := vm.Map.Validate(); err != nil {
		t.Fatal(err)
	}
	return designed{vm.Map, vm.Verification}
}

// TestEveryMapIsTested: every generated file's map is in the table above,
// and every map in it has its designed map in testdata.
func TestEveryMapIsTested(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	dimConst := regexp.MustCompile(`(?m)^const (\w+)Dim = `)
	var names []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(string(b), "// Code generated by featmap ") {
			for _, m := range dimConst.FindAllStringSubmatch(string(b), -1) {
				names = append(names, m[1])
			}
		}
	}
	var tested []string
	for _, e := range maps {
		tested = append(tested, e.name)
	}
	for _, e := range mapsND {
		tested = append(tested, e.name)
	}
	tested = append(tested, mapsRandom...)
	tested = append(tested, mapsAnchors...)
	for _, w := range wineMaps {
		tested = append(tested, w.name)
	}
	slices.Sort(names)
	slices.Sort(tested)
	if !slices.Equal(names, tested) {
		t.Errorf("generated maps %v, tested maps %v", names, tested)
	}
}

// inputs returns the domain inputs a map is checked on (every integer of an
// integer domain; 801 points of an interval, log-spaced for a homogeneous
// map) and edge inputs around and outside the domain.
func inputs(m designed) (in, edge []float64) {
	lo, hi := m.Domain.Lo[0], m.Domain.Hi[0]
	switch {
	case m.Domain.Integer:
		for x := lo; x <= hi; x++ {
			in = append(in, x)
		}
	case m.Homogeneous():
		for i := range 801 {
			in = append(in, lo*math.Pow(hi/lo, float64(i)/800))
		}
	default:
		for i := range 801 {
			in = append(in, lo+(hi-lo)*float64(i)/800)
		}
	}
	edge = []float64{lo, hi, math.Nextafter(hi, math.Inf(1)), 2 * hi, hi + 1, lo - 0.5, math.NaN(), math.Inf(1), math.Inf(-1)}
	if m.Homogeneous() {
		edge = append(edge, 0, -lo, -hi, -0.5*hi, lo/3, 5e-324, 1e-300, 1e300)
	} else {
		edge = append(edge, -hi, lo-(hi-lo), 10*hi)
	}
	return in, edge
}

// denseInputs returns 20 001 inputs spread over an interval domain like
// inputs' 801 (log-spaced for a homogeneous map), about 25 in every
// polynomial piece of the emitted maps here (at most 1024 pieces), or nil
// for an integer domain (inputs has all of it).
func denseInputs(m designed) []float64 {
	if m.Domain.Integer {
		return nil
	}
	lo, hi := m.Domain.Lo[0], m.Domain.Hi[0]
	const n = 20000
	xs := make([]float64, n+1)
	for i := range xs {
		if m.Homogeneous() {
			xs[i] = lo * math.Pow(hi/lo, float64(i)/n)
		} else {
			xs[i] = lo + (hi-lo)*float64(i)/n
		}
	}
	return xs
}

// TestEmittedMatchesReference holds each emitted function to the map's
// reference evaluator: in the domain, the fast path changes no kernel
// value Ψ(x)·Ψ(y) by more than 10⁻³ of the design's measured L∞ error
// (every pair of the 801 inputs, and every dense input of an interval,
// about 25 per polynomial piece, paired with each of the 801);
// outside it, the formula's value (relative 1e-9) or NaN where the
// reference gives NaN; the slice forms equal the scalar ones bit for bit;
// float32 stays within float32 rounding (2⁻²³ of the vector's norm) of the
// float64 value.
func TestEmittedMatchesReference(t *testing.T) {
	for _, e := range maps {
		t.Run(e.name, func(t *testing.T) {
			m := loadMap(t, e.name)
			if m.Dim != e.dim {
				t.Fatalf("designed D = %d, emitted D = %d", m.Dim, e.dim)
			}
			in, edge := inputs(m)
			want, got := make([][]float64, len(in)), make([][]float64, len(in))
			for i, x := range in {
				want[i], got[i] = make([]float64, e.dim), make([]float64, e.dim)
				m.Eval(want[i], []float64{x})
				e.f(got[i], x)
			}
			worst := 0.0
			for i := range in {
				for j := range in {
					worst = math.Max(worst, math.Abs(dot(got[i], got[j])-dot(want[i], want[j])))
				}
			}
			// Every dense input x against every y of the 801: the
			// polynomial pieces are all exercised, each at ~25 points.
			g, w := make([]float64, e.dim), make([]float64, e.dim)
			dense := denseInputs(m)
			for _, x := range dense {
				m.Eval(w, []float64{x})
				e.f(g, x)
				for j := range in {
					worst = math.Max(worst, math.Abs(dot(g, got[j])-dot(w, want[j])))
				}
			}
			budget := 1e-3 * m.Errors.Reported.LInf
			if !(worst <= budget) {
				t.Errorf("fast path changes a kernel value by %.3g, budget %.3g (10⁻³ of L∞ %.4g)", worst, budget, m.Errors.Reported.LInf)
			}
			t.Logf("fast path changes a kernel value by at most %.3g over %d×%d pairs: %.2g of the budget", worst, len(in)+len(dense), len(in), worst/budget)
			for _, x := range edge {
				m.Eval(w, []float64{x})
				e.f(g, x)
				for k := range w {
					if math.IsNaN(w[k]) {
						if !math.IsNaN(g[k]) {
							t.Errorf("Ψ(%v)[%d] = %v, want NaN", x, k, g[k])
						}
						continue
					}
					if math.Abs(g[k]-w[k]) > 1e-9*norm(w)+1e-300 && math.Abs(g[k]-w[k]) > budget {
						t.Errorf("Ψ(%v)[%d] = %v, reference %v", x, k, g[k], w[k])
					}
				}
			}
			// Slice forms equal the scalar ones; float32 rounds float64.
			all := append(slices.Clone(in), edge...)
			dst := make([]float64, e.dim*len(all))
			e.slice(dst, all)
			all32 := make([]float32, len(all))
			for i, x := range all {
				all32[i] = float32(x)
			}
			dst32 := make([]float32, e.dim*len(all))
			e.slice32(dst32, all32)
			o32 := make([]float32, e.dim)
			for i, x := range all {
				e.f(g, x)
				for k := range g {
					if math.Float64bits(dst[i*e.dim+k]) != math.Float64bits(g[k]) && !(math.IsNaN(g[k]) && math.IsNaN(dst[i*e.dim+k])) {
						t.Fatalf("Slice(%v)[%d] = %v, scalar %v", x, k, dst[i*e.dim+k], g[k])
					}
				}
				e.f32(o32, all32[i])
				e.f(g, float64(all32[i]))
				tol := 0x1p-23*norm(g) + budget
				for k := range g {
					if o32[k] != dst32[i*e.dim+k] && !(isNaN32(o32[k]) && isNaN32(dst32[i*e.dim+k])) {
						t.Fatalf("Slice32(%v)[%d] = %v, scalar %v", x, k, dst32[i*e.dim+k], o32[k])
					}
					if math.IsNaN(g[k]) != isNaN32(o32[k]) || !math.IsNaN(g[k]) && math.Abs(float64(o32[k])-g[k]) > tol {
						t.Errorf("N32(%v)[%d] = %v, float64 %v (tolerance %.3g)", all32[i], k, o32[k], g[k], tol)
					}
				}
			}
		})
	}
}

// TestExactComponentsAsFormula: component 0 of the interval maps, a
// zero-frequency term, is not in their polynomial tables; N computes it as
// the exact path does (√x·√α for the χ² map, the constant √α for the RBF
// maps), so it equals the exact path's value bit for bit at every dense
// input of the domain, which the pieces cover.
func TestExactComponentsAsFormula(t *testing.T) {
	for _, c := range []struct {
		name       string
		n, general func(out []float64, x float64)
	}{
		{"Chi2HistD7",
			func(o []float64, x float64) { Chi2HistD7((*[Chi2HistD7Dim]float64)(o), x) },
			func(o []float64, x float64) { chi2HistD7General((*[Chi2HistD7Dim]float64)(o), x) }},
		{"RBFS03D11",
			func(o []float64, x float64) { RBFS03D11((*[RBFS03D11Dim]float64)(o), x) },
			func(o []float64, x float64) { rbfs03D11General((*[RBFS03D11Dim]float64)(o), x) }},
		{"RBFS03Harmonic17",
			func(o []float64, x float64) { RBFS03Harmonic17((*[RBFS03Harmonic17Dim]float64)(o), x) },
			func(o []float64, x float64) { rbfs03Harmonic17General((*[RBFS03Harmonic17Dim]float64)(o), x) }},
	} {
		m := loadMap(t, c.name)
		got, want := make([]float64, m.Dim), make([]float64, m.Dim)
		for _, x := range denseInputs(m) {
			c.n(got, x)
			c.general(want, x)
			if math.Float64bits(got[0]) != math.Float64bits(want[0]) {
				t.Fatalf("%s(%v)[0] = %v, the exact path's %v", c.name, x, got[0], want[0])
			}
		}
	}
}

// TestSlicePanicsOnLengthMismatch: the slice forms panic if len(dst) is
// not D·len(src).
func TestSlicePanicsOnLengthMismatch(t *testing.T) {
	for _, e := range maps {
		for _, call := range []func(){
			func() { e.slice(make([]float64, e.dim), make([]float64, 2)) },
			func() { e.slice32(make([]float32, 3*e.dim+1), make([]float32, 3)) },
		} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s: a length mismatch did not panic", e.name)
					}
				}()
				call()
			}()
		}
	}
}

// TestNoAllocations: none of the emitted functions allocates.
func TestNoAllocations(t *testing.T) {
	for _, e := range maps {
		o, o32 := make([]float64, e.dim), make([]float32, e.dim)
		src, src32 := []float64{0, 0.5, 3, 200}, []float32{0, 0.5, 3, 200}
		dst, dst32 := make([]float64, e.dim*len(src)), make([]float32, e.dim*len(src))
		for name, f := range map[string]func(){
			"scalar":  func() { e.f(o, 0.37) },
			"slice":   func() { e.slice(dst, src) },
			"float32": func() { e.f32(o32, 0.37) },
			"slice32": func() { e.slice32(dst32, src32) },
		} {
			if n := testing.AllocsPerRun(100, f); n != 0 {
				t.Errorf("%s %s: %v allocations per call", e.name, name, n)
			}
		}
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func norm(v []float64) float64 { return math.Sqrt(dot(v, v)) }

func isNaN32(v float32) bool { return v != v }
