package codegen

import (
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/fmap"
)

// BenchmarkBlocks builds, in one temporary module, two blocks maps of 64
// inputs and D = 512 — BlocksRBF: Gaussian rff on x_0..x_31 (128
// frequencies), phase rff on x_32..x_47 (128) and Gaussian rff on
// x_48..x_63 (64), every block dense and on the float32 path; BlocksChi:
// the same first two blocks and exp-χ² on x_48..x_63 (the 3-D χ² map per
// coordinate, 64 frequencies), whose t the tile computes into a scratch —
// each emitted twice, with the dense evaluation and with the row-by-row
// one (rowPathOnly), and reports per map the median over three runs of
// the ns per row of NSlice, of N row by row and of the row-by-row
// evaluation's NSlice, of both NSliceF32, and their ratios (stagedBench's
// file); any allocation fails it. Its own ns/op is the build and run, not
// a measurement.
// go test -run '^$' -bench Blocks ./codegen
func BenchmarkBlocks(b *testing.B) {
	v := &fmap.Verification{Measure: fmap.Absolute,
		Reported: fmap.Measurement{On: "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)", Points: 1000000, LInf: 0.2, RMS: 0.04}}
	names := []string{"BlocksRBF", "BlocksChi"}
	vms := []fmap.Verified{
		blocksMap(v, []float64{0.5, 0.3, 0.2}, testmaps.GaussianRFF(32, 128, 21, v), testmaps.PhaseRFF(16, 128, 22), testmaps.GaussianRFF(16, 64, 23, v)),
		blocksMap(v, []float64{0.5, 0.3, 0.2}, testmaps.GaussianRFF(32, 128, 21, v), testmaps.PhaseRFF(16, 128, 22), testmaps.ExpChi216()),
	}
	for i, vm := range vms {
		if vm.Map.InDim != 64 || vm.Map.Dim != 512 {
			b.Fatalf("%s: %d inputs, D = %d", names[i], vm.Map.InDim, vm.Map.Dim)
		}
	}
	reportDenseAndRow(b, names, vms)
}
