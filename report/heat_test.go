package report

import (
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// TestKernelErrorsWholeRows: the kernel-error map of a Nyström map of
// whole rows of the additive Hellinger kernel is taken on the rows
// (v, …, v), per coordinate, as fmap.Verify measures it. The map
// Ψ(x) = 0.9·K(x, l)/√K(l, l), l = (3, 3, 3), gives Ψ·Ψ = 0.81·3√(vw) on
// those rows: the error per coordinate is 0.19√(vw), largest 1.9 at
// v = w = 10 (on 1-D inputs, as before, it would be nonsense).
func TestKernelErrorsWholeRows(t *testing.T) {
	k := fmap.Kernel{Type: fmap.Hellinger, Gamma: 1}
	land := []float64{3, 3, 3}
	m := &fmap.Map{Kernel: k, InDim: 3, Dim: 1, Method: "nystroem",
		Domain: fmap.Domain{Integer: true, Lo: []float64{0, 0, 0}, Hi: []float64{10, 10, 10}},
		Stages: []fmap.Stage{{Kind: &fmap.Nystroem{Kernel: k, In: 3, Landmarks: land, Proj: []float64{0.9 / math.Sqrt(k.Eval(land, land))}}}}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := &fmap.Problem{Kernel: k, Domain: fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{10}}, Measure: fmap.Absolute, Norm: fmap.LInf, Negative: fmap.NegativeSign}
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	g, top := kernelErrors(m, ref)
	if math.Abs(top-1.9) > 1e-13 {
		t.Errorf("largest |error| %v, want 1.9", top)
	}
	for r, y := range g.v {
		for c, x := range g.v {
			if e, want := g.e[r*len(g.v)+c], 0.19*math.Sqrt(x*y); math.Abs(e-want) > 1e-13 {
				t.Fatalf("error at (%v, %v) = %v, want %v", x, y, e, want)
			}
		}
	}
}

// TestSignatureCurvesRelative: under the relative error the signature plot
// draws |k − k̂|/k, whose maximum is the verified weighted signature error
// (fmap.Verification.Signature, w = 1/k on the same dense λ grid, of which
// the plot keeps every few points), not the unweighted |k − k̂| the
// absolute error's plot draws.
func TestSignatureCurvesRelative(t *testing.T) {
	const hi = 31
	in := testInput()
	abs, _, _ := in.signatureCurves(2)
	p := &fmap.Problem{
		Kernel:  fmap.Kernel{Type: fmap.Chi2, Gamma: 1},
		Domain:  fmap.Domain{Integer: true, Lo: []float64{0}, Hi: []float64{hi}},
		Measure: fmap.Relative, Norm: fmap.LInf, Negative: fmap.NegativeSign,
	}
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	in.Reference, in.Measure = ref, fmap.Relative
	for i := range in.Methods {
		for j := range in.Dims {
			if c := &in.Cells[i][j]; c.ok() {
				v := fmap.Verify(c.Map, ref)
				c.Verification = &v
			}
		}
	}
	rel, left, _ := in.signatureCurves(2)
	if len(left) != 0 {
		t.Errorf("Fourier maps left out: %q", left)
	}
	for i, cv := range rel {
		top := 0.0
		for _, q := range cv {
			top = math.Max(top, q.Y)
		}
		want := in.Cells[i][2].Verification.Signature.LInf
		if top > want*(1+1e-9) || top < 0.95*want {
			t.Errorf("method %d: curve maximum %.6g, verified relative signature error %.6g", i, top, want)
		}
		absTop := 0.0
		for _, q := range abs[i] {
			absTop = math.Max(absTop, q.Y)
		}
		if math.Abs(absTop-top) < 1e-3*top {
			t.Errorf("method %d: the relative curve's maximum %.6g equals the absolute one's %.6g", i, top, absTop)
		}
	}
	f, ok, err := in.signatureFigure(2, "test")
	if err != nil || !ok {
		t.Fatalf("no figure: %v", err)
	}
	if !strings.Contains(string(f.SVG), "/ k(λ)") || !strings.Contains(f.Title, "Relative") {
		t.Errorf("figure %q does not name the relative error on its y axis", f.Title)
	}
}

// TestColourBarNumbers: the kernel-error map's colour bar labels its ticks
// as the HTML tables print numbers (7.50×10⁻⁵, not Go's 7.5e-05): for each
// labelled tick the label is the text of the table cell of its value.
func TestColourBarNumbers(t *testing.T) {
	tags := regexp.MustCompile(`<[^>]*>`)
	labelled := 0
	for _, top := range []float64{7.67e-5, 0.0123, 2.4, 31000} {
		for _, tk := range (tableTicks{}).Ticks(-top, top) {
			if tk.Label == "" {
				continue
			}
			labelled++
			cell := tags.ReplaceAllString(string(htmlCell(table{Title: "L∞"}, tableCell{Status: StatusOK, Value: math.Abs(tk.Value)})), "")
			// The table writes the exponent in <sup>, the plot in
			// superscript digits: compare them written plainly.
			plain := strings.NewReplacer("⁻", "−", "⁰", "0", "¹", "1", "²", "2", "³", "3", "⁴", "4",
				"⁵", "5", "⁶", "6", "⁷", "7", "⁸", "8", "⁹", "9").Replace(strings.TrimPrefix(tk.Label, "−"))
			if cell != plain {
				t.Errorf("tick %v labelled %q, the table prints %q", tk.Value, tk.Label, cell)
			}
			if strings.Contains(tk.Label, "e") {
				t.Errorf("tick %v labelled %q in exponent style", tk.Value, tk.Label)
			}
		}
	}
	if labelled < 8 {
		t.Errorf("%d labelled ticks", labelled)
	}
	if got := tableNumber(-7.5e-5); got != "−7.50×10⁻⁵" {
		t.Errorf("tableNumber(-7.5e-5) = %q", got)
	}
}

// TestHeatMapOfBest: the kernel-error map is drawn for the most accurate
// method (smallest verified L∞) at the chosen D, whichever row it is in:
// the fixture's two methods at D = 3, and the same with their rows
// swapped.
func TestHeatMapOfBest(t *testing.T) {
	for _, swap := range []bool{false, true} {
		in := testInput()
		if swap {
			in.Methods[0], in.Methods[1] = in.Methods[1], in.Methods[0]
			in.Cells[0], in.Cells[1] = in.Cells[1], in.Cells[0]
		}
		j, _ := in.chosenDim()
		a, b := in.Cells[0][j].Verification.Reported.LInf, in.Cells[1][j].Verification.Reported.LInf
		if a == b {
			t.Fatalf("the fixture's maps at D = %d tie (L∞ %g): no best to draw", in.Dims[j], a)
		}
		best, other := in.Methods[0].Label, in.Methods[1].Label
		if b < a {
			best, other = other, best
		}
		figs, err := in.figures()
		if err != nil {
			t.Fatal(err)
		}
		var title string
		for _, f := range figs {
			if f.File == "kernel-error.svg" {
				title = f.Title
			}
		}
		if want := "Kernel error of " + best + " at "; !strings.HasPrefix(title, want) {
			t.Errorf("rows swapped %v: the kernel-error map is %q, want %q… (L∞ %s %g, %s %g)", swap, title, want, in.Methods[0].Label, a, in.Methods[1].Label, b)
		}
		t.Logf("D = %d: %s (L∞ %g / %g against %s)", in.Dims[j], title, min(a, b), max(a, b), other)
	}
}
