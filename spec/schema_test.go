package spec

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/featmap/featmap/internal/schemacheck"
)

var updateSchema = flag.Bool("update", false, "rewrite docs/spec.schema.json from Schema")

// schemaFile is docs/spec.schema.json, from this package's directory.
const schemaFile = "../docs/spec.schema.json"

// TestSchema: docs/spec.schema.json is what Schema derives from the
// decoder's types today; a changed key, enum or limit fails here until
// the file is regenerated.
func TestSchema(t *testing.T) {
	got, err := Schema()
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
		t.Fatalf("docs/spec.schema.json differs from Schema (the spec decoder's types changed): update it with\n" +
			"\tgo test -run TestSchema ./spec -update\nor\n\tgo run ./cmd/featmap schema > docs/spec.schema.json")
	}
}

// TestSchemaTables: every key path the description and hand-read tables
// of schema.go name is a key of the schema, so that a renamed key does not
// lose its description silently.
func TestSchemaTables(t *testing.T) {
	raw, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	type props struct {
		Properties map[string]any `json:"properties"`
		Items      *struct {
			Properties map[string]any `json:"properties"`
			OneOf      []struct {
				Properties map[string]any `json:"properties"`
			} `json:"oneOf"`
		} `json:"items"`
	}
	var s struct {
		Properties map[string]props `json:"properties"`
		Defs       map[string]props `json:"$defs"`
	}
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	paths := map[string]bool{}
	for k, sec := range s.Properties {
		paths[k] = true
		for kk := range sec.Properties {
			paths[k+"."+kk] = true
		}
		if sec.Items != nil { // kernels: a list of sections (of one of several forms)
			for kk := range sec.Items.Properties {
				paths[k+"."+kk] = true
			}
			for _, alt := range sec.Items.OneOf {
				for kk := range alt.Properties {
					paths[k+"."+kk] = true
				}
			}
		}
	}
	for kk := range s.Defs["method-rff-group-lasso"].Properties {
		paths["method."+kk] = true
	}
	for k := range schemaDocs {
		if !paths[k] {
			t.Errorf("schemaDocs describes %s, which is no key of the schema", k)
		}
	}
	for k := range kvSchemas() {
		if !paths[k] {
			t.Errorf("kvSchemas has a schema for %s, which is no key of the schema", k)
		}
	}
}

// TestSchemaValidatesSpecs: every shipped spec and a few valid variants
// pass the schema; specs the decoder rejects for an unknown key, a bad
// enum, a missing key, a wrong type, a value out of range or an unknown
// method are rejected by the schema too.
func TestSchemaValidatesSpecs(t *testing.T) {
	raw, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	v, err := schemacheck.New(raw)
	if err != nil {
		t.Fatal(err)
	}
	validate := func(data []byte) []string {
		t.Helper()
		errs, err := v.ValidateYAML(data)
		if err != nil {
			t.Fatal(err)
		}
		return errs
	}
	paths, _ := filepath.Glob("../specs/*.yaml")
	if len(paths) == 0 {
		t.Fatal("no specs under specs/")
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(path, data); err != nil {
			t.Fatalf("%s: the decoder rejects a shipped spec: %v", path, err)
		}
		if errs := validate(data); len(errs) > 0 {
			t.Errorf("%s: the schema rejects a spec the decoder accepts:\n\t%s", path, strings.Join(errs, "\n\t"))
		}
	}

	const base = "version: 1\nname: X\nkernel: {type: chi2}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: 7}\nmethod: {name: chum}\n"
	valid := []string{
		base,
		base + "emit: {tables: small}\n",
		base + "emit: {tables: compact}\n",
		strings.Replace(base, "{name: chum}", "{name: vz, window: rectangular, period: 2}", 1),
		"version: 1\nname: X\nkernel: {type: exp-chi2, beta: 1}\ndomain: {dims: 2, interval: [[0, 1], [0, 2]]}\ntarget: {dim: 16}\nmethod: {name: rff, seed: 2, inner: {name: chum, dim: 5}}\n",
		"version: 1\nname: X\nkernel: {type: rbf, sigma: [0.3, 0.2]}\ndomain: {dims: 2, interval: [0, 1]}\ntarget: {max_error: 0.01, max_dim: 40}\nmethod: {name: rff}\n",
		"version: 1\nname: X\nkernel: {type: chi2}\ndomain: {integers: [0, 255]}\ncompare: {methods: [chum, {name: li, bins: 64}], dims: [3, 5]}\n",
		"version: 1\nname: X\nkernels:\n  - {type: rbf, sigma: 1, columns: [0, 1]}\n  - {type: skewed-chi2, sigma: 2, c: 1, columns: [2, 3]}\ndomain: {dims: 4, interval: [0, 1]}\nmethod: {name: rff-group-lasso, dim_per_kernel: 64, lambda: auto, seed: 1}\ndata: {file: d.csv, columns: [0, 3], label_column: 4}\n",
		// An exp-chi2 and an rbf group, as specs/group-lasso-digits.yaml.
		"version: 1\nname: X\nkernels:\n  - {type: exp-chi2, beta: 1, columns: [0, 31]}\n  - {type: rbf, sigma: 2, columns: [32, 63]}\ndomain: {dims: 64, interval: [0, 1]}\nmethod: {name: rff-group-lasso, dim_per_kernel: 512, lambda: auto, seed: 1}\ndata: {file: d.csv, columns: [0, 63], label_column: 64}\n",
	}
	for _, spec := range valid {
		if _, err := Parse("v.yaml", []byte(spec)); err != nil {
			t.Fatalf("the decoder rejects a valid test spec: %v\n%s", err, spec)
		}
		if errs := validate([]byte(spec)); len(errs) > 0 {
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
		{"group lasso lambda", "version: 1\nname: X\nkernels:\n  - {type: rbf, sigma: 1, columns: [0, 1]}\ndomain: {dims: 2, interval: [0, 1]}\nmethod: {name: rff-group-lasso, dim_per_kernel: 64, lambda: best}\ndata: {file: d.csv, columns: [0, 1], label_column: 2}\n", "method"},
		{"exp-chi2 with sigma", "version: 1\nname: X\nkernels:\n  - {type: exp-chi2, beta: 1, sigma: 1, columns: [0, 1]}\ndomain: {dims: 2, interval: [0, 1]}\nmethod: {name: rff-group-lasso, dim_per_kernel: 64}\ndata: {file: d.csv, columns: [0, 1], label_column: 2}\n", "kernels[0]"},
		{"rbf with beta", "version: 1\nname: X\nkernels:\n  - {type: rbf, beta: 1, sigma: 1, columns: [0, 1]}\ndomain: {dims: 2, interval: [0, 1]}\nmethod: {name: rff-group-lasso, dim_per_kernel: 64}\ndata: {file: d.csv, columns: [0, 1], label_column: 2}\n", "kernels[0]"},
		{"target and compare", base + "compare: {methods: [chum], dims: [3]}\n", "oneOf"},
		{"emit typo", base + "emit: {tabels: small}\n", "emit: tabels: not allowed"},
		{"emit bad choice", base + "emit: {tables: tiny}\n", "emit.tables: not one of"},
		{"emit with compare", "version: 1\nname: X\nkernel: {type: chi2}\ndomain: {integers: [0, 255]}\ncompare: {methods: [chum], dims: [3]}\nemit: {tables: small}\n", "not allowed"},
		{"inner without dim", "version: 1\nname: X\nkernel: {type: exp-chi2, beta: 1}\ndomain: {dims: 2, interval: [0, 1]}\ntarget: {dim: 16}\nmethod: {name: rff, inner: {name: chum}}\n", "missing dim"},
	}
	for _, c := range bad {
		if _, err := Parse("bad.yaml", []byte(c.spec)); err == nil {
			t.Fatalf("%s: the decoder accepts the bad spec\n%s", c.name, c.spec)
		}
		errs := validate([]byte(c.spec))
		if len(errs) == 0 || !strings.Contains(strings.Join(errs, "\n"), c.want) {
			t.Errorf("%s: schema errors %q, want one containing %q", c.name, errs, c.want)
		}
	}
}
