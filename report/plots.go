package report

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/featmap/featmap/fmap"
)

// figure is one plot of the report: its SVG file name, the SVG, a title
// and a caption (in words, for HTML and Markdown).
type figure struct {
	File, Title, Caption string
	SVG                  []byte
}

// Plot sizes.
const (
	errorW, errorH = 420, 290
	sigW, sigH     = 830, 330
	heatW, heatH   = 480, 390
)

// figures draws every plot the input allows, in page order.
func (in *Input) figures() ([]figure, error) {
	var figs []figure
	qs := []quantity{qLInf, qRMS}
	if in.hasData() {
		// The error that ranks the maps comes first.
		qs = []quantity{qDataFrob, qLInf, qRMS}
	}
	for _, q := range qs {
		f, err := in.errorFigure(q)
		if err != nil {
			return nil, err
		}
		figs = append(figs, f)
	}
	j, why := in.chosenDim()
	if j < 0 || in.Reference == nil {
		return figs, nil
	}
	if f, ok, err := in.signatureFigure(j, why); err != nil {
		return nil, err
	} else if ok {
		figs = append(figs, f)
	}
	if f, ok, err := in.heatFigure(j, why); err != nil {
		return nil, err
	} else if ok {
		figs = append(figs, f)
	}
	return figs, nil
}

// errorName returns the name of the verified error in words and its
// formula, for axis labels.
func (in *Input) errorName() (name, formula string) {
	switch in.Measure {
	case fmap.Relative:
		return "relative error", "|K − Ψ·Ψ| / K"
	case fmap.Uniform:
		return "signature error", "|k − k̂|"
	}
	return "absolute error", "|K − Ψ·Ψ|"
}

// errorFigure plots the L∞ or RMS error of every method against D on a
// log scale.
func (in *Input) errorFigure(q quantity) (figure, error) {
	name, formula := in.errorName()
	what, file := "L∞", "error-linf.svg"
	if q == qRMS {
		what, file = "RMS", "error-rms.svg"
	}
	yLabel := fmt.Sprintf("%s of %s (kernel units)", what, formula)
	if in.Measure == fmap.Relative {
		yLabel = fmt.Sprintf("%s of %s", what, formula)
	}
	if q == qDataFrob {
		what, name, file = "Held-out", "Gram-matrix error", "error-data.svg"
		yLabel = "‖K − ΨΨᵀ‖_F / ‖K‖_F on held-out rows"
	}
	if q != qDataFrob && in.hasData() {
		// With data, the error on the box comes after the held-out
		// rows' and says where it was measured.
		name += " on the box"
	}
	title := fmt.Sprintf("%s %s vs dimension D", what, name)
	xLabel := "output dimension D (features per input)"
	if in.Widths {
		title = fmt.Sprintf("%s %s vs output width", what, name)
		xLabel = "output width (numbers per row)"
	}
	c := &chart{title: title, xLabel: xLabel, yLabel: yLabel, yLog: true}
	lo, hi := math.Inf(1), 0.0
	zeros := false
	for i := range in.Methods {
		for j := range in.Dims {
			if c := in.Cells[i][j]; c.ok() && math.IsNaN(c.value(q)) {
				continue
			} else if c.ok() && c.value(q) > 0 {
				lo, hi = math.Min(lo, c.value(q)), math.Max(hi, c.value(q))
			} else if c.ok() {
				zeros = true
			}
		}
	}
	if hi == 0 {
		lo, hi = 1e-16, 1
	}
	c.yMin, c.yMax = decades(lo, hi)
	c.yTicks = logTicks{}.Ticks(c.yMin, c.yMax)
	for i, m := range in.Methods {
		var xys []xy
		for j, d := range in.Dims {
			if cell := in.Cells[i][j]; cell.ok() && !math.IsNaN(cell.value(q)) {
				xys = append(xys, xy{X: float64(d), Y: math.Max(cell.value(q), c.yMin)})
			}
		}
		e := legendEntry{label: m.Label, method: i, markers: true}
		if len(xys) == 0 {
			e.label += " (no maps)"
			e.method = -1
		} else {
			c.series = append(c.series, series{label: m.Label, method: i, pts: xys, markers: true, width: 1.5})
		}
		c.legend = append(c.legend, e)
	}
	var floor []xy
	if q == qDataFrob {
		floor = in.rankFloor()
		for _, p := range floor {
			if p.Y > 0 {
				c.yMin, c.yMax = decades(math.Min(lo, p.Y), math.Max(hi, p.Y))
			}
		}
		c.yTicks = logTicks{}.Ticks(c.yMin, c.yMax)
		for k := range floor {
			floor[k].Y = math.Max(floor[k].Y, c.yMin)
		}
	}
	if len(floor) > 0 {
		c.series = append(c.series, series{label: rankFloorLabel, method: floorSeries, pts: floor, width: 1})
		c.legend = append(c.legend, legendEntry{label: rankFloorLabel, method: floorSeries})
	}
	c.xTicks, c.xMin, c.xMax = in.dimTicks()
	svg, err := c.render(errorW, errorH)
	caption := fmt.Sprintf("%s error of each method at each %s, measured on %s. Log scale: one gridline per factor of ten.", what, in.axis(), in.measuredOn())
	if in.hasData() {
		caption = fmt.Sprintf("%s error of each method at each %s on the box of the domain (the whole box, not only where the data lie): measured on %s. Log scale: one gridline per factor of ten.", what, in.axis(), in.measuredOn())
	}
	if q == qDataFrob {
		caption = fmt.Sprintf("Relative Frobenius error of the Gram matrix of the held-out data rows (rows no method saw), the error that ranks the methods, at each %s. Log scale: one gridline per factor of ten.", in.axis())
	}
	if len(floor) > 0 {
		caption += " The dotted floor is the rank-D bound: the error of the best approximation of the held-out rows' Gram matrix of rank D (the outputs per row), which no map of D components can beat."
	}
	if in.Widths {
		caption += " Widths are numbers per row: " + in.WidthRule + "."
	}
	if zeros {
		caption += " Errors of exactly 0 (exact maps) sit on the bottom edge."
	}
	return figure{File: file, Title: title, Caption: caption, SVG: svg}, err
}

// floorSeries is the series index of the rank-D floor (drawn dotted in
// grey, without markers).
const floorSeries = -2

// rankFloorLabel is the floor's legend entry.
const rankFloorLabel = "rank-D bound (no map beats it)"

// rankFloor returns the rank-D bound on the held-out rows at every column
// where a verified map states it for the column's D (its outputs per
// row): the floor of the held-out Gram-matrix error.
func (in *Input) rankFloor() []xy {
	var pts []xy
	for j, d := range in.Dims {
		for i := range in.Methods {
			c := in.Cells[i][j]
			if !c.ok() || c.Verification.Data == nil {
				continue
			}
			if b := c.Verification.Data.RankBound; b != nil && b.Rank == d {
				pts = append(pts, xy{X: float64(d), Y: b.Frobenius})
				break
			}
		}
	}
	return pts
}

// dimTicks returns a tick at every compared D (or width) for the x axis
// and the axis range, labelled where the labels do not collide: a label at
// least an eighth of the axis from the one before, the largest value
// always labelled (the label before it dropped if too close).
func (in *Input) dimTicks() (ticks []tick, lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, d := range in.Dims {
		lo, hi = math.Min(lo, float64(d)), math.Max(hi, float64(d))
	}
	gap := (hi - lo) / 8
	last := -1 // the last labelled tick
	for _, d := range slices.Sorted(slices.Values(in.Dims)) {
		t := tick{Value: float64(d)}
		if last < 0 || t.Value-ticks[last].Value >= gap || t.Value == hi {
			if last >= 0 && t.Value == hi && t.Value-ticks[last].Value < gap && last > 0 {
				ticks[last].Label = ""
			}
			t.Label = fmt.Sprint(d)
			last = len(ticks)
		}
		ticks = append(ticks, t)
	}
	return ticks, lo - 0.5, hi + 0.5
}

// measuredOn returns the set the reported errors were measured on, in
// words (from the first verified map).
func (in *Input) measuredOn() string {
	for i := range in.Methods {
		for j := range in.Dims {
			if c := in.Cells[i][j]; c.ok() {
				return c.Verification.Reported.On
			}
		}
	}
	return "the verification set"
}

// maxCurvePoints bounds the points of one signature curve (the dense λ
// grid is subsampled evenly to it).
const maxCurvePoints = 1200

// signatureCurves returns the signature error curve of every method made
// at column j (nil for the others), the labels of the methods left out and
// the λ axis label ("" when no curve is drawn).
func (in *Input) signatureCurves(j int) (curves [][]xy, left []string, xLabel string) {
	ref := in.Reference
	stride := (len(ref.Dense) + maxCurvePoints - 1) / maxCurvePoints
	var idx []int
	for k := 0; k < len(ref.Dense); k += stride {
		idx = append(idx, k)
	}
	if last := len(ref.Dense) - 1; idx[len(idx)-1] != last {
		idx = append(idx, last)
	}
	// Under the relative error the curves are |k − k̂|/k, the relative error
	// of the pairs at argument λ (Chum eq. 18): the measure the designs
	// minimised. That holds for maps whose Ψ(x)·Ψ(y) depends on λ alone
	// (Fourier maps); for the others (Li's and the Chebyshev series)
	// fmap.Map.SignatureAt follows the pairs at the domain's upper end,
	// where the absolute error peaks but the relative one need not, so
	// they are left out with a note rather than drawn misleadingly.
	relative := in.Measure == fmap.Relative
	curves = make([][]xy, len(in.Methods))
	for i, m := range in.Methods {
		c := in.Cells[i][j]
		if !c.ok() {
			continue
		}
		if relative && c.Map.Fourier() == nil {
			left = append(left, m.Label)
			continue
		}
		xLabel = lambdaLabel(c.Map)
		for _, k := range idx {
			l := ref.Dense[k]
			e := math.Abs(ref.Signature(l) - c.Map.SignatureAt(l))
			if relative {
				e *= ref.Weight(l) // 1/k(λ)
			}
			if math.IsNaN(e) || math.IsInf(e, 0) {
				continue
			}
			curves[i] = append(curves[i], xy{X: l[0], Y: e})
		}
	}
	return curves, left, xLabel
}

// signatureFigure plots |k(λ) − k̂(λ)| of every method made at column j,
// divided by k(λ) under the relative error (see signatureCurves).
func (in *Input) signatureFigure(j int, why string) (figure, bool, error) {
	ref := in.Reference
	if len(ref.Dense) < 2 || len(ref.Dense[0]) != 1 {
		return figure{}, false, nil
	}
	d := in.Dims[j]
	relative := in.Measure == fmap.Relative
	curves, left, xLabel := in.signatureCurves(j)
	top := 0.0
	for _, cv := range curves {
		for _, p := range cv {
			top = math.Max(top, p.Y)
		}
	}
	if top == 0 {
		top = 1
	}
	// The errors touch zero where k̂ crosses k: a floor three decades below
	// the smallest curve's maximum keeps those dips from squashing the rest
	// while every curve shows.
	floor := top
	for _, cv := range curves {
		m := 0.0
		for _, p := range cv {
			m = math.Max(m, p.Y)
		}
		if m > 0 {
			floor = math.Min(floor, m*1e-3)
		}
	}
	floor = math.Max(floor, top*1e-12)
	lo := top
	for _, cv := range curves {
		for _, p := range cv {
			if p.Y > floor {
				lo = math.Min(lo, p.Y)
			}
		}
	}
	if xLabel == "" {
		// Every map at column j was left out: no plot.
		return figure{}, false, nil
	}
	title := fmt.Sprintf("Signature error at %s", in.at(d))
	yLabel := "|k(λ) − k̂(λ)|  (kernel units)"
	if relative {
		title = fmt.Sprintf("Relative signature error at %s", in.at(d))
		yLabel = "|k(λ) − k̂(λ)| / k(λ)  (relative error)"
	}
	c := &chart{title: title, xLabel: xLabel, yLabel: yLabel, yLog: true}
	c.yMin, c.yMax = decades(math.Max(lo, floor), top)
	c.yTicks = logTicks{}.Ticks(c.yMin, c.yMax)
	for i, m := range in.Methods {
		if len(curves[i]) == 0 {
			continue
		}
		for k := range curves[i] {
			curves[i][k].Y = math.Max(curves[i][k].Y, c.yMin)
		}
		c.series = append(c.series, series{label: m.Label, method: i, pts: curves[i], width: 1.2})
		c.legend = append(c.legend, legendEntry{label: m.Label, method: i})
	}
	c.xMin, c.xMax = ref.Dense[0][0], ref.Dense[len(ref.Dense)-1][0]
	c.xTicks = plainTicks(c.xMin, c.xMax)
	svg, err := c.render(sigW, sigH)
	caption := fmt.Sprintf("How well each method's map reproduces the kernel's signature k(λ) at %s (%s): "+
		"|k(λ) − k̂(λ)| on %s, unweighted. The verified error weighs it by the error weight w(λ) of the %s measure; "+
		"dips are where k̂ crosses k.", in.at(d), why, ref.DenseOn, in.Measure)
	if relative {
		caption = fmt.Sprintf("How well each method's map reproduces the kernel's signature k(λ) at %s (%s): "+
			"|k(λ) − k̂(λ)| / k(λ) on %s, the relative error of every pair of inputs at argument λ, the measure "+
			"the designs minimised; dips are where k̂ crosses k.", in.at(d), why, ref.DenseOn)
	}
	if len(left) > 0 {
		caption += fmt.Sprintf(" Not drawn: %s. Their Ψ(x)·Ψ(y) depends on x and y, not on λ alone, "+
			"so no single curve gives their relative error; the tables give its measured L∞ and RMS.", strings.Join(left, ", "))
	}
	return figure{File: "signature-error.svg", Title: title, Caption: caption, SVG: svg}, true, err
}

// lambdaLabel names the signature's argument for the maps of m's kind.
func lambdaLabel(m *fmap.Map) string {
	if m.Homogeneous() {
		return "λ = |ln x − ln y|  (log-ratio of the inputs)"
	}
	return "λ = |x − y|  (input units)"
}
