package report

import (
	"bytes"
	"encoding/base64"
	"encoding/xml"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"strconv"
	"strings"
)

// The report's plots are written by the small SVG writer in this file: a
// document (svgDoc) with lines, markers, text and embedded PNG rasters, and
// on it a chart (axes, ticks, a grid, line series and a legend to the right
// of the data). The output is deterministic: coordinates are written with
// at most two decimals, and everything is drawn in slice order.

// svgFontFamily is the plots' typeface: Liberation Sans, or a fallback
// with the same metrics (Arial, Helvetica) where it is not installed.
const svgFontFamily = "'Liberation Sans',Arial,Helvetica,sans-serif"

// Font sizes of the plots (px of the viewBox).
const (
	titleSize = 13
	labelSize = 11
	tickSize  = 10
)

// svgDoc is an SVG document being written, w × h units (pt on the page).
type svgDoc struct {
	w, h float64
	b    strings.Builder
}

// newSVG starts a document of w × h with a white background.
func newSVG(w, h float64) *svgDoc {
	d := &svgDoc{w: w, h: h}
	fmt.Fprintf(&d.b, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
	fmt.Fprintf(&d.b, "%s\n", Marker)
	fmt.Fprintf(&d.b, "<svg width=\"%spt\" height=\"%spt\" viewBox=\"0 0 %s %s\" xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n",
		num(w), num(h), num(w), num(h))
	fmt.Fprintf(&d.b, "<g font-family=\"%s\">\n", svgFontFamily)
	fmt.Fprintf(&d.b, "<path d=\"M0,0H%sV%sH0Z\" fill=\"#FFFFFF\"/>\n", num(w), num(h))
	return d
}

// bytes closes the document and returns it.
func (d *svgDoc) bytes() []byte {
	d.b.WriteString("</g>\n</svg>\n")
	return []byte(d.b.String())
}

// num writes a coordinate with at most two decimals (never "-0").
func num(v float64) string {
	r := math.Round(v*100) / 100
	if r == 0 {
		r = 0
	}
	return strconv.FormatFloat(r, 'f', -1, 64)
}

// hexColor writes c as #RRGGBB.
func hexColor(c color.RGBA) string {
	return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B)
}

// escape returns s escaped for XML text and attributes.
func escape(s string) string {
	var b strings.Builder
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

// line draws a straight line from (x1, y1) to (x2, y2).
func (d *svgDoc) line(x1, y1, x2, y2 float64, stroke string, width float64) {
	fmt.Fprintf(&d.b, "<path d=\"M%s,%sL%s,%s\" stroke=\"%s\" stroke-width=\"%s\"/>\n",
		num(x1), num(y1), num(x2), num(y2), stroke, num(width))
}

// polyline draws the points (x[k], y[k]) joined by straight lines, dashed
// when dash is not empty.
func (d *svgDoc) polyline(x, y []float64, stroke string, width float64, dash string) {
	if len(x) == 0 {
		return
	}
	var p strings.Builder
	for k := range x {
		if k == 0 {
			p.WriteByte('M')
		} else {
			p.WriteByte('L')
		}
		p.WriteString(num(x[k]))
		p.WriteByte(',')
		p.WriteString(num(y[k]))
	}
	fmt.Fprintf(&d.b, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" stroke-linejoin=\"round\"", p.String(), stroke, num(width))
	if dash != "" {
		fmt.Fprintf(&d.b, " stroke-dasharray=\"%s\"", dash)
	}
	d.b.WriteString("/>\n")
}

// Text anchors.
const (
	anchorStart  = "start"
	anchorMiddle = "middle"
	anchorEnd    = "end"
)

// text writes s with its baseline at (x, y), anchored at its start,
// middle or end, rotated by rot degrees about (x, y).
func (d *svgDoc) text(x, y float64, s string, size float64, anchor string, rot float64) {
	fmt.Fprintf(&d.b, "<text x=\"%s\" y=\"%s\" font-size=\"%s\"", num(x), num(y), num(size))
	if anchor != anchorStart {
		fmt.Fprintf(&d.b, " text-anchor=\"%s\"", anchor)
	}
	if rot != 0 {
		fmt.Fprintf(&d.b, " transform=\"rotate(%s %s %s)\"", num(rot), num(x), num(y))
	}
	fmt.Fprintf(&d.b, ">%s</text>\n", escape(s))
}

// lines writes ls as one text element, a tspan per line, the first line's
// baseline at (x, y) and each next one leading below, anchored at their
// starts.
func (d *svgDoc) lines(x, y, leading float64, ls []string, size float64) {
	fmt.Fprintf(&d.b, "<text x=\"%s\" y=\"%s\" font-size=\"%s\">", num(x), num(y), num(size))
	for i, l := range ls {
		dy := ""
		if i > 0 {
			dy = fmt.Sprintf(" dy=\"%s\"", num(leading))
		}
		fmt.Fprintf(&d.b, "<tspan x=\"%s\"%s>%s</tspan>", num(x), dy, escape(l))
	}
	d.b.WriteString("</text>\n")
}

// image embeds img as a PNG stretched over the rectangle (x, y, w, h),
// its pixels shown sharp rather than blurred.
func (d *svgDoc) image(x, y, w, h float64, img image.Image) error {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return fmt.Errorf("report: encoding a plot's raster: %w", err)
	}
	fmt.Fprintf(&d.b, "<image x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" preserveAspectRatio=\"none\" style=\"image-rendering:pixelated\" xlink:href=\"data:image/png;base64,%s\"/>\n",
		num(x), num(y), num(w), num(h), base64.StdEncoding.EncodeToString(buf.Bytes()))
	return nil
}

// marker draws method i's marker shape centred at (x, y).
func (d *svgDoc) marker(i int, x, y float64) {
	const r = 3.5
	c := hexColor(methodColors[i%len(methodColors)])
	fill := fmt.Sprintf("fill=\"%s\"", c)
	open := fmt.Sprintf("fill=\"none\" stroke=\"%s\" stroke-width=\"1\"", c)
	var path, style string
	switch i % len(methodGlyphs) {
	case 0: // circle
		path, style = circlePath(x, y, r), fill
	case 1: // square
		path, style = fmt.Sprintf("M%s,%sh%sv%sh%sZ", num(x-r), num(y-r), num(2*r), num(2*r), num(-2*r)), fill
	case 2: // triangle
		path, style = fmt.Sprintf("M%s,%sL%s,%sL%s,%sZ", num(x), num(y-r*1.15), num(x+r), num(y+r*0.6), num(x-r), num(y+r*0.6)), fill
	case 3: // pyramid: the triangle upside down
		path, style = fmt.Sprintf("M%s,%sL%s,%sL%s,%sZ", num(x), num(y+r*1.15), num(x+r), num(y-r*0.6), num(x-r), num(y-r*0.6)), fill
	case 4: // ring
		path, style = circlePath(x, y, r), open
	case 5: // box
		path, style = fmt.Sprintf("M%s,%sh%sv%sh%sZ", num(x-r), num(y-r), num(2*r), num(2*r), num(-2*r)), open
	case 6: // cross
		path, style = fmt.Sprintf("M%s,%sL%s,%sM%s,%sL%s,%s", num(x-r), num(y-r), num(x+r), num(y+r), num(x-r), num(y+r), num(x+r), num(y-r)), open
	default: // plus
		path, style = fmt.Sprintf("M%s,%sH%sM%s,%sV%s", num(x-r), num(y), num(x+r), num(x), num(y-r), num(y+r)), open
	}
	fmt.Fprintf(&d.b, "<path d=\"%s\" %s/>\n", path, style)
}

// circlePath is the path of a circle of radius r about (x, y).
func circlePath(x, y, r float64) string {
	return fmt.Sprintf("M%s,%sa%s,%s 0 1,0 %s,0a%s,%s 0 1,0 %s,0Z",
		num(x-r), num(y), num(r), num(r), num(2*r), num(r), num(r), num(-2*r))
}

// textWidth estimates the width of s at font size size from Liberation
// Sans's (Arial's) advance widths, in ems, with fontSlack to spare; close
// enough to lay out labels and legends without measuring fonts.
func textWidth(s string, size float64) float64 {
	w := 0.0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w * size * fontSlack
}

// fontSlack widens the estimates of textWidth for the fallback fonts of
// systems without Liberation Sans, Arial or Helvetica: DejaVu Sans, the
// usual one on Linux, sets text up to a sixth wider.
const fontSlack = 1.18

// runeWidth is the advance width of r in ems (Liberation Sans, rounded).
func runeWidth(r rune) float64 {
	switch {
	case r >= '0' && r <= '9':
		return 0.556
	case strings.ContainsRune(" .,:;!'|/", r) || r == '·':
		return 0.278
	case strings.ContainsRune("ijl", r):
		return 0.222
	case strings.ContainsRune("ft()[]-r", r):
		return 0.333
	case strings.ContainsRune("mM", r):
		return 0.833
	case r == 'w' || r == 'W':
		return 0.944
	case r == 'I':
		return 0.278
	case strings.ContainsRune("=+×−<>~", r):
		return 0.584
	case strings.ContainsRune("⁰¹²³⁴⁵⁶⁷⁸⁹⁻", r):
		return 0.4
	case r >= 'a' && r <= 'z':
		return 0.52
	case r >= 'A' && r <= 'Z':
		return 0.68
	case r == 'Ψ' || r == '∞':
		return 0.78
	}
	return 0.6
}

// tick is one tick of an axis: its value and its label ("" for an
// unlabelled tick).
type tick struct {
	Value float64
	Label string
}

// xy is one point of a curve.
type xy struct{ X, Y float64 }

// series is one method's curve on a chart: method is its index (colour,
// dashes and marker), markers whether its points are marked, width its
// line width.
type series struct {
	label   string
	method  int
	pts     []xy
	markers bool
	width   float64
}

// chart is a plot of line series against a linear x axis and a linear or
// logarithmic y axis, with a grid at the labelled or decade ticks (unless
// noGrid: under a heat map it would cross the data) and the
// legend in a column to the right of the data, so that no curve hides
// under it.
type chart struct {
	title, xLabel, yLabel  string
	xMin, xMax, yMin, yMax float64
	yLog, noGrid           bool
	xTicks, yTicks         []tick
	series                 []series
	legend                 []legendEntry
}

// legendEntry is one line of a legend; method < 0 draws no thumbnail.
type legendEntry struct {
	label   string
	method  int
	markers bool
}

// area is the rectangle of a plot's data in document units.
type area struct{ left, top, right, bottom float64 }

// mapX and mapY turn data values into document coordinates.
func (c *chart) mapX(a area, v float64) float64 {
	return a.left + (v-c.xMin)/(c.xMax-c.xMin)*(a.right-a.left)
}

func (c *chart) mapY(a area, v float64) float64 {
	lo, hi := c.yMin, c.yMax
	if c.yLog {
		v, lo, hi = math.Log10(v), math.Log10(lo), math.Log10(hi)
	}
	return a.bottom - (v-lo)/(hi-lo)*(a.bottom-a.top)
}

// The legend column's layout: a label starts legendIndent after the
// column's left edge (the thumbnail is 24 wide, then a gap of 6) and
// keeps legendMargin free to its right; the column takes at most
// legendShare of the chart's width, so that the data keep the larger part,
// and a label wider than that wraps onto further lines, legendLeading
// apart (entries are legendStep apart).
const (
	legendIndent  = 24 + 6
	legendMargin  = 16
	legendShare   = 0.4
	legendLeading = 13
	legendStep    = 17
)

// legendLayout returns the legend column's width for a chart w wide (0
// without entries) and every entry's label as the lines it is drawn in:
// one line if it fits the column, else broken into lines that fit (see
// wrapLabel): a label is never cut, and the column is never wider than
// legendShare of the chart.
func (c *chart) legendLayout(w float64) (width float64, lines [][]string) {
	if len(c.legend) == 0 {
		return 0, nil
	}
	limit := legendShare*w - legendIndent - legendMargin
	text := 0.0
	for _, e := range c.legend {
		ls := wrapLabel(e.label, limit)
		for _, l := range ls {
			text = max(text, textWidth(l, labelSize))
		}
		lines = append(lines, ls)
	}
	return text + legendIndent + legendMargin, lines
}

// wrapLabel breaks s into lines no wider than limit at labelSize, at
// spaces; a word wider than limit (a file path, say) is broken inside,
// after its last '/', '_', '-', '.' or ',' that fits, else after its last
// character that fits. s itself if it fits. Every character but the
// spaces broken at is on some line, in order.
func wrapLabel(s string, limit float64) []string {
	if textWidth(s, labelSize) <= limit {
		return []string{s}
	}
	var lines []string
	line := ""
	for _, word := range strings.Split(s, " ") {
		switch {
		case line == "" && textWidth(word, labelSize) <= limit:
			line = word
		case line != "" && textWidth(line+" "+word, labelSize) <= limit:
			line += " " + word
		case textWidth(word, labelSize) <= limit:
			lines = append(lines, line)
			line = word
		default:
			if line != "" {
				lines = append(lines, line)
			}
			parts := breakWord(word, limit)
			lines = append(lines, parts[:len(parts)-1]...)
			line = parts[len(parts)-1]
		}
	}
	return append(lines, line)
}

// breakWord cuts word into pieces no wider than limit (at least one rune
// each), each ending after the last '/', '_', '-', '.' or ',' that fits,
// else at the last rune that fits.
func breakWord(word string, limit float64) []string {
	var parts []string
	rs := []rune(word)
	for len(rs) > 0 {
		n, soft := 1, 0
		for n < len(rs) && textWidth(string(rs[:n+1]), labelSize) <= limit {
			n++
		}
		if n < len(rs) {
			for i := n; i > 0; i-- {
				if strings.ContainsRune("/_-.,", rs[i-1]) {
					soft = i
					break
				}
			}
			if soft > 0 {
				n = soft
			}
		}
		parts = append(parts, string(rs[:n]))
		rs = rs[n:]
	}
	return parts
}

// render draws the chart into a new w × h document and returns it.
func (c *chart) render(w, h float64) ([]byte, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	d := newSVG(w, h)
	width, lines := c.legendLayout(w)
	right := w - width - 12
	c.draw(d, c.plotArea(right, h))
	c.drawLegend(d, right+12, 28, lines)
	return d.bytes(), nil
}

// check rejects ranges no chart can be drawn on.
func (c *chart) check() error {
	if !(c.xMax > c.xMin) || !(c.yMax > c.yMin) || math.IsInf(c.xMax-c.xMin, 0) || math.IsInf(c.yMax-c.yMin, 0) {
		return fmt.Errorf("report: plot %q: empty or infinite range x [%v, %v], y [%v, %v]", c.title, c.xMin, c.xMax, c.yMin, c.yMax)
	}
	if c.yLog && !(c.yMin > 0) {
		return fmt.Errorf("report: plot %q: log axis from %v", c.title, c.yMin)
	}
	return nil
}

// plotArea lays the data rectangle out in (0, 0, right, h): the title
// above, the y label and tick labels to the left, the x tick labels and
// label below.
func (c *chart) plotArea(right, h float64) area {
	lw := 0.0
	for _, t := range c.yTicks {
		lw = max(lw, textWidth(t.Label, tickSize))
	}
	left := 4 + labelSize + 8 + lw + 8
	return area{left: left, top: 28, right: right, bottom: h - 38}
}

// draw draws the title, grid, axes, ticks, labels and series in a.
func (c *chart) draw(d *svgDoc, a area) {
	d.text(centred(d, a, c.title, titleSize), 17, c.title, titleSize, anchorMiddle, 0)
	// The grid: at every x tick, and at the labelled y ticks and (log
	// axes) every power of ten.
	const grid = "#E4E4E4"
	for _, t := range c.xTicks {
		if c.noGrid {
			break
		}
		if x := c.mapX(a, t.Value); t.Value >= c.xMin && t.Value <= c.xMax {
			d.line(x, a.top, x, a.bottom, grid, 0.6)
		}
	}
	for _, t := range c.yTicks {
		if c.noGrid {
			break
		}
		if t.Label == "" && !(c.yLog && isDecade(t.Value)) || t.Value < c.yMin || t.Value > c.yMax {
			continue
		}
		y := c.mapY(a, t.Value)
		d.line(a.left, y, a.right, y, grid, 0.6)
	}
	// The axes and their ticks, labelled ticks longer.
	d.line(a.left, a.bottom, a.right, a.bottom, "#000000", 0.8)
	d.line(a.left, a.top, a.left, a.bottom, "#000000", 0.8)
	for _, t := range c.xTicks {
		if t.Value < c.xMin || t.Value > c.xMax {
			continue
		}
		x, l := c.mapX(a, t.Value), 3.0
		if t.Label != "" {
			l = 5
			d.text(x, a.bottom+l+tickSize+1, t.Label, tickSize, anchorMiddle, 0)
		}
		d.line(x, a.bottom, x, a.bottom+l, "#000000", 0.6)
	}
	for _, t := range c.yTicks {
		if t.Value < c.yMin*(1-1e-9) || t.Value > c.yMax*(1+1e-9) {
			continue
		}
		y, l := c.mapY(a, t.Value), 3.0
		if t.Label != "" {
			l = 5
			d.text(a.left-l-3, y+tickSize*0.35, t.Label, tickSize, anchorEnd, 0)
		}
		d.line(a.left-l, y, a.left, y, "#000000", 0.6)
	}
	d.text(centred(d, a, c.xLabel, labelSize), a.bottom+5+tickSize+1+labelSize+6, c.xLabel, labelSize, anchorMiddle, 0)
	d.text(4+labelSize, (a.top+a.bottom)/2, c.yLabel, labelSize, anchorMiddle, -90)
	for _, s := range c.series {
		var xs, ys []float64
		for _, p := range s.pts {
			if math.IsNaN(p.X) || math.IsNaN(p.Y) || math.IsInf(p.X, 0) || math.IsInf(p.Y, 0) {
				continue
			}
			xs, ys = append(xs, c.mapX(a, p.X)), append(ys, c.mapY(a, p.Y))
		}
		stroke, dash := methodStroke(s.method)
		d.polyline(xs, ys, stroke, s.width, dash)
		if s.markers {
			for k := range xs {
				d.marker(s.method, xs[k], ys[k])
			}
		}
	}
}

// centred returns the x of text s centred over the data of a, moved
// right as far as needed to keep it on the document (a wide legend
// narrows the data).
func centred(d *svgDoc, a area, s string, size float64) float64 {
	x := (a.left + a.right) / 2
	if w := textWidth(s, size); x-w/2 < 4 {
		x = min(4+w/2, d.w/2)
	}
	return x
}

// drawLegend draws the legend entries in a column from (x, y): a thumbnail
// of each method's line and marker, then its label in the lines
// legendLayout broke it into (one text element; a label of several lines
// a tspan per line).
func (c *chart) drawLegend(d *svgDoc, x, y float64, lines [][]string) {
	ly := y + 8
	for k, e := range c.legend {
		if e.method >= 0 || e.method == floorSeries {
			stroke, dash := methodStroke(e.method)
			d.polyline([]float64{x, x + 24}, []float64{ly, ly}, stroke, 1.5, dash)
			if e.markers {
				d.marker(e.method, x+12, ly)
			}
		}
		if len(lines[k]) == 1 {
			d.text(x+legendIndent, ly+labelSize*0.35, e.label, labelSize, anchorStart, 0)
		} else {
			d.lines(x+legendIndent, ly+labelSize*0.35, legendLeading, lines[k], labelSize)
		}
		ly += legendStep + float64(len(lines[k])-1)*legendLeading
	}
}

// isDecade reports whether v is a power of ten.
func isDecade(v float64) bool {
	e := math.Log10(v)
	return math.Abs(e-math.Round(e)) < 1e-9
}

// methodStroke returns method i's line colour and dash pattern: solid
// while the colours last, dashed after.
func methodStroke(i int) (stroke, dash string) {
	if i == floorSeries {
		return "#555555", "2,3"
	}
	stroke = hexColor(methodColors[i%len(methodColors)])
	if i >= len(methodColors) {
		dash = "5,3"
	}
	return stroke, dash
}
