package spec

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"gopkg.in/yaml.v3"
)

// This file reads a spec's kernels section for the decoder it is given
// (KernelsDecoder, UseKernels): the YAML — the list, each item and the
// method section decoded strictly into the decoder's tagged structs, the
// errors placed at their lines — while the decoder says what the keys
// mean, checks them against the data's columns and makes the kernels and
// their method.

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

// A KernelsDecoder gives a spec's kernels section its meaning, as a
// method gives its options theirs: spec decodes each item of the list and
// the method section strictly into the tagged structs it returns (their
// yaml and spec tags, as a method's options struct), and it checks them
// and makes the kernels and their method. Its errors name keys, not lines
// (a *design.SectionError), and spec places them in the spec. It is given
// (UseKernels), not imported, so that reading a spec compiles none of the
// design stack; package learn's Kernels is featmap's, which package featmap
// gives.
type KernelsDecoder interface {
	// Method is the name of the method that combines the kernels, the
	// one a spec with kernels names in its method section.
	Method() string
	// NewItem returns a pointer to a new struct one item of the kernels
	// list decodes into; NewMethod one the method section decodes into.
	NewItem() any
	NewMethod() any
	// CheckData checks the data section the kernels learn from (nil
	// without one).
	CheckData(d *datafile.Section) error
	// CheckItem checks the last of items (kernels[len(items)-1]), each
	// decoded into a NewItem struct, against the data section and the
	// items before it.
	CheckItem(items []any, d *datafile.Section) error
	// Kernels returns the kernels of the checked items, their columns
	// relative to the data's first, and the method with the options of
	// method (decoded into a NewMethod struct; nil without a method
	// section), or why not.
	Kernels(items []any, method any, d *datafile.Section) ([]fmap.KernelPart, design.Method, error)
	// CheckDomain checks the kernels against the domain, read after
	// them.
	CheckDomain(kernels []fmap.KernelPart, dom *fmap.Domain, d *datafile.Section) error
}

// kernelsDec is the decoder given to UseKernels.
var kernelsDec KernelsDecoder

// UseKernels gives spec the decoder of a kernels section. It is called
// once, before any spec is read (package featmap does so when it is
// initialised); without it a spec with kernels is refused.
func UseKernels(d KernelsDecoder) { kernelsDec = d }

// kernelsSpec reads a spec with kernels (in place of kernel): the data
// section, the kernels and the method section, each checked by the
// kernels decoder, then the domain, which the kernels are checked
// against, and the error section. A target, a comparison and a learn
// section are refused: the map's dimension is dim_per_kernel times the
// number of kernels the group lasso keeps.
func (p *parser) kernelsSpec(top *mapping, d specDoc, s *Spec) error {
	dec := kernelsDec
	if dec == nil {
		return p.errAt(d.Kernels.K, "kernels", "this program reads no kernels section: it gave package spec no decoder for one (spec.UseKernels)")
	}
	// A spec with kernels has their method and no target: its map's
	// dimension is the decoder's method's to make.
	either := fmt.Sprintf("a spec has either kernel (one kernel) or kernels (%s's column groups), not both", dec.Method())
	if err := p.exclusive(top, "kernel", "kernels", either); err != nil {
		return err
	}
	for _, k := range []string{"target", "compare", "learn"} {
		if n := top.keys[k]; n != nil {
			return p.errAt(n, k, "not with kernels: method %s's map has dim_per_kernel features per kept kernel (the group lasso chooses which), so there is no %s", dec.Method(), k)
		}
	}
	if err := p.dataSection(d.Data, s); err != nil {
		return err
	}
	at := keyNodes{maps: map[string]*mapping{"": top}, written: map[string]*yaml.Node{}}
	if s.Data != nil {
		at.maps["data"], _ = p.keys(d.Data.V, "data")
	}
	if err := dec.CheckData(s.Data); err != nil {
		return p.keyErr(at, err)
	}
	items, err := p.list(d.Kernels.V, "kernels", "a list of kernels, each {type, its parameters, columns: [first, last]}")
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return p.errAt(d.Kernels.V, "kernels", "an empty list: give at least one kernel")
	}
	var decoded []any
	for i, it := range items {
		field := elem("kernels", i)
		v := dec.NewItem()
		m, err := p.section(it, field, v)
		if err != nil {
			return err
		}
		at.maps[field], at.written[field] = m, it
		decoded = append(decoded, v)
		if err := dec.CheckItem(decoded, s.Data); err != nil {
			return p.keyErr(at, err)
		}
	}
	var method any
	if d.Method.V != nil {
		method = dec.NewMethod()
		if at.maps["method"], err = p.section(d.Method.V, "method", method); err != nil {
			return err
		}
	}
	parts, m, err := dec.Kernels(decoded, method, s.Data)
	if err != nil {
		return p.keyErr(at, err)
	}
	ms := &MethodSpec{Method: m, Line: d.Method.K.Line, field: "method", keys: map[string]int{}}
	for k, kn := range at.maps["method"].keys {
		ms.keys[k] = kn.Line
	}
	// The problem's kernel stands for the kernels until learning combines
	// them: the first one's (every kernel is shift-invariant; the domain
	// is every column's), its σ on every input, so that it is a kernel of
	// the whole domain (fmap.Problem.Check holds one σ per axis). A skewed
	// kernel's offset is checked against its own columns by the decoder
	// once the domain is read, at its key, not as kernel.c.
	s.Problem.Kernel = parts[0].Kernel
	p.groups = true
	err = p.domain(top, d.Domain, s.Problem)
	p.groups = false
	if err != nil {
		return err
	}
	if k := &s.Problem.Kernel; len(k.Sigma) == 1 {
		k.Sigma = slices.Repeat(k.Sigma, s.Problem.Domain.Dims())
	}
	if err := dec.CheckDomain(parts, &s.Problem.Domain, s.Data); err != nil {
		return p.keyErr(at, err)
	}
	if err := p.errorSection(d.Error, s.Problem); err != nil {
		return err
	}
	gl := &GroupLassoSpec{Line: d.Kernels.K.Line}
	for _, k := range parts {
		gl.Kernels = append(gl.Kernels, KernelGroup{Kernel: k.Kernel, Columns: [2]int{k.First, k.Last}})
	}
	s.GroupLasso, s.Method = gl, ms
	return nil
}

// keyNodes are the mappings of a spec with kernels that its kernels
// decoder's errors may name, by key path ("" the spec's, data, kernels[i],
// method), and where each list item was written (an item may be an alias
// of a mapping elsewhere).
type keyNodes struct {
	maps    map[string]*mapping
	written map[string]*yaml.Node
}

// keyErr places a kernels decoder's *design.SectionError in the spec: a
// missing key at the mapping that lacks it, a key's error at the key (or
// its value), the error of a key not given at where its mapping is
// written; a referred key's line is added. Another error is the kernels
// section's.
func (p *parser) keyErr(at keyNodes, err error) error {
	var se *design.SectionError
	if !errors.As(err, &se) {
		return p.errAt(at.maps[""].keys["kernels"], "kernels", "%s", err)
	}
	split := func(path string) (*mapping, string) {
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			return at.maps[""], path
		}
		return at.maps[path[:i]], path[i+1:]
	}
	m, key := split(se.Key)
	if m == nil {
		panic(fmt.Sprintf("spec: the kernels decoder named %s, a key of no mapping spec read", se.Key))
	}
	var n *yaml.Node
	switch {
	case se.Missing:
		return p.missing(m, key, se.Msg)
	case m.keys[key] == nil:
		if n = at.written[m.field]; n == nil {
			n = m.node
		}
	case se.Value:
		n = m.value(key)
	default:
		n = m.keys[key]
	}
	msg := se.Msg
	if se.Ref != "" {
		rm, rk := split(se.Ref)
		msg += fmt.Sprintf(" (%s, line %d)", se.Ref, rm.keys[rk].Line)
	}
	return p.errAt(n, se.Key, "%s", msg)
}
