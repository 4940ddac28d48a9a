package spec

import (
	"errors"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/homogeneous"
	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/registry"
)

// FuzzParseSpec checks that Parse never panics, that every error is a
// *SpecError for the file with a line (or a *SpecErrors of at most
// MaxSpecErrors such, the first one errors.As finds, one line each), that
// the errors are the same for the same input, and that every accepted spec is complete and
// consistent (defaults filled, one shape, values in range, the target
// dimension one the method can make).
func FuzzParseSpec(f *testing.F) {
	f.Add([]byte(lines(base...)))
	for _, tt := range malformed {
		f.Add([]byte(tt.src))
	}
	files, _ := filepath.Glob("testdata/specs/*.yaml")
	for _, dir := range []string{"../specs", "../testdata/specs", "../cmd/featmap/testdata/hostile"} {
		more, _ := filepath.Glob(dir + "/*.yaml")
		files = append(files, more...)
	}
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("version: 1\nname: R\nkernel: {type: rbf, sigma: [1, 2]}\ndomain: {dims: 2, interval: [[0, 1], [2, 3]]}\ncompare: {methods: [chum], dims: [1]}\n"))
	f.Add([]byte("version: 1\nname: L\nkernel: {type: rbf, sigma: 1}\ndomain: {dims: 2, interval: [0, 1]}\ntarget: {dim: 8}\nmethod: {name: rff}\ndata: {file: d.csv, label_column: 2, holdout: 0}\nlearn: {sigma: per-axis, ridge: auto}\n"))
	f.Add([]byte("version: 1\nname: K\nkernels:\n  - {type: skewed-chi2, sigma: 1, c: -0.5, columns: [0, 1]}\n  - {type: rbf, sigma: 1, columns: [2, 3]}\ndomain: {dims: 4, interval: [0, 1]}\nmethod: {name: rff-group-lasso, dim_per_kernel: 64}\ndata: {file: d.csv, columns: [0, 3], label_column: 4, holdout: 0.5}\n"))
	f.Add([]byte("version: 1\nname: A\nkernel: &k {type: chi2}\ndomain: {integers: [0, 9]}\ncompare: {methods: [chum, {name: li, k: [1]}, vz, *k], dims: [3, 1]}\n"))
	// Several errors at once, bad indentation, defaults spelled out in a
	// comparison, a key in the wrong case.
	f.Add([]byte("version: 1\nname: chi2\nkernal: {type: chi2}\ndomain: {integers: [0, 255], negativ: zero}\ntarget: {dimm: 7}\nmethod: {name: chumm, startz: 4}\ndata: {file: x.csv, colums: [0, 3]}\nlearn: {sigma: shard}\nemit: {tables: fastest}\n"))
	f.Add([]byte("version: 1\nname: X\nkernel:\n  type: rbf\n   sigma: 2\ndomain:\n  dims: 2\n interval: [0, 1]\ntarget: {dim: 3}\nmethod: {name: chum}\n"))
	f.Add([]byte("version: 1\nname: X\nkernel:\n    type: rbf\n  sigma: 2\ncompare:\n  methods:\n  - vz\n  -\n    name: li\n  dims:\n    - 3\n"))
	f.Add([]byte("version: 1\nname: H\nkernel: {type: rbf, sigma: 2}\ndomain: {dims: 2, interval: [0, 10]}\ncompare:\n  methods:\n    - {name: nystroem, n_landmarks: 64}\n    - {name: nystroem, n_landmarks: 64, seed: 1}\n    - {NAME: rff}\n    - {name: chum, polish: true, seed: 0}\n  dims: [4]\ndata: {file: d.csv}\n"))
	f.Add([]byte("version: 1\nname: L\nkernel: {type: laplacian, sigma: 2}\ndomain: {dims: 2, interval: [0, 10]}\ntarget: {dim: 3276}\nmethod: {name: rff, features: phase}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := Parse("fuzz.yaml", data)
		if err != nil {
			checkSpecError(t, err)
			if _, again := Parse("fuzz.yaml", data); again == nil || again.Error() != err.Error() {
				t.Fatalf("Parse's errors are not deterministic: %v, then %v", err, again)
			}
			return
		}
		checkSpec(t, s, data)
		again, err := Parse("fuzz.yaml", data)
		if err != nil || !reflect.DeepEqual(s, again) {
			t.Fatalf("Parse is not deterministic: %v", err)
		}
	})
}

func checkSpecError(t *testing.T, err error) {
	var se *SpecError
	if !errors.As(err, &se) {
		t.Fatalf("error %v is a %T, not a *SpecError", err, err)
	}
	list := []*SpecError{se}
	var many *SpecErrors
	if errors.As(err, &many) {
		list = many.Errors()
		if len(list) < 1 || len(list) > MaxSpecErrors || list[0] != se || many.More < 0 || len(list) == 1 && many.More == 0 {
			t.Fatalf("malformed SpecErrors (%d errors, %d more; the first %v): %s", len(list), many.More, se, err)
		}
		lines := len(list)
		if many.More > 0 {
			lines++
		}
		if n := strings.Count(err.Error(), "\n") + 1; n != lines {
			t.Fatalf("%d lines for %d errors: %s", n, len(list), err)
		}
	}
	for _, se := range list {
		if se.Path != "fuzz.yaml" || se.Line < 1 || se.Msg == "" || !strings.HasPrefix(se.Error(), "fuzz.yaml") {
			t.Fatalf("malformed SpecError %#v: %s", *se, err)
		}
	}
}

func finitePositive(v float64) bool { return v > 0 && !math.IsInf(v, 1) }

// checkSpec checks the invariants of an accepted spec.
func checkSpec(t *testing.T, s *Spec, data []byte) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Fatalf("accepted spec %s\n"+format, append([]any{dump(s)}, args...)...)
	}
	if s.Path != "fuzz.yaml" || s.Hash != hashOf(string(data)) || s.Version != 1 {
		fail("path, hash or version")
	}
	if !token.IsIdentifier(s.Name) || !token.IsExported(s.Name) {
		fail("name %q", s.Name)
	}
	p := s.Problem
	if err := p.Check(); err != nil {
		fail("problem: %v", err)
	}
	k, d := p.Kernel, p.Domain
	if d.Dims() > MaxInputs {
		fail("domain dims")
	}
	for i := range d.Lo {
		lo, hi := d.Lo[i], d.Hi[i]
		if d.Integer && (math.Abs(lo) > maxExactInteger || math.Abs(hi) > maxExactInteger) {
			fail("integer domain beyond 2^53")
		}
	}
	if d.Integer && d.Dims() != 1 {
		fail("integer domain with %d axes", d.Dims())
	}
	if k.Homogeneous() {
		if !finitePositive(k.Gamma) || k.Sigma != nil || (!d.Integer && d.Lo[0] == 0) {
			fail("homogeneous kernel")
		}
	} else if k.Gamma != 0 || p.Negative != "" {
		fail("rbf kernel")
	}
	var ms []MethodSpec
	switch {
	case s.Compare == nil && s.Target != nil && s.Method != nil:
		tg := s.Target
		switch {
		case tg.Dim > 0:
			if tg.MaxError != 0 || tg.MaxDim != 0 {
				fail("target with dim")
			}
			if ok, _ := s.CanMake(*s.Method, tg.Dim); !ok {
				fail("the method cannot make target.dim")
			}
		case finitePositive(tg.MaxError):
			if tg.MaxDim < 1 {
				fail("max_dim")
			}
			if ok, _ := s.CanMake(*s.Method, 1); !ok && s.Method.Name() == "li" {
				fail("li k with max_error")
			}
		default:
			fail("target")
		}
		ms = []MethodSpec{*s.Method}
	case s.Compare != nil && s.Target == nil && s.Method == nil:
		c := s.Compare
		if len(c.Methods) == 0 || len(c.Dims) == 0 {
			fail("empty comparison")
		}
		seen := map[int]bool{}
		for _, dim := range c.Dims {
			if dim < 1 || seen[dim] {
				fail("compare dims")
			}
			seen[dim] = true
		}
		ms = c.Methods
	case s.GroupLasso != nil && s.Compare == nil && s.Target == nil && s.Method != nil:
		// A kernels spec: its target and its method's map are made by
		// learning (Design), which ParseSpec does not do.
		gl := s.GroupLasso
		m, ok := s.Method.Method.(*learn.RFFGroupLasso)
		if !ok || m.Blocks != nil || s.Method.Line < 1 {
			fail("kernels spec method %v", s.Method)
		}
		if o := m.Opts; len(gl.Kernels) == 0 || o.DimPerKernel < 2 || o.DimPerKernel%2 != 0 || o.Lambda < 0 || o.Seed == 0 || s.Data == nil || s.Data.Label < 0 {
			fail("kernels spec")
		}
		for _, k := range gl.Kernels {
			a, b := k.Columns[0], k.Columns[1]
			n := b - a + 1
			if len(k.Kernel.Sigma) == 1 {
				n = 1 // one σ for every column of the group
			}
			if a < 0 || b < a || b > s.Data.Last-s.Data.First || k.Kernel.Check(n) != nil {
				fail("kernels spec kernel %+v", k)
			}
		}
	default:
		fail("shape")
	}
	for _, m := range ms {
		if m.IsAuto() {
			// method auto's stand-in: no registered method, no options.
			continue
		}
		switch {
		case registry.New(m.Name()) == nil:
			fail("method %q", m.Name())
		case m.Applies(p) != nil:
			fail("method %s for this kernel and domain", m.Name())
		case m.Line < 1:
			fail("method line")
		}
		if c, ok := m.Method.(design.OptionChecker); ok && c.CheckOptions(p) != nil {
			fail("method %s options: %v", m.Name(), c.CheckOptions(p))
		}
		if vz, ok := m.Method.(*homogeneous.VZ); ok && vz.Opts.Window == "" {
			fail("vz window default")
		}
		if li, ok := m.Method.(*homogeneous.Li); ok && li.Opts.Values != nil {
			fail("li values read by ParseSpec")
		}
	}
}
