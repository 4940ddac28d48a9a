package chum

import (
	"runtime"
	"slices"
	"sync"
	"testing"
)

// TestGateUrgentFirst: the gate lets at most its capacity hold a place,
// and a place given back goes to the urgent waiters first, then to the
// others in the order they asked.
func TestGateUrgentFirst(t *testing.T) {
	g := newGate(1)
	g.acquire(false) // the one place is taken
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	queued := 0
	wait := func(name string, urgent bool) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.acquire(urgent)
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			g.release()
		}()
		// Let it queue before the next one asks.
		for {
			g.mu.Lock()
			n := len(g.queue[0]) + len(g.queue[1])
			g.mu.Unlock()
			if n == queued+1 {
				break
			}
			runtime.Gosched()
		}
		queued++
	}
	wait("a", false)
	wait("bb", false)
	wait("ccc", true)
	g.release()
	wg.Wait()
	if want := []string{"ccc", "a", "bb"}; !slices.Equal(order, want) {
		t.Errorf("served %v, want %v", order, want)
	}
	if g.free != 1 {
		t.Errorf("%d places free at the end, want 1", g.free)
	}
}
