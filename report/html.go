package report

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"strings"

	"github.com/featmap/featmap/fmap"
)

//go:embed page.html.tmpl
var pageTemplate string

var page = template.Must(template.New("page").Funcs(template.FuncMap{
	"cell": htmlCell,
}).Parse(pageTemplate))

// pageData is what page.html.tmpl shows.
type pageData struct {
	*Input
	Tables      []table
	Winners     string
	NA, Failed  []string
	ErrorFigs   []htmlFigure // error vs D
	DetailFigs  []htmlFigure // signature and kernel error at one D
	DetailTitle string
	Measured    []measuredItem
	MethodCount int
}

type htmlFigure struct {
	Title, Caption string
	SVG            template.HTML
}

// measuredItem is one paragraph of "how measured": a term and its
// explanation.
type measuredItem struct {
	Term, Text string
}

// html renders index.html.
func (in *Input) html(figs []figure) ([]byte, error) {
	d := pageData{Input: in, Tables: in.tables(), Winners: in.winners(), MethodCount: len(in.Methods)}
	d.NA, d.Failed = in.notes()
	for _, f := range figs {
		hf := htmlFigure{Title: f.Title, Caption: f.Caption, SVG: template.HTML(inlineSVG(f.SVG))}
		if strings.HasPrefix(f.File, "error-") {
			d.ErrorFigs = append(d.ErrorFigs, hf)
		} else {
			d.DetailFigs = append(d.DetailFigs, hf)
		}
	}
	if j, why := in.chosenDim(); j >= 0 {
		d.DetailTitle = fmt.Sprintf("A closer look at %s, %s", in.at(in.Dims[j]), why)
	}
	d.Measured = in.measured()
	var b bytes.Buffer
	if err := page.Execute(&b, d); err != nil {
		return nil, fmt.Errorf("report: index.html: %w", err)
	}
	return withMarker(b.Bytes()), nil
}

// htmlCell renders one table entry: the number (errors as m×10ⁿ when
// small), or n/a or failed with the reason as a tooltip.
func htmlCell(t table, c tableCell) template.HTML {
	esc := template.HTMLEscapeString
	switch c.Status {
	case StatusNA:
		return template.HTML(`<td class="na" title="` + esc(c.Why) + `">n/a</td>`)
	case StatusFailed:
		return template.HTML(`<td class="failed" title="` + esc(c.Why) + `">failed</td>`)
	}
	var s string
	if strings.HasPrefix(t.Title, "design time") {
		s = esc(seconds(c.Value))
	} else if m, e := numberParts(c.Value); e == 0 {
		s = esc(m)
	} else {
		s = fmt.Sprintf("%s<span class=\"x\">×10<sup>%s</sup></span>", esc(m), strings.Replace(fmt.Sprint(e), "-", "−", 1))
	}
	if c.Best {
		return template.HTML(`<td class="best">` + s + `</td>`)
	}
	return template.HTML(`<td>` + s + `</td>`)
}

// measured explains how the numbers were measured, in the words of the
// maps' verifications.
func (in *Input) measured() []measuredItem {
	var reported, signature, designSets []string
	for i, m := range in.Methods {
		for j := range in.Dims {
			c := in.Cells[i][j]
			if !c.ok() {
				continue
			}
			v := c.Verification
			reported = appendNew(reported, v.Reported.On)
			signature = appendNew(signature, v.Signature.On)
			if v.Design.Points > 0 {
				designSets = appendNew(designSets, m.Label+": "+v.Design.On)
			}
		}
	}
	var items []measuredItem
	var errText string
	switch in.Measure {
	case fmap.Relative:
		errText = "E = (K(x, y) − Ψ(x)·Ψ(y)) / K(x, y), the relative error (Chum's ε_R), over "
	case fmap.Uniform:
		errText = "E(λ) = k(λ) − k̂(λ), the signature error (for a shift-invariant kernel, the kernel error at x − y = λ), over "
	default:
		errText = "E = K(x, y) − Ψ(x)·Ψ(y), the absolute kernel error (Chum's ε_A), over "
	}
	items = append(items, measuredItem{"Error", errText + strings.Join(reported, "; ") +
		". L∞ = max |E|; RMS = √(mean of E²) over the same set. Every number comes from the map's plain reference evaluator, never from an optimiser."})
	if in.Reference != nil && in.Reference.DenseOn != "" {
		items = append(items, measuredItem{"Signature", "k(λ) is the kernel's signature and k̂(λ) the map's (Ψ(x)·Ψ(y) = amplitude · k̂(λ)). " +
			"The verification also records the weighted signature error w(λ)|k − k̂| on " + strings.Join(signature, "; ") + "."})
	}
	if len(designSets) > 0 {
		items = append(items, measuredItem{"Design sets", "Optimising methods fit on their own sets, smaller than the verification sets above: " +
			strings.Join(shortList(designSets, 3), "; ") + "."})
	}
	t := fmt.Sprintf("Wall time of each design, its verification included. %d designs ran at once on %d CPUs, so each time includes that contention; the ranking, not the seconds, carries over to other machines.", in.Workers, in.CPUs)
	items = append(items, measuredItem{"Design time", t})
	return items
}

// appendNew appends s to list unless it is already there.
func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// shortList returns the first n entries of list and how many more there
// are.
func shortList(list []string, n int) []string {
	if len(list) <= n {
		return list
	}
	return append(list[:n:n], fmt.Sprintf("and %d more", len(list)-n))
}
