package codegen

import (
	"flag"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/fmap"
)

func testInfo(name string) Info {
	return Info{
		Name: name, Package: "gentest", Version: "v0.0.1-test",
		SpecPath: "specs/" + strings.ToLower(name) + ".yaml", SpecHash: "sha256:0123456789abcdef",
		Spec: "a hand-made test map (codegen/internal/testmaps)",
		File: strings.ToLower(name) + ".go",
	}
}

// generatedCase is a test map with its plan, emitted source (and data
// file) and inputs.
type generatedCase struct {
	name  string
	p     *plan
	src   []byte
	extra []File
	in    *testInputs
}

func generateCases(t *testing.T, cases []testmaps.Case) []generatedCase {
	t.Helper()
	var gs []generatedCase
	for _, c := range cases {
		gs = append(gs, planCase(t, c.Name, c.Map(), Fast, sharedFiles(t, c, Fast)))
	}
	return gs
}

// generateCase emits the map m named name with tables tb.
func generateCase(t *testing.T, name string, m fmap.Verified, tb Tables) generatedCase {
	t.Helper()
	info := testInfo(name)
	info.Tables = tb
	files, err := GenerateFiles(m, info)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return planCase(t, name, m, tb, files)
}

// planCase is the generatedCase of the map m named name, emitted with
// tables tb as files.
func planCase(t *testing.T, name string, m fmap.Verified, tb Tables, files []File) generatedCase {
	t.Helper()
	info := testInfo(name)
	info.Tables = tb
	p, err := newPlan(m, info)
	if err != nil {
		t.Fatal(err)
	}
	return generatedCase{name: name, p: p, src: files[0].Data, extra: files[1:], in: inputsFor(p)}
}

// long adds to TestEmittedAgree the largest test maps (longCases) and the
// Compact and Small tables of every test map and of the shipped maps
// (tablesVariants), which the default run checks on the golden maps only:
// more of the same emitted code, and the largest part of the module the
// test compiles. CI passes it (.ci/run: go test ./codegen -run
// TestEmittedAgree -long).
var long = flag.Bool("long", false, "TestEmittedAgree: also the largest test maps, and the Compact and Small tables of every test map and of the shipped maps (CI passes it)")

// longCases are large test maps whose code paths the golden maps hold in
// every run (RBFHarmonic's, a Fourier map's interval pieces: RBF's;
// ChebInt's, an integer table: Chi2Int's): TestEmittedAgree checks them
// with -long only.
var longCases = map[string]bool{"RBFHarmonic": true, "ChebInt": true}

// tablesVariants are the maps of cases that have polynomial pieces (with
// -long; else the golden ones among them), and with -long the shipped maps
// that have them (tablesMaps), emitted with Compact and Small tables, named
// NAMECompact and NAMESmall.
func tablesVariants(t *testing.T, cases []testmaps.Case) []generatedCase {
	t.Helper()
	type named struct {
		name string
		m    func() fmap.Verified
	}
	var maps []named
	for _, c := range cases {
		if c.Golden || *long {
			maps = append(maps, named{c.Name, c.Map})
		}
	}
	if *long && !testing.Short() {
		for _, name := range tablesMaps {
			maps = append(maps, named{"Shipped" + name, func() fmap.Verified { return loadShipped(t, name) }})
		}
	}
	var gs []generatedCase
	for _, c := range maps {
		vm := c.m()
		p, err := newPlan(vm, testInfo(c.name))
		if err != nil {
			t.Fatal(err)
		}
		if p.pieces() == nil && !p.hasAxisPieces() {
			continue
		}
		for _, tb := range []Tables{Compact, Small} {
			gs = append(gs, generateCase(t, tablesID(c.name, tb), vm, tb))
		}
	}
	return gs
}

// TestEmittedAgree builds every test map's emitted code in a temporary
// module, runs go vet and the harness there (0 allocations, slice length
// panics), and checks every emitted function against m.Eval on the map's
// test inputs:
//   - NaN and ±Inf components exactly where the reference has them (for
//     random features, zeros exactly where it has zeros: an input with a
//     non-finite coordinate);
//   - float64: within the polynomial error target relative to ‖Ψ(x)‖ on the
//     pieces, within rounding (scaled by the phase size) elsewhere, and the
//     kernel error added on the domain ≤ 1e-3 × the design's L∞ error;
//   - slices: bit for bit equal to the scalar function;
//   - Nyström maps: bit for bit equal to the reference evaluator, the
//     dense ones within the bound their header states (nysDenseCheck);
//   - float32: within 2⁻²⁴ of each component plus the float64 tolerance.
//
// The maps with polynomial pieces are checked the same way emitted with
// Compact and Small tables too (tablesVariants): the golden ones in every
// run, every one and the shipped maps with -long. Under -short it checks
// the golden maps only.
func TestEmittedAgree(t *testing.T) {
	cases := testmaps.Cases()
	if !*long {
		cases = slices.DeleteFunc(cases, func(c testmaps.Case) bool { return longCases[c.Name] })
	}
	if testing.Short() {
		var golden []testmaps.Case
		for _, c := range cases {
			if c.Golden {
				golden = append(golden, c)
			}
		}
		cases = golden
	}
	gs := generateCases(t, cases)
	if !testing.Short() {
		gs = append(gs, generateCase(t, "ExpChi2HugePsi", expChi2HugePsi(), Fast))
	}
	gs = append(gs, tablesVariants(t, cases)...)
	var ems []emitted
	for _, g := range gs {
		mod := g.p.model()
		ems = append(ems, emitted{Name: g.name, In: g.p.in, Src: g.src, Extra: g.extra,
			Classes: mod != nil && mod.Classes != nil, Regression: mod != nil && mod.Classes == nil})
	}
	dir := writeModule(t, ems)
	dump := t.TempDir()
	for _, g := range gs {
		var flat []float64
		for _, x := range g.in.xs {
			flat = append(flat, x...)
		}
		writeF64(t, filepath.Join(dump, g.name+".in"), flat)
	}
	// One go command builds, vets and runs the module: -vet=all runs every
	// go vet check, -gcflags=-m prints the inliner's decisions for the
	// package under test (a separate go vet and go build loaded,
	// type-checked and compiled it again).
	start := time.Now()
	out := goRun(t, dir, []string{"FEATMAP_DUMP=" + dump, "FEATMAP_ALLOC_INPUTS=64"},
		"test", "-vet=all", "-gcflags=-m", "-count=1", "-run", "^(TestDump|TestAllocs|TestSlicePanics)$", ".")
	t.Logf("go test -vet=all -gcflags=-m: %v", time.Since(start))
	checkInlinable(t, out, gs)
	for _, g := range gs {
		t.Run(g.name, func(t *testing.T) { checkAgreement(t, g, dump) })
	}
}

// expChi2HugePsi is testmaps.ExpChi21 with the weights of its χ² map ψ
// raised to 10³⁰⁸: ψ(x) reaches 1.3·10³⁰⁸ at x = MaxFloat64, beyond the
// random stage's limit L = 2.2·10³⁰⁷, where ω·ψ overflows. It holds the
// limit on ψ's values (a value beyond ±L is taken as ±L, limit.go) to its
// promise: finite components within 1/√m.
func expChi2HugePsi() fmap.Verified {
	vm := testmaps.ExpChi21()
	m := *vm.Map
	m.Stages = slices.Clone(m.Stages)
	pc := *m.Stages[0].Kind.(*fmap.PerCoordinate)
	f := *pc.Inner.Kind.(*fmap.Fourier)
	f.Terms = slices.Clone(f.Terms)
	for i := range f.Terms {
		f.Terms[i].Weight = 1e308
	}
	pc.Inner.Kind = &f
	m.Stages[0].Kind = &pc
	return fmap.Verified{Map: &m, Verification: vm.Verification}
}

// checkInlinable checks, in the compiler's -m output for the module, that
// the N and dispatcher of every map with a table or pieces can be inlined:
// that is what makes N as cheap in a caller's loop as NSlice (see
// emitter.dispatcher); a cost above the inliner's budget would leave two
// calls per input instead of one.
func checkInlinable(t *testing.T, out string, gs []generatedCase) {
	t.Helper()
	for _, g := range gs {
		if g.p.table() == nil && g.p.pieces() == nil {
			continue
		}
		e := &emitter{p: g.p}
		for _, fn := range []string{g.p.name, e.dispatchName()} {
			if !strings.Contains(out, ": can inline "+fn+"\n") {
				t.Errorf("%s: the compiler does not inline %s", g.name, fn)
			}
		}
	}
}

func checkAgreement(t *testing.T, g generatedCase, dump string) {
	if g.p.model() != nil {
		checkModel(t, g, dump)
	}
	p, m, d := g.p, g.p.m, g.p.dim
	out64 := readF64(t, filepath.Join(dump, g.name+".out64"))
	sl64 := readF64(t, filepath.Join(dump, g.name+".slice64"))
	out32 := readF32(t, filepath.Join(dump, g.name+".out32"))
	sl32 := readF32(t, filepath.Join(dump, g.name+".slice32"))
	n := len(g.in.xs)
	if len(out64) != n*d || len(sl64) != n*d || len(out32) != n*d || len(sl32) != n*d {
		t.Fatalf("output lengths %d %d %d %d, want %d", len(out64), len(sl64), len(out32), len(sl32), n*d)
	}
	for i := range out64 {
		if !sameBits64(out64[i], sl64[i]) {
			t.Fatalf("%sSlice differs from %s at input %v", g.name, g.name, g.in.xs[i/d])
		}
		if !sameBits64(float64(out32[i]), float64(sl32[i])) {
			t.Fatalf("%sSliceF32 differs from %sF32 at input %v", g.name, g.name, g.in.xs[i/d])
		}
	}
	ref := make([]float64, d)
	var worstPiece, worstExact float64
	fails := 0
	// Beyond the limit L an input coordinate is taken as ±L, as the
	// file says: N there is N at the input within ±L, bit for bit.
	if lim := inputLimit(p); !math.IsInf(lim, 1) {
		n := 0
		for i, x := range g.in.xs[:g.in.edges] {
			c := limited(x, lim)
			if c == nil {
				continue
			}
			n++
			j := limitedIndex(g.in, c)
			for k := range d {
				if !sameBits64(out64[i*d+k], out64[j*d+k]) {
					t.Errorf("%s(%v)[%d] = %v, N at the input taken within ±L = %v: %v", g.name, x, k, out64[i*d+k], lim, out64[j*d+k])
					break
				}
			}
		}
		if n == 0 {
			t.Errorf("no input beyond the limit L = %v", lim)
		}
	}
	for i, x := range g.in.xs {
		fmap.RowFeatures(m, ref, x)
		if p.asNystroem() != nil && finiteAll(x) && !finiteAll(out64[i*d:(i+1)*d]) && !nysUndefined(p.asNystroem().s.Kernel, x) {
			if fails++; fails <= 5 {
				t.Errorf("%s(%v) = %v: non-finite components where the kernel is defined", g.name, x, out64[i*d:(i+1)*d])
			}
		}
		dense := p.asNystroem() != nil && p.asNystroem().nysDense()
		if dense {
			// A dense Nyström map's N is within the bound its file
			// states of the reference evaluator.
			if msg := nysDenseCheck(p, x, out64[i*d:(i+1)*d], ref, 0); msg != "" {
				if fails++; fails <= 5 {
					t.Errorf("%s(%v): %s", g.name, x, msg)
				}
			}
		}
		if p.asNystroem() != nil && !dense {
			// A Nyström map's N is the reference evaluator bit for bit
			// (its kernel, additive ones included, computed the same way).
			for k := range ref {
				if got := out64[i*d+k]; !sameBits64(got, ref[k]) {
					if fails++; fails <= 5 {
						t.Errorf("%s(%v): component %d is %v, the reference's %v (not bit for bit)", g.name, x, k, got, ref[k])
					}
					break
				}
			}
		}
		if rk := p.asRandom(); rk != nil && rk.staged() && rk.lin != nil {
			// A dense rf-pca map's N is within the bound its file states
			// of the reference evaluator.
			dense = true
			if msg := rfpcaDenseCheck(p, x, out64[i*d:(i+1)*d], ref, 0); msg != "" {
				if fails++; fails <= 5 {
					t.Errorf("%s(%v): %s", g.name, x, msg)
				}
			}
		}
		if msg := compare(p, x, out64[i*d:(i+1)*d], ref, 0); !dense && msg != "" {
			if fails++; fails <= 5 {
				t.Errorf("%s(%v): %s", g.name, x, msg)
			}
		}
		if rel, ok := relDiff(out64[i*d:(i+1)*d], ref); ok && phaseSize(m, x) < 1e9 {
			if p.inPieces(x) {
				worstPiece = math.Max(worstPiece, rel)
			} else {
				worstExact = math.Max(worstExact, rel)
			}
		}
	}
	var worst32 float64
	o32 := make([]float64, d)
	for i, x := range g.in.xs {
		x32 := make([]float64, len(x))
		for j, v := range x {
			x32[j] = float64(float32(v))
		}
		fmap.RowFeatures(m, ref, x32)
		for k := range o32 {
			o32[k] = float64(out32[i*d+k])
		}
		if rk := p.asRandom(); rk != nil && rk.f32 && rk.staged() {
			if msg := rfpca32Check(p, x32, o32, ref); msg != "" {
				if fails++; fails <= 10 {
					t.Errorf("%sF32(%v): %s", g.name, x32, msg)
				}
			}
		} else if rk := p.asRandom(); rk != nil && rk.f32 {
			if msg := rff32Check(p, x32, o32, ref); msg != "" {
				if fails++; fails <= 10 {
					t.Errorf("%sF32(%v): %s", g.name, x32, msg)
				}
			}
		} else if nk := p.asNystroem(); nk != nil && nk.f32 {
			if msg := nys32Check(p, x32, o32, ref); msg != "" {
				if fails++; fails <= 10 {
					t.Errorf("%sF32(%v): %s", g.name, x32, msg)
				}
			}
		} else if rk := p.asRandom(); rk != nil && rk.staged() && rk.lin != nil {
			if msg := rfpcaDenseCheck(p, x32, o32, ref, 0x1p-24); msg != "" {
				if fails++; fails <= 10 {
					t.Errorf("%sF32(%v): %s", g.name, x32, msg)
				}
			}
		} else if nk := p.asNystroem(); nk != nil && nk.nysDense() {
			if msg := nysDenseCheck(p, x32, o32, ref, 0x1p-24); msg != "" {
				if fails++; fails <= 10 {
					t.Errorf("%sF32(%v): %s", g.name, x32, msg)
				}
			}
		} else if msg := compare(p, x32, o32, ref, 0x1p-24); msg != "" {
			if fails++; fails <= 10 {
				t.Errorf("%sF32(%v): %s", g.name, x32, msg)
			}
		}
		if rel, ok := relDiff(o32, ref); ok && phaseSize(m, x32) < 1e9 && finiteAll(ref) && maxAbs(ref) < math.MaxFloat32 {
			worst32 = math.Max(worst32, rel)
		}
	}
	k64, k32, r2 := kernelErrors(g, out64, out32)
	t.Logf("‖Ψ̃−Ψ‖/‖Ψ‖: pieces %.3g (target %.3g), exact path %.3g, float32 %.3g; kernel error added on the domain: float64 %.3g, float32 %.3g (budget %.3g, max ‖Ψ‖² %.3g)",
		worstPiece, p.pieceTarget(), worstExact, worst32, k64, k32, p.budget, r2)
	if !(k64 <= p.budget) {
		t.Errorf("float64 kernel error added %.3g exceeds the budget %.3g = 1e-3 × L∞", k64, p.budget)
	}
	if lim := math.Max(p.budget, 4*0x1p-24*r2); !(k32 <= lim) {
		t.Errorf("float32 kernel error added %.3g exceeds %.3g", k32, lim)
	}
}

// nysUndefined reports whether the finite input x is one where a Nyström
// map's file allows non-finite components: a coordinate outside the
// kernel's definition (negative for an additive or the exp-χ² kernel,
// x + c < 0 for a skewed one), or where the polynomial kernel's value
// overflows (far beyond the domain bound the spec holds it to).
func nysUndefined(k fmap.Kernel, x []float64) bool {
	if k.Type == fmap.Poly && math.IsInf(k.Eval(x, x), 0) {
		return true
	}
	for _, v := range x {
		switch {
		case (k.Homogeneous() || k.Type == fmap.ExpChi2) && v < 0:
			return true
		case k.Skewed() && v+k.C < 0:
			return true
		}
	}
	return false
}

func sameBits64(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

func finiteAll(v []float64) bool {
	for _, x := range v {
		if !finite(x) {
			return false
		}
	}
	return true
}

func maxAbs(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s = math.Max(s, math.Abs(x))
	}
	return s
}

// relDiff returns ‖a − b‖/‖b‖ when both are finite and b ≠ 0.
func relDiff(a, b []float64) (float64, bool) {
	if !finiteAll(a) || !finiteAll(b) {
		return 0, false
	}
	nb := norm(b)
	if nb < 1e-280 {
		return 0, false
	}
	d := make([]float64, len(a))
	for i := range a {
		d[i] = a[i] - b[i]
	}
	return norm(d) / nb, true
}

// inPieces reports whether x is evaluated by polynomial pieces (of the map
// or of some axis).
func (p *plan) inPieces(x []float64) bool {
	for i, pc := range p.axisPieces() {
		if pc != nil {
			u := (x[i] - pc.lo) * pc.invH
			if u >= 0 && u < float64(pc.count) {
				return true
			}
		}
	}
	pc := p.pieces()
	if pc == nil || len(x) != 1 {
		return false
	}
	v := x[0]
	if p.m.Homogeneous() && p.m.Negative() == fmap.NegativeSign {
		v = math.Abs(v) // −Ψ(|x|) by the same pieces
	}
	if pc.kind == binade {
		return v > 0 && v >= pc.start() && v < pc.end()
	}
	u := (v - pc.lo) * pc.invH
	return u >= 0 && u < float64(pc.count)
}

// pieceTarget is the bound on ‖δΨ‖/‖Ψ‖ the pieces had to meet.
func (p *plan) pieceTarget() float64 {
	if p.hasAxisPieces() {
		_, target, _ := p.axisError()
		return target
	}
	if p.pieces() == nil {
		return 0
	}
	return p.pieces().target
}

// compare checks one output against the reference and returns what is
// wrong, or "". round is the relative rounding of the output type (0 for
// float64, 2⁻²⁴ for float32), allowed per component on top of the float64
// tolerance.
func compare(p *plan, x, got, ref []float64, round float64) string {
	if !finiteAll(x) && (p.asRandom() != nil || p.asNystroem() != nil || p.asAnchors() != nil) && p.in == p.m.InDim {
		// Random features and Nyström maps give zeros, as the reference
		// evaluator does; a centred rf-pca map gives P·(0 − μ), the
		// reference's value bit for bit.
		if p.asRandom() != nil && p.asRandom().centred() {
			for k := range got {
				want := ref[k]
				if round != 0 {
					want = float64(float32(want))
				}
				if !sameBits64(got[k], want) {
					return fmt.Sprintf("component %d is %v, want the reference's P·(0 − μ) = %v for a non-finite input", k, got[k], ref[k])
				}
			}
			return ""
		}
		for k := range got {
			if got[k] != 0 || ref[k] != 0 {
				return fmt.Sprintf("component %d is %v (reference %v), want 0 for a non-finite input", k, got[k], ref[k])
			}
		}
		return ""
	}
	if !finiteAll(x) && p.asAnchors() == nil {
		for k := range got {
			if !math.IsNaN(got[k]) {
				return fmt.Sprintf("component %d is %v, want NaN for a non-finite input", k, got[k])
			}
		}
		return ""
	}
	if phase := phaseSize(p.m, x); phase >= 1e9 {
		// The phases keep no correct digit (the reference's ω·x may even
		// overflow), but what the files promise holds: every component is
		// finite and bounded by its term's √α (by √(2/m) or 1/√m for
		// random features, ‖z‖ + ‖μ‖ after a projection), and ‖Ψ‖² by
		// their sum. An axis in the domain takes its cos/sin values from
		// the pieces, which may pass 1 by their error target.
		bounds, total := componentBounds(p)
		slack := 1e-9 + round
		var pieces float64
		if p.inPieces(x) {
			pieces = p.pieceTarget() * math.Sqrt(total)
		}
		n2 := 0.0
		for k := range got {
			if b := bounds[k]*(1+slack) + pieces; !(math.Abs(got[k]) <= b) {
				return fmt.Sprintf("component %d is %v, want a finite value within %v (its term's bound)", k, got[k], b)
			}
			n2 += got[k] * got[k]
		}
		if lim := total*(1+2*slack) + 2*pieces*math.Sqrt(total) + pieces*pieces; !(n2 <= lim) {
			return fmt.Sprintf("‖Ψ‖² = %v, want at most %v", n2, lim)
		}
		return ""
	}
	if (p.form() == fmap.LiSeries || p.form() == fmap.Chebyshev) && !finiteAll(ref) && math.Abs(x[0]) > 1e300 {
		// fmap.Map.Eval overflows (p·2·√k·x, 2·x) for such x where
		// the emitted code returns the finite value (x/(x+k) ≤ 1).
		if !finiteAll(got) {
			return fmt.Sprintf("got %v, want finite components", got)
		}
		return ""
	}
	for k := range ref {
		if math.IsNaN(ref[k]) != math.IsNaN(got[k]) {
			return fmt.Sprintf("component %d is %v, want %v", k, got[k], ref[k])
		}
	}
	if !finiteAll(ref) {
		for k := range ref {
			if !math.IsNaN(ref[k]) && ref[k] != got[k] {
				return fmt.Sprintf("component %d is %v, want %v", k, got[k], ref[k])
			}
		}
		return ""
	}
	if round != 0 && maxAbs(ref) >= math.MaxFloat32 {
		return "" // beyond float32: Inf components are the right rounding
	}
	if !finiteAll(got) {
		return fmt.Sprintf("got %v, want the finite %v", got, ref)
	}
	nrm := norm(ref)
	if p.asRandom() != nil && p.asRandom().lin != nil {
		// An rf-pca map's projection adds no rounding of its own (each
		// output is the reference's sum in the reference's order), but it
		// carries the random features' rounding, ‖δΨ‖ ≤ ‖δz‖, whose scale
		// is ‖z‖ (≤ √2), not ‖Ψ‖.
		nrm = math.Max(nrm, math.Sqrt2)
	}
	rel := 2e-15 * (32 + 4*phaseSize(p.m, x))
	if p.inPieces(x) {
		rel = p.pieceTarget()
	}
	for k := range ref {
		// 1e-300: subnormal results keep few significant bits in any
		// evaluation.
		tol := rel*nrm + round*math.Abs(ref[k]) + 1e-300
		if round != 0 {
			tol += 0x1p-149 // float32 subnormal spacing
		}
		if d := math.Abs(got[k] - ref[k]); !(d <= tol) {
			return fmt.Sprintf("component %d is %v, want %v (difference %.3g > tolerance %.3g)", k, got[k], ref[k], d, tol)
		}
	}
	return ""
}

// norm is the Euclidean norm of v, without underflow for tiny components.
func norm(v []float64) float64 {
	s := maxAbs(v)
	if s == 0 || math.IsInf(s, 0) {
		return s
	}
	q := 0.0
	for _, x := range v {
		q += (x / s) * (x / s)
	}
	return s * math.Sqrt(q)
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// checkModel checks the predictor of a map with a model: every score
// within 1e-12, relative to the sum's scale (|b_c| + Σ_j |w_jc·Ψ_j(x)|),
// of fmap.LinearModel.Scores of the emitted Ψ(x) on every input, and of
// the reference m.Eval's on the inputs whose phases are below 1e9 (beyond,
// Ψ itself differs from the reference by more than rounding; see
// compare); and NClass the label of the largest emitted score.
func checkModel(t *testing.T, g generatedCase, dump string) {
	m, mod := g.p.m, g.p.model()
	k, d := mod.Outputs(), m.Dim
	sc := readF64(t, filepath.Join(dump, g.name+".scores"))
	cl := readF64(t, filepath.Join(dump, g.name+".class"))
	psi := readF64(t, filepath.Join(dump, g.name+".out64"))
	n := len(g.in.xs)
	if len(sc) != n*k || len(cl) != n || len(psi) != n*d {
		t.Fatalf("%d scores, %d classes and %d components for %d inputs, %d outputs and D = %d", len(sc), len(cl), len(psi), n, k, d)
	}
	z, ref := make([]float64, d), make([]float64, k)
	var worst float64
	checked := 0
	within := func(what string, x, got, ref, z []float64) {
		for c := range k {
			if math.IsNaN(got[c]) && math.IsNaN(ref[c]) {
				continue // a NaN Ψ (an input beyond what the phases can hold), as the reference has
			}
			scale := math.Abs(mod.Bias[c])
			for j, zj := range z {
				scale += math.Abs(mod.W[j*k+c] * zj)
			}
			rel := math.Abs(got[c]-ref[c]) / scale
			if !(rel <= 1e-12) {
				t.Fatalf("%s's score %d at %v is %v, %s %v (relative %.3g)", g.name, c, x, got[c], what, ref[c], rel)
			}
			worst = max(worst, rel)
		}
	}
	for i, x := range g.in.xs {
		got := sc[i*k : (i+1)*k]
		mod.Scores(ref, psi[i*d:(i+1)*d])
		within("the model of the emitted Ψ gives", x, got, ref, psi[i*d:(i+1)*d])
		if phaseSize(g.p.m, x) < 1e9 {
			m.Eval(z, x)
			mod.Scores(ref, z)
			within("the reference gives", x, got, ref, z)
			checked++
		}
		if mod.Classes != nil {
			if want := mod.Class(got); cl[i] != want {
				t.Fatalf("%sClass(%v) = %v, want %v, the label of the largest of %v", g.name, x, cl[i], want, got)
			}
		}
	}
	if checked < n/2 {
		t.Fatalf("only %d of %d inputs compared with the reference", checked, n)
	}
	t.Logf("%d inputs (%d against the reference): scores within %.3g, relative to their sums' scale", n, checked, worst)
}
