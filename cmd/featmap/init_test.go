package main

import (
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
		if testing.Short() && k != fmap.Hellinger {
			continue
		}
		code, dout, errOut := runCLI("design", writeSpec(t, out))
		if code != exitOK || !strings.Contains(dout, "verified") {
			t.Errorf("design of init %s: exit %d, %q\nspec:\n%s", k, code, errOut, out)
		}
	}
	code, _, errOut := runCLI("init", "cosine")
	if code != exitUsage || !strings.Contains(errOut, "chi2") {
		t.Errorf("init cosine: exit %d, %q", code, errOut)
	}
	if code, _, errOut := runCLI("init", "-h"); code != exitOK || !strings.Contains(errOut, "example: featmap init") {
		t.Errorf("init -h: exit %d, %q", code, errOut)
	}
}
