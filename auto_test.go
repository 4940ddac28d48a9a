package featmap

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/registry"
	"github.com/featmap/featmap/spec"
)

// ranked is a method's name and its ranking error.
type ranked struct {
	name string
	err  float64
}

// independentBest designs every candidate auto would try at dim, each on
// its own with DesignDim, and returns the most accurate and the next
// (the first in candidate order on a tie), and how many made a map, to
// hold Spec.Auto's choice to.
func independentBest(t *testing.T, s *Spec, dim int) (best, second ranked, made int) {
	t.Helper()
	ms := candidates(t, s, dim)
	labels := spec.MethodLabels(ms)
	for i, m := range ms {
		d, err := s.DesignDim(context.Background(), m, dim, Settings{})
		if err != nil {
			t.Logf("%s at D = %d failed: %v", labels[i], dim, err)
			continue
		}
		made++
		e, _ := d.Verification.Rank()
		t.Logf("%s at D = %d: %.6g", labels[i], dim, e)
		switch r := (ranked{labels[i], e}); {
		case made == 1 || e < best.err:
			best, second = r, best
		case made == 2 || e < second.err:
			second = r
		}
	}
	return best, second, made
}

// candidates are the methods auto designs for s at dim.
func candidates(t *testing.T, s *Spec, dim int) []spec.MethodSpec {
	t.Helper()
	r, err := s.newRun(context.Background(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := r.autoCandidates(dim)
	return ms
}

// checkAuto runs method auto on s and holds its winner to the methods
// designed one by one.
func checkAuto(t *testing.T, s *Spec, wantRank string) *Design {
	t.Helper()
	if !s.IsAuto() {
		t.Fatal("spec's method is not auto")
	}
	d := mustDesign(t, s, Settings{})
	a := d.Auto
	if a == nil {
		t.Fatal("no Auto choice recorded")
	}
	best, second, made := independentBest(t, s, s.Target.Dim)
	if made < 3 {
		t.Fatalf("only %d methods made a map: the test needs a choice of the runner-up", made)
	}
	if a.Winner != best.name || !strings.HasPrefix(best.name, d.Method.Name()) {
		t.Errorf("auto chose %s (design's method %s), the most accurate designed alone is %s (%.6g)", a.Winner, d.Method.Name(), best.name, best.err)
	}
	if e, what := d.Verification.Rank(); e != best.err || what != wantRank || a.WinnerError != e {
		t.Errorf("winner's error %.6g by %q (recorded %.6g), want %.6g by %q", e, what, a.WinnerError, best.err, wantRank)
	}
	if a.RunnerUp != second.name || a.RunnerUpError != second.err {
		t.Errorf("runner-up %q with %.6g, the second most accurate designed alone is %s (%.6g)", a.RunnerUp, a.RunnerUpError, second.name, second.err)
	}
	// Every registered method once by its name, with some skipped, and
	// the variants the applicable ones offer (design.AutoVarier: nystroem
	// with more landmarks, with data) by their labels.
	skipped, named := 0, 0
	for _, c := range a.Candidates {
		if c.Skipped != "" {
			skipped++
		}
		if slices.Contains(registry.Names(), c.Method) {
			named++
		}
	}
	if skipped == 0 || named != len(registry.Names()) {
		t.Errorf("%d candidates (%d skipped, %d by a registered name), want every registered method (%d) with some skipped", len(a.Candidates), skipped, named, len(registry.Names()))
	}
	t.Log(a.Summary())
	return d
}

// chi2AutoSpec is method auto on a small χ² problem without data.
const chi2AutoSpec = `
version: 1
name: Chi2Auto
kernel: {type: chi2}
domain: {integers: [0, 16]}
target: {dim: 3}
method: auto
`

// TestAutoChi2 checks method auto on a small χ² spec without data: it
// keeps the map with the smallest verified L∞ error on the domain, names
// the winner and runner-up, and says why the others were skipped.
func TestAutoChi2(t *testing.T) {
	s := parse(t, chi2AutoSpec)
	d := checkAuto(t, s, "L∞ error")
	if d.Verification.Data != nil {
		t.Error("verified on data without a data section")
	}
	if d.Auto.SelectionError || strings.Contains(d.Auto.Summary(), "selection") {
		t.Errorf("ranked on the domain, called a selection error: %v, %q", d.Auto.SelectionError, d.Auto.Summary())
	}
	for _, c := range d.Auto.Candidates {
		if c.Method == "nystroem" && c.Skipped == "" {
			t.Error("nystroem (which needs data) was not skipped without data")
		}
	}
}

// TestAutoCancelled: method auto whose context ends while its candidates
// run fails with the context's error; it does not return the map of
// whichever candidate finished first as the winner (featmap gen would
// write it, keyed fresh).
func TestAutoCancelled(t *testing.T) {
	s := parse(t, chi2AutoSpec)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	d, err := s.Design(ctx, Settings{Progress: func(m string) {
		if strings.HasPrefix(m, "[1/") {
			cancel()
		}
	}})
	if !errors.Is(err, context.Canceled) || d != nil {
		t.Fatalf("design %v, err %v; want no design and the context's error", d != nil, err)
	}
}

// TestAutoData checks method auto with a data section (a few rows of the
// digits): it ranks the maps by the held-out data error, and says that
// the winner's data error, measured on the rows that chose it, is a
// selection error (in the summary, auto's JSON and the data error's On).
func TestAutoData(t *testing.T) {
	data, err := filepath.Abs("testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "auto.yaml")
	spec := `version: 1
name: Chi2AutoDigits
kernel: {type: chi2}
domain: {integers: [0, 16]}
error: {weight: absolute}
data: {file: ` + data + `, columns: [0, 63], label_column: 64, max_rows: 120}
target: {dim: 3}
method: {name: auto}
`
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	d := checkAuto(t, s, "held-out data error (Gram matrix, relative Frobenius)")
	js, err := json.Marshal(d.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if dv := d.Verification.Data; !d.Auto.SelectionError || !bytes.Contains(js, []byte(`"selection_error":true`)) ||
		!strings.Contains(d.Auto.Summary(), "a selection error, measured on the held-out rows that chose it") ||
		dv == nil || !strings.Contains(dv.Absolute.On, "held-out rows of "+data+", which also chose this map among ") {
		t.Errorf("the data error is not called a selection error: %s; %q; on %+v", js, d.Auto.Summary(), dv)
	}
	// With data auto also tries nystroem of 8D landmarks reduced to D.
	if !slices.ContainsFunc(d.Auto.Candidates, func(c AutoCandidate) bool {
		return c.Method == "nystroem (n_landmarks 24)" && c.Error != nil
	}) {
		t.Errorf("no nystroem (n_landmarks 24) among the candidates: %s", js)
	}
}

// TestAutoFewDistinctRows: held-out rows that cannot tell maps apart (two
// equal rows: one held out) do not rank them — on them li's χ² map and
// Nyström's are exact, and li won on a data error of 2·10⁻¹⁶ against
// chum's better map of the domain. Auto ranks on the domain's L∞ error,
// says why, and calls nothing a selection error.
func TestAutoFewDistinctRows(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "d.csv"), []byte("0.5\n0.5\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "auto.yaml")
	spec := "version: 1\nname: Few\nkernel: {type: chi2}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: 5}\ndata: {file: d.csv}\nmethod: {name: auto}\n"
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := LoadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	d := checkAuto(t, s, "L∞ error (the held-out rows, 1 distinct, are fewer than the 10 that can rank maps)")
	if d.Auto.SelectionError || strings.Contains(d.Auto.Summary(), "selection error") {
		t.Errorf("a selection error without selection: %q", d.Auto.Summary())
	}
}

// TestAutoSampledOneCandidate: on more than fmap.MaxGridAxes axes a map
// without data is verified on fmap.SampledPoints random points, and a
// winner ranked by its L∞ error there would be reported with a selection
// error on those points (as a data winner's is on the held-out rows:
// TestAutoData). Every kernel of vectors a spec takes on such axes leaves
// auto one candidate without data, rff: nothing is selected on the
// sample. A method added for such problems fails this test, and auto must
// then measure the winner apart or call its L∞ a selection error.
func TestAutoSampledOneCandidate(t *testing.T) {
	for _, k := range []string{"{type: rbf, sigma: 1}", "{type: exp-chi2, beta: 1}", "{type: skewed-chi2, sigma: 1, c: 1}", "{type: skewed-intersection, sigma: 1, c: 1}"} {
		s := parse(t, "version: 1\nname: A\nkernel: "+k+"\ndomain: {dims: 4, interval: [0, 1]}\ntarget: {dim: 32}\nmethod: auto\n")
		if n := s.Problem.InDim(); n <= fmap.MaxGridAxes {
			t.Fatalf("%d axes are verified on a grid", n)
		}
		ms := candidates(t, s, 32)
		var names []string
		for _, m := range ms {
			names = append(names, m.Name())
		}
		if len(names) != 1 || names[0] != "rff" {
			t.Errorf("%s on 4 axes without data: auto's candidates %v, want only rff (a winner among several would be ranked on the points that report its error)", k, names)
		}
	}
}

// TestAutoOptions: auto takes no options, and only in the method section.
func TestAutoOptions(t *testing.T) {
	for _, text := range []string{
		"version: 1\nname: A\nkernel: {type: chi2}\ndomain: {integers: [0, 16]}\ntarget: {dim: 3}\nmethod: {name: auto, window: rectangular}\n",
		"version: 1\nname: A\nkernel: {type: chi2}\ndomain: {integers: [0, 16]}\ncompare: {methods: [auto, vz], dims: [3]}\n",
	} {
		if _, err := ParseSpec("auto.yaml", []byte(text)); err == nil {
			t.Errorf("accepted:\n%s", text)
		} else {
			t.Log(err)
		}
	}
}

// TestAutoSummaryMargin: the summary calls equal errors a tie (a 2-D
// design at D = 1, where projection and modulation both make the constant
// map of L∞ 0.5, said "1× smaller") and does not call a winner of error 0
// tied with a runner-up above it.
func TestAutoSummaryMargin(t *testing.T) {
	for _, c := range []struct {
		w, r float64
		want string
	}{{0.5, 0.5, "(tied)"}, {0, 0.01, "(the winner's is 0)"}, {0.1, 0.25, "(2.5× smaller)"}} {
		a := &AutoChoice{Dim: 1, Ranked: "L∞ error", Winner: "projection", WinnerError: c.w, RunnerUp: "modulation", RunnerUpError: c.r}
		if s := a.Summary(); !strings.Contains(s, c.want) {
			t.Errorf("errors %g and %g: %q, want %q", c.w, c.r, s, c.want)
		}
	}
}
