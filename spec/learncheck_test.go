package spec

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// wineLearnSpec writes a spec learning σ on the repository's wine rows
// (143 rows to fit) at target.dim dim with the given learn section.
func wineLearnSpec(t *testing.T, dim int, learn string) string {
	t.Helper()
	wine, err := filepath.Abs("../testdata/wine.csv")
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "w.yaml")
	src := fmt.Sprintf("version: 1\nname: W\nkernel: {type: rbf, sigma: 100}\ndomain: {dims: 13, interval: [0, 2000]}\ntarget: {dim: %d}\n"+
		"data: {file: %s, columns: [0, 12], label_column: 13}\nlearn: %s\nmethod: {name: rff}\n", dim, wine, learn)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestLearnBudget: learning is priced when the spec is read, as
// verification is: σ per axis with ridge: auto on wine's 143 rows at D =
// 4096 (which ran past 600 s) is refused at target.dim, naming the
// largest D within learning's budget, which is accepted; a shared σ at
// 2048 costs less, and is accepted.
func TestLearnBudget(t *testing.T) {
	_, err := load(wineLearnSpec(t, 4096, "{sigma: per-axis, ridge: auto}"))
	m := regexp.MustCompile(`w\.yaml:5: target\.dim: 4096: learning σ per axis .* more than learning's budget of 2e\+11 \(about a minute\): at most D = (\d+)$`).FindStringSubmatch(fmt.Sprint(err))
	if m == nil {
		t.Fatalf("error %v, want a refusal at target.dim naming the largest D", err)
	}
	top, _ := strconv.Atoi(m[1])
	if top < 512 || top >= 1024 {
		t.Errorf("at most D = %d: want between 512 and 1024 (D = 756 took 35 s of CPU)", top)
	}
	if _, err := load(wineLearnSpec(t, top, "{sigma: per-axis, ridge: auto}")); err != nil {
		t.Errorf("D = %d, the largest named: %v", top, err)
	}
	if _, err := load(wineLearnSpec(t, top+2, "{sigma: per-axis, ridge: auto}")); err == nil || !strings.Contains(err.Error(), "learning's budget") {
		t.Errorf("D = %d, beyond the largest named: %v", top+2, err)
	}
	if _, err := load(wineLearnSpec(t, 2048, "{sigma: shared}")); err != nil {
		t.Errorf("a shared σ at D = 2048: %v", err)
	}
}
