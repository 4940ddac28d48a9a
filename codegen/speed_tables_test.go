package codegen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"text/template"

	"github.com/featmap/featmap/fmap"
)

// tablesMaps are the shipped maps (generated/testdata/NAME.map.json, as
// featmap designed them) whose emitted code evaluates piecewise
// polynomials: the ones emit.tables changes.
var tablesMaps = []string{"Chi2HistD7", "RBFS03D11", "RBFS03Harmonic17", "RBF2DModS03D31"}

// loadShipped reads a shipped map with its measured errors.
func loadShipped(t testing.TB, name string) fmap.Verified {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "generated", "testdata", name+".map.json"))
	if err != nil {
		t.Fatal(err)
	}
	var vm fmap.Verified
	if err := json.Unmarshal(b, &vm); err != nil {
		t.Fatal(err)
	}
	if vm.Map == nil || vm.Verification == nil {
		t.Fatalf("%s: no map or no measured errors", name)
	}
	return vm
}

// tablesBench is the benchmark file of BenchmarkTables' module: every
// round times NSlice of every emitted map over its 4096 inputs (read from
// NAME.in), one map after the other, so that the forms of a map are timed
// under the same load. Each map's NSlice runs twice in a round: "first",
// after the other maps' tables have pushed its own out of the nearest
// caches, and "again", at once, with its table as warm as it gets; it
// reports each form's median ns/input of both.
var tablesBench = template.Must(template.New("bench").Parse(`package gentest

import (
	"encoding/binary"
	"math"
	"os"
	"slices"
	"testing"
	"time"
)

func load(b *testing.B, name string) []float64 {
	raw, err := os.ReadFile(name + ".in")
	if err != nil {
		b.Fatal(err)
	}
	v := make([]float64, len(raw)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*i:]))
	}
	return v
}

func BenchmarkTables(b *testing.B) {
	forms := []struct {
		name     string
		dim, in  int
		slice    func(dst, src []float64)
		src, dst []float64
		times    [2][]float64
	}{
{{- range .}}
		{name: "{{.Name}}", dim: {{.Name}}Dim, in: {{.In}}, slice: {{.Name}}Slice},
{{- end}}
	}
	for i := range forms {
		f := &forms[i]
		f.src = load(b, f.name)
		f.dst = make([]float64, len(f.src)/f.in*f.dim)
		f.times = [2][]float64{make([]float64, 0, 1<<16), make([]float64, 0, 1<<16)}
	}
	b.ReportAllocs()
	for b.Loop() {
		for i := range forms {
			f := &forms[i]
			for k := range 2 { // 0: after the other maps ran; 1: again at once
				start := time.Now()
				f.slice(f.dst, f.src)
				if len(f.times[k]) < cap(f.times[k]) {
					f.times[k] = append(f.times[k], float64(time.Since(start).Nanoseconds())/float64(len(f.src)/f.in))
				}
			}
		}
	}
	for _, f := range forms {
		for k, when := range []string{"first", "again"} {
			slices.Sort(f.times[k])
			b.ReportMetric(f.times[k][len(f.times[k])/2], f.name+"-"+when+"-ns/input")
		}
	}
}
`))

// tablesResult is what BenchmarkTables measured: per map and setting the
// emitted Go file's size and NSlice's median ns per input.
var tablesResult struct {
	once  sync.Once
	bytes map[string]int
	ns    map[string]float64
	err   error
}

// BenchmarkTables emits every shipped map that has polynomial pieces
// (tablesMaps) with emit.tables fast, compact and small into one temporary module
// and times, in one go test -bench there, the NSlice of all of them
// interleaved (the same 4096 inputs per map as BenchmarkReference's).
// It reports per map the files' sizes (bytes) and the medians (ns/input)
// of NSlice run first after the other maps and again at once (see
// tablesBench); its own ns/op is the build and
// run, not a measurement. go test -run '^$' -bench Tables ./codegen
func BenchmarkTables(b *testing.B) {
	r := &tablesResult
	r.once.Do(func() { r.bytes, r.ns, r.err = runTablesBench(b) })
	if r.err != nil {
		b.Fatal(r.err)
	}
	for _, name := range tablesMaps {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
			}
			for _, tb := range []Tables{Fast, Compact, Small} {
				id := tablesID(name, tb)
				b.ReportMetric(float64(r.bytes[id]), tb.String()+"-bytes")
				for _, when := range []string{"first", "again"} {
					b.ReportMetric(r.ns[id+"-"+when], tb.String()+"-"+when+"-ns/input")
				}
			}
		})
	}
}

// tablesID is the name of map name emitted with tables tb: Chi2HistD7Small.
func tablesID(name string, tb Tables) string {
	return name + strings.ToUpper(tb.String()[:1]) + tb.String()[1:]
}

func runTablesBench(b *testing.B) (map[string]int, map[string]float64, error) {
	sizes := map[string]int{}
	var ems []emitted
	inputs := map[string][]float64{}
	for _, name := range tablesMaps {
		vm := loadShipped(b, name)
		for _, tb := range []Tables{Fast, Compact, Small} {
			id := tablesID(name, tb)
			info := testInfo(id)
			info.Tables = tb
			src, err := Generate(vm, info)
			if err != nil {
				return nil, nil, err
			}
			p, err := newPlan(vm, info)
			if err != nil {
				return nil, nil, err
			}
			sizes[id] = len(src)
			ems = append(ems, emitted{Name: id, In: p.in, Src: src})
			inputs[id] = benchInputs(p)
		}
	}
	dir := writeModule(b, ems)
	for id, xs := range inputs {
		writeF64(b, filepath.Join(dir, id+".in"), xs)
	}
	var src bytes.Buffer
	if err := tablesBench.Execute(&src, ems); err != nil {
		return nil, nil, err
	}
	if err := os.WriteFile(filepath.Join(dir, "bench_test.go"), src.Bytes(), 0o644); err != nil {
		return nil, nil, err
	}
	out := goRun(b, dir, nil, "test", "-run", "^$", "-bench", "Tables", "-benchtime", "3s")
	b.Logf("go test -bench in the emitted module:\n%s", out)
	ns := map[string]float64{}
	fields := strings.Fields(out)
	for i := 1; i < len(fields); i++ {
		if name, ok := strings.CutSuffix(fields[i], "-ns/input"); ok {
			var v float64
			if _, err := fmt.Sscan(fields[i-1], &v); err != nil {
				return nil, nil, fmt.Errorf("reading %q: %v", fields[i-1], err)
			}
			ns[name] = v
		}
	}
	for id := range sizes {
		if _, ok := ns[id+"-again"]; !ok {
			return nil, nil, fmt.Errorf("no time for %s in:\n%s", id, out)
		}
	}
	return sizes, ns, nil
}
