package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/homogeneous"
	"github.com/featmap/featmap/registry"
)

// lines joins spec lines with newlines, so that a test reads line numbers
// off the argument list: the i-th argument is line i.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// hashOf is the expected Spec.Hash of src.
func hashOf(src string) string {
	sum := sha256.Sum256([]byte(src))
	return hex.EncodeToString(sum[:])
}

// chi2U8 is the kernel and domain of Chum's Table 1 with every default.
func chi2U8(s *Spec) {
	s.Version = 1
	s.Problem = &fmap.Problem{
		Kernel:  fmap.Kernel{Type: fmap.Chi2, Gamma: 1},
		Domain:  fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}},
		Measure: fmap.Absolute, Norm: fmap.LInf, Negative: fmap.NegativeSign,
	}
}

// problem is a spec's problem with its fields, for the expectations.
func problem(k fmap.Kernel, d fmap.Domain, measure fmap.Measure, norm fmap.Norm, neg fmap.Negative) *fmap.Problem {
	return &fmap.Problem{Kernel: k, Domain: d, Measure: measure, Norm: norm, Negative: neg}
}

// off is a false switch option.
func off() *bool { return new(bool) }

func TestParseSpecValid(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want func(s *Spec) // fills the expected spec (Path and Hash are added)
	}{
		{
			name: "table1 block style, every default",
			src: lines(
				"# Chum's Table 1, chi2 7D",
				"version: 1",
				"name: Chi2U8D7",
				"kernel:",
				"  type: chi2",
				"domain:",
				"  integers: [0, 255]",
				"target:",
				"  dim: 7",
				"method:",
				"  name: chum",
			),
			want: func(s *Spec) {
				chi2U8(s)
				s.Name = "Chi2U8D7"
				s.Target = &TargetSpec{Dim: 7}
				s.Method = &MethodSpec{Method: &chum.Chum{}, Line: 10}
			},
		},
		{
			name: "every chum option, every section written out",
			src: lines(
				"version: 1",
				"name: JsU8",
				"kernel: {type: js, gamma: 2}", // a YAML int for a float field
				"domain: {dims: 1, integers: [0, 255], negative: zero}",
				"error: {norm: l1, weight: relative}",
				"target: {dim: 5}",
				"method:",
				"  name: chum",
				"  omega_max: 6.5",
				"  spacing: 0.05",
				"  z_points: 501",
				"  refine_iterations: 4",
				"  polish: false",
				"  starts: 3",
				"  seed: -42",
			),
			want: func(s *Spec) {
				s.Version = 1
				s.Name = "JsU8"
				s.Problem = problem(fmap.Kernel{Type: fmap.JS, Gamma: 2}, fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}},
					fmap.Relative, fmap.L1, fmap.NegativeZero)
				s.Target = &TargetSpec{Dim: 5}
				s.Method = &MethodSpec{Method: &chum.Chum{Opts: chum.ChumOptions{
					OmegaMax: 6.5, Spacing: 0.05, ZPoints: 501,
					FitOptions: chum.FitOptions{RefineIterations: 4, Polish: off(), Starts: 3, Seed: -42},
				}}, Line: 7}
			},
		},
		{
			name: "rbf with max_error: sigma broadcast, uniform weight, no gamma or negative",
			src: lines(
				"version: 1",
				"name: RBF03",
				"kernel: {type: rbf, sigma: 0.3}",
				"domain: {interval: [0, 3.141592653589793]}",
				"target: {max_error: 1e-3, max_dim: 21}",
				"method: {name: harmonic}",
			),
			want: func(s *Spec) {
				s.Version = 1
				s.Name = "RBF03"
				s.Problem = problem(fmap.Kernel{Type: fmap.RBF, Sigma: []float64{0.3}}, fmap.Domain{Lo: []float64{0}, Hi: []float64{3.141592653589793}},
					fmap.Uniform, fmap.LInf, "")
				s.Target = &TargetSpec{MaxError: 1e-3, MaxDim: 21}
				s.Method = &MethodSpec{Method: chum.Harmonic{}, Line: 6}
			},
		},
		{
			name: "max_error defaults max_dim; rbf on integers with negative inputs",
			src: lines(
				"version: 1",
				"name: RBFInt",
				"kernel: {type: rbf, sigma: [2]}",
				"domain: {integers: [-8, 8]}",
				"error: {weight: absolute}",
				"target: {max_error: 0.01}",
				"method: {name: chum, polish: true}",
			),
			want: func(s *Spec) {
				s.Version = 1
				s.Name = "RBFInt"
				s.Problem = problem(fmap.Kernel{Type: fmap.RBF, Sigma: []float64{2}}, fmap.Domain{Integer: true, Lo: []float64{-8}, Hi: []float64{8}},
					fmap.Absolute, fmap.LInf, "")
				s.Target = &TargetSpec{MaxError: 0.01, MaxDim: DefaultMaxDim}
				yes := true
				s.Method = &MethodSpec{Method: &chum.Chum{Opts: chum.ChumOptions{FitOptions: chum.FitOptions{Polish: &yes}}}, Line: 7}
			},
		},
		{
			name: "vz with options on an interval, hellinger-free odd dim",
			src: lines(
				"version: 1",
				"name: IntersectionVZ",
				"kernel: {type: intersection, gamma: 0.5}",
				"domain: {interval: [1e-6, 1]}",
				"target: {dim: 7}",
				"method: {name: vz, period: 0.7, window: uniform}",
			),
			want: func(s *Spec) {
				s.Version = 1
				s.Name = "IntersectionVZ"
				s.Problem = problem(fmap.Kernel{Type: fmap.Intersection, Gamma: 0.5}, fmap.Domain{Lo: []float64{1e-6}, Hi: []float64{1}},
					fmap.Absolute, fmap.LInf, fmap.NegativeSign)
				s.Target = &TargetSpec{Dim: 7}
				s.Method = &MethodSpec{Method: &homogeneous.VZ{Opts: homogeneous.VZOptions{Period: 0.7, Window: homogeneous.Uniform}}, Line: 6}
			},
		},
		{
			name: "vz window default, hellinger dim 1",
			src: lines(
				"version: 1",
				"name: Hellinger",
				"kernel: {type: hellinger}",
				"domain: {integers: [0, 1]}",
				"target: {dim: 1}",
				"method: {name: vz}",
			),
			want: func(s *Spec) {
				chi2U8(s)
				s.Name = "Hellinger"
				s.Problem.Kernel.Type = fmap.Hellinger
				s.Problem.Domain.Hi = []float64{1}
				s.Target = &TargetSpec{Dim: 1}
				s.Method = &MethodSpec{Method: &homogeneous.VZ{Opts: homogeneous.VZOptions{Window: homogeneous.Rectangular}}, Line: 6}
			},
		},
		{
			name: "li with explicit k, chebyshev-compatible kernel",
			src: lines(
				"version: 1",
				"name: Chi2Li",
				"kernel: {type: chi2, gamma: 1.0}",
				"domain: {integers: [0, 255]}",
				"target: {dim: 3}",
				"method: {name: li, k: [0.1, 1, 10]}",
			),
			want: func(s *Spec) {
				chi2U8(s)
				s.Name = "Chi2Li"
				s.Target = &TargetSpec{Dim: 3}
				s.Method = &MethodSpec{Method: &homogeneous.Li{Opts: homogeneous.LiOptions{K: []float64{0.1, 1, 10}}}, Line: 6}
			},
		},
		{
			name: "li with data: ParseSpec keeps the name and reads nothing",
			src: lines(
				"version: 1",
				"name: Chi2LiData",
				"kernel: {type: chi2}",
				"domain: {integers: [0, 255]}",
				"target: {dim: 5}",
				"method:",
				"  name: li",
				"  bins: 20",
				"  data: no/such/file.txt",
			),
			want: func(s *Spec) {
				chi2U8(s)
				s.Name = "Chi2LiData"
				s.Target = &TargetSpec{Dim: 5}
				s.Method = &MethodSpec{Method: &homogeneous.Li{Opts: homogeneous.LiOptions{Bins: 20, Data: "no/such/file.txt"}}, Line: 6}
			},
		},
		{
			name: "chebyshev",
			src: lines(
				"version: 1",
				"name: Chi2Cheb",
				"kernel: {type: chi2}",
				"domain: {integers: [0, 255]}",
				"target: {dim: 4}",
				"method: {name: chebyshev}",
			),
			want: func(s *Spec) {
				chi2U8(s)
				s.Name = "Chi2Cheb"
				s.Target = &TargetSpec{Dim: 4}
				s.Method = &MethodSpec{Method: homogeneous.Chebyshev{}, Line: 6}
			},
		},
		{
			name: "compare: bare names and mappings, dims kept in order",
			src: lines(
				"version: 1",
				"name: CompareChi2U8",
				"kernel: {type: chi2}",
				"domain: {integers: [0, 255]}",
				"compare:",
				"  methods:",
				"    - chum",
				"    - vz",
				"    - {name: vz, window: uniform}",
				"    - name: li",
				"      k: [1, 2, 3]",
				"    - chebyshev",
				"  dims: [11, 3, 5]",
			),
			want: func(s *Spec) {
				chi2U8(s)
				s.Name = "CompareChi2U8"
				s.Compare = &CompareSpec{
					Methods: []MethodSpec{
						{Method: &chum.Chum{}, Line: 7},
						{Method: &homogeneous.VZ{Opts: homogeneous.VZOptions{Window: homogeneous.Rectangular}}, Line: 8},
						{Method: &homogeneous.VZ{Opts: homogeneous.VZOptions{Window: homogeneous.Uniform}}, Line: 9},
						// k has 3 values while dims has 11 and 5: n/a in the report, not an error.
						{Method: &homogeneous.Li{Opts: homogeneous.LiOptions{K: []float64{1, 2, 3}}}, Line: 10},
						{Method: homogeneous.Chebyshev{}, Line: 12},
					},
					Dims: []int{11, 3, 5},
				}
			},
		},
		{
			name: "compare: dimension constraints are n/a, not errors",
			src: lines(
				"version: 1",
				"name: CompareHellinger",
				"kernel: {type: hellinger}",
				"domain: {interval: [0.01, 1]}",
				"compare: {methods: [harmonic, vz], dims: [2, 4]}",
			),
			want: func(s *Spec) {
				s.Version = 1
				s.Name = "CompareHellinger"
				s.Problem = problem(fmap.Kernel{Type: fmap.Hellinger, Gamma: 1}, fmap.Domain{Lo: []float64{0.01}, Hi: []float64{1}},
					fmap.Absolute, fmap.LInf, fmap.NegativeSign)
				s.Compare = &CompareSpec{
					Methods: []MethodSpec{{Method: chum.Harmonic{}, Line: 5}, {Method: &homogeneous.VZ{Opts: homogeneous.VZOptions{Window: homogeneous.Rectangular}}, Line: 5}},
					Dims:    []int{2, 4},
				}
			},
		},
		{
			name: "anchors and aliases, hex integers, document markers",
			src: lines(
				"---",
				"version: 1",
				"name: Aliased",
				"kernel: {type: chi2, gamma: &g 1}",
				"domain: {integers: [0, 0xff]}",
				"target: {dim: 7}",
				"method: &m {name: chum, seed: *g}",
				"...",
			),
			want: func(s *Spec) {
				chi2U8(s)
				s.Name = "Aliased"
				s.Target = &TargetSpec{Dim: 7}
				s.Method = &MethodSpec{Method: &chum.Chum{Opts: chum.ChumOptions{FitOptions: chum.FitOptions{Seed: 1}}}, Line: 7}
			},
		},
		{
			name: "emit tables small",
			src: lines(
				"version: 1",
				"name: Chi2U8D7",
				"kernel: {type: chi2}",
				"domain: {integers: [0, 255]}",
				"target: {dim: 7}",
				"method: {name: chum}",
				"emit:",
				"  tables: small",
			),
			want: func(s *Spec) {
				chi2U8(s)
				s.Name = "Chi2U8D7"
				s.Target = &TargetSpec{Dim: 7}
				s.Method = &MethodSpec{Method: &chum.Chum{}, Line: 6}
				s.Emit = EmitSpec{Tables: "small", Line: 7}
			},
		},
		{
			name: "emit without tables is fast",
			src: lines(
				"version: 1",
				"name: Chi2U8D7",
				"kernel: {type: chi2}",
				"domain: {integers: [0, 255]}",
				"target: {dim: 7}",
				"method: {name: chum}",
				"emit: {}",
			),
			want: func(s *Spec) {
				chi2U8(s)
				s.Name = "Chi2U8D7"
				s.Target = &TargetSpec{Dim: 7}
				s.Method = &MethodSpec{Method: &chum.Chum{}, Line: 6}
				s.Emit = EmitSpec{Tables: "fast", Line: 7}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("specs/x.yaml", []byte(tt.src))
			if err != nil {
				t.Fatalf("ParseSpec: %v", err)
			}
			want := &Spec{Path: "specs/x.yaml", Hash: hashOf(tt.src), Emit: EmitSpec{Tables: "fast"}}
			tt.want(want)
			if !reflect.DeepEqual(view(got), view(want)) {
				t.Errorf("ParseSpec\n got %s\nwant %s", dump(got), dump(want))
			}
		})
	}
}

// view returns a copy of s without what the expectations do not state
// (where each method's keys are).
func view(s *Spec) Spec {
	v := *s
	strip := func(m MethodSpec) MethodSpec { m.field, m.keys = "", nil; return m }
	if s.Target != nil {
		t := *s.Target
		t.line = 0
		v.Target = &t
	}
	if s.Method != nil {
		m := strip(*s.Method)
		v.Method = &m
	}
	if s.Compare != nil {
		c := *s.Compare
		c.Methods = nil
		for _, m := range s.Compare.Methods {
			c.Methods = append(c.Methods, strip(m))
		}
		v.Compare = &c
	}
	return v
}

// dump prints a spec with its pointers followed.
func dump(s *Spec) string {
	if s == nil {
		return "<nil>"
	}
	c := *s
	c.Problem, c.Target, c.Method, c.Compare = nil, nil, nil, nil
	out := fmt.Sprintf("%+v", c)
	if p := s.Problem; p != nil {
		out += fmt.Sprintf(" Problem:{%+v %+v %s %s %q}", p.Kernel, p.Domain, p.Measure, p.Norm, p.Negative)
	}
	if s.Target != nil {
		out += fmt.Sprintf(" Target:%+v", *s.Target)
	}
	method := func(m MethodSpec) string {
		js, _ := json.Marshal(m.Options())
		return fmt.Sprintf("{%s %s line %d}", m.Name(), js, m.Line)
	}
	if s.Method != nil {
		out += " Method:" + method(*s.Method)
	}
	if s.Compare != nil {
		out += " Compare:{"
		for _, m := range s.Compare.Methods {
			out += method(m) + " "
		}
		out += fmt.Sprintf("dims %v}", s.Compare.Dims)
	}
	return out
}

// TestSpecErrorFormat checks the shape of SpecError messages and that the
// errors ParseSpec returns are *SpecError values with the same parts.
func TestSpecErrorFormat(t *testing.T) {
	for _, tt := range []struct {
		err  SpecError
		want string
	}{
		{SpecError{Path: "specs/x.yaml", Line: 7, Field: "domain.interval", Msg: "lo must be < hi"}, "specs/x.yaml:7: domain.interval: lo must be < hi"},
		{SpecError{Path: "specs/x.yaml", Line: 3, Msg: "invalid YAML: oops"}, "specs/x.yaml:3: invalid YAML: oops"},
		{SpecError{Path: "specs/x.yaml", Msg: "invalid YAML: oops"}, "specs/x.yaml: invalid YAML: oops"},
		{SpecError{Line: 1, Field: "name", Msg: "bad"}, "<spec>:1: name: bad"},
	} {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
	src := lines(
		"version: 1",
		"name: X",
		"kernel: {type: chi2}",
		"domain:",
		"  integers: [0, 255]",
		"  interval: [1, 0]",
	)
	_, err := Parse("specs/x.yaml", []byte(src))
	var se *SpecError
	if !errors.As(err, &se) {
		t.Fatalf("ParseSpec error %v (%T) is not a *SpecError", err, err)
	}
	want := SpecError{Path: "specs/x.yaml", Line: 6, Field: "domain.interval", Msg: "conflicts with domain.integers (line 5): give exactly one"}
	if *se != want {
		t.Errorf("ParseSpec error = %#v, want %#v", *se, want)
	}
}

// base is a valid spec; malformed specs below change one line of it.
var base = []string{
	"version: 1",                   // 1
	"name: Chi2U8D7",               // 2
	"kernel: {type: chi2}",         // 3
	"domain: {integers: [0, 255]}", // 4
	"target: {dim: 7}",             // 5
	"method: {name: chum}",         // 6
}

// edit returns base with lines i..j (1-based, inclusive) replaced by repl
// (any number of lines, none to drop them).
func edit(i, j int, repl ...string) string {
	ls := append([]string(nil), base[:i-1]...)
	ls = append(ls, repl...)
	return lines(append(ls, base[j:]...)...)
}

// with returns base with line i replaced by repl; i = 0 appends repl.
func with(i int, repl ...string) string {
	if i == 0 {
		return edit(len(base)+1, len(base), repl...)
	}
	return edit(i, i, repl...)
}

// malformed are bad specs, each with its exact message.
var malformed = []struct {
	name, src, want string
}{
	// The file as a whole.
	{"empty file", "", "x.yaml:1: empty spec: want a mapping with version, name, kernel, domain, and target and method or compare"},
	{"only comments", "# nothing\n", "x.yaml:1: empty spec: want a mapping with version, name, kernel, domain, and target and method or compare"},
	{"not a mapping", "- version\n- 1\n", "x.yaml:1: a spec must be a mapping of keys (version, name, kernel, ...), not a list"},
	{"invalid YAML", with(4, "domain: {integers: [0, 255]"), "x.yaml:4: invalid YAML: did not find expected ',' or '}'"},
	{"two documents", with(0, "---", "version: 1"), "x.yaml:7: more than one YAML document; a spec is a single document"},
	{"unknown anchor", with(6, "method: {name: chum, seed: *s}"), "x.yaml:6: invalid YAML: unknown anchor 's' referenced"},
	{"control character", with(2, "name: Chi2\x01"), "x.yaml:2: invalid YAML: control characters are not allowed"},
	{"invalid UTF-8", with(3, "kernel: {type: chi2\xff}"), "x.yaml:3: invalid YAML: invalid leading UTF-8 octet"},
	{"unterminated string", "version: 1\nname: \"Chi2\n", "x.yaml:2: invalid YAML: found unexpected end of stream"},
	{"error on line 1", "\"", "x.yaml:1: invalid YAML: found unexpected end of stream"},
	{"tab indentation", "version: 1\nkernel:\n\ttype: chi2\n", "x.yaml:3: invalid YAML: found character that cannot start any token (the line is indented with a tab: YAML indents with spaces)"},

	// Unknown keys at every level.
	{"unknown top-level key", with(0, "colour: red"), "x.yaml:7: colour: unknown key; top-level keys are version, name, kernel, kernels, domain, error, target, method, compare, data, learn, emit"},
	{"unknown key that is not a name", with(0, `"my key": 1`), `x.yaml:7: "my key": unknown key; top-level keys are version, name, kernel, kernels, domain, error, target, method, compare, data, learn, emit`},
	{"unknown top-level key, typo", with(0, "eror: {norm: l1}"), "x.yaml:7: eror: unknown key (did you mean error?); top-level keys are version, name, kernel, kernels, domain, error, target, method, compare, data, learn, emit"},
	{"unknown emit key, typo", with(0, "emit: {tabels: small}"), "x.yaml:7: emit.tabels: unknown key (did you mean tables?); emit keys are tables"},
	{"bad emit tables", with(0, "emit: {tables: smal}"), `x.yaml:7: emit.tables: unknown choice "smal"; want one of fast, compact, small`},
	{"emit with compare", edit(5, 6, "compare: {methods: [chum], dims: [3]}", "emit: {tables: small}"), "x.yaml:6: emit: a comparison emits no code: emit is for a spec with target and method (featmap gen)"},
	{"unknown kernel key", with(3, "kernel: {type: chi2, gama: 2}"), "x.yaml:3: kernel.gama: unknown key (did you mean gamma?); kernel keys are type, gamma, sigma, c, beta, degree, scale, offset, nu"},
	{"unknown domain key", with(4, "domain:", "  integers: [0, 255]", "  step: 1"), "x.yaml:6: domain.step: unknown key; domain keys are dims, integers, interval, negative"},
	{"unknown error key", with(0, "error: {norm: l1, measure: absolute}"), "x.yaml:7: error.measure: unknown key; error keys are norm, weight"},
	{"unknown target key", with(5, "target: {dims: 7}"), "x.yaml:5: target.dims: unknown key (did you mean dim?); target keys are dim, max_error, max_dim"},
	{"unknown chum option", with(6, "method:", "  name: chum", "  omega: 5"), "x.yaml:8: method.omega: unknown option; chum options are omega_max, spacing, z_points, continuation, refine_iterations, polish, starts, seed"},
	{"unknown vz option, typo", with(6, "method: {name: vz, windw: uniform}"), "x.yaml:6: method.windw: unknown option (did you mean window?); vz options are period, window"},
	{"option of a method without options", with(6, "method: {name: chebyshev, bins: 10}"), "x.yaml:6: method.bins: unknown option; chebyshev takes no options"},
	{"unknown compare key", edit(5, 6, "compare: {methods: [chum], dims: [3], plot: true}"), "x.yaml:5: compare.plot: unknown key; compare keys are methods, dims, widths"},
	{"unknown option in a compare item", edit(5, 6, "compare:", "  methods:", "    - chum", "    - {name: vz, windw: uniform}", "  dims: [3]"),
		"x.yaml:8: compare.methods[1].windw: unknown option (did you mean window?); vz options are period, window"},

	// Duplicate keys.
	{"duplicate top-level key", with(0, "name: Other"), "x.yaml:7: name: duplicate key (first at line 2)"},
	{"duplicate nested key", with(3, "kernel:", "  type: chi2", "  type: js"), "x.yaml:5: kernel.type: duplicate key (first at line 4)"},
	{"duplicate option", with(6, "method: {name: chum, seed: 1, seed: 2}"), "x.yaml:6: method.seed: duplicate key (first at line 6)"},

	// Missing required keys.
	{"missing version", with(1), "x.yaml:1: version: missing required key (this featmap reads version 1)"},
	{"missing name", with(2), "x.yaml:1: name: missing required key (a Go identifier such as Chi2U8D7)"},
	{"missing kernel", with(3), "x.yaml:1: kernel: missing required key (a mapping with type: chi2 | intersection | js | hellinger | rbf | skewed-chi2 | skewed-intersection | exp-chi2 | poly | laplacian | matern)"},
	{"missing kernel type", with(3, "kernel: {gamma: 1}"), "x.yaml:3: kernel.type: missing required key (one of chi2, intersection, js, hellinger, rbf, skewed-chi2, skewed-intersection, exp-chi2, poly, laplacian, matern)"},
	{"missing domain", with(4), "x.yaml:1: domain: missing required key (a mapping with integers: [lo, hi] or interval: [lo, hi])"},
	{"missing domain range", with(4, "domain: {negative: zero}"), "x.yaml:4: domain: missing integers or interval (exactly one is required)"},
	{"missing rbf sigma", with(3, "kernel: {type: rbf}"), "x.yaml:3: kernel.sigma: missing required key (the rbf width: a number > 0, or one per axis)"},
	{"missing method name", with(6, "method: {seed: 3}"), "x.yaml:6: method.name: missing required key (one of " + methodList + ")"},
	{"missing compare item name", edit(5, 6, "compare: {methods: [{window: uniform}], dims: [3]}"), "x.yaml:5: compare.methods[0].name: missing required key (one of " + methodList + ")"},
	{"missing target and method", edit(5, 6), "x.yaml:1: missing target and method (one design) or compare (a comparison)"},
	{"missing method", with(6), "x.yaml:1: method: missing required key (target at line 5 needs a method: name: " + methodBar + ")"},
	{"method without target", with(5), "x.yaml:1: target: missing required key (method at line 5 needs a target: dim or max_error)"},
	{"target without dim or max_error", with(5, "target: {}"), "x.yaml:5: target: missing dim or max_error (exactly one is required)"},
	{"compare without methods", edit(5, 6, "compare: {dims: [3]}"), "x.yaml:5: compare.methods: missing required key (a list of methods, e.g. [chum, vz])"},
	{"compare without dims", edit(5, 6, "compare: {methods: [chum]}"), "x.yaml:5: compare.dims: missing required key (a list of output dimensions, e.g. [3, 5, 7], or widths: a list of output widths, e.g. [64, 128, 256])"},

	// Conflicting shapes and keys.
	{"target and compare", with(0, "compare: {methods: [chum], dims: [3]}"), "x.yaml:7: compare: conflicts with target (line 5): a spec has either target and method (one design) or compare (a comparison), not both"},
	{"method and compare", with(5, "compare: {methods: [chum], dims: [3]}"), "x.yaml:6: method: conflicts with compare (line 5): a spec has either target and method (one design) or compare (a comparison), not both"},
	{"integers and interval", with(4, "domain: {interval: [1, 2], integers: [0, 255]}"), "x.yaml:4: domain.integers: conflicts with domain.interval (line 4): give exactly one"},
	{"dim and max_error", with(5, "target:", "  max_error: 0.1", "  dim: 7"), "x.yaml:7: target.dim: conflicts with target.max_error (line 6): give exactly one"},
	{"max_dim with dim", with(5, "target: {dim: 7, max_dim: 9}"), "x.yaml:5: target.max_dim: applies only with target.max_error, not with target.dim"},
	{"li k and data", with(6, "method: {name: li, k: [1, 2, 3, 4, 5, 6, 7], data: h.txt}"), "x.yaml:6: method.data: conflicts with method.k (line 6): li takes explicit k or data for Algorithm 1, not both"},
	{"li k and bins", with(6, "method:", "  name: li", "  bins: 10", "  k: [1, 2, 3, 4, 5, 6, 7]"), "x.yaml:9: method.k: conflicts with method.bins (line 8): bins are for Algorithm 1, which explicit k skip"},

	// Wrong types.
	{"version as a string", with(1, `version: "1"`), `x.yaml:1: version: must be an integer, not the string "1"`},
	{"name as a number", with(2, "name: 7"), "x.yaml:2: name: must be a string, not the integer 7"},
	{"kernel as a string", with(3, "kernel: chi2"), `x.yaml:3: kernel: must be a mapping, not the string "chi2"`},
	{"method as a name", with(6, "method: chum"), `x.yaml:6: method: must be a mapping, not the string "chum": write method: {name: chum} (only auto stands alone)`},
	{"kernel type as a list", with(3, "kernel: {type: [chi2]}"), "x.yaml:3: kernel.type: must be one of chi2, intersection, js, hellinger, rbf, skewed-chi2, skewed-intersection, exp-chi2, poly, laplacian, matern, not a list"},
	{"gamma as a string", with(3, "kernel: {type: chi2, gamma: one}"), `x.yaml:3: kernel.gamma: must be a number, not the string "one"`},
	{"gamma as a quoted number", with(3, `kernel: {type: chi2, gamma: "1"}`), `x.yaml:3: kernel.gamma: must be a number, not the string "1"`},
	{"null section", with(4, "domain:"), "x.yaml:4: domain: must be a mapping, not null"},
	{"integers of floats", with(4, "domain: {integers: [0, 255.5]}"), "x.yaml:4: domain.integers[1]: must be an integer, not the number 255.5"},
	{"integers not a list", with(4, "domain: {integers: 255}"), "x.yaml:4: domain.integers: must be a list [lo, hi] of two integers, not the integer 255"},
	{"interval of three", with(4, "domain: {interval: [1, 2, 3]}"), "x.yaml:4: domain.interval: must be a list [lo, hi] of two numbers, not a list of 3"},
	{"dim as a float", with(5, "target: {dim: 7.0}"), "x.yaml:5: target.dim: must be an integer, not the number 7.0"},
	{"dim as a string", with(5, "target: {dim: seven}"), `x.yaml:5: target.dim: must be an integer, not the string "seven"`},
	{"polish as yes", with(6, "method: {name: chum, polish: yes}"), `x.yaml:6: method.polish: must be true or false, not the string "yes"`},
	{"seed as a float", with(6, "method: {name: chum, seed: 1.5}"), "x.yaml:6: method.seed: must be an integer, not the number 1.5"},
	{"data as a number", with(6, "method: {name: li, data: 5}"), "x.yaml:6: method.data: must be a string, not the integer 5"},
	{"k as a number", with(6, "method: {name: li, k: 5}"), "x.yaml:6: method.k: must be a list of numbers, not the integer 5"},
	{"compare methods as a string", edit(5, 6, "compare: {methods: chum, dims: [3]}"), `x.yaml:5: compare.methods: must be a list of methods, not the string "chum"`},
	{"compare item as a number", edit(5, 6, "compare: {methods: [chum, 3], dims: [3]}"), "x.yaml:5: compare.methods[1]: must be a method name or a mapping with name and options, not the integer 3"},
	{"compare dims of strings", edit(5, 6, "compare: {methods: [chum], dims: [3, five]}"), `x.yaml:5: compare.dims[1]: must be an integer, not the string "five"`},
	{"non-scalar key", with(0, "? [a, b]", ": 1"), "x.yaml:7: keys must be plain names, not a list"},
	{"merge key", with(3, "kernel: {type: chi2, <<: {gamma: 1}}"), "x.yaml:3: kernel.<<: merge keys are not supported; write the keys out"},
	{"leading-zero integer", with(4, "domain: {integers: [0, 0255]}"), "x.yaml:4: domain.integers[1]: 0255 has a leading zero, which YAML reads as octal; write it without (or with 0o for octal)"},
	{"float out of range", with(3, "kernel: {type: chi2, gamma: 1e400}"), "x.yaml:3: kernel.gamma: 1e400 is out of the float64 range"},
	{"integer out of range", with(5, "target: {dim: 99999999999999999999}"), "x.yaml:5: target.dim: 99999999999999999999 is out of the integer range"},

	// Impossible values.
	{"version 2", with(1, "version: 2", "future: key"), "x.yaml:1: version: unsupported version 2: this featmap reads version 1"},
	{"name not an identifier", with(2, "name: Chi2-U8"), `x.yaml:2: name: "Chi2-U8" is not a Go identifier (letters, digits and _, not starting with a digit)`},
	{"name lowercase", with(2, "name: chi2U8"), `x.yaml:2: name: "chi2U8" must start with an uppercase letter: it prefixes exported Go names`},
	{"name with underscore first", with(2, "name: _Chi2"), `x.yaml:2: name: "_Chi2" must start with an uppercase letter: it prefixes exported Go names`},
	{"unknown kernel", with(3, "kernel: {type: chi3}"), `x.yaml:3: kernel.type: unknown kernel "chi3"; want one of chi2, intersection, js, hellinger, rbf, skewed-chi2, skewed-intersection, exp-chi2, poly, laplacian, matern`},
	{"poly degree 0", with(3, "kernel:", "  type: poly", "  degree: 0"), "x.yaml:5: kernel.degree: must be >= 1, not 0"},
	{"poly degree 9", with(3, "kernel:", "  type: poly", "  scale: 1", "  degree: 9"), "x.yaml:6: kernel.degree: must be <= 8, not 9"},
	{"poly without degree", with(3, "kernel: {type: poly, scale: 1}"), "x.yaml:3: kernel.degree: missing required key (an integer from 1 to 8: the power of (scale·x·y + offset))"},
	{"poly negative scale", with(3, "kernel:", "  type: poly", "  degree: 2", "  scale: -0.5"), "x.yaml:6: kernel.scale: must be > 0, not -0.5"},
	{"poly negative offset", with(3, "kernel:", "  type: poly", "  degree: 2", "  offset: -1"), "x.yaml:6: kernel.offset: must be ≥ 0 and finite, not -1"},
	{"poly sigma", with(3, "kernel: {type: poly, degree: 2, sigma: 1}"), "x.yaml:3: kernel.sigma: sigma is the width of kernels rbf, laplacian, matern, skewed-chi2 and skewed-intersection; poly has none"},
	{"poly overflow", edit(3, 4, "kernel: {type: poly, degree: 8, scale: 1, offset: 1}", "domain:", "  interval: [-1e20, 1e20]"),
		"x.yaml:5: domain.interval: the polynomial kernel reaches more than 1.8e308 on this domain, beyond 2¹⁰⁰⁰/n^degree = 1.07e+301, where its map's values would overflow float64: keep every |x_i| ≤ 6.52191e+18"},
	{"degree of rbf", with(3, "kernel: {type: rbf, sigma: 1, degree: 2}"), "x.yaml:3: kernel.degree: degree is a key of kernel poly; rbf has none"},
	{"matern nu 1", with(3, "kernel:", "  type: matern", "  sigma: 1", "  nu: 1"), "x.yaml:6: kernel.nu: must be 0.5, 1.5 or 2.5 (the Matérn kernels of a closed form), not 1"},
	{"matern without nu", with(3, "kernel: {type: matern, sigma: 1}"), "x.yaml:3: kernel.nu: missing required key (the smoothness: 0.5, 1.5 or 2.5)"},
	{"matern sigma 0", with(3, "kernel:", "  type: matern", "  nu: 1.5", "  sigma: 0"), "x.yaml:6: kernel.sigma: must be > 0, not 0"},
	{"laplacian sigma negative", with(3, "kernel:", "  type: laplacian", "  sigma: [1, -2]"), "x.yaml:5: kernel.sigma[1]: must be > 0, not -2"},
	{"laplacian sigma per axis", with(3, "kernel: {type: laplacian, sigma: [1, 2]}"), "x.yaml:3: kernel.sigma: has 2 values but domain.dims is 1: give one per axis, or a single number for all"},
	{"laplacian without sigma", with(3, "kernel: {type: laplacian}"), "x.yaml:3: kernel.sigma: missing required key (the laplacian width: a number > 0, or one per axis)"},
	{"gamma zero", with(3, "kernel: {type: chi2, gamma: 0}"), "x.yaml:3: kernel.gamma: must be > 0, not 0"},
	{"gamma infinite", with(3, "kernel: {type: chi2, gamma: .inf}"), "x.yaml:3: kernel.gamma: must be a finite number, not .inf"},
	{"gamma for rbf", with(3, "kernel: {type: rbf, sigma: 1, gamma: 1}"), "x.yaml:3: kernel.gamma: gamma is the degree of a homogeneous kernel; rbf has none (its width is sigma)"},
	{"sigma for chi2", with(3, "kernel: {type: chi2, sigma: 1}"), "x.yaml:3: kernel.sigma: sigma is the width of kernels rbf, laplacian, matern, skewed-chi2 and skewed-intersection; chi2 has none"},
	{"sigma zero", with(3, "kernel: {type: rbf, sigma: 0}"), "x.yaml:3: kernel.sigma: must be > 0, not 0"},
	{"sigma negative in a list", with(3, "kernel: {type: rbf, sigma: [-0.5]}"), "x.yaml:3: kernel.sigma[0]: must be > 0, not -0.5"},
	{"sigma list too long", with(3, "kernel: {type: rbf, sigma: [0.2, 0.3]}"), "x.yaml:3: kernel.sigma: has 2 values but domain.dims is 1: give one per axis, or a single number for all"},
	{"sigma list empty", with(3, "kernel: {type: rbf, sigma: []}"), "x.yaml:3: kernel.sigma: must not be an empty list"},
	{"dims too many", with(4, "domain: {dims: 65537, interval: [0, 1]}"), "x.yaml:4: domain.dims: must be <= 65536, not 65537"},
	{"dims 0", with(4, "domain: {dims: 0, interval: [0, 1]}"), "x.yaml:4: domain.dims: must be >= 1, not 0"},
	{"dims 2 homogeneous", with(4, "domain: {dims: 2, interval: [0.1, 1]}"), "x.yaml:4: domain.dims: chi2 is additive, a sum over input dimensions: dims > 1 needs a kernel of vectors (rbf, laplacian, matern, poly, skewed-chi2, skewed-intersection, exp-chi2)"},
	{"integers with dims 2", edit(3, 4, "kernel: {type: rbf, sigma: 1}", "domain: {dims: 2, integers: [0, 255]}"), "x.yaml:4: domain.integers: integer domains have one axis (domain.dims is 2); use interval"},
	{"integers lo = hi", with(4, "domain: {integers: [5, 5]}"), "x.yaml:4: domain.integers: lo must be < hi"},
	{"integers negative", with(4, "domain: {integers: [-1, 255]}"), "x.yaml:4: domain.integers: lo must be >= 0: homogeneous kernels take no negative inputs (domain.negative says what the map does with them)"},
	{"integers beyond 2^53", edit(3, 4, "kernel: {type: rbf, sigma: 1}", "domain: {integers: [0, 9007199254740993]}"), "x.yaml:4: domain.integers[1]: 9007199254740993 is beyond ±2^53, where float64 no longer holds every integer"},
	{"interval lo > hi", with(4, "domain:", "  interval: [1, 0.001]"), "x.yaml:5: domain.interval: lo must be < hi"},
	{"interval lo zero homogeneous", with(4, "domain: {interval: [0, 1]}"), "x.yaml:4: domain.interval: lo must be > 0: it is the smallest nonzero input of a homogeneous kernel (0 always maps to 0; domain.negative says what happens below)"},
	{"interval NaN", with(4, "domain: {interval: [.nan, 1]}"), "x.yaml:4: domain.interval[0]: must be a finite number, not .nan"},
	{"interval pairs for dims 1", edit(3, 4, "kernel: {type: rbf, sigma: 1}", "domain: {interval: [[0, 1], [0, 2]]}"), "x.yaml:4: domain.interval: has 2 [lo, hi] pairs but domain.dims is 1: give one per axis, or a single [lo, hi] for all"},
	{"interval pair lo >= hi", edit(3, 4, "kernel: {type: rbf, sigma: 1}", "domain:", "  dims: 2", "  interval:", "    - [0, 1]", "    - [2, 2]"), "x.yaml:8: domain.interval[1]: lo must be < hi"},
	{"unknown negative rule", with(4, "domain: {integers: [0, 255], negative: abs}"), `x.yaml:4: domain.negative: unknown rule "abs"; want one of sign, zero`},
	{"negative for rbf", edit(3, 4, "kernel: {type: rbf, sigma: 1}", "domain: {interval: [0, 1], negative: zero}"), "x.yaml:4: domain.negative: applies to homogeneous kernels only, not rbf"},
	{"unknown norm", with(0, "error: {norm: l2}"), `x.yaml:7: error.norm: unknown norm "l2"; want one of linf, l1`},
	{"relative rbf where K vanishes", edit(3, 4, "kernel: {type: rbf, sigma: 0.3}", "domain: {interval: [0, 3.141592653589793]}", "error: {weight: relative}"),
		"x.yaml:5: error.weight: relative divides by the kernel, which falls to 1.5e-24 on this domain (at λ = 3.142): no fit follows it there; use absolute, or a domain where K stays above 0.0001"},
	{"unknown weight", with(0, "error: {weight: squared}"), `x.yaml:7: error.weight: unknown weight "squared"; want one of absolute, relative, uniform`},
	{"dim 0", with(5, "target: {dim: 0}"), "x.yaml:5: target.dim: must be >= 1, not 0"},
	{"dim too large", with(5, "target: {dim: 65537}"), "x.yaml:5: target.dim: must be <= 65536, not 65537"},
	{"max_error zero", with(5, "target: {max_error: 0}"), "x.yaml:5: target.max_error: must be > 0, not 0"},
	{"max_error below the floor", with(5, "target: {max_error: 1e-300}"), "x.yaml:5: target.max_error: 1e-300 is below 1e-12, the smallest error the float64 verification can tell from rounding: at least 1e-12"},
	{"max_error negative", with(5, "target: {max_error: -1e-3}"), "x.yaml:5: target.max_error: must be > 0, not -1e-3"},
	{"max_dim zero", with(5, "target: {max_error: 0.1, max_dim: 0}"), "x.yaml:5: target.max_dim: must be >= 1, not 0"},
	{"unknown method", with(6, "method: {name: ridgelet}"), `x.yaml:6: method.name: unknown method "ridgelet"; want one of ` + methodList + ", auto"},
	{"chum omega_max zero", with(6, "method: {name: chum, omega_max: 0}"), "x.yaml:6: method.omega_max: must be > 0, not 0"},
	{"chum spacing negative", with(6, "method: {name: chum, spacing: -0.1}"), "x.yaml:6: method.spacing: must be > 0, not -0.1"},
	{"chum z_points 2", with(6, "method: {name: chum, z_points: 2}"), "x.yaml:6: method.z_points: must be >= 3, not 2"},
	{"chum z_points too many", with(6, "method: {name: chum, z_points: 1000000}"), "x.yaml:6: method.z_points: must be <= 20000, not 1000000"},
	{"chum refine_iterations 0", with(6, "method: {name: chum, refine_iterations: 0}"), "x.yaml:6: method.refine_iterations: must be >= 1, not 0"},
	{"chum starts 0", with(6, "method: {name: chum, starts: 0}"), "x.yaml:6: method.starts: must be >= 1, not 0"},
	{"vz period zero", with(6, "method: {name: vz, period: 0}"), "x.yaml:6: method.period: must be > 0, not 0"},
	{"vz unknown window", with(6, "method: {name: vz, window: hann}"), `x.yaml:6: method.window: unknown window "hann"; want one of uniform, rectangular`},
	{"li k empty", with(6, "method: {name: li, k: []}"), "x.yaml:6: method.k: must not be an empty list"},
	{"li k negative", with(6, "method:", "  name: li", "  k: [1, 2, -3, 4, 5, 6, 7]"), "x.yaml:8: method.k[2]: must be > 0, not -3"},
	{"li bins 1", with(6, "method: {name: li, bins: 1}"), "x.yaml:6: method.bins: must be >= 2, not 1"},
	{"li data empty", with(6, `method: {name: li, data: ""}`), "x.yaml:6: method.data: must not be empty"},
	{"compare methods empty", edit(5, 6, "compare: {methods: [], dims: [3]}"), "x.yaml:5: compare.methods: must name at least one method"},
	{"compare unknown method", edit(5, 6, "compare:", "  methods: [chum, fourier]", "  dims: [3]"), `x.yaml:6: compare.methods[1]: unknown method "fourier"; want one of ` + methodList},
	{"compare same method twice", edit(5, 6, "compare:", "  methods: [vz, {name: vz, window: rectangular}]", "  dims: [3]"), "x.yaml:6: compare.methods[1]: same method and options as compare.methods[0]"},
	{"compare dims empty", edit(5, 6, "compare: {methods: [chum], dims: []}"), "x.yaml:5: compare.dims: must give at least one dimension, e.g. [3, 5, 7]"},
	{"compare widths empty", edit(5, 6, "compare: {methods: [chum], widths: []}"), "x.yaml:5: compare.widths: must give at least one width, e.g. [64, 128, 256]"},
	{"compare widths zero", edit(5, 6, "compare: {methods: [chum], widths: [64, 0]}"), "x.yaml:5: compare.widths[1]: must be >= 1, not 0"},
	{"compare widths duplicate", edit(5, 6, "compare:", "  methods: [chum]", "  widths:", "    - 64", "    - 64"), "x.yaml:9: compare.widths[1]: duplicate width 64 (also compare.widths[0])"},
	{"compare dims and widths", edit(5, 6, "compare:", "  methods: [chum]", "  dims: [3]", "  widths: [64]"), "x.yaml:8: compare.widths: conflicts with compare.dims (line 7): give exactly one: dims (every method at D) or widths (every method at the D giving that many outputs per row)"},
	{"compare dims zero", edit(5, 6, "compare: {methods: [chum], dims: [0]}"), "x.yaml:5: compare.dims[0]: must be >= 1, not 0"},
	{"compare dims duplicate", edit(5, 6, "compare:", "  methods: [chum]", "  dims:", "    - 3", "    - 5", "    - 3"), "x.yaml:10: compare.dims[2]: duplicate dimension 3 (also compare.dims[0])"},
	{"compare bad option value", edit(5, 6, "compare:", "  methods:", "    - name: chum", "      starts: 0", "  dims: [3]"), "x.yaml:8: compare.methods[0].starts: must be >= 1, not 0"},

	// Incompatibilities of kernel, method and dimension.
	{"vz for rbf", edit(3, 6, "kernel: {type: rbf, sigma: 0.2}", "domain: {interval: [0, 3]}", "target: {dim: 7}", "method: {name: vz}"),
		"x.yaml:6: method.name: vz needs a homogeneous kernel (chi2, intersection, js, hellinger), not rbf"},
	{"li for rbf", edit(3, 6, "kernel: {type: rbf, sigma: 0.2}", "domain: {interval: [0, 3]}", "target: {dim: 7}", "method: {name: li}"),
		"x.yaml:6: method.name: li needs kernel chi2 with gamma 1, not rbf"},
	{"li for js", edit(3, 6, "kernel: {type: js}", "domain: {integers: [0, 255]}", "target: {dim: 7}", "method: {name: li}"),
		"x.yaml:6: method.name: li needs kernel chi2 with gamma 1, not js"},
	{"chebyshev for chi2 gamma 0.5", edit(3, 6, "kernel: {type: chi2, gamma: 0.5}", "domain: {integers: [0, 255]}", "target: {dim: 7}", "method: {name: chebyshev}"),
		"x.yaml:6: method.name: chebyshev needs kernel chi2 with gamma 1, not gamma 0.5"},
	{"chum for 2-D rbf", edit(3, 6, "kernel: {type: rbf, sigma: [0.2, 0.3]}", "domain: {dims: 2, interval: [0, 3]}", "target: {dim: 31}", "method: {name: chum}"),
		"x.yaml:6: method.name: chum designs maps of one input axis only; domain.dims is 2"},
	{"hellinger dim 3", edit(3, 6, "kernel: {type: hellinger}", "domain: {integers: [0, 255]}", "target: {dim: 3}", "method: {name: chum}"),
		"x.yaml:5: target.dim: hellinger's exact map is 1-dimensional: dim must be 1"},
	{"vz even dim", edit(5, 6, "target: {dim: 6}", "method: {name: vz}"), "x.yaml:5: target.dim: vz makes odd dimensions only: 5 or 7"},
	{"harmonic even dim", edit(3, 6, "kernel: {type: rbf, sigma: 0.2}", "domain: {interval: [0, 3]}", "target:", "  dim: 16", "method: {name: harmonic}"),
		"x.yaml:6: target.dim: harmonic makes odd dimensions only: 15 or 17"},
	{"li k length", with(6, "method: {name: li, k: [1, 2, 3]}"), "x.yaml:6: method.k: has 3 values but target.dim is 7: li makes one dimension per k"},
	{"li k with max_error", edit(5, 6, "target: {max_error: 0.01}", "method:", "  name: li", "  k: [1, 2, 3]"), "x.yaml:8: method.k: fixes the dimension at 3 (one per k): give target.dim: 3, not target.max_error"},
	{"compare: vz for rbf is still an error", edit(3, 6, "kernel: {type: rbf, sigma: 0.2}", "domain: {interval: [0, 3]}", "compare:", "  methods: [chum, harmonic, vz]", "  dims: [3]"),
		"x.yaml:6: compare.methods[2]: vz needs a homogeneous kernel (chi2, intersection, js, hellinger), not rbf"},
	{"compare: li for intersection", edit(3, 6, "kernel: {type: intersection}", "domain: {integers: [0, 255]}", "compare:", "  methods: [chum, {name: li, k: [1]}]", "  dims: [3]"),
		"x.yaml:6: compare.methods[1].name: li needs kernel chi2 with gamma 1, not intersection"},
}

// methodList and methodBar are the registry's method names as the
// messages list them.
var (
	methodList = strings.Join(registry.Names(), ", ")
	methodBar  = strings.Join(registry.Names(), " | ")
)

func TestParseSpecMalformed(t *testing.T) {
	if len(malformed) < 30 {
		t.Fatalf("only %d malformed specs", len(malformed))
	}
	seen := map[string]bool{}
	for _, tt := range malformed {
		t.Run(tt.name, func(t *testing.T) {
			if seen[tt.src] {
				t.Errorf("the same spec appears twice")
			}
			seen[tt.src] = true
			s, err := Parse("x.yaml", []byte(tt.src))
			if err == nil {
				t.Fatalf("ParseSpec succeeded (%s), want error %q\nspec:\n%s", dump(s), tt.want, tt.src)
			}
			if s != nil {
				t.Errorf("ParseSpec returned a spec with its error")
			}
			var se *SpecError
			if !errors.As(err, &se) {
				t.Fatalf("error %v is a %T, not a *SpecError", err, err)
			}
			if got := err.Error(); got != tt.want {
				t.Errorf("error\n got %s\nwant %s\nspec:\n%s", got, tt.want, tt.src)
			}
		})
	}
}
