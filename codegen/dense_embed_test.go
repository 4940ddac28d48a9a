package codegen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// denseNotEmitted are the files of internal/dense that stay there.
var denseNotEmitted = []string{"doc.go", "pack.go"}

// TestDenseEmbedded: the embedded files are every non-test file of
// internal/dense but doc.go and pack.go; every top-level name they declare
// is unexported and starts with featmapDense (the assembly's symbols
// too, its data file-local), they import only the standard library; and
// written into another package under gen's names, with that package's
// clause and the generated-code header, they pass go vet (asmdecl
// included) on amd64, arm64 and 386, and a test there runs a product and
// the cosines on this machine's path.
func TestDenseEmbedded(t *testing.T) {
	entries, err := os.ReadDir("internal/dense")
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, e := range entries {
		n := e.Name()
		if strings.HasSuffix(n, "_test.go") || slices.Contains(denseNotEmitted, n) || e.IsDir() {
			continue
		}
		want = append(want, n)
	}
	var got []string
	files, _ := denseSources.ReadDir("internal/dense")
	for _, f := range files {
		got = append(got, f.Name())
	}
	if !slices.Equal(got, want) {
		t.Fatalf("embedded %v, internal/dense has %v beside its tests, doc.go and pack.go", got, want)
	}

	dir := t.TempDir()
	write := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", []byte("module gentest\n\ngo 1.24\n"))
	clause := regexp.MustCompile(`(?m)^package dense$`)
	text := regexp.MustCompile(`(?m)^TEXT ·(\w+)\(SB\)`)
	data := regexp.MustCompile(`(?m)^(?:DATA|GLOBL)\s+(\w+)(<>)?`)
	for _, name := range got {
		b, err := denseSources.ReadFile("internal/dense/" + name)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".s") {
			for _, m := range text.FindAllStringSubmatch(string(b), -1) {
				if !strings.HasPrefix(m[1], "featmapDense") {
					t.Errorf("%s: TEXT %s", name, m[1])
				}
			}
			for _, m := range data.FindAllStringSubmatch(string(b), -1) {
				if m[2] != "<>" {
					t.Errorf("%s: data %s is not file-local", name, m[1])
				}
			}
		} else {
			fs := token.NewFileSet()
			f, err := parser.ParseFile(fs, name, b, parser.ImportsOnly|parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			for _, im := range f.Imports {
				if p := strings.Trim(im.Path.Value, `"`); strings.Contains(strings.Split(p, "/")[0], ".") {
					t.Errorf("%s imports %s", name, p)
				}
			}
			f, err = parser.ParseFile(fs, name, b, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				for _, n := range declNames(d) {
					if !strings.HasPrefix(n, "featmapDense") {
						t.Errorf("%s declares %s", name, n)
					}
				}
			}
			if !clause.Match(b) {
				t.Fatalf("%s: no package clause", name)
			}
		}
	}
	// Written as GenerateFiles returns them.
	for _, f := range DenseFiles("gentest", "test") {
		if !IsDenseFile(f.Name) {
			t.Errorf("IsDenseFile(%q) is false", f.Name)
		}
		write(f.Name, f.Data)
	}
	write("use_test.go", []byte(`package gentest

import (
	"math"
	"testing"
)

func TestUse(t *testing.T) {
	const m, k = 20, 3
	w := make([]float64, m*k)
	for i := range w {
		w[i] = float64(i%7) - 3
	}
	b := make([]float64, featmapDensePacked64(m, k))
	featmapDensePack64(b, w, m, k)
	a := []float64{1, 2, 3}
	c := make([]float64, m)
	featmapDenseMul64(c, m, a, k, b, featmapDensePanel64*k, 1, k, m, false)
	for j := range m {
		if want := w[j*k] + 2*w[j*k+1] + 3*w[j*k+2]; c[j] != want {
			t.Fatalf("c[%d] = %v, want %v", j, c[j], want)
		}
	}
	cs := make([]float64, 2*m)
	featmapDenseCosSin64(cs, c, 1)
	for j := range m {
		if math.Abs(cs[2*j]-math.Cos(c[j])) > 1e-15 || math.Abs(cs[2*j+1]-math.Sin(c[j])) > 1e-15 {
			t.Fatalf("cos, sin(%v) = %v, %v", c[j], cs[2*j], cs[2*j+1])
		}
	}
}
`))
	goCmd := goTool(t)
	run := func(env []string, args ...string) {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v go %v: %v\n%s", env, args, err, out)
		}
	}
	for _, arch := range []string{"amd64", "arm64", "386"} {
		run([]string{"GOARCH=" + arch, "GOFLAGS=-mod=mod -trimpath"}, "vet", ".")
	}
	run([]string{"GOFLAGS=-mod=mod -trimpath"}, "test", "-count=1", ".")
}

// declNames are the names a top-level declaration declares (methods
// aside: a method's name is its type's).
func declNames(d ast.Decl) []string {
	var out []string
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			out = append(out, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.ValueSpec:
				for _, n := range s.Names {
					out = append(out, n.Name)
				}
			case *ast.TypeSpec:
				out = append(out, s.Name.Name)
			}
		}
	}
	return out
}
