package spec

import (
	"errors"
	"strings"
	"testing"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/learn"
)

// useKernels gives spec the kernels decoder d for the rest of the test,
// and package learn's again afterwards.
func useKernels(t *testing.T, d KernelsDecoder) {
	t.Cleanup(func() { UseKernels(learn.Kernels{}) })
	UseKernels(d)
}

// TestKernelsNeedADecoder: without a kernels decoder a spec with kernels
// is refused at its kernels key, and there is no schema; the other specs
// read as before.
func TestKernelsNeedADecoder(t *testing.T) {
	useKernels(t, nil)
	m := "{name: rff-group-lasso, dim_per_kernel: 64}"
	data := "{file: d.csv, columns: [0, 5], label_column: 6}"
	_, err := Parse("spec.yaml", []byte(glSpec(glKernels, m, data)))
	const want = "spec.yaml:3: kernels: this program reads no kernels section: it gave package spec no decoder for one (spec.UseKernels)"
	var se *SpecError
	if !errors.As(err, &se) || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if _, err := Schema(); err == nil || !strings.Contains(err.Error(), "spec.UseKernels") {
		t.Errorf("schema without a kernels decoder: error %v, want one naming spec.UseKernels", err)
	}
	if _, err := Parse("x.yaml", []byte(chi2DataSpec("{file: d.csv}"))); err != nil {
		t.Errorf("a spec without kernels: %v", err)
	}
}

// weighedItem is a kernels item with a key package learn's has not.
type weighedItem struct {
	learn.KernelItem `yaml:",inline"`
	Weight           float64 `yaml:"weight" spec:"positive"`
}

// stubKernels is package learn's kernels decoder with items of another
// struct (weighedItem) and, if fail is set, fail as the second item's
// error.
type stubKernels struct {
	learn learn.Kernels
	fail  error
}

func (s stubKernels) Method() string                      { return s.learn.Method() }
func (stubKernels) NewItem() any                          { return &weighedItem{} }
func (s stubKernels) NewMethod() any                      { return s.learn.NewMethod() }
func (s stubKernels) CheckData(d *datafile.Section) error { return s.learn.CheckData(d) }
func (s stubKernels) CheckItem(items []any, d *datafile.Section) error {
	if len(items) == 2 && s.fail != nil {
		return s.fail
	}
	return s.learn.CheckItem(unweighed(items), d)
}
func (s stubKernels) Kernels(items []any, m any, d *datafile.Section) ([]fmap.KernelPart, design.Method, error) {
	return s.learn.Kernels(unweighed(items), m, d)
}
func (s stubKernels) CheckDomain(k []fmap.KernelPart, dom *fmap.Domain, d *datafile.Section) error {
	return s.learn.CheckDomain(k, dom, d)
}

// unweighed are package learn's items of weighedItems.
func unweighed(items []any) []any {
	out := make([]any, len(items))
	for i, it := range items {
		out[i] = &it.(*weighedItem).KernelItem
	}
	return out
}

// TestKernelsDecoderIsUsed: a kernels section decodes into the structs of
// the decoder spec is given and is checked by it: a key its items have
// and learn's have not reads with it and is unknown without it; its errors,
// which name keys, are placed at the key, at its value, at a missing key's
// mapping, at where the item is written for a key it lacks, with a
// referred key's line.
func TestKernelsDecoderIsUsed(t *testing.T) {
	m := "{name: rff-group-lasso, dim_per_kernel: 64}"
	data := "{file: d.csv, columns: [0, 5], label_column: 6}"
	weighed := glSpec(strings.Replace(glKernels, "columns: [2, 3]", "columns: [2, 3], weight: 2", 1), m, data)
	if _, err := Parse("spec.yaml", []byte(weighed)); err == nil || !strings.Contains(err.Error(), "spec.yaml:5: kernels[1].weight: unknown key") {
		t.Errorf("learn's decoder, a weight: %v, want kernels[1].weight unknown", err)
	}
	useKernels(t, stubKernels{})
	s, err := Parse("spec.yaml", []byte(weighed))
	if err != nil {
		t.Fatalf("the stub decoder, a weight: %v", err)
	}
	if k := s.GroupLasso.Kernels; len(k) != 3 || k[1].Columns != [2]int{2, 3} || s.Method.Name() != "rff-group-lasso" {
		t.Errorf("the stub decoder's kernels %+v, method %s", k, s.Method.Name())
	}
	spec := lines(
		"version: 1",
		"name: GLSynth",
		"data: {file: d.csv, columns: [0, 5], label_column: 6}",
		"kernels:",
		"  - &k",
		"    type: rbf",
		"    sigma: 1",
		"    columns:",
		"      - 0",
		"      - 1",
		"  - *k",
		"domain: {dims: 6, interval: [-3, 3]}",
		"method: "+m)
	for _, c := range []struct {
		fail error
		want string
	}{
		{&design.SectionError{Key: "kernels[1].columns", Msg: "at the key"}, "spec.yaml:8: kernels[1].columns: at the key"},
		{&design.SectionError{Key: "kernels[1].columns", Value: true, Msg: "at the value"}, "spec.yaml:9: kernels[1].columns: at the value"},
		{&design.SectionError{Key: "kernels[1].beta", Missing: true, Msg: "a hint"}, "spec.yaml:5: kernels[1].beta: missing required key (a hint)"},
		{&design.SectionError{Key: "kernels[1].c", Msg: "not given"}, "spec.yaml:11: kernels[1].c: not given"},
		{&design.SectionError{Key: "kernels[1].sigma", Ref: "data.columns", Msg: "see"}, "spec.yaml:7: kernels[1].sigma: see (data.columns, line 3)"},
		{&design.SectionError{Key: "data.holdout", Missing: true, Msg: "a fraction"}, "spec.yaml:3: data.holdout: missing required key (a fraction)"},
		{&design.SectionError{Key: "name", Msg: "the spec's"}, "spec.yaml:2: name: the spec's"},
		{errors.New("no key"), "spec.yaml:4: kernels: no key"},
	} {
		useKernels(t, stubKernels{fail: c.fail})
		_, err := Parse("spec.yaml", []byte(spec))
		var se *SpecError
		if !errors.As(err, &se) || err.Error() != c.want {
			t.Errorf("decoder error %v: spec error %v, want %q", c.fail, err, c.want)
		}
	}
}
