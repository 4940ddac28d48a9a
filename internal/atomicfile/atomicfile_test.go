package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// dirNames lists the names in dir.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

// TestWrite: every file is written (mode 0644 here: a was 0644, b is new),
// replacing the old ones, and nothing else is left in the directory.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	if err := os.WriteFile(a, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Write(File{a, []byte("new a")}, File{b, []byte("new b")}); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{a: "new a", b: "new b"} {
		got, err := os.ReadFile(path)
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", path, got, err, want)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v, want 0644", path, fi.Mode().Perm())
		}
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"a", "b"}) {
		t.Errorf("directory holds %v", names)
	}
}

// TestWriteFailureLeavesFilesUntouched: when writing any one file fails,
// Write returns the error, every existing file keeps its content, and no
// temporary file is left.
func TestWriteFailureLeavesFilesUntouched(t *testing.T) {
	orig := writeTemp
	defer func() { writeTemp = orig }()
	for k := range 3 {
		dir := t.TempDir()
		var files []File
		for i := range 3 {
			p := filepath.Join(dir, string(rune('a'+i)))
			if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, File{p, []byte("new")})
		}
		calls := 0
		writeTemp = func(path string, data []byte, mode os.FileMode) (string, error) {
			if calls++; calls == k+1 {
				return "", errors.New("disk full")
			}
			return orig(path, data, mode)
		}
		if err := Write(files...); err == nil || !strings.Contains(err.Error(), "disk full") {
			t.Fatalf("failing file %d: err %v", k, err)
		}
		for _, f := range files {
			if got, _ := os.ReadFile(f.Path); string(got) != "old" {
				t.Errorf("failing file %d: %s holds %q", k, f.Path, got)
			}
		}
		if names := dirNames(t, dir); len(names) != 3 {
			t.Errorf("failing file %d: directory holds %v", k, names)
		}
	}
}

// TestWriteTargetNotAFile: a target that is a directory is refused before
// anything is written.
func TestWriteTargetNotAFile(t *testing.T) {
	dir := t.TempDir()
	a, sub := filepath.Join(dir, "a"), filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	err := Write(File{a, []byte("a")}, File{sub, []byte("x")})
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("err %v", err)
	}
	if names := dirNames(t, dir); !slices.Equal(names, []string{"sub"}) {
		t.Errorf("directory holds %v", names)
	}
}

// TestKeepsMode: rewriting an existing file keeps its permissions (an
// executable or private file stays so); a new file gets 0644.
func TestKeepsMode(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "old")
	if err := os.WriteFile(old, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(old, 0o600); err != nil {
		t.Fatal(err)
	}
	fresh := filepath.Join(dir, "new")
	if err := Write(File{old, []byte("y")}, File{fresh, []byte("z")}); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]os.FileMode{old: 0o600, fresh: 0o644} {
		if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v (%v), want %v", path, fi.Mode().Perm(), err, want)
		}
	}
}

// TestKind: each kind of file a message may refuse is named in words.
func TestKind(t *testing.T) {
	for _, c := range []struct {
		m    os.FileMode
		want string
	}{
		{0o644, "a regular file"},
		{os.ModeDir | 0o755, "a directory"},
		{os.ModeNamedPipe | 0o644, "a named pipe"},
		{os.ModeDevice | os.ModeCharDevice | 0o666, "a character device"},
		{os.ModeDevice | 0o660, "a device"},
		{os.ModeSocket | 0o755, "a socket"},
		{os.ModeSymlink | 0o777, "a symbolic link"},
		{os.ModeIrregular, "file mode ?---------"},
	} {
		if got := Kind(c.m); got != c.want {
			t.Errorf("Kind(%v) = %q, want %q", c.m, got, c.want)
		}
	}
}

// TestQuiesce: Quiesce waits for a Write in progress (held inside its
// second temporary file) to finish — when it returns every file is
// renamed and no temporary file is left — and a Write started after it
// does not begin until the lock is given back (which only this test does).
func TestQuiesce(t *testing.T) {
	orig := writeTemp
	defer func() { writeTemp = orig }()
	inside, release := make(chan struct{}), make(chan struct{})
	calls := 0
	writeTemp = func(path string, data []byte, mode os.FileMode) (string, error) {
		if calls++; calls == 2 {
			close(inside)
			<-release
		}
		return orig(path, data, mode)
	}
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	wrote := make(chan error, 1)
	go func() { wrote <- Write(File{a, []byte("a")}, File{b, []byte("b")}) }()
	<-inside
	quiet := make(chan struct{})
	go func() { Quiesce(); close(quiet) }()
	select {
	case <-quiet:
		t.Error("Quiesce returned while a Write was in progress")
	case <-time.After(50 * time.Millisecond):
	}
	close(release)
	<-quiet
	// Quiesce holds the lock from here on: the test gives it back.
	held := true
	defer func() {
		if held {
			writing.Unlock()
		}
	}()
	if names := dirNames(t, dir); !slices.Equal(names, []string{"a", "b"}) {
		t.Errorf("when Quiesce returned the directory held %v, want [a b]", names)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	c := filepath.Join(dir, "c")
	later := make(chan error, 1)
	go func() { later <- Write(File{c, []byte("c")}) }()
	select {
	case err := <-later:
		t.Errorf("a Write after Quiesce ran (%v)", err)
		return
	case <-time.After(50 * time.Millisecond):
	}
	writing.Unlock()
	held = false
	if err := <-later; err != nil {
		t.Error(err)
	}
}
