package featmap

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/homogeneous"
)

// chi2DataSpec is a χ² spec on {0..16} with a data section body.
func chi2DataSpec(data string) string {
	return `version: 1
name: Chi2Data
kernel: {type: chi2}
domain: {integers: [0, 16]}
target: {dim: 5}
method: {name: chum}
data: ` + data + "\n"
}

// writeSpecWith writes the spec and the named files into a fresh directory
// and returns the spec's path.
func writeSpecWith(t *testing.T, spec string, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "spec.yaml")
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDataVerification: a design of a spec with data is also verified on
// the held-out rows, and the numbers are what a direct computation gives:
// the χ² kernel summed over the 64 pixels against the dot products of the
// per-pixel maps, over all ordered pairs (max, RMS and the Gram matrix's
// relative Frobenius error).
func TestDataVerification(t *testing.T) {
	raw, err := os.ReadFile("testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	path := writeSpecWith(t, chi2DataSpec("{file: digits.csv.gz, columns: [0, 63], label_column: 64, max_rows: 400}"), map[string]string{"digits.csv.gz": string(raw)})
	s := loadSpec(t, path)
	d := mustDesign(t, s, Settings{})
	dv := d.Verification.Data
	if dv == nil {
		t.Fatal("no data verification")
	}
	held := s.Problem.Data.Held
	m := d.Map
	psi := make([][]float64, len(held))
	for i, x := range held {
		for _, v := range x {
			f := make([]float64, m.Dim)
			m.Eval(f, []float64{v})
			psi[i] = append(psi[i], f...)
		}
	}
	var worst, sq, ksq float64
	for i, x := range held {
		for j, y := range held {
			var k, dot float64
			for c := range x {
				k += m.Kernel.Eval1(x[c], y[c])
			}
			for c := range psi[i] {
				dot += psi[i][c] * psi[j][c]
			}
			e := k - dot
			worst, sq, ksq = max(worst, math.Abs(e)), sq+e*e, ksq+k*k
		}
	}
	n := float64(len(held) * len(held))
	rms, frob := math.Sqrt(sq/n), math.Sqrt(sq/ksq)
	if len(held) != 80 || dv.Rows != 1797 || dv.Absolute.Points != 6400 {
		t.Errorf("held %d rows, %d rows counted, %d pairs; want 80, 1797, 6400", len(held), dv.Rows, dv.Absolute.Points)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"L∞", dv.Absolute.LInf, worst}, {"RMS", dv.Absolute.RMS, rms}, {"Frobenius", dv.Frobenius, frob}} {
		if rel := math.Abs(c.got-c.want) / c.want; !(rel < 1e-9) {
			t.Errorf("%s %.10g, direct %.10g", c.name, c.got, c.want)
		}
	}
}

// TestNystroemSpec: nystroem without a data section is a spec error when
// the spec is read; with the digits it designs and states its held-out
// error, below scikit-learn's RBFSampler's kind of map (rff, plain Monte
// Carlo, phase form) of 16 times its dimension (Nyström at D = 64 beats
// random features at D = 1024). featmap's default rff (orthogonal,
// cos-sin) at D = 1024 is as good as Nyström at 64 (docs/nystroem.md).
func TestNystroemSpec(t *testing.T) {
	body := `version: 1
name: NyDigits
kernel: {type: rbf, sigma: 49}
domain: {dims: 64, interval: [0, 16]}
target: {dim: %d}
method: {name: %s}
`
	_, err := ParseSpec("ny.yaml", []byte(fmt.Sprintf(body, 64, "nystroem")))
	if err == nil || !strings.Contains(err.Error(), "ny.yaml:6: method.name: nystroem learns its landmarks from data") {
		t.Errorf("without data: %v", err)
	}
	raw, err := os.ReadFile("testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"digits.csv.gz": string(raw)}
	data := "data: {file: digits.csv.gz, columns: [0, 63], label_column: 64}\n"
	ny := mustDesign(t, loadSpec(t, writeSpecWith(t, fmt.Sprintf(body, 64, "nystroem")+data, files)), Settings{})
	rf := mustDesign(t, loadSpec(t, writeSpecWith(t, fmt.Sprintf(body, 1024, "rff, sampling: random, features: phase")+data, files)), Settings{})
	a, b := ny.Verification.Data, rf.Verification.Data
	t.Logf("held-out Gram error: nystroem D = 64 %.4g, rff (random, phase) D = 1024 %.4g", a.Frobenius, b.Frobenius)
	if a.Frobenius >= b.Frobenius {
		t.Errorf("nystroem at D = 64 (%.4g) not below rff at D = 1024 (%.4g) on the held-out rows", a.Frobenius, b.Frobenius)
	}
}

// TestLiOnData: with a data section li runs Algorithm 1 on the values of
// the rows to fit (its parameters are LiFromValues of them), which lowers
// its held-out error below Algorithm 1 on a log-uniform density over the
// domain; the old option li.data still works, with a warning.
func TestLiOnData(t *testing.T) {
	raw, err := os.ReadFile("testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"digits.csv.gz": string(raw), "v.txt": "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16\n"}
	body := `version: 1
name: LiDigits
kernel: {type: chi2}
domain: {integers: [0, 16]}
target: {dim: 5}
method: {name: li%s}
data: {file: digits.csv.gz, columns: [0, 63], label_column: 64}
`
	s := loadSpec(t, writeSpecWith(t, fmt.Sprintf(body, ""), files))
	d := mustDesign(t, s, Settings{})
	var values []float64
	for _, x := range s.Problem.Data.Fit {
		values = append(values, x...)
	}
	want, err := homogeneous.LiFromValues(5, homogeneous.DefaultLiBins, values)
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Map.Series().K; !reflect.DeepEqual(got, want) {
		t.Errorf("k = %v, want Algorithm 1 on the data %v", got, want)
	}
	blind := s.Problem.Data
	s.Problem.Data = &fmap.Data{File: blind.File}
	lu := mustDesign(t, s, Settings{})
	s.Problem.Data = blind
	onData := fmap.VerifyData(d.Map, blind).Frobenius
	logUniform := fmap.VerifyData(lu.Map, blind).Frobenius
	t.Logf("held-out Gram error at D = 5: li on the data %.4g, li on a log-uniform density %.4g", onData, logUniform)
	if onData >= logUniform {
		t.Errorf("li on the data (%.4g) not below li on a log-uniform density (%.4g)", onData, logUniform)
	}
	old := loadSpec(t, writeSpecWith(t, fmt.Sprintf(body, ", data: v.txt"), files))
	if len(old.Warnings) != 1 || !strings.Contains(old.Warnings[0], "spec.yaml:6: method.data: deprecated") {
		t.Errorf("warnings %q", old.Warnings)
	}
}

// TestNystroemAdditiveSpec: a nystroem spec of an additive kernel (χ² on
// the digits' pixel values, one axis) designs a map of whole 64-pixel rows,
// verified on the held-out rows and on the rows of equal coordinates (it
// was refused: "nystroem designs maps of rbf, …, not chi2").
func TestNystroemAdditiveSpec(t *testing.T) {
	raw, err := os.ReadFile("testdata/digits.csv.gz")
	if err != nil {
		t.Fatal(err)
	}
	spec := `version: 1
name: NyChi2
kernel: {type: chi2}
domain: {integers: [0, 16]}
error: {weight: absolute}
target: {dim: 16}
method: {name: nystroem}
data: {file: digits.csv.gz, columns: [0, 63], label_column: 64}
`
	d := mustDesign(t, loadSpec(t, writeSpecWith(t, spec, map[string]string{"digits.csv.gz": string(raw)})), Settings{})
	if d.Map.InDim != 64 || d.Map.Dim != 16 {
		t.Errorf("map of %d inputs, D = %d: want 64 inputs, 16", d.Map.InDim, d.Map.Dim)
	}
	v := d.Verification
	if v.Data == nil || !(v.Data.Frobenius > 0 && v.Data.Frobenius < 0.1) {
		t.Errorf("held-out error %+v, want a Gram error in (0, 0.1)", v.Data)
	}
	if !strings.Contains(v.Reported.On, "rows (v, …, v) of 64 equal coordinates, v ∈ {0..16}") {
		t.Errorf("domain error on %q, want the rows of equal coordinates", v.Reported.On)
	}
}
