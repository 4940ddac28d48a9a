package fmap

import (
	"errors"
	"fmt"
	"math"
	"strings"
)

// Blocks is a map of column groups (the multiple-kernel map of Băzăvan et
// al. §3.3, eq. 13): block g maps the inputs x_{First..Last} by its own
// stages ψ_g and scales them by its Scale s_g, and the blocks' outputs are
// concatenated,
//
//	Ψ(x) = [s_1 ψ_1(x_{G_1}), …, s_k ψ_k(x_{G_k})],   Ψ(x)·Ψ(y) = Σ_g s_g² ψ_g(x_{G_g})·ψ_g(y_{G_g}),
//
// a map of the kernel Σ_g s_g² K_g on the groups (a Combined kernel with
// weights d_g = s_g²). A blocks stage is a map's only stage.
type Blocks struct {
	Parts []Block `json:"parts"`
}

// Block is one column group of a blocks stage: its inputs x_{First..Last}
// (0-based, inclusive), the kernel K_g its stages approximate (unweighted),
// the scale s_g = √d_g of its outputs and its stages (an rff map's: random
// features, after a per-coordinate stage for exp-χ²).
type Block struct {
	First  int     `json:"first"`
	Last   int     `json:"last"`
	Kernel Kernel  `json:"kernel"`
	Scale  float64 `json:"scale"`
	Stages []Stage `json:"stages"`
}

// In is the number of the block's inputs.
func (b *Block) In() int { return b.Last - b.First + 1 }

// Dim is the number of the block's outputs.
func (b *Block) Dim() int {
	in := b.In()
	for _, st := range b.Stages {
		in = st.out(in)
	}
	return in
}

// Dim is the number of components: the sum of the blocks'.
func (s *Blocks) Dim() int {
	d := 0
	for i := range s.Parts {
		d += s.Parts[i].Dim()
	}
	return d
}

// out is the number of components, Dim.
func (s *Blocks) out(int) int { return s.Dim() }

func (s *Blocks) validate(in int) error {
	if len(s.Parts) == 0 {
		return errors.New("fmap: a blocks stage without blocks")
	}
	for g := range s.Parts {
		b := &s.Parts[g]
		switch {
		case b.First < 0 || b.Last < b.First || b.Last >= in:
			return fmt.Errorf("fmap: block %d has inputs [%d, %d] of %d", g, b.First, b.Last, in)
		case !(b.Scale > 0) || math.IsInf(b.Scale, 0):
			return fmt.Errorf("fmap: block %d has scale %v", g, b.Scale)
		case len(b.Stages) == 0:
			return fmt.Errorf("fmap: block %d has no stages", g)
		}
		for h := range g {
			if o := &s.Parts[h]; b.First <= o.Last && o.First <= b.Last {
				return fmt.Errorf("fmap: blocks %d and %d overlap", h, g)
			}
		}
		if err := b.Kernel.Check(b.In()); err != nil {
			return fmt.Errorf("fmap: block %d: %w", g, err)
		}
		n := b.In()
		for _, st := range b.Stages {
			if _, ok := st.Kind.(*Blocks); ok {
				return fmt.Errorf("fmap: block %d holds a blocks stage", g)
			}
			if err := st.validate(n); err != nil {
				return fmt.Errorf("fmap: block %d: %w", g, err)
			}
			n = st.out(n)
		}
	}
	return nil
}

// eval writes every block's scaled output, in order.
func (s *Blocks) eval(dst, x []float64) {
	o := 0
	for g := range s.Parts {
		b := &s.Parts[g]
		z := dst[o : o+b.Dim()]
		evalStages(b.Stages, z, x[b.First:b.Last+1])
		for i := range z {
			z[i] *= b.Scale
		}
		o += len(z)
	}
}

// Blocks returns the map's blocks stage if it is a one-stage blocks map,
// else nil.
func (m *Map) Blocks() *Blocks { return stageOf[*Blocks](m) }

// BlockMap returns block g of a blocks map as a map of its own inputs: its
// kernel, its part of the domain and its stages, unscaled (Ψ's components
// of the block are Scale times the block map's).
func (m *Map) BlockMap(g int) *Map {
	b := &m.Blocks().Parts[g]
	d := Domain{Integer: m.Domain.Integer, Lo: m.Domain.Lo[b.First : b.Last+1 : b.Last+1], Hi: m.Domain.Hi[b.First : b.Last+1 : b.Last+1]}
	return &Map{Kernel: b.Kernel, InDim: b.In(), Dim: b.Dim(), Domain: d.Clone(), Method: m.Method, Stages: b.Stages}
}

// Combined is the type of a kernel that is a weighted sum of kernels on
// column groups, Σ_g d_g K_g(x_{G_g}, y_{G_g}) (multiple kernel learning,
// Băzăvan et al. §3.3): the kernel of a blocks map. It is not a spec's
// kernel type; rff-group-lasso makes it from the kernels it keeps.
const Combined = "combined"

// KernelPart is one term d_g K_g of a Combined kernel: K_g on the inputs
// First..Last (0-based, inclusive) with weight d_g.
type KernelPart struct {
	Kernel Kernel  `json:"kernel"`
	First  int     `json:"first"`
	Last   int     `json:"last"`
	Weight float64 `json:"weight"`
}

// checkCombined reports why a Combined kernel is not one of n inputs: a
// *KeyError at parts, or at the key of part g (parts[g].first,
// parts[g].kernel.sigma, …).
func (k Kernel) checkCombined(n int) error {
	if len(k.Parts) == 0 {
		return &KeyError{Key: "parts", Msg: "a combined kernel without parts"}
	}
	for g, p := range k.Parts {
		at := fmt.Sprintf("parts[%d]", g)
		bad := func(key, format string, a ...any) error {
			return &KeyError{Key: at + key, Msg: fmt.Sprintf(format, a...)}
		}
		switch {
		case p.First < 0 || p.First >= n:
			return bad(".first", "input %d of %d (inputs 0..%d)", p.First, n, n-1)
		case p.Last < p.First || p.Last >= n:
			return bad(".last", "input %d of %d, from first %d (inputs 0..%d)", p.Last, n, p.First, n-1)
		case !(p.Weight > 0) || math.IsInf(p.Weight, 0):
			return bad(".weight", "%v (want positive and finite)", p.Weight)
		case p.Kernel.Type == Combined || p.Kernel.Homogeneous():
			return bad(".kernel.type", "%s (want rbf, a skewed kernel or exp-chi2)", p.Kernel.Type)
		}
		for h := range g {
			if o := k.Parts[h]; p.First <= o.Last && o.First <= p.Last {
				return bad("", "inputs %d..%d overlap part %d's, %d..%d", p.First, p.Last, h, o.First, o.Last)
			}
		}
		if err := p.Kernel.Check(p.Last - p.First + 1); err != nil {
			var ke *KeyError
			if errors.As(err, &ke) {
				return bad(".kernel."+ke.Key, "%s", ke.Msg)
			}
			return err
		}
	}
	return nil
}

// evalCombined is Σ_g d_g K_g(x_{G_g}, y_{G_g}).
func (k Kernel) evalCombined(x, y []float64) float64 {
	s := 0.0
	for _, p := range k.Parts {
		s += p.Weight * p.Kernel.Eval(x[p.First:p.Last+1], y[p.First:p.Last+1])
	}
	return s
}

// describeCombined names a Combined kernel's terms.
func (k Kernel) describeCombined() string {
	var terms []string
	for _, p := range k.Parts {
		terms = append(terms, fmt.Sprintf("%.6g·%s on x_%d..x_%d", p.Weight, p.Kernel.Describe(), p.First, p.Last))
	}
	return "combined kernel " + strings.Join(terms, " + ")
}

// combinedFamily is the family of the combined kernel: its parts.
type combinedFamily struct{}

// Types are combined.
func (combinedFamily) Types() []string { return []string{Combined} }

// Keys are parts.
func (combinedFamily) Keys() []string { return []string{"parts"} }

func (combinedFamily) named() string { return "a combined kernel" }

func (combinedFamily) check(k Kernel, n int) error { return k.checkCombined(n) }

func (combinedFamily) eval(k Kernel, x, y []float64) float64 { return k.evalCombined(x, y) }

// signature is NaN: a combined kernel has none.
func (combinedFamily) signature(Kernel, []float64) float64 { return math.NaN() }

func (combinedFamily) describe(k Kernel) string { return k.describeCombined() }

// needsNonnegative reports whether some input of the kernel must be ≥ 0
// (exp-χ², alone or in a combined kernel).
func (k Kernel) needsNonnegative() bool {
	if k.Type == ExpChi2 {
		return true
	}
	for _, p := range k.Parts {
		if p.Kernel.needsNonnegative() {
			return true
		}
	}
	return false
}
