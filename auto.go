package featmap

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/registry"
	"github.com/featmap/featmap/spec"
)

// AutoChoice is what method auto did at one D: the methods designed, in
// registry order (each with its ranking error, or why it failed), those
// skipped and why, and the winner and runner-up.
type AutoChoice struct {
	Dim int `json:"dim"`
	// Ranked names what ranked the maps (see fmap.Verification.Rank).
	Ranked string `json:"ranked_by"`
	// Winner and RunnerUp are methods' names and their ranking errors;
	// RunnerUp is empty when only one map was made.
	Winner        string  `json:"winner"`
	WinnerError   float64 `json:"winner_error"`
	RunnerUp      string  `json:"runner_up,omitempty"`
	RunnerUpError float64 `json:"runner_up_error,omitempty"`
	// Candidates are every registered method with what became of it.
	Candidates []AutoCandidate `json:"candidates"`
	// SelectionError says the maps were ranked on the held-out data rows,
	// so that the winner's data errors (WinnerError, and
	// verification.data, whose On says so) are selection errors: measured
	// on the rows that chose it, the least of the candidates' errors
	// there, a little optimistic for other rows. The data has no third
	// part to measure the winner on apart (docs/spec.md, "method: auto"). Without
	// data the L∞ error ranks: on the grids of 1 to 3 axes, fixed and no
	// sample; on more axes (fmap.SampledPoints random points) rff is the
	// only candidate (TestAutoSampledOneCandidate), so none is chosen there.
	SelectionError bool `json:"selection_error,omitempty"`
}

// AutoCandidate is one registered method under method auto: its ranking
// error when it made a map, else Skipped (why it cannot make the D or
// does not apply) or Failed (its design's error).
type AutoCandidate struct {
	Method  string   `json:"method"`
	Error   *float64 `json:"error,omitempty"`
	Skipped string   `json:"skipped,omitempty"`
	Failed  string   `json:"failed,omitempty"`
}

// Summary says in one line which method won and by how much (and, when
// the held-out data ranked the maps, that the winner's data error is a
// selection error).
func (a *AutoChoice) Summary() string {
	sel := ""
	if a.SelectionError {
		sel = "; a selection error, measured on the held-out rows that chose it"
	}
	if a.RunnerUp == "" {
		return fmt.Sprintf("auto at D = %d: %s, the only method that made a map (%s %.4g)", a.Dim, a.Winner, a.Ranked, a.WinnerError)
	}
	return fmt.Sprintf("auto at D = %d: %s won on %s %.4g; runner-up %s %.4g (%s)%s",
		a.Dim, a.Winner, a.Ranked, a.WinnerError, a.RunnerUp, a.RunnerUpError, margin(a.WinnerError, a.RunnerUpError), sel)
}

// margin says by how much the winner's error w is below the runner-up's
// r: "tied" when they are equal (Comparison.Best keeps the first on a
// tie), else their ratio, or that w is 0.
func margin(w, r float64) string {
	switch {
	case w == r:
		return "tied"
	case w > 0:
		return fmt.Sprintf("%.3g× smaller", r/w)
	}
	return "the winner's is 0"
}

// autoCandidates returns every registered method, with default options,
// that applies to the run's problem and can make D, and why each other
// one is skipped (in registry order, as AutoCandidate values).
func (r *run) autoCandidates(dim int) ([]spec.MethodSpec, []AutoCandidate) {
	var ok []spec.MethodSpec
	var all []AutoCandidate
	for _, m := range registry.All() {
		c := AutoCandidate{Method: m.Name()}
		if err := m.Applies(r.problem); err != nil {
			c.Skipped = err.Error()
		} else if oc, has := m.(design.OptionChecker); has && oc.CheckOptions(r.problem) != nil {
			c.Skipped = oc.CheckOptions(r.problem).Error()
		}
		if d, has := m.Options().(design.Defaulter); has {
			d.SetDefaults()
		}
		if tc, has := m.(design.TargetChecker); c.Skipped == "" && has {
			if err := tc.CheckTarget(dim); err != nil {
				c.Skipped = err.Error()
			}
		}
		if dims := design.DimsFor(m, r.problem); c.Skipped == "" && !dims.Has(dim) {
			c.Skipped = dims.Why
		}
		if c.Skipped == "" {
			ok = append(ok, spec.MethodSpec{Method: m})
		}
		all = append(all, c)
		if av, has := m.(design.AutoVarier); has && c.Skipped == "" {
			for _, v := range av.AutoVariants(r.problem, dim) {
				ms := spec.MethodSpec{Method: v}
				ok = append(ok, ms)
				all = append(all, AutoCandidate{Method: spec.MethodLabels([]spec.MethodSpec{ms})[0]})
			}
		}
	}
	return ok, all
}

// canMakeTarget reports whether the run's method (for auto, any
// applicable method) makes dimension dim.
func (r *run) canMakeTarget(dim int) bool {
	if r.method.IsAuto() {
		ms, _ := r.autoCandidates(dim)
		return len(ms) > 0
	}
	ok, _ := canMake(r.problem, *r.method, dim)
	return ok
}

// designAt designs the run's method at dim: a named method by designDim,
// auto by auto.
func (r *run) designAt(ctx context.Context, dim int, set Settings) (*Design, error) {
	if r.method.IsAuto() {
		return r.auto(ctx, dim, set)
	}
	return r.designDim(ctx, *r.method, dim, set)
}

// Auto designs D with every registered method that applies to the spec's
// problem and can make D (a method that does not apply, needs data the
// spec lacks, or cannot make D is skipped with the reason), by the same
// runner as a comparison (RunComparison, one column), and returns the most
// accurate verified map by Comparison.Best: on the held-out data when the
// spec has a data section, else on the domain (fmap.Verification.Rank).
// The design's Auto field names the winner, the runner-up and every
// candidate. It fails when no method makes a map. Like Design, it learns
// first what the spec asks.
func (s *Spec) Auto(ctx context.Context, dim int, set Settings) (*Design, error) {
	r, err := s.newRun(ctx, set)
	if err != nil {
		return nil, err
	}
	return r.auto(ctx, dim, set)
}

// auto is Auto for the run's problem.
func (r *run) auto(ctx context.Context, dim int, set Settings) (*Design, error) {
	ms, cands := r.autoCandidates(dim)
	if len(ms) == 0 {
		var why []string
		for _, c := range cands {
			why = append(why, c.Method+": "+c.Skipped)
		}
		msg := fmt.Sprintf("method auto: no registered method can make D = %d (%s)", dim, strings.Join(why, "; "))
		if t := r.spec.Target; t != nil && r.target == t && t.Dim == dim {
			// The spec's own target.dim, which no candidate makes.
			return nil, r.spec.TargetError(fmt.Sprintf("%d: %s", dim, msg))
		}
		return nil, fmt.Errorf("featmap: %s", msg)
	}
	c, err := r.compare(ctx, set, ms, []int{dim}, false)
	if err != nil {
		return nil, fmt.Errorf("featmap: method auto at D = %d: %w", dim, err)
	}
	win, second := c.Best(0)
	choice := &AutoChoice{Dim: dim}
	k, made := 0, 0
	for i := range cands {
		if cands[i].Skipped != "" {
			continue
		}
		switch cell := c.Cells[k][0]; {
		case cell.Design != nil:
			e, _ := cell.Design.Verification.Rank()
			cands[i].Error = &e
			made++
		case cell.Err != nil:
			cands[i].Failed = cell.Err.Error()
		}
		k++
	}
	choice.Candidates = cands
	d := c.Cells[win][0].Design
	choice.WinnerError, choice.Ranked = d.Verification.Rank()
	choice.Winner = c.Labels[win]
	if second >= 0 {
		choice.RunnerUp = c.Labels[second]
		choice.RunnerUpError, _ = c.Cells[second][0].Design.Verification.Rank()
	}
	out := *d
	if dv := d.Verification.Data; d.Verification.RanksOnData() && second >= 0 {
		// The rows that measure the winner's data error chose it.
		choice.SelectionError = true
		v := *dv
		v.Absolute.On += fmt.Sprintf(", which also chose this map among %d by their Gram matrix error (method auto): a selection error", made)
		out.Verification.Data = &v
	}
	out.Auto = choice
	out.Seconds = c.Seconds
	set.Say(choice.Summary())
	return &out, nil
}

// Best returns the rows of the two most accurate maps in column j, by
// fmap.Verification.Rank (the held-out data error when the maps were
// verified on data, else the L∞ error; the first row on a tie): the winner
// and the runner-up, −1 for either that does not exist. Method auto keeps
// the winner; the comparison report's best column uses the same rule.
func (c *Comparison) Best(j int) (winner, runnerUp int) {
	winner, runnerUp = -1, -1
	val := func(i int) float64 {
		e, _ := c.Cells[i][j].Design.Verification.Rank()
		if math.IsNaN(e) {
			return math.Inf(1)
		}
		return e
	}
	for i := range c.Methods {
		if c.Cells[i][j].Design == nil {
			continue
		}
		switch {
		case winner < 0 || val(i) < val(winner):
			winner, runnerUp = i, winner
		case runnerUp < 0 || val(i) < val(runnerUp):
			runnerUp = i
		}
	}
	return winner, runnerUp
}
