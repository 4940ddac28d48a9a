package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/design/fmap"
	"github.com/featmap/featmap/internal/schemacheck"
)

// TestInit: featmap init prints, for every kernel, a commented starter
// spec, whose first line names the spec schema for editors and which
// the schema accepts, that featmap design accepts as it is (designs all of them in the
// full run); an unknown kernel is a usage error listing the kernels.
func TestInit(t *testing.T) {
	raw, err := featmap.SpecSchema()
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
			!strings.HasPrefix(out, "# yaml-language-server: $schema="+featmap.SchemaURL+"\n") {
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
		if testing.Short() && k != fmap.Hellinger {
			continue
		}
		code, dout, errOut := runCLI("design", writeSpec(t, out))
		if code != exitOK || !strings.Contains(dout, "verified") {
			t.Errorf("design of init %s: exit %d, %q\nspec:\n%s", k, code, errOut, out)
		}
	}
	if !testing.Short() {
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

// initSizes: gen of the chi2 starter with tables small writes a file at
// most 28 KB and with fast one of at least 150 KB, as the starter's
// comment says.
func initSizes(t *testing.T) {
	t.Helper()
	_, out, _ := runCLI("init", fmap.Chi2)
	for _, c := range []struct {
		tables string
		lo, hi int
	}{{"fast", 150_000, 420_000}, {"small", 0, 28_000}} {
		spec := writeSpec(t, strings.Replace(out, "tables: fast", "tables: "+c.tables, 1))
		dst := filepath.Join(t.TempDir(), "chi2.go")
		if code, _, errOut := runCLI("gen", "-o", dst, "-pkg", "maps", spec); code != exitOK {
			t.Fatalf("gen of init chi2 (tables %s): exit %d: %s", c.tables, code, errOut)
		}
		fi, err := os.Stat(dst)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("init chi2, tables %s: %d bytes", c.tables, fi.Size())
		if n := int(fi.Size()); n < c.lo || n > c.hi {
			t.Errorf("init chi2, tables %s: %d bytes, not in [%d, %d] as the starter says", c.tables, n, c.lo, c.hi)
		}
	}
}
