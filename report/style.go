package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// The plots' typeface: Liberation Sans, whose metrics gonum/plot lays text
// out with; browsers without it use Arial or Helvetica, which share them.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// svgFontFamily is what the SVG files name as the font family (replacing
// gonum's bare "Liberation Sans" so that a fallback with the same metrics
// is used where it is not installed).
const svgFontFamily = `font-family:'Liberation Sans',Arial,Helvetica,sans-serif;`

// palette holds the methods' colours (Okabe and Ito's colour-blind-safe
// set, yellow left out for contrast on white), in method order.
var methodColors = []color.RGBA{
	{0x00, 0x72, 0xB2, 0xFF}, // blue
	{0xD5, 0x5E, 0x00, 0xFF}, // vermillion
	{0x00, 0x9E, 0x73, 0xFF}, // bluish green
	{0xCC, 0x79, 0xA7, 0xFF}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xFF}, // orange
	{0x56, 0xB4, 0xE9, 0xFF}, // sky blue
	{0x00, 0x00, 0x00, 0xFF}, // black
}

// methodGlyphs are the methods' marker shapes, in method order.
var methodGlyphs = []draw.GlyphDrawer{
	draw.CircleGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.PyramidGlyph{},
	draw.RingGlyph{}, draw.BoxGlyph{}, draw.CrossGlyph{}, draw.PlusGlyph{},
}

// methodStyle returns the line and marker style of method i: its colour
// and shape, dashed after the colours run out.
func methodStyle(i int) (draw.LineStyle, draw.GlyphStyle) {
	c := methodColors[i%len(methodColors)]
	ls := draw.LineStyle{Color: c, Width: vg.Points(1.5)}
	if i >= len(methodColors) {
		ls.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	gs := draw.GlyphStyle{Color: c, Radius: vg.Points(3.5), Shape: methodGlyphs[i%len(methodGlyphs)]}
	return ls, gs
}

// newPlot returns a plot with the report's fonts and a light grid.
func newPlot(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font = font.From(sans, 13)
	p.Title.Padding = vg.Points(6)
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Label.TextStyle.Font = font.From(sans, 11)
		a.Tick.Label.Font = font.From(sans, 10)
	}
	p.X.Label.Text, p.Y.Label.Text = xLabel, yLabel
	p.Legend.TextStyle.Font = font.From(sans, 11)
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{0xE4}
	g.Horizontal.Color = color.Gray{0xE4}
	p.Add(g)
	return p
}

// entry is one line of a legend.
type entry struct {
	label string
	thumb []plot.Thumbnailer
}

// drawWithLegend draws p into c with the legend entries in a column to the
// right of the plot, outside the data, so that no curve hides under it.
func drawWithLegend(c draw.Canvas, p *plot.Plot, entries []entry) {
	if len(entries) == 0 {
		p.Draw(c)
		return
	}
	l := plot.NewLegend()
	l.TextStyle.Font = font.From(sans, 11)
	l.Top, l.Left = true, true
	l.ThumbnailWidth = vg.Points(24)
	l.Padding = vg.Points(5)
	w := vg.Length(0)
	for _, e := range entries {
		l.Add(e.label, e.thumb...)
		w = max(w, l.TextStyle.Width(e.label))
	}
	w += l.ThumbnailWidth + 2*l.TextStyle.Width(" ") + vg.Points(8)
	p.Draw(draw.Crop(c, 0, -w, 0, 0))
	lc := draw.Crop(c, c.Max.X-c.Min.X-w+vg.Points(8), 0, 0, 0)
	l.YOffs = -p.Title.TextStyle.Height(p.Title.Text) - 2*p.Title.Padding
	l.Draw(lc)
}

// renderSVG draws an SVG of w × h with fn and returns the document, with
// the fixes of tidySVG.
func renderSVG(w, h vg.Length, fn func(c draw.Canvas)) (svg []byte, err error) {
	defer func() {
		// gonum/plot panics on some degenerate data; a report reports it.
		if r := recover(); r != nil {
			svg, err = nil, fmt.Errorf("report: drawing a plot: %v", r)
		}
	}()
	cv := vgsvg.New(w, h)
	fn(draw.New(cv))
	var b bytes.Buffer
	if _, err := cv.WriteTo(&b); err != nil {
		return nil, err
	}
	return tidySVG(b.Bytes()), nil
}

// tidySVG gives the fonts fallbacks with the same metrics, labels the
// embedded raster images (heat maps, colour bars) with their true type,
// PNG, stretches them to the rectangle gonum/plot gives them (SVG keeps
// their aspect ratio by default) and asks browsers to show their pixels
// sharp rather than blurred.
func tidySVG(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte("font-family:Liberation Sans;"), []byte(svgFontFamily))
	b = bytes.ReplaceAll(b, []byte("data:image/jpg;base64,"), []byte("data:image/png;base64,"))
	b = bytes.ReplaceAll(b, []byte("<image "), []byte(`<image style="image-rendering:pixelated" preserveAspectRatio="none" `))
	return b
}

// inlineSVG returns an SVG document for inclusion in HTML: without the XML
// prolog, and scaling to the width of its container.
func inlineSVG(b []byte) string {
	s := string(b)
	if i := strings.Index(s, "<svg"); i >= 0 {
		s = s[i:]
	}
	return strings.Replace(s, "<svg ", `<svg class="plot" role="img" `, 1)
}

// logTicks marks every power of ten between min and max (every second or
// third one when they span many decades) with a label such as 10⁻⁴, and
// the multiples 2..9 in between with unlabelled ticks when there is room.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	step := 1 + (hi-lo-1)/8
	var ts []plot.Tick
	for e := lo; e <= hi; e++ {
		v := math.Pow(10, float64(e))
		if v >= min*(1-1e-9) && v <= max*(1+1e-9) {
			t := plot.Tick{Value: v}
			if (e-lo)%step == 0 || e == hi {
				t.Label = powerOfTen(e)
			}
			ts = append(ts, t)
		}
		if hi-lo > 6 {
			continue
		}
		for k := 2; k <= 9; k++ {
			if m := float64(k) * v; m > min && m < max {
				ts = append(ts, plot.Tick{Value: m})
			}
		}
	}
	return ts
}

// powerOfTen returns 10^e written with superscripts, or 1, 10, 100 and
// 0.1, 0.01 for small e.
func powerOfTen(e int) string {
	switch {
	case e >= 0 && e <= 2:
		return strconv.FormatFloat(math.Pow(10, float64(e)), 'f', 0, 64)
	case e >= -2 && e < 0:
		return strconv.FormatFloat(math.Pow(10, float64(e)), 'f', -e, 64)
	}
	return "10" + superscript(e)
}

// superscript writes the integer e in superscript digits, e.g. ⁻⁴.
func superscript(e int) string {
	digits := []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")
	var b strings.Builder
	if e < 0 {
		b.WriteRune('⁻')
		e = -e
	}
	for _, c := range strconv.Itoa(e) {
		b.WriteRune(digits[c-'0'])
	}
	return b.String()
}

// tableNumber writes v as the HTML tables do (numberParts: three
// significant digits, times a power of ten outside 0.001..9999), in plain
// text with a superscript exponent and a true minus sign: 7.50×10⁻⁵.
func tableNumber(v float64) string {
	m, e := numberParts(v)
	m = strings.Replace(m, "-", "−", 1)
	if e == 0 {
		return m
	}
	return m + "×10" + superscript(e)
}

// tableTicks places ticks as gonum/plot's default ticker does and labels
// them with tableNumber, so that an axis prints numbers as the tables do
// (the default writes 7.5e-05).
type tableTicks struct{}

// Ticks implements plot.Ticker.
func (tableTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = tableNumber(ts[i].Value)
		}
	}
	return ts
}

// decades returns the powers of ten around the positive values lo ≤ hi,
// spanning at least one decade: the range of a log axis.
func decades(lo, hi float64) (float64, float64) {
	a, b := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if b <= a {
		b = a + 1
	}
	return math.Pow(10, a), math.Pow(10, b)
}
