// Package schemacheck validates YAML documents against the subset of JSON
// Schema (draft 2020-12) that featmap's spec schema (featmap.SpecSchema)
// uses: type, enum, const, pattern, minLength, required, properties with
// additionalProperties false, minimum, maximum, exclusiveMinimum, items,
// minItems, maxItems, oneOf, not and local $refs (#/$defs/NAME). The tests of
// the schema use it to hold the shipped specs and the decoder's rejections
// to the schema, with no validator module added to featmap's.
package schemacheck

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"
)

// Validator checks decoded YAML documents against a JSON Schema.
type Validator struct{ root map[string]any }

// New returns a Validator for the JSON Schema in schema.
func New(schema []byte) (*Validator, error) {
	var root map[string]any
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, err
	}
	return &Validator{root: root}, nil
}

// ValidateYAML decodes the YAML document data and returns the ways it
// fails the schema ("key.path: what", empty if it passes).
func (v *Validator) ValidateYAML(data []byte) ([]string, error) {
	var doc any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	return v.check(v.root, doc, ""), nil
}

// check returns the ways x fails schema s at key path at.
func (v *Validator) check(s map[string]any, x any, at string) []string {
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
	if n, ok := s["not"].(map[string]any); ok && len(v.check(n, x, at)) == 0 {
		b, _ := json.Marshal(n)
		errs = append(errs, fail("matches %s, which is not allowed", b)...)
	}
	return errs
}

// asList returns x as a JSON array, or nil.
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
