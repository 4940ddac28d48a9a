package featmap

import (
	"context"
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/featmap/featmap/solver"
)

func loadSpec(t *testing.T, path string) *Spec {
	t.Helper()
	s, err := LoadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustDesign(t *testing.T, s *Spec, o Settings) *Design {
	t.Helper()
	d, err := s.Design(context.Background(), o)
	if err != nil {
		t.Fatalf("%s: %v", s.Path, err)
	}
	return d
}

// TestDesignDeterministic designs one spec twice, each from a fresh load
// (designing the same Spec value twice would return its chum's remembered
// design): the same map, bit for bit.
func TestDesignDeterministic(t *testing.T) {
	s := loadSpec(t, "specs/table1-chi2-5d.yaml")
	a := mustDesign(t, s, Settings{})
	b := mustDesign(t, loadSpec(t, "specs/table1-chi2-5d.yaml"), Settings{})
	if !reflect.DeepEqual(a.Map, b.Map) || !reflect.DeepEqual(a.Verification, b.Verification) {
		t.Errorf("two designs of %s differ:\n%+v\n%+v", s.Path, a.Map.Fourier().Terms, b.Map.Fourier().Terms)
	}
}

// TestBackendsAgree designs Table-1 specs with every compiled-in solver
// backend: the final errors agree within 1 %.
func TestBackendsAgree(t *testing.T) {
	names := solver.Names()
	if len(names) < 2 {
		t.Skipf("only %v compiled in; run with -tags clp to compare backends", names)
	}
	for _, path := range []string{"specs/table1-chi2-7d.yaml", "specs/table1-js-5d.yaml", "specs/rbf-sigma03-11d.yaml"} {
		s := loadSpec(t, path)
		var ref *Design
		for _, name := range names {
			d := mustDesign(t, s, Settings{Solver: name})
			t.Logf("%s with %s: L∞ %.6g RMS %.6g (%d LPs, %.2f s)", path, name, d.Verification.Reported.LInf, d.Verification.Reported.RMS, d.LPs, d.Seconds)
			if ref == nil {
				ref = d
				continue
			}
			for _, pair := range [][2]float64{{ref.Verification.Reported.LInf, d.Verification.Reported.LInf}, {ref.Verification.Reported.RMS, d.Verification.Reported.RMS}} {
				if math.Abs(pair[0]-pair[1]) > 0.01*pair[0] {
					t.Errorf("%s: %s gives %.6g, %s %.6g: more than 1 %% apart", path, names[0], pair[0], name, pair[1])
				}
			}
		}
	}
}

func parse(t *testing.T, text string) *Spec {
	t.Helper()
	s, err := ParseSpec("test.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestMaxErrorPicksSmallestD: target.max_error returns a map meeting the
// bound, and the next smaller dimension (designed explicitly) misses it.
func TestMaxErrorPicksSmallestD(t *testing.T) {
	s := parse(t, `
version: 1
name: Chi2Max
kernel: {type: chi2}
domain: {integers: [0, 255]}
target: {max_error: 0.5}
method: {name: chum, starts: 4}
`)
	d := mustDesign(t, s, Settings{})
	if got := d.Verification.Reported.LInf; got > 0.5 {
		t.Fatalf("D = %d has error %.4g above max_error 0.5", d.Map.Dim, got)
	}
	for dim := 1; dim < d.Map.Dim; dim++ {
		smaller, err := s.DesignDim(context.Background(), *s.Method, dim, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if e := smaller.Verification.Reported.LInf; e <= 0.5 {
			t.Errorf("D = %d already meets max_error 0.5 (%.4g), but %d was returned", dim, e, d.Map.Dim)
		}
	}
	t.Logf("max_error 0.5 → D = %d (%.4g)", d.Map.Dim, d.Verification.Reported.LInf)
}

// TestMaxErrorUnreachable: a bound no dimension up to max_dim meets is an
// ErrUnreachable error that says what was reached.
func TestMaxErrorUnreachable(t *testing.T) {
	s := parse(t, `
version: 1
name: Unreachable
kernel: {type: chi2}
domain: {integers: [0, 255]}
target: {max_error: 1e-9, max_dim: 3}
method: {name: vz}
`)
	_, err := s.Design(context.Background(), Settings{})
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("error %v, want ErrUnreachable", err)
	}
	if !strings.Contains(err.Error(), "at D = 3,") {
		t.Errorf("error %v does not name the best D tried (3)", err)
	}
}

// TestMaxErrorBisection: the bracketing and bisection search returns the D
// a linear scan upward returns, with fewer designs (vz on χ² {0..255},
// max_error 0.012, which the scan meets only at D = 15 or so); and so it
// does at every boundary: max_error equal to a D's own error, and the
// next float64 below it, each give the linear scan's D (the D itself, and
// the next one), or ErrUnreachable where the scan finds none.
func TestMaxErrorBisection(t *testing.T) {
	s := parse(t, `
version: 1
name: Bisect
kernel: {type: chi2}
domain: {integers: [0, 255]}
target: {max_error: 0.012, max_dim: 31}
method: {name: vz}
`)
	d := mustDesign(t, s, Settings{})
	// The linear scan the search replaced.
	linearDim, linearDesigns := 0, 0
	for dim := 1; dim <= s.Target.MaxDim && linearDim == 0; dim++ {
		if ok, _ := s.CanMake(*s.Method, dim); !ok {
			continue
		}
		linearDesigns++
		ld, err := s.DesignDim(context.Background(), *s.Method, dim, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		if ld.Verification.Reported.LInf <= s.Target.MaxError {
			linearDim = dim
		}
	}
	if d.Search == nil {
		t.Fatal("no search recorded")
	}
	tried := len(d.Search.Tried)
	if d.Map.Dim != linearDim {
		t.Errorf("bisection returned D = %d, the linear scan D = %d", d.Map.Dim, linearDim)
	}
	if tried >= linearDesigns {
		t.Errorf("bisection designed %d maps, the linear scan %d", tried, linearDesigns)
	}
	if e := d.Verification.Reported.LInf; e > s.Target.MaxError {
		t.Errorf("returned D = %d with error %.4g above max_error", d.Map.Dim, e)
	}
	t.Logf("D = %d: bisection %d designs (%s), linear scan %d", d.Map.Dim, tried, d.Search.dims(), linearDesigns)

	// Every boundary of the linear scan.
	var dims []int
	var errs []float64
	for dim := 1; dim <= s.Target.MaxDim; dim++ {
		if ok, _ := s.CanMake(*s.Method, dim); !ok {
			continue
		}
		ld, err := s.DesignDim(context.Background(), *s.Method, dim, Settings{})
		if err != nil {
			t.Fatal(err)
		}
		dims, errs = append(dims, dim), append(errs, ld.Verification.Reported.LInf)
	}
	scan := func(maxError float64) int {
		for i, e := range errs {
			if e <= maxError {
				return dims[i]
			}
		}
		return 0
	}
	checked := 0
	for _, e := range errs {
		for _, maxError := range []float64{e, math.Nextafter(e, 0)} {
			s.Target.MaxError = maxError
			want := scan(maxError)
			d, err := s.Design(context.Background(), Settings{})
			switch {
			case want == 0 && !errors.Is(err, ErrUnreachable):
				t.Errorf("max_error %v: D %v, error %v; the linear scan meets it nowhere up to %d", maxError, d != nil && d.Map != nil, err, s.Target.MaxDim)
			case want != 0 && err != nil:
				t.Errorf("max_error %v: %v; the linear scan meets it at D = %d", maxError, err, want)
			case want != 0 && d.Map.Dim != want:
				t.Errorf("max_error %v: D = %d (tried %s); the linear scan meets it at D = %d", maxError, d.Map.Dim, d.Search.dims(), want)
			}
			checked++
		}
	}
	if checked != 2*len(dims) || len(dims) != 16 {
		t.Errorf("checked %d boundaries of %d dimensions, want both sides of all 16 odd D", checked, len(dims))
	}
}

// TestDesignSetError: a design of an optimising method states its weighted
// signature error on its own design set Z (Verification.Design, the
// "on Z" line of featmap design), measured from the map: for χ² 5D on the
// 8-bit integers Z holds the heaviest attainable λ of each cell, so its
// L∞ lies within 1 % of the same error on the ten-times denser grid
// (measured 2.5·10⁻⁵ apart relatively), and not above it by more
// than that. A closed form (vz) has no design set, and states none.
func TestDesignSetError(t *testing.T) {
	d := mustDesign(t, loadSpec(t, "specs/table1-chi2-5d.yaml"), Settings{})
	z, grid := d.Verification.Design, d.Verification.Signature
	t.Logf("on Z: %v (%d points); on the dense grid: %v (%d points)", z, z.Points, grid, grid.Points)
	if z.Points == 0 || !strings.Contains(z.On, "Z") || !z.Finite() || !(z.LInf > 0) || !(z.RMS > 0) {
		t.Fatalf("chum's design set error %+v: want a finite, nonzero error on Z's points", z)
	}
	if z.Points >= grid.Points {
		t.Errorf("Z has %d points, the dense grid %d: want a denser grid", z.Points, grid.Points)
	}
	if r := z.LInf / grid.LInf; r < 0.99 || r > 1.01 {
		t.Errorf("L∞ on Z %.6g is %.4f× the dense grid's %.6g, want within 1 %%", z.LInf, r, grid.LInf)
	}
	vz := mustDesign(t, loadSpec(t, "specs/table1-vlfeat-chi2-5d.yaml"), Settings{})
	if e := vz.Verification.Design; e.Points != 0 || e.LInf != 0 {
		t.Errorf("vz's design set error %+v, want none", e)
	}
}

// TestUnknownSolver: a Settings.Solver the build has no backend of is
// refused before anything is designed, naming the backends there are.
func TestUnknownSolver(t *testing.T) {
	s := loadSpec(t, "specs/table1-chi2-7d.yaml")
	_, err := s.Design(context.Background(), Settings{Solver: "simplex9"})
	if err == nil {
		t.Fatal("designed with an unknown backend")
	}
	for _, want := range []string{`unknown backend "simplex9"`, solver.DefaultName} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
