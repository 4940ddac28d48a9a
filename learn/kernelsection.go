package learn

import (
	"fmt"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// This file gives a spec's kernels section its meaning: its keys, their
// checks, the kernels' columns against the data's, and the kernels and
// the method rff-group-lasso it makes. Package spec reads the YAML: it
// decodes every kernels item and the method section strictly into the
// structs below (their yaml and spec tags, as a method's options) and
// places the errors, which name keys (*design.SectionError), at their
// lines; Kernels is the decoder it is given (spec.KernelsDecoder,
// spec.UseKernels, by package featmap).

// KernelItem is one item of a kernels section, as decoded: a kernel and
// its column group. A pointer is nil when its key is absent.
type KernelItem struct {
	Type  string   `yaml:"type" spec:"enum=rbf|skewed-chi2|skewed-intersection|exp-chi2,what=kernel"`
	Sigma *float64 `yaml:"sigma" spec:"positive"`
	C     *float64 `yaml:"c"`
	Beta  *float64 `yaml:"beta" spec:"positive"`
	// Columns are the group's first and last data column (the file's
	// column numbers, as data.columns has them; its bound is the same).
	Columns *[2]int `yaml:"columns" spec:"min=0,max=1048576,what=column numbers"`
}

// KernelsMethod is the method section of a spec with kernels, as
// decoded: its name and rff-group-lasso's options (lambda: auto is 0).
type KernelsMethod struct {
	Name                 string `yaml:"name"`
	RFFGroupLassoOptions `yaml:",inline"`
}

// MaxGroupLassoFeatures bounds the random features of every kernel
// together (kernels × dim_per_kernel): the group lasso accumulates their
// D × D moment matrices ZᵀZ for the rows to fit and to validate, memory
// growing as D² (two kernels of 65 536 features crashed out of memory).
const MaxGroupLassoFeatures = 4096

// Kernels is the kernels section's decoder: spec decodes each item into
// NewItem's struct and checks it by CheckItem, the method section into
// NewMethod's, and gets the kernels and their method from Kernels, which
// the domain read after them is checked against (CheckDomain).
type Kernels struct{}

// Method is the name of the method that combines the kernels.
func (Kernels) Method() string { return (*RFFGroupLasso)(nil).Name() }

// NewItem returns a new *KernelItem.
func (Kernels) NewItem() any { return &KernelItem{} }

// NewMethod returns a new *KernelsMethod.
func (Kernels) NewMethod() any { return &KernelsMethod{} }

// CheckData checks the data section the kernels learn from (d, nil
// without one): it must give the label column and the columns the
// kernels' groups lie in.
func (Kernels) CheckData(d *datafile.Section) error {
	switch {
	case d == nil:
		return missing("data", "kernels learn from labelled data: data: {file, columns, label_column}")
	case d.Label < 0:
		return missing("data.label_column", "the group lasso learns the kernels' weights from the labels")
	case d.Last < 0:
		return missing("data.columns", "the kernels' column groups must lie in [first, last]")
	}
	return nil
}

// CheckItem checks the last of items (each a *KernelItem, kernels[i] for
// i its index) against the data section d (CheckData's) and the items
// before it: a kernel the group lasso's random features are for with its
// keys, on a column group inside the data's columns, without the label
// column, overlapping no other group.
func (Kernels) CheckItem(items []any, d *datafile.Section) error {
	i := len(items) - 1
	it := items[i].(*KernelItem)
	field := fmt.Sprintf("kernels[%d]", i)
	at := func(key, format string, a ...any) error {
		return &design.SectionError{Key: field + "." + key, Msg: fmt.Sprintf(format, a...)}
	}
	if it.Type == "" {
		return missing(field+".type", "rbf, skewed-chi2, skewed-intersection or exp-chi2")
	}
	k := it.kernel()
	switch {
	case k.Type == fmap.ExpChi2:
		switch {
		case it.Beta == nil:
			return missing(field+".beta", "the exp-chi2 scale β: a number > 0")
		case it.Sigma != nil:
			return at("sigma", "sigma is the width of rbf and the skewed kernels; exp-chi2 has beta")
		case it.C != nil:
			return at("c", "c is the offset of the skewed kernels; exp-chi2 has none")
		}
	case !k.ShiftInvariant():
		return at("type", "the group lasso's random features are for rbf, skewed-chi2, skewed-intersection and exp-chi2 (learn.GroupLasso); %s is not supported yet", it.Type)
	case it.Sigma == nil:
		return missing(field+".sigma", fmt.Sprintf("the %s width: a number > 0", it.Type))
	case it.Beta != nil:
		return at("beta", "beta is the scale of kernel exp-chi2; %s has none", it.Type)
	case it.C != nil && !k.Skewed():
		return at("c", "c is the offset of the skewed kernels; %s has none", it.Type)
	}
	if it.Columns == nil {
		return missing(field+".columns", "the kernel's column group [first, last] of data columns")
	}
	if s := k.Sigma; s != nil && (s[0] < fmap.MinSigma || s[0] > fmap.MaxSigma) {
		return at("sigma", "%g: %s", s[0], fmap.SigmaRange)
	}
	cols := func(format string, a ...any) error {
		e := at("columns", format, a...).(*design.SectionError)
		e.Value = true
		return e
	}
	a, b := it.Columns[0], it.Columns[1]
	switch {
	case a > b:
		return cols("first must be <= last")
	case a < d.First || b > d.Last:
		e := cols("[%d, %d] is not inside the data columns [%d, %d]", a, b, d.First, d.Last).(*design.SectionError)
		e.Ref = "data.columns"
		return e
	case d.Label >= a && d.Label <= b:
		return cols("[%d, %d] holds the label column %d", a, b, d.Label)
	}
	for j, other := range items[:i] {
		if c := other.(*KernelItem).Columns; a <= c[1] && c[0] <= b {
			return cols("[%d, %d] overlaps kernels[%d].columns [%d, %d]: column groups must not overlap", a, b, j, c[0], c[1])
		}
	}
	return nil
}

// kernel is the item's kernel: its type, σ (one, for every column of its
// group), offset c and β.
func (it *KernelItem) kernel() fmap.Kernel {
	k := fmap.Kernel{Type: it.Type}
	if it.C != nil {
		k.C = *it.C
	}
	if it.Beta != nil {
		k.Beta = *it.Beta
	}
	if it.Sigma != nil && it.Type != fmap.ExpChi2 {
		k.Sigma = []float64{*it.Sigma}
	}
	return k
}

// Kernels returns the kernels of items (each checked by CheckItem) as the
// parts of the combination the group lasso learns, unweighted, their
// columns relative to the data's first (data.columns[0], as the rows are
// loaded), and the method rff-group-lasso with the options of method (a
// *KernelsMethod, nil when the spec has no method section), its defaults
// set; or the method section's error.
func (Kernels) Kernels(items []any, method any, d *datafile.Section) ([]fmap.KernelPart, design.Method, error) {
	mm, _ := method.(*KernelsMethod)
	at := func(key, format string, a ...any) error {
		return &design.SectionError{Key: "method." + key, Msg: fmt.Sprintf(format, a...)}
	}
	switch {
	case mm == nil:
		return nil, nil, missing("method", "method: {name: rff-group-lasso, dim_per_kernel, lambda, seed}")
	case mm.Name == "":
		return nil, nil, missing("method.name", "rff-group-lasso")
	case mm.Name != (Kernels{}).Method():
		return nil, nil, at("name", "kernels are combined by method rff-group-lasso, not %q", mm.Name)
	case mm.DimPerKernel == 0: // absent: the decoder refuses a given value below 2
		return nil, nil, missing("method.dim_per_kernel", "every kernel's number of random features: an even number ≥ 2")
	case mm.DimPerKernel%2 != 0:
		return nil, nil, at("dim_per_kernel", "must be even (cos-sin pairs), not %d", mm.DimPerKernel)
	case len(items)*mm.DimPerKernel > MaxGroupLassoFeatures:
		return nil, nil, at("dim_per_kernel", "%d kernels × %d = %d random features, more than the %d the group lasso may weigh (it holds their D × D moment matrices for the rows to fit and to validate: 256 MB at %d)",
			len(items), mm.DimPerKernel, len(items)*mm.DimPerKernel, MaxGroupLassoFeatures, MaxGroupLassoFeatures)
	}
	parts := make([]fmap.KernelPart, len(items))
	for i, v := range items {
		it := v.(*KernelItem)
		parts[i] = fmap.KernelPart{Kernel: it.kernel(), First: it.Columns[0] - d.First, Last: it.Columns[1] - d.First}
	}
	m := &RFFGroupLasso{Opts: mm.RFFGroupLassoOptions}
	m.Opts.SetDefaults()
	return parts, m, nil
}

// CheckDomain checks the kernels (Kernels') against the domain read
// after them: a skewed kernel's offset c makes lo + c > 0 on every one of
// its columns (it is a function of log(x + c)).
func (Kernels) CheckDomain(kernels []fmap.KernelPart, dom *fmap.Domain, d *datafile.Section) error {
	for i, g := range kernels {
		if !g.Kernel.Skewed() {
			continue
		}
		for c := g.First; c <= g.Last; c++ {
			if lo := dom.Lo[min(c, len(dom.Lo)-1)]; !(lo+g.Kernel.C > 0) {
				return &design.SectionError{Key: fmt.Sprintf("kernels[%d].c", i),
					Msg: fmt.Sprintf("lo + c must be > 0 on the kernel's columns (it is a function of log(x + c)); data column %d starts at %g (domain) and c is %g", c+d.First, lo, g.Kernel.C)}
			}
		}
	}
	return nil
}

// missing is the error of a required key absent, hint what it holds.
func missing(key, hint string) error {
	return &design.SectionError{Key: key, Missing: true, Msg: hint}
}
