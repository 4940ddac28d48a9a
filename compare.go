package featmap

import (
	"errors"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/featmap/featmap/homogeneous"
	"github.com/featmap/featmap/multidim"
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

// MethodLabels returns a label per method that tells it apart from the
// others: the method's name, followed in parentheses by the options that
// differ from their defaults or between methods of the same name, e.g.
// "chum", "vz (rectangular)", "vz (uniform)", "li (bins 10)". Labels that
// would still coincide get "#2", "#3", ... appended.
func MethodLabels(ms []MethodSpec) []string {
	count := map[string]int{}
	for _, m := range ms {
		count[m.Name]++
	}
	labels := make([]string, len(ms))
	seen := map[string]int{}
	for i, m := range ms {
		var shown []string
		for _, o := range methodOptionList(m) {
			if o.changed || count[m.Name] > 1 && differs(ms, m.Name, o.key, o.text) {
				shown = append(shown, o.text)
			}
		}
		labels[i] = m.Name
		if len(shown) > 0 {
			labels[i] += " (" + strings.Join(shown, ", ") + ")"
		}
		seen[labels[i]]++
		if n := seen[labels[i]]; n > 1 {
			labels[i] += fmt.Sprintf(" #%d", n)
		}
	}
	return labels
}

// differs reports whether the methods named name disagree on option key.
func differs(ms []MethodSpec, name, key, text string) bool {
	for _, m := range ms {
		if m.Name != name {
			continue
		}
		found := false
		for _, o := range methodOptionList(m) {
			if o.key == key {
				found = true
				if o.text != text {
					return true
				}
			}
		}
		if !found {
			return true
		}
	}
	return false
}

// methodOption is one option of a method in words: its key, how a label
// shows it, how a description shows it (key and value), and whether it
// differs from the default.
type methodOption struct {
	key, text, desc string
	changed         bool
}

// methodOptionList lists a method's options in spec terms (defaults
// included where the method has a named default, such as vz's window).
func methodOptionList(m MethodSpec) []methodOption {
	var out []methodOption
	add := func(key, text string, changed bool) {
		out = append(out, methodOption{key, text, text, changed})
	}
	num := func(key string, v float64) {
		if v != 0 {
			add(key, fmt.Sprintf("%s %g", key, v), true)
		}
	}
	switch m.Name {
	case MethodChum:
		c := m.Chum
		num("omega_max", c.OmegaMax)
		num("spacing", c.Spacing)
		num("z_points", float64(c.ZPoints))
		num("refine_iterations", float64(c.RefineIterations))
		if c.NoPolish {
			add("polish", "no polish", true)
		}
		num("starts", float64(c.Starts))
		num("seed", float64(c.Seed))
	case MethodVZ:
		add("window", string(m.VZ.Window), m.VZ.Window != homogeneous.Rectangular)
		out[len(out)-1].desc = "window " + string(m.VZ.Window)
		num("period", m.VZ.Period)
	case MethodLi:
		if len(m.Li.K) > 0 {
			add("k", fmt.Sprintf("k %g", m.Li.K), true)
		}
		if m.Li.Data != "" {
			add("data", "data "+m.Li.Data, true)
		}
		if len(m.Li.K) == 0 {
			add("bins", fmt.Sprintf("bins %d", m.Li.Bins), m.Li.Bins != 0 && m.Li.Bins != homogeneous.DefaultLiBins)
		}
	case MethodProjection, MethodModulation, MethodTensorGreedy:
		o := m.Multi
		if m.Name == MethodProjection {
			add("pool", "pool "+o.Pool, o.Pool != multidim.PoolPolar)
			num("angles", float64(o.Angles))
			num("radii", float64(o.Radii))
			num("omega_max", o.OmegaMax)
		}
		num("axis_dim", float64(o.AxisDim))
		num("z_points", float64(o.ZPoints))
		num("refine_iterations", float64(o.Chum.RefineIterations))
		if o.Chum.NoPolish {
			add("polish", "no polish", true)
		}
		num("starts", float64(o.Chum.Starts))
		num("seed", float64(o.Chum.Seed))
	}
	return out
}
