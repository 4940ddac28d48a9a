package design

import "github.com/featmap/featmap/solver"

// Settings are how a design runs: the LP backend, where progress goes and
// how many goroutines it may use. The zero value is usable.
type Settings struct {
	// Solver is the LP backend (nil: the default, pure Go).
	Solver solver.Backend
	// Progress, if not nil, receives progress messages.
	Progress func(string)
	// Workers bounds the goroutines of one design (0: 2).
	Workers int
	// NoAhead keeps a design's discrete γ search with many near-parallel
	// columns (2-D projections) from solving the γ it will likely need
	// next on its second worker while it solves the one it needs now: for
	// designs made beside others, which have no worker to spare (featmap
	// compare). It changes no result, only the time.
	NoAhead bool
}

// Backend returns the LP backend.
func (s Settings) Backend() solver.Backend {
	if s.Solver == nil {
		return solver.Default()
	}
	return s.Solver
}

// Say reports progress.
func (s Settings) Say(msg string) {
	if s.Progress != nil {
		s.Progress(msg)
	}
}

// Quiet returns s without progress messages.
func (s Settings) Quiet() Settings {
	s.Progress = nil
	return s
}
