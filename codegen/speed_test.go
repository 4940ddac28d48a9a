package codegen

import (
	"math"
	"math/rand/v2"
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

// BenchmarkReference times the reference evaluator m.Eval per test map
// (ns/input), on 4096 inputs in the map's domain. The emitted code of the
// shipped maps is timed against it, and against copying D floats, in
// package generated (go test -bench . ./generated).
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
