package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/codegen"
)

// The outputs gen writes and what -check sees of them: coinciding outputs,
// a read-only directory, a file of an older code generator, the module
// version in the key, the -map file's content.

// TestGenRefusesCoincidingOutputs: -o and -map naming one file through a
// symbolic link to its directory, or -map onto the .bin beside -o, are
// refused with exit 2 before anything is designed or written (the map's
// JSON would silently replace the Go file, or its data file).
func TestGenRefusesCoincidingOutputs(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real")
	if err := os.Mkdir(real, 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	spec := writeSpec(t, vzSpec)
	for _, c := range []struct{ out, mapOut, want string }{
		{filepath.Join(real, "x.go"), filepath.Join(link, "x.go"), "-map " + filepath.Join(link, "x.go") + " is the same file as -o " + filepath.Join(real, "x.go")},
		{filepath.Join(link, "x.go"), filepath.Join(real, "x.bin"), "is the same file as the data file " + filepath.Join(link, "x.bin") + " beside -o"},
	} {
		code, _, errOut := runCLI("gen", "-o", c.out, "-map", c.mapOut, spec)
		if code != exitUsage || !strings.Contains(errOut, c.want) {
			t.Errorf("gen -o %s -map %s: exit %d, %q; want exit %d saying %q", c.out, c.mapOut, code, errOut, exitUsage, c.want)
		}
		if names, _ := os.ReadDir(real); len(names) != 0 {
			t.Errorf("gen -o %s -map %s wrote %v", c.out, c.mapOut, names)
		}
	}
	if code, _, errOut := runCLI("gen", "-o", filepath.Join(real, "x.go"), "-map", filepath.Join(link, "x.json"), spec); code != exitOK {
		t.Errorf("distinct outputs through a linked directory: exit %d: %s", code, errOut)
	}
}

// readOnlyDir returns a directory no file can be created in, or skips the
// test saying why there is none: mode 0555, and for a user whom modes do
// not stop (root) the immutable attribute (chattr +i, removed at cleanup).
func readOnlyDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(dir, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(dir, 0o755) })
	if writable(dir) == nil {
		if out, err := exec.Command("chattr", "+i", dir).CombinedOutput(); err != nil {
			t.Skipf("no read-only directory: mode 0555 does not stop this user, and chattr +i failed: %v %s", err, out)
		}
		t.Cleanup(func() { exec.Command("chattr", "-i", dir).Run() })
		if writable(dir) == nil {
			t.Skip("no read-only directory: neither mode 0555 nor chattr +i stops this user")
		}
	}
	return dir
}

// TestGenReadOnlyDirectory: -o or -map in a directory gen cannot write in
// is refused before the design with exit 2 (it failed after the whole
// design, with exit 1); -check, which writes nothing, still answers.
func TestGenReadOnlyDirectory(t *testing.T) {
	ro := readOnlyDir(t)
	spec := writeSpec(t, vzSpec)
	out := filepath.Join(t.TempDir(), "chi2.go")
	for _, args := range [][]string{
		{"-o", filepath.Join(ro, "chi2.go")},
		{"-o", out, "-map", filepath.Join(ro, "chi2.json")},
	} {
		code, _, errOut := runCLI(append(append([]string{"gen"}, args...), spec)...)
		if code != exitUsage || !strings.Contains(errOut, "cannot write in its directory "+ro) {
			t.Errorf("gen %v: exit %d, %q; want exit %d: cannot write in its directory", args, code, errOut, exitUsage)
		}
	}
	if code, _, errOut := runCLI("gen", "-check", "-o", filepath.Join(ro, "chi2.go"), spec); code != exitFailed || !strings.Contains(errOut, "is stale: missing") {
		t.Errorf("gen -check in a read-only directory: exit %d, %q; want %d, stale: missing", code, errOut, exitFailed)
	}
}

// TestGenCheckSeesCodegen: a Go file the code generator of format 1 wrote
// (testdata/oldgen/chi2_gen.go: featmap gen at the commit before the
// format was recorded, its spec and options unchanged since) is stale to
// gen -check, which names the change of the code generator; gen rewrites
// it, and then it is fresh.
func TestGenCheckSeesCodegen(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("testdata", "oldgen", "chi2_gen.go"))
	if err != nil {
		t.Fatal(err)
	}
	if h, err := codegen.ParseHeader(old); err != nil || h.Format != 1 || h.Version != featmap.Version {
		t.Fatalf("the fixture's header %+v, %v: want format 1 of featmap %s", h, err, featmap.Version)
	}
	out := filepath.Join(t.TempDir(), "chi2_gen.go")
	if err := os.WriteFile(out, old, 0o644); err != nil {
		t.Fatal(err)
	}
	spec := filepath.Join("testdata", "oldgen", "chi2.yaml")
	want := fmt.Sprintf("is stale: the code generator changed (format 1 → %d)", codegen.FormatVersion)
	if code, _, errOut := runCLI("gen", "-check", "-o", out, "-pkg", "oldgen", spec); code != exitFailed || !strings.Contains(errOut, want) {
		t.Fatalf("gen -check of the old code generator's file: exit %d, %q; want %d, %q", code, errOut, exitFailed, want)
	}
	if code, _, errOut := runCLI("gen", "-o", out, "-pkg", "oldgen", spec); code != exitOK || strings.Contains(errOut, "is fresh") {
		t.Fatalf("gen: exit %d, %q; want the file rewritten", code, errOut)
	}
	if code, _, errOut := runCLI("gen", "-check", "-o", out, "-pkg", "oldgen", spec); code != exitOK {
		t.Errorf("gen -check after gen: exit %d, %q", code, errOut)
	}
}

// TestModuleVersionOf: the key holds featmap's module version when the
// build names the code it was built from — a downstream module's
// dependency, pseudo-versions included; a release installed with go
// install — and not for a checkout, whatever the go command stamped.
func TestModuleVersionOf(t *testing.T) {
	main := func(v string) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: modulePath, Version: v}}
	}
	dep := func(d *debug.Module) *debug.BuildInfo {
		return &debug.BuildInfo{Main: debug.Module{Path: "example.com/yours", Version: "(devel)"}, Deps: []*debug.Module{{Path: "gonum.org/v1/gonum", Version: "v0.15.0"}, d}}
	}
	for _, c := range []struct {
		bi   *debug.BuildInfo
		want string
	}{
		{main("(devel)"), ""},
		{main(""), ""},
		{main("v0.0.0-20260101120000-0123456789ab"), ""},
		{main("v1.2.3+dirty"), ""},
		{main("v1.2.4-0.20260101120000-0123456789ab+dirty"), ""},
		{main("v1.2.3"), "v1.2.3"},
		{dep(&debug.Module{Path: modulePath, Version: "v1.3.0"}), "v1.3.0"},
		{dep(&debug.Module{Path: modulePath, Version: "v1.3.1-0.20260101120000-0123456789ab"}), "v1.3.1-0.20260101120000-0123456789ab"},
		{dep(&debug.Module{Path: modulePath, Version: "v0.0.0", Replace: &debug.Module{Path: "../featmap"}}), ""},
		{dep(&debug.Module{Path: modulePath, Version: "v0.0.0", Replace: &debug.Module{Path: "example.com/fork", Version: "v1.0.0"}}), "example.com/fork@v1.0.0"},
		{&debug.BuildInfo{Main: debug.Module{Path: "example.com/yours"}}, ""},
	} {
		if got := moduleVersionOf(c.bi); got != c.want {
			t.Errorf("main %+v, deps %v: %q, want %q", c.bi.Main, c.bi.Deps, got, c.want)
		}
	}
}

// TestGenCheckSeesMapFile: the Go file's header holds the SHA-256 of the
// -map file written with it, so -check calls it stale once that file is
// replaced or edited (it checked only that the file existed), and gen
// rewrites both; a file written without -map is stale to a -check with
// one.
func TestGenCheckSeesMapFile(t *testing.T) {
	dir := t.TempDir()
	out, mapOut := filepath.Join(dir, "chi2.go"), filepath.Join(dir, "chi2.json")
	spec := writeSpec(t, vzSpec)
	if code, _, errOut := runCLI("gen", "-o", out, "-map", mapOut, spec); code != exitOK {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI("gen", "-check", "-o", out, "-map", mapOut, spec); code != exitOK {
		t.Fatalf("gen -check: exit %d: %s", code, errOut)
	}
	js, err := os.ReadFile(mapOut)
	if err != nil {
		t.Fatal(err)
	}
	edited := bytes.Replace(js, []byte(`"method": "vz"`), []byte(`"method": "VZ"`), 1)
	if bytes.Equal(edited, js) {
		t.Fatal("nothing to edit in the map file")
	}
	if err := os.WriteFile(mapOut, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errOut := runCLI("gen", "-check", "-o", out, "-map", mapOut, spec); code != exitFailed || !strings.Contains(errOut, "is stale: the -map file "+mapOut+" changed") {
		t.Errorf("gen -check after the -map file was edited: exit %d, %q; want %d, the -map file changed", code, errOut, exitFailed)
	}
	if code, _, errOut := runCLI("gen", "-o", out, "-map", mapOut, spec); code != exitOK || strings.Contains(errOut, "is fresh") {
		t.Errorf("gen after the -map file was edited: exit %d, %q; want both rewritten", code, errOut)
	}
	if got, _ := os.ReadFile(mapOut); !bytes.Equal(got, js) {
		t.Error("gen did not rewrite the -map file")
	}
	bare := filepath.Join(t.TempDir(), "bare.go")
	if code, _, errOut := runCLI("gen", "-o", bare, spec); code != exitOK {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI("gen", "-check", "-o", bare, "-map", mapOut, spec); code != exitFailed || !strings.Contains(errOut, "it was written without the -map file") {
		t.Errorf("gen -check -map of a file written without: exit %d, %q", code, errOut)
	}
}
