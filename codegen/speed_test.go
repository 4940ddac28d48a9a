package codegen

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"text/template"
	"time"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/fmap"
)

// benchInputs returns 4096 inputs (flattened n-tuples) in the map's domain:
// integers for an integer domain, log-uniform over six decades below hi for
// a homogeneous map, uniform otherwise.
func benchInputs(p *plan) []float64 {
	m := p.m
	dom := p.inputDomain()
	r := rand.New(rand.NewPCG(7, 8))
	xs := make([]float64, 4096*p.in)
	for i := range xs {
		a := i % p.in
		lo, hi := dom.Lo[a], dom.Hi[a]
		switch {
		case dom.Integer:
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
		dst := make([]float64, p.dim)
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			for range b.N {
				for i := range n {
					fmap.RowFeatures(m, dst, xs[i*p.in:(i+1)*p.in])
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/input")
		})
	}
}

// rffBench is the benchmark file of the module of BenchmarkRFF64: for the
// emitted map (Name, its unexported prefix Priv, m frequencies of n
// inputs) it times (a) the emitted N, (b) a plain Go dense matrix–vector
// product with the same W and D math.Cos calls, and (c) one pass over W
// (the sum of its entries, four partial sums: the memory floor of any
// evaluation), each per input over 16 inputs in [0, 1]ⁿ.
var rffBench = template.Must(template.New("bench").Parse(`package gentest

import (
	"math"
	"math/rand/v2"
	"testing"
)

var benchX = func() (xs [16][{{.Name}}In]float64) {
	r := rand.New(rand.NewPCG(9, 9))
	for i := range xs {
		for j := range xs[i] {
			xs[i][j] = r.Float64()
		}
	}
	return xs
}()

var (
	benchOut [{{.Name}}Dim]float64
	benchSum float64
)

func BenchmarkEmitted(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		{{.Name}}(&benchOut, &benchX[i%16])
	}
}

// plain is the dense product Wx in the obvious loop, then D math.Cos calls
// (the sine as a cosine shifted by π/2).
func plain(out []float64, w []float64, x []float64) {
	const m, n = {{.M}}, {{.N}}
	a := math.Sqrt(1 / float64(m))
	for i := 0; i < m; i++ {
		s := 0.0
		for j, v := range w[i*n : (i+1)*n] {
			s += v * x[j]
		}
		out[2*i] = a * math.Cos(s)
		out[2*i+1] = a * math.Cos(s-math.Pi/2)
	}
}

func BenchmarkPlain(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		plain(benchOut[:], {{.Priv}}W[:], benchX[i%16][:])
	}
}

func pass(w []float64) float64 {
	var s0, s1, s2, s3 float64
	for j := 0; j <= len(w)-4; j += 4 {
		s0 += w[j]
		s1 += w[j+1]
		s2 += w[j+2]
		s3 += w[j+3]
	}
	return (s0 + s1) + (s2 + s3)
}

func BenchmarkPass(b *testing.B) {
	for b.Loop() {
		benchSum += pass({{.Priv}}W[:])
	}
}
`))

// rffBenchResult is what BenchmarkRFF64 measured, in ns per input.
var rffBenchResult struct {
	once                  sync.Once
	emitted, plain, floor float64
	err                   error
}

// BenchmarkRFF64 builds the emitted RFF64 (n = 64, D = 1024, cos-sin) in a
// temporary module with the harness machinery and runs, in one go test
// -bench there, the emitted RFF64, a plain Go dense mat-vec with D
// math.Cos calls, and one pass over W. It reports their medians over five
// runs (ns/input) and the ratios; its own ns/op is the build and run, not
// a measurement. go test -run '^$' -bench RFF64 ./codegen
func BenchmarkRFF64(b *testing.B) {
	r := &rffBenchResult
	r.once.Do(func() { r.emitted, r.plain, r.floor, r.err = runRFFBench(b) })
	if r.err != nil {
		b.Fatal(r.err)
	}
	for b.Loop() {
	}
	b.ReportMetric(r.emitted, "emitted-ns/input")
	b.ReportMetric(r.plain, "plain-ns/input")
	b.ReportMetric(r.floor, "pass-ns/input")
	b.ReportMetric(r.emitted/r.plain, "emitted/plain")
	b.ReportMetric(r.emitted/r.floor, "emitted/pass")
}

func runRFFBench(b *testing.B) (emit, plain, floor float64, err error) {
	vm := testmaps.RFF64()
	info := testInfo("RFF64")
	files, err := GenerateFiles(vm, info)
	if err != nil {
		return 0, 0, 0, err
	}
	p, err := newPlan(vm, info)
	if err != nil {
		return 0, 0, 0, err
	}
	dir := writeModule(b, []emitted{{Name: "RFF64", In: 64, Src: files[0].Data, Extra: files[1:]}})
	var src bytes.Buffer
	if err := rffBench.Execute(&src, map[string]any{"Name": "RFF64", "Priv": p.priv, "M": p.asRandom().freqs, "N": p.asRandom().args}); err != nil {
		return 0, 0, 0, err
	}
	if err := os.WriteFile(filepath.Join(dir, "bench_test.go"), src.Bytes(), 0o644); err != nil {
		return 0, 0, 0, err
	}
	out := goRun(b, dir, nil, "test", "-run", "^$", "-bench", ".", "-count", "5")
	ns, err := benchMedians(out)
	if err != nil {
		return 0, 0, 0, err
	}
	b.Logf("go test -bench in the emitted module:\n%s", out)
	return ns["Emitted"], ns["Plain"], ns["Pass"], nil
}

// BenchmarkRFFBuild reports, for Gaussian random features of n = 64 inputs
// with D = 1024 and D = 4096 (GaussianRFF, verified with fmap.Verify), the
// size of the emitted Go file and of its data file and the time go build
// takes to compile the package (the median of three builds, each in a new
// temporary module so that nothing comes from the build cache). Its own
// ns/op is not a measurement. go test -run '^$' -bench RFFBuild ./codegen
func BenchmarkRFFBuild(b *testing.B) {
	for _, m := range []int{512, 2048} {
		b.Run(fmt.Sprintf("n=64,D=%d", 2*m), func(b *testing.B) {
			vm := testmaps.GaussianRFF(64, m, 64, nil)
			p := &fmap.Problem{Kernel: vm.Map.Kernel, Domain: vm.Map.Domain, Measure: fmap.Absolute, Norm: fmap.LInf}
			ref, err := p.Reference()
			if err != nil {
				b.Fatal(err)
			}
			v := fmap.Verify(vm.Map, ref)
			vm.Verification = &v
			name := fmt.Sprintf("RBF64D%d", 2*m)
			info := testInfo(name)
			start := time.Now()
			files, err := GenerateFiles(vm, info)
			if err != nil {
				b.Fatal(err)
			}
			gen := time.Since(start)
			var times []float64
			for range 3 {
				dir := writeModule(b, []emitted{{Name: name, In: 64, Src: files[0].Data, Extra: files[1:]}})
				start := time.Now()
				goRun(b, dir, nil, "build", ".")
				times = append(times, time.Since(start).Seconds())
			}
			slices.Sort(times)
			for b.Loop() {
			}
			b.ReportMetric(float64(len(files[0].Data)), "go-bytes")
			if len(files) > 1 {
				b.ReportMetric(float64(len(files[1].Data)), "bin-bytes")
			}
			b.ReportMetric(times[1], "build-s")
			b.ReportMetric(gen.Seconds(), "generate-s")
		})
	}
}

// benchMedians reads the output of go test -bench and returns, per
// benchmark name (without "Benchmark" and the -N suffix), the median of
// its ns/op over the runs; a name without runs is absent.
func benchMedians(out string) (map[string]float64, error) {
	ns := map[string][]float64{}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) >= 4 && f[3] == "ns/op" && strings.HasPrefix(f[0], "Benchmark") {
			name, _, _ := strings.Cut(strings.TrimPrefix(f[0], "Benchmark"), "-")
			v, err := strconv.ParseFloat(f[2], 64)
			if err != nil {
				return nil, err
			}
			ns[name] = append(ns[name], v)
		}
	}
	med := map[string]float64{}
	for name, v := range ns {
		slices.Sort(v)
		med[name] = v[len(v)/2]
	}
	return med, nil
}
