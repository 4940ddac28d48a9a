package report

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/plot/palette/moreland"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/featmap/featmap/design/fmap"
)

// maxHeatSide bounds the side of the kernel-error map: larger integer
// domains are sampled evenly (both ends kept).
const maxHeatSide = 256

// errorGrid is the kernel error K(x, y) − Ψ(x)·Ψ(y) on a grid of inputs, a
// plotter.GridXYZ with x along columns and y along rows.
type errorGrid struct {
	v []float64 // the inputs
	e []float64 // e[r*n+c] is the error at x = v[c], y = v[r]
}

func (g *errorGrid) Dims() (c, r int)   { return len(g.v), len(g.v) }
func (g *errorGrid) Z(c, r int) float64 { return g.e[r*len(g.v)+c] }
func (g *errorGrid) X(c int) float64    { return g.v[c] }
func (g *errorGrid) Y(r int) float64    { return g.v[r] }

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
	cm := moreland.SmoothBlueRed()
	cm.SetMin(-top)
	cm.SetMax(top)
	hm := plotter.NewHeatMap(g, cm.Palette(255))
	hm.Min, hm.Max, hm.Rasterized = -top, top, true
	title := fmt.Sprintf("Kernel error of %s at %s", m.Label, in.at(d))
	p := newPlot(title, "x  (input value)", "y  (input value)")
	p.Add(hm)
	lo, hi := g.v[0], g.v[len(g.v)-1]
	half := (hi - lo) / float64(len(g.v)-1) / 2
	p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = lo-half, hi+half, lo-half, hi+half

	bar := newPlot("", "", "K(x,y) − Ψ(x)·Ψ(y)  (kernel units)")
	bar.Add(&plotter.ColorBar{ColorMap: cm, Vertical: true, Colors: 255})
	bar.HideX()
	bar.Y.Padding = 0
	bar.Y.Min, bar.Y.Max = -top, top
	bar.Y.Tick.Marker = tableTicks{}

	svg, err := renderSVG(heatW, heatH, func(c draw.Canvas) {
		barW := vg.Points(105)
		p.Draw(draw.Crop(c, 0, -barW, 0, 0))
		// The bar spans the heat map's height: below the title, above the
		// x axis.
		top := p.Title.TextStyle.Height(p.Title.Text) + 2*p.Title.Padding
		bottom := p.X.Label.TextStyle.Height(p.X.Label.Text) + p.X.Tick.Label.Height("0") + p.X.Tick.Length + vg.Points(10)
		bar.Draw(draw.Crop(c, c.Max.X-c.Min.X-barW+vg.Points(12), -vg.Points(12), bottom, -top))
	})
	caption := fmt.Sprintf("The signed kernel error K(x, y) − Ψ(x)·Ψ(y) of %s, the most accurate method at %s (%s), "+
		"at every pair of %s (as in Chum's Fig. 5); red: Ψ·Ψ below K (the map underestimates), blue: above it. "+
		"Largest |error| %s.", m.Label, in.at(d), why, ref.InputsOn, tableNumber(top))
	if len(ref.Inputs) > maxHeatSide {
		caption += fmt.Sprintf(" The domain's %d inputs are sampled at %d evenly spaced values per axis.", len(ref.Inputs), maxHeatSide)
	}
	return figure{File: "kernel-error.svg", Title: title, Caption: caption, SVG: svg}, true, err
}

// Ensure errorGrid is a GridXYZ.
var _ plotter.GridXYZ = (*errorGrid)(nil)
