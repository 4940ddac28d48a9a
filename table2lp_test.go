//go:build linux

package featmap

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"github.com/featmap/featmap/solver"
)

// threadCPU returns the CPU time the calling OS thread has used
// (CLOCK_THREAD_CPUTIME_ID): with the goroutine locked to its thread, the
// time of a solve alone, CLP's C code included, whatever else runs.
func threadCPU() time.Duration {
	var ts syscall.Timespec
	const clockThreadCPUTime = 3 // CLOCK_THREAD_CPUTIME_ID on Linux
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		panic(e)
	}
	return time.Duration(ts.Nano())
}

// table2LPPhase names the design phase of an LP from the 2-D fit's
// progress messages (package chum's): the per-axis 1-D designs that make
// the Proj ⊗ and modulation pools solve theirs silently before the
// message of the discrete LP.
func table2LPPhase(msg string) string {
	switch {
	case strings.HasPrefix(msg, "discrete LP"):
		return "discrete"
	case strings.HasPrefix(msg, "continuous refinement"):
		return "refine"
	case strings.HasPrefix(msg, "refit"), strings.HasPrefix(msg, "polish"):
		return "polish"
	case strings.HasPrefix(msg, "exchange"):
		return "exchange"
	}
	return ""
}

// table2LPPhases orders the phases in a report.
var table2LPPhases = []string{"axes", "discrete", "refine", "polish", "exchange"}

// table2LPStat sums the solves of one design phase.
type table2LPStat struct {
	n, pgPivots, clpPivots int
	pg, clp                time.Duration
	pgSlower               int // solves where purego took more CPU than CLP
}

func (s *table2LPStat) add(o *table2LPStat) {
	s.n += o.n
	s.pgPivots += o.pgPivots
	s.clpPivots += o.clpPivots
	s.pg += o.pg
	s.clp += o.clp
	s.pgSlower += o.pgSlower
}

// table2LPSample is a recorded LP with the options the design passed.
type table2LPSample struct {
	p      *solver.Problem
	o      solver.Options
	pivots int
	cell   string // the design that solved it
}

// table2LPSampleMax is the largest LP (nonzeros) that may be sampled: the
// gzip'd JSON of 250 000 nonzeros is about 1.2 MB.
const table2LPSampleMax = 250000

// bothBackends is a solver.Backend that hands every LP to purego, whose
// answer the design takes, and to CLP with the same options, the two in
// turn first, timing each by its thread's CPU clock.
type bothBackends struct {
	pg, clp solver.Backend
	cell    string // the design being made
	mu      sync.Mutex
	phase   string // of the LPs solved now
	solves  int
	stats   map[string]*table2LPStat
	errs    []string                   // answers that contradict each other
	gaveUp  []string                   // one backend stopped (iteration limit, numerical failure) where the other solved
	sample  map[string]*table2LPSample // per phase, the LP of most purego pivots
}

func (b *bothBackends) Name() string { return "purego+clp" }

// bothRegistered is the registered backend "purego+clp", which hands every
// LP to the bothBackends of the design being made (set before each design):
// Settings name their backend, so the test's comes through the registry.
var bothRegistered = &bothForwarder{}

var registerBoth sync.Once

// bothForwarder forwards to the current bothBackends.
type bothForwarder struct {
	mu  sync.Mutex
	cur *bothBackends
}

func (f *bothForwarder) Name() string { return "purego+clp" }

func (f *bothForwarder) set(b *bothBackends) {
	f.mu.Lock()
	f.cur = b
	f.mu.Unlock()
}

func (f *bothForwarder) Solve(p *solver.Problem, o solver.Options) (*solver.Solution, error) {
	f.mu.Lock()
	b := f.cur
	f.mu.Unlock()
	return b.Solve(p, o)
}

func (b *bothBackends) progress(msg string) {
	if ph := table2LPPhase(msg); ph != "" {
		b.mu.Lock()
		b.phase = ph
		b.mu.Unlock()
	}
}

func (b *bothBackends) Solve(p *solver.Problem, o solver.Options) (*solver.Solution, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.mu.Lock()
	phase, first := b.phase, b.solves%2 == 0
	b.solves++
	b.mu.Unlock()
	var pg, clp *solver.Solution
	var pgErr, clpErr error
	var pgT, clpT time.Duration
	runPG := func() {
		t := threadCPU()
		pg, pgErr = b.pg.Solve(p, o)
		pgT = threadCPU() - t
	}
	runCLP := func() {
		t := threadCPU()
		clp, clpErr = b.clp.Solve(p, o)
		clpT = threadCPU() - t
	}
	if first {
		runPG()
		runCLP()
	} else {
		runCLP()
		runPG()
	}
	if pgErr != nil {
		return nil, pgErr
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	st := b.stats[phase]
	if st == nil {
		st = &table2LPStat{}
		b.stats[phase] = st
	}
	st.n++
	st.pg += pgT
	st.pgPivots += pg.Iterations
	if pgT > clpT {
		st.pgSlower++
	}
	stopped := func(s solver.Status) bool { return s == solver.IterationLimit || s == solver.NumericalFailure }
	switch {
	case clpErr != nil:
		b.errs = append(b.errs, fmt.Sprintf("%s LP %d×%d: clp: %v", phase, p.NumRows, p.NumCols(), clpErr))
	case clp.Status != pg.Status && (stopped(pg.Status) || stopped(clp.Status)):
		b.gaveUp = append(b.gaveUp, fmt.Sprintf("%s LP %d×%d: purego %v after %d pivots, clp %v after %d", phase, p.NumRows, p.NumCols(), pg.Status, pg.Iterations, clp.Status, clp.Iterations))
	case clp.Status != pg.Status:
		b.errs = append(b.errs, fmt.Sprintf("%s LP %d×%d: purego %v, clp %v", phase, p.NumRows, p.NumCols(), pg.Status, clp.Status))
	case pg.Status == solver.Optimal && math.Abs(pg.Objective-clp.Objective) > 1e-9*math.Abs(clp.Objective):
		b.errs = append(b.errs, fmt.Sprintf("%s LP %d×%d: objective purego %.15g, clp %.15g", phase, p.NumRows, p.NumCols(), pg.Objective, clp.Objective))
	}
	if clpErr == nil {
		st.clp += clpT
		st.clpPivots += clp.Iterations
	}
	if s := b.sample[phase]; phase != "axes" && pg.Status == solver.Optimal && len(p.Value) <= table2LPSampleMax && (s == nil || pg.Iterations > s.pivots) {
		q := *p
		q.Obj, q.ColLower, q.ColUpper = append([]float64(nil), p.Obj...), append([]float64(nil), p.ColLower...), append([]float64(nil), p.ColUpper...)
		q.RowLower, q.RowUpper = append([]float64(nil), p.RowLower...), append([]float64(nil), p.RowUpper...)
		q.ColStart, q.RowIndex, q.Value = append([]int(nil), p.ColStart...), append([]int(nil), p.RowIndex...), append([]float64(nil), p.Value...)
		so := o
		so.Context, so.WarmStart = nil, o.WarmStart.Clone()
		b.sample[phase] = &table2LPSample{p: &q, o: so, pivots: pg.Iterations, cell: b.cell}
	}
	return pg, nil
}

// TestTable2D73LPs (FEATMAP_TABLE2_LPS=1 with -tags clp; about 7 min of
// CPU) designs Table 2's D = 73 cells (2-D RBF on [0, π]², σ = 0.3 and
// 0.2; projection, Proj ⊗, modulation) with every LP solved by both purego
// (whose answer the design takes, so the designs are purego's) and CLP,
// and logs per cell and design phase the LPs, pivots and CPU time of each
// backend (docs/lp-design.md, "Table 2's D = 73 LPs: purego against CLP").
// It fails if the two contradict each other on an LP (optimal, infeasible
// or unbounded against another of these, or optima more than 1e-9
// relative apart) and logs where one stopped (iteration limit, numerical
// failure) and the other solved: the design skips that γ or step, a
// give-up, not a wrong answer (σ = 0.2 has three, docs/lp-design.md). With FEATMAP_TABLE2_LPS_SAMPLE=DIR it also writes,
// per phase, the LP of most purego pivots under table2LPSampleMax nonzeros
// (gzip'd JSON and its options), solver/testdata/table2d73's form.
func TestTable2D73LPs(t *testing.T) {
	if os.Getenv("FEATMAP_TABLE2_LPS") == "" {
		t.Skip("set FEATMAP_TABLE2_LPS=1 (and -tags clp) to time Table 2's D = 73 LPs with both backends")
	}
	clp, err := solver.Get("clp")
	if err != nil {
		t.Skip("needs -tags clp")
	}
	pg, err := solver.Get("purego")
	if err != nil {
		t.Fatal(err)
	}
	methods := []struct{ name, yaml string }{
		{"proj", "{name: projection}"},
		{"projt", "{name: projection, pool: tensor}"},
		{"mod", "{name: modulation}"},
	}
	total := map[string]*table2LPStat{}
	all := map[string]*table2LPSample{}
	for _, sigma := range []string{"0.3", "0.2"} {
		for _, m := range methods {
			name := "s" + sigma[2:] + "-" + m.name
			s := parse(t, fmt.Sprintf("version: 1\nname: T2D73\nkernel: {type: rbf, sigma: %s}\ndomain: {dims: 2, interval: [0, 3.141592653589793]}\nmethod: %s\ntarget: {dim: 73}\n", sigma, m.yaml))
			b := &bothBackends{pg: pg, clp: clp, cell: name, phase: "axes", stats: map[string]*table2LPStat{}, sample: map[string]*table2LPSample{}}
			registerBoth.Do(func() { solver.Register(bothRegistered) })
			bothRegistered.set(b)
			d, err := s.Design(context.Background(), Settings{Solver: bothRegistered.Name(), Progress: b.progress, NoAhead: true})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			t.Logf("%s: L∞ %.4g, %d LPs", name, d.Verification.Reported.LInf, d.LPs)
			for _, e := range b.errs {
				t.Errorf("%s: %s", name, e)
			}
			for _, e := range b.gaveUp {
				t.Logf("%s: gave up: %s", name, e)
			}
			cell := &table2LPStat{}
			for _, ph := range table2LPPhases {
				if st := b.stats[ph]; st != nil {
					logTable2LPs(t, name, ph, st)
					cell.add(st)
					if total[ph] == nil {
						total[ph] = &table2LPStat{}
					}
					total[ph].add(st)
				}
				if sm := b.sample[ph]; sm != nil && (all[ph] == nil || sm.pivots > all[ph].pivots) {
					all[ph] = sm
				}
			}
			logTable2LPs(t, name, "total", cell)
		}
	}
	sum := &table2LPStat{}
	for _, ph := range table2LPPhases {
		if st := total[ph]; st != nil {
			logTable2LPs(t, "all", ph, st)
			sum.add(st)
		}
	}
	logTable2LPs(t, "all", "total", sum)
	if dir := os.Getenv("FEATMAP_TABLE2_LPS_SAMPLE"); dir != "" {
		phases := make([]string, 0, len(all))
		for ph := range all {
			phases = append(phases, ph)
		}
		sort.Strings(phases)
		for _, ph := range phases {
			sm := all[ph]
			base := filepath.Join(dir, fmt.Sprintf("%s-%dx%d", ph, sm.p.NumRows, sm.p.NumCols()))
			writeTable2LP(t, base, sm)
			t.Logf("wrote %s (%s, %d purego pivots)", base, sm.cell, sm.pivots)
		}
	}
}

func logTable2LPs(t *testing.T, name, phase string, st *table2LPStat) {
	t.Helper()
	t.Logf("%-8s %-8s %5d LPs  pivots purego %7d clp %7d  CPU purego %8.2f s clp %8.2f s  ratio %.2f  purego slower on %d",
		name, phase, st.n, st.pgPivots, st.clpPivots, st.pg.Seconds(), st.clp.Seconds(), st.pg.Seconds()/st.clp.Seconds(), st.pgSlower)
}

// writeTable2LP writes sm's problem as base.json.gz and its options as
// base.options.json (solver/testdata/table2d73's form).
func writeTable2LP(t *testing.T, base string, sm *table2LPSample) {
	t.Helper()
	f, err := os.Create(base + ".json.gz")
	if err != nil {
		t.Fatal(err)
	}
	zw, err := gzip.NewWriterLevel(f, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.WriteJSON(zw, sm.p); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	o := table2LPOptions{WarmStart: sm.o.WarmStart, MaxIterations: sm.o.MaxIterations, Devex: sm.o.Devex, DevexFromStart: sm.o.DevexFromStart, ShiftedStart: sm.o.ShiftedStart}
	data, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".options.json", append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// table2LPOptions is the JSON form of the solver.Options a sampled LP was
// solved with (solver/table2d73_test.go reads it).
type table2LPOptions struct {
	WarmStart      *solver.Basis `json:"warm_start"`
	MaxIterations  int           `json:"max_iterations"`
	Devex          bool          `json:"devex"`
	DevexFromStart bool          `json:"devex_from_start"`
	ShiftedStart   bool          `json:"shifted_start"`
}
