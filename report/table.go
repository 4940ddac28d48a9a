package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// table is one method × D table of the report, format-neutral.
type table struct {
	Title string
	Dims  []int
	// Cols are the column headings, e.g. "D = 3" or "width 192".
	Cols []string
	Rows []tableRow
}

type tableRow struct {
	Label string
	Cells []tableCell
}

// tableCell is one entry: a number, or n/a or failed with the reason.
type tableCell struct {
	Status string
	Value  float64
	Best   bool
	Why    string
}

// tables returns the L∞, RMS and design-time tables.
func (in *Input) tables() []table {
	name, _ := in.errorName()
	linf, rms := "L∞ "+name, "RMS "+name
	var out []table
	if in.hasData() {
		// The held-out rows' errors first; the box's after, labelled so.
		linf, rms = "on the box: "+linf, "on the box: "+rms
		out = append(out,
			in.table(qDataFrob, "held-out data: relative Frobenius error of the Gram matrix"),
			in.table(qDataLInf, "held-out data: L∞ of |K − Ψ·Ψ| over the rows' pairs"))
	}
	return append(out,
		in.table(qLInf, linf),
		in.table(qRMS, rms),
		in.table(qSeconds, "design time"))
}

func (in *Input) table(q quantity, title string) table {
	t := table{Title: title, Dims: in.Dims}
	for _, d := range in.Dims {
		t.Cols = append(t.Cols, in.at(d))
	}
	best := in.best(q)
	for i, m := range in.Methods {
		r := tableRow{Label: m.Label}
		for j := range in.Dims {
			c := in.Cells[i][j]
			tc := tableCell{Status: c.Status()}
			switch tc.Status {
			case StatusOK:
				tc.Value, tc.Best = c.value(q), best[i][j]
			case StatusNA:
				tc.Why = c.NA
			default:
				tc.Why = c.errorText()
			}
			r.Cells = append(r.Cells, tc)
		}
		t.Rows = append(t.Rows, r)
	}
	return t
}

// numberParts splits an error into a mantissa of three significant digits
// and a power of ten, the latter 0 for values from 0.001 to 9999.
func numberParts(v float64) (string, int) {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'g', 3, 64), 0
	}
	e := int(math.Floor(math.Log10(math.Abs(v))))
	if e >= -3 && e < 4 {
		return strconv.FormatFloat(v, 'g', 3, 64), 0
	}
	m := v / math.Pow(10, float64(e))
	if s := strconv.FormatFloat(m, 'f', 2, 64); s == "10.00" || s == "-10.00" {
		m, e = m/10, e+1
	}
	return strconv.FormatFloat(m, 'f', 2, 64), e
}

// plainNumber formats an error for Markdown: 0.0123, 1.91e-4.
func plainNumber(v float64) string {
	m, e := numberParts(v)
	if e == 0 {
		return m
	}
	return fmt.Sprintf("%se%d", m, e)
}

// seconds formats a design time: whole milliseconds below a second, then
// two or three significant digits of seconds.
func seconds(v float64) string {
	v = roundSeconds(v)
	switch {
	case v < 0.001:
		return "<1 ms"
	case v < 1:
		return fmt.Sprintf("%.0f ms", v*1000)
	case v < 10:
		return fmt.Sprintf("%.2f s", v)
	}
	return fmt.Sprintf("%.1f s", v)
}

// roundSeconds rounds a design time to what seconds shows of it.
func roundSeconds(v float64) float64 {
	switch {
	case v < 0.0005:
		return 0
	case v < 0.9995:
		return math.Round(v*1000) / 1000
	case v < 9.995:
		return math.Round(v*100) / 100
	}
	return math.Round(v*10) / 10
}

// cellText formats an ok cell of table t for plain text.
func (t table) cellText(c tableCell) string {
	if strings.HasPrefix(t.Title, "design time") {
		return seconds(c.Value)
	}
	return plainNumber(c.Value)
}
