package featmap

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/featmap/featmap/design/fmap"
	"github.com/featmap/featmap/multidim"
	"gopkg.in/yaml.v3"
)

// GroupLassoSpec is a spec's kernels section with method rff-group-lasso:
// G kernels on column groups of the data, combined by a group lasso over
// their random features (multidim.GroupLasso, Băzăvan et al. §3.3).
type GroupLassoSpec struct {
	// Kernels are the G kernels; their Columns are relative to the data's
	// first column (data.columns[0]), as the loaded rows are.
	Kernels []multidim.KernelGroup
	// DimPerKernel is every kernel's number of random features; Lambda
	// the group penalty (0: auto, chosen on a validation split); Seed
	// seeds the split and kernel g's features with Seed+g.
	DimPerKernel int
	Lambda       float64
	Seed         int64
	// Line is the kernels section's line in the spec.
	Line int
}

// ErrGroupLassoDesign is Spec.Design's error for an rff-group-lasso spec:
// the spec decodes and LoadSpec learns the kernel weights, but designing
// the combined map (the blocks of the kept kernels scaled by √d_g) is not
// implemented yet.
var ErrGroupLassoDesign = errors.New("featmap: method rff-group-lasso: the spec is read and the kernel weights learned, but designing the combined map is not implemented yet")

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
			return p.missing(m, "type", "rbf, skewed-chi2 or skewed-intersection")
		}
		k := fmap.Kernel{Type: kd.Type, C: kd.C, Beta: kd.Beta}
		switch {
		case !k.ShiftInvariant():
			return p.errAt(m.keys["type"], child(field, "type"), "the group lasso's random features are for rbf, skewed-chi2 and skewed-intersection (multidim.GroupLasso); %s is not supported yet", kd.Type)
		case m.keys["sigma"] == nil:
			return p.missing(m, "sigma", fmt.Sprintf("the %s width: a number > 0", kd.Type))
		case m.keys["beta"] != nil:
			return p.errAt(m.keys["beta"], child(field, "beta"), "beta is the scale of kernel exp-chi2; %s has none", kd.Type)
		case m.keys["c"] != nil && !k.Skewed():
			return p.errAt(m.keys["c"], child(field, "c"), "c is the offset of the skewed kernels; %s has none", kd.Type)
		case kd.Columns.V == nil:
			return p.missing(m, "columns", "the kernel's column group [first, last] of data columns")
		}
		k.Sigma = []float64{kd.Sigma}
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
		gl.Kernels = append(gl.Kernels, multidim.KernelGroup{Kernel: k, Columns: [2]int{a - s.Data.First, b - s.Data.First}})
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
	}
	gl.DimPerKernel, gl.Seed = md.DimPerKernel, md.Seed
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

// learnGroupLasso runs the group lasso of an rff-group-lasso spec on its
// data's rows to fit and their labels (the held-out rows are never seen)
// and records the result in Spec.GroupLassoResult. Labels are classes as
// for learnSigma.
func learnGroupLasso(ctx context.Context, s *Spec) error {
	d := s.Problem.Data
	classes := labelClasses(d.FitLabels)
	gl := s.GroupLasso
	res, err := multidim.GroupLasso(ctx, d.Fit, d.FitLabels, multidim.GroupLassoOptions{
		Kernels: gl.Kernels, DimPerKernel: gl.DimPerKernel, Lambda: gl.Lambda, Seed: gl.Seed, Classes: classes,
	})
	if err != nil {
		return &SpecError{Path: s.Path, Line: gl.Line, Field: "kernels", Msg: fmt.Sprintf("group lasso on %s: %v", d.File, err), Err: err}
	}
	s.GroupLassoResult = &res
	return nil
}

// describeGroupLasso states what the group lasso kept: every kernel's
// weight d_g = ‖w_g‖/√2 (eq. 16) and share, the zero ones dropped, and
// the resulting dimension (dim_per_kernel per kept kernel).
func describeGroupLasso(gl *GroupLassoSpec, r *multidim.GroupLassoResult) string {
	var b strings.Builder
	kept := 0
	for g, k := range gl.Kernels {
		if r.Zero[g] {
			fmt.Fprintf(&b, "kernel %d (%s, columns [%d, %d]): zero group, dropped\n", g, k.Kernel.Type, k.Columns[0], k.Columns[1])
			continue
		}
		kept++
		fmt.Fprintf(&b, "kernel %d (%s, columns [%d, %d]): d = %.6g (share %.4f)\n", g, k.Kernel.Type, k.Columns[0], k.Columns[1], r.KernelWeights[g], r.KernelShares[g])
	}
	fmt.Fprintf(&b, "λ = %.6g (λ_max %.6g), D = %d (%d kept kernels × %d)", r.Lambda, r.LambdaMax, kept*gl.DimPerKernel, kept, gl.DimPerKernel)
	return b.String()
}

// GroupLassoBlock is one kept kernel of an rff-group-lasso spec's combined
// map: its rff map on its column group, scaled by √Weight.
type GroupLassoBlock struct {
	// Kernel is the kernel's index in the spec; Columns its group, relative
	// to the data's first column.
	Kernel  int
	Columns [2]int
	// Weight is the MKL weight d_g = ‖w_g‖/√2 of eq. 16
	// (multidim.KernelWeights).
	Weight float64
	// Map is rff's map of the kernel at dim_per_kernel, seed Seed+g: the
	// features the group lasso learned on.
	Map *fmap.Map
}

// GroupLassoBlocks returns the blocks of the combined map Ψ of a loaded
// rff-group-lasso spec: for every kernel the group lasso kept (nonzero
// group), its rff map z_g on its columns with weight d_g, so that
//
//	Ψ(x) = [√d_1 z_1(x_1), …, √d_G z_G(x_G)],  Ψ(x)·Ψ(y) = Σ_g d_g z_g(x_g)·z_g(y_g) ≈ Σ_g d_g K_g(x_g, y_g),
//
// the learned combined kernel of §3.3: eq. 13's MKL feature map
// [√d_1 ψ_1, …, √d_k ψ_k] with d_g = ‖w_g‖/√2, the d at which eq. 16 holds
// with equality (multidim.KernelWeights). The d_g are on the scale of the
// library's objective (½‖ZW − Y‖²/N + λΣ‖W_g‖, so C = √2/λ with the loss
// averaged over the rows): their shares d_g/Σd (KernelShares) are
// scale-free, their sum is not 1. Zero groups are dropped: D =
// dim_per_kernel × the kept kernels.
func (s *Spec) GroupLassoBlocks(ctx context.Context) ([]GroupLassoBlock, error) {
	gl, r := s.GroupLasso, s.GroupLassoResult
	if gl == nil || r == nil {
		return nil, errors.New("featmap: no learned rff-group-lasso result (LoadSpec learns it)")
	}
	var out []GroupLassoBlock
	for g, k := range gl.Kernels {
		if r.Zero[g] {
			continue
		}
		a, b := k.Columns[0], k.Columns[1]
		dom := s.Problem.Domain.Clone()
		if dom.Dims() > 1 {
			if b >= dom.Dims() {
				return nil, fmt.Errorf("featmap: kernel %d: columns [%d, %d] beyond the domain's %d axes", g, a, b, dom.Dims())
			}
			dom.Lo, dom.Hi = dom.Lo[a:b+1], dom.Hi[a:b+1]
		} else {
			dom.Lo, dom.Hi = slices.Repeat(dom.Lo, b-a+1), slices.Repeat(dom.Hi, b-a+1)
		}
		kern := k.Kernel
		if len(kern.Sigma) == 1 {
			kern.Sigma = slices.Repeat(kern.Sigma, b-a+1)
		}
		p := &fmap.Problem{Kernel: kern, Domain: dom, Measure: s.Problem.Measure, Norm: s.Problem.Norm}
		m := &multidim.RFF{Opts: multidim.RFFOptions{Seed: gl.Seed + int64(g)}}
		m.Opts.SetDefaults()
		res, err := m.Design(ctx, p, gl.DimPerKernel, Settings{})
		if err != nil {
			return nil, fmt.Errorf("featmap: kernel %d (%s, columns [%d, %d]): %w", g, k.Kernel.Type, a, b, err)
		}
		out = append(out, GroupLassoBlock{Kernel: g, Columns: k.Columns, Weight: r.KernelWeights[g], Map: res.Map})
	}
	return out, nil
}

// EvalGroupLasso writes Ψ(x) of the blocks to dst (of length the sum of
// the blocks' dimensions): block g's map of x[Columns] scaled by √d_g.
func EvalGroupLasso(blocks []GroupLassoBlock, dst, x []float64) {
	o := 0
	for _, b := range blocks {
		z := dst[o : o+b.Map.Dim]
		b.Map.Eval(z, x[b.Columns[0]:b.Columns[1]+1])
		w := math.Sqrt(b.Weight)
		for i := range z {
			z[i] *= w
		}
		o += b.Map.Dim
	}
}

// GroupLassoError is the verification of a combined map against the
// learned combined kernel Σ_g d_g K_g on pairs of the data's held-out rows
// (which the group lasso never saw): the largest and the root-mean-square
// |Ψ(x)·Ψ(y) − Σ_g d_g K_g(x_g, y_g)| over the pairs (x_i, x_j), i ≤ j, of
// the first rows held-out rows (every one if rows ≤ 0), and Scale = Σ_g d_g
// over the kept kernels, the combined kernel's value at x = y for rbf.
type GroupLassoError struct {
	Max, RMS, Scale float64
	Rows, Pairs     int
}

// VerifyGroupLasso measures the blocks' map against Σ_g d_g K_g on the
// held-out rows of s's data (see GroupLassoError).
func (s *Spec) VerifyGroupLasso(blocks []GroupLassoBlock, rows int) (GroupLassoError, error) {
	held := s.Problem.Data.Held
	if rows > 0 && rows < len(held) {
		held = held[:rows]
	}
	if len(held) == 0 {
		return GroupLassoError{}, errors.New("featmap: no held-out rows to verify the combined map on")
	}
	dim := 0
	for _, b := range blocks {
		dim += b.Map.Dim
	}
	psi := make([][]float64, len(held))
	for i, x := range held {
		psi[i] = make([]float64, dim)
		EvalGroupLasso(blocks, psi[i], x)
	}
	e := GroupLassoError{Rows: len(held)}
	for _, b := range blocks {
		e.Scale += b.Weight
	}
	var sq float64
	for i, x := range held {
		for j := i; j < len(held); j++ {
			y := held[j]
			var k, dot float64
			for _, b := range blocks {
				k += b.Weight * b.Map.Kernel.Eval(x[b.Columns[0]:b.Columns[1]+1], y[b.Columns[0]:b.Columns[1]+1])
			}
			for c, v := range psi[i] {
				dot += v * psi[j][c]
			}
			d := math.Abs(dot - k)
			e.Max = math.Max(e.Max, d)
			sq += d * d
			e.Pairs++
		}
	}
	e.RMS = math.Sqrt(sq / float64(e.Pairs))
	return e, nil
}
