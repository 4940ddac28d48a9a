package fmap

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// blocksTestMap: an rbf random map on x_0..x_1 (weight 0.6) and a skewed
// χ² phase map on x_3 (weight 0.3); x_2 belongs to no block.
func blocksTestMap() *Map {
	r := rand.New(rand.NewPCG(1, 2))
	rbf := &Random{Features: CosSin, Transform: Identity, In: 2, Freq: make([]float64, 2*8)}
	for i := range rbf.Freq {
		rbf.Freq[i] = r.NormFloat64()
	}
	skew := &Random{Features: Phase, Transform: LogOffset, Offset: 0.5, In: 1, Freq: make([]float64, 6), Phase: make([]float64, 6)}
	for i := range skew.Freq {
		skew.Freq[i], skew.Phase[i] = r.NormFloat64(), 2*math.Pi*r.Float64()
	}
	k0 := Kernel{Type: RBF, Sigma: []float64{1, 1}}
	k1 := Kernel{Type: SkewedChi2, Sigma: []float64{1}, C: 0.5}
	return &Map{
		Kernel: Kernel{Type: Combined, Parts: []KernelPart{{Kernel: k0, First: 0, Last: 1, Weight: 0.6}, {Kernel: k1, First: 3, Last: 3, Weight: 0.3}}},
		InDim:  4, Dim: 22, Domain: Domain{Lo: []float64{0, 0, 0, 0}, Hi: []float64{1, 1, 1, 1}}, Method: "rff-group-lasso",
		Stages: []Stage{{Kind: &Blocks{Parts: []Block{
			{First: 0, Last: 1, Kernel: k0, Scale: math.Sqrt(0.6), Stages: []Stage{{Kind: rbf}}},
			{First: 3, Last: 3, Kernel: k1, Scale: math.Sqrt(0.3), Stages: []Stage{{Kind: skew}}},
		}}}},
	}
}

// TestBlocksEval: a blocks map's Ψ is every block's map of its columns
// times its scale, concatenated; Ψ·Ψ = Σ_g s_g² ψ_g·ψ_g; the combined
// kernel is Σ_g d_g K_g; the map round-trips through JSON.
func TestBlocksEval(t *testing.T) {
	m := blocksTestMap()
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	x, y := []float64{0.1, 0.7, 0.3, 0.9}, []float64{0.4, 0.2, 0.8, 0.05}
	psi := make([]float64, m.Dim)
	m.Eval(psi, x)
	z0, z1 := make([]float64, 16), make([]float64, 6)
	m.BlockMap(0).Eval(z0, x[0:2])
	m.BlockMap(1).Eval(z1, x[3:4])
	for j, v := range z0 {
		if psi[j] != v*math.Sqrt(0.6) {
			t.Fatalf("component %d: %v, want block 0's %v × √0.6", j, psi[j], v)
		}
	}
	for j, v := range z1 {
		if psi[16+j] != v*math.Sqrt(0.3) {
			t.Fatalf("component %d: %v, want block 1's %v × √0.3", 16+j, psi[16+j], v)
		}
	}
	want := 0.6*m.BlockMap(0).Dot(x[0:2], y[0:2]) + 0.3*m.BlockMap(1).Dot(x[3:4], y[3:4])
	if got := m.Dot(x, y); math.Abs(got-want) > 1e-15 {
		t.Errorf("Ψ·Ψ %v, Σ d_g ψ_g·ψ_g %v", got, want)
	}
	k := m.Kernel
	wantK := 0.6*k.Parts[0].Kernel.Eval(x[0:2], y[0:2]) + 0.3*k.Parts[1].Kernel.Eval(x[3:4], y[3:4])
	if got := k.Eval(x, y); got != wantK {
		t.Errorf("combined kernel %v, want %v", got, wantK)
	}
	if d := k.Describe(); !strings.Contains(d, "0.6·RBF kernel") || !strings.Contains(d, "on x_3..x_3") {
		t.Errorf("Describe: %q", d)
	}
	back := jsonRoundTrip(t, m)
	got := make([]float64, m.Dim)
	back.Eval(got, x)
	for j := range got {
		if got[j] != psi[j] {
			t.Fatalf("after JSON, component %d: %v, want %v", j, got[j], psi[j])
		}
	}
}

// TestBlocksValidate: bad blocks and combined kernels are errors naming
// what is wrong.
func TestBlocksValidate(t *testing.T) {
	for name, c := range map[string]struct {
		edit func(m *Map)
		want string
	}{
		"overlap":     {func(m *Map) { m.Blocks().Parts[1].First = 1; m.Blocks().Parts[1].Last = 1 }, "overlap"},
		"outside":     {func(m *Map) { m.Blocks().Parts[1].First, m.Blocks().Parts[1].Last = 4, 4 }, "inputs [4, 4] of 4"},
		"zero scale":  {func(m *Map) { m.Blocks().Parts[0].Scale = 0 }, "scale 0"},
		"no blocks":   {func(m *Map) { m.Blocks().Parts = nil }, "without blocks"},
		"nested":      {func(m *Map) { p := &m.Blocks().Parts[0]; p.Stages = append(p.Stages, m.Stages[0]) }, "holds a blocks stage"},
		"dimension":   {func(m *Map) { m.Dim = 21 }, "its stages give 22"},
		"part weight": {func(m *Map) { m.Kernel.Parts[0].Weight = -1 }, "parts[0].weight: -1"},
		"part kernel": {func(m *Map) { m.Kernel.Parts[0].Kernel = Kernel{Type: Chi2} }, "parts[0].kernel.type: chi2"},
	} {
		m := blocksTestMap()
		c.edit(m)
		err := m.Validate()
		if name == "part weight" || name == "part kernel" {
			err = m.Kernel.Check(m.InDim)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, c.want)
		}
	}
}
