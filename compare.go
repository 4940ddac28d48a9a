package featmap

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/spec"
)

// Comparison is the outcome of Spec.RunComparison: every method of the spec's
// compare section at every dimension, in spec order.
type Comparison struct {
	Spec *Spec
	// Problem is the problem compared: the spec's (or one that learning
	// derived from it, see Spec.Design).
	Problem *fmap.Problem
	// Methods are the compared methods and Labels tell them apart, e.g.
	// "vz (rectangular)" and "vz (uniform)".
	Methods []spec.MethodSpec
	Labels  []string
	// Dims are the compared dimensions D or, with Widths, the compared
	// output widths (numbers per row; CompareSpec.Widths).
	Dims   []int
	Widths bool
	// Cells[i][j] is Methods[i] at Dims[j].
	Cells [][]CompareCell
	// Workers is how many designs ran at once; Seconds is the comparison's
	// wall time.
	Workers int
	Seconds float64
}

// CompareCell is one method at one dimension. Exactly one of Design, NA
// and Err is set.
type CompareCell struct {
	// Dim is the D the method is designed at: the column's D, or for a
	// comparison by widths the D that gives the column's width (0 when
	// none does).
	Dim int
	// Design is the designed and verified map.
	Design *Design
	// NA says why the method cannot make the dimension.
	NA string
	// Err is why the design failed.
	Err error
}

// RunComparison designs every method of the compare section at every
// dimension (it would be Spec.Compare, but that name is the section's field).
// Cells a method cannot make are marked n/a with the reason; the others are
// designed in parallel, runtime.NumCPU() at a time, and placed by method
// and dimension, so the result does not depend on scheduling (a chum
// design of one dimension continues from the one below it, which the
// method remembers: its cells share the work, designed upward one after
// another in one job, compareJob). A design that fails records
// its error in its cell; RunComparison fails only when no cell holds a map,
// or with the context's error when ctx ends before every design has (it
// still returns the Comparison then, for the cells' errors).
// set.Progress, if set, is called from one goroutine at a time.
func (s *Spec) RunComparison(ctx context.Context, set Settings) (*Comparison, error) {
	if s.Compare == nil {
		return nil, errors.New("featmap: the spec has no compare section (it is a single design)")
	}
	r, err := s.newRun(ctx, set)
	if err != nil {
		return nil, err
	}
	return r.compare(ctx, set, s.Compare.Methods, s.Compare.Dims, s.Compare.Widths)
}

// compare is RunComparison of methods at dims (or widths) for the run's
// problem.
func (r *run) compare(ctx context.Context, set Settings, methods []spec.MethodSpec, dims []int, widths bool) (*Comparison, error) {
	start := time.Now()
	c := &Comparison{
		Spec:    r.spec,
		Problem: r.problem,
		Methods: methods,
		Labels:  spec.MethodLabels(methods),
		Dims:    dims,
		Widths:  widths,
		Cells:   make([][]CompareCell, len(methods)),
	}
	jobs, cells := c.plan()
	c.Workers = max(1, min(runtime.NumCPU(), len(jobs)))
	var mu sync.Mutex
	say := func(msg string) {
		mu.Lock()
		defer mu.Unlock()
		set.Say(msg)
	}
	axis := "dimensions"
	if c.Widths {
		axis = "widths"
	}
	say(fmt.Sprintf("comparing %d methods × %d %s: %d designs, %d at a time", len(c.Methods), len(c.Dims), axis, cells, c.Workers))
	next := make(chan compareJob)
	var wg sync.WaitGroup
	done := 0
	for range c.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range next {
				for _, j := range jb.js {
					cell := &c.Cells[jb.i][j]
					name := fmt.Sprintf("%s, D = %d", c.Labels[jb.i], cell.Dim)
					if c.Widths {
						name += fmt.Sprintf(" (width %d)", c.Dims[j])
					}
					// The designs' own progress would interleave unreadably:
					// only their completions are reported. Beside each other
					// they have no worker to spare for solving ahead, which
					// then costs more than it saves (docs/lp-design.md,
					// Settings.NoAhead).
					ds := set.Quiet()
					ds.NoAhead = c.Workers > 1
					d, err := r.designDim(ctx, c.Methods[jb.i], cell.Dim, ds)
					cell.Design, cell.Err = d, err
					mu.Lock()
					done++
					n := done
					mu.Unlock()
					switch {
					case err != nil && ctx.Err() != nil:
						// Stopped by the context: RunComparison fails with its
						// error; a line per stopped cell would only repeat it.
					case err != nil:
						say(fmt.Sprintf("[%d/%d] %s failed: %v", n, cells, name, err))
					default:
						say(fmt.Sprintf("[%d/%d] %s: L∞ %.4g in %.2f s", n, cells, name, d.Verification.Reported.LInf, d.Seconds))
					}
				}
			}
		}()
	}
	for _, jb := range jobs {
		next <- jb
	}
	close(next)
	wg.Wait()
	c.Seconds = time.Since(start).Seconds()
	if err := ctx.Err(); err != nil {
		// Cells may have failed for the context alone: a report of them,
		// or auto's pick among the survivors, would be wrong.
		return c, fmt.Errorf("featmap: the comparison was stopped: %w", err)
	}
	return c, c.check()
}

// compareJob designs cells of one method in order: one cell, or all the
// cells of an incremental method (chum), whose design of D makes every D
// below it. Those are designed upward one after another, so that a cell's
// time is what its D costs from nothing, the D below it included
// (Design.Seconds). It is somewhat above a lone design's, which explores
// all its levels at once; run beside each other the cells all waited for
// the one chain and showed its whole time, the smallest D's included.
type compareJob struct {
	i  int   // the method
	js []int // its cells (columns), in the order they are designed
}

// plan sets every cell's D, marks the cells the methods cannot make n/a,
// and returns the jobs that design the others, largest first, and their
// number of cells.
func (c *Comparison) plan() ([]compareJob, int) {
	s := c.Spec
	var jobs []compareJob
	cells := 0
	for i, m := range c.Methods {
		chain := design.IsIncremental(m.Method)
		var js []int
		c.Cells[i] = make([]CompareCell, len(c.Dims))
		for j, d := range c.Dims {
			cell := &c.Cells[i][j]
			dim, why := d, ""
			if c.Widths {
				dim, why = s.DimForWidth(m, d)
			}
			if why != "" {
				cell.NA = why
				continue
			}
			cell.Dim = dim
			if ok, why := canMake(c.Problem, m, cell.Dim); !ok {
				cell.NA = why
				continue
			}
			cells++
			if chain {
				js = append(js, j)
				continue
			}
			jobs = append(jobs, compareJob{i, []int{j}})
		}
		if len(js) > 0 {
			row := c.Cells[i]
			sort.SliceStable(js, func(a, b int) bool { return row[js[a]].Dim < row[js[b]].Dim })
			jobs = append(jobs, compareJob{i, js})
		}
	}
	// Larger maps take longer: start them first (a chain by its largest)
	// so that the last design to finish is a short one.
	last := func(jb compareJob) int { return c.Cells[jb.i][jb.js[len(jb.js)-1]].Dim }
	sort.SliceStable(jobs, func(a, b int) bool { return last(jobs[a]) > last(jobs[b]) })
	return jobs, cells
}

// check returns an error if no cell holds a map.
func (c *Comparison) check() error {
	var first error
	for i := range c.Cells {
		for j := range c.Cells[i] {
			switch cell := c.Cells[i][j]; {
			case cell.Design != nil:
				return nil
			case cell.Err != nil && first == nil:
				first = fmt.Errorf("%s at D = %d: %w", c.Labels[i], cell.Dim, cell.Err)
			}
		}
	}
	if first == nil {
		return errors.New("featmap: no compared method can make any of the compared dimensions")
	}
	return fmt.Errorf("featmap: every design of the comparison failed; the first: %w", first)
}

// Failed returns the number of cells whose design failed.
func (c *Comparison) Failed() int {
	n := 0
	for _, row := range c.Cells {
		for _, cell := range row {
			if cell.Err != nil {
				n++
			}
		}
	}
	return n
}

// WidthRule says, for a comparison by widths, at which D each method was
// designed, e.g. "chum, li at D = width/64 (per coordinate); nystroem at
// D = width"; "" for a comparison by dimensions.
func (c *Comparison) WidthRule() string {
	if !c.Widths {
		return ""
	}
	var per, whole []string
	for i, m := range c.Methods {
		if c.Spec.Width(m, 1) == 1 {
			whole = append(whole, c.Labels[i])
		} else {
			per = append(per, c.Labels[i])
		}
	}
	var parts []string
	if len(per) > 0 {
		parts = append(parts, fmt.Sprintf("%s at D = width/%d (per coordinate)", strings.Join(per, ", "), c.Spec.Coordinates()))
	}
	if len(whole) > 0 {
		parts = append(parts, fmt.Sprintf("%s at D = width", strings.Join(whole, ", ")))
	}
	return strings.Join(parts, "; ")
}
