package spec

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/homogeneous"
	"github.com/featmap/featmap/multidim"
)

// Tests of Load: a spec file with the files it names, its errors, the
// multi-dimensional methods' options and the shipped specs.

// liOptions returns the options of a li method (zero for another method).
func liOptions(m MethodSpec) homogeneous.LiOptions {
	if li, ok := m.Method.(*homogeneous.Li); ok {
		return li.Opts
	}
	return homogeneous.LiOptions{}
}

func TestLoadSpec(t *testing.T) {
	s, err := load("testdata/specs/li-data.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := homogeneous.LiOptions{Bins: homogeneous.DefaultLiBins, Data: "data/values.txt", Values: []float64{0.5, 0.25, 0.125, 0, 1}}
	if s.Method == nil || !reflect.DeepEqual(liOptions(*s.Method), want) {
		t.Errorf("LoadSpec: method %+v, want li options %+v", s.Method, want)
	}
	if s.Path != "testdata/specs/li-data.yaml" || s.Method.Line != 10 {
		t.Errorf("LoadSpec: path %q, method line %d; want testdata/specs/li-data.yaml, 10", s.Path, s.Method.Line)
	}
	data, err := os.ReadFile("testdata/specs/li-data.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if s.Hash != hashOf(string(data)) {
		t.Errorf("LoadSpec: hash %s, want the SHA-256 of the file", s.Hash)
	}
	// ParseSpec reads no data file.
	p, err := Parse("testdata/specs/li-data.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	if o := liOptions(*p.Method); o.Values != nil || o.Data != "data/values.txt" {
		t.Errorf("ParseSpec: li options %+v, want Data set and no Values", o)
	}

	c, err := load("testdata/specs/compare-data.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Compare.Methods; len(got) != 3 || liOptions(got[0]).Values != nil ||
		!reflect.DeepEqual(liOptions(got[1]).Values, want.Values) || !reflect.DeepEqual(liOptions(got[2]).Values, want.Values) || liOptions(got[2]).Bins != 10 {
		t.Errorf("LoadSpec: compare methods %+v, want the values in items 1 and 2", got)
	}
}

func TestLoadSpecAbsoluteData(t *testing.T) {
	dir := t.TempDir()
	data := dir + "/values.txt"
	if err := os.WriteFile(data, []byte("1 2 3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	spec := lines(base[0], base[1], base[2], "domain: {interval: [0.5, 4]}", "target: {dim: 3}", "method: {name: li, data: '"+data+"'}")
	// The spec lives elsewhere: an absolute data path is not joined to its directory.
	other := t.TempDir() + "/spec.yaml"
	if err := os.WriteFile(other, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := load(other)
	if err != nil {
		t.Fatal(err)
	}
	if o := liOptions(*s.Method); !reflect.DeepEqual(o.Values, []float64{1, 2, 3}) || o.Data != data {
		t.Errorf("LoadSpec: li options %+v", o)
	}
	// The file is recorded with the SHA-256 of its content (gen's
	// freshness key covers it).
	want := []InputFile{{Path: data, SHA256: fmt.Sprintf("%x", sha256.Sum256([]byte("1 2 3\n")))}}
	if !reflect.DeepEqual(s.OptionFiles, want) {
		t.Errorf("OptionFiles = %+v, want %+v", s.OptionFiles, want)
	}
}

func TestLoadSpecErrors(t *testing.T) {
	for _, tt := range []struct {
		path, want string
		notExist   bool
	}{
		{"testdata/specs/li-bad-value.yaml", `testdata/specs/li-bad-value.yaml:8: method.data: testdata/specs/data/bad-value.txt:3: "abc" is not a number`, false},
		{"testdata/specs/li-negative.yaml", "testdata/specs/li-negative.yaml:8: method.data: testdata/specs/data/negative.txt:1: -0.25 is negative; values must be nonnegative", false},
		{"testdata/specs/li-empty.yaml", "testdata/specs/li-empty.yaml:8: method.data: testdata/specs/data/empty.txt: no values", false},
		{"testdata/specs/li-missing.yaml", "testdata/specs/li-missing.yaml:8: method.data: open testdata/specs/data/missing.txt: no such file or directory", true},
		{"testdata/specs/compare-bad-data.yaml", "testdata/specs/compare-bad-data.yaml:9: compare.methods[1].data: testdata/specs/data/negative.txt:1: -0.25 is negative; values must be nonnegative", false},
		{"testdata/specs/no-such-spec.yaml", "testdata/specs/no-such-spec.yaml: no such file or directory", true},
	} {
		s, err := load(tt.path)
		if err == nil {
			t.Errorf("load(%s) succeeded (%s), want %q", tt.path, dump(s), tt.want)
			continue
		}
		if err.Error() != tt.want {
			t.Errorf("load(%s)\n got %s\nwant %s", tt.path, err, tt.want)
		}
		if errors.Is(err, fs.ErrNotExist) != tt.notExist {
			t.Errorf("load(%s): errors.Is(err, fs.ErrNotExist) = %v, want %v", tt.path, !tt.notExist, tt.notExist)
		}
	}
}

// TestMultiDimensionalMethods parses specs of the multi-dimensional methods
// (Chum §6): per-axis intervals and sigma, the methods' options, and the
// errors that keep 1-D and n-D methods apart.
func TestMultiDimensionalMethods(t *testing.T) {
	src := lines(
		"version: 1",
		"name: RBF2D",
		"kernel: {type: rbf, sigma: [0.2, 0.3]}",
		"domain:",
		"  dims: 2",
		"  interval: [[0, 3.25], [-1, 1]]",
		"target: {dim: 31}",
		"method: {name: projection, z_points: 50, pool: tensor, axis_dim: 9, starts: 2}",
	)
	s, err := Parse("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	want := &Spec{
		Path: "x.yaml", Hash: hashOf(src), Version: 1, Name: "RBF2D",
		Problem: problem(fmap.Kernel{Type: fmap.RBF, Sigma: []float64{0.2, 0.3}}, fmap.Domain{Lo: []float64{0, -1}, Hi: []float64{3.25, 1}},
			fmap.Uniform, fmap.LInf, ""),
		Target: &TargetSpec{Dim: 31},
		Method: &MethodSpec{Method: &multidim.Projection{Opts: multidim.ProjectionOptions{
			Grid: multidim.Grid{ZPoints: 50, AxisDim: 9}, Pool: multidim.PoolTensor, FitOptions: chum.FitOptions{Starts: 2}}}, Line: 8},
		Emit: EmitSpec{Tables: "fast"},
	}
	if !reflect.DeepEqual(view(s), view(want)) {
		t.Errorf("ParseSpec\n got %s\nwant %s", dump(s), dump(want))
	}

	// One interval and one sigma for all three axes; the projection pool
	// defaults to polar (of 12 angles here: the default 24's LP on three
	// axes is refused, below).
	src = lines(
		"version: 1",
		"name: RBF3D",
		"kernel: {type: rbf, sigma: 0.5}",
		"domain: {dims: 3, interval: [0, 1]}",
		"compare: {methods: [{name: projection, angles: 12}, {name: modulation, z_points: 9}, tensor-greedy], dims: [31, 73]}",
	)
	s, err = Parse("x.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	p := s.Problem
	if !reflect.DeepEqual(p.Kernel.Sigma, []float64{0.5, 0.5, 0.5}) || !reflect.DeepEqual(p.Domain.Lo, []float64{0, 0, 0}) ||
		!reflect.DeepEqual(p.Domain.Hi, []float64{1, 1, 1}) || len(s.Compare.Methods) != 3 ||
		s.Compare.Methods[0].Method.(*multidim.Projection).Opts.Pool != multidim.PoolPolar ||
		s.Compare.Methods[1].Method.(*multidim.Modulation).Opts.ZPoints != 9 {
		t.Errorf("ParseSpec: %s", dump(s))
	}

	for _, tt := range []struct{ src, want string }{
		{strings.Replace(src, "z_points: 9", "z_points: 900", 1), "x.yaml:5: compare.methods[1].z_points: must be <= 201, not 900"},
		{strings.Replace(src, "[{name: projection, angles: 12},", "[harmonic,", 1), "x.yaml:5: compare.methods[0]: harmonic designs maps of one input axis only; domain.dims is 3"},
		{strings.Replace(src, "[{name: projection, angles: 12},", "[projection,", 1), "x.yaml:5: compare.methods[0].z_points: the LP would have 25230 rows × 1730 columns (|Z| = 12615, 1729 pool frequencies), more than 12000000 entries: lower method.z_points, method.angles or method.radii, or use modulation"},
		{strings.Replace(src, "sigma: 0.5", "sigma: [0.5, 0.5]", 1), "x.yaml:3: kernel.sigma: has 2 values but domain.dims is 3: give one per axis, or a single number for all"},
		{strings.Replace(src, "{dims: 3, interval: [0, 1]}", "{interval: [0, 1]}", 1), "x.yaml:5: compare.methods[0].name: projection designs maps of 2 or 3 input axes; domain.dims is 1 (one axis: use chum)\n" +
			// Every compared method is checked, each an error of its own.
			"x.yaml:5: compare.methods[1].name: modulation designs maps of 2 or 3 input axes; domain.dims is 1 (one axis: use chum)\n" +
			"x.yaml:5: compare.methods[2]: tensor-greedy designs maps of 2 or 3 input axes; domain.dims is 1 (one axis: use chum)"},
		{strings.Replace(src, "{name: modulation, z_points: 9}", "{name: modulation, pool: tensor}", 1), "x.yaml:5: compare.methods[1].pool: unknown option; modulation options are axis_dim, z_points, refine_iterations, polish, starts, seed"},
	} {
		if _, err := Parse("x.yaml", []byte(tt.src)); err == nil || err.Error() != tt.want {
			t.Errorf("ParseSpec error %v\nwant %s", err, tt.want)
		}
	}
}

// TestShippedSpecsLoad loads every spec shipped in specs/: they are the
// format's examples, so each must parse (data files included).
func TestShippedSpecsLoad(t *testing.T) {
	files, err := filepath.Glob("../specs/*.yaml")
	if err != nil || len(files) == 0 {
		t.Fatalf("no shipped specs in specs/: %v", err)
	}
	for _, name := range files {
		if _, err := load(name); err != nil {
			t.Errorf("LoadSpec: %v", err)
		}
	}
}

// TestTensorGreedyHasNoZ: tensor-greedy solves no LP over the box, so a
// z_points it would ignore is refused as an unknown option.
func TestTensorGreedyHasNoZ(t *testing.T) {
	const src = "version: 1\nname: G\nkernel: {type: rbf, sigma: 0.3}\ndomain: {dims: 2, interval: [0, 3.141592653589793]}\ntarget: {dim: 31}\nmethod: {name: tensor-greedy, z_points: 11}\n"
	_, err := Parse("x.yaml", []byte(src))
	want := "x.yaml:6: method.z_points: unknown option; tensor-greedy options are axis_dim, seed"
	if err == nil || err.Error() != want {
		t.Errorf("error %v, want %s", err, want)
	}
	if _, err := Parse("x.yaml", []byte(strings.Replace(src, "z_points", "axis_dim", 1))); err != nil {
		t.Errorf("axis_dim: %v", err)
	}
}

// load is Load of the spec at path without progress messages.
func load(path string) (*Spec, error) { return Load(context.Background(), path, nil) }
