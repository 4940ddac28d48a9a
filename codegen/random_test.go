package codegen

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/fmap"
)

// sincosTest is the test file of TestSincosKernel's module: the emitted
// kernel against math.Sincos, math.Sin and math.Cos, bit for bit (within
// two ulps where the compiler may fuse multiply-adds, FEATMAP_ULPS=2), on
// random phases of every size, octant boundaries kπ/4 and the floats next
// to them, 2²⁹ and its neighbours, signed zeros, subnormals, NaN and ±Inf.
const sincosTest = `package gentest

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"
)

func ulps(a, b float64) float64 {
	if math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b)) {
		return 0
	}
	return math.Abs(a-b) / (math.Nextafter(math.Abs(b), math.Inf(1)) - math.Abs(b))
}

func TestKernel(t *testing.T) {
	allowed := 0.0
	if os.Getenv("FEATMAP_ULPS") != "" {
		allowed = 2
	}
	xs := []float64{0, math.Copysign(0, -1), 5e-324, -5e-324, 0x1p-1022, 1e-300, math.NaN(), math.Inf(1), math.Inf(-1),
		math.MaxFloat64, -math.MaxFloat64, 0x1p29, -0x1p29, math.Nextafter(0x1p29, 0), -math.Nextafter(0x1p29, 0), 1e9, 1e300}
	for k := -4000; k <= 4000; k++ {
		b := float64(k) * math.Pi / 4
		xs = append(xs, b, math.Nextafter(b, math.Inf(1)), math.Nextafter(b, math.Inf(-1)))
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 400000 {
		xs = append(xs, (2*r.Float64()-1)*math.Pow(10, 12*r.Float64()-4))
	}
	for _, x := range xs {
		s, c := kernel(x)
		ms, mc := math.Sincos(x)
		if ulps(s, ms) > allowed || ulps(c, mc) > allowed || ulps(s, math.Sin(x)) > allowed || ulps(c, math.Cos(x)) > allowed {
			t.Fatalf("kernel(%v) = %v, %v; math.Sincos %v, %v; math.Sin %v, math.Cos %v", x, s, c, ms, mc, math.Sin(x), math.Cos(x))
		}
	}
}
`

// TestSincosKernel builds the sine-cosine kernel of the random features in
// a temporary module and checks it against the standard library's.
func TestSincosKernel(t *testing.T) {
	e := &emitter{p: &plan{}}
	f := jen.NewFile("gentest")
	body := append(e.sincos("ph"), jen.Return(jen.Id("s"), jen.Id("c")))
	f.Func().Id("kernel").Params(jen.Id("ph").Float64()).Params(jen.Float64(), jen.Float64()).Block(body...)
	var src bytes.Buffer
	if err := f.Render(&src); err != nil {
		t.Fatal(err)
	}
	if e.lit.err != nil {
		t.Fatal(e.lit.err)
	}
	dir := writeModule(t, nil)
	for name, b := range map[string][]byte{"kernel.go": src.Bytes(), "kernel_test.go": []byte(sincosTest)} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// amd64 without FMA (GOAMD64=v1) rounds every operation as the
	// standard library's own build does: bit for bit. Elsewhere the
	// compiler may fuse multiply-adds differently in the two.
	env := []string{"GOAMD64=v1"}
	if runtime.GOARCH != "amd64" {
		env = append(env, "FEATMAP_ULPS=2")
	}
	goRun(t, dir, env, "test", "-count=1", "-run", "^TestKernel$", ".")
	if runtime.GOARCH == "amd64" {
		goRun(t, dir, []string{"GOAMD64=v3", "FEATMAP_ULPS=2"}, "test", "-count=1", "-run", "^TestKernel$", ".")
	}
}

// TestRandomPlan checks where a random map's constants go and the limit
// on its argument's length.
func TestRandomPlan(t *testing.T) {
	for _, c := range []struct {
		name string
		vm   fmap.Verified
		data bool
	}{
		{"ExpChi2", testmaps.ExpChi2(), false},
		{"RFFSkew", testmaps.RFFSkew(), false},
		{"RFF64", testmaps.RFF64(), true},
		{"RFFIntersect", testmaps.RFFIntersect(), true},
		// 64 frequencies of 64 inputs: 4096 constants, the most written
		// as literals; one more frequency goes to a data file.
		{"4096", testmaps.GaussianRFF(64, 64, 1, testmaps.RFF64().Verification), false},
		{"4160", testmaps.GaussianRFF(64, 65, 1, testmaps.RFF64().Verification), true},
	} {
		p, err := newPlan(c.vm, testInfo("N"))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if p.asRandom() == nil || (p.asRandom().df != nil) != c.data {
			t.Errorf("%s: random plan %+v, want data file %v", c.name, p.asRandom(), c.data)
			continue
		}
		if c.data && len(p.asRandom().df.blob) != 8*p.asRandom().constants() {
			t.Errorf("%s: data file of %d bytes for %d constants", c.name, len(p.asRandom().df.blob), p.asRandom().constants())
		}
	}
	big := testmaps.GaussianRFF(maxArgs+1, 1, 1, testmaps.RFF64().Verification)
	if _, err := newPlan(big, testInfo("N")); err == nil || !strings.Contains(err.Error(), "stack array") {
		t.Errorf("%d inputs: error %v, want one about the stack array", maxArgs+1, err)
	}
}

// TestRandomErrors checks the errors of the entry points for random maps
// and of pipelines the code generator does not emit.
func TestRandomErrors(t *testing.T) {
	withFile := func(name string) Info {
		info := testInfo("N")
		info.File = name
		return info
	}
	perCoord := testmaps.ExpChi2()
	perCoord.Map.Stages = perCoord.Map.Stages[:1]
	perCoord.Map.Dim = 12
	logAfter := testmaps.ExpChi2()
	logAfter.Map.Stages[1].Kind.(*fmap.Random).Transform = fmap.LogOffset
	for _, c := range []struct {
		name  string
		vm    fmap.Verified
		info  Info
		files bool // GenerateFiles, else Generate
		want  string
	}{
		{"Generate of a data-file map", testmaps.RFF64(), testInfo("RFF64"), false, "use GenerateFiles"},
		{"GenerateFiles without File", testmaps.ExpChi2(), withFile(""), true, "needs Info.File"},
		{"file in a directory", testmaps.ExpChi2(), withFile("a/b.go"), true, "base name"},
		{"file not .go", testmaps.ExpChi2(), withFile("n.txt"), true, "base name"},
		{"hidden file", testmaps.ExpChi2(), withFile(".n.go"), true, "base name"},
		{"test file", testmaps.ExpChi2(), withFile("n_test.go"), true, "test file"},
		{"per-coordinate alone", perCoord, testInfo("N"), false, "cannot emit"},
		{"log-offset after per-coordinate", logAfter, testInfo("N"), false, "cannot emit"},
		{"sincos local as name", testmaps.ExpChi2(), Info{Name: "zz", Package: "p", Version: "v", SpecPath: "s", SpecHash: "h"}, false, "collide"},
	} {
		var err error
		if c.files {
			_, err = GenerateFiles(c.vm, c.info)
		} else {
			_, err = Generate(c.vm, c.info)
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.want)
		}
	}
}

// TestRandomAllocFree builds the emitted random maps with the compiler's
// escape analysis on and checks that nothing of N, NF32 or their slices'
// loops is moved to the heap (the harness's TestAllocs measures the same
// at run time).
func TestRandomAllocFree(t *testing.T) {
	var ems []emitted
	for _, name := range []string{"RFF64", "RFFIntersect", "ExpChi2Li", "ExpChi21", "RFF1"} {
		for _, c := range testmaps.Cases() {
			if c.Name != name {
				continue
			}
			files := sharedFiles(t, c, Fast)
			ems = append(ems, emitted{Name: name, In: c.Map().Map.InDim, Src: files[0].Data, Extra: files[1:]})
		}
	}
	dir := writeModule(t, ems)
	out := goRun(t, dir, nil, "build", "-gcflags=-m", ".")
	for _, line := range strings.Split(out, "\n") {
		if denseFormat(t, dir, line) {
			continue // a dense kernel's panic message
		}
		if strings.Contains(line, "moved to heap") || (strings.Contains(line, "escapes to heap") && !strings.Contains(line, `"gentest: `)) {
			t.Errorf("escape analysis: %s", line)
		}
	}
	if !strings.Contains(out, "does not escape") {
		t.Errorf("go build -gcflags=-m printed no escape analysis:\n%s", out)
	}
}

// denseFormat reports whether a line of the compiler's -m output is the
// escape of an argument of a dense kernel file's panic message (a
// fmt.Sprintf of the slices' lengths, on the path that panics). The
// output names a file of the module as ./name, or gentest/name when goRun
// builds with -trimpath.
func denseFormat(t *testing.T, dir, line string) bool {
	name, rest, ok := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(line, "./"), "gentest/"), ":")
	if !ok || !IsDenseFile(name) || !strings.Contains(line, "escapes to heap") {
		return false
	}
	n, err := strconv.Atoi(strings.SplitN(rest, ":", 2)[0])
	if err != nil {
		return false
	}
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(b), "\n")
	return n >= 1 && n <= len(lines) && strings.Contains(lines[n-1], "panic(fmt.Sprintf(")
}
