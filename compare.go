package featmap

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"sync"
	"time"
)

// Comparison is the outcome of Spec.RunComparison: every method of the spec's
// compare section at every dimension, in spec order.
type Comparison struct {
	Spec *Spec
	// Methods are the compared methods and Labels tell them apart, e.g.
	// "vz (rectangular)" and "vz (uniform)".
	Methods []MethodSpec
	Labels  []string
	Dims    []int
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
// designed in parallel, runtime.NumCPU() at a time (each design is
// independent), and placed by method and dimension, so the result does not
// depend on scheduling. A design that fails records its error in its cell;
// RunComparison fails only when no cell holds a map (it still returns the
// Comparison then, for the cells' errors). o.Progress, if set, is called
// from one goroutine at a time.
func (s *Spec) RunComparison(o RunOptions) (*Comparison, error) {
	if s.Compare == nil {
		return nil, errors.New("featmap: the spec has no compare section (it is a single design)")
	}
	start := time.Now()
	c := &Comparison{
		Spec:    s,
		Methods: s.Compare.Methods,
		Labels:  MethodLabels(s.Compare.Methods),
		Dims:    s.Compare.Dims,
		Cells:   make([][]CompareCell, len(s.Compare.Methods)),
	}
	type job struct{ i, j int }
	var jobs []job
	for i, m := range c.Methods {
		c.Cells[i] = make([]CompareCell, len(c.Dims))
		for j, d := range c.Dims {
			if !s.CanMake(m, d) {
				c.Cells[i][j].NA = s.cannotMake(m, d)
				continue
			}
			jobs = append(jobs, job{i, j})
		}
	}
	// Larger maps take longer: start them first so that the last design
	// to finish is a short one.
	sort.SliceStable(jobs, func(a, b int) bool { return c.Dims[jobs[a].j] > c.Dims[jobs[b].j] })
	c.Workers = max(1, min(runtime.NumCPU(), len(jobs)))
	var mu sync.Mutex
	say := func(msg string) {
		if o.Progress != nil {
			mu.Lock()
			defer mu.Unlock()
			o.Progress(msg)
		}
	}
	say(fmt.Sprintf("comparing %d methods × %d dimensions: %d designs, %d at a time", len(c.Methods), len(c.Dims), len(jobs), c.Workers))
	next := make(chan job)
	var wg sync.WaitGroup
	done := 0
	for range c.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range next {
				name := fmt.Sprintf("%s, D = %d", c.Labels[jb.i], c.Dims[jb.j])
				// The designs' own progress would interleave unreadably:
				// only their completions are reported.
				opts := o
				opts.Progress = nil
				d, err := s.designCell(c.Methods[jb.i], c.Dims[jb.j], opts)
				cell := &c.Cells[jb.i][jb.j]
				cell.Design, cell.Err = d, err
				mu.Lock()
				done++
				n := done
				mu.Unlock()
				if err != nil {
					say(fmt.Sprintf("[%d/%d] %s failed: %v", n, len(jobs), name, err))
				} else {
					say(fmt.Sprintf("[%d/%d] %s: L∞ %.4g in %.2f s", n, len(jobs), name, d.Map.Errors.Reported.LInf, d.Seconds))
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
	return c, c.check()
}

// designCell designs one cell, turning a panic into an error so that one
// broken design does not take the others down.
func (s *Spec) designCell(m MethodSpec, dim int, o RunOptions) (d *Design, err error) {
	defer func() {
		if r := recover(); r != nil {
			d, err = nil, fmt.Errorf("featmap: %s panicked at D = %d: %v", m.Name, dim, r)
		}
	}()
	return s.DesignDim(m, dim, o)
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
				first = fmt.Errorf("%s at D = %d: %w", c.Labels[i], c.Dims[j], cell.Err)
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

// cannotMake says why method m cannot make dimension dim (for a cell where
// CanMake is false).
func (s *Spec) cannotMake(m MethodSpec, dim int) string {
	switch {
	case s.Kernel.Type == KernelHellinger:
		return "hellinger's exact map is 1-dimensional"
	case m.Name == MethodVZ || m.Name == MethodHarmonic:
		return m.Name + " makes odd dimensions only"
	case m.Name == MethodLi && len(m.Li.K) > 0:
		return fmt.Sprintf("li with explicit k makes D = %d only (one dimension per k)", len(m.Li.K))
	}
	return fmt.Sprintf("%s cannot make D = %d", m.Name, dim)
}
