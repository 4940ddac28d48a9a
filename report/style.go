package report

import (
	"image/color"
	"math"
	"strconv"
	"strings"
)

// methodColors holds the methods' colours (Okabe and Ito's colour-blind-safe
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

// methodGlyphs are the methods' marker shapes, in method order (drawn by
// svgDoc.marker).
var methodGlyphs = []string{"circle", "square", "triangle", "pyramid", "ring", "box", "cross", "plus"}

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

// Ticks returns the ticks of an axis from min to max.
func (logTicks) Ticks(min, max float64) []tick {
	lo, hi := int(math.Floor(math.Log10(min))), int(math.Ceil(math.Log10(max)))
	step := 1 + (hi-lo-1)/8
	var ts []tick
	for e := lo; e <= hi; e++ {
		v := math.Pow(10, float64(e))
		if v >= min*(1-1e-9) && v <= max*(1+1e-9) {
			t := tick{Value: v}
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
				ts = append(ts, tick{Value: m})
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

// tableTicks places ticks at round values (niceTicks) and labels them with
// tableNumber, so that an axis prints numbers as the tables do (not Go's
// 7.5e-05).
type tableTicks struct{}

// Ticks returns the ticks of an axis from min to max.
func (tableTicks) Ticks(min, max float64) []tick {
	ts := niceTicks(min, max)
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

// niceTicks returns ticks from min to max: labelled ones (label "x", for
// the caller to replace) at a round step of 1, 2 or 5 times a power of ten
// giving about four intervals, and unlabelled ones at a fifth of it.
func niceTicks(min, max float64) []tick {
	if !(max > min) || math.IsInf(max-min, 0) {
		return []tick{{Value: min, Label: "x"}}
	}
	raw := (max - min) / 4
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	switch r := raw / mag; {
	case r < 1.5:
		step = mag
	case r < 3:
		step = 2 * mag
	case r < 7:
		step = 5 * mag
	}
	minor := step / 5
	var ts []tick
	for k := math.Ceil(min / minor); k*minor <= max+1e-9*(max-min); k++ {
		// k·minor, written as k/5 steps to keep round values exact.
		v := k / 5 * step
		if v == 0 {
			v = 0 // not −0 (k may be −0 from Ceil)
		}
		t := tick{Value: v}
		if math.Mod(k, 5) == 0 {
			t.Label = "x"
		}
		ts = append(ts, t)
	}
	return ts
}

// plainTicks places ticks as niceTicks does and labels them with the value
// in plain decimals (0.5, 2, 250; never Go's exponent style).
func plainTicks(min, max float64) []tick {
	ts := niceTicks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			v := math.Round(ts[i].Value*1e6) / 1e6
			if v == 0 {
				v = 0
			}
			ts[i].Label = strconv.FormatFloat(v, 'f', -1, 64)
		}
	}
	return ts
}
