package chum

import (
	"context"
	"errors"
	"sync"
)

// solveCache holds the outputs of the γ searches' LPs that the levels of a
// chain have in common. The pool, Z and the signature are the same at
// every dimension, so the discrete LP's cold solve at γ gives the same
// output at every level (the γ search of each level starts at the same γ
// and brackets by the same factors). A continuous refinement's search
// depends on the level only through the target dimension, which steers
// its brackets and bisection: levels whose refinement starts from the
// same output (the same seed, an output they share) solve the same LPs as
// long as they choose the same γ, so its solves are shared by the search's
// start and the γ of the solve and of those before it in the search
// (solveKey). A level that needs a solve another is making waits for it.
// counted marks the solves whose LPs a level's count holds (chain.design).
type solveCache struct {
	mu      sync.Mutex
	at      map[solveKey]*solveEntry
	counted map[*solveEntry]bool
	cols    map[columnsKey]*columnsEntry
}

// columnsKey names the LP columns of a γ search (chumLP) that the levels
// of a chain share while they are made: those of the discrete LP (the zero
// key) or of a refinement search's start (its seed, pool and trust region,
// as in solveKey).
type columnsKey struct {
	seed *pairWarm
	pool *[]float64
	dmax float64
}

// columnsEntry is one shared chumLP, made once.
type columnsEntry struct {
	once sync.Once
	cl   *chumLP
}

// columns returns the columns of key, made by build the first time. Their
// vectors are read only by the searches that share them (solveChum copies
// the LP's header to set γ).
func (sc *solveCache) columns(key columnsKey, build func() *chumLP) *chumLP {
	sc.mu.Lock()
	if sc.cols == nil {
		sc.cols = map[columnsKey]*columnsEntry{}
	}
	e := sc.cols[key]
	if e == nil {
		e = &columnsEntry{}
		sc.cols[key] = e
	}
	sc.mu.Unlock()
	e.once.Do(func() { e.cl = build() })
	return e.cl
}

// dropColumns forgets the shared columns (a few hundred kB each): a chain
// keeps its solves for later designs, but its columns only while its
// levels are made.
func (sc *solveCache) dropColumns() {
	sc.mu.Lock()
	sc.cols = nil
	sc.mu.Unlock()
}

// solveKey names a shared solve: the discrete LP's cold solve at γ (path
// γ's bits; the chain's pool is the same at every level and in every call,
// a new slice each time), or a continuous refinement's solve after the
// search that started from seed (the warm start of the output it
// refines, whose frequencies are pool) with trust region dmax has solved
// at the γ that path lists, this one last (8 bytes each, their bits).
type solveKey struct {
	seed *pairWarm
	pool *[]float64
	dmax float64
	path string
}

// count returns the LPs of the solves in used that no level counted yet,
// and marks them counted.
func (sc *solveCache) count(used []*solveEntry) int {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	if sc.counted == nil {
		sc.counted = map[*solveEntry]bool{}
	}
	n := 0
	for _, e := range used {
		if !sc.counted[e] {
			sc.counted[e] = true
			n += e.lps
		}
	}
	return n
}

// solveEntry is one shared solve; lps is the number of LPs it took (row
// generation's rounds), counted in the lowest level of the chain that
// used it (chain.design), so that every level's count is the same whatever
// the order and the grouping in which the levels were made.
type solveEntry struct {
	once sync.Once
	out  *lpOutput
	err  error
	lps  int
	// takers counts the searches that took it (TestChainSharesRefinement).
	takers int
}

// solve returns the entry of key and a copy of its output, solving it by
// f the first time.
func (sc *solveCache) solve(key solveKey, f func() (*lpOutput, int, error)) (*solveEntry, *lpOutput, error) {
	sc.mu.Lock()
	if sc.at == nil {
		sc.at = map[solveKey]*solveEntry{}
	}
	e := sc.at[key]
	if e == nil {
		e = &solveEntry{}
		sc.at[key] = e
	}
	e.takers++
	sc.mu.Unlock()
	e.once.Do(func() { e.out, e.lps, e.err = f() })
	if e.err != nil {
		if errors.Is(e.err, context.Canceled) || errors.Is(e.err, context.DeadlineExceeded) {
			// Not kept: the next design that needs it solves it.
			sc.mu.Lock()
			if sc.at[key] == e {
				delete(sc.at, key)
			}
			sc.mu.Unlock()
		}
		return e, nil, e.err
	}
	o := *e.out // a level records its own score in it
	return e, &o, nil
}
