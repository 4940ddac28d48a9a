package chum

import "context"

// aheadSolve solves a γ search's discrete LPs one γ ahead (search): beside
// the solve of the γ the search takes, that of the γ it will likely take
// next, in a goroutine of its own.
type aheadSolve struct {
	run   *aheadRun // the solve ahead, if any
	taken int       // outputs taken from solves ahead
}

// aheadRun is one solve ahead.
type aheadRun struct {
	g      float64
	cancel context.CancelFunc
	done   chan struct{}
	out    *lpOutput
	lps    int
	err    error
	// panicked holds what the solve panicked with: the search panics
	// with it if it takes the output, as its own solve would have.
	panicked any
}

// take returns the output at g, the LPs it took and its error: the solve
// ahead's if that is at g, else f's. Before it solves or waits, it starts
// the solve of next (if positive) in a goroutine and cancels a solve ahead
// at any other γ. A cancelled solve ends on its own (the pure-Go backend
// within 64 pivots, CLP, which cannot be interrupted, at the end of its
// LP); the next solve ahead waits for it, so that no more than two LPs
// run at once.
func (a *aheadSolve) take(ctx context.Context, g, next float64, f func(context.Context, float64) (*lpOutput, int, error)) (*lpOutput, int, error) {
	var r *aheadRun
	if a.run != nil && a.run.g == g {
		r, a.run = a.run, nil
	}
	wrong := a.stop()
	if next > 0 && next != g {
		actx, cancel := context.WithCancel(ctx)
		n := &aheadRun{g: next, cancel: cancel, done: make(chan struct{})}
		go func() {
			defer close(n.done)
			defer func() { n.panicked = recover() }()
			if wrong != nil {
				<-wrong.done
			}
			n.out, n.lps, n.err = f(actx, next)
		}()
		a.run = n
	}
	if r == nil {
		return f(ctx, g)
	}
	<-r.done
	r.cancel()
	if r.panicked != nil {
		panic(r.panicked)
	}
	a.taken++
	return r.out, r.lps, r.err
}

// stop cancels the solve ahead, if any, and returns it.
func (a *aheadSolve) stop() *aheadRun {
	r := a.run
	if r != nil {
		r.cancel()
		a.run = nil
	}
	return r
}
