package report

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/featmap/featmap/fmap"
)

// maxHeatSide bounds the side of the kernel-error map: larger integer
// domains are sampled evenly (both ends kept).
const maxHeatSide = 256

// errorGrid is the kernel error K(x, y) − Ψ(x)·Ψ(y) on a grid of inputs,
// x along columns and y along rows.
type errorGrid struct {
	v []float64 // the inputs
	e []float64 // e[r*n+c] is the error at x = v[c], y = v[r]
}

// kernelErrors evaluates m against the reference's exact kernel on (at most
// maxHeatSide of) its verification inputs, and returns the grid and the
// largest |error|. A map of whole rows (fmap.Map.WholeRows) is evaluated on
// the rows (v, …, v), its error per coordinate.
func kernelErrors(m *fmap.Map, ref *fmap.Reference) (*errorGrid, float64) {
	n := len(ref.Inputs)
	var pick []int
	if n <= maxHeatSide {
		for i := range n {
			pick = append(pick, i)
		}
	} else {
		for i := range maxHeatSide {
			pick = append(pick, int(math.Round(float64(i)*float64(n-1)/float64(maxHeatSide-1))))
		}
	}
	g := &errorGrid{v: make([]float64, len(pick)), e: make([]float64, len(pick)*len(pick))}
	psi := make([][]float64, len(pick))
	scale := 1.0
	for k, i := range pick {
		g.v[k] = ref.Inputs[i][0]
		psi[k] = make([]float64, m.Dim)
		x := ref.Inputs[i]
		if m.WholeRows() {
			// A map of whole rows of an additive kernel: the row (v, …, v),
			// its Ψ·Ψ per coordinate, as fmap.Verify measures it.
			x = slices.Repeat(x[:1], m.InDim)
			scale = 1 / float64(m.InDim)
		}
		m.Eval(psi[k], x)
	}
	top := 0.0
	for r, y := range pick {
		for c, x := range pick {
			s := 0.0
			for t := range psi[c] {
				s += psi[c][t] * psi[r][t]
			}
			e := ref.Exact(ref.Inputs[x], ref.Inputs[y]) - s*scale
			g.e[r*len(pick)+c] = e
			if !math.IsNaN(e) {
				top = math.Max(top, math.Abs(e))
			}
		}
	}
	return g, top
}

// heatFigure maps the kernel error over (x, y) of the most accurate method
// at column j, for one-dimensional integer domains.
func (in *Input) heatFigure(j int, why string) (figure, bool, error) {
	ref := in.Reference
	i := in.bestAt(j)
	if i < 0 || !in.Domain.Integer || len(ref.Inputs) < 2 || len(ref.Inputs[0]) != 1 {
		return figure{}, false, nil
	}
	m, d := in.Methods[i], in.Dims[j]
	g, top := kernelErrors(in.Cells[i][j].Map, ref)
	if top == 0 {
		top = 1
	}
	title := fmt.Sprintf("Kernel error of %s at %s", m.Label, in.at(d))
	svg, err := heatSVG(g, top, title)
	caption := fmt.Sprintf("The signed kernel error K(x, y) − Ψ(x)·Ψ(y) of %s, the most accurate method at %s (%s), "+
		"at every pair of %s (as in Chum's Fig. 5); red: Ψ·Ψ below K (the map underestimates), blue: above it. "+
		"Largest |error| %s.", m.Label, in.at(d), why, ref.InputsOn, tableNumber(top))
	if len(ref.Inputs) > maxHeatSide {
		caption += fmt.Sprintf(" The domain's %d inputs are sampled at %d evenly spaced values per axis.", len(ref.Inputs), maxHeatSide)
	}
	return figure{File: "kernel-error.svg", Title: title, Caption: caption, SVG: svg}, true, err
}

// heatColors is the number of colours of the heat map's palette.
const heatColors = 255

// heatSVG draws the grid g as a heat map with its colour bar: errors from
// −top (blue) to top (red), one raster pixel per grid cell, NaN cells
// transparent.
func heatSVG(g *errorGrid, top float64, title string) ([]byte, error) {
	n := len(g.v)
	lo, hi := g.v[0], g.v[n-1]
	half := (hi - lo) / float64(n-1) / 2
	c := &chart{title: title, xLabel: "x  (input value)", yLabel: "y  (input value)",
		xMin: lo - half, xMax: hi + half, yMin: lo - half, yMax: hi + half, noGrid: true}
	c.xTicks = tableTicks{}.Ticks(c.xMin, c.xMax)
	c.yTicks = tableTicks{}.Ticks(c.yMin, c.yMax)
	if err := c.check(); err != nil {
		return nil, err
	}
	const barW = 105.0
	d := newSVG(heatW, heatH)
	a := c.plotArea(heatW-barW, heatH)
	// The raster: row 0 of the image is the largest y, at the top.
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for r := range n {
		for col := range n {
			if e := g.e[r*n+col]; !math.IsNaN(e) {
				img.SetNRGBA(col, n-1-r, heatColor(e, top))
			}
		}
	}
	if err := d.image(a.left, a.top, a.right-a.left, a.bottom-a.top, img); err != nil {
		return nil, err
	}
	c.draw(d, a)

	// The colour bar spans the heat map's height, its label on the left,
	// then its tick labels, then the bar.
	bar := tableTicks{}.Ticks(-top, top)
	lw := 0.0
	for _, t := range bar {
		lw = max(lw, textWidth(t.Label, tickSize))
	}
	x0 := heatW - barW + 8
	bl := min(x0+labelSize+6+lw+8, heatW-6-16)
	br := min(bl+16, heatW-6)
	strip := image.NewNRGBA(image.Rect(0, 0, 1, heatColors))
	for k := range heatColors {
		strip.SetNRGBA(0, heatColors-1-k, blueRed(float64(k)/(heatColors-1)))
	}
	if err := d.image(bl, a.top, br-bl, a.bottom-a.top, strip); err != nil {
		return nil, err
	}
	d.line(bl, a.top, bl, a.bottom, "#000000", 0.8)
	for _, t := range bar {
		y := a.bottom - (t.Value+top)/(2*top)*(a.bottom-a.top)
		l := 3.0
		if t.Label != "" {
			l = 5
			d.text(bl-l-3, y+tickSize*0.35, t.Label, tickSize, anchorEnd, 0)
		}
		d.line(bl-l, y, bl, y, "#000000", 0.6)
	}
	d.text(x0+labelSize-2, (a.top+a.bottom)/2, "K(x,y) − Ψ(x)·Ψ(y)  (kernel units)", labelSize, anchorMiddle, -90)
	return d.bytes(), nil
}

// heatColor is the palette colour of the error e on the scale −top..top,
// one of heatColors colours.
func heatColor(e, top float64) color.NRGBA {
	t := math.Max(0, math.Min(1, (e+top)/(2*top)))
	return blueRed(math.Round(t*(heatColors-1)) / (heatColors - 1))
}

// blueRed is Moreland's smooth diverging colour map from blue (t = 0)
// through light grey (t = ½) to red (t = 1) ("Diverging Color Maps for
// Scientific Visualization", 2009): a straight path in the Msh colour
// space, from M = 80, s = 1.08, h = −1.1 to M = 80, s = 1.08, h = 0.5,
// converging at M = 88, with the hue twisted near the grey middle; then
// Lab (D65), XYZ and sRGB.
func blueRed(t float64) color.NRGBA {
	const mEnd, sEnd, mMid = 80.0, 1.08, 88.0
	twist := sEnd * math.Sqrt(mMid*mMid-mEnd*mEnd) / (mEnd * math.Sin(sEnd))
	var M, S, H float64
	if t < 0.5 {
		f := t / 0.5
		M, S, H = mEnd+(mMid-mEnd)*f, sEnd*(1-f), -1.1-twist*f
	} else {
		f := (t - 1) / (0.5 - 1)
		M, S = mEnd+(mMid-mEnd)*f, sEnd*(t/0.5-1)
		if t > 0.5 {
			H = 0.5 + twist*f
		}
	}
	// Msh → Lab.
	L, A, B := M*math.Cos(S), M*math.Sin(S)*math.Cos(H), M*math.Sin(S)*math.Sin(H)
	// Lab → XYZ.
	cube := func(v float64) float64 {
		const a, b = 7.787, 16.0 / 116
		if v > a*0.008856+b {
			return v * v * v
		}
		return (v - b) / a
	}
	fy := (L + 16) / 116
	X, Y, Z := 0.95047*cube(A/500+fy), cube(fy), 1.08883*cube(fy-B/200)
	// XYZ → linear RGB → sRGB bytes.
	gamma := func(v float64) uint8 {
		if v > 0.0031308 {
			v = 1.055*math.Pow(v, 1/2.4) - 0.055
		} else {
			v *= 12.92
		}
		return uint8(math.Round(255 * math.Max(0, math.Min(1, v))))
	}
	return color.NRGBA{
		R: gamma(3.2406*X - 1.5372*Y - 0.4986*Z),
		G: gamma(-0.9689*X + 1.8758*Y + 0.0415*Z),
		B: gamma(0.0557*X - 0.204*Y + 1.057*Z),
		A: 0xFF,
	}
}
