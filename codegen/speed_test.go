package codegen

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
)

// benchInputs returns 4096 inputs (flattened n-tuples) in the map's domain:
// integers for an integer domain, log-uniform over six decades below hi for
// a homogeneous map, uniform otherwise.
func benchInputs(p *plan) []float64 {
	m := p.m
	r := rand.New(rand.NewPCG(7, 8))
	xs := make([]float64, 4096*p.in)
	for i := range xs {
		a := i % p.in
		lo, hi := m.Domain.Lo[a], m.Domain.Hi[a]
		switch {
		case m.Domain.Integer:
			xs[i] = lo + float64(r.IntN(int(hi-lo)+1))
		case m.Homogeneous():
			lo = math.Max(lo, hi*1e-6)
			xs[i] = lo * math.Pow(hi/lo, r.Float64())
		default:
			xs[i] = lo + r.Float64()*(hi-lo)
		}
	}
	return xs
}

// TestEmittedSpeed runs the harness benchmarks (every emitted function of
// every test map, and copying D floats per input) in the temporary module
// when FEATMAP_SPEED is set, e.g.
//
//	FEATMAP_SPEED=1 go test ./codegen -run EmittedSpeed -v
//
// FEATMAP_SPEED may also be a -bench pattern such as "RBF|Mod2". Compare
// with BenchmarkReference, the reference evaluator on the same inputs.
func TestEmittedSpeed(t *testing.T) {
	pattern := os.Getenv("FEATMAP_SPEED")
	if pattern == "" {
		t.Skip("set FEATMAP_SPEED=1 (or a benchmark pattern) to time the emitted code")
	}
	if pattern == "1" {
		pattern = "."
	}
	gs := generateCases(t, testmaps.Cases())
	var ems []emitted
	dump := t.TempDir()
	for _, g := range gs {
		ems = append(ems, emitted{Name: g.name, In: g.p.in, Src: g.src})
		writeF64(t, filepath.Join(dump, g.name+".in"), nil)
		writeF64(t, filepath.Join(dump, g.name+".bench"), benchInputs(g.p))
	}
	dir := writeModule(t, ems)
	out := goRun(t, dir, []string{"FEATMAP_DUMP=" + dump}, "test", "-run", "^$", "-bench", "BenchmarkEmitted/("+pattern+")", "-count", "5", "-benchtime", "500x", ".")
	t.Log("\n" + out)
}

// BenchmarkReference times the reference evaluator m.Eval on the inputs of
// TestEmittedSpeed, per test map (ns/input).
func BenchmarkReference(b *testing.B) {
	for _, c := range testmaps.Cases() {
		vm := c.Map()
		m := vm.Map
		p, err := newPlan(vm, testInfo(c.Name))
		if err != nil {
			b.Fatal(err)
		}
		xs := benchInputs(p)
		n := len(xs) / p.in
		dst := make([]float64, m.Dim)
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				for i := range n {
					m.Eval(dst, xs[i*p.in:(i+1)*p.in])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/input")
		})
	}
}
