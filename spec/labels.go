package spec

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/featmap/featmap/design"
)

// This file states a method and its options in words: the labels that
// tell compared methods apart, and the options a report lists.

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
	fresh := methodTable().New(m.Name())
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

// OptionTexts lists m's options as "key value" (its description in a
// report).
func OptionTexts(m design.Method) []string {
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
