package spec

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"gopkg.in/yaml.v3"
)

// GroupLassoSpec is a spec's kernels section, whose method is
// rff-group-lasso (its options: the features per kernel, λ and the seed,
// in the method's options struct): G kernels on column groups of the data,
// combined by a group lasso over their random features (package learn's
// GroupLasso, Băzăvan et al. §3.3).
type GroupLassoSpec struct {
	// Kernels are the G kernels; their Columns are relative to the data's
	// first column (data.columns[0]), as the loaded rows are.
	Kernels []KernelGroup
	// Line is the kernels section's line in the spec.
	Line int
}

// KernelGroup is one kernel of a kernels section: a shift-invariant
// kernel (rbf, skewed-chi2 or skewed-intersection, its one σ and the
// skewed kernels' offset C) or exp-χ² (its β) on the input columns
// Columns[0]…Columns[1] (inclusive) of every row.
type KernelGroup struct {
	Kernel  fmap.Kernel
	Columns [2]int
}

// KernelsMethod is the method of a spec with kernels, the one a method
// table must have for them.
const KernelsMethod = "rff-group-lasso"

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
// rff-group-lasso (its section read here, not as other methods': its
// lambda may be auto, and its keys are checked against the kernels). A
// target is refused: the map's dimension is dim_per_kernel times the
// number of kernels the group lasso keeps.
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
	var spans [][3]int       // first, last, item
	var offsets []*yaml.Node // each kernel's c, or its item without one
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
			if kd.Sigma < fmap.MinSigma || kd.Sigma > fmap.MaxSigma {
				return p.errAt(m.keys["sigma"], child(field, "sigma"), "%g: %s", kd.Sigma, fmap.SigmaRange)
			}
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
		offsets = append(offsets, m.keys["c"])
		if offsets[i] == nil {
			offsets[i] = it
		}
		gl.Kernels = append(gl.Kernels, KernelGroup{Kernel: k, Columns: [2]int{a - s.Data.First, b - s.Data.First}})
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
	var lambda float64 // 0: auto
	if ln := md.Lambda.V; ln != nil && !(ln.Kind == yaml.ScalarNode && ln.Value == "auto") {
		if lambda, err = p.number(ln, "method.lambda", true); err != nil {
			return p.errAt(ln, "method.lambda", "must be a number > 0 or auto, not %s", describe(ln))
		}
	}
	m := methodTable().New(KernelsMethod)
	setOptions(m.Options(), map[string]any{"dim_per_kernel": md.DimPerKernel, "lambda": lambda, "seed": md.Seed})
	if d, ok := m.Options().(design.Defaulter); ok {
		d.SetDefaults()
	}
	ms := &MethodSpec{Method: m, Line: d.Method.K.Line, field: "method", keys: map[string]int{}}
	for k, kn := range mm.keys {
		ms.keys[k] = kn.Line
	}
	// Every kernel is shift-invariant; the domain is every column's.
	s.Problem.Kernel = gl.Kernels[0].Kernel
	p.groups = true
	err = p.domain(top, d.Domain, s.Problem)
	p.groups = false
	if err != nil {
		return err
	}
	// The problem's kernel stands for the kernels until learning combines
	// them: the first one's, its σ on every input, so that it is a kernel of
	// the whole domain (fmap.Problem.Check holds one σ per axis).
	if k := &s.Problem.Kernel; len(k.Sigma) == 1 {
		n := s.Problem.Domain.Dims()
		k.Sigma = slices.Repeat(k.Sigma, n)
	}
	// The domain comes after the kernels: a skewed kernel's offset is
	// checked against its own columns' lower ends here, at its key.
	dom := s.Problem.Domain
	for i, g := range gl.Kernels {
		if !g.Kernel.Skewed() {
			continue
		}
		for c := g.Columns[0]; c <= g.Columns[1]; c++ {
			if lo := dom.Lo[min(c, len(dom.Lo)-1)]; !(lo+g.Kernel.C > 0) {
				return p.errAt(offsets[i], child(elem("kernels", i), "c"), "lo + c must be > 0 on the kernel's columns (it is a function of log(x + c)); data column %d starts at %g (domain) and c is %g",
					c+s.Data.First, lo, g.Kernel.C)
			}
		}
	}
	if err := p.errorSection(d.Error, s.Problem); err != nil {
		return err
	}
	s.GroupLasso, s.Method = gl, ms
	return nil
}

// MaxGroupLassoFeatures bounds the random features of every kernel
// together (kernels × dim_per_kernel): the group lasso accumulates their
// D × D moment matrices ZᵀZ for the rows to fit and to validate, memory
// growing as D² (two kernels of 65 536 features crashed out of memory).
const MaxGroupLassoFeatures = 4096

// setOptions sets a method's options (opts, a pointer to its options
// struct) by their keys: the kernels section's method is decoded with its
// own rules (glMethodDoc: lambda may be auto), into its options struct as
// the method keeps them.
func setOptions(opts any, values map[string]any) {
	set := 0
	for _, f := range structFields(reflect.ValueOf(opts).Elem()) {
		if v, ok := values[f.name]; ok {
			f.v.Set(reflect.ValueOf(v))
			set++
		}
	}
	if set != len(values) {
		panic(fmt.Sprintf("spec: %T lacks an option of %v", opts, values))
	}
}
