package report

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCheckDirRefusesWhatIsNotAReport: a report is written over nothing
// but an earlier report's files — each refusal names the file and why,
// and Write, which checks the same, leaves the directory as it was:
// a user's own index.html, report.md, results.json or a plot (a stale plot
// would be removed), a symbolic link or a directory where a file goes.
// Empty files, missing ones and an earlier report's are written over.
func TestCheckDirRefusesWhatIsNotAReport(t *testing.T) {
	for _, c := range []struct {
		name, content, want string
	}{
		{"index.html", "<!DOCTYPE html>\n<html><body>my own page</body></html>\n", "index.html: exists and was not written by featmap (none of its first 4 lines is"},
		{"report.md", "# My notes\n", "report.md: exists and was not written by featmap"},
		{"results.json", `{"name": "mine", "values": [1, 2]}`, `results.json: exists and was not written by featmap (it is not a JSON object starting with the keys "name", "spec" and "spec_sha256")`},
		{"error-rms.svg", "<?xml version=\"1.0\"?>\n<svg/>\n", "error-rms.svg: exists and was not written by featmap"},
		{"signature-error.svg", "<svg>\n" + Marker + " is not on a line of its own\n</svg>\n", "signature-error.svg: exists and was not written by featmap"},
	} {
		dir := t.TempDir()
		old := oldReport(t, dir)
		if err := os.WriteFile(filepath.Join(dir, c.name), []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		old[c.name] = []byte(c.content)
		err := CheckDir(dir)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "move it away or choose another -o") {
			t.Errorf("%s: CheckDir: %v, want %q", c.name, err, c.want)
		}
		if err := Write(dir, testInput()); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Write: %v, want %q", c.name, err, c.want)
		}
		sameContent(t, dirContent(t, dir), old)
	}

	dir := t.TempDir()
	if err := os.Symlink(filepath.Join(dir, "elsewhere.html"), filepath.Join(dir, "index.html")); err != nil {
		t.Fatal(err)
	}
	if err := CheckDir(dir); err == nil || !strings.Contains(err.Error(), "index.html: not a regular file (a symbolic link)") {
		t.Errorf("a symlink: %v", err)
	}
	if err := Write(dir, testInput()); err == nil {
		t.Error("Write wrote through a symlink")
	}
	if _, err := os.Lstat(filepath.Join(dir, "elsewhere.html")); err == nil {
		t.Error("the symlink's target was written")
	}

	// Missing, empty and an earlier report's files are the report's.
	dir = t.TempDir()
	oldReport(t, dir)
	if err := os.WriteFile(filepath.Join(dir, "error-data.svg"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckDir(dir); err != nil {
		t.Errorf("an earlier report: %v", err)
	}
	if err := Write(dir, testInput()); err != nil {
		t.Fatal(err)
	}
	if err := Write(dir, testInput()); err != nil {
		t.Errorf("a report over the report Write wrote: %v", err)
	}
	if err := CheckDir(filepath.Join(dir, "new", "dir")); err != nil {
		t.Errorf("a new directory: %v", err)
	}
}

// TestCheckDirNotADirectory: a DIR that is a file, or below one, is refused.
func TestCheckDirNotADirectory(t *testing.T) {
	f := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckDir(f); err == nil || !strings.Contains(err.Error(), "not a directory (a regular file)") {
		t.Errorf("DIR a file: %v", err)
	}
	if err := CheckDir(filepath.Join(f, "sub")); err == nil || !strings.Contains(err.Error(), f+" is not a directory (a regular file)") {
		t.Errorf("DIR below a file: %v", err)
	}
}

// TestCheckDirReadOnly: a directory no file can be created in (or, for a
// DIR to be created, whose nearest existing parent is one) is refused
// before anything is designed. A directory of mode 0555 is one unless the
// test runs as root, who may write there; then /sys, read-only for root
// too where it is mounted so, stands in.
func TestCheckDirReadOnly(t *testing.T) {
	ro := filepath.Join(t.TempDir(), "ro")
	if err := os.Mkdir(ro, 0o555); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(ro, 0o755) })
	if f, err := os.CreateTemp(ro, "probe"); err == nil {
		f.Close()
		os.Remove(f.Name())
		ro = "/sys"
		if f, err := os.CreateTemp(ro, "probe"); err == nil || !isDir(ro) {
			if err == nil {
				f.Close()
				os.Remove(f.Name())
			}
			t.Skip("no read-only directory: mode 0555 is writable here (root) and /sys is not read-only")
		}
	}
	for _, dir := range []string{ro, filepath.Join(ro, "report-X")} {
		if err := CheckDir(dir); err == nil || !strings.Contains(err.Error(), "cannot write in the directory "+ro) {
			t.Errorf("%s: %v", dir, err)
		}
	}
}

// isDir reports whether path is a directory.
func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}
