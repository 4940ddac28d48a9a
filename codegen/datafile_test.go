package codegen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
)

// TestDataFileMismatchPanics: a Go file beside a data file that is not the
// one it was generated with — another run's of the same length (one byte
// changed), or of another length — builds, but its package panics at init,
// naming both files; the right one runs.
func TestDataFileMismatchPanics(t *testing.T) {
	if testing.Short() {
		t.Skip("builds emitted code")
	}
	var files []File
	var name string
	for _, c := range testmaps.Cases() {
		if fs := sharedFiles(t, c, Fast); len(fs) == 2 {
			files, name = fs, c.Name
			break
		}
	}
	if files == nil {
		t.Fatal("no test map has a data file")
	}
	dir := t.TempDir()
	goFile, bin := files[0], files[1]
	write := func(n string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, n), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", []byte("module gentest\n\ngo 1.24\n"))
	write(goFile.Name, goFile.Data)
	write("init_test.go", []byte("package gentest\n\nimport \"testing\"\n\nfunc TestInit(t *testing.T) {}\n"))
	other := append([]byte(nil), bin.Data...)
	other[len(other)/2] ^= 1
	for _, c := range []struct {
		what string
		data []byte
		ok   bool
	}{
		{"its own data file", bin.Data, true},
		{"a data file of the same length", other, false},
		{"a shorter data file", bin.Data[:len(bin.Data)-8], false},
	} {
		write(bin.Name, c.data)
		cmd := exec.Command(goTool(t), "test", "-count=1", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK=off", "GOFLAGS=-buildvcs=false -trimpath")
		out, err := cmd.CombinedOutput()
		want := "the embedded " + bin.Name + " is not the data file " + goFile.Name + " was generated with"
		switch {
		case c.ok && err != nil:
			t.Errorf("%s beside %s: %v\n%s", c.what, goFile.Name, err, out)
		case !c.ok && (err == nil || !strings.Contains(string(out), "panic: gentest: "+name+": "+want)):
			t.Errorf("%s beside %s: %v, want a panic at init saying %q:\n%s", c.what, goFile.Name, err, want, out)
		}
	}
}
