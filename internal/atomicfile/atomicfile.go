// Package atomicfile writes files so that a reader never sees one half
// written and a failure leaves the old files as they were: each file goes
// to a temporary file beside its target first, and only once every file of
// a set is written in full are they renamed over their targets.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// File is one file to write: its path and content.
type File struct {
	Path string
	Data []byte
}

// Write writes the files (mode 0644) atomically as a set, as the package
// says. A target that exists but is not a regular file (a directory, a
// FIFO, a device) is refused before anything is written. On failure no
// temporary file is left behind.
func Write(files ...File) error {
	for _, f := range files {
		if fi, err := os.Lstat(f.Path); err == nil && !fi.Mode().IsRegular() {
			return fmt.Errorf("%s exists and is not a regular file", f.Path)
		}
	}
	tmps := make([]string, 0, len(files))
	cleanup := func() {
		for _, t := range tmps {
			os.Remove(t)
		}
	}
	for _, f := range files {
		tmp, err := writeTemp(f.Path, f.Data)
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

// writeTemp writes data to a new temporary file beside path and returns
// its name (a variable so that tests can make it fail).
var writeTemp = func(path string, data []byte) (string, error) {
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
		err = os.Chmod(tmp, 0o644)
	}
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}
