package registry_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/registry"
	"github.com/featmap/featmap/spec"
)

// constOptions are the options of the test method "const".
type constOptions struct {
	Scale float64 `yaml:"scale" spec:"positive"`
}

// constMethod is a method written the way docs/ARCHITECTURE.md says one
// is added: the constant map √(scale·k(0))·|x|^{γ/2} of one dimension for a
// homogeneous kernel (exact for Hellinger).
type constMethod struct{ Opts constOptions }

func (*constMethod) Name() string   { return "const" }
func (m *constMethod) Options() any { return &m.Opts }
func (*constMethod) Applies(p *fmap.Problem) error {
	if !p.Kernel.Homogeneous() {
		return errors.New("const needs a homogeneous kernel")
	}
	return nil
}
func (*constMethod) Dims(*fmap.Problem) design.Dims {
	return design.Dims{Only: []int{1}, Why: "const makes one dimension"}
}
func (m *constMethod) Design(_ context.Context, p *fmap.Problem, dim int, _ design.Settings) (*design.Result, error) {
	scale := m.Opts.Scale
	if scale == 0 {
		scale = 1
	}
	f := &fmap.Fourier{Form: fmap.FourierForm, Transform: fmap.Log, Gamma: 1, Negative: p.Negative,
		Terms: []fmap.Term{{Freq: []float64{0}, Weight: scale * p.Kernel.Signature1(0)}}}
	return &design.Result{Map: fmap.NewFourierMap(p.Kernel, p.Domain, "const", f)}, nil
}

// TestAddingAMethod adds a method the way docs/ARCHITECTURE.md describes
// (one type, one registry line) and checks that everything else follows
// from the registry: the name and its options decode strictly, with
// positioned messages; the dimensions are checked; labels show the
// options; the design is verified by the front door.
func TestAddingAMethod(t *testing.T) {
	defer registry.Add(func() design.Method { return &constMethod{} })()

	specOf := func(method string) string {
		return strings.Join([]string{"version: 1", "name: Const", "kernel: {type: hellinger}", "domain: {integers: [0, 15]}", "target: {dim: 1}", "method: " + method}, "\n") + "\n"
	}
	s, err := featmap.ParseSpec("x.yaml", []byte(specOf("{name: const, scale: 1}")))
	if err != nil {
		t.Fatal(err)
	}
	d, err := s.Design(context.Background(), featmap.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	// Hellinger's map √x is exact: the verified error is rounding only.
	if d.Map.Dim != 1 || !(d.Verification.Reported.LInf < 1e-13) || d.Verification.Absolute.Points != 256 {
		t.Errorf("const map D = %d, verified %+v", d.Map.Dim, d.Verification.Reported)
	}
	if got := spec.MethodLabels([]spec.MethodSpec{*s.Method}); got[0] != "const (scale 1)" {
		t.Errorf("label %q", got[0])
	}
	for _, c := range []struct{ method, want string }{
		{"{name: const, scale: -1}", "x.yaml:6: method.scale: must be > 0, not -1"},
		{"{name: const, sclae: 2}", "x.yaml:6: method.sclae: unknown option (did you mean scale?); const options are scale"},
		{"{name: cosnt}", fmt.Sprintf(`x.yaml:6: method.name: unknown method "cosnt"; want one of %s`, strings.Join(registry.Names(), ", ")+", auto")},
	} {
		if _, err := featmap.ParseSpec("x.yaml", []byte(specOf(c.method))); err == nil || err.Error() != c.want {
			t.Errorf("%s: error %v, want %s", c.method, err, c.want)
		}
	}
	chi2 := strings.Replace(specOf("{name: const}"), "hellinger", "chi2", 1)
	if _, err := featmap.ParseSpec("x.yaml", []byte(strings.Replace(chi2, "dim: 1", "dim: 3", 1))); err == nil ||
		err.Error() != "x.yaml:5: target.dim: const makes one dimension: dim must be 1" {
		t.Errorf("D = 3: error %v", err)
	}
	// A χ² map of one constant term: its error is measured, not assumed.
	s, err = featmap.ParseSpec("x.yaml", []byte(chi2))
	if err != nil {
		t.Fatal(err)
	}
	d, err = s.Design(context.Background(), featmap.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	// Ψ·Ψ = √(xy) against 2xy/(x+y): the error is largest at x = 15, y = 1,
	// √15 − 30/16 = 1.998.
	if want := math.Sqrt(15) - 30.0/16; math.Abs(d.Verification.Reported.LInf-want) > 1e-12 {
		t.Errorf("χ² const map: L∞ %v, want %v", d.Verification.Reported.LInf, want)
	}
}
