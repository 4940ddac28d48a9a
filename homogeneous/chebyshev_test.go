package homogeneous

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// chebMap returns the N-term Chebyshev map on [1e-6, 1] or fails the test.
func chebMap(t *testing.T, n int) *fmap.Map {
	t.Helper()
	return design1(t, Chebyshev{}, problem(fmap.Chi2, 0, fmap.Domain{Lo: []float64{1e-6}, Hi: []float64{1}}), n)
}

// TestChebyshevRefs checks the li_cheb rows of formula_refs.csv: d_0..d_10
// at x ∈ {0, 1e-6, 0.01, 0.1, 0.25, 0.5, 1, 2} to 1e-14·√x absolute
// (|d_q(x)| ≤ √(2x)), exactly 0 at x = 0 and exactly (1, 0, …, 0) at x = 1,
// and the truncated sums Σ_{q<N} d_q(x)d_q(0.5), N = 3, 5, 7, 11, to 1e-14
// relative.
func TestChebyshevRefs(t *testing.T) {
	m11 := chebMap(t, 11)
	rows := formulaRefs(t, "li_cheb")
	for _, r := range rows {
		x := mustFloat(t, r.x)
		if y, ok := strings.CutPrefix(r.component, "dot(y="); ok {
			nStr, _, _ := strings.Cut(strings.TrimPrefix(r.params, "N="), " ")
			n, err := strconv.Atoi(nStr)
			if err != nil {
				t.Fatal(err)
			}
			yv := mustFloat(t, strings.TrimSuffix(y, ")"))
			if got := chebMap(t, n).Dot([]float64{x}, []float64{yv}); relErr(got, r.value) > 1e-14 {
				t.Errorf("N=%d: Ψ(%g)·Ψ(%g) = %.17g, want %.17g", n, x, yv, got, r.value)
			}
			continue
		}
		q, err := strconv.Atoi(r.component)
		if err != nil {
			t.Fatal(err)
		}
		psi := make([]float64, 11)
		m11.Eval(psi, []float64{x})
		if d := math.Abs(psi[q] - r.value); d > 1e-14*math.Sqrt(x) {
			t.Errorf("d_%d(%g) = %.17g, want %.17g (diff %.2g)", q, x, psi[q], r.value, d)
		}
		if (x == 0 || x == 1) && psi[q] != r.value {
			t.Errorf("d_%d(%g) = %g, want exactly %g", q, x, psi[q], r.value)
		}
	}
}

// TestChebyshevReciprocal checks d_q(1/x) = (−1)^q d_q(x)/x (from
// K(1/x, 1/y) = K(x, y)/(xy)) for q < 40 at every point of G and a few
// large and tiny x, to 1e-14·√(1/x) absolute (the scale of d_q(1/x));
// docs/formulas.md §3 finds it exact in float for most x.
func TestChebyshevReciprocal(t *testing.T) {
	const n = 40
	m := chebMap(t, n)
	a, b := make([]float64, n), make([]float64, n)
	for _, x := range append(GridG(), 3, 255, 1e6, 1e-12, 1e100) {
		m.Eval(a, []float64{x})
		m.Eval(b, []float64{1 / x})
		for q := range n {
			want := a[q] / x
			if q%2 == 1 {
				want = -want
			}
			if d := math.Abs(b[q] - want); d > 1e-14*math.Sqrt(1/x) {
				t.Errorf("d_%d(1/%g) = %.17g, (−1)^q d_q(x)/x = %.17g (diff %.2g)", q, x, b[q], want, d)
			}
		}
	}
}

// TestChebyshevErrorOnG checks the truncation error max |K − Σ_{q<N} d_q d_q|
// over all pairs of the grid G against docs/formulas.md §3.3: 1.556e-2,
// 8.662e-3, 6.176e-3, 3.983e-3 for N = 3, 5, 7, 11. The numbers have 4
// significant digits, so each must match within 0.05 % relative.
func TestChebyshevErrorOnG(t *testing.T) {
	tests := []struct {
		n    int
		want float64 // docs/formulas.md §3.3 table; tolerance 0.05 %
	}{
		{3, 1.556e-2}, {5, 8.662e-3}, {7, 6.176e-3}, {11, 3.983e-3},
	}
	for _, tc := range tests {
		got := maxErrorOnG(chebMap(t, tc.n))
		t.Logf("chebyshev N=%d: max error on G %.5g (docs/formulas.md %.4g)", tc.n, got, tc.want)
		if relErr(got, tc.want) > 5e-4 {
			t.Errorf("chebyshev N=%d: max error on G = %.5g, want %.4g within 0.05 %%", tc.n, got, tc.want)
		}
	}
}

// TestChebyshevBadInput checks the errors for other kernels, γ ≠ 1, a bad
// dimension and an unknown kernel.
func TestChebyshevBadInput(t *testing.T) {
	dom := fmap.Domain{Lo: []float64{0}, Hi: []float64{1}}
	for _, tc := range []struct {
		p    *fmap.Problem
		dim  int
		want string
	}{
		{problem(fmap.JS, 0, dom), 3, "chebyshev needs kernel chi2 with gamma 1, not js"},
		{problem(fmap.Chi2, 2, dom), 3, "chebyshev needs kernel chi2 with gamma 1, not gamma 2"},
		{problem(fmap.Chi2, 0, dom), -1, "dimension -1"},
		{problem("x", 0, dom), 1, "unknown kernel"},
	} {
		if _, err := designErr(Chebyshev{}, tc.p, tc.dim); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v, dim %d: error %v, want one containing %q", tc.p, tc.dim, err, tc.want)
		}
	}
}
