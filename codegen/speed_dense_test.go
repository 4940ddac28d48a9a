package codegen

import (
	"bytes"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"text/template"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/fmap"
)

// benchRowsFlag and benchRunFlag set the emitted benchmark modules' batch (the
// rows of one NSlice call; docs/measurements/dense_maps_run.sh passes the
// 100 000 rows) and which of their benchmarks run (go test's -bench of
// the module).
var (
	benchRowsFlag = flag.Int("dense.rows", 1200, "BenchmarkDense, BenchmarkStaged, BenchmarkBlocks, BenchmarkNystroemKernels: rows per NSlice call in the emitted module")
	benchRunFlag  = flag.String("dense.run", ".", "BenchmarkDense, BenchmarkStaged, BenchmarkBlocks, BenchmarkNystroemKernels: the emitted module's -bench pattern")
)

// benchFuncs are the benchmark templates' functions: benchRows, the rows
// of -dense.rows, read when the template runs (the templates are parsed
// at package initialisation, before the flags are).
var benchFuncs = template.FuncMap{"benchRows": func() int { return *benchRowsFlag }}

// denseBench is the benchmark file of BenchmarkDense's module: for each
// emitted map, NSlice over denseBenchRows rows, N row by row, NSliceF32,
// NSlice split over two goroutines (the many-core pattern of docs/gen.md),
// a plain Go loop computing the same map (rff: the dot products and
// math.Cos, math.Sin; Nyström: the kernel values with the factors
// 1/(2σ²) and the projection), all in ns per row, and a control of pure
// computation on one goroutine and on two (controlWork).
var denseBench = template.Must(template.New("bench").Funcs(benchFuncs).Parse(`package gentest

import (
	"math"
	"math/rand/v2"
	"sync"
	"testing"
)

` + benchModuleInputs("16 * ") + `{{range .}}
func Benchmark{{.Name}}Slice(b *testing.B) {
	dst := make([]float64, benchRows*{{.Name}}Dim)
	b.ReportAllocs()
	for b.Loop() {
		{{.Name}}Slice(dst, benchSrc[:benchRows*64])
	}
	perRow(b)
}

func Benchmark{{.Name}}One(b *testing.B) {
	var out [{{.Name}}Dim]float64
	b.ReportAllocs()
	for b.Loop() {
		for i := range benchRows {
			{{.Name}}(&out, (*[64]float64)(benchSrc[i*64:]))
		}
	}
	perRow(b)
}

func Benchmark{{.Name}}SliceF32(b *testing.B) {
	dst := make([]float32, benchRows*{{.Name}}Dim)
	b.ReportAllocs()
	for b.Loop() {
		{{.Name}}SliceF32(dst, benchSrc32[:benchRows*64])
	}
	perRow(b)
}

func Benchmark{{.Name}}Parallel2(b *testing.B) {
	dst := make([]float64, benchRows*{{.Name}}Dim)
	const half = benchRows / 2
	b.ReportAllocs()
	for b.Loop() {
		var wg sync.WaitGroup
		wg.Add(1)
		go func() {
			defer wg.Done()
			{{.Name}}Slice(dst[:half*{{.Name}}Dim], benchSrc[:half*64])
		}()
		{{.Name}}Slice(dst[half*{{.Name}}Dim:], benchSrc[half*64:benchRows*64])
		wg.Wait()
	}
	perRow(b)
}

func Benchmark{{.Name}}Plain(b *testing.B) {
	dst := make([]float64, benchRows*{{.Name}}Dim)
	b.ReportAllocs()
	for b.Loop() {
		for i := range benchRows {
			x := benchSrc[i*64 : (i+1)*64]
			out := dst[i*{{.Name}}Dim : (i+1)*{{.Name}}Dim]
{{- if .RFF}}
			for k := range {{.Priv}}Freqs {
				w := {{.Priv}}W[k*64 : (k+1)*64]
				var ph float64
				for j, v := range x {
					ph += w[j] * v
				}
				out[2*k], out[2*k+1] = {{.Scale}}*math.Cos(ph), {{.Scale}}*math.Sin(ph)
			}
{{- else}}
			var k [{{.Priv}}M]float64
			for j := range k {
				l := {{.Priv}}Landmarks[j*64 : (j+1)*64]
				var s float64
				for c, v := range x {
					d := v - l[c]
					s += d * d * {{.Priv}}S2[c]
				}
				k[j] = math.Exp(-s)
			}
			for o := range out {
				p := {{.Priv}}Proj[o*{{.Priv}}M : (o+1)*{{.Priv}}M]
				var s float64
				for j, c := range p {
					s += c * k[j]
				}
				out[o] = s
			}
{{- end}}
		}
	}
	perRow(b)
}
{{end}}
// controlWork is a chain of n multiply-adds and square roots: work with
// no memory traffic, the machine's own two-core ratio beside the maps'.
func controlWork(n int) float64 {
	x := 1.0
	for range n {
		x = math.Sqrt(math.FMA(x, 1.0000001, 0.5))
	}
	return x
}

var controlSink float64

func BenchmarkControlSlice(b *testing.B) {
	for b.Loop() {
		controlSink = controlWork(benchRows * 64)
	}
	perRow(b)
}

func BenchmarkControlParallel2(b *testing.B) {
	for b.Loop() {
		var wg sync.WaitGroup
		var other float64
		wg.Add(1)
		go func() {
			defer wg.Done()
			other = controlWork(benchRows * 32)
		}()
		mine := controlWork(benchRows * 32)
		wg.Wait()
		controlSink = mine + other
	}
	perRow(b)
}
`))

// denseBenchMap is one map of BenchmarkDense's module.
type denseBenchMap struct {
	Name, Priv string
	RFF        bool
	Scale      string
}

// BenchmarkDense builds, in one temporary module, the emitted Gaussian
// random features of 64 inputs with D = 256 and D = 1024 and the Nyström
// maps of the RBF kernel on 64 inputs with D = 64 (64 landmarks) and
// D = 256 (256 landmarks), and reports per map the median over three runs
// of the ns per row of NSlice, N row by row, NSliceF32, NSlice on two
// goroutines and the plain Go loop of the same map (denseBench), and
// their ratios. Its own ns/op is the build and run, not a measurement.
// go test -run '^$' -bench Dense ./codegen
func BenchmarkDense(b *testing.B) {
	cases := []struct {
		name string
		vm   fmap.Verified
	}{
		{"RFF256", testmaps.GaussianRFF(64, 128, 64, testmaps.RFF64().Verification)},
		{"RFF1024", testmaps.RFF64()},
		{"Nys64", testmaps.NysBig()},
		{"Nys256", testmaps.NysBig256()},
	}
	var maps []emitted
	var bm []denseBenchMap
	for _, c := range cases {
		info := testInfo(c.name)
		files, err := GenerateFiles(c.vm, info)
		if err != nil {
			b.Fatal(err)
		}
		maps = append(maps, emitted{Name: c.name, In: 64, Src: files[0].Data, Extra: files[1:]})
		d := denseBenchMap{Name: c.name, Priv: private(c.name)}
		if r, ok := c.vm.Map.Stages[0].Kind.(*fmap.Random); ok {
			d.RFF, d.Scale = true, strconv.FormatFloat(r.ComponentScale(), 'g', -1, 64)
		}
		bm = append(bm, d)
	}
	dir := writeModule(b, maps)
	var src bytes.Buffer
	if err := denseBench.Execute(&src, bm); err != nil {
		b.Fatal(err)
	}
	out := benchModule(b, dir, src.Bytes(), 3)
	med := nsPerRow(b, out)
	var table strings.Builder
	fmt.Fprintf(&table, "%-8s %10s %10s %10s %10s %10s %8s %8s\n", "map", "NSlice", "N", "SliceF32", "parallel2", "plain", "plain/NSlice", "2-core")
	for _, c := range bm {
		s := med(c.Name + "Slice")
		fmt.Fprintf(&table, "%-8s %10.0f %10.0f %10.0f %10.0f %10.0f %8.1f %8.2f\n", c.Name, s, med(c.Name+"One"), med(c.Name+"SliceF32"),
			med(c.Name+"Parallel2"), med(c.Name+"Plain"), med(c.Name+"Plain")/s, s/med(c.Name+"Parallel2"))
	}
	cs, cp := med("ControlSlice"), med("ControlParallel2")
	fmt.Fprintf(&table, "%-8s %10.0f %10s %10s %10.0f %10s %8s %8.2f\n", "control", cs, "", "", cp, "", "", cs/cp)
	b.Logf("go test -bench in the emitted module, ns per row (medians of 3; control: 64 dependent FMA+sqrt steps per row, one goroutine and two halves on two):\n%s\n%s", table.String(), out)
	for b.Loop() {
	}
	for _, c := range bm {
		b.ReportMetric(med(c.Name+"Slice"), c.Name+"-ns/row")
	}
}

// benchModuleInputs is the part of an emitted benchmark module's file that
// every benchmark uses: benchRows seeded rows of 128 inputs (the widest
// benchmark map's; the first benchRows·64 numbers are the rows of 64
// inputs the maps of 64 take), each scale
// (a Go expression ending in "* ", or "") times a uniform draw in [0, 1),
// the same rows in float32, and perRow, which reports ns per row.
func benchModuleInputs(scale string) string {
	return `const benchRows = {{benchRows}}

var benchSrc = func() []float64 {
	r := rand.New(rand.NewPCG(9, 9))
	xs := make([]float64, benchRows*128)
	for i := range xs {
		xs[i] = ` + scale + `r.Float64()
	}
	return xs
}()

var benchSrc32 = func() []float32 {
	xs := make([]float32, len(benchSrc))
	for i, v := range benchSrc {
		xs[i] = float32(v)
	}
	return xs
}()

func perRow(b *testing.B) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*benchRows), "ns/row")
}
`
}
