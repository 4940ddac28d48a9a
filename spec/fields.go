package spec

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// This file reads the tags of the structs a spec decodes into: each
// field's key (`yaml`) and rules (`spec`), for the decoder, the schema and
// the labels.

// structField is one decodable field of a struct: its spec key, its value
// and its spec tag's rules.
type structField struct {
	name string
	v    reflect.Value
	tag  tagRules
}

// tagRules are the rules of a `spec:"..."` tag: positive (a finite number
// > 0, or a list of them), auto (a number, or the word auto, read as 0),
// min=N and max=N (integers, and each of a [2]int pair), nonempty (a
// string), enum=a|b (one of the strings; what=w names them in messages,
// by default the key; a pair's what names its two numbers), enumof=name
// (one of the strings of a list another package owns, enumLists: the
// kernel types are fmap's), maxlen=N (a list), label (a method label shows
// the value alone), default=V (the value, as JSON, that the option's zero
// value stands for: a seed of 0 is seed 1; two compared methods that
// differ only there are the same).
type tagRules struct {
	positive, auto, nonempty, label bool
	min, max                        int64
	maxlen                          int
	enum                            []string
	what                            string
	def                             string
}

// enumLists are the lists an enumof tag names: the kernel types are the
// kernel families' (fmap.KernelTypes), so that a new family's kernel is a
// type the decoder and the schema take without a change here.
var enumLists = map[string]func() []string{
	"kernels": fmap.KernelTypes,
}

// structFields lists the fields of the struct v with a yaml key, inline
// structs flattened, in declaration order.
func structFields(v reflect.Value) []structField {
	var out []structField
	for i := range v.NumField() {
		f := v.Type().Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		switch {
		case opts == "inline":
			out = append(out, structFields(v.Field(i))...)
			continue
		case name == "" || name == "-" || !f.IsExported():
			continue
		}
		r := tagRules{min: math.MinInt64, max: math.MaxInt64, what: name}
		for _, rule := range strings.Split(f.Tag.Get("spec"), ",") {
			k, val, _ := strings.Cut(rule, "=")
			n, _ := strconv.ParseInt(val, 10, 64)
			switch k {
			case "positive":
				r.positive = true
			case "auto":
				r.auto = true
			case "nonempty":
				r.nonempty = true
			case "label":
				r.label = true
			case "min":
				r.min = n
			case "max":
				r.max = n
			case "maxlen":
				r.maxlen = int(n)
			case "enum":
				r.enum = strings.Split(val, "|")
			case "enumof":
				r.enum = enumLists[val]()
			case "what":
				r.what = val
			case "default":
				r.def = val
			}
		}
		out = append(out, structField{name, v.Field(i), r})
	}
	return out
}

// OptionKeys lists the keys a method's options decode from a spec, in
// declaration order (inline option groups flattened).
func OptionKeys(m design.Method) []string {
	var out []string
	for _, f := range structFields(reflect.ValueOf(m.Options()).Elem()) {
		out = append(out, f.name)
	}
	return out
}
