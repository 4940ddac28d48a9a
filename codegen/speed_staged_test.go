package codegen

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/template"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/fmap"
)

// stagedBench is the benchmark file of BenchmarkStaged's module: for each
// map, NSlice over benchRows rows of its dense evaluation, its N row by
// row, and NSlice of the same map emitted with the row-by-row evaluation
// (the twin named NAMERow), and NSliceF32 of both, in ns per row.
var stagedBench = template.Must(template.New("bench").Funcs(benchFuncs).Parse(`package gentest

import (
	"math/rand/v2"
	"testing"
)

` + benchModuleInputs("") + `{{range .}}
func Benchmark{{.}}Slice(b *testing.B) {
	dst := make([]float64, benchRows*{{.}}Dim)
	b.ReportAllocs()
	for b.Loop() {
		{{.}}Slice(dst, benchSrc[:benchRows*{{.}}In])
	}
	perRow(b)
}

func Benchmark{{.}}One(b *testing.B) {
	var out [{{.}}Dim]float64
	b.ReportAllocs()
	for b.Loop() {
		for i := range benchRows {
			{{.}}(&out, (*[{{.}}In]float64)(benchSrc[i*{{.}}In:]))
		}
	}
	perRow(b)
}

func Benchmark{{.}}RowSlice(b *testing.B) {
	dst := make([]float64, benchRows*{{.}}RowDim)
	b.ReportAllocs()
	for b.Loop() {
		{{.}}RowSlice(dst, benchSrc[:benchRows*{{.}}RowIn])
	}
	perRow(b)
}

func Benchmark{{.}}SliceF32(b *testing.B) {
	dst := make([]float32, benchRows*{{.}}Dim)
	b.ReportAllocs()
	for b.Loop() {
		{{.}}SliceF32(dst, benchSrc32[:benchRows*{{.}}In])
	}
	perRow(b)
}

func Benchmark{{.}}RowSliceF32(b *testing.B) {
	dst := make([]float32, benchRows*{{.}}RowDim)
	b.ReportAllocs()
	for b.Loop() {
		{{.}}RowSliceF32(dst, benchSrc32[:benchRows*{{.}}RowIn])
	}
	perRow(b)
}
{{end}}`))

// BenchmarkStaged builds, in one temporary module, the random maps with a
// stage before or after the random features — rf-pca on 64 inputs with
// k = 64 (192 features) and k = 256 (768 features), both centred, exp-χ²
// on 64 inputs (the 3-D χ² map per coordinate, D = 512), exp-χ² on 128
// inputs (t of 384 values, computed in chunks: emit_dense_wide.go;
// D = 512) and the skewed intersection kernel's log-offset features on 16
// inputs (D = 512) —
// each emitted twice, with the dense evaluation and with the row-by-row
// one (rowPathOnly), and reports per map the median over three runs of
// the ns per row of NSlice, of N row by row and of the row-by-row
// evaluation's NSlice, of both NSliceF32, and their ratios; any
// allocation fails it. Its own
// ns/op is the build and run, not a measurement.
// go test -run '^$' -bench Staged ./codegen
func BenchmarkStaged(b *testing.B) {
	cases := []struct {
		name string
		vm   fmap.Verified
	}{
		{"PCA64", testmaps.RFPCA64()},
		{"PCA256", testmaps.RFPCA256()},
		{"ExpChi264", testmaps.ExpChi264()},
		{"ExpChi2128", testmaps.ExpChi2128()},
		{"Skew16", testmaps.RFFIntersect()},
	}
	var names []string
	var vms []fmap.Verified
	for _, c := range cases {
		names, vms = append(names, c.name), append(vms, c.vm)
	}
	reportDenseAndRow(b, names, vms)
}

// reportDenseAndRow times the maps vms (benchDenseAndRow) and logs per
// map NSlice, N row by row, the row path's NSlice, both NSliceF32 and
// their ratios, reporting each map's row path / NSlice as a metric.
func reportDenseAndRow(b *testing.B, names []string, vms []fmap.Verified) {
	rows, out := benchDenseAndRow(b, names, vms)
	var table strings.Builder
	fmt.Fprintf(&table, "%-10s %10s %10s %10s %12s %10s %10s %10s %12s\n", "map", "NSlice", "N", "row path", "row/NSlice", "N/NSlice", "SliceF32", "row F32", "rowF32/F32")
	for _, c := range names {
		s, s32 := rows(c+"Slice"), rows(c+"SliceF32")
		fmt.Fprintf(&table, "%-10s %10.0f %10.0f %10.0f %12.2f %10.2f %10.0f %10.0f %12.2f\n", c, s, rows(c+"One"), rows(c+"RowSlice"), rows(c+"RowSlice")/s, rows(c+"One")/s,
			s32, rows(c+"RowSliceF32"), rows(c+"RowSliceF32")/s32)
	}
	b.Logf("go test -bench in the emitted module, ns per row (medians of 3):\n%s\n%s", table.String(), out)
	for b.Loop() {
	}
	for _, c := range names {
		b.ReportMetric(rows(c+"RowSlice")/rows(c+"Slice"), c+"-row/NSlice")
	}
}

// benchDenseAndRow emits each map vms[i] twice in one module, as names[i]
// with the dense evaluation and as names[i]+"Row" with the row-by-row one
// (rowPathOnly), runs stagedBench's file three times, fails on any
// allocation, and returns the medians of the ns per row and the output.
func benchDenseAndRow(b *testing.B, names []string, vms []fmap.Verified) (func(string) float64, string) {
	b.Helper()
	var maps []emitted
	defer func() { rowPathOnly = false }()
	for _, row := range []bool{false, true} {
		rowPathOnly = row
		for i, vm := range vms {
			name := names[i]
			if row {
				name += "Row"
			}
			e, err := emitMap(name, vm)
			if err != nil {
				b.Fatal(err)
			}
			maps = append(maps, e)
		}
	}
	rowPathOnly = false
	dir := writeModule(b, maps)
	var src bytes.Buffer
	if err := stagedBench.Execute(&src, names); err != nil {
		b.Fatal(err)
	}
	out := benchModule(b, dir, src.Bytes(), 3)
	if strings.Contains(out, " allocs/op") && !allZeroAllocs(out) {
		b.Fatalf("an emitted function allocates:\n%s", out)
	}
	return nsPerRow(b, out), out
}

// benchModule writes src as the benchmark file of the emitted module in
// dir and returns the output of its benchmarks run count times.
func benchModule(b *testing.B, dir string, src []byte, count int) string {
	b.Helper()
	if err := os.WriteFile(filepath.Join(dir, "bench_test.go"), src, 0o644); err != nil {
		b.Fatal(err)
	}
	return goRun(b, dir, nil, "test", "-run", "^$", "-bench", *benchRunFlag, "-count", strconv.Itoa(count))
}

// allZeroAllocs reports whether every benchmark line of out that counts
// allocations counts none.
func allZeroAllocs(out string) bool {
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		for i := 1; i < len(f); i++ {
			if f[i] == "allocs/op" && f[i-1] != "0" {
				return false
			}
		}
	}
	return true
}

// nsPerRow parses the ns/row metrics of out and returns the median of a
// benchmark's (by its name without "Benchmark" and the -N suffix; NaN
// when it has none).
func nsPerRow(b *testing.B, out string) func(string) float64 {
	b.Helper()
	rows := map[string][]float64{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		for i := 1; i+1 < len(f); i++ {
			if f[i+1] == "ns/row" {
				v, err := strconv.ParseFloat(f[i], 64)
				if err != nil {
					b.Fatal(err)
				}
				name, _, _ := strings.Cut(strings.TrimPrefix(f[0], "Benchmark"), "-")
				rows[name] = append(rows[name], v)
			}
		}
	}
	return func(name string) float64 {
		v := rows[name]
		if len(v) == 0 {
			return math.NaN()
		}
		slices.Sort(v)
		return v[len(v)/2]
	}
}
