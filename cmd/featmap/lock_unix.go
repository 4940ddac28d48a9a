//go:build unix

package main

import (
	"fmt"
	"os"
	"syscall"
)

// lockDir takes an exclusive lock on the directory dir (flock(2) on the
// directory itself: no lock file is left beside the outputs), waiting for
// another featmap gen writing there to finish; unlock releases it (so
// does the process's exit).
func lockDir(dir string) (unlock func(), err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("locking %s: %w", dir, err)
	}
	return func() { f.Close() }, nil
}
