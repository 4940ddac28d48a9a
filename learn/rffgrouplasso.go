package learn

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/design/learnplan"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/sampled"
)

// This file holds the method rff-group-lasso: the map of the kernels a
// group lasso keeps (Learn learns them, Design makes the map).

// RFFGroupLassoOptions are the options of method rff-group-lasso (the
// method section of a spec with kernels).
type RFFGroupLassoOptions struct {
	// DimPerKernel is every kernel's number of random features (even:
	// cos-sin pairs).
	DimPerKernel int `yaml:"dim_per_kernel" spec:"min=2,max=65536"`
	// Lambda is the group penalty λ; 0 (lambda: auto, or not given)
	// chooses it on a validation split of the rows to fit.
	Lambda float64 `yaml:"lambda" spec:"positive,auto"`
	// Seed seeds the split, and kernel g's features with Seed + g
	// (default 1).
	Seed int64 `yaml:"seed"`
}

// SetDefaults sets the seed's default, 1.
func (o *RFFGroupLassoOptions) SetDefaults() {
	if o.Seed == 0 {
		o.Seed = 1
	}
}

// RFFGroupLasso makes the map of the kernels a group lasso kept (method
// "rff-group-lasso", a spec's kernels section): Learn learns, from
// labelled rows, the weights d_g of G kernels on column groups
// (GroupLasso, Băzăvan et al. §3.3) and returns the method with the kept
// kernels' blocks, for the problem of the learned combined kernel
// Σ_g d_g K_g; Design then makes its map, one fmap.Blocks stage: block g is
// rff's map z_g of kernel g on its columns with scale √d_g, so that
//
//	Ψ(x) = [√d_1 z_1(x_1), …, √d_k z_k(x_k)],  Ψ(x)·Ψ(y) = Σ_g d_g z_g(x_g)·z_g(y_g) ≈ Σ_g d_g K_g(x_g, y_g),
//
// eq. 13's MKL feature map [√d_1 ψ_1, …, √d_k ψ_k] with d_g = ‖w_g‖/√2,
// the d at which eq. 16 holds with equality (KernelWeights). The d_g are
// on the scale of the library's objective (½‖ZW − Y‖²/N + λΣ‖W_g‖, so
// C = √2/λ with the loss averaged over the rows): their shares d_g/Σd
// (KernelShares) are scale-free, their sum is not 1. Before learning it
// applies to no problem a spec states, and makes no dimension: it says
// why (Applies, Dims).
type RFFGroupLasso struct {
	Opts RFFGroupLassoOptions
	// Blocks are the kept kernels' blocks, in the spec's order: set by
	// Learn on the method it returns, nil before.
	Blocks []fmap.Block
}

// The interfaces RFFGroupLasso implements (design/doc.go lists them).
var (
	_ design.Method    = (*RFFGroupLasso)(nil)
	_ design.Defaulter = (*RFFGroupLassoOptions)(nil)
)

// Name returns "rff-group-lasso".
func (*RFFGroupLasso) Name() string { return "rff-group-lasso" }

// Options returns the options: the kernels' features, λ and the seed.
func (m *RFFGroupLasso) Options() any { return &m.Opts }

// Applies accepts the combined kernel a group lasso learned only: the
// method needs a spec's kernels section and labelled data to learn it
// from.
func (*RFFGroupLasso) Applies(p *fmap.Problem) error {
	if p.Kernel.Type != fmap.Combined {
		return fmt.Errorf("rff-group-lasso makes the map of the kernels it learns from labelled data (a spec's kernels section with data and label_column), not of %s", p.Kernel.Type)
	}
	return nil
}

// dim is the map's dimension: the kept blocks' features.
func (m *RFFGroupLasso) dim() int {
	d := 0
	for i := range m.Blocks {
		d += m.Blocks[i].Dim()
	}
	return d
}

// Dims is the one dimension of the kept blocks, or none before learning.
func (m *RFFGroupLasso) Dims(*fmap.Problem) design.Dims {
	if m.Blocks == nil {
		return design.Dims{Only: []int{}, Why: "rff-group-lasso's map has dim_per_kernel features per kernel the group lasso keeps: its D is known once it has learned (a spec's kernels section)"}
	}
	return design.Dims{Only: []int{m.dim()}, Why: fmt.Sprintf("rff-group-lasso's map has dim_per_kernel features per kept kernel: D = %d", m.dim())}
}

// Design returns the map of the kept blocks.
func (m *RFFGroupLasso) Design(_ context.Context, p *fmap.Problem, dim int, _ design.Settings) (*design.Result, error) {
	if err := m.Applies(p); err != nil {
		return nil, err
	}
	if dim != m.dim() {
		return nil, fmt.Errorf("featmap: rff-group-lasso: %s", m.Dims(p).Why)
	}
	blocks := &fmap.Blocks{Parts: slices.Clone(m.Blocks)}
	mp := &fmap.Map{Kernel: p.Kernel, InDim: p.InDim(), Dim: dim, Domain: p.Domain.Clone(), Method: m.Name(), Stages: []fmap.Stage{{Kind: blocks}}}
	if err := mp.Validate(); err != nil {
		return nil, err
	}
	return &design.Result{Map: mp}, nil
}

// Learn runs the group lasso of l.Kernels (column groups of the problem's
// inputs, relative to the data's first column as the rows are) on the rows
// to fit of its data and their labels (the held-out rows are never seen;
// labels are classes as learnplan.Classes says), and returns the combined
// kernel Σ_g d_g K_g of the kept kernels (fmap.Combined) and a new method
// with their blocks, of dimension DimPerKernel per kept kernel; m is left
// as it is.
//
// Every kernel's features are rff's map of it on its column group (its
// part of p's domain) at DimPerKernel with seed Seed+g (for exp-chi2 after
// rff's inner χ² map, whose stage the group lasso applies to the rows
// first), so that the kept blocks of the map are exactly the features the
// group lasso weighed.
func (m *RFFGroupLasso) Learn(ctx context.Context, l design.Learning) (*design.Learned, error) {
	p, progress := l.Problem, l.Progress
	kernels, ok := l.Options.([]KernelGroup)
	if !ok {
		return nil, fmt.Errorf("the group lasso takes []learn.KernelGroup, not %T", l.Options)
	}
	d := p.Data
	maps, err := m.kernelMaps(ctx, p, kernels)
	if err != nil {
		return nil, err
	}
	groups := slices.Clone(kernels)
	for g := range groups {
		if groups[g].Kernel.Type == fmap.ExpChi2 {
			groups[g].Inner = &maps[g].Stages[0]
		}
	}
	res, err := GroupLasso(ctx, d.Fit, d.FitLabels, GroupLassoOptions{
		Kernels: groups, DimPerKernel: m.Opts.DimPerKernel, Lambda: m.Opts.Lambda, Seed: m.Opts.Seed, Classes: learnplan.Classes(d.FitLabels), Progress: progress,
	})
	if err != nil {
		return nil, fmt.Errorf("group lasso on %s: %w", d.File, err)
	}
	method := &RFFGroupLasso{Opts: m.Opts}
	var parts []fmap.KernelPart
	for g, k := range kernels {
		if res.Zero[g] {
			continue
		}
		w := res.KernelWeights[g]
		a, b := k.Columns[0], k.Columns[1]
		method.Blocks = append(method.Blocks, fmap.Block{First: a, Last: b, Kernel: maps[g].Kernel, Scale: math.Sqrt(w), Stages: maps[g].Stages})
		parts = append(parts, fmap.KernelPart{Kernel: maps[g].Kernel, First: a, Last: b, Weight: w})
	}
	if len(parts) == 0 {
		if m.Opts.Lambda == 0 {
			// λ was chosen (auto): no smaller one to give.
			return nil, fmt.Errorf("group lasso on %s: every kernel's group is zero at the λ = %.4g chosen on the validation rows: no kernel's features predict the labels there (are the features all zero, the kernels' widths far from the data's scale?)", d.File, res.Lambda)
		}
		return nil, fmt.Errorf("group lasso on %s: every kernel's group is zero at λ = %.4g: there is no map to make (give a smaller method.lambda)", d.File, res.Lambda)
	}
	return &design.Learned{Kernel: fmap.Kernel{Type: fmap.Combined, Parts: parts}, Method: method, Dim: len(method.Blocks) * m.Opts.DimPerKernel, Seed: m.Opts.Seed, Result: &res}, nil
}

// Section is KernelsSection: the group lasso learns a kernels section's
// combination.
func (*RFFGroupLasso) Section() string { return KernelsSection }

// Describe is the method's words in a design's description: its
// features per kernel, λ (or how it is chosen) and seed.
func (m *RFFGroupLasso) Describe() string {
	lam := "auto (relaxed-lasso validation)"
	if m.Opts.Lambda > 0 {
		lam = fmt.Sprintf("%g", m.Opts.Lambda)
	}
	return fmt.Sprintf("rff-group-lasso, %d features per kernel, λ %s, seed %d", m.Opts.DimPerKernel, lam, m.Opts.Seed)
}

// kernelMaps designs rff's map of every kernel on its column group (its
// part of p's domain) at DimPerKernel, seed Seed+g, with rff's default
// sampling and cos-sin features.
func (m *RFFGroupLasso) kernelMaps(ctx context.Context, p *fmap.Problem, kernels []KernelGroup) ([]*fmap.Map, error) {
	var out []*fmap.Map
	for g, k := range kernels {
		a, b := k.Columns[0], k.Columns[1]
		dom := p.Domain.Clone()
		if dom.Dims() > 1 {
			if b >= dom.Dims() {
				return nil, fmt.Errorf("kernel %d: columns [%d, %d] beyond the domain's %d axes", g, a, b, dom.Dims())
			}
			dom.Lo, dom.Hi = dom.Lo[a:b+1], dom.Hi[a:b+1]
		} else {
			dom.Lo, dom.Hi = slices.Repeat(dom.Lo, b-a+1), slices.Repeat(dom.Hi, b-a+1)
		}
		kern := k.Kernel
		if len(kern.Sigma) == 1 {
			kern.Sigma = slices.Repeat(kern.Sigma, b-a+1)
		}
		kp := &fmap.Problem{Kernel: kern, Domain: dom, Measure: fmap.Absolute, Norm: p.Norm, Negative: fmap.NegativeSign}
		rff := &sampled.RFF{Opts: sampled.RFFOptions{Seed: m.Opts.Seed + int64(g)}, Unshrunk: true}
		rff.Opts.SetDefaults()
		res, err := rff.Design(ctx, kp, m.Opts.DimPerKernel, design.Settings{})
		if err != nil {
			return nil, fmt.Errorf("kernel %d (%s, columns [%d, %d]): %w", g, k.Kernel.Type, a, b, err)
		}
		out = append(out, res.Map)
	}
	return out, nil
}
