package evaluate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// testMap is a valid random-feature map of an RBF kernel of 2 inputs on
// [0, 10]², D = 8; with classes, it carries a linear classifier of them
// (a regression model for classes = nil and model true).
func testMap(model bool, classes []float64) *fmap.Map {
	rng := rand.New(rand.NewPCG(1, 2))
	freq := make([]float64, 8)
	for i := range freq {
		freq[i] = rng.NormFloat64()
	}
	m := &fmap.Map{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1, 2}}, InDim: 2, Dim: 8, Method: "rff",
		Domain: fmap.Domain{Lo: []float64{0, 0}, Hi: []float64{10, 10}},
		Stages: []fmap.Stage{{Kind: &fmap.Random{Features: fmap.CosSin, Transform: fmap.Identity, In: 2, Freq: freq}}}}
	if model {
		k := max(1, len(classes))
		w := make([]float64, m.Dim*k)
		for i := range w {
			w[i] = rng.NormFloat64()
		}
		m.Model = &fmap.LinearModel{Classes: classes, W: w, Bias: make([]float64, k), Ridge: 1e-3, Rows: 10}
	}
	return m
}

// writeJSON writes v as the indented JSON gen -map writes, plus tail, to
// a file of dir and returns its path.
func writeJSON(t *testing.T, dir, name string, v any, tail string) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, append(append(b, '\n'), tail...), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// writeFile writes text to a file of dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// mapJSON is the map file of m as a generic JSON object, to be edited.
func mapJSON(t *testing.T, m *fmap.Map) map[string]any {
	t.Helper()
	b, err := json.Marshal(fmap.Verified{Map: m, Verification: &fmap.Verification{Measure: fmap.Uniform}})
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestReadMapRefusals: every map file that is not one gen -map writes is
// an *InputError naming the file and what is wrong — the JSON field of a
// kernel that does not fit its map, an unknown key, a value of the wrong
// type, data after the map, a file that is no regular file or beyond the
// size bound (refused before it is read) — and a map file as gen -map
// writes it reads back as the same map.
func TestReadMapRefusals(t *testing.T) {
	dir := t.TempDir()
	edit := func(f func(m map[string]any)) map[string]any {
		v := mapJSON(t, testMap(true, []float64{0, 1}))
		f(v["map"].(map[string]any))
		return v
	}
	kernel := func(f func(k map[string]any)) map[string]any {
		return edit(func(m map[string]any) { f(m["kernel"].(map[string]any)) })
	}
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxMapBytes+1); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, path, want string
	}{
		{"sigma short", writeJSON(t, dir, "a.json", kernel(func(k map[string]any) { k["sigma"] = []float64{1} }), ""), "a.json: map.kernel.sigma: has 1 values for 2 input axes"},
		{"no sigma", writeJSON(t, dir, "b.json", kernel(func(k map[string]any) { delete(k, "sigma") }), ""), "b.json: map.kernel.sigma: has 0 values"},
		{"matern nu 7", writeJSON(t, dir, "c.json", kernel(func(k map[string]any) { k["type"], k["nu"] = "matern", 7 }), ""), "c.json: map.kernel.nu: must be 0.5, 1.5 or 2.5"},
		{"type foo", writeJSON(t, dir, "d.json", kernel(func(k map[string]any) { k["type"] = "foo" }), ""), `d.json: map.kernel.type: unknown kernel "foo"`},
		{"sigma -1", writeJSON(t, dir, "e.json", kernel(func(k map[string]any) { k["sigma"] = []float64{-1, 1} }), ""), "e.json: map.kernel.sigma: σ[0] must be > 0 and finite, not -1"},
		{"combined", writeJSON(t, dir, "f.json", kernel(func(k map[string]any) { delete(k, "sigma"); k["type"] = "combined" }), ""), "f.json: map.kernel.parts: a combined kernel without parts"},
		{"domain", writeJSON(t, dir, "g.json", edit(func(m map[string]any) { m["domain"].(map[string]any)["lo"] = []float64{0} }), ""), "g.json: map domain does not match its input dimension"},
		{"unknown key", writeJSON(t, dir, "h.json", edit(func(m map[string]any) { m["kernal"] = 1 }), ""), `h.json: unknown field "kernal"`},
		{"wrong type", writeJSON(t, dir, "i.json", kernel(func(k map[string]any) { k["sigma"] = "1" }), ""), "i.json: map.kernel.sigma: a JSON string where the map has []float64"},
		{"trailing", writeJSON(t, dir, "j.json", mapJSON(t, testMap(false, nil)), "{}"), "j.json: data after the map's JSON object"},
		{"no map", writeJSON(t, dir, "k.json", map[string]any{"verification": nil}, ""), `k.json: no "map" key`},
		{"data columns", writeJSON(t, dir, "l.json", func() map[string]any {
			v := mapJSON(t, testMap(false, nil))
			v["data"] = map[string]any{"columns": []int{0, 1}, "label_column": 1}
			return v
		}(), ""), "l.json: data.label_column: 1 is inside the columns [0, 1]"},
		{"empty", writeFile(t, dir, "m.json", " \n"), "m.json: empty: not a map"},
		{"missing", filepath.Join(dir, "none.json"), "none.json: no such file or directory"},
		{"fifo", fifo, "fifo.json: not a regular file (a named pipe)"},
		{"directory", dir, "not a regular file (a directory)"},
		{"too big", big, "more than the 536870912 a map file may have"},
	} {
		_, err := ReadMap(c.path)
		var ie *InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an InputError with %q", c.name, err, c.want)
		}
	}
	m := testMap(true, []float64{0, 1})
	v, err := ReadMap(writeJSON(t, dir, "ok.json", fmap.Verified{Map: m, Data: &fmap.DataColumns{Columns: []int{0, 1}, LabelColumn: 2}}, ""))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := json.Marshal(v.Map); !bytes.Equal(got, must(json.Marshal(m))) || v.Data == nil || v.Data.LabelColumn != 2 {
		t.Errorf("read back: %s, data %+v", got, v.Data)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}

// TestReadMapShipped: every map gen -map wrote for the shipped specs
// (generated/testdata) reads.
func TestReadMapShipped(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "generated", "testdata", "*.map.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped maps: %v", err)
	}
	for _, f := range files {
		if _, err := ReadMap(f); err != nil {
			t.Error(err)
		}
	}
}

// spaces is an endless reader of whitespace, counting what it gives.
type spaces struct{ n int64 }

func (s *spaces) Read(p []byte) (int, error) {
	// p[i] = " \n\t"[i%3], copied from spacePattern a block at a time:
	// the stream is half a GiB, too long to fill byte by byte.
	for off := 0; off < len(p); {
		off += copy(p[off:], spacePattern[off%3:])
	}
	s.n += int64(len(p))
	return len(p), nil
}

// spacePattern is " \n\t" repeated, what spaces.Read copies from.
var spacePattern = bytes.Repeat([]byte(" \n\t"), 64<<10)

// TestMapReader: a map file's whitespace outside strings is squeezed to
// one space (so that two tokens stay two, and a string keeps its spaces),
// an endless stream of whitespace stops at MaxMapBytes with the decoder
// holding next to nothing, and a cancelled context stops the read.
func TestMapReader(t *testing.T) {
	in := "{\n  \"a b\":  [1 ,\n\t 2] , \"c\\\" d\" : 3 }"
	r := &mapReader{ctx: context.Background(), r: strings.NewReader(in), buf: make([]byte, 7)}
	got, err := io.ReadAll(r)
	if want := `{ "a b": [1 , 2] , "c\" d" : 3 }`; err != nil || string(got) != want {
		t.Errorf("squeezed %q, %v; want %q", got, err, want)
	}
	if _, err := decodeMap(&mapReader{ctx: context.Background(), r: strings.NewReader(`{"map": {"in_dim": 1 2}}`), buf: make([]byte, 64)}); err == nil {
		t.Error("1 2 decoded: the squeeze joined two numbers")
	}
	src := &spaces{}
	r = &mapReader{ctx: context.Background(), r: src, buf: make([]byte, 64<<10)}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = decodeMap(r)
	runtime.ReadMemStats(&after)
	if err == nil || r.err == nil || !strings.Contains(r.err.Error(), "more than the 536870912 bytes") || src.n > MaxMapBytes+64<<10 {
		t.Errorf("endless whitespace: %v (read %d bytes)", r.err, src.n)
	}
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 16<<20 {
		t.Errorf("the heap grew by %d bytes reading whitespace", grew)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := io.ReadAll(&mapReader{ctx: ctx, r: &spaces{}, buf: make([]byte, 16)}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestReadMapValues: a map file of more than MaxMapValues numbers is
// refused as such (a quarter of a gigabyte of "0," would decode into a
// gigabyte of float64s).
func TestReadMapValues(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads a 34 MB map file")
	}
	var b strings.Builder
	b.WriteString(`{"map": {"kernel": {"type": "rbf", "sigma": [0`)
	b.WriteString(strings.Repeat(",0", MaxMapValues+1))
	b.WriteString("]}}}")
	p := filepath.Join(t.TempDir(), "zeros.json")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadMap(p); err == nil || !strings.Contains(err.Error(), "more than the 16777216 values a map file may have") {
		t.Errorf("%d zeros: %v", MaxMapValues+2, err)
	}
}
