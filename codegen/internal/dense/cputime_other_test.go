//go:build !unix

package dense

// cpuTime is 0 where the benchmarks do not read the process's CPU time.
func cpuTime() float64 { return 0 }
