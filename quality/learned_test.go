package quality

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/evaluate"
	"github.com/featmap/featmap/internal/digits"
)

var learned = flag.Bool("learned", false, "measure the learned maps on the digits over 5 seeds each (docs/learning.md's measurements)")

// Reference figures of scikit-learn on the same split
// (docs/measurements/digits_sklearn.py and its output, digits_sklearn.txt):
// test accuracy in percent.
const (
	refSVC        = 99.55 // exact-kernel SVC (RBF), C and γ by 5-fold CV
	refNystroem64 = 96.94 // Nystroem-64 + ridge, mean of 5 seeds
	refRBFSampler = 93.62 // RBFSampler-64 + ridge, mean of 5 seeds
	// The exact-kernel ridge classifier (one-vs-rest ±1 targets, the
	// model featmap's maps carry) at its best test accuracy over the grid
	// of γ and α (an oracle: 442 of the 445 test rows;
	// docs/measurements/learned_sklearn.py and learned_sklearn.txt). No
	// ridge classifier of the exact kernel does better on these rows, so
	// the SVC's 99.55 is out of a ridge model's reach here.
	refRidgeOracle = 99.33
	digitsAllRows  = 1797
	digitsTestRows = 445
)

// splitDigits writes the repository's digits split as
// digits_sklearn.py splits them to dir: per class, in file order, every
// fourth row (the 4th, 8th, …) to test.csv, the others to train.csv.
func splitDigits(t *testing.T, dir string) (train, test string) {
	t.Helper()
	rows, labels, err := digits.LoadLabelled("../testdata/digits.csv.gz", digitsAllRows)
	if err != nil {
		t.Fatal(err)
	}
	var tr, te strings.Builder
	seen := map[float64]int{}
	for i, x := range rows {
		w := &tr
		if seen[labels[i]]%4 == 3 {
			w = &te
		}
		seen[labels[i]]++
		for _, v := range x {
			fmt.Fprintf(w, "%g,", v)
		}
		fmt.Fprintf(w, "%g\n", labels[i])
	}
	train, test = filepath.Join(dir, "train.csv"), filepath.Join(dir, "test.csv")
	for p, s := range map[string]string{train: tr.String(), test: te.String()} {
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return train, test
}

// learnedAccuracy designs a learned map of the digits (target.dim dim,
// the method and learn sections given) on train and returns its test
// accuracy in percent, as featmap eval measures it on test; data adds keys
// to the data section (", holdout: 0").
func learnedAccuracy(t *testing.T, dir, train, test string, dim int, method, learn, data string) float64 {
	t.Helper()
	spec := fmt.Sprintf("version: 1\nname: Digits\nkernel: {type: rbf, sigma: 30}\ndomain: {dims: 64, interval: [0, 16]}\nerror: {weight: absolute}\n"+
		"target: {dim: %d}\nmethod: %s\ndata: {file: %s, columns: [0, 63], label_column: 64%s}\nlearn: %s\n", dim, method, train, data, learn)
	path := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := featmap.LoadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	d, err := s.Design(ctx, featmap.Settings{})
	if err != nil {
		t.Fatalf("%s %s: %v", method, learn, err)
	}
	res, err := evaluate.Evaluate(ctx, d.Map, test, evaluate.Options{LabelColumn: evaluate.AutoLabel})
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != digitsTestRows || res.Accuracy == nil {
		t.Fatalf("eval of %s: %d rows, accuracy %v", test, res.Rows, res.Accuracy)
	}
	return 100 * *res.Accuracy
}

// TestLearnedDigits: learned maps of the digits against scikit-learn's
// figures on the same split (docs/learning.md, "Measurements"): learned
// nystroem at D = 256 within 0.5 point of the exact-kernel SVM, and with
// data.holdout 0 (the model trained on every training row) within 0.2
// point of the best exact-kernel ridge classifier (refRidgeOracle), at D =
// 64 at least Nystroem-64 + ridge; learned rff at D = 64 at least one
// point above RBFSampler-64 + ridge (both with phase features
// cos(ω·x + b)). With -long seed 1 of each (four designs); -learned
// measures seeds 1–5 of each, and more (1024 landmarks projected to
// D = 256, which reaches the oracle; rff's cos-sin features, per-axis
// learning with and without a penalty), and holds the means to the same
// bounds. One seed alone may fall one test row (100/445 point) below the
// bound its five seeds' mean is held to: the seeds of holdout 0 range over
// 99.10–99.33 about a mean of 99.24 (docs/learning.md, "Measurements").
func TestLearnedDigits(t *testing.T) {
	if !*learned {
		needLong(t)
	}
	dir := t.TempDir()
	train, test := splitDigits(t, dir)
	seeds := []int{1}
	if *learned {
		seeds = []int{1, 2, 3, 4, 5}
	}
	type config struct {
		name, method, learn, data string
		dim                       int
		bound                     float64 // the least mean accuracy, 0 for none
	}
	configs := []config{
		{"nystroem D=256, ridge auto", "{name: nystroem, seed: %d}", "{sigma: shared, ridge: auto}", "", 256, refSVC - 0.5},
		{"nystroem D=256, holdout 0", "{name: nystroem, seed: %d}", "{sigma: shared, ridge: auto}", ", holdout: 0", 256, refRidgeOracle - 0.2},
		{"nystroem D=64, ridge auto", "{name: nystroem, seed: %d}", "{sigma: shared, ridge: auto}", "", 64, refNystroem64},
		// RBFSampler's features are cos(ω·x + b): rff's phase features.
		{"rff D=64, phase, shared", "{name: rff, seed: %d, features: phase}", "{sigma: shared}", "", 64, refRBFSampler + 1},
	}
	if *learned {
		configs = append(configs,
			// 442 of 445 rows, the oracle's count (99.33 as printed).
			config{"nystroem D=256 of 1024 landmarks, holdout 0", "{name: nystroem, seed: %d, n_landmarks: 1024}", "{sigma: shared, ridge: auto}", ", holdout: 0", 256, refRidgeOracle - 0.01},
			config{"rff D=64, shared", "{name: rff, seed: %d}", "{sigma: shared}", "", 64, 0},
			config{"rff D=256, shared", "{name: rff, seed: %d}", "{sigma: shared}", "", 256, 0},
			config{"rff D=64, per-axis", "{name: rff, seed: %d}", "{sigma: per-axis}", "", 64, 0},
			config{"rff D=64, per-axis, penalty 10", "{name: rff, seed: %d}", "{sigma: per-axis, penalty: 10}", "", 64, 0},
			config{"rff D=256, per-axis", "{name: rff, seed: %d}", "{sigma: per-axis}", "", 256, 0},
		)
	}
	for _, c := range configs {
		var sum float64
		var accs []string
		for _, seed := range seeds {
			a := learnedAccuracy(t, dir, train, test, c.dim, fmt.Sprintf(c.method, seed), c.learn, c.data)
			sum += a
			accs = append(accs, fmt.Sprintf("%.2f", a))
		}
		mean := sum / float64(len(seeds))
		bound := c.bound
		if len(seeds) == 1 && bound > 0 {
			bound -= 100.0 / digitsTestRows
		}
		t.Logf("%-32s mean %.2f %%  (seeds %v: %s)", c.name, mean, seeds, strings.Join(accs, ", "))
		if mean < bound {
			t.Errorf("%s: mean test accuracy %.2f %%, want at least %.2f %%", c.name, mean, bound)
		}
	}
}
