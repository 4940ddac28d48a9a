package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileCompareOutputs runs the featmap binary's compare onto report
// directories it must not write into, each refused with exit 2 before any
// design, naming the file and why, and leaving the directory as it was:
// a user's own index.html or report.md (it overwrote them), a symbolic link
// as index.html (it failed after the whole design with exit 1), a DIR
// below a regular file. Then compare writes over its own report.
func TestHostileCompareOutputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := buildFeatmap(t)
	spec := filepath.Join(t.TempDir(), "c.yaml")
	if err := os.WriteFile(spec, []byte("version: 1\nname: C\nkernel: {type: chi2}\ndomain: {integers: [0, 31]}\ncompare:\n  methods: [vz, li]\n  dims: [3, 5]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mine := "<!DOCTYPE html>\n<html><body>my own page</body></html>\n"
	for _, c := range []struct {
		name  string
		setup func(dir string) // fills the report's directory
		want  string
	}{
		{"own index.html", func(dir string) { writeFile(t, filepath.Join(dir, "index.html"), mine) }, "/index.html: exists and was not written by featmap"},
		{"own report.md", func(dir string) { writeFile(t, filepath.Join(dir, "report.md"), "# notes\n") }, "/report.md: exists and was not written by featmap"},
		{"own results.json", func(dir string) { writeFile(t, filepath.Join(dir, "results.json"), "{\"a\": 1}\n") }, "/results.json: exists and was not written by featmap"},
		{"symlink index.html", func(dir string) {
			if err := os.Symlink(filepath.Join(dir, "target.html"), filepath.Join(dir, "index.html")); err != nil {
				t.Fatal(err)
			}
		}, "/index.html: not a regular file (a symbolic link)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			c.setup(dir)
			before := listDir(t, dir)
			_, _, code, out := runHostile(t, bin, []string{"compare", "-o", dir, spec})
			if code != exitUsage || !strings.Contains(out, c.want) || strings.Contains(out, "report: ") {
				t.Errorf("exit %d, want %d mentioning %q before any design; output:\n%s", code, exitUsage, c.want, tail(out, 800))
			}
			if after := listDir(t, dir); after != before {
				t.Errorf("the directory changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
	file := filepath.Join(t.TempDir(), "file")
	writeFile(t, file, "x")
	if _, _, code, out := runHostile(t, bin, []string{"compare", "-o", filepath.Join(file, "report"), spec}); code != exitUsage || !strings.Contains(out, file+" is not a directory (a regular file)") {
		t.Errorf("DIR below a file: exit %d; output:\n%s", code, tail(out, 800))
	}
	dir := t.TempDir()
	for run := range 2 {
		if _, _, code, out := runHostile(t, bin, []string{"compare", "-o", dir, spec}); code != exitOK {
			t.Fatalf("run %d into its own report: exit %d; output:\n%s", run, code, tail(out, 800))
		}
	}
}

// writeFile writes s to path.
func writeFile(t *testing.T, path, s string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

// listDir names the entries of dir with their kinds and contents.
func listDir(t *testing.T, dir string) string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range ents {
		p := filepath.Join(dir, e.Name())
		b.WriteString(e.Name() + " " + e.Type().String())
		if e.Type().IsRegular() {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString(" " + string(data))
		}
		b.WriteString("\n")
	}
	return b.String()
}
