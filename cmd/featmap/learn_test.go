package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// learnDigits is a learned rff map of the digits (digitsSpec's 300 rows).
const learnDigits = "kernel: {type: rbf, sigma: 30}\ndomain: {dims: 64, interval: [0, 16]}\nerror: {weight: absolute}\ntarget: {dim: 64}\nmethod: {name: rff, seed: 1}\n"

// TestDesignStatesTheModel: featmap design of a learned spec states the
// model in its text: the task and why, the classes, the rows held out, to
// fit, to learn and to validate (and why that many), λ and where it came
// from, and the held-out accuracy; gen's header says where λ came from
// and that rff minimises no error.
func TestDesignStatesTheModel(t *testing.T) {
	spec := digitsSpec(t, learnDigits+"learn: {sigma: shared}\n")
	code, stdout, errOut := runCLI("design", spec)
	if code != exitOK {
		t.Fatalf("design: exit %d: %s", code, errOut)
	}
	for _, want := range []*regexp.Regexp{
		regexp.MustCompile(`model: classification, 10 classes \(labels \[0 1 2 3 4 5 6 7 8 9\]\); every label is an integer, 10 distinct: classes \(learn.task sets it\)`),
		regexp.MustCompile(`rows: 1797 rows of .*digits.csv.gz, 300 kept \(data.max_rows\): 60 held out \(a fifth, at most 2000: they verify the map and measure the model, and nothing learns from them\), 240 to fit`),
		regexp.MustCompile(`of the 240 to fit, σ was learned on 179 and validated on 61 \(learn.validation 0.25, a seeded split by class for classes\); the model was then trained on all 240 at the learned σ`),
		regexp.MustCompile(`ridge λ 0.001: learn.ridge's default, not tuned \(ridge: auto chooses λ on the validation split\)`),
		regexp.MustCompile(`held-out accuracy 0\.\d{4} \(\d+ of 60 rows\)`),
	} {
		if !want.MatchString(stdout) {
			t.Errorf("design output lacks %s:\n%s", want, stdout)
		}
	}
	// ridge: auto says so; a regression states its RMSE.
	spec = digitsSpec(t, learnDigits+"learn: {sigma: shared, ridge: auto, task: regression}\n")
	code, stdout, errOut = runCLI("design", spec)
	if code != exitOK {
		t.Fatalf("design: exit %d: %s", code, errOut)
	}
	for _, want := range []string{"model: regression: the labels are numbers; learn.task", ": chosen on the validation split at the learned σ (ridge: auto; λ ", "held-out RMSE "} {
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
}
