package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

func writeSpec(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "spec.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeTree writes the files (paths relative to dir, with their
// directories) and, when root's go.sum exists, copies it to dir/sum as the
// checksums go mod tidy starts from.
func writeTree(t *testing.T, dir string, files map[string]string, root, sum string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, "go.sum")); err == nil {
		if err := os.WriteFile(filepath.Join(dir, sum), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

const vzSpec = `version: 1
name: Chi2VZ
kernel: {type: chi2}
domain: {integers: [0, 255]}
target: {dim: 5}
method: {name: vz}
`

// TestDesignJSON checks the fields design -json promises (docs/spec.md,
// "What design prints").
func TestDesignJSON(t *testing.T) {
	code, out, errOut := runCLI("design", "-json", writeSpec(t, vzSpec))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var v struct {
		Name   string
		Kernel struct{ Type string }
		Method string
		Dim    int
		Errors struct {
			LInf, RMS float64
			Measure   string
			On        string
		}
		Stages []struct{ Name string }
		Map    struct {
			Stages []struct {
				Fourier struct {
					Form  string
					Terms []struct {
						Freq   []float64
						Weight float64
					}
				}
			}
		}
		Seconds *float64
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, out)
	}
	if v.Name != "Chi2VZ" || v.Kernel.Type != "chi2" || v.Method != "vz" || v.Dim != 5 || len(v.Map.Stages) != 1 || v.Map.Stages[0].Fourier.Form != "fourier" || len(v.Map.Stages[0].Fourier.Terms) != 3 || v.Seconds == nil {
		t.Errorf("unexpected design JSON: %+v", v)
	}
	// VLFeat's 5-D χ² map (rectangular window) measures 3.1874 / 1.2447.
	if v.Errors.Measure != "absolute" || v.Errors.LInf < 3.18 || v.Errors.LInf > 3.19 || !strings.Contains(v.Errors.On, "65536") {
		t.Errorf("errors %+v", v.Errors)
	}
}

// TestDesignHuman checks the human summary names the verified error.
func TestDesignHuman(t *testing.T) {
	code, out, errOut := runCLI("design", writeSpec(t, vzSpec))
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"Chi2VZ", "D = 5", "verified absolute error: L∞ 3.18", "65536 ordered pairs"} {
		if !strings.Contains(out, want) {
			t.Errorf("summary lacks %q:\n%s", want, out)
		}
	}
}

// TestExitCodes: bad usage and bad specs exit 2 with a clear message, a
// failed design exits 1.
func TestExitCodes(t *testing.T) {
	bad := writeSpec(t, "version: 1\nname: X\nkernel: {type: chi2}\ndomain: {interval: [1, 0.5]}\ntarget: {dim: 5}\nmethod: {name: chum}\n")
	unreachable := writeSpec(t, strings.Replace(vzSpec, "target: {dim: 5}", "target: {max_error: 1e-12, max_dim: 3}", 1))
	// compare -o onto a file, or under one, is refused before any design
	// (it failed with exit 1 once every design had run).
	cmp := writeSpec(t, compareSpec)
	file := filepath.Join(t.TempDir(), "report")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		args []string
		code int
		want string
	}{
		{nil, exitUsage, "Usage"},
		{[]string{"frobnicate"}, exitUsage, `unknown command "frobnicate"`},
		{[]string{"help", "frobnicate"}, exitUsage, `unknown command "frobnicate"`},
		{[]string{"design"}, exitUsage, "want exactly one spec file"},
		{[]string{"design", "-nosuchflag", bad}, exitUsage, "flag provided but not defined"},
		{[]string{"design", "does-not-exist.yaml"}, exitUsage, "does-not-exist.yaml: no such file or directory\n"},
		{[]string{"design", bad}, exitUsage, ":4: domain.interval: lo must be < hi"},
		{[]string{"design", "-solver", "simplex9", bad}, exitUsage, `unknown backend "simplex9"`},
		{[]string{"design", unreachable}, exitFailed, "unreachable"},
		{[]string{"compare", "-o", file, cmp}, exitUsage, "-o " + file + ": not a directory (a regular file)"},
		{[]string{"compare", "-o", filepath.Join(file, "sub"), cmp}, exitUsage, file + " is not a directory (a regular file)"},
	}
	for _, c := range cases {
		code, _, errOut := runCLI(c.args...)
		if code != c.code || !strings.Contains(errOut, c.want) {
			t.Errorf("featmap %v: exit %d, stderr %q; want exit %d mentioning %q", c.args, code, errOut, c.code, c.want)
		}
	}
	// A missing spec is named as the user typed it, not as a system call
	// ("stat does-not-exist.yaml: …").
	if _, _, errOut := runCLI("design", "does-not-exist.yaml"); strings.Contains(errOut, "stat ") {
		t.Errorf("featmap design does-not-exist.yaml: stderr %q names the system call", errOut)
	}
	if code, out, _ := runCLI("version"); code != exitOK || !strings.HasPrefix(out, "featmap ") {
		t.Errorf("version: exit %d, %q", code, out)
	}
	// help of what runCommand itself answers (help and its spellings) is
	// the usage, not an unknown command; help of version is version's.
	for _, args := range [][]string{{"help", "help"}, {"-h", "help"}, {"help", "-h"}} {
		if code, out, errOut := runCLI(args...); code != exitOK || !strings.HasPrefix(out, "featmap designs") || errOut != "" {
			t.Errorf("featmap %v: exit %d, stdout %.40q, stderr %q; want the usage and exit 0", args, code, out, errOut)
		}
	}
	if code, out, errOut := runCLI("help", "version"); code != exitOK || !strings.HasPrefix(out, "usage: featmap version") || errOut != "" {
		t.Errorf("featmap help version: exit %d, stdout %.40q, stderr %q; want version's usage and exit 0", code, out, errOut)
	}
}

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestOutputWriteFails: output that cannot be written (design > /dev/full)
// is a failure, exit 1 with the reason, not a silent success.
func TestOutputWriteFails(t *testing.T) {
	spec := writeSpec(t, vzSpec)
	for _, args := range [][]string{{"version"}, {"design", spec}, {"gen", "-pkg", "x", spec}} {
		var e bytes.Buffer
		code := run(context.Background(), args, failingWriter{}, &e)
		if code != exitFailed || !strings.Contains(e.String(), "no space left on device") {
			t.Errorf("%v: exit %d, stderr %q; want %d and the write error", args, code, e.String(), exitFailed)
		}
	}
}

// TestHelpAndFlagOrder: -h and "featmap help CMD" print the command's
// usage with an example and exit 0; flags after the spec are taken; a
// second spec is an error naming both; a tab-indented spec says YAML
// indents with spaces.
func TestHelpAndFlagOrder(t *testing.T) {
	for _, args := range [][]string{{"design", "-h"}, {"help", "design"}, {"gen", "-h"}, {"help", "compare"}} {
		cmd := args[0]
		if cmd == "help" {
			cmd = args[1]
		}
		code, out, errOut := runCLI(args...)
		if code != exitOK || !strings.Contains(out+errOut, "usage: featmap "+cmd+" ") || !strings.Contains(out+errOut, "example: featmap "+cmd+" ") {
			t.Errorf("%v: exit %d, output %q", args, code, out+errOut)
		}
	}
	// version answers -h with its usage and an example; it takes no
	// arguments, as schema: one is bad usage, not ignored.
	if code, out, errOut := runCLI("version", "-h"); code != exitOK || !strings.Contains(out+errOut, "usage: featmap version") || !strings.Contains(out+errOut, "example: featmap version") {
		t.Errorf("version -h: exit %d, output %q", code, out+errOut)
	}
	if code, out, errOut := runCLI("version", "--bogus"); code != exitUsage || out != "" || !strings.Contains(errOut, "usage: featmap version") {
		t.Errorf("version --bogus: exit %d, stdout %q, stderr %q; want exit %d and the usage", code, out, errOut, exitUsage)
	}
	spec := writeSpec(t, vzSpec)
	code, out, errOut := runCLI("design", spec, "-json")
	if code != exitOK || !strings.HasPrefix(out, "{") {
		t.Errorf("design SPEC -json: exit %d, %q, %q", code, out[:min(len(out), 40)], errOut)
	}
	code, _, errOut = runCLI("design", spec, "-json", spec)
	if code != exitUsage || !strings.Contains(errOut, "want exactly one spec file, got") {
		t.Errorf("design SPEC -json SPEC: exit %d, %q", code, errOut)
	}
	tab := writeSpec(t, "version: 1\nname: X\nkernel:\n\ttype: chi2\n")
	code, _, errOut = runCLI("design", tab)
	if code != exitUsage || !strings.Contains(errOut, ":4: invalid YAML") || !strings.Contains(errOut, "indented with a tab: YAML indents with spaces") {
		t.Errorf("tab-indented spec: exit %d, %q", code, errOut)
	}
}

// TestDesignUnreachableFast: an unreachable max_error up to max_dim 31
// exits 1 after a bracketing search (vz makes odd D: 1, 3, 7, 15, 31, not
// all 16), naming the best D tried and the dimensions tried.
func TestDesignUnreachableFast(t *testing.T) {
	spec := writeSpec(t, strings.Replace(vzSpec, "target: {dim: 5}", "target: {max_error: 1e-12, max_dim: 31}", 1))
	code, _, errOut := runCLI("design", spec)
	for _, want := range []string{"unreachable", "at D = 31", "tried D = 1, 3, 7, 15, 31 in"} {
		if code != exitFailed || !strings.Contains(errOut, want) {
			t.Errorf("exit %d, stderr %q; want exit %d mentioning %q", code, errOut, exitFailed, want)
		}
	}
}

// TestDesignSearchPrinted: design prints each D the max_error search tried
// with its error, and the search's wall time; -json carries the same.
func TestDesignSearchPrinted(t *testing.T) {
	spec := writeSpec(t, strings.Replace(vzSpec, "target: {dim: 5}", "target: {max_error: 0.012}", 1))
	code, out, errOut := runCLI("design", spec)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"max_error 0.012 search:", "s wall", "bisection", "  D = 15: ", "(meets)", "(above)"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runCLI("design", "-json", spec)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var j struct {
		Dim    int `json:"dim"`
		Search struct {
			Tried []struct {
				Dim int  `json:"dim"`
				Met bool `json:"met"`
			} `json:"tried"`
			Seconds float64 `json:"seconds"`
		} `json:"search"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Search.Tried) == 0 || j.Search.Seconds <= 0 {
		t.Errorf("search in JSON: %+v", j.Search)
	}
}

// TestDesignAutoPrinted: design with method auto names the winner and the
// runner-up, in its output and its JSON.
func TestDesignAutoPrinted(t *testing.T) {
	spec := writeSpec(t, strings.Replace(strings.Replace(vzSpec, "method: {name: vz}", "method: auto", 1), "[0, 255]", "[0, 16]", 1))
	code, out, errOut := runCLI("design", spec)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"auto at D = 5: ", " won on L∞ error ", "runner-up", "nystroem: skipped: "} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	code, out, errOut = runCLI("design", "-json", spec)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var j struct {
		Method string `json:"method"`
		Auto   struct {
			Winner   string `json:"winner"`
			RunnerUp string `json:"runner_up"`
		} `json:"auto"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatal(err)
	}
	if j.Auto.Winner == "" || j.Auto.Winner != j.Method || j.Auto.RunnerUp == "" {
		t.Errorf("JSON method %q, auto %+v", j.Method, j.Auto)
	}
	// gen emits the winner's map, its header restating method auto (this
	// panicked in the spec's description before).
	gen := filepath.Join(t.TempDir(), "auto.go")
	if code, _, errOut := runCLI("gen", "-o", gen, "-pkg", "x", spec); code != exitOK {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	src, err := os.ReadFile(gen)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "method: auto") || !strings.Contains(string(src), j.Method) {
		t.Errorf("generated file does not restate method auto and name %s", j.Method)
	}
}

// TestFailedSaysFeatmapOnce: a failure's line names featmap and the spec
// once, though the package's errors, and those they wrap, each start with
// "featmap: " (method auto's stopped comparison read "featmap: x.yaml:
// featmap: method auto at D = 3: featmap: the comparison was stopped").
func TestFailedSaysFeatmapOnce(t *testing.T) {
	var b strings.Builder
	err := fmt.Errorf("featmap: method auto at D = 3: %w", fmt.Errorf("featmap: the comparison was stopped: %w", context.Canceled))
	if code := failed(&b, "x.yaml", err); code != exitFailed {
		t.Errorf("exit %d, want %d", code, exitFailed)
	}
	if want := "featmap: x.yaml: method auto at D = 3: the comparison was stopped: context canceled\n"; b.String() != want {
		t.Errorf("%q, want %q", b.String(), want)
	}
}
