package featmap

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/sampled"
)

// learnSpec is a digits rbf spec with the given learn section.
func learnSpec(learn, method, data string) string {
	return `version: 1
name: LearnDigits
kernel: {type: rbf, sigma: 30}
domain: {dims: 64, interval: [0, 16]}
error: {weight: absolute}
target: {dim: 64}
method: ` + method + `
data: ` + data + `
learn: ` + learn + "\n"
}

// TestLearningIsAStepOfTheDesign: loading a spec with a learn or a
// kernels section reads its data but learns nothing (so gen can find its
// output fresh at once); Design learns, and a cancelled context stops it
// with the context's error. What it learns travels with the design
// (Design.Learned or Design.GroupLasso, and the problem designed for),
// never with the spec: designed twice, the spec's value is what a second
// load of the same file gives, and both designs learned the same.
func TestLearningIsAStepOfTheDesign(t *testing.T) {
	raw, err := os.ReadFile("testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	learn := learnSpec("{sigma: shared, ridge: 1e-3}", "{name: rff, sampling: orthogonal, seed: 3}",
		"{file: digits.csv.gz, columns: [0, 63], label_column: 64, max_rows: 300}")
	kernels := glSpec(glKernels, "{name: rff-group-lasso, dim_per_kernel: 32, lambda: auto, seed: 1}",
		"{file: d.csv, columns: [0, 5], label_column: 6}")
	files := map[string]string{"digits.csv.gz": string(raw), "d.csv": glData(400)}
	for name, src := range map[string]string{"learn": learn, "kernels": kernels} {
		path := writeSpecWith(t, src, files)
		s, fresh := loadSpec(t, path), loadSpec(t, path)
		if !reflect.DeepEqual(s, fresh) {
			t.Fatalf("%s: two loads differ", name)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		start := time.Now()
		if _, err := s.Design(ctx, Settings{}); !errors.Is(err, context.Canceled) || time.Since(start) > time.Second {
			t.Errorf("%s: Design with a cancelled context: %v after %v, want context.Canceled at once", name, err, time.Since(start))
		}
		var designs []*Design
		for range 2 {
			d, err := s.Design(context.Background(), Settings{})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if d.Learned == nil && d.GroupLasso == nil || d.Problem == s.Problem || d.Spec != s {
				t.Errorf("%s: Design learned nothing, or designed for the spec's own problem", name)
			}
			designs = append(designs, d)
		}
		if !reflect.DeepEqual(s, fresh) {
			t.Errorf("%s: designing changed the spec", name)
		}
		if a, b := designs[0], designs[1]; !reflect.DeepEqual(a.Learned, b.Learned) || !reflect.DeepEqual(a.GroupLasso, b.GroupLasso) ||
			!reflect.DeepEqual(a.Map.Stages, b.Map.Stages) || !reflect.DeepEqual(a.Problem.Kernel, b.Problem.Kernel) {
			t.Errorf("%s: two designs of one spec learned differently", name)
		}
	}
}

// TestLearnSection: a learn section learns σ from the data's labels and
// bakes it into the kernel the rff map is designed for: the spec's σ is,
// bit for bit, what LearnSigma gives on the rows to fit (never the
// held-out rows) from the spec's σ with the same options, it moved from
// the start, and the designed map's frequencies are the learned ones.
func TestLearnSection(t *testing.T) {
	raw, err := os.ReadFile("testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"digits.csv.gz": string(raw)}
	spec := learnSpec("{sigma: shared, validation: 0.25, ridge: 1e-3, penalty: 1e-4}",
		"{name: rff, sampling: orthogonal, seed: 3}", "{file: digits.csv.gz, columns: [0, 63], label_column: 64, max_rows: 600}")
	s := loadSpec(t, writeSpecWith(t, spec, files))
	des := mustDesign(t, s, Settings{})
	l := des.Learned
	if l == nil {
		t.Fatal("no learned result")
	}
	sigma := des.Problem.Kernel.Sigma[0]
	if s.Problem.Kernel.Sigma[0] != 30 {
		t.Errorf("the spec's σ %v, want the one it states (30)", s.Problem.Kernel.Sigma[0])
	}
	d := s.Problem.Data
	// Learning sees the rows to fit only: the held-out rows verify the map.
	// The library from the spec's σ (30) on those rows is the reference; a
	// restart from the learned σ is not one (it moves σ by 1e-3: the
	// iterations stop on a relative decrease, not at a fixed point).
	start := s.Problem.Kernel
	start.Sigma = []float64{30}
	want, err := learn.LearnSigma(context.Background(), d.Fit, d.FitLabels,
		learn.LearnOptions{Kernel: start, Dim: 64, Ridge: 1e-3, Penalty: 1e-4, Validation: 0.25,
			Sampling: sampled.SamplingOrthogonal, Seed: 3, Classes: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("learned σ %.4g from 30 (validation MSE %.4g → %.4g, %d iterations)", sigma,
		l.ValidationBefore, l.ValidationAfter, l.Iterations)
	if math.Abs(sigma-30) < 1 || sigma != want.Sigma[0] || l.Sigma[0] != sigma {
		t.Errorf("the design's σ %v (learned %v): want moved from 30 and LearnSigma's on the rows to fit (%v)", sigma, l.Sigma, want.Sigma[0])
	}
	if !(l.ValidationAfter < l.ValidationBefore) {
		t.Errorf("validation MSE %v → %v: not lowered", l.ValidationBefore, l.ValidationAfter)
	}
	base, err := sampled.Frequencies(32, 64, nil, onesN(64), sampled.SamplingOrthogonal, 3)
	if err != nil {
		t.Fatal(err)
	}
	rs := des.Map.Stages[len(des.Map.Stages)-1].Kind.(*fmap.Random)
	for i, w := range rs.Freq {
		if w != base[i]/sigma {
			t.Fatalf("frequency %d is %v, want %v (the learned σ's)", i, w, base[i]/sigma)
		}
	}
	// What was learned travels with the design: the JSON and the spec's
	// restatement (the emitted header's) state σ, its start, the data and
	// the validation errors.
	j := des.JSON().Learned
	if j == nil || j.Sigma[0] != sigma || j.Start[0] != 30 || j.DataSHA256 != d.SHA256 ||
		j.ValidationAfter != l.ValidationAfter || j.Train+j.Validation != len(d.Fit) {
		t.Errorf("design JSON learned = %+v", j)
	}
	line := fmt.Sprintf("learned: σ = %.6g from 30 on %d rows of digits.csv.gz (sha256 %s…", sigma, l.Train, d.SHA256[:12])
	if desc := strings.Join(des.Describe(), "\n"); !strings.Contains(desc, line) || !strings.Contains(desc, fmt.Sprintf("σ = %.6g", sigma)) {
		t.Errorf("the spec's restatement lacks %q or the learned kernel:\n%s", line, desc)
	}
}

// TestLearnModel: the design of a spec with a learn section carries the
// ridge model trained at the learned σ on every row to fit (its
// optimality condition Zᵀ(S − Y) + λW = 0 holds over exactly those rows),
// and the held-out accuracy it states is what the map and model read back
// from the design's JSON give on the held-out rows, well above chance.
func TestLearnModel(t *testing.T) {
	raw, err := os.ReadFile("testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	spec := strings.Replace(learnSpec("{sigma: shared, ridge: 1e-3}", "{name: rff, sampling: orthogonal, seed: 3}",
		"{file: digits.csv.gz, columns: [0, 63], label_column: 64, max_rows: 600}"), "target: {dim: 64}", "target: {dim: 256}", 1)
	s := loadSpec(t, writeSpecWith(t, spec, map[string]string{"digits.csv.gz": string(raw)}))
	des := mustDesign(t, s, Settings{})
	b, err := json.Marshal(des.JSON())
	if err != nil {
		t.Fatal(err)
	}
	var back struct{ Map *fmap.Map }
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	m, d := back.Map, s.Problem.Data
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	mod := m.Model
	if mod == nil || len(mod.Classes) != 10 || mod.Rows != len(d.Fit) || mod.DataSHA256 != d.SHA256 || mod.HeldRows != len(d.Held) || len(d.Held) == 0 {
		t.Fatalf("model %+v: want 10 classes, trained on the %d rows to fit of %s, measured on %d held-out rows", mod, len(d.Fit), d.SHA256, len(d.Held))
	}
	k := len(mod.Classes)
	z, sc := make([]float64, m.Dim), make([]float64, k)
	// Optimality on the rows to fit: g = Zᵀ(S − Y) + λW = 0.
	g := make([]float64, m.Dim*k)
	var scale float64
	for i, x := range d.Fit {
		m.Eval(z, x)
		mod.Scores(sc, z)
		for c := range k {
			y := -1.0
			if mod.Classes[c] == d.FitLabels[i] {
				y = 1
			}
			for j := range z {
				g[j*k+c] += z[j] * (sc[c] - y)
				scale += math.Abs(z[j] * y)
			}
		}
	}
	var worst float64
	for i := range g {
		worst = max(worst, math.Abs(g[i]+mod.Ridge*mod.W[i]))
	}
	if worst > 1e-8*scale/float64(len(g)) {
		t.Errorf("the model is not the ridge solution on the rows to fit: |Zᵀ(S − Y) + λW| up to %.3g (scale %.3g)", worst, scale/float64(len(g)))
	}
	right := 0
	for i, x := range d.Held {
		m.Eval(z, x)
		for c := range k {
			sc[c] = mod.Bias[c]
			for j := range z {
				sc[c] += mod.W[j*k+c] * z[j]
			}
		}
		best := 0
		for c := range sc {
			if sc[c] > sc[best] {
				best = c
			}
		}
		if mod.Classes[best] == d.HeldLabels[i] {
			right++
		}
	}
	acc := float64(right) / float64(len(d.Held))
	t.Logf("σ %.4g, D = %d: held-out accuracy %.4f on %d rows (trained on %d)", des.Problem.Kernel.Sigma[0], m.Dim, acc, len(d.Held), len(d.Fit))
	if acc != mod.HeldAccuracy {
		t.Errorf("recomputed held-out accuracy %v, the model states %v", acc, mod.HeldAccuracy)
	}
	if !(acc > 0.9) {
		t.Errorf("held-out accuracy %v: want well above chance (0.1), > 0.9", acc)
	}
}

func onesN(n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = 1
	}
	return s
}

// TestLearnRidgeAuto: learn.ridge: auto chooses λ on the validation split
// (learn's RidgeAuto on the rows to fit, the same λ as the library
// on them), learns σ with it, states it, and the map's model is trained
// with the λ chosen at the learned σ.
func TestLearnRidgeAuto(t *testing.T) {
	raw, err := os.ReadFile("testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"digits.csv.gz": string(raw)}
	spec := learnSpec("{sigma: shared, ridge: auto}", "{name: rff, sampling: orthogonal, seed: 3}",
		"{file: digits.csv.gz, columns: [0, 63], label_column: 64, max_rows: 600}")
	s := loadSpec(t, writeSpecWith(t, spec, files))
	des, err := s.Design(context.Background(), Settings{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Learn.RidgeAuto || des.Learned == nil {
		t.Fatalf("learn %+v, learned %v: want ridge auto and a result", s.Learn, des.Learned)
	}
	d := s.Problem.Data
	want, err := learn.LearnSigma(context.Background(), d.Fit, d.FitLabels,
		learn.LearnOptions{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{30}}, Dim: 64, RidgeAuto: true, Validation: 0.25,
			Sampling: sampled.SamplingOrthogonal, Seed: 3, Classes: true})
	if err != nil {
		t.Fatal(err)
	}
	l := des.Learned
	if l.Ridge != want.Ridge || l.RidgeStart != want.RidgeStart || l.Sigma[0] != want.Sigma[0] {
		t.Errorf("λ %g (start %g), σ %v; the library on the same rows: λ %g (start %g), σ %v", l.Ridge, l.RidgeStart, l.Sigma, want.Ridge, want.RidgeStart, want.Sigma)
	}
	line := des.LearnedLine()
	t.Log(line)
	if !strings.Contains(line, fmt.Sprintf("ridge λ %.6g chosen on the validation split", l.Ridge)) {
		t.Errorf("learned line %q does not state the chosen λ", line)
	}
	if mod := des.Map.Model; mod == nil || mod.Ridge != l.Ridge {
		t.Fatalf("model %+v: want one trained with the chosen λ %g", mod, l.Ridge)
	}
	t.Logf("λ %g at σ 30, %g at σ %.4g; validation %.4g → %.4g; the model's held-out accuracy %.4f",
		l.RidgeStart, l.Ridge, l.Sigma[0], l.ValidationBefore, l.ValidationAfter, des.Map.Model.HeldAccuracy)
	js := des.JSON()
	if js.Learned == nil || js.Learned.Ridge != l.Ridge || !js.Learned.RidgeAuto {
		t.Errorf("design -json's learned section %+v: want the chosen λ and ridge_auto", js.Learned)
	}
}
