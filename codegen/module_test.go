package codegen

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"text/template"
)

// emitted is one generated map written into the test module: its Go
// source (written as <lower-case name>.go) and any data file it embeds.
type emitted struct {
	Name  string
	In    int
	Src   []byte
	Extra []File
	// Classes and Regression say which predictor of a map with a model
	// the harness calls: NScores and NClass, or NScore.
	Classes, Regression bool
}

// goTool returns the go command of the running toolchain, or skips.
func goTool(t testing.TB) string {
	t.Helper()
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	p, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build the emitted code with")
	}
	return p
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// writeModule creates a temporary module "gentest" holding the emitted
// files and the harness, and returns its directory.
func writeModule(t testing.TB, maps []emitted) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string][]byte{"go.mod": []byte("module gentest\n\ngo 1.24\n")}
	for _, m := range maps {
		files[strings.ToLower(m.Name)+".go"] = m.Src
		for _, x := range m.Extra {
			files[x.Name] = x.Data
		}
	}
	var h bytes.Buffer
	if err := harness.Execute(&h, maps); err != nil {
		t.Fatal(err)
	}
	files["harness_test.go"] = h.Bytes()
	for name, b := range files {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// goRun runs the go command in dir with env added and fails the test with
// its output if it fails.
func goRun(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(goTool(t), args...)
	cmd.Dir = dir
	// The caller's GOFLAGS go on (GOARCH=arm64 GOFLAGS=-exec=qemu-aarch64
	// runs these tests as arm64 under qemu).
	cmd.Env = append(os.Environ(), "GOTOOLCHAIN=local", "GOWORK=off", strings.TrimSpace("GOFLAGS=-buildvcs=false -trimpath "+os.Getenv("GOFLAGS")))
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func writeF64(t testing.TB, path string, v []float64) {
	t.Helper()
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func readF64(t *testing.T, path string) []float64 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v := make([]float64, len(b)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v
}

func readF32(t *testing.T, path string) []float32 {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v := make([]float32, len(b)/4)
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
	return v
}

// harness is the test file of the module. TestDump evaluates every map
// with all four functions on $FEATMAP_DUMP/<name>.in (float64 inputs, the
// float32 functions on the inputs rounded to float32) and writes the
// results; TestAllocs checks that no function allocates, on the first
// $FEATMAP_ALLOC_INPUTS inputs (the edge cases) and a sample of the rest;
// TestSlicePanics checks the length checks.
var harness = template.Must(template.New("harness").Parse(`package gentest

import (
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

type entry struct {
	name    string
	dim, in int
	f64     func(out, x []float64)
	f32     func(out []float32, x []float32)
	slice64 func(dst, src []float64)
	slice32 func(dst, src []float32)
	// k, scores and class are the predictor of a map with a model (k
	// scores; class nil for regression), nil otherwise.
	k      int
	scores func(out, x []float64)
	class  func(x []float64) float64
}

var entries = []entry{
{{- range .}}
	{
		name: "{{.Name}}", dim: {{.Name}}Dim, in: {{.In}},
{{- if eq .In 1}}
		f64: func(out, x []float64) { {{.Name}}((*[{{.Name}}Dim]float64)(out), x[0]) },
		f32: func(out []float32, x []float32) { {{.Name}}F32((*[{{.Name}}Dim]float32)(out), x[0]) },
{{- else}}
		f64: func(out, x []float64) { {{.Name}}((*[{{.Name}}Dim]float64)(out), (*[{{.Name}}In]float64)(x)) },
		f32: func(out []float32, x []float32) { {{.Name}}F32((*[{{.Name}}Dim]float32)(out), (*[{{.Name}}In]float32)(x)) },
{{- end}}
		slice64: {{.Name}}Slice, slice32: {{.Name}}SliceF32,
{{- if .Classes}}
		k: {{.Name}}Classes,
		scores: func(out, x []float64) { {{.Name}}Scores((*[{{.Name}}Classes]float64)(out), {{if eq .In 1}}x[0]{{else}}(*[{{.Name}}In]float64)(x){{end}}) },
		class: func(x []float64) float64 { return {{.Name}}Class({{if eq .In 1}}x[0]{{else}}(*[{{.Name}}In]float64)(x){{end}}) },
{{- else if .Regression}}
		k: 1,
		scores: func(out, x []float64) { out[0] = {{.Name}}Score({{if eq .In 1}}x[0]{{else}}(*[{{.Name}}In]float64)(x){{end}}) },
{{- end}}
	},
{{- end}}
}

func dumpDir(t *testing.T) string {
	dir := os.Getenv("FEATMAP_DUMP")
	if dir == "" {
		t.Skip("FEATMAP_DUMP is not set")
	}
	return dir
}

func read(t *testing.T, path string) []float64 {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	v := make([]float64, len(b)/8)
	for i := range v {
		v[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return v
}

func write64(t *testing.T, path string, v []float64) {
	b := make([]byte, 8*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func write32(t *testing.T, path string, v []float32) {
	b := make([]byte, 4*len(v))
	for i, x := range v {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func to32(v []float64) []float32 {
	w := make([]float32, len(v))
	for i, x := range v {
		w[i] = float32(x)
	}
	return w
}

func TestDump(t *testing.T) {
	dir := dumpDir(t)
	for _, e := range entries {
		src := read(t, filepath.Join(dir, e.name+".in"))
		n := len(src) / e.in
		out := make([]float64, n*e.dim)
		for i := range n {
			e.f64(out[i*e.dim:(i+1)*e.dim], src[i*e.in:(i+1)*e.in])
		}
		write64(t, filepath.Join(dir, e.name+".out64"), out)
		sl := make([]float64, n*e.dim)
		e.slice64(sl, src)
		write64(t, filepath.Join(dir, e.name+".slice64"), sl)

		src32 := to32(src)
		out32 := make([]float32, n*e.dim)
		for i := range n {
			e.f32(out32[i*e.dim:(i+1)*e.dim], src32[i*e.in:(i+1)*e.in])
		}
		write32(t, filepath.Join(dir, e.name+".out32"), out32)
		sl32 := make([]float32, n*e.dim)
		e.slice32(sl32, src32)
		write32(t, filepath.Join(dir, e.name+".slice32"), sl32)
		if e.scores == nil {
			continue
		}
		sc := make([]float64, n*e.k)
		cl := make([]float64, n)
		for i := range n {
			e.scores(sc[i*e.k:(i+1)*e.k], src[i*e.in:(i+1)*e.in])
			if e.class != nil {
				cl[i] = e.class(src[i*e.in : (i+1)*e.in])
			}
		}
		write64(t, filepath.Join(dir, e.name+".scores"), sc)
		write64(t, filepath.Join(dir, e.name+".class"), cl)
	}
}

func TestAllocs(t *testing.T) {
	dir := dumpDir(t)
	edges, _ := strconv.Atoi(os.Getenv("FEATMAP_ALLOC_INPUTS"))
	for _, e := range entries {
		src := read(t, filepath.Join(dir, e.name+".in"))
		n := len(src) / e.in
		out := make([]float64, e.dim)
		out32 := make([]float32, e.dim)
		for i := 0; i < n; i++ {
			if i >= edges {
				i += n / 50
				if i >= n {
					break
				}
			}
			x := src[i*e.in : (i+1)*e.in]
			x32 := to32(x)
			if a := testing.AllocsPerRun(5, func() { e.f64(out, x) }); a != 0 {
				t.Errorf("%s(%v) allocates %v times", e.name, x, a)
			}
			if a := testing.AllocsPerRun(5, func() { e.f32(out32, x32) }); a != 0 {
				t.Errorf("%sF32(%v) allocates %v times", e.name, x32, a)
			}
			if e.scores != nil {
				sc := make([]float64, e.k)
				if a := testing.AllocsPerRun(5, func() { e.scores(sc, x) }); a != 0 {
					t.Errorf("%s's scores at %v allocate %v times", e.name, x, a)
				}
			}
			if e.class != nil {
				if a := testing.AllocsPerRun(5, func() { e.class(x) }); a != 0 {
					t.Errorf("%sClass(%v) allocates %v times", e.name, x, a)
				}
			}
		}
		dst := make([]float64, n*e.dim)
		dst32 := make([]float32, n*e.dim)
		src32 := to32(src)
		if a := testing.AllocsPerRun(2, func() { e.slice64(dst, src) }); a != 0 {
			t.Errorf("%sSlice allocates %v times", e.name, a)
		}
		if a := testing.AllocsPerRun(2, func() { e.slice32(dst32, src32) }); a != 0 {
			t.Errorf("%sSliceF32 allocates %v times", e.name, a)
		}
	}
}

func mustPanic(t *testing.T, what string, f func()) {
	defer func() {
		if recover() == nil {
			t.Errorf("%s does not panic", what)
		}
	}()
	f()
}

func TestSlicePanics(t *testing.T) {
	for _, e := range entries {
		src := make([]float64, 3*e.in)
		mustPanic(t, e.name+"Slice with a short dst", func() { e.slice64(make([]float64, 3*e.dim-1), src) })
		mustPanic(t, e.name+"Slice with a long dst", func() { e.slice64(make([]float64, 3*e.dim+1), src) })
		mustPanic(t, e.name+"SliceF32 with a short dst", func() { e.slice32(make([]float32, 3*e.dim-1), to32(src)) })
		if e.in > 1 {
			mustPanic(t, e.name+"Slice with a partial tuple", func() { e.slice64(make([]float64, 3*e.dim), src[:len(src)-1]) })
			mustPanic(t, e.name+"SliceF32 with a partial tuple", func() { e.slice32(make([]float32, 3*e.dim), to32(src[:len(src)-1])) })
		}
		e.slice64(nil, nil) // empty input: no panic
		e.slice32(nil, nil)
	}
}
`))
