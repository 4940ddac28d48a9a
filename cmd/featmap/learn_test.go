package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// learnDigits is a learned rff map of the digits (digitsSpec's 300 rows).
const learnDigits = "kernel: {type: rbf, sigma: 30}\ndomain: {dims: 64, interval: [0, 16]}\nerror: {weight: absolute}\ntarget: {dim: 64}\nmethod: {name: rff, seed: 1}\n"

// TestDesignStatesTheModel: featmap design of a learned spec states the
// model in its text: the task and why, the classes, the rows held out, to
// fit, to learn and to validate (and why that many), the validation
// accuracy (classes) or RMSE (numbers) with the squared loss named, λ and
// where it came from, and the held-out accuracy; its first verified error
// is the held-out rows', the box's follows, labelled so; gen's header says
// where λ came from and that rff minimises no error, and states the
// held-out error before the box's.
func TestDesignStatesTheModel(t *testing.T) {
	spec := digitsSpec(t, learnDigits+"learn: {sigma: shared}\n")
	code, stdout, errOut := runCLI("design", spec)
	if code != exitOK {
		t.Fatalf("design: exit %d: %s", code, errOut)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`model: classification, 10 classes \(labels \[0 1 2 3 4 5 6 7 8 9\]\): every label is an integer, 10 distinct: classes \(learn.task sets it\)`),
		regexp.MustCompile(`rows: 1797 rows of .*digits.csv.gz, 300 kept \(data.max_rows\): 60 held out \(data.holdout 0.2, at most 2000: they verify the map and measure the model, and nothing learns from them\), 240 to fit`),
		regexp.MustCompile(`validation accuracy 0\.\d{4} → 0\.\d{4} \(squared loss of the one-vs-rest ±1 targets, summed over the 10 classes, per row: [\d.]+ → [\d.]+\)`),
		regexp.MustCompile(`of the 240 to fit, σ was learned on 179 and validated on 61 \(learn.validation 0.25, a seeded split by class for classes\); the model was then trained on all 240 at the learned σ`),
		regexp.MustCompile(`ridge λ 0.001: learn.ridge's default, not tuned \(ridge: auto chooses λ on the validation split\)`),
		regexp.MustCompile(`held-out accuracy 0\.\d{4} \(\d+ of 60 rows\)`),
	} {
		if !want.MatchString(stdout) {
			t.Errorf("design output lacks %s:\n%s", want, stdout)
		}
	}
	// The first verified error is the held-out rows'; the box's follows.
	first := regexp.MustCompile(`(?m)^(verified|on the box|on the data)[^\n]*`).FindString(stdout)
	if !strings.HasPrefix(first, "verified on the held-out data (") || !strings.Contains(stdout, "\non the box (points of the domain, not the data): verified absolute error: L∞ ") {
		t.Errorf("the first error line is %q: want the held-out data's, then the box's labelled so:\n%s", first, stdout)
	}
	// ridge: auto says so; a regression states its RMSE.
	spec = digitsSpec(t, learnDigits+"learn: {sigma: shared, ridge: auto, task: regression}\n")
	code, stdout, errOut = runCLI("design", spec)
	if code != exitOK {
		t.Fatalf("design: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"model: regression, the labels taken as numbers, as learn.task says\n", "validation RMSE ", " (mean squared error ", ": chosen on the validation split at the learned σ (ridge: auto; λ ", "held-out RMSE "} {
		if !strings.Contains(stdout, want) {
			t.Errorf("design output lacks %q:\n%s", want, stdout)
		}
	}
	out := filepath.Join(t.TempDir(), "d.go")
	if code, _, errOut := runCLI("gen", "-o", out, digitsSpec(t, learnDigits+"learn: {sigma: shared}\n")); code != exitOK {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	header := strings.Join(strings.Fields(strings.ReplaceAll(string(src), "//", "")), " ")
	for _, want := range []string{
		"error: absolute, measured in the linf norm (rff draws its map from samples: it minimises no error)",
		"model: classification, 10 classes",
		"the learn section's default λ (learn.ridge not given; ridge: auto would choose it on the validation split)",
	} {
		if !strings.Contains(header, want) {
			t.Errorf("gen's header lacks %q", want)
		}
	}
	if strings.Contains(header, "minimised in the") {
		t.Errorf("gen's header says rff minimises an error")
	}
	if i, j := strings.Index(header, " on data L∞ "), strings.Index(header, " on the box L∞ "); i < 0 || j < i {
		t.Errorf("gen's header states the box's error (at %d) before the held-out data's (at %d)", j, i)
	}
}

// TestDesignHoldoutZero: data.holdout: 0 holds no row out — the map and
// the model use every row kept — and design says the data error and the
// model's accuracy are not measured, pointing to featmap eval; -json
// states the model's rows as learned.model_rows (every row kept, 300;
// with the default holdout, the 240 rows to fit), and gen's header says
// no row was held out.
func TestDesignHoldoutZero(t *testing.T) {
	data, err := filepath.Abs(filepath.Join("..", "..", "testdata", "digits.csv.gz"))
	if err != nil {
		t.Fatal(err)
	}
	spec := func(holdout string) string {
		return writeSpec(t, "version: 1\nname: Digits\n"+learnDigits+"learn: {sigma: shared}\ndata: {file: "+data+", columns: [0, 63], label_column: 64, max_rows: 300"+holdout+"}\n")
	}
	zero := spec(", holdout: 0")
	code, stdout, errOut := runCLI("design", zero)
	if code != exitOK {
		t.Fatalf("design: exit %d: %s", code, errOut)
	}
	for _, want := range []string{
		"none held out (data.holdout 0): all 300 fit the map and the model",
		"the model was then trained on all 300 at the learned σ",
		"held-out accuracy: not measured, no row was held out (data.holdout 0)",
		"): not measured, no row was held out (data.holdout 0); featmap eval MAP.json TEST measures them on a test file",
		"\non the box (points of the domain, not the data): verified absolute error: L∞ ",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("design output lacks %q:\n%s", want, stdout)
		}
	}
	for holdout, rows := range map[string]int{", holdout: 0": 300, "": 240} {
		code, stdout, errOut := runCLI("design", "-json", spec(holdout))
		if code != exitOK {
			t.Fatalf("design -json: exit %d: %s", code, errOut)
		}
		var d struct {
			Learned struct {
				ModelRows *int `json:"model_rows"`
			} `json:"learned"`
			Map struct {
				Model struct {
					Rows     int `json:"train_rows"`
					HeldRows int `json:"held_rows"`
				} `json:"model"`
			} `json:"map"`
		}
		if err := json.Unmarshal([]byte(stdout), &d); err != nil {
			t.Fatal(err)
		}
		if d.Learned.ModelRows == nil {
			t.Fatalf("data%s: no learned.model_rows", holdout)
		}
		if *d.Learned.ModelRows != rows || d.Map.Model.Rows != rows || d.Map.Model.HeldRows != 300-rows {
			t.Errorf("data%s: learned.model_rows %d, model train_rows %d, held %d; want %d and %d", holdout, *d.Learned.ModelRows, d.Map.Model.Rows, d.Map.Model.HeldRows, rows, 300-rows)
		}
	}
	out := filepath.Join(t.TempDir(), "d.go")
	if code, _, errOut := runCLI("gen", "-o", out, zero); code != exitOK {
		t.Fatalf("gen: exit %d: %s", code, errOut)
	}
	src, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	header := strings.Join(strings.Fields(strings.ReplaceAll(string(src), "//", "")), " ")
	for _, want := range []string{"no row held out (data.holdout 0)", "no row was held out (data.holdout 0), so its accuracy is not measured here: featmap eval measures it on a test file"} {
		if !strings.Contains(header, want) {
			t.Errorf("gen's header lacks %q", want)
		}
	}
}

// TestLabelsBeyondRange: regression labels near 1e155 are finite, but
// their squared errors overflow; design, design -json, gen and eval -json
// gave four answers (exit 0 printing +Inf, 1, 3, 3). Now every command
// refuses them at the label column, exit 2, naming the line and the
// bound: a regression map made from the same rows with ordinary labels is
// evaluated on them with the same refusal.
func TestLabelsBeyondRange(t *testing.T) {
	huge, err := filepath.Abs(filepath.Join("testdata", "hostile", "data", "labels-1e155.csv"))
	if err != nil {
		t.Fatal(err)
	}
	const want = "labels-1e155.csv:227: column 4: label 3.6141e+155 is beyond ±1e+150"
	spec := func(data string) string {
		return writeSpec(t, "version: 1\nname: H\nkernel: {type: rbf, sigma: 1}\ndomain: {dims: 4, interval: [0, 1]}\ntarget: {dim: 16}\n"+
			"data: {file: "+data+", columns: [0, 3], label_column: 4}\nlearn: {sigma: shared}\nmethod: {name: rff}\n")
	}
	bad := spec(huge)
	for _, args := range [][]string{{"design", bad}, {"design", "-json", bad}, {"gen", "-o", filepath.Join(t.TempDir(), "h.go"), bad}} {
		if code, _, errOut := runCLI(args...); code != exitUsage || !strings.Contains(errOut, want) {
			t.Errorf("featmap %s: exit %d, want %d with %q: %s", strings.Join(args, " "), code, exitUsage, want, errOut)
		}
	}
	raw, err := os.ReadFile(huge)
	if err != nil {
		t.Fatal(err)
	}
	// The same rows with the labels divided by 1e155.
	var small strings.Builder
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		i := strings.LastIndexByte(line, ',')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&small, "%s,%g\n", line[:i], v/1e155)
	}
	dir := t.TempDir()
	okData := filepath.Join(dir, "ok.csv")
	if err := os.WriteFile(okData, []byte(small.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	mapFile := filepath.Join(dir, "h.json")
	if code, _, errOut := runCLI("gen", "-o", filepath.Join(dir, "h.go"), "-map", mapFile, spec(okData)); code != exitOK {
		t.Fatalf("gen of ordinary labels: exit %d: %s", code, errOut)
	}
	if code, _, errOut := runCLI("eval", "-json", mapFile, huge); code != exitUsage || !strings.Contains(errOut, want) {
		t.Errorf("eval -json on the labels near 1e155: exit %d, want %d with %q: %s", code, exitUsage, want, errOut)
	}
	if code, _, errOut := runCLI("eval", "-json", mapFile, okData); code != exitOK {
		t.Errorf("eval -json on the ordinary labels: exit %d: %s", code, errOut)
	}
}
