package chum

import (
	"sync"

	"github.com/featmap/featmap/design"
)

// gate bounds the goroutines at work: a counting semaphore whose waiters
// are served in order, those that asked urgently (a chain's continuations,
// on which the next level waits) before the others.
type gate struct {
	mu    sync.Mutex
	free  int
	queue [2][]chan struct{} // waiting: [0] urgent, [1] the rest
}

// newGate returns a gate of n places.
func newGate(n int) *gate { return &gate{free: n} }

// acquire takes a place, waiting for one if none is free.
func (g *gate) acquire(urgent bool) {
	g.mu.Lock()
	if g.free > 0 {
		g.free--
		g.mu.Unlock()
		return
	}
	ch := make(chan struct{})
	k := 1
	if urgent {
		k = 0
	}
	g.queue[k] = append(g.queue[k], ch)
	g.mu.Unlock()
	<-ch
}

// release gives a place back: to the first urgent waiter, else to the
// first other one, else to the free ones.
func (g *gate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for k, q := range g.queue {
		if len(q) > 0 {
			g.queue[k] = q[1:]
			close(q[0]) // its place passes on
			return
		}
	}
	g.free++
}

// workers is the number of goroutines a design may use
// (design.Settings.Workers; 0 means 2).
func workers(s design.Settings) int {
	if s.Workers <= 0 {
		return 2
	}
	return s.Workers
}
