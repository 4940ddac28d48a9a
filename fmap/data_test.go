package fmap

import (
	"fmt"
	"strings"
	"testing"
)

// TestRankNeedsDistinctRows: held-out rows rank maps only when at least
// MinRankRows of them are distinct; with fewer (two rows, or many copies
// of one) a map exact on them would win whatever its error elsewhere, and
// the reported L∞ error ranks instead, saying why.
func TestRankNeedsDistinctRows(t *testing.T) {
	rows := func(n, distinct int) [][]float64 {
		out := make([][]float64, n)
		for i := range out {
			out[i] = []float64{float64(i % distinct), 1}
		}
		return out
	}
	for _, c := range []struct{ n, distinct int }{{1, 1}, {200, 1}, {200, MinRankRows - 1}, {200, MinRankRows}} {
		if got := distinctRows(rows(c.n, c.distinct)); got != c.distinct {
			t.Errorf("distinctRows of %d rows with %d distinct: %d", c.n, c.distinct, got)
		}
		v := Verification{Reported: Measurement{LInf: 0.5}, Data: &DataVerification{Frobenius: 1e-16, Distinct: c.distinct}}
		e, by := v.Rank()
		if data := c.distinct >= MinRankRows; data != (e == 1e-16) || !data && !strings.Contains(by, fmt.Sprintf("%d distinct, are fewer than the %d", c.distinct, MinRankRows)) {
			t.Errorf("%d distinct rows: ranked by %q at %g", c.distinct, by, e)
		}
	}
}
