package spec

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/design"
)

// This file derives a JSON Schema (draft 2020-12) of spec version 1 from
// the types the decoder fills: the section structs of parse.go and every
// registered method's options struct, walked by reflection with the same
// structFields the decoder uses, so that their keys, enums and limits
// cannot drift apart (TestSchema diffs docs/spec.schema.json against it).
// Keys the decoder reads by hand (fields of type kv) take their schema
// from kvSchemas.

// SchemaURL is where the shipped schema (docs/spec.schema.json) is
// published; its $id.
const SchemaURL = "https://raw.githubusercontent.com/featmap/featmap/main/docs/spec.schema.json"

// obj is a JSON Schema object.
type obj = map[string]any

// specSections maps each top-level key whose value is a section struct to
// that struct (a nil pointer of its type).
var specSections = map[string]any{
	"kernel":  (*kernelDoc)(nil),
	"domain":  (*domainDoc)(nil),
	"error":   (*errorDoc)(nil),
	"target":  (*targetDoc)(nil),
	"compare": (*compareDoc)(nil),
	"data":    (*dataDoc)(nil),
	"learn":   (*learnDoc)(nil),
	"emit":    (*emitDoc)(nil),
}

// kvSchemas are the schemas of the keys the decoder reads by hand, by key
// path.
func kvSchemas() map[string]obj {
	pair := func(item obj) obj {
		return obj{"type": "array", "items": item, "minItems": 2, "maxItems": 2}
	}
	positive := obj{"type": "number", "exclusiveMinimum": 0}
	return map[string]obj{
		"version": {"type": "integer", "enum": []any{1}},
		"name":    {"type": "string", "pattern": "^[A-Z][A-Za-z0-9_]*$"},
		"method":  {"$ref": "#/$defs/method"},
		"kernel.sigma": {"oneOf": []any{positive,
			obj{"type": "array", "items": positive, "minItems": 1}}},
		"domain.integers": pair(obj{"type": "integer"}),
		"domain.interval": {"oneOf": []any{pair(obj{"type": "number"}),
			obj{"type": "array", "items": pair(obj{"type": "number"}), "minItems": 1}}},
		"learn.ridge":  {"oneOf": []any{positive, obj{"const": "auto"}}},
		"data.columns": pair(obj{"type": "integer", "minimum": 0, "maximum": MaxInputs * 16}),
		"data.holdout": {"type": "number", "minimum": 0, "maximum": datafile.MaxHoldout},
		"compare.methods": {"type": "array", "minItems": 1, "items": obj{"oneOf": []any{
			obj{"type": "string", "enum": anys(schemaMethods())}, obj{"$ref": "#/$defs/method"}}}},
		"compare.dims":   {"type": "array", "minItems": 1, "items": obj{"type": "integer", "minimum": 1, "maximum": MaxDim}},
		"compare.widths": {"type": "array", "minItems": 1, "items": obj{"type": "integer", "minimum": 1, "maximum": MaxDim}},
	}
}

// schemaDocs are the descriptions of the schema's keys, by key path.
var schemaDocs = map[string]string{
	"version":               "The spec format's version: 1.",
	"name":                  "The Go identifier prefix of emitted code (exported).",
	"kernel":                "The kernel K(x, y) the map approximates.",
	"kernel.type":           "The kernel's name.",
	"kernel.gamma":          "The degree of a homogeneous kernel (default 1).",
	"kernel.sigma":          "The width of rbf and the skewed kernels: one number, or one per axis.",
	"kernel.c":              "The offset of the skewed kernels.",
	"kernel.beta":           "The scale of exp-chi2.",
	"domain":                "The inputs the map is designed and verified on.",
	"domain.dims":           "The input dimension (default 1).",
	"domain.integers":       "[lo, hi]: every integer in it (one axis).",
	"domain.interval":       "[lo, hi] for every axis, or one pair per axis.",
	"domain.negative":       "What a homogeneous kernel's map does with negative inputs (default sign).",
	"error":                 "How the map's error is measured.",
	"error.norm":            "The norm of the error over the domain (default linf).",
	"error.weight":          "absolute, relative (homogeneous kernels) or uniform.",
	"target":                "What to design: dim, or the smallest dimension reaching max_error.",
	"target.dim":            "The output dimension D.",
	"target.max_error":      "The largest error allowed; the smallest dimension reaching it is designed.",
	"target.max_dim":        "The largest dimension max_error tries (default 31).",
	"method":                "The design method, by name, with its options.",
	"compare":               "A comparison of methods at several dimensions (instead of target and method).",
	"compare.methods":       "Methods: a name, or a mapping with name and options.",
	"compare.dims":          "The output dimensions compared (or widths).",
	"compare.widths":        "Instead of dims: the output widths compared, in numbers per row; each method is designed at the D giving that width (per coordinate of an additive kernel: width / columns; nystroem: width).",
	"data":                  "A data file (CSV, optionally gzipped) the maps are fitted to and verified on.",
	"data.file":             "The file's path, relative to the spec.",
	"data.columns":          "[first, last]: the columns holding the inputs.",
	"data.holdout":          "The fraction of the rows held out to verify the map and measure its model, in [0, 0.5] (default 0.2, at most 2000 rows); 0 holds none out.",
	"learn":                 "Learn the kernel's σ from the data's labels (method rff or nystroem).",
	"learn.task":            "classification (the labels are classes) or regression (numbers); default: decided from the labels, a mix refused.",
	"emit":                  "How featmap gen writes the map's code (not with compare).",
	"emit.tables":           "The coefficient tables of a map evaluated by polynomial pieces (interval and 2-D/3-D Fourier maps): fast (default: lowest degree, largest file), compact (about a third of the size) or small (about a tenth, slower per input).",
	"kernels":               "In place of kernel: several kernels, one per column group of the data, combined by method rff-group-lasso.",
	"kernels.columns":       "[first, last]: the kernel's data columns (inside data.columns; groups do not overlap).",
	"method.dim_per_kernel": "rff-group-lasso: every kernel's number of random features (even).",
	"method.lambda":         "rff-group-lasso: the group penalty λ > 0, or auto (default).",
	"method.seed":           "rff-group-lasso: kernel g's features are rff's with seed + g (default 1).",
}

// schemaMethods are the registered methods whose schema comes from their
// options struct: all but the kernels' method (rff-group-lasso), which a
// spec names with kernels, in a method section of its own schema (the
// kernels decoder's NewMethod struct); named elsewhere (a comparison, an
// inner option), the decoder refuses it with its reason (Applies).
func schemaMethods() []string {
	var out []string
	for _, name := range methodTable().Names() {
		if kernelsDec == nil || name != kernelsDec.Method() {
			out = append(out, name)
		}
	}
	return out
}

// anys converts strings to []any for JSON enums.
func anys(ss []string) []any {
	out := make([]any, len(ss))
	for i, s := range ss {
		out[i] = s
	}
	return out
}

// Schema returns the JSON Schema (draft 2020-12) of spec version 1,
// indented, derived from the decoder's types and the method table.
// docs/spec.schema.json is its output (`featmap schema` prints it).
func Schema() (out []byte, err error) {
	// A field type the walk does not know is a bug in featmap (a new
	// option type needs a case in fieldSchema): an error, not a crash.
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("internal error: spec schema: %v", r)
		}
	}()
	if kernelsDec == nil {
		return nil, fmt.Errorf("spec: no kernels decoder: call spec.UseKernels first (package featmap gives learn.Kernels)")
	}
	kvs := kvSchemas()
	top := obj{}
	// A kernels item (the kernels decoder's NewItem struct): exp-chi2 with
	// beta (no sigma, no c), or rbf and the skewed kernels with sigma (no
	// beta), as the decoder checks them.
	glItem := func(types []any, drop string, need ...any) obj {
		props := optionProps(reflect.TypeOf(kernelsDec.NewItem()).Elem(), "kernels", kvs)
		delete(props, drop)
		if drop == "sigma" {
			delete(props, "c")
		}
		props["type"] = obj{"enum": types}
		return obj{"type": "object", "properties": props, "required": append([]any{"type", "columns"}, need...), "additionalProperties": false}
	}
	kvs["kernels"] = obj{"type": "array", "minItems": 1, "items": obj{"oneOf": []any{
		glItem([]any{"exp-chi2"}, "sigma", "beta"),
		glItem([]any{"rbf", "skewed-chi2", "skewed-intersection"}, "beta", "sigma"),
	}}}
	for _, f := range structFields(reflect.New(reflect.TypeOf(specDoc{})).Elem()) {
		if t, ok := specSections[f.name]; ok {
			top[f.name] = sectionSchema(f.name, reflect.TypeOf(t).Elem(), kvs)
		} else {
			top[f.name] = withDoc(kvs[f.name], f.name)
		}
	}
	methods, inners := []any{}, []any{}
	defs := obj{}
	for _, name := range schemaMethods() {
		m := methodTable().New(name)
		props := optionProps(reflect.TypeOf(m.Options()).Elem(), "", nil)
		props["name"] = obj{"const": name}
		defs["method-"+name] = obj{"type": "object", "properties": props,
			"required": []any{"name"}, "additionalProperties": false}
		inner := obj{"dim": obj{"type": "integer", "minimum": 1, "maximum": MaxDim,
			"description": "The inner map's output dimension."}}
		for k, v := range props {
			inner[k] = v
		}
		defs["inner-"+name] = obj{"type": "object", "properties": inner,
			"required": []any{"name", "dim"}, "additionalProperties": false}
		methods = append(methods, obj{"$ref": "#/$defs/method-" + name})
		inners = append(inners, obj{"$ref": "#/$defs/inner-" + name})
	}
	glName := kernelsDec.Method()
	glProps := optionProps(reflect.TypeOf(kernelsDec.NewMethod()).Elem(), "method", kvs)
	glProps["name"] = obj{"const": glName}
	defs["method-"+glName] = obj{"type": "object", "properties": glProps,
		"required": []any{"name", "dim_per_kernel"}, "additionalProperties": false,
		"description": "With kernels: the group lasso over the kernels' random features."}
	methods = append(methods, obj{"$ref": "#/$defs/method-" + glName})
	defs["method"] = obj{"oneOf": methods, "description": "A method: name (one of the registered methods) and that method's options."}
	defs["inner"] = obj{"oneOf": inners, "description": "Another method, applied first: name, dim and its options."}
	s := obj{
		"$schema":              "https://json-schema.org/draft/2020-12/schema",
		"$id":                  SchemaURL,
		"title":                "featmap spec, version 1",
		"description":          "Generated by `featmap schema` from the Go types that decode a spec; do not edit.",
		"type":                 "object",
		"properties":           top,
		"required":             []any{"version", "name", "domain"},
		"additionalProperties": false,
		// kernel with target and method, or with compare; or kernels
		// with method rff-group-lasso (the decoder refuses kernel with
		// kernels, and kernels with target, compare or learn).
		"oneOf": []any{
			obj{"required": []any{"kernel", "target", "method"}},
			obj{"required": []any{"kernel", "compare"}},
			obj{"required": []any{"kernels", "method"}},
		},
		// A comparison emits no code (the decoder refuses emit with it).
		"not":   obj{"required": []any{"compare", "emit"}},
		"$defs": defs,
	}
	return json.MarshalIndent(s, "", "  ")
}

// sectionRequired and sectionOneOf are the keys a section requires (the
// decoder's "missing required key" checks) and the keys of which it
// requires exactly one.
var (
	sectionRequired = map[string][]any{
		"kernel": {"type"}, "data": {"file"}, "learn": {"sigma"}, "compare": {"methods"},
	}
	sectionOneOf = map[string][]any{
		"domain": {"integers", "interval"}, "target": {"dim", "max_error"}, "compare": {"dims", "widths"},
	}
)

// sectionSchema is the schema of the section struct t at key path name.
func sectionSchema(name string, t reflect.Type, kvs map[string]obj) obj {
	s := obj{"type": "object", "properties": optionProps(t, name, kvs), "additionalProperties": false}
	if r := sectionRequired[name]; r != nil {
		s["required"] = r
	}
	if one := sectionOneOf[name]; one != nil {
		var alts []any
		for _, k := range one {
			alts = append(alts, obj{"required": []any{k}})
		}
		s["oneOf"] = alts
	}
	return withDoc(s, name)
}

// withDoc adds the description of key path field to s, if it has one.
func withDoc(s obj, field string) obj {
	if d, ok := schemaDocs[field]; ok {
		out := obj{"description": d}
		for k, v := range s {
			out[k] = v
		}
		return out
	}
	return s
}

// optionProps returns the schemas of the keys of struct t (inline structs
// flattened, as the decoder reads them), for the section at key path
// prefix ("" for a method's options).
func optionProps(t reflect.Type, prefix string, kvs map[string]obj) obj {
	props := obj{}
	for _, f := range structFields(reflect.New(t).Elem()) {
		path := f.name
		if prefix != "" {
			path = prefix + "." + f.name
		}
		props[f.name] = withDoc(fieldSchema(f, path, kvs), path)
	}
	return props
}

// fieldSchema is the schema of one field, from its Go type and spec tag
// (the checks value applies when decoding it).
func fieldSchema(f structField, path string, kvs map[string]obj) obj {
	r := f.tag
	t := f.v.Type()
	switch t {
	case reflect.TypeOf(kv{}):
		if s, ok := kvs[path]; ok {
			return s
		}
		panic("featmap: no schema for the key " + path)
	case reflect.TypeOf((*design.Inner)(nil)):
		return obj{"$ref": "#/$defs/inner"}
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	number := func() obj {
		if r.positive {
			return obj{"type": "number", "exclusiveMinimum": 0}
		}
		return obj{"type": "number"}
	}
	integer := func() obj {
		s := obj{"type": "integer"}
		if r.min != math.MinInt64 {
			s["minimum"] = r.min
		}
		if r.max != math.MaxInt64 {
			s["maximum"] = r.max
		}
		return s
	}
	switch t.Kind() {
	case reflect.Float64:
		if r.auto {
			return obj{"oneOf": []any{number(), obj{"const": "auto"}}}
		}
		return number()
	case reflect.Int, reflect.Int64:
		return integer()
	case reflect.Array: // [2]int: a pair [first, last]
		return obj{"type": "array", "items": integer(), "minItems": 2, "maxItems": 2}
	case reflect.Bool:
		return obj{"type": "boolean"}
	case reflect.String:
		s := obj{"type": "string"}
		if r.enum != nil {
			s["enum"] = anys(r.enum)
		}
		if r.nonempty {
			s["minLength"] = 1
		}
		return s
	case reflect.Slice:
		s := obj{"type": "array", "items": number(), "minItems": 1}
		if r.maxlen > 0 {
			s["maxItems"] = r.maxlen
		}
		return s
	}
	panic("featmap: no schema for the option " + path + " of type " + t.String())
}
