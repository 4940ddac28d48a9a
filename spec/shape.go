package spec

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"gopkg.in/yaml.v3"
)

// This file reads a spec's shape: target and method (one design), or
// compare (several methods at several dimensions), and a method with its
// options, checked against the problem.

// shape reads either target and method or compare.
func (p *parser) shape(top *mapping, d specDoc, s *Spec) error {
	const both = "a spec has either target and method (one design) or compare (a comparison), not both"
	if err := p.exclusive(top, "target", "compare", both); err != nil {
		return err
	}
	if err := p.exclusive(top, "method", "compare", both); err != nil {
		return err
	}
	if d.Compare.V != nil {
		return p.compare(d.Compare.V, s)
	}
	switch {
	case d.Target.V == nil && d.Method.V == nil:
		return p.errAt(top.node, "", "missing target and method (one design) or compare (a comparison)")
	case d.Target.V == nil:
		return p.missing(top, "target", fmt.Sprintf("method at line %d needs a target: dim or max_error", d.Method.K.Line))
	case d.Method.V == nil:
		return p.missing(top, "method", fmt.Sprintf("target at line %d needs a method: name: %s", d.Target.K.Line, strings.Join(methodTable().Names(), " | ")))
	}
	// The target's errors and the method's are independent; D against
	// the method needs both, and the problem.
	dimNode, terr := p.target(d.Target.V, s)
	ms, merr := p.method(d.Method.V, "method", d.Method.K.Line, false, s.Problem)
	if err := joinSpecErrors([]error{terr, merr}); err != nil {
		return err
	}
	s.Method = ms
	if p.noProblem {
		return nil
	}
	// The kernel's limits first (Hellinger's one dimension), then the
	// options' (li's explicit k), then the method's (vz's odd dimensions).
	m, dim := s.Method, s.Target.Dim
	if s.IsAuto() {
		// Which methods apply is decided at design time, once the data
		// is loaded (Spec.Auto).
		return nil
	}
	dims := design.DimsFor(m.Method, s.Problem)
	dimErr := p.errAt(dimNode, "target.dim", "%s", dims.Refusal(dim))
	if s.Problem.Kernel.Type == fmap.Hellinger && dim > 0 && !dims.Has(dim) {
		return dimErr
	}
	if tc, ok := m.Method.(design.TargetChecker); ok {
		if err := tc.CheckTarget(dim); err != nil {
			return m.optionErr(p.path, err)
		}
	}
	if dim > 0 && !dims.Has(dim) {
		return dimErr
	}
	return nil
}

// target reads the target section and returns target.dim's node.
func (p *parser) target(n *yaml.Node, s *Spec) (*yaml.Node, error) {
	var d targetDoc
	m, err := p.section(n, "target", &d)
	if err == nil {
		err = p.exclusive(m, "dim", "max_error", "give exactly one")
	}
	switch {
	case err != nil:
		return nil, err
	case d.Dim > 0 && m.keys["max_dim"] != nil:
		return nil, p.errAt(m.keys["max_dim"], "target.max_dim", "applies only with target.max_error, not with target.dim")
	case d.Dim == 0 && d.MaxError == 0:
		return nil, p.errAt(m.node, "target", "missing dim or max_error (exactly one is required)")
	case d.MaxError > 0 && d.MaxError < MinMaxError:
		return nil, p.errAt(m.value("max_error"), "target.max_error", "%v is below %v, the smallest error the float64 verification can tell from rounding: at least %v", d.MaxError, MinMaxError, MinMaxError)
	case d.MaxError > 0 && d.MaxDim == 0:
		d.MaxDim = DefaultMaxDim
	}
	s.Target = &TargetSpec{Dim: d.Dim, MaxError: d.MaxError, MaxDim: d.MaxDim, line: n.Line}
	for _, k := range []string{"dim", "max_dim"} {
		if kn := m.keys[k]; kn != nil {
			s.Target.line = kn.Line
		}
	}
	if top, why := fmap.MaxVerifiedDim(s.Problem); !p.noProblem && d.MaxError > 0 && d.MaxDim > top {
		n := m.value("max_dim")
		if n == nil {
			n = m.node
		}
		return nil, p.errAt(n, "target.max_dim", "%d (the largest D the max_error search may verify): %s: at most %d", d.MaxDim, why, top)
	}
	return m.value("dim"), nil
}

// compare reads the compare section.
func (p *parser) compare(n *yaml.Node, s *Spec) error {
	var d compareDoc
	m, err := p.section(n, "compare", &d)
	if err != nil {
		return err
	}
	c := &CompareSpec{}
	if d.Methods.V == nil {
		return p.missing(m, "methods", "a list of methods, e.g. [chum, vz]")
	}
	items, err := p.list(d.Methods.V, "compare.methods", "a list of methods")
	if err == nil && len(items) == 0 {
		err = p.errAt(d.Methods.V, "compare.methods", "must name at least one method")
	}
	if err != nil {
		return err
	}
	// Each method's errors are independent of the others', and of the
	// dimensions'.
	var errs []error
	seen := map[string]int{}
	for i, it := range items {
		field := elem("compare.methods", i)
		ms, err := p.method(it, field, it.Line, true, s.Problem)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		key := optionsKey(ms)
		if j, dup := seen[key]; dup {
			errs = append(errs, p.errAt(it, field, "same method and options as %s", elem("compare.methods", j)))
			continue
		}
		seen[key] = i
		c.Methods = append(c.Methods, *ms)
	}
	if err := p.compareDims(m, d, c); err != nil || len(errs) > 0 {
		return joinSpecErrors(append(errs, err))
	}
	s.Compare = c
	return nil
}

// compareDims reads compare.dims or compare.widths into c.
func (p *parser) compareDims(m *mapping, d compareDoc, c *CompareSpec) error {
	if err := p.exclusive(m, "dims", "widths", "give exactly one: dims (every method at D) or widths (every method at the D giving that many outputs per row)"); err != nil {
		return err
	}
	key, one, what, eg := "dims", "dimension", "output dimensions", "[3, 5, 7]"
	list := d.Dims.V
	if d.Widths.V != nil {
		key, one, what, eg = "widths", "width", "output widths (numbers per row)", "[64, 128, 256]"
		list = d.Widths.V
		c.Widths = true
	}
	if list == nil {
		return p.missing(m, "dims", "a list of output dimensions, e.g. [3, 5, 7], or widths: a list of output widths, e.g. [64, 128, 256]")
	}
	field := "compare." + key
	items, err := p.list(list, field, "a list of "+what)
	if err == nil && len(items) == 0 {
		err = p.errAt(list, field, "must give at least one %s, e.g. %s", one, eg)
	}
	if err != nil {
		return err
	}
	dims := map[int64]int{}
	for i, it := range items {
		f := elem(field, i)
		v, err := p.intIn(it, f, 1, MaxDim)
		if err != nil {
			return err
		}
		if j, dup := dims[v]; dup {
			return p.errAt(it, f, "duplicate %s %d (also %s)", one, v, elem(field, j))
		}
		dims[v] = i
		c.Dims = append(c.Dims, int(v))
	}
	return nil
}

// method reads a method (the method section, or a compare.methods item: a
// name or a mapping with name and options) and checks it against the
// problem.
func (p *parser) method(n *yaml.Node, field string, line int, item bool, pr *fmap.Problem) (*MethodSpec, error) {
	names := methodTable().Names()
	ms := &MethodSpec{Line: line, field: field, keys: map[string]int{}}
	nameNode, nameField := n, field
	var m *mapping
	// A compared method may be a bare name; so may the method section's
	// auto (method: auto).
	bare := func(d *yaml.Node) bool {
		return d.Kind == yaml.ScalarNode && d.ShortTag() == "!!str" && (item || d.Value == AutoName)
	}
	if d := deref(n); !bare(d) {
		if item && d.Kind != yaml.MappingNode {
			return nil, p.typeErr(n, field, "a method name or a mapping with name and options")
		}
		if d.Kind == yaml.ScalarNode && d.ShortTag() == "!!str" && slices.Contains(names, d.Value) {
			// method: chum, as a compare list has it.
			e := p.typeErr(n, field, "a mapping")
			e.Msg += fmt.Sprintf(": write %s: {name: %s} (only auto stands alone)", field, d.Value)
			return nil, e
		}
		var err error
		if m, err = p.keys(n, field); err != nil {
			return nil, err
		}
		if nameNode, nameField = m.value("name"), child(field, "name"); nameNode == nil {
			// A mistyped name (NAME:, nmae:) is that key's error, not a
			// missing name.
			for _, k := range m.order {
				if suggest(k, []string{"name"}) != "" {
					return nil, p.errAt(m.keys[k], child(field, k), "unknown key (did you mean name?); a method is a mapping with name (one of %s) and its options", strings.Join(names, ", "))
				}
			}
			return nil, p.missing(m, "name", "one of "+strings.Join(names, ", "))
		}
	}
	if !item {
		// The method section may also be auto (every applicable method).
		names = append(names, AutoName)
	}
	name, err := p.str(nameNode, nameField, "method", names)
	if err != nil {
		return nil, err
	}
	if name == AutoName {
		if m != nil {
			if err := p.fill(m, &struct{}{}, "auto takes no options", "unknown option", "name"); err != nil {
				return nil, err
			}
		}
		ms.Method = autoMethod{}
		return ms, nil
	}
	ms.Method = methodTable().New(name)
	if p.noProblem {
		// Its name and options alone: the checks against the problem
		// would repeat the problem's error.
		pr = nil
	} else if err := ms.Applies(pr); err != nil {
		return nil, p.errAt(nameNode, nameField, "%s", err)
	}
	opts := ms.Options()
	if m != nil {
		what := name + " options are"
		if len(structFields(reflect.ValueOf(opts).Elem())) == 0 {
			what = name + " takes no options"
		}
		if err := p.fill(m, opts, what, "unknown option", "name"); err != nil {
			return nil, err
		}
		for k, kn := range m.keys {
			ms.keys[k] = kn.Line
		}
	}
	if c, ok := ms.Method.(design.OptionChecker); ok && pr != nil {
		if err := c.CheckOptions(pr); err != nil {
			return nil, ms.optionErr(p.path, err)
		}
	}
	if d, ok := opts.(design.Defaulter); ok {
		d.SetDefaults()
	}
	return ms, nil
}

// optionsKey is what two compared methods share when they are the same
// method with the same options once the defaults are filled in: those of
// its Defaulter (already set) and the values an option's zero stands for
// (`spec:"default=V"`: a seed of 0 is seed 1), so that {name: nystroem}
// and {name: nystroem, seed: 1} are one method. Defaults that depend on the
// problem (rff's sampling by kernel, chum's omega_max) are not resolved.
func optionsKey(ms *MethodSpec) string {
	var b strings.Builder
	b.WriteString(ms.Name())
	for _, f := range structFields(reflect.ValueOf(ms.Options()).Elem()) {
		text := ""
		if f.tag.def != "" && f.v.IsZero() {
			text = f.tag.def
		} else if f.v.Kind() == reflect.Pointer && !f.v.IsNil() && f.v.Elem().Kind() != reflect.Struct {
			j, _ := json.Marshal(f.v.Elem().Interface())
			text = string(j)
		} else {
			j, _ := json.Marshal(f.v.Interface())
			text = string(j)
		}
		fmt.Fprintf(&b, ";%s=%s", f.name, text)
	}
	return b.String()
}
