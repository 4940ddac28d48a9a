//go:build !unix

package featmap

import "time"

// processCPU reports false: without getrusage the tests measure wall time.
func processCPU() (time.Duration, bool) { return 0, false }
