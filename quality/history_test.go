package quality

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

var (
	historyCommits = flag.String("ledger.history", "", "comma-separated commits whose featmap designs the grid (git worktree; results in testdata/history/COMMIT.tsv)")
	historyTimeout = flag.Duration("ledger.timeout", 15*time.Minute, "the longest one design of the history may run")
	historyMerge   = flag.Bool("ledger.merge", false, "fold testdata/history/ into the ledger: each problem's least error, from the earliest commit that reached it")
)

const historyDir = "testdata/history"

// TestLedgerHistory builds featmap at earlier commits and designs the grid
// with each, one design at a time, writing each commit's errors and wall
// times to testdata/history/COMMIT.tsv (rows already there are kept, so an
// interrupted run resumes). With -ledger.merge it folds the history into
// the ledger. It runs only when asked (docs/quality.md):
//
//	go test ./quality -run TestLedgerHistory -timeout 0 -ledger.history 1d181e2,e610c97
//	go test ./quality -run TestLedgerHistory -ledger.merge
func TestLedgerHistory(t *testing.T) {
	if *historyCommits == "" && !*historyMerge {
		t.Skip("-ledger.history or -ledger.merge not given")
	}
	if *historyCommits != "" {
		for _, c := range strings.Split(*historyCommits, ",") {
			runHistory(t, strings.TrimSpace(c))
		}
	}
	if *historyMerge {
		mergeHistory(t)
	}
}

// historyRow is one design of the history: the metric or why it failed.
type historyRow struct {
	Problem string
	Value   float64
	OK      bool
	Seconds float64
	Note    string
}

// runHistory designs the grid (the problems -ledger.run selects) with the
// featmap of one commit.
func runHistory(t *testing.T, commit string) {
	full, err := git("rev-parse", "--verify", commit+"^{commit}")
	if err != nil {
		t.Fatalf("%s: %v", commit, err)
	}
	short := full[:7]
	when, _ := git("show", "-s", "--format=%cI", full)
	subject, _ := git("show", "-s", "--format=%s", full)
	if err := os.MkdirAll(historyDir, 0o755); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(historyDir, short+".tsv")
	done, _, err := readHistory(out)
	if err != nil {
		t.Fatal(err)
	}

	work := t.TempDir()
	tree := filepath.Join(work, "tree")
	if _, err := git("worktree", "add", "--detach", tree, full); err != nil {
		t.Fatal(err)
	}
	defer git("worktree", "remove", "--force", tree)
	bin := filepath.Join(work, "featmap")
	build := exec.Command("go", "build", "-o", bin, "./cmd/featmap")
	build.Dir = tree
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: go build: %v\n%s", short, err, b)
	}

	f, err := os.OpenFile(out, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if len(done) == 0 {
		fmt.Fprintf(f, "# commit %s %s\n# %s\n# problem\terror\tseconds\tnote\n", full, when, oneLine(subject, 100))
	}
	var re *regexp.Regexp
	if *ledgerRun != "" {
		re = regexp.MustCompile(*ledgerRun)
	}
	specs, digits := t.TempDir(), digitsPath(t)
	for _, p := range grid() {
		if _, ok := done[p.ID]; ok || (re != nil && !re.MatchString(p.ID)) {
			continue
		}
		r := runBinary(bin, p, specs, digits)
		value := "-"
		if r.OK {
			value = strconv.FormatFloat(r.Value, 'g', -1, 64)
		}
		fmt.Fprintf(f, "%s\t%s\t%.2f\t%s\n", p.ID, value, r.Seconds, r.Note)
		t.Logf("%s %s: %s (%.1f s) %s", short, p.ID, value, r.Seconds, r.Note)
	}
}

// runBinary designs one problem with a featmap binary.
func runBinary(bin string, p problem, dir, digits string) historyRow {
	r := historyRow{Problem: p.ID}
	path, err := specFile(p, dir, digits)
	if err != nil {
		r.Note = err.Error()
		return r
	}
	ctx, cancel := context.WithTimeout(context.Background(), *historyTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "design", "-json", path)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err = cmd.Run()
	r.Seconds = time.Since(start).Seconds()
	switch {
	case ctx.Err() != nil:
		r.Note = fmt.Sprintf("timed out after %v", *historyTimeout)
	case err != nil:
		r.Note = oneLine(strings.ReplaceAll(lastLine(stderr.String()), dir+string(filepath.Separator), ""), 160)
	default:
		v, err := metricOf(stdout.Bytes(), p.Metric)
		if err != nil {
			r.Note = err.Error()
		} else {
			r.Value, r.OK = v, true
		}
	}
	return r
}

// readHistory reads one commit's history file: its rows by problem and
// the commit's date (from the header).
func readHistory(path string) (map[string]historyRow, string, error) {
	rows := map[string]historyRow{}
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return rows, "", nil
	}
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	date := ""
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if strings.HasPrefix(text, "# commit ") {
			if fs := strings.Fields(text); len(fs) >= 4 {
				date = fs[3]
			}
		}
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fs := strings.SplitN(text, "\t", 4)
		if len(fs) < 3 {
			return nil, "", fmt.Errorf("%s:%d: %d fields", path, line, len(fs))
		}
		r := historyRow{Problem: fs[0]}
		if fs[1] != "-" {
			if r.Value, err = strconv.ParseFloat(fs[1], 64); err != nil {
				return nil, "", fmt.Errorf("%s:%d: %v", path, line, err)
			}
			r.OK = true
		}
		r.Seconds, _ = strconv.ParseFloat(fs[2], 64)
		if len(fs) == 4 {
			r.Note = fs[3]
		}
		rows[r.Problem] = r
	}
	return rows, date, sc.Err()
}

// mergeHistory folds every history file of a commit of HEAD's history into
// the ledger: a problem's best is the least error of the ledger and of
// every such commit, and its commit the earliest that reached that error.
func mergeHistory(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(historyDir, "*.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	type run struct {
		commit, date string
		rows         map[string]historyRow
	}
	var runs []run
	for _, f := range files {
		commit := strings.TrimSuffix(filepath.Base(f), ".tsv")
		// Only versions of featmap this history holds count: a branch's
		// experiment, or a commit rebased away, is not one.
		if _, err := git("merge-base", "--is-ancestor", commit, "HEAD"); err != nil {
			t.Logf("%s: not an ancestor of HEAD, left out", f)
			continue
		}
		rows, date, err := readHistory(f)
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, run{commit, date, rows})
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].date < runs[j].date })
	ledger, err := readLedger(ledgerPath)
	if err != nil {
		t.Fatal(err)
	}
	metric := map[string]string{}
	for _, p := range grid() {
		metric[p.ID] = p.Metric
	}
	for _, r := range runs {
		for id, row := range r.rows {
			m, inGrid := metric[id]
			if !row.OK || !inGrid {
				continue
			}
			if e, ok := ledger[id]; !ok || row.Value < e.Best {
				ledger[id] = entry{id, m, row.Value, r.commit}
			}
		}
	}
	if err := writeLedger(ledgerPath, ledger); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d problems from %d commits", ledgerPath, len(ledger), len(runs))
}

// git runs git in the repository and returns its trimmed output.
func git(args ...string) (string, error) {
	out, err := exec.Command("git", args...).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// lastLine is the last nonempty line of s (a failed design's message).
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// oneLine is s on one line of at most n runes, without tabs.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n]) + "…"
	}
	return s
}
