package featmap

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/registry"
)

// Describe restates the spec in a few lines of words: kernel, domain,
// error measure, and target and method (or the comparison).
func (s *Spec) Describe() []string {
	p := s.Problem
	lines := []string{
		"kernel: " + p.Kernel.Describe(),
		"domain: " + p.Domain.Describe(),
		fmt.Sprintf("error: %s, minimised in the %s norm", p.Measure, p.Norm),
	}
	if gl := s.GroupLasso; gl != nil {
		lines[0] = "kernels:"
		for g, k := range gl.Kernels {
			lines[0] += fmt.Sprintf(" %d. %s on data columns %d..%d;", g, k.Kernel.Describe(), k.Columns[0]+s.Data.First, k.Columns[1]+s.Data.First)
		}
		lam := "auto (relaxed-lasso validation)"
		if gl.Lambda > 0 {
			lam = fmt.Sprintf("%g", gl.Lambda)
		}
		lines = append(lines, fmt.Sprintf("method: rff-group-lasso, %d features per kernel, λ %s, seed %d", gl.DimPerKernel, lam, gl.Seed))
		if r := s.GroupLassoResult; r != nil {
			lines = append(lines, strings.Split(describeGroupLasso(gl, r), "\n")...)
			lines = append(lines, s.groupLassoLearnedLine())
		}
	}
	// An rff-group-lasso spec's target and method (made by learning) are
	// stated by the group lasso's lines above.
	if s.Target != nil && s.GroupLasso == nil {
		if s.Target.Dim > 0 {
			lines = append(lines, fmt.Sprintf("target: D = %d", s.Target.Dim))
		} else {
			lines = append(lines, fmt.Sprintf("target: the smallest D ≤ %d with error ≤ %g", s.Target.MaxDim, s.Target.MaxError))
		}
	}
	if s.Method != nil && s.GroupLasso == nil {
		lines = append(lines, "method: "+MethodLabels([]MethodSpec{*s.Method})[0])
	}
	if d := s.Data; d != nil {
		cols := "every column"
		if d.Last >= 0 {
			cols = fmt.Sprintf("columns %d..%d", d.First, d.Last)
		}
		if d.Label >= 0 {
			cols += fmt.Sprintf(", label column %d", d.Label)
		}
		lines = append(lines, fmt.Sprintf("data: %s (%s; at most %d rows)", d.File, cols, d.MaxRows))
	}
	if l := s.Learned; l != nil {
		lines = append(lines, s.LearnedLine())
	}
	if s.Emit.Tables != "" && s.Emit.Tables != "fast" {
		lines = append(lines, "emit: tables "+s.Emit.Tables)
	}
	return lines
}

// LearnedLine states what a learn section learned, in one line: σ from its
// start, from how many rows of which data, and the validation error before
// and after; for an rff-group-lasso spec, in several lines, every kernel's
// weight (or that it was dropped and left out of the map), λ, D, the data
// and the validation errors; "" otherwise.
func (s *Spec) LearnedLine() string {
	if s.GroupLasso != nil && s.GroupLassoResult != nil {
		return describeGroupLasso(s.GroupLasso, s.GroupLassoResult) + "\n" + s.groupLassoLearnedLine()
	}
	l := s.Learned
	if l == nil {
		return ""
	}
	d := s.Problem.Data
	sigma := func(v []float64) string {
		if slices.Min(v) == slices.Max(v) {
			return fmt.Sprintf("%.6g", v[0])
		}
		return fmt.Sprintf("%.4g", v)
	}
	sha := d.SHA256
	if len(sha) > 12 {
		sha = sha[:12] + "…"
	}
	ridge := fmt.Sprintf("ridge λ %.6g", l.Ridge)
	if s.Learn != nil && s.Learn.RidgeAuto {
		ridge = fmt.Sprintf("ridge λ %.6g chosen on the validation split (%.6g at the start)", l.Ridge, l.RidgeStart)
	}
	return fmt.Sprintf("learned: σ = %s from %s on %d rows of %s (sha256 %s, %d rows; %d more to validate): validation error %.4g → %.4g; %s",
		sigma(l.Sigma), sigma(l.Start), l.Train, d.File, sha, d.Rows, l.Held, l.ValidationBefore, l.ValidationAfter, ridge)
}

// option is one option of a method in words.
type option struct {
	key  string
	text string // "key value", or "no key" for a false switch
	// value is how a label shows it: the value alone for options tagged
	// label (vz's window), else text.
	value   string
	changed bool // it differs from its default
}

// options lists the options of m that are set (after the defaults that do
// not depend on the problem), in declaration order. A *bool option is a
// switch that is on unless set false.
func options(m design.Method) []option {
	fresh := registry.New(m.Name())
	if fresh == nil {
		// auto: no options, and no registered method of that name.
		return nil
	}
	defaults := fresh.Options()
	if d, ok := defaults.(design.Defaulter); ok {
		d.SetDefaults()
	}
	def := structFields(reflect.ValueOf(defaults).Elem())
	var out []option
	for i, f := range structFields(reflect.ValueOf(m.Options()).Elem()) {
		v := f.v
		if in, ok := v.Interface().(*design.Inner); ok {
			if in != nil {
				text := fmt.Sprintf("%s %s, D = %d", f.name, MethodLabels([]MethodSpec{{Method: in.Method}})[0], in.Dim)
				out = append(out, option{key: f.name, text: text, value: text, changed: true})
			}
			continue
		}
		if v.Kind() == reflect.Pointer && v.Type().Elem().Kind() == reflect.Float64 {
			if v.IsNil() {
				continue
			}
			text := fmt.Sprintf("%s %g", f.name, v.Elem().Float())
			changed := def[i].v.IsNil() || def[i].v.Elem().Float() != v.Elem().Float()
			out = append(out, option{key: f.name, text: text, value: text, changed: changed})
			continue
		}
		if v.Kind() == reflect.Pointer {
			if v.IsNil() || v.Elem().Bool() {
				continue
			}
			out = append(out, option{key: f.name, text: "no " + f.name, value: "no " + f.name, changed: true})
			continue
		}
		if v.IsZero() {
			continue
		}
		text := fmt.Sprintf("%s %v", f.name, v.Interface())
		if v.Kind() == reflect.Float64 || v.Kind() == reflect.Slice {
			text = fmt.Sprintf("%s %g", f.name, v.Interface())
		}
		o := option{key: f.name, text: text, value: text, changed: !reflect.DeepEqual(v.Interface(), def[i].v.Interface())}
		if f.tag.label {
			o.value = fmt.Sprint(v.Interface())
		}
		out = append(out, o)
	}
	return out
}

// optionTexts lists m's options as "key value" (its description in a
// report).
func optionTexts(m design.Method) []string {
	var out []string
	for _, o := range options(m) {
		out = append(out, o.text)
	}
	return out
}

// MethodLabels returns a label per method that tells it apart from the
// others: the method's name, followed in parentheses by the options that
// differ from their defaults or between methods of the same name, e.g.
// "chum", "vz (rectangular)", "vz (uniform)", "li (bins 10)". Labels that
// would still coincide get "#2", "#3", ... appended.
func MethodLabels(ms []MethodSpec) []string {
	count := map[string]int{}
	byName := map[string][][]option{}
	for _, m := range ms {
		count[m.Name()]++
		byName[m.Name()] = append(byName[m.Name()], options(m))
	}
	// differs reports whether the methods named name disagree on option o.
	differs := func(name string, o option) bool {
		for _, opts := range byName[name] {
			found := false
			for _, p := range opts {
				if p.key == o.key {
					found = true
					if p.text != o.text {
						return true
					}
				}
			}
			if !found {
				return true
			}
		}
		return false
	}
	labels := make([]string, len(ms))
	seen := map[string]int{}
	for i, m := range ms {
		var shown []string
		for _, o := range options(m) {
			if o.changed || count[m.Name()] > 1 && differs(m.Name(), o) {
				shown = append(shown, o.value)
			}
		}
		labels[i] = m.Name()
		if len(shown) > 0 {
			labels[i] += " (" + strings.Join(shown, ", ") + ")"
		}
		seen[labels[i]]++
		if n := seen[labels[i]]; n > 1 {
			labels[i] += fmt.Sprintf(" #%d", n)
		}
	}
	return labels
}
