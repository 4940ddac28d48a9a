package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// oldReport fills dir with the files of an earlier report (each with the
// marker or the first keys of a report's) and returns their content.
func oldReport(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	old := map[string][]byte{}
	for _, n := range []string{"index.html", "report.md", "results.json", "error-linf.svg", "kernel-error.svg"} {
		old[n] = []byte(Marker + "\nold " + n)
		if n == "results.json" {
			old[n] = []byte(`{"name": "Old", "spec": "old.yaml", "spec_sha256": "", "generator": "featmap"}`)
		}
		if err := os.WriteFile(filepath.Join(dir, n), old[n], 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return old
}

// dirContent returns every file in dir by name (directories left out).
func dirContent(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, e := range ents {
		if e.IsDir() {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = b
	}
	return out
}

func sameContent(t *testing.T, got, want map[string][]byte) {
	t.Helper()
	for n, w := range want {
		if !bytes.Equal(got[n], w) {
			t.Errorf("%s changed: %.40q", n, got[n])
		}
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			t.Errorf("unexpected file %s left behind", n)
		}
	}
}

// TestWriteTargetNotAFile: a target that is a directory is refused before
// anything is written.
func TestWriteTargetNotAFile(t *testing.T) {
	dir := t.TempDir()
	old := oldReport(t, dir)
	if err := os.Mkdir(filepath.Join(dir, "error-rms.svg"), 0o755); err != nil {
		t.Fatal(err)
	}
	err := Write(dir, testInput())
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("err %v", err)
	}
	sameContent(t, dirContent(t, dir), old)
}

// TestWrite: Write creates the directory, writes every rendered file with
// mode 0644, replaces an earlier report's files and removes the plots it
// no longer has.
func TestWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "new", "report")
	in := testInput()
	if err := Write(dir, in); err != nil {
		t.Fatal(err)
	}
	files, _ := Render(in)
	want := map[string][]byte{}
	for _, f := range files {
		want[f.Name] = f.Data
		fi, err := os.Stat(filepath.Join(dir, f.Name))
		if err != nil || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: %v %v", f.Name, fi.Mode(), err)
		}
	}
	sameContent(t, dirContent(t, dir), want)

	in.Reference = nil // no signature or kernel-error plots now
	if err := Write(dir, in); err != nil {
		t.Fatal(err)
	}
	got := dirContent(t, dir)
	for _, n := range []string{"signature-error.svg", "kernel-error.svg"} {
		if _, ok := got[n]; ok {
			t.Errorf("stale %s kept", n)
		}
	}
	if _, ok := got["error-linf.svg"]; !ok {
		t.Error("error-linf.svg missing")
	}
}
