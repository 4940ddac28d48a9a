package learn

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// kernelsData is a data section of columns 2..7 and label column 8.
var kernelsData = &datafile.Section{File: "d.csv", First: 2, Last: 7, Label: 8}

func f64(x float64) *float64 { return &x }
func cols(a, b int) *[2]int  { return &[2]int{a, b} }

// rbfItem is an rbf kernel of σ 1 on the data columns a..b.
func rbfItem(a, b int) *KernelItem {
	return &KernelItem{Type: "rbf", Sigma: f64(1), Columns: cols(a, b)}
}

// wantKeyError fails unless err is a *design.SectionError equal to want.
func wantKeyError(t *testing.T, err error, want design.SectionError) {
	t.Helper()
	var se *design.SectionError
	if !errors.As(err, &se) || *se != want {
		t.Errorf("error %#v, want %#v", err, want)
	}
}

// TestKernelsCheckData: a kernels section needs a data section with a
// label column and columns, each refusal a missing key of its own.
func TestKernelsCheckData(t *testing.T) {
	for _, c := range []struct {
		d    *datafile.Section
		want design.SectionError
	}{
		{nil, design.SectionError{Key: "data", Missing: true, Msg: "kernels learn from labelled data: data: {file, columns, label_column}"}},
		{&datafile.Section{Last: 5, Label: -1}, design.SectionError{Key: "data.label_column", Missing: true, Msg: "the group lasso learns the kernels' weights from the labels"}},
		{&datafile.Section{Last: -1, Label: 6}, design.SectionError{Key: "data.columns", Missing: true, Msg: "the kernels' column groups must lie in [first, last]"}},
	} {
		wantKeyError(t, Kernels{}.CheckData(c.d), c.want)
	}
	if err := (Kernels{}).CheckData(kernelsData); err != nil {
		t.Errorf("data %+v: %v", kernelsData, err)
	}
}

// TestKernelsCheckItem: every item's keys are checked against its kernel
// type, its columns against the data's and the items before it; each
// error names its key, says whether it is missing or at the value, and
// which key's line the message refers to.
func TestKernelsCheckItem(t *testing.T) {
	chi := func(it KernelItem) *KernelItem { it.Type = fmap.ExpChi2; return &it }
	cases := []struct {
		name  string
		items []*KernelItem
		want  design.SectionError
	}{
		{"no type", []*KernelItem{{Sigma: f64(1), Columns: cols(2, 3)}},
			design.SectionError{Key: "kernels[0].type", Missing: true, Msg: "rbf, skewed-chi2, skewed-intersection or exp-chi2"}},
		{"exp-chi2 without beta", []*KernelItem{chi(KernelItem{Columns: cols(2, 3)})},
			design.SectionError{Key: "kernels[0].beta", Missing: true, Msg: "the exp-chi2 scale β: a number > 0"}},
		{"exp-chi2 with sigma", []*KernelItem{chi(KernelItem{Beta: f64(1), Sigma: f64(1), Columns: cols(2, 3)})},
			design.SectionError{Key: "kernels[0].sigma", Msg: "sigma is the width of rbf and the skewed kernels; exp-chi2 has beta"}},
		{"exp-chi2 with c", []*KernelItem{chi(KernelItem{Beta: f64(1), C: f64(0), Columns: cols(2, 3)})},
			design.SectionError{Key: "kernels[0].c", Msg: "c is the offset of the skewed kernels; exp-chi2 has none"}},
		{"rbf without sigma", []*KernelItem{{Type: "rbf", Columns: cols(2, 3)}},
			design.SectionError{Key: "kernels[0].sigma", Missing: true, Msg: "the rbf width: a number > 0"}},
		{"rbf with beta", []*KernelItem{{Type: "rbf", Sigma: f64(1), Beta: f64(1), Columns: cols(2, 3)}},
			design.SectionError{Key: "kernels[0].beta", Msg: "beta is the scale of kernel exp-chi2; rbf has none"}},
		{"rbf with c", []*KernelItem{{Type: "rbf", Sigma: f64(1), C: f64(1), Columns: cols(2, 3)}},
			design.SectionError{Key: "kernels[0].c", Msg: "c is the offset of the skewed kernels; rbf has none"}},
		{"no columns", []*KernelItem{{Type: "skewed-chi2", Sigma: f64(1), C: f64(1)}},
			design.SectionError{Key: "kernels[0].columns", Missing: true, Msg: "the kernel's column group [first, last] of data columns"}},
		{"sigma out of range", []*KernelItem{{Type: "rbf", Sigma: f64(1e-300), Columns: cols(2, 3)}},
			design.SectionError{Key: "kernels[0].sigma", Msg: "1e-300: " + fmap.SigmaRange}},
		{"first after last", []*KernelItem{rbfItem(3, 2)},
			design.SectionError{Key: "kernels[0].columns", Value: true, Msg: "first must be <= last"}},
		{"outside the data", []*KernelItem{rbfItem(1, 3)},
			design.SectionError{Key: "kernels[0].columns", Value: true, Ref: "data.columns", Msg: "[1, 3] is not inside the data columns [2, 7]"}},
		{"beyond the data", []*KernelItem{rbfItem(6, 8)},
			design.SectionError{Key: "kernels[0].columns", Value: true, Ref: "data.columns", Msg: "[6, 8] is not inside the data columns [2, 7]"}},
		{"overlap", []*KernelItem{rbfItem(2, 3), rbfItem(4, 5), rbfItem(5, 7)},
			design.SectionError{Key: "kernels[2].columns", Value: true, Msg: "[5, 7] overlaps kernels[1].columns [4, 5]: column groups must not overlap"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var items []any
			var err error
			for _, it := range c.items {
				if items = append(items, it); err == nil {
					err = Kernels{}.CheckItem(items, kernelsData)
				}
			}
			wantKeyError(t, err, c.want)
		})
	}
	// A group holding the label column (spec refuses a label column
	// inside data.columns, but the check stands on its own).
	d := &datafile.Section{First: 0, Last: 9, Label: 4}
	wantKeyError(t, Kernels{}.CheckItem([]any{rbfItem(3, 5)}, d),
		design.SectionError{Key: "kernels[0].columns", Value: true, Msg: "[3, 5] holds the label column 4"})
	items := []any{rbfItem(2, 3), &KernelItem{Type: "skewed-intersection", Sigma: f64(2), C: f64(1), Columns: cols(4, 4)}, chi(KernelItem{Beta: f64(0.5), Columns: cols(5, 7)})}
	for i := range items {
		if err := (Kernels{}).CheckItem(items[:i+1], kernelsData); err != nil {
			t.Errorf("item %d: %v", i, err)
		}
	}
}

// TestKernelsMethod: the method section is rff-group-lasso's with an
// even dim_per_kernel within the group lasso's bound; the kernels come
// back as unweighted parts on columns relative to the data's first, and
// the method with its options and the seed's default.
func TestKernelsMethod(t *testing.T) {
	items := []any{rbfItem(2, 3), &KernelItem{Type: "skewed-chi2", Sigma: f64(2), C: f64(0.5), Columns: cols(4, 5)}, &KernelItem{Type: fmap.ExpChi2, Beta: f64(0.5), Columns: cols(6, 7)}}
	method := func(name string, dim int) *KernelsMethod {
		return &KernelsMethod{Name: name, RFFGroupLassoOptions: RFFGroupLassoOptions{DimPerKernel: dim, Lambda: 0.01}}
	}
	for _, c := range []struct {
		method any
		want   design.SectionError
	}{
		{nil, design.SectionError{Key: "method", Missing: true, Msg: "method: {name: rff-group-lasso, dim_per_kernel, lambda, seed}"}},
		{method("", 64), design.SectionError{Key: "method.name", Missing: true, Msg: "rff-group-lasso"}},
		{method("rff", 64), design.SectionError{Key: "method.name", Msg: `kernels are combined by method rff-group-lasso, not "rff"`}},
		{method("rff-group-lasso", 0), design.SectionError{Key: "method.dim_per_kernel", Missing: true, Msg: "every kernel's number of random features: an even number ≥ 2"}},
		{method("rff-group-lasso", 63), design.SectionError{Key: "method.dim_per_kernel", Msg: "must be even (cos-sin pairs), not 63"}},
		{method("rff-group-lasso", 1366), design.SectionError{Key: "method.dim_per_kernel", Msg: "3 kernels × 1366 = 4098 random features, more than the 4096 the group lasso may weigh (it holds their D × D moment matrices for the rows to fit and to validate: 256 MB at 4096)"}},
	} {
		_, _, err := Kernels{}.Kernels(items, c.method, kernelsData)
		wantKeyError(t, err, c.want)
	}
	parts, m, err := Kernels{}.Kernels(items, method("rff-group-lasso", 1364), kernelsData)
	if err != nil {
		t.Fatal(err)
	}
	want := []fmap.KernelPart{
		{Kernel: fmap.Kernel{Type: "rbf", Sigma: []float64{1}}, First: 0, Last: 1},
		{Kernel: fmap.Kernel{Type: "skewed-chi2", Sigma: []float64{2}, C: 0.5}, First: 2, Last: 3},
		{Kernel: fmap.Kernel{Type: fmap.ExpChi2, Beta: 0.5}, First: 4, Last: 5},
	}
	if !reflect.DeepEqual(parts, want) {
		t.Errorf("parts %+v, want %+v", parts, want)
	}
	gl, ok := m.(*RFFGroupLasso)
	if wantOpts := (RFFGroupLassoOptions{DimPerKernel: 1364, Lambda: 0.01, Seed: 1}); !ok || gl.Opts != wantOpts || gl.Blocks != nil {
		t.Errorf("method %#v, want rff-group-lasso with options %+v and no blocks", m, wantOpts)
	}
	if name := (Kernels{}).Method(); name != m.Name() {
		t.Errorf("Method() %q, the method made %q", name, m.Name())
	}
}

// TestKernelsCheckDomain: a skewed kernel's offset keeps lo + c > 0 on
// each of its own columns (per axis, or the one interval of every axis);
// the other kernels' columns may start anywhere.
func TestKernelsCheckDomain(t *testing.T) {
	skewed := func(c float64, first, last int) fmap.KernelPart {
		return fmap.KernelPart{Kernel: fmap.Kernel{Type: "skewed-chi2", Sigma: []float64{1}, C: c}, First: first, Last: last}
	}
	rbf := fmap.KernelPart{Kernel: fmap.Kernel{Type: "rbf", Sigma: []float64{1}}, First: 0, Last: 1}
	perAxis := &fmap.Domain{Lo: []float64{-5, -5, 1, -1.5, 0, 0}, Hi: []float64{5, 5, 2, 2, 1, 1}}
	if err := (Kernels{}).CheckDomain([]fmap.KernelPart{rbf, skewed(1, 2, 2), skewed(2, 3, 3)}, perAxis, kernelsData); err != nil {
		t.Errorf("offsets above every lo: %v", err)
	}
	err := Kernels{}.CheckDomain([]fmap.KernelPart{rbf, skewed(1, 2, 3)}, perAxis, kernelsData)
	wantKeyError(t, err, design.SectionError{Key: "kernels[1].c",
		Msg: "lo + c must be > 0 on the kernel's columns (it is a function of log(x + c)); data column 5 starts at -1.5 (domain) and c is 1"})
	one := &fmap.Domain{Lo: []float64{-3}, Hi: []float64{3}}
	err = Kernels{}.CheckDomain([]fmap.KernelPart{rbf, skewed(3.5, 2, 3), skewed(3, 4, 5)}, one, kernelsData)
	if err == nil || !strings.HasPrefix(err.Error(), "kernels[2].c: lo + c must be > 0") || !strings.Contains(err.Error(), "data column 6 starts at -3 (domain) and c is 3") {
		t.Errorf("one interval: %v, want kernels[2].c's offset refused at data column 6", err)
	}
}
