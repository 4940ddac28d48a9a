package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/featmap/featmap/codegen"
)

// raceSpec is a Nyström map of 64 landmarks on one input, whose constants
// (64 landmarks and a 64×64 projection) go to a data file: a cheap design
// with a .bin. Two seeds make two maps of the same shape.
const raceSpec = "version: 1\nname: Race\nkernel: {type: rbf, sigma: 0.2}\ndomain: {interval: [0, 1]}\ntarget: {dim: 64}\ndata: {file: rows.csv}\nmethod: {name: nystroem, seed: %d}\n"

// TestGenRace: two gen runs of different specs onto the same outputs at
// once (FEATMAP_FORCE=1, so that both design and write) never leave a Go
// file beside the other run's data file: gen locks the outputs' directory
// while it replaces them, and each race ends in a pair whose .bin has the
// SHA-256 its .go states. 5 races, 100 with -long (CI). (The emitted init
// checks that SHA-256, so a pair mismatched by other means panics:
// codegen's TestDataFileMismatchPanics.)
func TestGenRace(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs gen 10 times")
	}
	races := 5
	if *long {
		races = 100
	}
	bin := buildFeatmap(t)
	dir := t.TempDir()
	r := rand.New(rand.NewPCG(1, 2))
	var rows strings.Builder
	for range 300 {
		fmt.Fprintf(&rows, "%.6f\n", r.Float64())
	}
	specs := make([]string, 2)
	for i := range specs {
		specs[i] = filepath.Join(dir, fmt.Sprintf("s%d.yaml", i+1))
		if err := os.WriteFile(specs[i], []byte(fmt.Sprintf(raceSpec, i+1)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "rows.csv"), []byte(rows.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.go")
	mismatched := 0
	for i := range races {
		var wg sync.WaitGroup
		errs := make([]string, len(specs))
		for j, spec := range specs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				cmd := exec.Command(bin, "gen", "-o", out, "-pkg", "race", spec)
				cmd.Env = append(os.Environ(), "FEATMAP_FORCE=1")
				if b, err := cmd.CombinedOutput(); err != nil {
					errs[j] = fmt.Sprintf("%v: %s", err, b)
				}
			}()
		}
		wg.Wait()
		for _, e := range errs {
			if e != "" {
				t.Fatalf("race %d: gen failed: %s", i, e)
			}
		}
		src, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		h, err := codegen.ParseHeader(src)
		if err != nil || h.Data == nil {
			t.Fatalf("race %d: the Go file's header %+v, %v: want a data file", i, h, err)
		}
		data, err := os.ReadFile(filepath.Join(dir, h.Data.Name))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != h.Data.SHA256 || len(data) != h.Data.Size {
			mismatched++
		}
	}
	t.Logf("%d races, %d mismatched pairs", races, mismatched)
	if mismatched > 0 {
		t.Errorf("%d of %d races left a Go file beside another run's data file", mismatched, races)
	}
}
