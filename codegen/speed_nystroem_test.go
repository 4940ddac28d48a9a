package codegen

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"text/template"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/fmap"
)

// nysBench is the benchmark file of BenchmarkNystroemRank's module: each
// emitted Nyström map's N over 16 inputs in [0, 16]⁶⁴.
var nysBench = template.Must(template.New("bench").Parse(`package gentest

import (
	"math/rand/v2"
	"testing"
)

var benchX = func() (xs [16][64]float64) {
	r := rand.New(rand.NewPCG(9, 9))
	for i := range xs {
		for j := range xs[i] {
			xs[i][j] = 16 * r.Float64()
		}
	}
	return xs
}()
{{range .}}
var benchOut{{.}} [{{.}}Dim]float64

func Benchmark{{.}}(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		{{.}}(&benchOut{{.}}, &benchX[i%16])
	}
}
{{end}}`))

// BenchmarkNystroemRank times the emitted N per input (median of five
// runs, ns/input) of three Nyström maps of the RBF kernel on 64 inputs:
// D = 64 landmarks (NysBig), m = 256 landmarks reduced to D = 64
// (NysBigReduced: n_landmarks 256) and m = 256 landmarks, D = 256
// (NysBig256), built in one temporary module; its own ns/op is the build
// and run, not a measurement. go test -run '^$' -bench NystroemRank
// ./codegen
func BenchmarkNystroemRank(b *testing.B) {
	cases := []struct {
		name string
		vm   func() fmap.Verified
	}{{"NysBig", testmaps.NysBig}, {"NysBigReduced", testmaps.NysBigReduced}, {"NysBig256", testmaps.NysBig256}}
	var maps []emitted
	var names []string
	for _, c := range cases {
		files, err := GenerateFiles(c.vm(), testInfo(c.name))
		if err != nil {
			b.Fatal(err)
		}
		maps = append(maps, emitted{Name: c.name, In: 64, Src: files[0].Data, Extra: files[1:]})
		names = append(names, c.name)
	}
	dir := writeModule(b, maps)
	var src bytes.Buffer
	if err := nysBench.Execute(&src, names); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "bench_test.go"), src.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	out := goRun(b, dir, nil, "test", "-run", "^$", "-bench", ".", "-count", "5")
	ns, err := benchMedians(out)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("go test -bench in the emitted module:\n%s", out)
	for b.Loop() {
	}
	b.ReportMetric(ns["NysBig"], "D64-ns/input")
	b.ReportMetric(ns["NysBigReduced"], "m256-D64-ns/input")
	b.ReportMetric(ns["NysBig256"], "m256-ns/input")
}
