package design

import (
	"fmt"
	"os"
	"sort"
	"sync"
	"time"
)

// TEMPORARY profiling instrumentation (not committed).
type statRec struct {
	lps, rows, cols, iters, rounds, solves int
	dur                                    time.Duration
	maxRows, maxCols                       int
}

var (
	statMu sync.Mutex
	stats  = map[string]*statRec{}
)

func statAdd(phase string, rows, cols, iters int, d time.Duration) {
	if os.Getenv("FM_STATS") == "" {
		return
	}
	statMu.Lock()
	defer statMu.Unlock()
	r := stats[phase]
	if r == nil {
		r = &statRec{}
		stats[phase] = r
	}
	r.solves++
	r.rows += rows
	r.cols += cols
	r.iters += iters
	r.dur += d
	r.maxRows = max(r.maxRows, rows)
	r.maxCols = max(r.maxCols, cols)
}

func statPhase(phase string, d time.Duration) {
	if os.Getenv("FM_STATS") == "" {
		return
	}
	statMu.Lock()
	defer statMu.Unlock()
	r := stats["T:"+phase]
	if r == nil {
		r = &statRec{}
		stats["T:"+phase] = r
	}
	r.solves++
	r.dur += d
}

// StatDump prints and resets the stats.
func StatDump() {
	if os.Getenv("FM_STATS") == "" {
		return
	}
	statMu.Lock()
	defer statMu.Unlock()
	var ks []string
	for k := range stats {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	for _, k := range ks {
		r := stats[k]
		if r.rows == 0 {
			fmt.Fprintf(os.Stderr, "STAT %-28s n=%5d time=%v\n", k, r.solves, r.dur.Round(time.Millisecond))
			continue
		}
		fmt.Fprintf(os.Stderr, "STAT %-28s solves=%5d time=%8v avgRows=%6d maxRows=%6d avgCols=%5d maxCols=%5d avgIters=%6d\n", k, r.solves, r.dur.Round(time.Millisecond), r.rows/r.solves, r.maxRows, r.cols/r.solves, r.maxCols, r.iters/r.solves)
	}
	stats = map[string]*statRec{}
}
