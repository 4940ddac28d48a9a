package chum

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/featmap/featmap/design"
)

// chain holds the designs of one problem by dimension, and the γ searches'
// solves they share.
type chain struct {
	mu     sync.Mutex
	levels []*level
	shared solveCache
}

// level is the design of one dimension; mu is held while it is made.
type level struct {
	mu   sync.Mutex
	res  *design.Result
	err  error
	done bool
}

func (ch *chain) level(d int) *level {
	ch.mu.Lock()
	defer ch.mu.Unlock()
	for len(ch.levels) < d {
		ch.levels = append(ch.levels, &level{})
	}
	return ch.levels[d-1]
}

// design returns the design of dimension dim, making the missing ones
// below it first. A level that failed for a cancelled context is made
// again by the next call.
//
// The levels to make are explored at once (everything but the
// continuation of the design below does not depend on it; the gate shared
// by their fitters keeps the goroutines at work to Settings.Workers), and
// finished in order, each continuing the one below: a level's
// continuation starts as soon as the level below is finished, beside its
// own explore, and asks the gate urgently (the next level waits for it). Each level is
// deterministic, so the designs do not depend on the scheduling. The
// levels stay locked, lowest first, until each is finished.
func (ch *chain) design(ctx context.Context, fp FitProblem, opt FitOptions, dim int, s design.Settings) (*design.Result, error) {
	start := time.Now()
	levels := make([]*level, dim)
	for d := range levels {
		levels[d] = ch.level(d + 1)
		levels[d].mu.Lock()
	}
	unlocked := 0 // levels[:unlocked] are unlocked
	defer func() {
		for _, lv := range levels[unlocked:] {
			lv.mu.Unlock()
		}
	}()
	defer ch.shared.dropColumns()
	type job struct {
		c    *fitter
		err  error
		done chan struct{}
	}
	jobs := make([]*job, dim)
	// Only the target level reports progress (the others are quiet), from
	// its goroutine while the levels are explored, from this one after.
	g := newGate(workers(s))
	for d, lv := range levels {
		if lv.done && !errors.Is(lv.err, context.Canceled) && !errors.Is(lv.err, context.DeadlineExceeded) {
			continue
		}
		ls := s
		if d+1 < dim {
			ls = s.Quiet()
			s.Say(fmt.Sprintf("chum: D = %d on the way to %d", d+1, dim))
		}
		p := fp
		p.shared = &ch.shared
		j := &job{done: make(chan struct{})}
		j.c, j.err = newFitter(ctx, &p, d+1, opt, ls, g)
		jobs[d] = j
		if j.err != nil {
			close(j.done)
			continue
		}
		go func() {
			defer close(j.done)
			j.err = j.c.explore()
		}()
	}
	wait := func() {
		for _, j := range jobs {
			if j != nil {
				<-j.done
			}
		}
	}
	// base is the time the remembered level below the first one made here
	// took: a level's time is that plus this call's time until it is done.
	base := 0.0
	if f := slices.IndexFunc(jobs, func(j *job) bool { return j != nil }); f > 0 {
		if lv := levels[f-1]; lv.err == nil {
			base = lv.res.Seconds
		}
	}
	var prev *design.Result
	for d, lv := range levels {
		if j := jobs[d]; j != nil {
			// The continuation of the level below runs as soon as that
			// level is finished, beside this level's explore.
			cont := make(chan continued, 1)
			if j.c != nil && j.c.opt.polish() && prev != nil {
				terms := prev.Map.Fourier().Terms
				go func() { cont <- j.c.continueFrom(terms) }()
			} else {
				cont <- continued{}
			}
			<-j.done
			c := <-cont
			lv.res, lv.err = nil, j.err
			if j.err == nil {
				lv.res, lv.err = j.c.finish(c)
			}
			if lv.err == nil {
				// A shared solve counts in the lowest level that used
				// it, whichever solved it (levels finish in order).
				lv.res.LPs += ch.shared.count(j.c.sharedSolves)
				lv.res.Seconds = base + time.Since(start).Seconds()
				if prev != nil {
					lv.res.LPs += prev.LPs
				}
			}
			lv.done = true
		}
		res, err := lv.res, lv.err
		lv.mu.Unlock()
		unlocked++
		if err != nil {
			if d+1 == dim || ctx.Err() != nil {
				wait()
				return nil, err
			}
			// A dimension below the target that cannot be made is skipped:
			// the next one starts without a design to continue from.
			prev = nil
			continue
		}
		prev = res
	}
	return prev, nil
}
