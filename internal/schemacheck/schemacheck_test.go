package schemacheck

import (
	"strings"
	"testing"
)

// TestValidate: each keyword of the subset rejects what it forbids and
// accepts what it allows, oneOf wants exactly one match and not none.
func TestValidate(t *testing.T) {
	schema := `{
	  "type": "object", "additionalProperties": false, "required": ["a"],
	  "not": {"required": ["b", "c"]},
	  "properties": {
	    "a": {"type": "integer", "minimum": 1, "maximum": 9},
	    "b": {"type": "string", "enum": ["x", "y"]},
	    "c": {"type": "number", "exclusiveMinimum": 0},
	    "d": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2},
	    "e": {"$ref": "#/$defs/named"},
	    "f": {"type": "string", "pattern": "^[A-Z]", "minLength": 2}
	  },
	  "$defs": {"named": {"oneOf": [
	    {"type": "object", "properties": {"name": {"const": "p"}, "k": {"type": "boolean"}}, "required": ["name"], "additionalProperties": false},
	    {"type": "object", "properties": {"name": {"const": "q"}}, "required": ["name"], "additionalProperties": false}
	  ]}}
	}`
	v, err := New([]byte(schema))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ doc, want string }{
		{"a: 3\nb: x\nd: [1, 2.5]\ne: {name: p, k: true}\nf: Ab\n", ""},
		{"a: 3\ne: {name: q}\n", ""},
		{"a: 3\nc: 0.5\n", ""},
		{"b: x\n", "missing a"},
		{"a: 3\nz: 1\n", "z: not allowed"},
		{"a: 3.5\n", "a: want integer"},
		{"a: 0\n", "a: below the minimum"},
		{"a: 10\n", "a: above the maximum"},
		{"a: 3\nb: w\n", "b: not one of"},
		{"a: 3\nc: 0\n", "c: not above"},
		{"a: 3\nd: [1]\n", "d: fewer than"},
		{"a: 3\nd: [1, 2, 3]\n", "d: more than"},
		{"a: 3\nd: [1, s]\n", "d[1]: want number"},
		{"a: 3\ne: {name: r}\n", "matches 0 of oneOf's 2"},
		{"a: 3\ne: {name: q, k: true}\n", "matches 0 of oneOf's 2"},
		{"a: 3\nf: ab\n", "does not match"},
		{"a: 3\nf: A\n", "shorter than"},
		{"a: 3\nb: x\nc: 1\n", "not allowed"},
	} {
		errs, err := v.ValidateYAML([]byte(c.doc))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(errs, "\n")
		if c.want == "" && got != "" || c.want != "" && !strings.Contains(got, c.want) {
			t.Errorf("%q: errors %q, want %q", c.doc, got, c.want)
		}
	}
}
