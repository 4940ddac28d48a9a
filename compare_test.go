package featmap

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/report"
)

func parseCompare(t *testing.T, text string) *Spec {
	t.Helper()
	s, err := ParseSpec("compare.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// smallCompare is quick: closed forms and a small chum design on {0..31}.
const smallCompare = `version: 1
name: SmallCompare
kernel: {type: chi2}
domain: {integers: [0, 31]}
compare:
  methods: [{name: chum, starts: 2}, vz, {name: vz, window: uniform}, {name: li, k: [0.3, 1, 3]}, chebyshev]
  dims: [2, 3]
`

// TestRunComparison: every method × dim is a cell in spec order; cells a
// method cannot make are n/a with the reason; made cells equal DesignDim's
// design of the same method and D; progress is serialised.
func TestRunComparison(t *testing.T) {
	s := parseCompare(t, smallCompare)
	var msgs []string // appended without a lock: RunComparison serialises
	c, err := s.RunComparison(context.Background(), Settings{Progress: func(m string) { msgs = append(msgs, m) }})
	if err != nil {
		t.Fatal(err)
	}
	wantLabels := []string{"chum (starts 2)", "vz (rectangular)", "vz (uniform)", "li (k [0.3 1 3])", "chebyshev"}
	if !reflect.DeepEqual(c.Labels, wantLabels) {
		t.Errorf("labels %q, want %q", c.Labels, wantLabels)
	}
	wantNA := map[[2]int]string{
		{1, 0}: "vz makes odd dimensions only",
		{2, 0}: "vz makes odd dimensions only",
		{3, 0}: "li with explicit k makes D = 3 only (one dimension per k)",
	}
	for i, m := range c.Methods {
		for j, d := range c.Dims {
			cell := c.Cells[i][j]
			if why, na := wantNA[[2]int{i, j}]; na {
				if cell.NA != why || cell.Design != nil || cell.Err != nil {
					t.Errorf("%s D=%d: %+v, want n/a %q", c.Labels[i], d, cell, why)
				}
				continue
			}
			if cell.Err != nil || cell.Design == nil {
				t.Fatalf("%s D=%d: %+v", c.Labels[i], d, cell)
			}
			if cell.Design.Map.Dim != d || cell.Design.Method.Name() != m.Name() {
				t.Errorf("%s D=%d: cell holds %s D=%d", c.Labels[i], d, cell.Design.Method.Name(), cell.Design.Map.Dim)
			}
			alone, err := s.DesignDim(context.Background(), m, d, Settings{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(alone.Map, cell.Design.Map) {
				t.Errorf("%s D=%d: the comparison's map differs from DesignDim's", c.Labels[i], d)
			}
		}
	}
	done := 0
	for _, m := range msgs {
		if strings.Contains(m, "/7] ") {
			done++
		}
	}
	if done != 7 {
		t.Errorf("%d completion messages, want 7:\n%s", done, strings.Join(msgs, "\n"))
	}
	if c.Failed() != 0 || c.Workers < 1 {
		t.Errorf("failed %d, workers %d", c.Failed(), c.Workers)
	}
}

// brokenMethod is a test method whose every design fails (as a design may
// on a problem it accepted: an LP the solver cannot solve, a deadline).
type brokenMethod struct{}

func (brokenMethod) Name() string                   { return "broken" }
func (brokenMethod) Options() any                   { return &struct{}{} }
func (brokenMethod) Applies(*fmap.Problem) error    { return nil }
func (brokenMethod) Dims(*fmap.Problem) design.Dims { return design.AnyDim }
func (brokenMethod) Design(context.Context, *fmap.Problem, int, design.Settings) (*design.Result, error) {
	return nil, errors.New("broken: every design fails")
}

// withBroken returns s with its first compared method replaced by
// brokenMethod.
func withBroken(s *Spec) *Spec {
	s.Compare.Methods[0].Method = brokenMethod{}
	return s
}

// TestRunComparisonFailures: a failing design is recorded in its cell and
// the others still run; a comparison with no map at all is an error.
func TestRunComparisonFailures(t *testing.T) {
	s := withBroken(parseCompare(t, `version: 1
name: Fails
kernel: {type: chi2}
domain: {integers: [0, 31]}
compare:
  methods: [{name: vz, window: uniform}, vz]
  dims: [2, 3]
`))
	c, err := s.RunComparison(context.Background(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Cells[0][0].Err == nil || c.Cells[0][1].Err == nil || c.Failed() != 2 {
		t.Errorf("the broken method's cells did not fail: %+v", c.Cells[0])
	}
	if c.Cells[1][1].Design == nil || c.Cells[1][0].NA == "" {
		t.Errorf("vz cells: %+v", c.Cells[1])
	}

	s = parseCompare(t, strings.Replace(strings.Replace(smallCompare, "dims: [2, 3]", "dims: [2, 4]", 1),
		"[{name: chum, starts: 2}, vz, {name: vz, window: uniform}, {name: li, k: [0.3, 1, 3]}, chebyshev]", "[vz]", 1))
	if _, err := s.RunComparison(context.Background(), Settings{}); err == nil || !strings.Contains(err.Error(), "no compared method can make") {
		t.Errorf("all n/a: err %v", err)
	}
	s = withBroken(parseCompare(t, `version: 1
name: AllFail
kernel: {type: chi2}
domain: {integers: [0, 31]}
compare:
  methods: [vz]
  dims: [3]
`))
	if _, err := s.RunComparison(context.Background(), Settings{}); err == nil || !strings.Contains(err.Error(), "every design of the comparison failed") {
		t.Errorf("all failed: err %v", err)
	}
	single := parseCompare(t, "version: 1\nname: X\nkernel: {type: chi2}\ndomain: {integers: [0, 31]}\ntarget: {dim: 3}\nmethod: {name: vz}\n")
	if _, err := single.RunComparison(context.Background(), Settings{}); err == nil {
		t.Error("a single-design spec was compared")
	}
}

// TestComparisonPlan: the cells of an incremental method (chum, whose
// design of D makes every D below it) are one job, designed upward one
// after another, so that each cell's time is what its D costs from
// nothing; designed beside each other they all waited for the one chain
// and showed its whole time (compare-chi2-8bit: D = 3 2.04 s against D =
// 11's 2.25 s; upward 0.20 s against 2.13 s). Every other cell is a job
// of its own; the jobs start with the largest D.
func TestComparisonPlan(t *testing.T) {
	s := parseCompare(t, `version: 1
name: Plan
kernel: {type: chi2}
domain: {integers: [0, 255]}
compare:
  methods: [li, chum, vz]
  dims: [8, 1, 3]
`)
	c := &Comparison{Spec: s, Problem: s.Problem, Methods: s.Compare.Methods, Dims: s.Compare.Dims, Cells: make([][]CompareCell, 3)}
	jobs, cells := c.plan()
	// li makes every D, chum every D (one job, upward: columns 1, 2, 0),
	// vz odd D only (D = 8 is n/a).
	want := []compareJob{{0, []int{0}}, {1, []int{1, 2, 0}}, {0, []int{2}}, {2, []int{2}}, {0, []int{1}}, {2, []int{1}}}
	if !reflect.DeepEqual(jobs, want) || cells != 8 {
		t.Errorf("jobs %v (%d cells), want %v (8 cells)", jobs, cells, want)
	}
	if c.Cells[2][0].NA == "" {
		t.Error("vz at D = 8: not n/a")
	}
}

// TestRunComparisonCancelled: a comparison whose context ends while it
// runs is an error wrapping the context's, even when some cells were made
// before: featmap compare must not write a report of "failed" cells over a
// previous one, nor method auto keep the first map that happened to finish.
// The context is cancelled when the first cell completes.
func TestRunComparisonCancelled(t *testing.T) {
	s := parseCompare(t, smallCompare)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var msgs []string
	c, err := s.RunComparison(ctx, Settings{Progress: func(m string) {
		msgs = append(msgs, m)
		if strings.HasPrefix(m, "[1/") {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v, want the context's error", err)
	}
	if c == nil || c.Cells[0][0].Design == nil && c.Cells[0][0].Err == nil && c.Cells[0][0].NA == "" {
		t.Error("the cells are not returned with the error")
	}
	for _, m := range msgs {
		if strings.Contains(m, "context canceled") {
			t.Errorf("progress reports a cell the cancellation stopped: %q", m)
		}
	}
}

// TestReportInput: the report's input carries every cell with its map,
// reason or error, the labels, and numbers equal to the designs' JSON.
func TestReportInput(t *testing.T) {
	s := parseCompare(t, strings.Replace(smallCompare, "{name: chum, starts: 2}, ", "", 1))
	c, err := s.RunComparison(context.Background(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	in, err := c.ReportInput()
	if err != nil {
		t.Fatal(err)
	}
	if in.Reference == nil || in.Measure != s.Problem.Measure || !in.Domain.Integer || len(in.Cells) != 4 {
		t.Fatalf("input %+v", in)
	}
	raw, err := json.Marshal(in.Results())
	if err != nil {
		t.Fatal(err)
	}
	var r report.Results
	if err := json.Unmarshal(raw, &r); err != nil {
		t.Fatal(err)
	}
	for k, rc := range r.Cells {
		i, j := k/len(c.Dims), k%len(c.Dims)
		cell := c.Cells[i][j]
		switch {
		case cell.NA != "":
			if rc.Status != report.StatusNA || rc.Reason != cell.NA {
				t.Errorf("cell %d: %+v", k, rc)
			}
		default:
			dj := cell.Design.JSON()
			if rc.Status != report.StatusOK || *rc.LInf != dj.Errors.LInf || *rc.RMS != dj.Errors.RMS || rc.Method != c.Labels[i] {
				t.Errorf("cell %d: %+v, design -json says %+v", k, rc, dj.Errors)
			}
		}
	}
	want := []report.Item{
		{Key: "kernel", Value: "χ² kernel (γ = 1)"},
		{Key: "domain", Value: "the integers {0..31}"},
	}
	if !reflect.DeepEqual(in.Spec[:2], want) {
		t.Errorf("spec restated as %+v", in.Spec)
	}
}

// TestDescribeDims: runs of dimensions are written compactly.
func TestDescribeDims(t *testing.T) {
	for _, c := range []struct {
		dims []int
		want string
	}{
		{[]int{3, 4, 5, 6}, "3..6"},
		{[]int{3, 5, 7, 9, 11}, "3, 5, …, 11"},
		{[]int{1, 2, 7}, "1, 2, 7"},
		{[]int{9}, "9"},
	} {
		if got := describeDims(c.dims); got != c.want {
			t.Errorf("describeDims(%v) = %q, want %q", c.dims, got, c.want)
		}
	}
}

// TestCompareRelativeSignaturePlot: under the relative error (the spec in
// testdata/specs/compare-relative.yaml, without its slow chum) the report's
// signature plot draws vz's relative error and leaves out li and
// chebyshev, whose Ψ(x)·Ψ(y) is not a function of λ alone, saying so.
func TestCompareRelativeSignaturePlot(t *testing.T) {
	text, err := os.ReadFile("testdata/specs/compare-relative.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := parseCompare(t, strings.Replace(string(text), "[chum, li, chebyshev, vz]", "[li, chebyshev, vz]", 1))
	if len(s.Compare.Methods) != 3 {
		t.Fatalf("%d methods: the spec's method list changed", len(s.Compare.Methods))
	}
	c, err := s.RunComparison(context.Background(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := writeReport(t, c)
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "signature-error.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(md), "Not drawn: li, chebyshev.") {
		t.Errorf("report.md does not say li and chebyshev are left out of the signature plot")
	}
	legend := func(label string) bool { return strings.Contains(string(svg), ">"+label+"</text>") }
	if !legend("vz") || legend("li") || legend("chebyshev") {
		t.Errorf("signature plot legend: vz %v, li %v, chebyshev %v; want vz only", legend("vz"), legend("li"), legend("chebyshev"))
	}
	if !strings.Contains(string(svg), "/ k(λ)") {
		t.Errorf("the signature plot's axis does not name the relative error")
	}
}

// TestCompareWidths: a comparison by widths (compare.widths) of the
// additive χ² on the digits' 64 pixels designs each per-coordinate method
// at D = width/64 (n/a where 64 does not divide the width) and nystroem at
// D = width, so that every made map puts out exactly the column's width of
// numbers per row; the report's tables and results.json are by width.
func TestCompareWidths(t *testing.T) {
	if testing.Short() {
		t.Skip("designs a digits comparison (seconds); skipped with -short")
	}
	t.Parallel() // shares no state with the other tests
	raw, err := os.ReadFile("testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	spec := `version: 1
name: WidthCompare
kernel: {type: chi2}
domain: {integers: [0, 16]}
error: {weight: absolute}
data: {file: digits.csv.gz, columns: [0, 63], label_column: 64}
compare:
  methods: [li, {name: nystroem, landmarks: random}]
  widths: [32, 64, 128]
`
	s := loadSpec(t, writeSpecWith(t, spec, map[string]string{"digits.csv.gz": string(raw)}))
	if !s.Compare.Widths || !reflect.DeepEqual(s.Compare.Dims, []int{32, 64, 128}) {
		t.Fatalf("compare %+v, want widths 32, 64, 128", s.Compare)
	}
	c, err := s.RunComparison(context.Background(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	wantDim := [][]int{{0, 1, 2}, {32, 64, 128}}
	for i := range c.Methods {
		for j, w := range c.Dims {
			cell := c.Cells[i][j]
			if cell.Dim != wantDim[i][j] {
				t.Errorf("%s at width %d: D = %d, want %d", c.Labels[i], w, cell.Dim, wantDim[i][j])
			}
			if wantDim[i][j] == 0 {
				if want := "li maps each of the 64 coordinates to D outputs: its widths are multiples of 64"; cell.NA != want {
					t.Errorf("%s at width %d: n/a %q, want %q", c.Labels[i], w, cell.NA, want)
				}
				continue
			}
			if cell.Design == nil {
				t.Fatalf("%s at width %d: no map (%v)", c.Labels[i], w, cell.Err)
			}
			// The map's output on a whole data row has exactly w numbers.
			m := cell.Design.Map
			row := s.Problem.Data.Held[0]
			out := make([]float64, w)
			if fmap.Additive(m, len(row)) {
				if m.Dim*len(row) != w {
					t.Errorf("%s at width %d: %d per coordinate × %d coordinates", c.Labels[i], w, m.Dim, len(row))
				}
			} else if m.Dim != w || m.InDim != len(row) {
				t.Errorf("%s at width %d: a map of %d inputs to %d", c.Labels[i], w, m.InDim, m.Dim)
			}
			fmap.RowFeatures(m, out, row)
		}
	}
	if got, want := c.WidthRule(), "li at D = width/64 (per coordinate); nystroem (random) at D = width"; got != want {
		t.Errorf("width rule %q, want %q", got, want)
	}
	dir, in := writeReport(t, c)
	md, err := os.ReadFile(filepath.Join(dir, "report.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| method | width 32 | width 64 | width 128 |",
		"- **widths**: 32, 64, 128 numbers per row: li at D = width/64 (per coordinate); nystroem (random) at D = width",
		"li at width 32: li maps each of the 64 coordinates to D outputs: its widths are multiples of 64",
	} {
		if !strings.Contains(string(md), want) {
			t.Errorf("report.md lacks %q:\n%s", want, md)
		}
	}
	r := in.Results()
	if !r.Widths {
		t.Error("results.json does not say its dims are widths")
	}
	for _, rc := range r.Cells {
		if rc.Status == report.StatusOK && rc.MapDim*map[string]int{"li": 64, "nystroem (random)": 1}[rc.Method] != rc.Dim {
			t.Errorf("results cell %s at width %d: map_dim %d", rc.Method, rc.Dim, rc.MapDim)
		}
	}
}

// writeReport writes c's report into a temporary directory and returns
// the directory and the report's input.
func writeReport(t *testing.T, c *Comparison) (string, *report.Input) {
	t.Helper()
	in, err := c.ReportInput()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := report.Write(dir, in); err != nil {
		t.Fatal(err)
	}
	return dir, in
}
