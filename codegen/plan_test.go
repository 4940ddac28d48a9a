package codegen

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
)

func TestFindLadder(t *testing.T) {
	const step = 0.5510019489889677
	l := findLadder([]float64{step, 2 * step, 3 * step})
	if l == nil || l.base != step || l.top != 3 || l.mult[0] != 1 || l.mult[2] != 3 {
		t.Errorf("VZ frequencies: ladder %+v, want base %v, multiples 1..3", l, step)
	}
	if l := findLadder([]float64{2 * step, 3 * step}); l == nil || l.top != 3 || l.mult[0] != 2 {
		t.Errorf("{2L, 3L}: ladder %+v, want multiples 2, 3 of L", l)
	}
	if l := findLadder([]float64{1.6072094369295384, 3.224073745080786, 4.8612860589077656}); l != nil {
		t.Errorf("off-grid frequencies give the ladder %+v", l)
	}
	if l := findLadder([]float64{1}); l != nil {
		t.Errorf("one frequency gives the ladder %+v", l)
	}
	if l := findLadder([]float64{1, 100}); l != nil {
		t.Errorf("{1, 100} gives the ladder %+v: 99 recurrence steps cost more than a sincos", l)
	}
}

func TestInterpolate(t *testing.T) {
	// A cubic through 4 Chebyshev nodes is reproduced exactly.
	c := []float64{0.3, -1.25, 2.5, 0.75}
	s := make([]float64, 4)
	v := make([][]float64, 4)
	for j := range s {
		s[j] = 0.5 * math.Cos(math.Pi*(float64(j)+0.5)/4)
		v[j] = []float64{((c[3]*s[j]+c[2])*s[j]+c[1])*s[j] + c[0]}
	}
	got := interpolate(s, v, 1)[0]
	for p := range c {
		if math.Abs(got[p]-c[p]) > 1e-13 {
			t.Errorf("coefficient %d: %v, want %v", p, got[p], c[p])
		}
	}
}

// TestBinadeLocalVariable checks that the piece index and local variable
// the emitted code computes from the bits match the grid the fit used.
func TestBinadeLocalVariable(t *testing.T) {
	p, err := newPlan(testmaps.Chi2Interval(), testInfo("X"))
	if err != nil {
		t.Fatal(err)
	}
	pc := p.pieces()
	if pc == nil || pc.kind != binade {
		t.Fatalf("Chi2Interval has pieces %+v, want binade pieces", pc)
	}
	g := binadeGrid{}
	r := rand.New(rand.NewPCG(3, 4))
	for range 10000 {
		i := r.IntN(pc.count)
		s := r.Float64() - 0.5
		x, sx := g.at(pc, i, s)
		if got := math.Float64bits(x)>>(mantBits-pc.k) - pc.first; got != uint64(i) {
			t.Fatalf("x = %v: index %d, want %d", x, got, i)
		}
		if got := sOfBinade(x, pc.k); got != sx {
			t.Fatalf("x = %v: local variable %v, want %v", x, got, sx)
		}
	}
	if !(pc.start() <= 0.001 && pc.end() > 1) {
		t.Errorf("pieces cover [%v, %v), not the domain [0.001, 1]", pc.start(), pc.end())
	}
}

// TestPlanChoices checks which fast path each form gets.
func TestPlanChoices(t *testing.T) {
	for _, c := range []struct {
		name    string
		table   bool
		pieces  bool
		kind    pieceKind
		ladder  bool
		perTerm bool
	}{
		{"Chi2Int", true, false, 0, false, false},
		{"Chi2Interval", false, true, binade, false, false},
		{"Chi2Wide", false, true, binade, false, false},
		{"VZ", false, true, binade, true, false},
		{"VZInt", true, false, 0, true, false},
		{"Li", false, false, 0, false, false},
		{"Cheb", false, false, 0, false, false},
		{"RBF", false, true, uniform, false, false},
		{"RBFHarmonic", false, true, uniform, true, false},
		{"Proj2", false, false, 0, false, false},
		{"Mod2", false, false, 0, false, false},
		{"Proj3", false, false, 0, false, false},
		{"ProjWide", false, false, 0, false, true},
	} {
		var p *plan
		for _, tc := range testmaps.Cases() {
			if tc.Name == c.name {
				var err error
				if p, err = newPlan(tc.Map(), testInfo(c.name)); err != nil {
					t.Fatal(err)
				}
			}
		}
		if p == nil {
			t.Fatalf("no test map %s", c.name)
		}
		if (p.table() != nil) != c.table {
			t.Errorf("%s: table %v, want %v", c.name, p.table() != nil, c.table)
		}
		if (p.pieces() != nil) != c.pieces || (p.pieces() != nil && p.pieces().kind != c.kind) {
			t.Errorf("%s: pieces %+v, want %v (kind %d)", c.name, p.pieces() != nil, c.pieces, c.kind)
		}
		if p.pieces() != nil && !(p.pieces().err <= p.pieces().target && p.pieces().addedError() <= p.budget/safety) {
			t.Errorf("%s: pieces error %v (target %v) adds %v, more than the budget/%d %v", c.name, p.pieces().err, p.pieces().target, p.pieces().addedError(), safety, p.budget/safety)
		}
		ladder := len(p.axes()) > 0 && p.axes()[0].ladder != nil
		if ladder != c.ladder {
			t.Errorf("%s: ladder %v, want %v", c.name, ladder, c.ladder)
		}
		if p.perTerm() != c.perTerm {
			t.Errorf("%s: per-term sincos %v, want %v", c.name, p.perTerm(), c.perTerm)
		}
	}
}

// TestRelativeNDScale: a map of several axes measured by the relative
// error gets per-axis pieces whose scale bounds ‖Ψ(x)‖‖Ψ(y)‖/K(x, y) on
// the domain (polyScale's premise, checked on a 21² grid of inputs by
// the reference evaluator and the exact kernel), and emits. polyScale
// took the 1-D signature at λ = (0) and indexed past it: gen panicked on
// every such map (index out of range [1] with length 1).
func TestRelativeNDScale(t *testing.T) {
	vm := testmaps.Mod2Rel()
	info := testInfo("Mod2Rel")
	if _, err := GenerateFiles(vm, info); err != nil {
		t.Fatal(err)
	}
	p, err := newPlan(vm, info)
	if err != nil {
		t.Fatal(err)
	}
	if !p.asFourier().allAxisPieces() {
		t.Fatalf("axis pieces %v, want pieces on both axes", p.axisPieces())
	}
	m := vm.Map
	var xs [][]float64
	for i := range 21 {
		for j := range 21 {
			xs = append(xs, []float64{float64(i) / 20, float64(j) / 20})
		}
	}
	psi := make([][]float64, len(xs))
	for i, x := range xs {
		psi[i] = make([]float64, m.Dim)
		m.Eval(psi[i], x)
	}
	worst := 0.0
	for i := range xs {
		for j := range xs {
			worst = math.Max(worst, norm(psi[i])*norm(psi[j])/m.Kernel.Eval(xs[i], xs[j]))
		}
	}
	scale := p.axisPieces()[0].scale
	if !(scale >= worst*(1-1e-12)) {
		t.Errorf("pieces' scale %.6g, but ‖Ψ(x)‖‖Ψ(y)‖/K reaches %.6g", scale, worst)
	}
	if _, _, added := p.axisError(); !(added <= p.budget) {
		t.Errorf("the pieces add up to %.3g, budget %.3g", added, p.budget)
	}
	t.Logf("scale %.6g (largest ‖Ψ(x)‖‖Ψ(y)‖/K on the grid %.6g)", scale, worst)
}
