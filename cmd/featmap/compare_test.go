package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/featmap/featmap/report"
)

// compareSpec is a small comparison: a quick chum, both VZ windows, Li and
// Chebyshev on {0..31}, at D = 3 and 4 (VZ's D = 4 is n/a).
const compareSpec = `version: 1
name: Chi2Small
kernel: {type: chi2}
domain: {integers: [0, 31]}
compare:
  methods: [{name: chum, starts: 2}, vz, {name: vz, window: uniform}, li, chebyshev]
  dims: [3, 4]
`

// designMethods are the method sections of single-design specs equal to
// compareSpec's methods, by label.
var designMethods = map[string]string{
	"chum (starts 2)":  "{name: chum, starts: 2}",
	"vz (rectangular)": "{name: vz}",
	"vz (uniform)":     "{name: vz, window: uniform}",
	"li":               "{name: li}",
	"chebyshev":        "{name: chebyshev}",
}

func readResults(t *testing.T, dir string) (report.Results, map[string]any) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	var r report.Results
	var raw map[string]any
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatal(err)
	}
	return r, raw
}

// TestCompareMatchesDesign: the numbers in results.json are those `featmap
// design -json` prints for the same method and D, the n/a cells are VZ's
// even D, and a second run gives the same results.json apart from its
// timings.
func TestCompareMatchesDesign(t *testing.T) {
	spec := writeSpec(t, compareSpec)
	dir := filepath.Join(t.TempDir(), "out")
	code, out, errOut := runCLI("compare", "-o", dir, spec)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"chum (starts 2)", "n/a", "report: " + dir} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	for _, f := range []string{"index.html", "report.md", "results.json", "error-linf.svg", "error-rms.svg", "signature-error.svg", "kernel-error.svg"} {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s: %v", f, err)
		}
	}
	r, raw := readResults(t, dir)
	if len(r.Cells) != 10 {
		t.Fatalf("%d cells, want 10", len(r.Cells))
	}
	for _, c := range r.Cells {
		if strings.HasPrefix(c.Method, "vz") && c.Dim == 4 {
			if c.Status != report.StatusNA || c.Reason != "vz makes odd dimensions only" {
				t.Errorf("%s D=4: %s %q, want n/a", c.Method, c.Status, c.Reason)
			}
			continue
		}
		if c.Status != report.StatusOK {
			t.Errorf("%s D=%d: %s %s", c.Method, c.Dim, c.Status, c.Reason)
			continue
		}
		m, ok := designMethods[c.Method]
		if !ok {
			t.Fatalf("unexpected method label %q", c.Method)
		}
		single := strings.Replace(compareSpec[:strings.Index(compareSpec, "compare:")], "Chi2Small", "Chi2One", 1) +
			"target: {dim: " + itoa(c.Dim) + "}\nmethod: " + m + "\n"
		code, dout, derr := runCLI("design", "-json", writeSpec(t, single))
		if code != exitOK {
			t.Fatalf("design %s D=%d: exit %d: %s", c.Method, c.Dim, code, derr)
		}
		var d struct {
			Errors       struct{ LInf, RMS float64 }
			Verification json.RawMessage
		}
		if err := json.Unmarshal([]byte(dout), &d); err != nil {
			t.Fatal(err)
		}
		var dv, cv any
		json.Unmarshal(d.Verification, &dv)
		vb, _ := json.Marshal(c.Verification)
		json.Unmarshal(vb, &cv)
		if *c.LInf != d.Errors.LInf || *c.RMS != d.Errors.RMS || !reflect.DeepEqual(dv, cv) {
			t.Errorf("%s D=%d: compare L∞ %v RMS %v, design -json L∞ %v RMS %v", c.Method, c.Dim, *c.LInf, *c.RMS, d.Errors.LInf, d.Errors.RMS)
		}
	}

	// The same spec again: results.json equal apart from timings.
	dir2 := filepath.Join(t.TempDir(), "again")
	if code, _, errOut := runCLI("compare", "-o", dir2, spec); code != exitOK {
		t.Fatalf("second run: exit %d: %s", code, errOut)
	}
	_, raw2 := readResults(t, dir2)
	if raw["timings"] == nil || raw2["timings"] == nil {
		t.Error("no timings field")
	}
	delete(raw, "timings")
	delete(raw2, "timings")
	if !reflect.DeepEqual(raw, raw2) {
		t.Error("two runs of the same spec give different results.json (timings aside)")
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestCompareDefaultDir: without -o the report goes to ./report-NAME.
func TestCompareDefaultDir(t *testing.T) {
	spec := writeSpec(t, strings.Replace(compareSpec, "{name: chum, starts: 2}, ", "", 1))
	t.Chdir(t.TempDir())
	if code, _, errOut := runCLI("compare", spec); code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if _, err := os.Stat(filepath.Join("report-Chi2Small", "index.html")); err != nil {
		t.Error(err)
	}
}

// TestCompareExitCodes: bad usage and specs exit 2, a comparison with no
// map exits 1 and writes nothing.
func TestCompareExitCodes(t *testing.T) {
	noMaps := writeSpec(t, strings.Replace(strings.Replace(compareSpec, "dims: [3, 4]", "dims: [4]", 1),
		"[{name: chum, starts: 2}, vz, {name: vz, window: uniform}, li, chebyshev]", "[vz]", 1))
	out := filepath.Join(t.TempDir(), "never")
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"compare"}, exitUsage, "want exactly one spec file"},
		{[]string{"compare", "-nosuchflag", noMaps}, exitUsage, "flag provided but not defined"},
		{[]string{"compare", "missing.yaml"}, exitUsage, "missing.yaml"},
		{[]string{"compare", writeSpec(t, vzSpec)}, exitUsage, "has no compare section"},
		{[]string{"compare", "-solver", "simplex9", noMaps}, exitUsage, `unknown backend "simplex9"`},
		{[]string{"compare", "-o", out, noMaps}, exitFailed, "no compared method can make"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("featmap %v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, errOut, c.code, c.want)
		}
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("a failed comparison wrote a report")
	}
	if code, out, _ := runCLI("help"); code != exitOK || !strings.Contains(out, "featmap compare [-o DIR]") {
		t.Errorf("usage does not list compare: %s", out)
	}
}

// TestCompareWidthsTable: a comparison by widths prints its columns as
// widths and says at which D each method was designed (without data every
// map takes the whole input: D = width).
func TestCompareWidthsTable(t *testing.T) {
	spec := writeSpec(t, strings.Replace(strings.Replace(compareSpec, "{name: chum, starts: 2}, ", "", 1), "dims: [3, 4]", "widths: [3, 4]", 1))
	code, out, errOut := runCLI("compare", "-o", t.TempDir(), spec)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"Chi2Small: by output width (numbers per row): vz (rectangular), vz (uniform), li, chebyshev at D = width\n",
		"L∞ absolute error per method and output width\n",
		"width 3  width 4",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}
