package featmap

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/sampled"
	"gopkg.in/yaml.v3"
)

// GroupLassoSpec is a spec's kernels section with method rff-group-lasso:
// G kernels on column groups of the data, combined by a group lasso over
// their random features (learn.GroupLasso, Băzăvan et al. §3.3).
type GroupLassoSpec struct {
	// Kernels are the G kernels; their Columns are relative to the data's
	// first column (data.columns[0]), as the loaded rows are.
	Kernels []learn.KernelGroup
	// DimPerKernel is every kernel's number of random features; Lambda
	// the group penalty (0: auto, chosen on a validation split); Seed
	// seeds the split and kernel g's features with Seed+g.
	DimPerKernel int
	Lambda       float64
	Seed         int64
	// Line is the kernels section's line in the spec, MethodLine the
	// method section's.
	Line, MethodLine int
}

// The kernels section's items and the rff-group-lasso method section.
type (
	glKernelDoc struct {
		Type    string  `yaml:"type" spec:"enum=rbf|skewed-chi2|skewed-intersection|exp-chi2,what=kernel"`
		Sigma   float64 `yaml:"sigma" spec:"positive"`
		C       float64 `yaml:"c"`
		Beta    float64 `yaml:"beta" spec:"positive"`
		Columns kv      `yaml:"columns"`
	}
	glMethodDoc struct {
		Name         string `yaml:"name"`
		DimPerKernel int    `yaml:"dim_per_kernel" spec:"min=2,max=65536"`
		Lambda       kv     `yaml:"lambda"`
		Seed         int64  `yaml:"seed"`
	}
)

// kernelsSpec reads a spec with kernels (in place of kernel): the data
// section (with columns and label_column), the kernels, each on a column
// group inside the data's columns, no two overlapping, and method
// rff-group-lasso. A target is refused: the map's dimension is
// dim_per_kernel times the number of kernels the group lasso keeps.
func (p *parser) kernelsSpec(top *mapping, d specDoc, s *Spec) error {
	const either = "a spec has either kernel (one kernel) or kernels (rff-group-lasso's column groups), not both"
	if err := p.exclusive(top, "kernel", "kernels", either); err != nil {
		return err
	}
	for _, k := range []string{"target", "compare", "learn"} {
		if n := top.keys[k]; n != nil {
			return p.errAt(n, k, "not with kernels: method rff-group-lasso's map has dim_per_kernel features per kept kernel (the group lasso chooses which), so there is no %s", k)
		}
	}
	if err := p.dataSection(d.Data, s); err != nil {
		return err
	}
	if s.Data == nil {
		return p.missing(top, "data", "kernels learn from labelled data: data: {file, columns, label_column}")
	}
	dm, _ := p.keys(d.Data.V, "data")
	if s.Data.Label < 0 {
		return p.missing(dm, "label_column", "the group lasso learns the kernels' weights from the labels")
	}
	if s.Data.Last < 0 {
		return p.missing(dm, "columns", "the kernels' column groups must lie in [first, last]")
	}
	items, err := p.list(d.Kernels.V, "kernels", "a list of kernels, each {type, its parameters, columns: [first, last]}")
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return p.errAt(d.Kernels.V, "kernels", "an empty list: give at least one kernel")
	}
	gl := &GroupLassoSpec{Line: d.Kernels.K.Line}
	var spans [][3]int // first, last, item
	for i, it := range items {
		field := elem("kernels", i)
		var kd glKernelDoc
		m, err := p.section(it, field, &kd)
		if err != nil {
			return err
		}
		if kd.Type == "" {
			return p.missing(m, "type", "rbf, skewed-chi2, skewed-intersection or exp-chi2")
		}
		k := fmap.Kernel{Type: kd.Type, C: kd.C, Beta: kd.Beta}
		switch {
		case k.Type == fmap.ExpChi2:
			switch {
			case m.keys["beta"] == nil:
				return p.missing(m, "beta", "the exp-chi2 scale β: a number > 0")
			case m.keys["sigma"] != nil:
				return p.errAt(m.keys["sigma"], child(field, "sigma"), "sigma is the width of rbf and the skewed kernels; exp-chi2 has beta")
			case m.keys["c"] != nil:
				return p.errAt(m.keys["c"], child(field, "c"), "c is the offset of the skewed kernels; exp-chi2 has none")
			}
		case !k.ShiftInvariant():
			return p.errAt(m.keys["type"], child(field, "type"), "the group lasso's random features are for rbf, skewed-chi2, skewed-intersection and exp-chi2 (learn.GroupLasso); %s is not supported yet", kd.Type)
		case m.keys["sigma"] == nil:
			return p.missing(m, "sigma", fmt.Sprintf("the %s width: a number > 0", kd.Type))
		case m.keys["beta"] != nil:
			return p.errAt(m.keys["beta"], child(field, "beta"), "beta is the scale of kernel exp-chi2; %s has none", kd.Type)
		case m.keys["c"] != nil && !k.Skewed():
			return p.errAt(m.keys["c"], child(field, "c"), "c is the offset of the skewed kernels; %s has none", kd.Type)
		}
		if kd.Columns.V == nil {
			return p.missing(m, "columns", "the kernel's column group [first, last] of data columns")
		}
		if k.Type != fmap.ExpChi2 {
			k.Sigma = []float64{kd.Sigma}
		}
		cols, err := p.list(kd.Columns.V, child(field, "columns"), "a list [first, last] of two column numbers")
		if err == nil && len(cols) != 2 {
			err = p.errAt(kd.Columns.V, child(field, "columns"), "must be a list [first, last] of two column numbers, not a list of %d", len(cols))
		}
		var v [2]int64
		for j := 0; err == nil && j < 2; j++ {
			v[j], err = p.intIn(cols[j], elem(child(field, "columns"), j), 0, MaxInputs*16)
		}
		if err != nil {
			return err
		}
		a, b := int(v[0]), int(v[1])
		switch {
		case a > b:
			return p.errAt(kd.Columns.V, child(field, "columns"), "first must be <= last")
		case a < s.Data.First || b > s.Data.Last:
			return p.errAt(kd.Columns.V, child(field, "columns"), "[%d, %d] is not inside the data columns [%d, %d] (data.columns, line %d)", a, b, s.Data.First, s.Data.Last, dm.keys["columns"].Line)
		case s.Data.Label >= a && s.Data.Label <= b:
			return p.errAt(kd.Columns.V, child(field, "columns"), "[%d, %d] holds the label column %d", a, b, s.Data.Label)
		}
		for _, sp := range spans {
			if a <= sp[1] && sp[0] <= b {
				return p.errAt(kd.Columns.V, child(field, "columns"), "[%d, %d] overlaps kernels[%d].columns [%d, %d]: column groups must not overlap", a, b, sp[2], sp[0], sp[1])
			}
		}
		spans = append(spans, [3]int{a, b, i})
		gl.Kernels = append(gl.Kernels, learn.KernelGroup{Kernel: k, Columns: [2]int{a - s.Data.First, b - s.Data.First}})
	}
	if d.Method.V == nil {
		return p.missing(top, "method", "method: {name: rff-group-lasso, dim_per_kernel, lambda, seed}")
	}
	var md glMethodDoc
	mm, err := p.section(d.Method.V, "method", &md)
	if err != nil {
		return err
	}
	switch {
	case md.Name == "":
		return p.missing(mm, "name", "rff-group-lasso")
	case md.Name != "rff-group-lasso":
		return p.errAt(mm.keys["name"], "method.name", "kernels are combined by method rff-group-lasso, not %q", md.Name)
	case mm.keys["dim_per_kernel"] == nil:
		return p.missing(mm, "dim_per_kernel", "every kernel's number of random features: an even number ≥ 2")
	case md.DimPerKernel%2 != 0:
		return p.errAt(mm.keys["dim_per_kernel"], "method.dim_per_kernel", "must be even (cos-sin pairs), not %d", md.DimPerKernel)
	case len(gl.Kernels)*md.DimPerKernel > MaxGroupLassoFeatures:
		return p.errAt(mm.keys["dim_per_kernel"], "method.dim_per_kernel", "%d kernels × %d = %d random features, more than the %d the group lasso may weigh (it holds their D × D moment matrices for the rows to fit and to validate: 256 MB at %d)",
			len(gl.Kernels), md.DimPerKernel, len(gl.Kernels)*md.DimPerKernel, MaxGroupLassoFeatures, MaxGroupLassoFeatures)
	}
	gl.DimPerKernel, gl.Seed, gl.MethodLine = md.DimPerKernel, md.Seed, d.Method.K.Line
	if gl.Seed == 0 {
		gl.Seed = 1
	}
	if ln := md.Lambda.V; ln != nil && !(ln.Kind == yaml.ScalarNode && ln.Value == "auto") {
		if gl.Lambda, err = p.number(ln, "method.lambda", true); err != nil {
			return p.errAt(ln, "method.lambda", "must be a number > 0 or auto, not %s", describe(ln))
		}
	}
	// Every kernel is shift-invariant; the domain is every column's.
	s.Problem.Kernel = gl.Kernels[0].Kernel
	if err := p.domain(top, d.Domain, s.Problem); err != nil {
		return err
	}
	if err := p.errorSection(d.Error, s.Problem); err != nil {
		return err
	}
	s.GroupLasso = gl
	return nil
}

// MaxGroupLassoFeatures bounds the random features of every kernel
// together (kernels × dim_per_kernel): the group lasso accumulates their
// D × D moment matrices ZᵀZ for the rows to fit and to validate, memory
// growing as D² (issue 18: two kernels of 65 536 features crashed out of
// memory).
const MaxGroupLassoFeatures = 4096

// learnGroupLasso runs the group lasso of an rff-group-lasso spec on its
// data's rows to fit and their labels (the held-out rows are never seen),
// records the result in Spec.GroupLassoResult, and turns the spec into a
// design of the combined map: Problem.Kernel becomes the learned combined
// kernel Σ_g d_g K_g over the kept kernels (fmap.Combined), Target its
// dimension (dim_per_kernel per kept kernel) and Method the
// rff-group-lasso method that makes the map of fmap.Blocks. Labels are
// classes as for learnSigma.
//
// Every kernel's features are rff's map of it on its column group at
// dim_per_kernel with seed Seed+g (for exp-chi2 after rff's inner χ² map,
// whose stage the group lasso applies to the rows first), so that the
// kept blocks of the map are exactly the features the group lasso
// weighed.
func learnGroupLasso(ctx context.Context, s *Spec) error {
	d := s.Problem.Data
	classes := labelClasses(d.FitLabels)
	gl := s.GroupLasso
	specErr := func(msg string, err error) error {
		return &SpecError{Path: s.Path, Line: gl.Line, Field: "kernels", Msg: msg, Err: err}
	}
	maps, err := groupLassoMaps(ctx, s)
	if err != nil {
		return specErr(err.Error(), err)
	}
	kernels := slices.Clone(gl.Kernels)
	for g := range kernels {
		if kernels[g].Kernel.Type == fmap.ExpChi2 {
			kernels[g].Inner = &maps[g].Stages[0]
		}
	}
	res, err := learn.GroupLasso(ctx, d.Fit, d.FitLabels, learn.GroupLassoOptions{
		Kernels: kernels, DimPerKernel: gl.DimPerKernel, Lambda: gl.Lambda, Seed: gl.Seed, Classes: classes,
	})
	if err != nil {
		return specErr(fmt.Sprintf("group lasso on %s: %v", d.File, err), err)
	}
	s.GroupLassoResult = &res
	var blocks []fmap.Block
	var parts []fmap.KernelPart
	for g, k := range gl.Kernels {
		if res.Zero[g] {
			continue
		}
		w := res.KernelWeights[g]
		a, b := k.Columns[0], k.Columns[1]
		blocks = append(blocks, fmap.Block{First: a, Last: b, Kernel: maps[g].Kernel, Scale: math.Sqrt(w), Stages: maps[g].Stages})
		parts = append(parts, fmap.KernelPart{Kernel: maps[g].Kernel, First: a, Last: b, Weight: w})
	}
	if len(blocks) == 0 {
		return specErr(fmt.Sprintf("group lasso on %s: every kernel's group is zero at λ = %.4g: there is no map to make (give a smaller method.lambda)", d.File, res.Lambda), nil)
	}
	s.Problem.Kernel = fmap.Kernel{Type: fmap.Combined, Parts: parts}
	// The combined kernel has no signature: its error is the absolute
	// kernel error on pairs (what the uniform signature error of a
	// shift-invariant kernel, the default, equals).
	switch s.Problem.Measure {
	case fmap.Uniform:
		s.Problem.Measure = fmap.Absolute
	case fmap.Relative:
		return specErr("the combined kernel's map is measured by the absolute error: error.measure relative is not supported with kernels", nil)
	}
	m := &GroupLassoMethod{Blocks: blocks}
	s.Target = &TargetSpec{Dim: len(blocks) * gl.DimPerKernel}
	s.Method = &MethodSpec{Method: m, Line: gl.MethodLine, field: "method"}
	return nil
}

// groupLassoMaps designs rff's map of every kernel of an rff-group-lasso
// spec on its column group (its part of the domain) at dim_per_kernel,
// seed Seed+g, with rff's default sampling and cos-sin features.
func groupLassoMaps(ctx context.Context, s *Spec) ([]*fmap.Map, error) {
	gl := s.GroupLasso
	var out []*fmap.Map
	for g, k := range gl.Kernels {
		a, b := k.Columns[0], k.Columns[1]
		dom := s.Problem.Domain.Clone()
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
		p := &fmap.Problem{Kernel: kern, Domain: dom, Measure: fmap.Absolute, Norm: s.Problem.Norm, Negative: fmap.NegativeSign}
		m := &sampled.RFF{Opts: sampled.RFFOptions{Seed: gl.Seed + int64(g)}}
		m.Opts.SetDefaults()
		res, err := m.Design(ctx, p, gl.DimPerKernel, Settings{})
		if err != nil {
			return nil, fmt.Errorf("kernel %d (%s, columns [%d, %d]): %w", g, k.Kernel.Type, a, b, err)
		}
		out = append(out, res.Map)
	}
	return out, nil
}

// describeGroupLasso states what the group lasso kept: every kernel's
// weight d_g = ‖w_g‖/√2 (eq. 16) and share, the zero ones dropped (left
// out of the map), and the resulting dimension (dim_per_kernel per kept
// kernel).
func describeGroupLasso(gl *GroupLassoSpec, r *learn.GroupLassoResult) string {
	var b strings.Builder
	kept := 0
	for g, k := range gl.Kernels {
		if r.Zero[g] {
			fmt.Fprintf(&b, "kernel %d (%s, columns [%d, %d]): zero group, dropped (not in the map)\n", g, k.Kernel.Type, k.Columns[0], k.Columns[1])
			continue
		}
		kept++
		fmt.Fprintf(&b, "kernel %d (%s, columns [%d, %d]): d = %.6g (share %.4f)\n", g, k.Kernel.Type, k.Columns[0], k.Columns[1], r.KernelWeights[g], r.KernelShares[g])
	}
	fmt.Fprintf(&b, "λ = %.6g (λ_max %.6g), D = %d (%d kept kernels × %d; dropped kernels are left out)", r.Lambda, r.LambdaMax, kept*gl.DimPerKernel, kept, gl.DimPerKernel)
	return b.String()
}

// GroupLassoMethod makes the combined map of an rff-group-lasso spec from
// the kernels the group lasso kept (method "rff-group-lasso"). It is not
// in the registry: a spec names it with kernels (see kernelsSpec), and
// LoadSpec builds it after learning (learnGroupLasso), for the problem of
// the learned combined kernel Σ_g d_g K_g. Its map is one fmap.Blocks
// stage: block g is rff's map z_g of kernel g on its columns with scale
// √d_g, so that
//
//	Ψ(x) = [√d_1 z_1(x_1), …, √d_k z_k(x_k)],  Ψ(x)·Ψ(y) = Σ_g d_g z_g(x_g)·z_g(y_g) ≈ Σ_g d_g K_g(x_g, y_g),
//
// eq. 13's MKL feature map [√d_1 ψ_1, …, √d_k ψ_k] with d_g = ‖w_g‖/√2,
// the d at which eq. 16 holds with equality (learn.KernelWeights). The
// d_g are on the scale of the library's objective (½‖ZW − Y‖²/N +
// λΣ‖W_g‖, so C = √2/λ with the loss averaged over the rows): their
// shares d_g/Σd (KernelShares) are scale-free, their sum is not 1.
type GroupLassoMethod struct {
	// Blocks are the kept kernels' blocks, in the spec's order.
	Blocks []fmap.Block
	opts   struct{}
}

// Name returns "rff-group-lasso".
func (*GroupLassoMethod) Name() string { return "rff-group-lasso" }

// Options returns no options: the kernels section and the group lasso
// fixed everything.
func (m *GroupLassoMethod) Options() any { return &m.opts }

// Applies accepts the learned combined kernel only.
func (*GroupLassoMethod) Applies(p *fmap.Problem) error {
	if p.Kernel.Type != fmap.Combined {
		return fmt.Errorf("rff-group-lasso makes the map of the kernels it learned (a spec's kernels section), not of %s", p.Kernel.Type)
	}
	return nil
}

// dim is the map's dimension.
func (m *GroupLassoMethod) dim() int {
	d := 0
	for i := range m.Blocks {
		d += m.Blocks[i].Dim()
	}
	return d
}

// Dims is the one dimension of the kept blocks.
func (m *GroupLassoMethod) Dims(*fmap.Problem) design.Dims {
	return design.Dims{Only: []int{m.dim()}, Why: fmt.Sprintf("rff-group-lasso's map has dim_per_kernel features per kept kernel: D = %d", m.dim())}
}

// Design returns the map of the kept blocks.
func (m *GroupLassoMethod) Design(_ context.Context, p *fmap.Problem, dim int, _ Settings) (*design.Result, error) {
	if err := m.Applies(p); err != nil {
		return nil, err
	}
	if dim != m.dim() {
		return nil, fmt.Errorf("featmap: rff-group-lasso: %s", m.Dims(p).Why)
	}
	blocks := &fmap.Blocks{Parts: slices.Clone(m.Blocks)}
	mp := &fmap.Map{Kernel: p.Kernel, InDim: p.InDim(), Dim: dim, Domain: p.Domain.Clone(), Method: m.Name(), Stages: []fmap.Stage{{Blocks: blocks}}}
	if err := mp.Validate(); err != nil {
		return nil, err
	}
	return &design.Result{Map: mp}, nil
}

// groupLassoJSON is what the group lasso learned, nil for other specs.
func (s *Spec) groupLassoJSON() *GroupLassoJSON {
	gl, r := s.GroupLasso, s.GroupLassoResult
	if gl == nil || r == nil {
		return nil
	}
	d := s.Problem.Data
	out := &GroupLassoJSON{Lambda: r.Lambda, LambdaMax: r.LambdaMax, DimPerKernel: gl.DimPerKernel, Train: r.Train, Validation: r.Held,
		ValidationNone: r.ValidationNone, ValidationBefore: r.ValidationAll, ValidationAfter: r.RelaxedValidation,
		DataFile: d.File, DataSHA256: d.SHA256, DataRows: d.Rows}
	for g, k := range gl.Kernels {
		out.Kernels = append(out.Kernels, GroupLassoKernelJSON{Kernel: k.Kernel, Columns: [2]int{k.Columns[0] + s.Data.First, k.Columns[1] + s.Data.First},
			Weight: r.KernelWeights[g], Share: r.KernelShares[g], Dropped: r.Zero[g]})
	}
	return out
}

// groupLassoLearnedLine states where the group lasso learned from and the
// validation error before (every kernel, equal weights) and after (the
// refit on the kept kernels).
func (s *Spec) groupLassoLearnedLine() string {
	r, d := s.GroupLassoResult, s.Problem.Data
	sha := d.SHA256
	if len(sha) > 12 {
		sha = sha[:12] + "…"
	}
	return fmt.Sprintf("learned: kernel weights by group lasso on %d rows of %s (sha256 %s, %d rows; %d more to validate): validation error %.4g (every kernel, equal weights) → %.4g (the kept kernels, refit; %.4g with no kernel)",
		r.Train, d.File, sha, d.Rows, r.Held, r.ValidationAll, r.RelaxedValidation, r.ValidationNone)
}
