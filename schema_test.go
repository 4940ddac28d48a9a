package featmap

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

var updateSchema = flag.Bool("update", false, "rewrite docs/spec.schema.json from SpecSchema")

const schemaFile = "docs/spec.schema.json"

// TestSchema: docs/spec.schema.json is what SpecSchema derives from the
// decoder's types today; a changed key, enum or limit fails here until
// the file is regenerated.
func TestSchema(t *testing.T) {
	got, err := SpecSchema()
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	if *updateSchema {
		if err := os.WriteFile(schemaFile, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(schemaFile)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from SpecSchema (the spec decoder's types changed): update it with\n"+
			"\tgo test -run TestSchema . -update\nor\n\tgo run ./cmd/featmap schema > %s", schemaFile, schemaFile)
	}
}

// TestSchemaValidatesSpecs: every shipped spec and a few valid variants
// pass the schema; specs the decoder rejects for an unknown key, a bad
// enum, a missing key, a wrong type, a value out of range or an unknown
// method are rejected by the schema too.
func TestSchemaValidatesSpecs(t *testing.T) {
	raw, err := SpecSchema()
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil {
		t.Fatal(err)
	}
	v := &validator{root: schema}
	paths, _ := filepath.Glob("specs/*.yaml")
	if len(paths) == 0 {
		t.Fatal("no specs under specs/")
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ParseSpec(path, data); err != nil {
			t.Fatalf("%s: the decoder rejects a shipped spec: %v", path, err)
		}
		if errs := v.validateYAML(t, data); len(errs) > 0 {
			t.Errorf("%s: the schema rejects a spec the decoder accepts:\n\t%s", path, strings.Join(errs, "\n\t"))
		}
	}

	const base = "version: 1\nname: X\nkernel: {type: chi2}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: 7}\nmethod: {name: chum}\n"
	valid := []string{
		base,
		strings.Replace(base, "{name: chum}", "{name: vz, window: rectangular, period: 2}", 1),
		"version: 1\nname: X\nkernel: {type: exp-chi2, beta: 1}\ndomain: {dims: 2, interval: [[0, 1], [0, 2]]}\ntarget: {dim: 16}\nmethod: {name: rff, seed: 2, inner: {name: chum, dim: 5}}\n",
		"version: 1\nname: X\nkernel: {type: rbf, sigma: [0.3, 0.2]}\ndomain: {dims: 2, interval: [0, 1]}\ntarget: {max_error: 0.01, max_dim: 40}\nmethod: {name: rff}\n",
		"version: 1\nname: X\nkernel: {type: chi2}\ndomain: {integers: [0, 255]}\ncompare: {methods: [chum, {name: li, bins: 64}], dims: [3, 5]}\n",
	}
	for _, spec := range valid {
		if _, err := ParseSpec("v.yaml", []byte(spec)); err != nil {
			t.Fatalf("the decoder rejects a valid test spec: %v\n%s", err, spec)
		}
		if errs := v.validateYAML(t, []byte(spec)); len(errs) > 0 {
			t.Errorf("the schema rejects a spec the decoder accepts:\n%s\t%s", spec, strings.Join(errs, "\n\t"))
		}
	}

	bad := []struct{ name, spec, want string }{
		{"unknown top-level key", base + "colour: red\n", "colour: not allowed"},
		{"unknown kernel key", strings.Replace(base, "{type: chi2}", "{type: chi2, gama: 1}", 1), "kernel: gama: not allowed"},
		{"unknown method option", strings.Replace(base, "{name: chum}", "{name: chum, window: uniform}", 1), "method"},
		{"bad kernel enum", strings.Replace(base, "chi2", "cosine", 1), "kernel.type: not one of"},
		{"bad option enum", strings.Replace(base, "{name: chum}", "{name: vz, window: hann}", 1), "method"},
		{"bad error enum", base + "error: {norm: l2}\n", "error.norm: not one of"},
		{"unknown method", strings.Replace(base, "chum", "fourier", 1), "method"},
		{"missing name", strings.Replace(base, "name: X\n", "", 1), "missing name"},
		{"wrong type", strings.Replace(base, "dim: 7", "dim: seven", 1), "target.dim: want integer"},
		{"out of range", strings.Replace(base, "dim: 7", "dim: 0", 1), "target.dim: below the minimum"},
		{"not positive", base + "learn: {sigma: shared, ridge: 0}\n", "learn.ridge: not above"},
		{"target and compare", base + "compare: {methods: [chum], dims: [3]}\n", "oneOf"},
		{"inner without dim", "version: 1\nname: X\nkernel: {type: exp-chi2, beta: 1}\ndomain: {dims: 2, interval: [0, 1]}\ntarget: {dim: 16}\nmethod: {name: rff, inner: {name: chum}}\n", "missing dim"},
	}
	for _, c := range bad {
		if _, err := ParseSpec("bad.yaml", []byte(c.spec)); err == nil {
			t.Fatalf("%s: the decoder accepts the bad spec\n%s", c.name, c.spec)
		}
		errs := v.validateYAML(t, []byte(c.spec))
		if len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), c.want) {
			t.Errorf("%s: schema errors %q, want one containing %q", c.name, errs, c.want)
		}
	}
}

// validator checks a YAML document against the subset of JSON Schema that
// SpecSchema emits: type, enum, const, pattern, minLength, required,
// properties with additionalProperties false, minimum, maximum,
// exclusiveMinimum, items, minItems, maxItems, oneOf and local $refs.
type validator struct{ root map[string]any }

func (v *validator) validateYAML(t *testing.T, data []byte) []string {
	t.Helper()
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("yaml: %v", err)
	}
	return v.check(v.root, doc, "")
}

// check returns the ways x fails schema s at key path at.
func (v *validator) check(s map[string]any, x any, at string) []string {
	fail := func(format string, args ...any) []string {
		return []string{fmt.Sprintf("%s: %s", strings.TrimPrefix(at, "."), fmt.Sprintf(format, args...))}
	}
	if ref, ok := s["$ref"].(string); ok {
		def := v.root["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")]
		if def == nil {
			return fail("unresolved $ref %s", ref)
		}
		return v.check(def.(map[string]any), x, at)
	}
	if typ, ok := s["type"].(string); ok && !hasType(x, typ) {
		return fail("want %s, not %v", typ, x)
	}
	if c, ok := s["const"]; ok && !sameValue(c, x) {
		return fail("not %v", c)
	}
	if e, ok := s["enum"].([]any); ok && !slices.ContainsFunc(e, func(c any) bool { return sameValue(c, x) }) {
		return fail("not one of %v", e)
	}
	var errs []string
	switch x := x.(type) {
	case string:
		if p, ok := s["pattern"].(string); ok && !regexp.MustCompile(p).MatchString(x) {
			errs = append(errs, fail("does not match %s", p)...)
		}
		if n, ok := s["minLength"].(float64); ok && float64(len(x)) < n {
			errs = append(errs, fail("shorter than %v", n)...)
		}
	case map[string]any:
		props, _ := s["properties"].(map[string]any)
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if ps, ok := props[k].(map[string]any); ok {
				errs = append(errs, v.check(ps, x[k], at+"."+k)...)
			} else if s["additionalProperties"] == false {
				errs = append(errs, fail("%s: not allowed", k)...)
			}
		}
		for _, r := range asList(s["required"]) {
			if _, ok := x[r.(string)]; !ok {
				errs = append(errs, fail("missing %s", r)...)
			}
		}
	case []any:
		if n, ok := s["minItems"].(float64); ok && float64(len(x)) < n {
			errs = append(errs, fail("fewer than %v items", n)...)
		}
		if n, ok := s["maxItems"].(float64); ok && float64(len(x)) > n {
			errs = append(errs, fail("more than %v items", n)...)
		}
		if is, ok := s["items"].(map[string]any); ok {
			for i, it := range x {
				errs = append(errs, v.check(is, it, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	}
	if f, ok := toFloat(x); ok {
		if m, ok := s["minimum"].(float64); ok && f < m {
			errs = append(errs, fail("below the minimum %v", m)...)
		}
		if m, ok := s["maximum"].(float64); ok && f > m {
			errs = append(errs, fail("above the maximum %v", m)...)
		}
		if m, ok := s["exclusiveMinimum"].(float64); ok && !(f > m) {
			errs = append(errs, fail("not above %v", m)...)
		}
	}
	if alts := asList(s["oneOf"]); alts != nil {
		var matched int
		var sub []string
		for _, a := range alts {
			e := v.check(a.(map[string]any), x, at)
			if len(e) == 0 {
				matched++
			}
			sub = append(sub, e...)
		}
		if matched != 1 {
			errs = append(errs, fail("matches %d of oneOf's %d alternatives, want 1 (%s)", matched, len(alts), strings.Join(sub, "; "))...)
		}
	}
	return errs
}

func asList(x any) []any { l, _ := x.([]any); return l }

// toFloat returns a YAML or JSON number as a float64.
func toFloat(x any) (float64, bool) {
	switch x := x.(type) {
	case int:
		return float64(x), true
	case int64:
		return float64(x), true
	case uint64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// hasType reports whether the decoded YAML value x is of JSON Schema type typ.
func hasType(x any, typ string) bool {
	switch typ {
	case "object":
		_, ok := x.(map[string]any)
		return ok
	case "array":
		_, ok := x.([]any)
		return ok
	case "string":
		_, ok := x.(string)
		return ok
	case "boolean":
		_, ok := x.(bool)
		return ok
	case "integer":
		f, ok := toFloat(x)
		_, isFloat := x.(float64)
		return ok && !isFloat && f == math.Trunc(f)
	case "number":
		_, ok := toFloat(x)
		return ok
	}
	return false
}

// sameValue compares a JSON value with a YAML one (numbers by value).
func sameValue(a, b any) bool {
	fa, oka := toFloat(a)
	fb, okb := toFloat(b)
	if oka || okb {
		return oka && okb && fa == fb
	}
	return a == b
}
