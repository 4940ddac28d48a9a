package quality

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/digits"
	"github.com/featmap/featmap/internal/wine"
	"github.com/featmap/featmap/sampled"
)

// Nyström of more landmarks than D against the kernel-PCA limit of the
// rows it fits, on data of other kinds than the digits: histograms of
// image patches and standardised measurements (docs/nystroem.md, "More
// landmarks than D").

// patchesProblem is kernel k (written as a spec's kernel) on the patch
// histograms of testdata/patches.csv, split as a spec splits them (a
// fifth held out, seeded), and the 300 rows of patches-hidden.csv.
func patchesProblem(t *testing.T, kernel, domain string) (*fmap.Problem, [][]float64) {
	t.Helper()
	data, err := filepath.Abs(filepath.Join(repo, "testdata", "patches.csv"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "patches.yaml")
	spec := fmt.Sprintf("version: 1\nname: Patches\nkernel: %s\ndomain: %s\ndata: {file: %s, columns: [0, 15], label_column: 16}\ntarget: {dim: 16}\nmethod: {name: nystroem}\n", kernel, domain, data)
	if err := os.WriteFile(path, []byte(spec), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := featmap.LoadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	return s.Problem, readRows(t, filepath.Join(repo, "testdata", "patches-hidden.csv"), 16)
}

// readRows reads the first n columns of every line of a CSV file.
func readRows(t *testing.T, path string, n int) [][]float64 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out [][]float64
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Split(sc.Text(), ",")
		x := make([]float64, n)
		for j := range x {
			if x[j], err = strconv.ParseFloat(fs[j], 64); err != nil {
				t.Fatal(err)
			}
		}
		out = append(out, x)
	}
	return out
}

// TestNystroemRankLimitOtherData: Nyström of m = 8D landmarks (at most the
// rows to fit: then the rows themselves, kernel PCA of them) is within
// 1.1× the kernel-PCA limit of its rows to fit on the held-out rows, and on
// rows no design saw, and below Nyström of D landmarks: on the patch
// histograms (560 rows to fit, 140 held out, 300 hidden; D = 16, 64, 256)
// for rbf (σ = 0.93, the rows' median distance), Laplacian, Matérn ν = 3/2,
// exp-χ², the polynomial kernel and the additive χ²; on the standardised
// wine rows (134 to fit, 44 held out; D = 16 and 64) for rbf, Laplacian,
// Matérn ν = 3/2 and the polynomial kernel. A long test (-long).
func TestNystroemRankLimitOtherData(t *testing.T) {
	needLong(t)
	type kase struct {
		set  string
		p    *fmap.Problem
		more [][]float64 // rows no design saw (nil: none)
		dims []int
	}
	var cases []kase
	for _, k := range []struct{ kernel, domain string }{
		{"{type: rbf, sigma: 0.93}", "{dims: 16, interval: [0, 1]}"},
		{"{type: laplacian, sigma: 1.3}", "{dims: 16, interval: [0, 1]}"},
		{"{type: matern, nu: 1.5, sigma: 0.93}", "{dims: 16, interval: [0, 1]}"},
		{"{type: exp-chi2, beta: 1}", "{dims: 16, interval: [0, 1]}"},
		{"{type: poly, degree: 3}", "{dims: 16, interval: [0, 1]}"},
		{"{type: chi2}", "{interval: [0.001, 1]}"},
	} {
		p, hidden := patchesProblem(t, k.kernel, k.domain)
		cases = append(cases, kase{"patches", p, hidden, []int{16, 64, 256}})
	}
	raw, _, err := wine.Load(filepath.Join(repo, "testdata", "wine.csv"))
	if err != nil {
		t.Fatal(err)
	}
	xs := wine.Standardised(raw)
	fit, held := wine.Split(xs)
	dom := fmap.Domain{Lo: slices.Repeat([]float64{-5}, 13), Hi: slices.Repeat([]float64{5}, 13)}
	for _, k := range []fmap.Kernel{
		{Type: fmap.RBF, Sigma: slices.Repeat([]float64{digits.MedianDistance(xs)}, 13)},
		{Type: fmap.Laplacian, Sigma: slices.Repeat([]float64{medianL1(xs)}, 13)},
		{Type: fmap.Matern, Nu: 1.5, Sigma: slices.Repeat([]float64{digits.MedianDistance(xs)}, 13)},
		{Type: fmap.Poly, Degree: 3, Scale: 1.0 / 13, Offset: 1},
	} {
		p := &fmap.Problem{Kernel: k, Domain: dom, Measure: fmap.Absolute, Norm: fmap.LInf,
			Data: &fmap.Data{File: "wine.csv", Rows: len(xs), Fit: fit, Held: held}}
		cases = append(cases, kase{"wine", p, nil, []int{16, 64}})
	}
	for _, c := range cases {
		p := c.p
		limits := kpcaMap(t, p, c.dims)
		for _, dim := range c.dims {
			nl := min(8*dim, sampled.MaxLandmarks, len(p.Data.Fit))
			t0 := time.Now()
			reduced := nystroemMap(t, p, dim, sampled.NystroemOptions{NLandmarks: nl})
			took := time.Since(t0).Seconds()
			plain := nystroemMap(t, p, dim, sampled.NystroemOptions{})
			kp := limits[dim]
			r, k, pl := fmap.VerifyData(reduced, p.Data).Frobenius, fmap.VerifyData(kp, p.Data).Frobenius, fmap.VerifyData(plain, p.Data).Frobenius
			line := fmt.Sprintf("%-7s %-40s D = %3d: m = %3d held-out %.4g, kernel PCA %.4g (%.3f×), nystroem of D %.4g", c.set, p.Kernel.Describe(), dim, nl, r, k, r/k, pl)
			if r > 1.1*k {
				t.Errorf("%s: held-out error above 1.1× the kernel-PCA limit", line)
			}
			if r >= pl {
				t.Errorf("%s: not below nystroem of D", line)
			}
			if c.more != nil {
				rh, kh := gramError(reduced, c.more), gramError(kp, c.more)
				line += fmt.Sprintf("; hidden rows %.4g, kernel PCA %.4g (%.3f×)", rh, kh, rh/kh)
				if rh > 1.1*kh {
					t.Errorf("%s: hidden rows' error above 1.1× kernel PCA's", line)
				}
			}
			t.Logf("%s (%.1f s)", line, took)
		}
	}
}
