package quality

import (
	"context"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	fmdesign "github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/spec"
)

var verifyCost = flag.Bool("verifycost", false, "time the verification of maps of several methods, D and inputs against fmap's cost model (docs/limits.md)")

// costCase is one map whose verification TestVerifyCost times: a spec
// body (after version and name) whose data file is data.csv, of rows
// rows of inputs columns uniform on [0, 10] (no data section if rows is
// 0).
type costCase struct {
	name         string
	inputs, rows int
	body         string
	// pairs marks a map whose verification is its pairs' (a one-input
	// map on 1 501 inputs: a million pairs), which cost more than the
	// model's D + n multiply-adds each; its method's largest D bounds it.
	pairs bool
}

// costCases are the methods whose maps cost D·n per input and those that
// cost more (nystroem's D², rf-pca's m·D, exp-χ²'s inner map, phase
// features' signature of D frequencies), on the
// grid reference of two and three inputs and the sampled one of 64.
func costCases() []costCase {
	var cs []costCase
	rbf := func(n int) string {
		return fmt.Sprintf("kernel: {type: rbf, sigma: 2}\ndomain: {dims: %d, interval: [0, 10]}\n", n)
	}
	for _, d := range []int{64, 512, 2048} {
		cs = append(cs, costCase{name: fmt.Sprintf("rff 2 inputs D=%d", d), inputs: 2, rows: 3000, body: rbf(2) + fmt.Sprintf("target: {dim: %d}\nmethod: {name: rff}\n", d)})
	}
	lap := "kernel: {type: laplacian, sigma: 2}\ndomain: {dims: 2, interval: [0, 10]}\n"
	cs = append(cs,
		costCase{name: "laplacian rff 2 inputs D=2048", inputs: 2, body: lap + "target: {dim: 2048}\nmethod: {name: rff}\n"},
		costCase{name: "laplacian rff phase 2 inputs D=1024", inputs: 2, body: lap + "target: {dim: 1024}\nmethod: {name: rff, features: phase}\n"},
	)
	for _, d := range []int{16, 32, 64, 80} {
		cs = append(cs, costCase{name: fmt.Sprintf("nystroem 2 inputs D=%d", d), inputs: 2, rows: 3000, body: rbf(2) + fmt.Sprintf("target: {dim: %d}\nmethod: {name: nystroem}\n", d)})
	}
	for _, d := range []int{16, 32, 46} {
		cs = append(cs, costCase{name: fmt.Sprintf("rf-pca 2 inputs D=%d", d), inputs: 2, rows: 3000, body: rbf(2) + fmt.Sprintf("target: {dim: %d}\nmethod: {name: rf-pca}\n", d)})
	}
	cs = append(cs,
		costCase{name: "nystroem 3 inputs D=52", inputs: 3, rows: 3000, body: rbf(3) + "target: {dim: 52}\nmethod: {name: nystroem}\n"},
		costCase{name: "rff 64 inputs D=1024", inputs: 64, rows: 3000, body: rbf(64) + "target: {dim: 1024}\nmethod: {name: rff}\n"},
		costCase{name: "nystroem 64 inputs D=256", inputs: 64, rows: 3000, body: rbf(64) + "target: {dim: 256}\nmethod: {name: nystroem}\n"},
		costCase{name: "exp-chi2 rff 16 inputs D=256", inputs: 16, rows: 3000, body: "kernel: {type: exp-chi2, beta: 0.1}\ndomain: {dims: 16, interval: [0, 10]}\ntarget: {dim: 256}\nmethod: {name: rff}\n"},
		costCase{name: "chum chi2 1 input D=15", inputs: 1, rows: 3000, body: "kernel: {type: chi2}\ndomain: {interval: [0.001, 10]}\ntarget: {dim: 15}\nmethod: {name: chum}\n", pairs: true},
	)
	return cs
}

// TestVerifyCost times the verification of each cost case and compares
// it with fmap.VerifyCostOf's multiply-adds, priced by the method
// (design.MaxVerifiedDim's model): it prints each case's predicted
// multiply-adds, seconds and nanoseconds per multiply-add, and fails when
// the model misprices one case against another by more than tenfold (the
// per-input cost of nystroem's D² or rf-pca's m·D left out of it was 80
// times too low). The budget, fmap.VerifyBudget, is then seconds at the
// measured rate. Run: go test ./quality -run TestVerifyCost -verifycost -v.
func TestVerifyCost(t *testing.T) {
	if !*verifyCost {
		t.Skip("a measurement of minutes: run with -verifycost")
	}
	rng := rand.New(rand.NewPCG(39, 1))
	var rates []float64
	var table strings.Builder
	fmt.Fprintf(&table, "%-32s %12s %12s %9s %10s %12s\n", "map", "predicted", "largest D", "seconds", "ns/madd", "s at it")
	for _, c := range costCases() {
		dir := t.TempDir()
		var data strings.Builder
		for range c.rows {
			for j := range c.inputs {
				if j > 0 {
					data.WriteByte(',')
				}
				fmt.Fprintf(&data, "%.4g", 10*rng.Float64())
			}
			data.WriteByte('\n')
		}
		if err := os.WriteFile(filepath.Join(dir, "data.csv"), []byte(data.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, "spec.yaml")
		body := "version: 1\nname: C\n" + c.body
		if c.rows > 0 {
			body += "data: {file: data.csv}\n"
		}
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := spec.Load(context.Background(), path, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		p, m, dim := s.Problem, s.Method.Method, s.Target.Dim
		res, err := m.Design(context.Background(), p, dim, fmdesign.Settings{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		ref, err := p.Reference()
		if err != nil {
			t.Fatal(err)
		}
		var e *fmap.EvalCost
		if ec, ok := m.(fmdesign.EvalCoster); ok {
			e = ec.EvalCost(p)
		}
		predicted := fmap.VerifyCostOf(p, dim, e)
		top := fmdesign.DimsFor(m, p).Max
		start := time.Now()
		if _, err := fmap.VerifyContext(context.Background(), res.Map, ref); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		secs := time.Since(start).Seconds()
		rate := secs / predicted * 1e9
		if !c.pairs {
			rates = append(rates, rate)
		}
		fmt.Fprintf(&table, "%-32s %12.3g %12d %9.2f %10.2f %12.1f\n", c.name, predicted, top, secs, rate, fmap.VerifyCostOf(p, top, e)*rate/1e9)
	}
	lo, hi := slices.Min(rates), slices.Max(rates)
	fmt.Fprintf(&table, "ns per multiply-add from %.2f to %.2f (but for the maps priced by their pairs): the budget of %d multiply-adds is %.0f to %.0f s\n",
		lo, hi, int64(fmap.VerifyBudget), lo*fmap.VerifyBudget/1e9, hi*fmap.VerifyBudget/1e9)
	t.Log("\n" + table.String())
	if hi > 10*lo || math.IsNaN(hi) {
		t.Errorf("the cost model misprices a map: ns per multiply-add from %.3g to %.3g, more than tenfold apart", lo, hi)
	}
}
