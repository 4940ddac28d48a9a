package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"html"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestFiguresWellFormed: every plot of the test report is well-formed XML
// whose coordinates are finite and lie inside its viewBox, and drawing the
// figures twice gives byte-identical SVG.
func TestFiguresWellFormed(t *testing.T) {
	a, err := testInput().figures()
	if err != nil {
		t.Fatal(err)
	}
	b, err := testInput().figures()
	if err != nil {
		t.Fatal(err)
	}
	if len(a) != 4 {
		t.Fatalf("%d figures, want 4", len(a))
	}
	viewBox := regexp.MustCompile(`viewBox="0 0 ([0-9.]+) ([0-9.]+)"`)
	coord := regexp.MustCompile(` (x|y|width|height)="([^"]*)"`)
	for i, f := range a {
		if !bytes.Equal(f.SVG, b[i].SVG) {
			t.Errorf("%s differs between two draws", f.File)
		}
		dec := xml.NewDecoder(bytes.NewReader(f.SVG))
		for {
			_, err := dec.Token()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatalf("%s is not well-formed XML: %v", f.File, err)
			}
		}
		m := viewBox.FindSubmatch(f.SVG)
		if m == nil {
			t.Fatalf("%s has no viewBox", f.File)
		}
		w, _ := strconv.ParseFloat(string(m[1]), 64)
		h, _ := strconv.ParseFloat(string(m[2]), 64)
		body := f.SVG[bytes.Index(f.SVG, []byte("<g ")):] // past the <svg> element's size
		for _, c := range coord.FindAllSubmatch(body, -1) {
			v, err := strconv.ParseFloat(string(c[2]), 64)
			limit := w
			if c[1][0] == 'y' || c[1][0] == 'h' {
				limit = h
			}
			if err != nil || v < 0 || v > limit {
				t.Errorf("%s: %s=%q outside 0..%v", f.File, c[1], c[2], limit)
			}
		}
		for _, bad := range []string{"NaN", "Inf", "e+", "e-"} {
			if bytes.Contains(f.SVG, []byte(`"`+bad)) || bytes.Contains(f.SVG, []byte(bad+`"`)) {
				t.Errorf("%s holds %q", f.File, bad)
			}
		}
	}
}

// svgText is one text element of an SVG: its x and its lines (one, or
// one per tspan).
type svgText struct {
	x     float64
	lines []string
}

// label is the text's lines joined by spaces.
func (t svgText) label() string { return strings.Join(t.lines, " ") }

// joined is the text's characters, spaces left out.
func (t svgText) joined() string { return noSpaces(strings.Join(t.lines, "")) }

func noSpaces(s string) string { return strings.ReplaceAll(s, " ", "") }

// textElements returns the horizontal text elements of svg.
func textElements(svg string) []svgText {
	var out []svgText
	tspan := regexp.MustCompile(`<tspan x="[0-9.]+"(?: dy="[0-9.]+")?>([^<]*)</tspan>`)
	for _, m := range regexp.MustCompile(`<text x="([0-9.]+)" y="[0-9.]+"[^>]*>((?:[^<]|<tspan[^>]*>[^<]*</tspan>)*)</text>`).FindAllStringSubmatch(svg, -1) {
		x, _ := strconv.ParseFloat(m[1], 64)
		t := svgText{x: x}
		if ts := tspan.FindAllStringSubmatch(m[2], -1); ts != nil {
			for _, l := range ts {
				t.lines = append(t.lines, html.UnescapeString(l[1]))
			}
		} else {
			t.lines = []string{html.UnescapeString(m[2])}
		}
		out = append(out, t)
	}
	return out
}

// curvesRight is the largest x at which the curves and markers of the
// methods coloured #0072B2 and #D55E00 (methods 0 and 1) are drawn,
// legend thumbnails included.
func curvesRight(svg string) float64 {
	maxX := 0.0
	point := regexp.MustCompile(`[ML]([0-9.]+),[0-9.]+`)
	for _, p := range regexp.MustCompile(`<path d="([^"]*)"[^>]*(?:stroke|fill)="#(?:0072B2|D55E00)"`).FindAllStringSubmatch(svg, -1) {
		for _, q := range point.FindAllStringSubmatch(p[1], -1) {
			x, _ := strconv.ParseFloat(q[1], 64)
			maxX = max(maxX, x)
		}
	}
	return maxX
}

// TestLegendBesideData: the legend's labels start to the right of every
// point the curves and markers are drawn at, so no curve runs under it,
// and stay on the document, with long labels too (wrapped, whole).
func TestLegendBesideData(t *testing.T) {
	for _, long := range []string{
		"annfm (uniform, n_anchors 12)",
		"rf-pca (features 1024, form phase, sampling orthogonal, center true, chunk_rows 256)",
		"a_label_with_one_very_long_word_and_no_space_at_all_to_wrap_it_at",
	} {
		in := testInput()
		in.Methods[0].Label = long
		f, err := in.errorFigure(qLInf)
		if err != nil {
			t.Fatal(err)
		}
		svg := string(f.SVG)
		// The legend's own thumbnails are the rightmost method-coloured
		// paths: the labels start right of them.
		maxX := curvesRight(svg)
		labels := 0
		for _, tx := range textElements(svg) {
			// Whole: every character but the spaces broken at.
			if l := tx.joined(); l != noSpaces(in.Methods[0].Label) && l != noSpaces(in.Methods[1].Label) {
				continue
			}
			labels++
			if tx.x < maxX {
				t.Errorf("legend label %q at x = %v, left of drawing at x = %v", tx.label(), tx.x, maxX)
			}
			// The data end 12 before the column, which is at most
			// legendShare of the width.
			if right := tx.x - legendIndent - 12; right < (1-legendShare)*errorW-12-1e-9 {
				t.Errorf("legend label %q leaves the data %v of %v", tx.label(), right, errorW)
			}
			for _, l := range tx.lines {
				if w := textWidth(l, labelSize); tx.x+w > errorW {
					t.Errorf("legend line %q runs off the plot: %v + %v > %v", l, tx.x, w, errorW)
				}
			}
		}
		if labels != 2 {
			t.Errorf("%q: %d legend labels found whole, want 2", long, labels)
		}
	}
}

// TestLegendWrapsLongLabels: a label wider than the legend column may be
// (legendShare of the chart) is drawn whole on several lines, one text
// element, the data keeping the rest of the width; the next entry starts
// below its last line; a label that fits, and a chart whose labels all
// fit, are drawn as before (one line, the column as wide as the widest
// label).
func TestLegendWrapsLongLabels(t *testing.T) {
	long := "rf-pca (features 1024, form phase, sampling orthogonal, center true)"
	c := &chart{legend: []legendEntry{{label: long, method: 0}, {label: "chum", method: 1}}}
	width, lines := c.legendLayout(errorW)
	if len(lines[0]) < 2 || strings.Join(lines[0], " ") != long {
		t.Errorf("the long label is laid out as %q, want several lines giving it back", lines[0])
	}
	if len(lines[1]) != 1 || lines[1][0] != "chum" {
		t.Errorf("a short label is laid out as %q", lines[1])
	}
	if width > legendShare*errorW {
		t.Errorf("the legend column is %v wide, more than %v of %v", width, legendShare, errorW)
	}
	if natural := textWidth(long, labelSize) + legendIndent + legendMargin; !(natural > legendShare*errorW) {
		t.Fatalf("the test label is not long: %v", natural)
	}
	short := &chart{legend: []legendEntry{{label: "nystroem (kmeans)"}, {label: "chum"}}}
	if w, ls := short.legendLayout(errorW); w != textWidth("nystroem (kmeans)", labelSize)+legendIndent+legendMargin || len(ls[0]) != 1 {
		t.Errorf("labels that fit: column %v, lines %q", w, ls)
	}

	c.xMin, c.xMax, c.yMin, c.yMax = 0, 1, 0, 1
	c.series = []series{{method: 0, pts: []xy{{0, 0}, {1, 1}}}, {method: 1, pts: []xy{{0, 1}, {1, 0}}}}
	svg, err := c.render(errorW, errorH)
	if err != nil {
		t.Fatal(err)
	}
	var got []svgText
	for _, tx := range textElements(string(svg)) {
		if tx.label() == long || tx.label() == "chum" {
			got = append(got, tx)
		}
	}
	if len(got) != 2 || len(got[0].lines) < 2 {
		t.Fatalf("legend texts %+v, want the long label whole on several lines and chum", got)
	}
	if maxX := curvesRight(string(svg)); got[0].x < maxX {
		t.Errorf("the wrapped label starts at x = %v, left of the drawing at %v", got[0].x, maxX)
	}
	// The next entry's thumbnail is below the wrapped label's last line.
	y := regexp.MustCompile(`<path d="M([0-9.]+),([0-9.]+)L[0-9.]+,[0-9.]+" [^>]*stroke="#D55E00"`).FindAllStringSubmatch(string(svg), -1)
	last := y[len(y)-1] // the legend's thumbnail is drawn after the curves
	ty, _ := strconv.ParseFloat(last[2], 64)
	first := 28 + 8 + labelSize*0.35
	if lastLine := first + float64(len(got[0].lines)-1)*legendLeading; ty-labelSize*0.35 < lastLine {
		t.Errorf("the second entry (y = %v) overlaps the first's last line (baseline %v)", ty, lastLine)
	}
}

// TestLogTicksThinned: a log axis has a tick at every power of ten in
// range, labelled 10^k with every step-th one labelled (step 1 up to 8
// decades, then every second, third, …) and the top one always labelled;
// the multiples 2..9 get unlabelled ticks only on short axes.
func TestLogTicksThinned(t *testing.T) {
	cases := []struct {
		lo, hi float64
		labels []string
		minors bool
	}{
		{1e-3, 1, []string{"10⁻³", "0.01", "0.1", "1"}, true},
		{1e-16, 1, []string{"10⁻¹⁶", "10⁻¹⁴", "10⁻¹²", "10⁻¹⁰", "10⁻⁸", "10⁻⁶", "10⁻⁴", "0.01", "1"}, false},
		{1e-12, 10, []string{"10⁻¹²", "10⁻¹⁰", "10⁻⁸", "10⁻⁶", "10⁻⁴", "0.01", "1", "10"}, false},
	}
	for _, c := range cases {
		var labels []string
		minors, decadesSeen := false, 0
		for _, tk := range (logTicks{}).Ticks(c.lo, c.hi) {
			if isDecade(tk.Value) {
				decadesSeen++
			} else {
				minors = true
				if tk.Label != "" {
					t.Errorf("[%v, %v]: minor tick %v labelled %q", c.lo, c.hi, tk.Value, tk.Label)
				}
			}
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if strings.Join(labels, " ") != strings.Join(c.labels, " ") {
			t.Errorf("[%v, %v]: labels %q, want %q", c.lo, c.hi, labels, c.labels)
		}
		if want := int(math.Round(math.Log10(c.hi/c.lo))) + 1; decadesSeen != want {
			t.Errorf("[%v, %v]: %d decade ticks, want %d", c.lo, c.hi, decadesSeen, want)
		}
		if minors != c.minors {
			t.Errorf("[%v, %v]: minor ticks %v, want %v", c.lo, c.hi, minors, c.minors)
		}
	}
}

// TestNiceTicks: linear ticks sit at round values, labelled every 1, 2 or
// 5 times a power of ten, with about four intervals, zero written as 0.
func TestNiceTicks(t *testing.T) {
	cases := []struct {
		lo, hi float64
		labels string
	}{
		{-0.5, 31.5, "0 10 20 30"},
		{-0.5, 255.5, "0 50 100 150 200 250"},
		{0, 3.45, "0 1 2 3"},
		{0, 1.6, "0 0.5 1 1.5"},
		{0, 1.2, "0 0.2 0.4 0.6 0.8 1 1.2"},
		{-2.4, 2.4, "−2 −1 0 1 2"},
	}
	for _, c := range cases {
		var labels []string
		for _, tk := range (tableTicks{}).Ticks(c.lo, c.hi) {
			if slack := 1e-9 * (c.hi - c.lo); tk.Value < c.lo-slack || tk.Value > c.hi+slack {
				t.Errorf("[%v, %v]: tick %v outside", c.lo, c.hi, tk.Value)
			}
			if tk.Label != "" {
				labels = append(labels, tk.Label)
			}
		}
		if got := strings.Join(labels, " "); got != c.labels {
			t.Errorf("[%v, %v]: labels %q, want %q", c.lo, c.hi, got, c.labels)
		}
	}
}

// TestBlueRed: the heat map's colour map runs from Moreland's blue
// (59, 76, 192) through a neutral grey to his red (180, 4, 38), each
// within 2 of the published 8-bit values, and the grey's channels equal
// within 2.
func TestBlueRed(t *testing.T) {
	near := func(a, b uint8) bool { return math.Abs(float64(a)-float64(b)) <= 2 }
	for _, c := range []struct {
		t       float64
		r, g, b uint8
	}{{0, 59, 76, 192}, {1, 180, 4, 38}} {
		got := blueRed(c.t)
		if !near(got.R, c.r) || !near(got.G, c.g) || !near(got.B, c.b) {
			t.Errorf("blueRed(%v) = %v, want about (%d, %d, %d)", c.t, got, c.r, c.g, c.b)
		}
	}
	mid := blueRed(0.5)
	if !near(mid.R, mid.G) || !near(mid.G, mid.B) || mid.R < 200 {
		t.Errorf("blueRed(0.5) = %v, want a light grey", mid)
	}
	if heatColor(-1, 1) != blueRed(0) || heatColor(1, 1) != blueRed(1) || heatColor(5, 1) != blueRed(1) {
		t.Error("heatColor does not map −top..top onto the whole map, clamped")
	}
}

// TestChartBadRange: a chart over an empty, infinite or (log axis)
// non-positive range is an error naming the plot, not a panic or NaN
// coordinates.
func TestChartBadRange(t *testing.T) {
	for _, c := range []*chart{
		{title: "empty", xMin: 1, xMax: 1, yMin: 0, yMax: 1},
		{title: "nan", xMin: 0, xMax: math.NaN(), yMin: 0, yMax: 1},
		{title: "inf", xMin: 0, xMax: math.Inf(1), yMin: 0, yMax: 1},
		{title: "log", xMin: 0, xMax: 1, yMin: 0, yMax: 1, yLog: true},
	} {
		if _, err := c.render(100, 100); err == nil || !strings.Contains(err.Error(), c.title) {
			t.Errorf("%s: err %v", c.title, err)
		}
	}
}
