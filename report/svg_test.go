package report

import (
	"bytes"
	"encoding/xml"
	"errors"
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

// TestLegendBesideData: the legend's labels start to the right of every
// point the curves and markers are drawn at, so no curve runs under it,
// with long labels too.
func TestLegendBesideData(t *testing.T) {
	in := testInput()
	in.Methods[0].Label = "annfm (uniform, n_anchors 12)"
	f, err := in.errorFigure(qLInf)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(f.SVG)
	// The curves: paths drawn in a method colour, outside the legend.
	maxX := 0.0
	point := regexp.MustCompile(`[ML]([0-9.]+),[0-9.]+`)
	for _, p := range regexp.MustCompile(`<path d="([^"]*)"[^>]*(?:stroke|fill)="#(?:0072B2|D55E00)"`).FindAllStringSubmatch(svg, -1) {
		for _, q := range point.FindAllStringSubmatch(p[1], -1) {
			x, _ := strconv.ParseFloat(q[1], 64)
			maxX = max(maxX, x)
		}
	}
	labels := 0
	for _, m := range regexp.MustCompile(`<text x="([0-9.]+)"[^>]*>([^<]*)</text>`).FindAllStringSubmatch(svg, -1) {
		if m[2] != in.Methods[0].Label && m[2] != in.Methods[1].Label {
			continue
		}
		labels++
		x, _ := strconv.ParseFloat(m[1], 64)
		// The legend's own thumbnails are the rightmost method-coloured
		// paths: the labels start right of them.
		if x < maxX {
			t.Errorf("legend label %q at x = %v, left of drawing at x = %v", m[2], x, maxX)
		}
		if w := textWidth(m[2], labelSize); x+w > errorW {
			t.Errorf("legend label %q runs off the plot: %v + %v > %v", m[2], x, w, errorW)
		}
	}
	if labels != 2 {
		t.Errorf("%d legend labels, want 2", labels)
	}
	// And the data stay left of the legend column.
	c := &chart{legend: []legendEntry{{label: in.Methods[0].Label}}}
	if right := errorW - c.legendWidth() - 12; right < errorW/3 {
		t.Errorf("the legend leaves %v of %v for the data", right, errorW)
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
