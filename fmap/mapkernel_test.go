package fmap

import (
	"errors"
	"strings"
	"testing"
)

// rffTestMap is a valid random-feature map of an RBF kernel of 2 inputs.
func rffTestMap() *Map {
	return &Map{Kernel: Kernel{Type: RBF, Sigma: []float64{1, 2}}, InDim: 2, Dim: 4, Method: "rff",
		Domain: Domain{Lo: []float64{0, 0}, Hi: []float64{10, 10}},
		Stages: []Stage{{Kind: &Random{Features: CosSin, Transform: Identity, In: 2, Freq: []float64{0.5, -0.25, 1, 0.125}}}}}
}

// TestCheckKernel: a map whose kernel does not fit it is a FieldError
// naming the field of the map's JSON and what is wrong — a σ list shorter
// than the inputs, no σ, a Matérn ν of no closed form, an unknown type, a
// negative σ, a polynomial of degree 0, a combined kernel without parts or
// whose parts are not the blocks, keys of another kernel, a domain the
// kernel does not take; the maps as made are accepted.
func TestCheckKernel(t *testing.T) {
	for _, c := range []struct {
		name       string
		base       func() *Map
		edit       func(m *Map)
		field, msg string
	}{
		{"short sigma", rffTestMap, func(m *Map) { m.Kernel.Sigma = m.Kernel.Sigma[:1] }, "kernel.sigma", "has 1 values for 2 input axes"},
		{"no sigma", rffTestMap, func(m *Map) { m.Kernel.Sigma = nil }, "kernel.sigma", "has 0 values"},
		{"negative sigma", rffTestMap, func(m *Map) { m.Kernel.Sigma[1] = -1 }, "kernel.sigma", "σ[1] must be > 0 and finite, not -1"},
		{"tiny sigma", rffTestMap, func(m *Map) { m.Kernel.Sigma[0] = 1e-200 }, "kernel.sigma", "σ[0] = 1e-200: sigma must lie in"},
		{"matern nu 7", rffTestMap, func(m *Map) { m.Kernel.Type, m.Kernel.Nu = Matern, 7 }, "kernel.nu", "must be 0.5, 1.5 or 2.5"},
		{"type foo", rffTestMap, func(m *Map) { m.Kernel.Type = "foo" }, "kernel.type", `unknown kernel "foo"`},
		{"poly degree 0", rffTestMap, func(m *Map) { m.Kernel = Kernel{Type: Poly, Scale: 1} }, "kernel.degree", "from 1 to 8, not 0"},
		{"gamma on rbf", rffTestMap, func(m *Map) { m.Kernel.Gamma = 2 }, "kernel.gamma", "rbf has none"},
		{"combined without parts", rffTestMap, func(m *Map) { m.Kernel = Kernel{Type: Combined} }, "kernel.parts", "without parts"},
		{"combined on a random map", rffTestMap, func(m *Map) {
			m.Kernel = Kernel{Type: Combined, Parts: []KernelPart{{Kernel: Kernel{Type: RBF, Sigma: []float64{1, 1}}, First: 0, Last: 1, Weight: 1}}}
		}, "kernel.type", "no blocks stage"},
		{"parts beyond the inputs", blocksTestMap, func(m *Map) { m.Kernel.Parts[1].First, m.Kernel.Parts[1].Last = 3, 5 }, "kernel.parts[1].last", "input 5 of 4"},
		{"parts not the blocks", blocksTestMap, func(m *Map) { m.Kernel.Parts[1].First, m.Kernel.Parts[1].Last = 2, 2 }, "kernel.parts[1].first", "block 1 maps inputs 3..3"},
		{"one part for two blocks", blocksTestMap, func(m *Map) { m.Kernel.Parts = m.Kernel.Parts[:1] }, "kernel.parts", "1 parts for the 2 blocks"},
		{"part weight", blocksTestMap, func(m *Map) { m.Kernel.Parts[0].Weight = 0.5 }, "kernel.parts[0].weight", "makes a weight of 0.6"},
		{"part kernel", blocksTestMap, func(m *Map) { m.Kernel.Parts[0].Kernel.Sigma = []float64{1, 3} }, "kernel.parts[0].kernel", "block 0 maps"},
		{"part sigma", blocksTestMap, func(m *Map) { m.Kernel.Parts[0].Kernel.Sigma = []float64{1} }, "kernel.parts[0].kernel.sigma", "1 values for 2 input axes"},
		{"blocks under rbf", blocksTestMap, func(m *Map) { m.Kernel = Kernel{Type: RBF, Sigma: []float64{1, 1, 1, 1}} }, "kernel.type", "a blocks map's kernel is combined"},
		{"skewed offset", blocksTestMap, func(m *Map) {
			m.Kernel.Parts[1].Kernel.C, m.Stages[0].Kind.(*Blocks).Parts[1].Kernel.C = -0.5, -0.5
		}, "domain.lo[3]", "x + c > 0"},
		{"chi2 on negatives", func() *Map {
			f := &Fourier{Form: FourierForm, Transform: Log, Gamma: 1, Negative: NegativeSign, Terms: []Term{{Freq: []float64{0}, Weight: 1}}}
			return NewFourierMap(Kernel{Type: Chi2, Gamma: 1}, Domain{Lo: []float64{-1}, Hi: []float64{1}}, "chum", f)
		}, nil, "domain", "negative inputs"},
	} {
		m := c.base()
		if c.edit != nil {
			c.edit(m)
		}
		err := m.CheckKernel()
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != c.field || !strings.Contains(fe.Msg, c.msg) {
			t.Errorf("%s: %v, want %s: …%s…", c.name, err, c.field, c.msg)
		}
	}
	for name, m := range map[string]*Map{"rff": rffTestMap(), "blocks": blocksTestMap()} {
		if err := m.CheckKernel(); err != nil {
			t.Errorf("%s as made: %v", name, err)
		}
	}
}
