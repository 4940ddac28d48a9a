package quality

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/spec"
)

// long turns on the paper reproductions and long measurements that the
// default run leaves out: Table 1's continuation, the honest-dimension
// sweep, the same-dimension comparisons, Table 2's claims, the digits
// measurements, the emitted code of the shipped maps. CI runs them
// (.ci/run: go test ./quality -long); docs/quality.md lists them.
var long = flag.Bool("long", false, "also run the paper reproductions and long measurements (CI passes it; docs/quality.md)")

// needLong skips t unless the run asked for the long tests (-long), and
// under -short.
func needLong(t *testing.T) {
	t.Helper()
	if !*long || testing.Short() {
		t.Skip("a paper reproduction or long measurement: go test ./quality -run NAME -long (docs/quality.md)")
	}
}

// repo is the repository's root, where the shipped specs and the test
// data live.
const repo = ".."

// loadSpec loads a spec file; path is relative to the repository's root.
func loadSpec(t *testing.T, path string) *featmap.Spec {
	t.Helper()
	s, err := featmap.LoadSpec(filepath.Join(repo, path))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// parseSpec parses a spec written in the test.
func parseSpec(t *testing.T, name, text string) *featmap.Spec {
	t.Helper()
	s, err := featmap.ParseSpec(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// mustDesign designs s's map.
func mustDesign(t *testing.T, s *featmap.Spec) *featmap.Design {
	t.Helper()
	d, err := s.Design(context.Background(), featmap.Settings{})
	if err != nil {
		t.Fatalf("%s: %v", s.Path, err)
	}
	return d
}

// designDim designs s's map of dimension dim with its own method.
func designDim(t *testing.T, s *featmap.Spec, dim int) *featmap.Design {
	t.Helper()
	d, err := s.DesignDim(context.Background(), *s.Method, dim, featmap.Settings{})
	if err != nil {
		t.Fatalf("%s, D = %d: %v", s.Path, dim, err)
	}
	if d.Map.Dim != dim {
		t.Fatalf("%s: D = %d, want %d", s.Path, d.Map.Dim, dim)
	}
	return d
}

// writeSpecWith writes the spec and the named files into a fresh directory
// and returns the spec's path.
func writeSpecWith(t *testing.T, spec string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// digitsFiles is the repository's digits, to be written beside a spec
// that names digits.csv.gz (writeSpecWith).
func digitsFiles(t *testing.T) map[string]string {
	t.Helper()
	raw, err := os.ReadFile(digitsPath(t))
	if err != nil {
		t.Fatal(err)
	}
	return map[string]string{"digits.csv.gz": string(raw)}
}

// chumChains holds, per problem and chum options, the first spec of this
// test binary that asked for them and its chum method, so that the tests
// that design the same chum problem continue one chain (chum.Chum keeps
// its designs by problem pointer): TestChumHonestDimensions' sweep of a
// kernel to D = 16, TestTable1Continuation's default designs of its 5- and
// 7-D Table-1 specs, TestRelativeVersusAbsolute's χ² maps and
// TestSameDimensionComparison's chum column on {0..255} make each
// dimension once. A chain's design of D is the same whoever asks first
// (it continues from D − 1, deterministically), so sharing changes no map.
var chumChains = struct {
	sync.Mutex
	m map[string]chumChain
}{m: map[string]chumChain{}}

type chumChain struct {
	spec   *featmap.Spec
	method spec.MethodSpec
}

// sharedChum returns the spec and chum method whose chain designs s's
// problem with m's options: the first such pair this test binary saw (s
// and m themselves if none). Only problems without data are shared; the
// key is every field a design depends on (kernel, domain, measure, norm,
// negative rule, the chum options), printed in full.
func sharedChum(t *testing.T, s *featmap.Spec, m spec.MethodSpec) (*featmap.Spec, spec.MethodSpec) {
	t.Helper()
	c, ok := m.Method.(*chum.Chum)
	if !ok {
		t.Fatalf("%s: method %s, want chum", s.Path, m.Name())
	}
	p := s.Problem
	if p.Data != nil {
		return s, m
	}
	key := fmt.Sprintf("%#v|%#v|%#v|%#v|%#v|%#v", p.Kernel, p.Domain, p.Measure, p.Norm, p.Negative, c.Opts)
	chumChains.Lock()
	defer chumChains.Unlock()
	if ch, ok := chumChains.m[key]; ok {
		return ch.spec, ch.method
	}
	chumChains.m[key] = chumChain{s, m}
	return s, m
}

// TestSharedChum: the 5- and 7-D Table-1 problems of a kernel with
// chum's default options, and TestChumHonestDimensions' spec of it, share
// one chain; another kernel, another error weight or other chum options do
// not.
func TestSharedChum(t *testing.T) {
	const table1 = "version: 1\nname: JSU8D%d\nkernel: {type: js}\ndomain: {integers: [0, 255]}\nerror: {norm: linf, weight: absolute}\ntarget: {dim: %d}\nmethod: {name: chum%s}\n"
	first := parseSpec(t, "test.yaml", fmt.Sprintf(table1, 5, 5, ""))
	sh, shm := sharedChum(t, first, *first.Method)
	for _, c := range []struct {
		name, src string
		same      bool
	}{
		{"7-D spec", fmt.Sprintf(table1, 7, 7, ""), true},
		{"sweep", "version: 1\nname: Dims\nkernel: {type: js}\ndomain: {integers: [0, 255]}\nerror: {weight: absolute}\ncompare: {methods: [chum], dims: [3]}\n", true},
		{"relative", "version: 1\nname: Dims\nkernel: {type: js}\ndomain: {integers: [0, 255]}\nerror: {weight: relative}\ncompare: {methods: [chum], dims: [3]}\n", false},
		{"chi2", "version: 1\nname: Dims\nkernel: {type: chi2}\ndomain: {integers: [0, 255]}\nerror: {weight: absolute}\ncompare: {methods: [chum], dims: [3]}\n", false},
		{"options", "version: 1\nname: Dims\nkernel: {type: js}\ndomain: {integers: [0, 255]}\nerror: {weight: absolute}\ncompare: {methods: [{name: chum, starts: 3}], dims: [3]}\n", false},
		{"alone", fmt.Sprintf(table1, 7, 7, ", continuation: false"), false},
	} {
		s := parseSpec(t, "test.yaml", c.src)
		var m spec.MethodSpec
		if s.Method != nil {
			m = *s.Method
		} else {
			m = s.Compare.Methods[0]
		}
		got, gm := sharedChum(t, s, m)
		if (got == sh) != c.same || (gm.Method == shm.Method) != c.same {
			t.Errorf("%s: shared %v, want %v", c.name, got == sh, c.same)
		}
	}
}
