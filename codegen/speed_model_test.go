package codegen

import (
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
)

// modelBench is the benchmark file of BenchmarkModel64's module: the map
// RFF64Model alone (N) and its predictor (NScores, which evaluates N and
// the 256×10 weights), timed per input over 16 inputs in [0, 1]⁶⁴.
const modelBench = benchInputs64 + `
var benchOut [RFF64ModelDim]float64

func BenchmarkMap(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		RFF64Model(&benchOut, &benchX[i%16])
	}
}

var benchScores [RFF64ModelClasses]float64

func BenchmarkScores(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		RFF64ModelScores(&benchScores, &benchX[i%16])
	}
}
`

// BenchmarkModel64 builds the emitted RFF64Model (n = 64, D = 256, a
// model of 10 classes) in a temporary module and times N alone and
// NScores in five go test -bench runs there, reporting their medians
// (ns/input) and their ratio; its own ns/op is the build and run.
// go test -run '^$' -bench Model64 ./codegen
func BenchmarkModel64(b *testing.B) {
	e, err := emitMap("RFF64Model", testmaps.RFF64Model())
	if err != nil {
		b.Fatal(err)
	}
	dir := writeModule(b, []emitted{e})
	ns := benchRounds(b, dir, modelBench)
	n, s := ns["Map"], ns["Scores"]
	for b.Loop() {
	}
	b.ReportMetric(n, "map-ns/input")
	b.ReportMetric(s, "scores-ns/input")
	b.ReportMetric(s/n, "scores/map")
}
