package homogeneous

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// unitInterval is the interval domain [1e-5, 1] of the Li examples of
// docs/formulas.md §2.
var unitInterval = fmap.Domain{Lo: []float64{1e-5}, Hi: []float64{1}}

// chi2 is the χ² kernel with γ = 1.
var chi2 = fmap.Kernel{Type: fmap.Chi2, Gamma: 1}

// maxErrorOnG returns max |K(x,y) − Ψ(x)·Ψ(y)| over all pairs of GridG.
func maxErrorOnG(m *fmap.Map) float64 {
	g := GridG()
	psi := make([][]float64, len(g))
	for i, x := range g {
		psi[i] = make([]float64, m.Dim)
		m.Eval(psi[i], []float64{x})
	}
	worst := 0.0
	for i, x := range g {
		for j, y := range g {
			d := 0.0
			for c := range psi[i] {
				d += psi[i][c] * psi[j][c]
			}
			worst = math.Max(worst, math.Abs(chi2.Eval1(x, y)-d))
		}
	}
	return worst
}

// TestLiDirectRefs checks the li_direct rows of formula_refs.csv
// (k = [1, 0.1, 0.01, 0.001, 0.0001]): each c_q(x) to 1e-14·√x absolute
// (|c_q| ≤ √x), exact zeros where x = k_p, Ψ(x)·Ψ(0.5) to 1e-14 relative,
// and the remainder K − Ψ·Ψ to 1e-15 absolute (|K| ≤ 1.4 here).
func TestLiDirectRefs(t *testing.T) {
	m := design1(t, &Li{Opts: LiOptions{K: []float64{1, 0.1, 0.01, 0.001, 0.0001}}}, problem(fmap.Chi2, 0, unitInterval), 5)
	rows := formulaRefs(t, "li_direct")
	for _, r := range rows {
		x := mustFloat(t, r.x)
		if y, ok := strings.CutPrefix(r.component, "dot(y="); ok {
			yv := mustFloat(t, strings.TrimSuffix(y, ")"))
			if got := m.Dot([]float64{x}, []float64{yv}); relErr(got, r.value) > 1e-14 {
				t.Errorf("Ψ(%g)·Ψ(%g) = %.17g, want %.17g", x, yv, got, r.value)
			}
			continue
		}
		if y, ok := strings.CutPrefix(r.component, "remainder(y="); ok {
			yv := mustFloat(t, strings.TrimSuffix(y, ")"))
			got := chi2.Eval1(x, yv) - m.Dot([]float64{x}, []float64{yv})
			if math.Abs(got-r.value) > 1e-15 {
				t.Errorf("remainder at (%g, %g) = %.17g, want %.17g", x, yv, got, r.value)
			}
			continue
		}
		q, err := strconv.Atoi(r.component)
		if err != nil {
			t.Fatal(err)
		}
		psi := make([]float64, m.Dim)
		m.Eval(psi, []float64{x})
		got := psi[q-1] // the CSV counts c_1..c_N
		if r.value == 0 && got != 0 {
			t.Errorf("c_%d(%g) = %g, want exactly 0", q, x, got)
		}
		if d := math.Abs(got - r.value); d > 1e-14*math.Sqrt(x) {
			t.Errorf("c_%d(%g) = %.17g, want %.17g (diff %.2g)", q, x, got, r.value, d)
		}
	}
}

// TestLiLogUniform checks Algorithm 1 on a log-uniform density on
// [1e-5, 1] with 100 bins against docs/formulas.md §2.2 and the
// li_algo1_loguniform rows of formula_refs.csv: the bins picked are exactly
// 99, 90, 80, 96, 69, 59, 85, 49, 75, 93, 39 (each k_i must be bit-equal to
// the centre of that bin as computed by liEdges) and each k_i equals
// 10^{−5+(j_i+0.5)/20} (the 30-digit reference) to 4e-16 relative.
func TestLiLogUniform(t *testing.T) {
	wantBins := []int{99, 90, 80, 96, 69, 59, 85, 49, 75, 93, 39}
	ks, err := LiLogUniform(11, 100, 1e-5, 1)
	if err != nil {
		t.Fatal(err)
	}
	_, centres := liEdges(100, 1e-5, 1)
	rows := formulaRefs(t, "li_algo1_loguniform")
	if len(rows) != 11 {
		t.Fatalf("%d li_algo1_loguniform rows, want 11", len(rows))
	}
	for i, j := range wantBins {
		if ks[i] != centres[j] {
			t.Errorf("k%d = %.17g is not the centre of bin %d (%.17g)", i+1, ks[i], j, centres[j])
		}
		if !strings.Contains(rows[i].component, fmt.Sprintf("k%d (bin j=%d:", i+1, j)) {
			t.Fatalf("row %d is %q", i, rows[i].component)
		}
		if e := relErr(ks[i], rows[i].value); e > 4e-16 {
			t.Errorf("k%d = %.17g, reference %.17g (rel. %.2g > 4e-16)", i+1, ks[i], rows[i].value, e)
		}
	}
	// Li with no K and no values runs the same on the domain [m, b].
	m := design1(t, &Li{}, problem(fmap.Chi2, 0, unitInterval), 11)
	for i := range ks {
		if m.Series().K[i] != ks[i] {
			t.Fatalf("Li on [1e-5, 1] gives k = %v, LiLogUniform %v", m.Series().K, ks)
		}
	}
}

// TestLiErrorOnG checks the maximum error over all pairs of the grid G
// (docs/formulas.md §1.3) of Li's series with Algorithm 1 on a log-uniform
// density on [1e-5, 1], 100 bins, against docs/formulas.md §2.2 ("weight =
// mass"): 8.46e-2, 2.25e-2, 6.74e-3, 1.88e-3, 5.72e-4, 5.81e-5 for N = 1, 2,
// 3, 5, 7, 11. The published numbers have 3 significant digits, so each
// must match within 0.5 % relative.
func TestLiErrorOnG(t *testing.T) {
	tests := []struct {
		n    int
		want float64 // docs/formulas.md §2.2 table; tolerance 0.5 %
	}{
		{1, 8.46e-2}, {2, 2.25e-2}, {3, 6.74e-3}, {5, 1.88e-3}, {7, 5.72e-4}, {11, 5.81e-5},
	}
	for _, tc := range tests {
		got := maxErrorOnG(design1(t, &Li{}, problem(fmap.Chi2, 0, unitInterval), tc.n))
		t.Logf("li N=%d: max error on G %.4g (docs/formulas.md %.3g)", tc.n, got, tc.want)
		if relErr(got, tc.want) > 5e-3 {
			t.Errorf("li N=%d: max error on G = %.4g, want %.3g within 0.5 %%", tc.n, got, tc.want)
		}
	}
}

// TestLiFromValues checks the data-driven Algorithm 1: zeros are ignored;
// data with one value at every bin centre of [lo, hi] has equal mass in
// every bin, so it picks what LiLogUniform picks on [lo, hi] when lo and hi
// themselves are in the data (their bins then hold 2, which the test
// accounts for by comparing with a direct mass vector); and a small hand
// example.
func TestLiFromValues(t *testing.T) {
	// Hand example: values 0.01 (×3) and 0.5, 2 bins. Edges 0.01, √0.005,
	// 0.5; the centres x0 = (0.01³·0.5)^{1/4}, x1 = (0.01·0.5³)^{1/4}; masses
	// 3 and 1, so b = (3x0/(x0+1), x1/(x1+1)) = (0.0777, 0.158): k1 = x1.
	// Then b0 ← b0·(x0−x1)/(x0+x1) = −0.058, b1 = 0: k2 = x0; then all b
	// are 0 and the tie goes to the lowest bin: k3 = x0.
	x0 := math.Pow(0.01*0.01*0.01*0.5, 0.25)
	x1 := math.Pow(0.01*0.5*0.5*0.5, 0.25)
	ks, err := LiFromValues(3, 2, []float64{0.01, 0, 0.01, 0.5, 0.01, 0})
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{x1, x0, x0}
	for i := range want {
		if relErr(ks[i], want[i]) > 1e-15 {
			t.Errorf("hand example: k = %v, want %v", ks, want)
			break
		}
	}

	// One value at each edge e_0..e_B: every bin holds 1, except the last,
	// which is closed and holds e_{B−1} and e_B.
	const bins = 40
	edges, centres := liEdges(bins, 1e-4, 2)
	mass := make([]float64, bins)
	for j := range mass {
		mass[j] = 1
	}
	mass[bins-1] = 2
	got, err := LiFromValues(9, bins, append([]float64{0, 0}, edges...))
	if err != nil {
		t.Fatal(err)
	}
	ref := liGreedy(9, centres, mass)
	for i := range ref {
		if got[i] != ref[i] {
			t.Fatalf("edges as data: k = %v, want %v", got, ref)
		}
	}

	// All values equal: a single nonempty bin, every k is that value.
	got, err = LiFromValues(3, 0, []float64{0.3, 0.3, 0})
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range got {
		if k != 0.3 {
			t.Errorf("constant data: k = %v, want 0.3 each", got)
		}
	}

	// Li with Values uses them.
	m := design1(t, &Li{Opts: LiOptions{Values: []float64{0.01, 0, 0.01, 0.5, 0.01, 0}, Bins: 2}}, problem(fmap.Chi2, 0, unitInterval), 3)
	if k := m.Series().K; relErr(k[0], x1) > 1e-15 || relErr(k[1], x0) > 1e-15 {
		t.Errorf("Li with values: k = %v, want %v", k, want)
	}
}

// TestLiMapFields checks that Li and Chebyshev maps carry the problem's
// kernel (as given: γ = 0 stays 0, meaning 1), the domain, the negative
// rule and the method, are one-stage series maps of the right form and
// dimension, and validate.
func TestLiMapFields(t *testing.T) {
	dom := fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{255}}
	lp := problem(fmap.Chi2, 0, dom)
	lp.Negative = fmap.NegativeZero
	li := design1(t, &Li{}, lp, 4)
	cp := problem(fmap.Chi2, 1, dom)
	ch := design1(t, Chebyshev{}, cp, 6)
	for _, tc := range []struct {
		m      *fmap.Map
		p      *fmap.Problem
		method string
		form   fmap.Form
		neg    fmap.Negative
		dim    int
	}{
		{li, lp, "li", fmap.LiSeries, fmap.NegativeZero, 4},
		{ch, cp, "chebyshev", fmap.Chebyshev, fmap.NegativeSign, 6},
	} {
		m := tc.m
		if err := m.Validate(); err != nil {
			t.Error(err)
		}
		s := m.Series()
		if s == nil {
			t.Fatalf("%s: not a one-stage series map: %+v", tc.method, m)
		}
		if m.Method != tc.method || s.Form != tc.form || s.Negative != tc.neg || m.Negative() != tc.neg || m.Dim != tc.dim || s.Dim != tc.dim ||
			!reflect.DeepEqual(m.Kernel, tc.p.Kernel) || m.Kernel.Type != "chi2" || !m.Domain.Integer || m.Domain.Hi[0] != 255 || m.InDim != 1 {
			t.Errorf("%s map: %+v, stage %+v", tc.method, m, s)
		}
	}
	// On {0..255} Algorithm 1 works on [1, 255].
	want, err := LiLogUniform(4, 100, 1, 255)
	if err != nil {
		t.Fatal(err)
	}
	for i := range want {
		if li.Series().K[i] != want[i] {
			t.Fatalf("li on {0..255}: k = %v, want %v", li.Series().K, want)
		}
	}
}

// TestLiBadInput checks that Li, LiLogUniform and LiFromValues return errors
// (never panic) for bad problems and options, each naming the problem.
func TestLiBadInput(t *testing.T) {
	iv := unitInterval
	c2 := problem(fmap.Chi2, 0, iv)
	tests := []struct {
		name string
		p    *fmap.Problem
		dim  int
		opt  LiOptions
		want string
	}{
		{"kernel", problem(fmap.Intersection, 0, iv), 3, LiOptions{}, "li needs kernel chi2 with gamma 1, not intersection"},
		{"gamma", problem(fmap.Chi2, 0.5, iv), 3, LiOptions{}, "li needs kernel chi2 with gamma 1, not gamma 0.5"},
		{"k length", c2, 3, LiOptions{K: []float64{1, 2}}, "2 parameters k for dimension 3"},
		{"k zero", c2, 2, LiOptions{K: []float64{1, 0}}, "k2 = 0"},
		{"k nan", c2, 1, LiOptions{K: []float64{math.NaN()}}, "k1 = NaN"},
		{"both", c2, 1, LiOptions{K: []float64{1}, Values: []float64{1}}, "not both"},
		{"no positive", c2, 1, LiOptions{Values: []float64{0, 0}}, "no positive value"},
		{"negative value", c2, 1, LiOptions{Values: []float64{1, -2}}, "value 2 is -2"},
		{"bins", c2, 1, LiOptions{Bins: -1}, "bins -1"},
		{"open interval", problem(fmap.Chi2, 0, fmap.Domain{Lo: []float64{0}, Hi: []float64{1}}), 2, LiOptions{}, "no smallest nonzero input"},
		{"dim", c2, 0, LiOptions{}, "dimension 0"},
		{"domain", problem(fmap.Chi2, 0, fmap.Domain{Lo: []float64{2}, Hi: []float64{1}}), 2, LiOptions{}, "need lo < hi"},
		{"negative rule", &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.Chi2}, Domain: iv, Measure: fmap.Absolute, Norm: fmap.LInf, Negative: "abs"}, 2, LiOptions{}, "negative-input rule"},
	}
	for _, tc := range tests {
		_, err := designErr(&Li{Opts: tc.opt}, tc.p, tc.dim)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
	if _, err := LiLogUniform(3, 10, 2, 1); err == nil {
		t.Error("LiLogUniform with m > b: no error")
	}
	if _, err := LiFromValues(0, 10, []float64{1}); err == nil {
		t.Error("LiFromValues with n = 0: no error")
	}
}

// TestParseValues checks the data-file reader: accepted layouts, and errors
// that name the file and line.
func TestParseValues(t *testing.T) {
	tests := []struct {
		name, in string
		want     []float64
		err      string
	}{
		{"lines", "0.5\n1\n0\n", []float64{0.5, 1, 0}, ""},
		{"fields and comments", "# header\n\n0.1 0.2\t3e-4 # trailing\r\n  \n5", []float64{0.1, 0.2, 3e-4, 5}, ""},
		{"negative zero", "-0", []float64{0}, ""},
		{"not a number", "1\n2\n3\n4\n5\n6\nabc\n", nil, `data.txt:7: "abc" is not a number`},
		{"negative", "1\n-2\n", nil, "data.txt:2: -2 is negative; values must be nonnegative"},
		{"nan", "# c\nNaN\n", nil, `data.txt:2: "NaN" is not a finite number`},
		{"inf", "1 +Inf", nil, `data.txt:1: "+Inf" is not a finite number`},
		{"range", "1e999", nil, `data.txt:1: "1e999" is out of the float64 range`},
		{"empty", "# nothing\n\n", nil, "data.txt: no values"},
	}
	for _, tc := range tests {
		got, err := ParseValues(strings.NewReader(tc.in), "data.txt")
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: got %v, want %v", tc.name, got, tc.want)
		}
	}
}
