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

// rfpcaBench is the benchmark file of BenchmarkRFPCA64's module: each
// emitted map ({{.}}) timed per input over 16 inputs in [0, 1]⁶⁴.
var rfpcaBench = template.Must(template.New("bench").Parse(benchInputs64 + `{{range .}}
var bench{{.}}Out [{{.}}Dim]float64

func Benchmark{{.}}(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		{{.}}(&bench{{.}}Out, &benchX[i%16])
	}
}
{{end}}`))

// BenchmarkRFPCA64 builds, in one temporary module, the emitted rf-pca map
// RFPCA64 (n = 64, 192 cos-sin random features projected onto k = 64,
// centred) and the plain rff maps of the same kernel with D = 64 and
// D = 192, and times the three in five go test -bench runs there. It
// reports their medians over the runs (ns/input) and the ratios of
// rf-pca to each rff map; its own ns/op is the build and run, not a
// measurement. go test -run '^$' -bench RFPCA64 ./codegen
func BenchmarkRFPCA64(b *testing.B) {
	maps := []struct {
		name string
		make func() (emitted, error)
	}{
		{"RFPCA64", func() (emitted, error) { return emitMap("RFPCA64", testmaps.RFPCA64()) }},
		{"RFF64D64", func() (emitted, error) {
			return emitMap("RFF64D64", testmaps.GaussianRFF(64, 32, 65, testmaps.RFF64().Verification))
		}},
		{"RFF64D192", func() (emitted, error) {
			return emitMap("RFF64D192", testmaps.GaussianRFF(64, 96, 64, testmaps.RFF64().Verification))
		}},
	}
	var ems []emitted
	var names []string
	for _, m := range maps {
		e, err := m.make()
		if err != nil {
			b.Fatal(err)
		}
		ems = append(ems, e)
		names = append(names, m.name)
	}
	dir := writeModule(b, ems)
	var src bytes.Buffer
	if err := rfpcaBench.Execute(&src, names); err != nil {
		b.Fatal(err)
	}
	ns := benchRounds(b, dir, src.String())
	pca, d64, d192 := ns["RFPCA64"], ns["RFF64D64"], ns["RFF64D192"]
	for b.Loop() {
	}
	b.ReportMetric(pca, "rfpca-ns/input")
	b.ReportMetric(d64, "rff64-ns/input")
	b.ReportMetric(d192, "rff192-ns/input")
	b.ReportMetric(pca/d64, "rfpca/rff64")
	b.ReportMetric(pca/d192, "rfpca/rff192")
}

// benchInputs64 opens the benchmark file of an emitted module whose maps
// take 64 inputs: the package clause, the imports and 16 seeded inputs in
// [0, 1]⁶⁴ (benchX).
const benchInputs64 = `package gentest

import (
	"math/rand/v2"
	"testing"
)

var benchX = func() (xs [16][64]float64) {
	r := rand.New(rand.NewPCG(9, 9))
	for i := range xs {
		for j := range xs[i] {
			xs[i][j] = r.Float64()
		}
	}
	return xs
}()
`

// benchRounds writes src as the benchmark file of the emitted module in
// dir and runs its benchmarks in five go test -bench rounds, each round
// all of them one after the other (not -count 5, which runs each five
// times in a row: load from other processes then falls on all alike). It
// returns every benchmark's median ns/op over the rounds (benchMedians).
func benchRounds(b *testing.B, dir, src string) map[string]float64 {
	b.Helper()
	if err := os.WriteFile(filepath.Join(dir, "bench_test.go"), []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	var out string
	for range 5 {
		out += goRun(b, dir, nil, "test", "-run", "^$", "-bench", ".", "-count", "1")
	}
	b.Logf("go test -bench in the emitted module:\n%s", out)
	ns, err := benchMedians(out)
	if err != nil {
		b.Fatal(err)
	}
	return ns
}

// emitMap generates the map vm under name for a benchmark module.
func emitMap(name string, vm fmap.Verified) (emitted, error) {
	files, err := GenerateFiles(vm, testInfo(name))
	if err != nil {
		return emitted{}, err
	}
	return emitted{Name: name, In: vm.Map.InDim, Src: files[0].Data, Extra: files[1:]}, nil
}
