package design

// Settings are how a design runs: the LP backend, where progress goes and
// how many goroutines it may use. The zero value is usable.
type Settings struct {
	// Solver names the LP backend, as the solver registry knows it ("": the
	// default, pure Go). The method that solves LPs looks it up there, so
	// that design, and every package that only names a backend, compiles no
	// solver.
	Solver string
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
