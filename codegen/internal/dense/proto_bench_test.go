package dense

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
)

// benchRows is the rows of a batch in BenchmarkPrototype: 100 000 (the
// issue's), or $FEATMAP_DENSE_ROWS.
func benchRows() int {
	if v, err := strconv.Atoi(os.Getenv("FEATMAP_DENSE_ROWS")); err == nil && v > 0 {
		return v
	}
	return 100_000
}

// BenchmarkPrototype: the prototype maps of protoShapes on this
// processor's widest path (and on the others $FEATMAP_DENSE_PATHS names,
// e.g. "avx512,avx2,go"): NSlice, NSliceF32 and NSliceParallel (2
// workers) over benchRows rows, N of one row (1000 calls), the emitted
// code of today row by row on the first 10 000 rows (the baseline, in the
// same run), and for Nyström its two products alone as NSlice calls them;
// ns/row, and GFLOP/s of the products' arithmetic.
func BenchmarkPrototype(b *testing.B) {
	paths := []string{pathName()}
	if v := os.Getenv("FEATMAP_DENSE_PATHS"); v != "" {
		paths = nil
		for _, p := range splitComma(v) {
			paths = append(paths, p)
		}
	}
	rows := benchRows()
	todayRows := min(rows, 10_000)
	for _, sh := range protoShapes {
		rng := rand.New(rand.NewPCG(51, uint64(sh.m)))
		x := protoInputs(rng, rows+edgeRows, sh.n)[:rows*sh.n] // no edge rows
		x32 := to32(x)
		dst := make([]float64, rows*sh.d)
		dst32 := make([]float32, rows*sh.d)
		// Touch every page of dst first: a page's first write faults,
		// a cost of the memory, not of the map, which would land in the
		// first timed iteration (numpy's side warms its arrays up too).
		for i := range dst {
			dst[i], dst32[i] = 1, 1
		}
		var n, slice, par, today, products func()
		flops := 2 * float64(sh.n*sh.m)
		if sh.nys {
			p := newProtoNys(rng, sh.n, sh.m, sh.d, sh.sigma)
			flops += 2 * float64(sh.m*sh.d)
			n = func() {
				for i := range oneRows {
					p.N(dst[i*sh.d:(i+1)*sh.d], x[i*sh.n:(i+1)*sh.n])
				}
			}
			slice = func() { p.NSlice(dst, x) }
			par = func() { p.NSliceParallel(dst, x, 2) }
			today = func() {
				for i := range todayRows {
					p.today(dst[i*sh.d:(i+1)*sh.d], x[i*sh.n:(i+1)*sh.n])
				}
			}
			products = func() { p.products(dst, x) }
			b.Run(sh.name+"/f32/"+paths[0], func(b *testing.B) {
				ok, restore := setPath(paths[0])
				defer restore()
				if !ok {
					b.Skip("no such path")
				}
				benchRowsOf(b, rows, flops, func() { p.NSliceF32(dst32, x32) })
			})
		} else {
			p := newProtoRFF(rng, sh.n, sh.m, sh.sigma)
			n = func() {
				for i := range oneRows {
					p.N(dst[i*sh.d:(i+1)*sh.d], x[i*sh.n:(i+1)*sh.n])
				}
			}
			slice = func() { p.NSlice(dst, x) }
			par = func() { p.NSliceParallel(dst, x, 2) }
			today = func() {
				for i := range todayRows {
					p.today(dst[i*sh.d:(i+1)*sh.d], x[i*sh.n:(i+1)*sh.n])
				}
			}
			b.Run(sh.name+"/f32/"+paths[0], func(b *testing.B) {
				ok, restore := setPath(paths[0])
				defer restore()
				if !ok {
					b.Skip("no such path")
				}
				benchRowsOf(b, rows, flops, func() { p.NSliceF32(dst32, x32) })
			})
		}
		for _, path := range paths {
			b.Run(fmt.Sprintf("%s/f64/%s", sh.name, path), func(b *testing.B) {
				ok, restore := setPath(path)
				defer restore()
				if !ok {
					b.Skip("no such path")
				}
				benchRowsOf(b, rows, flops, slice)
			})
		}
		b.Run(sh.name+"/one-row/"+paths[0], func(b *testing.B) {
			ok, restore := setPath(paths[0])
			defer restore()
			if !ok {
				b.Skip("no such path")
			}
			benchRowsOf(b, oneRows, flops, n)
		})
		b.Run(sh.name+"/parallel2/"+paths[0], func(b *testing.B) {
			ok, restore := setPath(paths[0])
			defer restore()
			if !ok {
				b.Skip("no such path")
			}
			benchRowsOf(b, rows, flops, par)
		})
		if products != nil {
			b.Run(sh.name+"/products/"+paths[0], func(b *testing.B) {
				ok, restore := setPath(paths[0])
				defer restore()
				if !ok {
					b.Skip("no such path")
				}
				benchRowsOf(b, rows, flops, products)
			})
		}
		b.Run(sh.name+"/today", func(b *testing.B) { benchRowsOf(b, todayRows, flops, today) })
	}
}

// oneRows is the rows the one-row benchmark maps by N, one call each.
const oneRows = 1000

func splitComma(s string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(s); i++ {
		if i == len(s) || s[i] == ',' {
			if i > start {
				out = append(out, s[start:i])
			}
			start = i + 1
		}
	}
	return out
}

// benchRowsOf times f, which maps rows rows, and reports ns/row and
// GFLOP/s at flops per row of the wall time, and cpu-ns/row of the
// process's CPU time (user and system: on a loaded machine the wall time
// also counts the time other processes held the core).
func benchRowsOf(b *testing.B, rows int, flops float64, f func()) {
	b.ReportAllocs()
	c0 := cpuTime()
	for b.Loop() {
		f()
	}
	cpu := (cpuTime() - c0) / float64(b.N)
	s := b.Elapsed().Seconds() / float64(b.N)
	b.ReportMetric(s*1e9/float64(rows), "ns/row")
	b.ReportMetric(cpu*1e9/float64(rows), "cpu-ns/row")
	b.ReportMetric(flops*float64(rows)/s/1e9, "GFLOP/s")
}

// products is the Nyström NSlice's two products alone, called as NSlice
// calls them (the kernel values left as the first product gives them).
func (p *protoNys) products(dst, src []float64) {
	n, d := p.n, p.d
	rows := len(src) / n
	var kv [protoRows * protoCols]float64
	for i0 := 0; i0 < rows; i0 += protoRows {
		r := min(protoRows, rows-i0)
		for j0 := 0; j0 < p.m; j0 += protoCols {
			mb := min(protoCols, p.m-j0)
			featmapDenseMul64(kv[:], mb, src[i0*n:], n, p.lp[j0*n:], featmapDensePanel64*n, r, n, mb, false)
			featmapDenseMul64(dst[i0*d:], d, kv[:], mb, p.pp[j0*featmapDensePanel64:], featmapDensePanel64*p.m, r, mb, d, j0 > 0)
		}
	}
}
