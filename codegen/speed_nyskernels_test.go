package codegen

import (
	"fmt"
	"strings"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/fmap"
)

// BenchmarkNystroemKernels builds, in one temporary module, Nyström maps
// of 64 inputs and 256 landmarks (D = 256) of the Laplacian kernel, the
// Matérn kernel of ν = ½, 3/2 and 5/2 and the polynomial kernel, each
// emitted twice, with the dense evaluation and with the row-by-row one
// (rowPathOnly), and reports per map the median over three runs of the ns
// per row of NSlice, of N row by row and of the row-by-row evaluation's
// NSlice, and their ratios, and NSliceF32 (stagedBench's file; the dense
// NSliceF32 is each map's float32 path, where gen takes it); any
// allocation fails it. Its own ns/op is the build and run, not a
// measurement.
// go test -run '^$' -bench NystroemKernels ./codegen
func BenchmarkNystroemKernels(b *testing.B) {
	sig := func(v float64) []float64 {
		s := make([]float64, 64)
		for i := range s {
			s[i] = v
		}
		return s
	}
	cases := []struct {
		name string
		k    fmap.Kernel
	}{
		{"Lap", fmap.Kernel{Type: fmap.Laplacian, Sigma: sig(20)}},
		{"Mat12", fmap.Kernel{Type: fmap.Matern, Nu: 0.5, Sigma: sig(3)}},
		{"Mat32", fmap.Kernel{Type: fmap.Matern, Nu: 1.5, Sigma: sig(3)}},
		{"Mat52", fmap.Kernel{Type: fmap.Matern, Nu: 2.5, Sigma: sig(3)}},
		{"Poly", fmap.Kernel{Type: fmap.Poly, Degree: 3, Scale: 1.0 / 64, Offset: 1}},
	}
	var names []string
	var vms []fmap.Verified
	for _, c := range cases {
		names, vms = append(names, c.name), append(vms, testmaps.NysKernel256(c.k))
	}
	rows, out := benchDenseAndRow(b, names, vms)
	var table strings.Builder
	fmt.Fprintf(&table, "%-6s %10s %10s %10s %12s %10s %10s\n", "map", "NSlice", "N", "row path", "row/NSlice", "N/NSlice", "SliceF32")
	for _, c := range names {
		s := rows(c + "Slice")
		fmt.Fprintf(&table, "%-6s %10.0f %10.0f %10.0f %12.2f %10.2f %10.0f\n", c, s, rows(c+"One"), rows(c+"RowSlice"), rows(c+"RowSlice")/s, rows(c+"One")/s, rows(c+"SliceF32"))
	}
	b.Logf("go test -bench in the emitted module, ns per row (medians of 3):\n%s\n%s", table.String(), out)
	for b.Loop() {
	}
	for _, c := range names {
		b.ReportMetric(rows(c+"RowSlice")/rows(c+"Slice"), c+"-row/NSlice")
	}
}
