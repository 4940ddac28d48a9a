// Package atomicfile writes files so that a reader never sees one half
// written and a failure leaves the old files as they were: each file goes
// to a temporary file beside its target first, and only once every file of
// a set is written in full are they renamed over their targets.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// writing is held while a set of files is written and renamed (Write),
// and for good by Quiesce.
var writing sync.Mutex

// Quiesce waits for a Write in progress to finish and keeps every later
// one from starting: it never gives the lock back. It is for a process
// about to exit at once (a second Ctrl-C), which must not leave a set half
// renamed or a temporary file behind.
func Quiesce() { writing.Lock() }

// File is one file to write: its path and content.
type File struct {
	Path string
	Data []byte
}

// Write writes the files atomically as a set, as the package says: a new
// file gets mode 0644, an existing one keeps its permissions. A target
// that exists but is not a regular file (a directory, a FIFO, a device) is
// refused before anything is written. On failure no temporary file is left
// behind. One set is written at a time.
func Write(files ...File) error {
	writing.Lock()
	defer writing.Unlock()
	modes := make([]os.FileMode, len(files))
	for i, f := range files {
		modes[i] = 0o644
		if fi, err := os.Lstat(f.Path); err == nil {
			if !fi.Mode().IsRegular() {
				return fmt.Errorf("%s exists and is not a regular file", f.Path)
			}
			modes[i] = fi.Mode().Perm()
		}
	}
	tmps := make([]string, 0, len(files))
	cleanup := func() {
		for _, t := range tmps {
			os.Remove(t)
		}
	}
	for i, f := range files {
		tmp, err := writeTemp(f.Path, f.Data, modes[i])
		if err != nil {
			cleanup()
			return fmt.Errorf("writing %s: %w", f.Path, err)
		}
		tmps = append(tmps, tmp)
	}
	for i, f := range files {
		if err := os.Rename(tmps[i], f.Path); err != nil {
			tmps = tmps[i:]
			cleanup()
			return err
		}
	}
	return nil
}

// writeTemp writes data to a new temporary file of the given mode beside
// path and returns its name (a variable so that tests can make it fail).
var writeTemp = func(path string, data []byte, mode os.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, mode)
	}
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

// Kind names what kind of file a mode is, for messages that refuse
// anything but a regular file: "a directory", "a named pipe", "a
// character device", "a device", "a socket", "a symbolic link", "a
// regular file", else "file mode <type bits>".
func Kind(m os.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeCharDevice != 0:
		return "a character device"
	case m&os.ModeDevice != 0:
		return "a device"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "file mode " + m.Type().String()
}
