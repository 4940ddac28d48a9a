package quality

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/fmap"
	"gonum.org/v1/gonum/mat"
)

// ridgeClassify trains a one-vs-rest ridge classifier (targets ±1 per
// class; λ times the mean diagonal of ZᵀZ added to its diagonal) on the
// rows of feats outside fold k and returns which rows of fold k it
// classifies correctly (a row's class is the arg max of its scores).
func ridgeClassify(t *testing.T, feats [][]float64, labels []int, classes int, folds []int, k int, lambda float64, ok []bool) {
	t.Helper()
	d := len(feats[0])
	g := mat.NewSymDense(d, nil)
	b := mat.NewDense(d, classes, nil)
	for i, z := range feats {
		if folds[i] == k {
			continue
		}
		g.SymRankOne(g, 1, mat.NewVecDense(d, z))
		for c := range classes {
			y := -1.0
			if labels[i] == c {
				y = 1
			}
			for a, v := range z {
				b.Set(a, c, b.At(a, c)+y*v)
			}
		}
	}
	tr := 0.0
	for a := range d {
		tr += g.At(a, a)
	}
	for a := range d {
		g.SetSym(a, a, g.At(a, a)+lambda*tr/float64(d))
	}
	var ch mat.Cholesky
	if !ch.Factorize(g) {
		t.Fatal("the ridge system is not positive definite")
	}
	var w mat.Dense
	if err := ch.SolveTo(&w, b); err != nil {
		t.Fatal(err)
	}
	for i, z := range feats {
		if folds[i] != k {
			continue
		}
		best, arg := math.Inf(-1), 0
		for c := range classes {
			s := 0.0
			for a, v := range z {
				s += v * w.At(a, c)
			}
			if s > best {
				best, arg = s, c
			}
		}
		ok[i] = arg == labels[i]
	}
}

// TestDataErrorRanksLikeAccuracy: on the digits, the ranking of
// χ² maps of equal D by their held-out Gram error (what compare ranks by)
// agrees with their ranking by the accuracy of a ridge classifier on their
// features (5-fold cross-validation over the 1797 rows, one-vs-rest,
// λ = 1e-3 of the mean diagonal) wherever the accuracy difference is
// beyond noise: McNemar's statistic z = (n₁₀ − n₀₁)/√(n₁₀ + n₀₁) over
// the rows one map classifies right and the other wrong, |z| > 2. At
// least one pair must be beyond noise, or the test would assert nothing.
// Pairs of different D are logged, not asserted: there the number of
// features a linear model gets matters as much as the kernel error (a
// 3-D Chebyshev map with 0.12 Gram error classifies better than a 1-D
// chum map with 0.06). A long test (-long): it designs 17 maps and
// trains 85 classifiers.
func TestDataErrorRanksLikeAccuracy(t *testing.T) {
	needLong(t)
	t.Parallel() // shares no state with the other tests
	files := digitsFiles(t)
	body := `version: 1
name: Acc
kernel: {type: chi2}
domain: {integers: [0, 16]}
target: {dim: %d}
method: %s
data: {file: digits.csv.gz, columns: [0, 63], label_column: 64}
`
	methods := []string{"{name: chum}", "{name: vz, window: rectangular}", "{name: li}", "{name: chebyshev}",
		"{name: annfm, anchors: uniform, n_anchors: 12, energy: 0}", "{name: annfm, anchors: kmeans, n_anchors: 12, energy: 0}"}
	type result struct {
		label string
		dim   int
		err   float64 // held-out Gram error, relative Frobenius
		ok    []bool  // rows classified right
	}
	var res []result
	var rows [][]float64
	var labels []int
	for _, dim := range []int{1, 2, 3} {
		for _, m := range methods {
			s, err := featmap.LoadSpec(writeSpecWith(t, fmt.Sprintf(body, dim, m), files))
			if err != nil {
				if strings.Contains(err.Error(), ": target.dim: vz makes odd dimensions only") {
					continue
				}
				t.Fatal(err)
			}
			d := mustDesign(t, s)
			if rows == nil {
				data := s.Problem.Data
				rows = append(append(rows, data.Held...), data.Fit...)
				for _, l := range append(append([]float64{}, data.HeldLabels...), data.FitLabels...) {
					labels = append(labels, int(l))
				}
			}
			feats := make([][]float64, len(rows))
			for i, x := range rows {
				feats[i] = make([]float64, len(x)*d.Map.Dim)
				fmap.RowFeatures(d.Map, feats[i], x)
			}
			folds := make([]int, len(rows))
			for i := range folds {
				folds[i] = i % 5
			}
			r := result{label: m, dim: dim, err: d.Verification.Data.Frobenius, ok: make([]bool, len(rows))}
			for k := range 5 {
				ridgeClassify(t, feats, labels, 10, folds, k, 1e-3, r.ok)
			}
			right := 0
			for _, v := range r.ok {
				if v {
					right++
				}
			}
			t.Logf("D = %d %-58s held-out Gram error %.4g, accuracy %.4f", dim, m, r.err, float64(right)/float64(len(rows)))
			res = append(res, r)
		}
	}
	beyond, crossDisagree := 0, 0
	for a := range res {
		for b := a + 1; b < len(res); b++ {
			n10, n01 := 0, 0
			for i := range res[a].ok {
				switch {
				case res[a].ok[i] && !res[b].ok[i]:
					n10++
				case !res[a].ok[i] && res[b].ok[i]:
					n01++
				}
			}
			z := float64(n10-n01) / math.Sqrt(float64(max(1, n10+n01)))
			if math.Abs(z) <= 2 {
				continue
			}
			agree := (z > 0) == (res[a].err < res[b].err)
			msg := fmt.Sprintf("z = %+.2f: D = %d %s (Gram error %.3g) against D = %d %s (%.3g)", z, res[a].dim, res[a].label, res[a].err, res[b].dim, res[b].label, res[b].err)
			switch {
			case res[a].dim != res[b].dim:
				if !agree {
					crossDisagree++
					t.Logf("different D, rankings disagree: %s", msg)
				}
			case agree:
				beyond++
				t.Logf("equal D, rankings agree: %s", msg)
			default:
				beyond++
				t.Errorf("equal D, the data error ranks against the accuracy: %s", msg)
			}
		}
	}
	t.Logf("%d pairs of equal D beyond noise; %d pairs of different D whose rankings disagree", beyond, crossDisagree)
	if beyond == 0 {
		t.Error("no pair of equal D differs in accuracy beyond noise: the test asserts nothing")
	}
}
