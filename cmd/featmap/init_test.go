package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/codegen"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/digits"
	"github.com/featmap/featmap/internal/schemacheck"
	"github.com/featmap/featmap/spec"
)

// TestInit: featmap init prints, for every kernel, a commented starter
// spec, whose first line names the spec schema for editors and which
// the schema accepts, that featmap design accepts as it is (it designs
// those without polynomial pieces; with -long the others too, and holds
// their files' sizes to the starter's comment: initSizes); an unknown
// kernel is a usage error listing the kernels.
func TestInit(t *testing.T) {
	raw, err := spec.Schema()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := schemacheck.New(raw)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range fmap.KernelTypes() {
		code, out, errOut := runCLI("init", k)
		if code != exitOK || !strings.Contains(out, "type: "+k) || !strings.Contains(out, "# ") ||
			!strings.HasPrefix(out, "# yaml-language-server: $schema="+spec.SchemaURL+"\n") {
			t.Fatalf("init %s: exit %d, %q", k, code, errOut)
		}
		if errs, err := schema.ValidateYAML([]byte(out)); err != nil || len(errs) > 0 {
			t.Errorf("init %s: the spec schema rejects the starter spec: %v %q", k, err, errs)
		}
		// The starters of maps with polynomial pieces say that gen's file
		// can be made smaller, with the default written out.
		pieces := k == fmap.Chi2 || k == fmap.Intersection || k == fmap.JS || k == fmap.RBF
		if s, err := featmap.ParseSpec("init.yaml", []byte(out)); err != nil || pieces != (s.Emit.Line > 0) || s.Emit.Tables != "fast" {
			t.Errorf("init %s: emit section %+v (%v), want one with tables fast: %v", k, s.Emit, err, pieces)
		}
		if pieces {
			small := strings.Replace(out, "tables: fast", "tables: small", 1)
			if _, err := featmap.ParseSpec("init.yaml", []byte(small)); err != nil {
				t.Errorf("init %s with tables: small: %v", k, err)
			}
		}
		if testing.Short() && k != fmap.Hellinger || pieces {
			continue // -long designs the pieces' starters in initSizes
		}
		code, dout, errOut := runCLI("design", writeSpec(t, out))
		if code != exitOK || !strings.Contains(dout, "verified") {
			t.Errorf("design of init %s: exit %d, %q\nspec:\n%s", k, code, errOut, out)
		}
	}
	if *long && !testing.Short() {
		initSizes(t)
	}
	code, _, errOut := runCLI("init", "cosine")
	if code != exitUsage || !strings.Contains(errOut, "chi2") {
		t.Errorf("init cosine: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI("init", "-h"); code != exitOK || !strings.Contains(errOut, "example: featmap init") {
		t.Errorf("init -h: exit %d, %q", code, errOut)
	}
}

// initSizes: the emitted file of every starter with an emit section is
// as large as the starter's comment says (starterEmit: fast's and small's
// range in KB, compact's in % of fast, each bound taken as what rounds to
// it). One design per starter, emitted three ways as gen does.
func initSizes(t *testing.T) {
	t.Helper()
	// The bounds the starter states: fast's range in KB, compact's in % of
	// fast, small's in KB.
	m := regexp.MustCompile(`a large file: (\d+)–(\d+) KB.*\n.*compact \((\d+)–(\d+) % of that\) or small \((\d+)–(\d+) KB`).FindStringSubmatch(starterEmit)
	if m == nil {
		t.Fatalf("the starter's emit comment states no sizes: %q", starterEmit)
	}
	kb := make([]int, 6)
	for i := range kb {
		kb[i], _ = strconv.Atoi(m[i+1])
	}
	for _, k := range []string{fmap.Chi2, fmap.Intersection, fmap.JS, fmap.RBF} {
		_, out, _ := runCLI("init", k)
		if !strings.Contains(out, starterEmit) {
			t.Fatalf("init %s lacks the emit section", k)
		}
		spec, err := featmap.ParseSpec("init.yaml", []byte(out))
		if err != nil {
			t.Fatal(err)
		}
		d, err := spec.Design(context.Background(), featmap.Settings{})
		if err != nil {
			t.Fatalf("init %s: %v", k, err)
		}
		size := map[string]int{}
		for _, name := range codegen.TablesNames {
			tables, _ := codegen.TablesNamed(name)
			files, err := codegen.GenerateFiles(d.Verified(), genInfo(spec, d, "maps", "m.go", "sha256:"+strings.Repeat("0", 64), tables))
			if err != nil || len(files) != 1 {
				t.Fatalf("init %s, tables %s: %d files, %v", k, name, len(files), err)
			}
			size[name] = len(files[0].Data)
		}
		t.Logf("init %s: fast %d, compact %d, small %d bytes", k, size["fast"], size["compact"], size["small"])
		if n := size["fast"]; n < kb[0]*1000-500 || n >= kb[1]*1000+500 {
			t.Errorf("init %s, tables fast: %d bytes, not %d–%d KB as the starter says", k, n, kb[0], kb[1])
		}
		if r := 100 * float64(size["compact"]) / float64(size["fast"]); r < float64(kb[2])-0.5 || r >= float64(kb[3])+0.5 {
			t.Errorf("init %s, tables compact: %.1f %% of fast, not %d–%d %% as the starter says", k, r, kb[2], kb[3])
		}
		if n := size["small"]; n < kb[4]*1000-500 || n >= kb[5]*1000+500 {
			t.Errorf("init %s, tables small: %d bytes, not %d–%d KB as the starter says", k, n, kb[4], kb[5])
		}
	}
}

// TestInitLearned: featmap init rff and init nystroem print starters of
// maps learned from labelled rows (data and learn sections), which the
// schema accepts and which design, beside a data.csv of the digits,
// accepts as they are, stating the model it learned.
func TestInitLearned(t *testing.T) {
	raw, err := spec.Schema()
	if err != nil {
		t.Fatal(err)
	}
	schema, err := schemacheck.New(raw)
	if err != nil {
		t.Fatal(err)
	}
	rows, labels, err := digits.LoadLabelled(filepath.Join("..", "..", "testdata", "digits.csv.gz"), 400)
	if err != nil {
		t.Fatal(err)
	}
	var csv strings.Builder
	for i, x := range rows {
		for _, v := range x {
			fmt.Fprintf(&csv, "%g,", v)
		}
		fmt.Fprintf(&csv, "%g\n", labels[i])
	}
	for _, m := range []string{"rff", "nystroem"} {
		code, out, errOut := runCLI("init", m)
		if code != exitOK || !strings.Contains(out, "name: "+m) || !strings.Contains(out, "learn:") || !strings.Contains(out, "data:") {
			t.Fatalf("init %s: exit %d, %q\n%s", m, code, errOut, out)
		}
		if errs, err := schema.ValidateYAML([]byte(out)); err != nil || len(errs) > 0 {
			t.Errorf("init %s: the spec schema rejects the starter spec: %v %q", m, err, errs)
		}
		path := writeSpec(t, out)
		if err := os.WriteFile(filepath.Join(filepath.Dir(path), "data.csv"), []byte(csv.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		code, dout, errOut := runCLI("design", path)
		if code != exitOK || !strings.Contains(dout, "model: classification, 10 classes") || !strings.Contains(dout, "held-out accuracy") {
			t.Errorf("design of init %s: exit %d, %q\n%s", m, code, errOut, dout)
		}
	}
}

// TestStarters: every kernel type a spec names has a starter spec with
// every section, so that init prints one for a new kernel too.
func TestStarters(t *testing.T) {
	for _, k := range fmap.KernelTypes() {
		st, ok := starters[k]
		switch {
		case !ok:
			t.Errorf("kernel %s has no starter", k)
		case st.kernel == "" || st.domain == "" || st.target == "" || st.method == "":
			t.Errorf("kernel %s's starter lacks a section: %+v", k, st)
		case !strings.Contains(st.kernel, "type: "+k+"\n") && !strings.Contains(st.kernel, "type: "+k+" "):
			t.Errorf("kernel %s's starter names another type:\n%s", k, st.kernel)
		}
	}
	if len(starters) != len(fmap.KernelTypes()) {
		t.Errorf("%d starters for %d kernel types", len(starters), len(fmap.KernelTypes()))
	}
}
