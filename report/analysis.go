package report

import (
	"fmt"
	"math"
	"strings"
)

// quantity is one number of a cell the table shows.
type quantity int

const (
	qLInf quantity = iota
	qRMS
	qSeconds
	// qDataFrob and qDataLInf are the held-out data's Gram-matrix relative
	// Frobenius error and L∞ |K − Ψ·Ψ| (NaN for a map without them).
	qDataFrob
	qDataLInf
	// qRank is the error that ranks the methods, by the rule method auto
	// keeps its map with (fmap.Verification.Rank).
	qRank
)

// value returns the quantity of an ok cell.
func (c Cell) value(q quantity) float64 {
	switch q {
	case qRank:
		e, _ := c.Verification.Rank()
		return e
	case qLInf:
		return c.Verification.Reported.LInf
	case qRMS:
		return c.Verification.Reported.RMS
	case qDataFrob, qDataLInf:
		d := c.Verification.Data
		switch {
		case d == nil:
			return math.NaN()
		case q == qDataFrob:
			return d.Frobenius
		}
		return d.Absolute.LInf
	}
	return c.Seconds
}

// hasData reports whether the maps were verified on held-out data rows:
// then the data error ranks them.
func (in *Input) hasData() bool {
	for _, row := range in.Cells {
		for _, c := range row {
			if c.ok() && c.Verification.Data != nil {
				return true
			}
		}
	}
	return false
}

// rankQuantity is what ranks the methods (the winners, and method auto's
// choice): fmap.Verification.Rank, the held-out data error when there is
// data, else the L∞ error; and its name in words.
func (in *Input) rankQuantity() (quantity, string) {
	for _, row := range in.Cells {
		for _, c := range row {
			if c.ok() {
				_, what := c.Verification.Rank()
				return qRank, what
			}
		}
	}
	return qRank, "L∞ error"
}

// rankValue is the value of q that best compares: design times as the
// table shows them (differences below its resolution are noise).
func (c Cell) rankValue(q quantity) float64 {
	if q == qSeconds {
		return roundSeconds(c.Seconds)
	}
	return c.value(q)
}

// best returns, for each column, which rows hold the smallest value of q
// among the ok cells (all of them on a tie).
func (in *Input) best(q quantity) [][]bool {
	out := make([][]bool, len(in.Methods))
	for i := range out {
		out[i] = make([]bool, len(in.Dims))
	}
	for j := range in.Dims {
		first := true
		var min float64
		for i := range in.Methods {
			if c := in.Cells[i][j]; c.ok() && !math.IsNaN(c.rankValue(q)) && (first || c.rankValue(q) < min) {
				min, first = c.rankValue(q), false
			}
		}
		for i := range in.Methods {
			if c := in.Cells[i][j]; !first && c.ok() && c.rankValue(q) == min {
				out[i][j] = true
			}
		}
	}
	return out
}

// okCount returns the number of ok cells in column j.
func (in *Input) okCount(j int) int {
	n := 0
	for i := range in.Methods {
		if in.Cells[i][j].ok() {
			n++
		}
	}
	return n
}

// chosenDim returns the column whose maps the signature and kernel-error
// plots show — the one with the most made maps, the largest D on a tie —
// and why, in words; −1 if no cell holds a map.
func (in *Input) chosenDim() (int, string) {
	col, n := -1, 0
	for j := range in.Dims {
		if k := in.okCount(j); k > n || k == n && k > 0 && in.Dims[j] > in.Dims[col] {
			col, n = j, k
		}
	}
	switch {
	case col < 0:
		return -1, ""
	case n == len(in.Methods) && n == 1:
		return col, "the largest " + in.axis() + " compared"
	case n == len(in.Methods):
		return col, "the largest " + in.axis() + " every method makes"
	}
	return col, fmt.Sprintf("the largest %s with the most maps (%d of %d methods)", in.axis(), n, len(in.Methods))
}

// bestAt returns the row with the smallest L∞ error in column j (the first
// on a tie), or −1.
func (in *Input) bestAt(j int) int {
	row := -1
	for i := range in.Methods {
		c := in.Cells[i][j]
		if c.ok() && (row < 0 || c.value(qLInf) < in.Cells[row][j].value(qLInf)) {
			row = i
		}
	}
	return row
}

// winners summarises which method has the smallest error at each D (the
// held-out data error when there is data, else L∞), in words, runs of
// dimensions with the same winner together: "Smallest L∞ error: chum at
// D = 3..10, li at D = 11."
func (in *Input) winners() string {
	q, what := in.rankQuantity()
	b := in.best(q)
	type run struct {
		who  string
		dims []int
	}
	var runs []run
	for j, d := range in.Dims {
		var w []string
		for i := range in.Methods {
			if b[i][j] {
				w = append(w, in.Methods[i].Label)
			}
		}
		if len(w) == 0 {
			continue
		}
		who := strings.Join(w, " = ")
		if n := len(runs); n > 0 && runs[n-1].who == who {
			runs[n-1].dims = append(runs[n-1].dims, d)
		} else {
			runs = append(runs, run{who, []int{d}})
		}
	}
	switch {
	case len(runs) == 0:
		return ""
	case len(runs) == 1 && len(runs[0].dims) > 1:
		return fmt.Sprintf("Smallest %s at every %s: %s.", what, in.axis(), runs[0].who)
	}
	var parts []string
	for _, r := range runs {
		parts = append(parts, fmt.Sprintf("%s at %s", r.who, in.atList(r.dims)))
	}
	return "Smallest " + what + ": " + strings.Join(parts, "; ") + "."
}

// dimList lists dimensions, a run of three or more as first..last.
func dimList(dims []int) string {
	var parts []string
	for i := 0; i < len(dims); {
		j := i + 1
		for j < len(dims) && dims[j] == dims[j-1]+1 {
			j++
		}
		if j-i >= 3 {
			parts = append(parts, fmt.Sprintf("%d..%d", dims[i], dims[j-1]))
		} else {
			for _, d := range dims[i:j] {
				parts = append(parts, fmt.Sprint(d))
			}
		}
		i = j
	}
	return strings.Join(parts, ", ")
}

// notes lists the n/a and failed cells, grouped by method and reason, e.g.
// "vz (uniform), D = 4, 6: vz makes odd dimensions only".
func (in *Input) notes() (na, failed []string) {
	for i, m := range in.Methods {
		var reasons []string
		dims := map[string][]int{}
		for j, d := range in.Dims {
			c := in.Cells[i][j]
			var why string
			switch c.Status() {
			case StatusNA:
				why = "n/a: " + c.NA
			case StatusFailed:
				why = "failed: " + c.errorText()
			default:
				continue
			}
			if _, ok := dims[why]; !ok {
				reasons = append(reasons, why)
			}
			dims[why] = append(dims[why], d)
		}
		for _, why := range reasons {
			line := fmt.Sprintf("%s at %s: %s", m.Label, in.atListPlain(dims[why]), why[strings.Index(why, ": ")+2:])
			if strings.HasPrefix(why, "n/a") {
				na = append(na, line)
			} else {
				failed = append(failed, line)
			}
		}
	}
	return na, failed
}
