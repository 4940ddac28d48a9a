package report

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/featmap/featmap/fmap"
)

func render(t *testing.T, in *Input) map[string][]byte {
	t.Helper()
	files, err := Render(in)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		out[f.Name] = f.Data
	}
	return out
}

// TestRenderFiles: a report of an integer domain has the page, the
// Markdown, the JSON and four plots.
func TestRenderFiles(t *testing.T) {
	files := render(t, testInput())
	want := []string{"error-linf.svg", "error-rms.svg", "index.html", "kernel-error.svg", "report.md", "results.json", "signature-error.svg"}
	if strings.Join(sortedKeys(files), " ") != strings.Join(want, " ") {
		t.Errorf("files %v, want %v", sortedKeys(files), want)
	}
	for _, n := range want {
		if len(files[n]) == 0 {
			t.Errorf("%s is empty", n)
		}
	}
}

func sortedKeys(m map[string][]byte) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// TestResultsNumbers: results.json holds each made cell's verified L∞ and
// RMS exactly, n/a and failed cells with their reasons, the best method per
// D and the design times apart.
func TestResultsNumbers(t *testing.T) {
	in := testInput()
	var r Results
	if err := json.Unmarshal(render(t, in)["results.json"], &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Cells) != 6 {
		t.Fatalf("%d cells, want 6", len(r.Cells))
	}
	for k, c := range r.Cells {
		i, j := k/3, k%3
		cell := in.Cells[i][j]
		if c.Method != in.Methods[i].Label || c.Dim != in.Dims[j] || c.Status != cell.Status() {
			t.Errorf("cell %d: %s D=%d %s", k, c.Method, c.Dim, c.Status)
		}
		switch c.Status {
		case StatusOK:
			v := cell.Verification.Reported
			if c.LInf == nil || c.RMS == nil || *c.LInf != v.LInf || *c.RMS != v.RMS || c.On != v.On {
				t.Errorf("cell %d: linf %v rms %v, want %v %v", k, c.LInf, c.RMS, v.LInf, v.RMS)
			}
			if !reflect.DeepEqual(c.Verification, cell.Verification) {
				t.Errorf("cell %d: verification differs", k)
			}
		case StatusNA:
			if c.Reason != "odd makes odd dimensions only" || c.LInf != nil {
				t.Errorf("n/a cell %d: %+v", k, c)
			}
		case StatusFailed:
			if c.Reason != "boom" || c.LInf != nil {
				t.Errorf("failed cell %d: %+v", k, c)
			}
		}
	}
	// Timings: every made or failed cell, none of the n/a one.
	if len(r.Timings.Cells) != 5 || r.Timings.Cells[2].Seconds != 1.5 || r.Timings.Workers != 2 {
		t.Errorf("timings %+v", r.Timings)
	}
	for _, b := range r.Best {
		if b.Dim == 2 && (len(b.LInf) != 0 || len(b.RMS) != 0) {
			t.Errorf("best at D = 2 (no map): %+v", b)
		}
	}
	if r.PlotDim != 3 {
		t.Errorf("plot_dim %d, want 3", r.PlotDim)
	}
}

// TestBestMarked: the best L∞ of each column is marked in the page and in
// report.md, and n/a and failed cells are shown as such with their reason.
func TestBestMarked(t *testing.T) {
	in := testInput()
	best := in.best(qLInf)
	for j := range in.Dims {
		n := 0
		for i := range in.Methods {
			if best[i][j] {
				n++
				if !in.Cells[i][j].ok() {
					t.Errorf("best at D = %d is not a made map", in.Dims[j])
				}
				for k := range in.Methods {
					if c := in.Cells[k][j]; c.ok() && c.value(qLInf) < in.Cells[i][j].value(qLInf) {
						t.Errorf("D = %d: %s marked best, %s is smaller", in.Dims[j], in.Methods[i].Label, in.Methods[k].Label)
					}
				}
			}
		}
		if want := min(1, in.okCount(j)); n != want {
			t.Errorf("D = %d: %d best, want %d", in.Dims[j], n, want)
		}
	}
	files := render(t, in)
	page := string(files["index.html"])
	if got := strings.Count(page, `<td class="best">`); got < 4 {
		t.Errorf("page marks %d best cells, want at least 4 (L∞ and RMS at D = 1 and 3)", got)
	}
	for _, want := range []string{`<td class="na" title="odd makes odd dimensions only">n/a</td>`, `<td class="failed" title="boom">failed</td>`,
		"odd (x) at D = 2: odd makes odd dimensions only", "wide at D = 2: boom"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	md := string(files["report.md"])
	for _, want := range []string{"| odd (x) |", " n/a |", " failed |", "**", "![L∞ absolute error vs dimension D](error-linf.svg)", "(kernel-error.svg)"} {
		if !strings.Contains(md, want) {
			t.Errorf("report.md lacks %q", want)
		}
	}
}

// TestDeterministic: rendering the same input twice gives the same bytes,
// and inputs that differ only in design times give the same results.json
// apart from its timings field.
func TestDeterministic(t *testing.T) {
	a, b := render(t, testInput()), render(t, testInput())
	for n := range a {
		if !bytes.Equal(a[n], b[n]) {
			t.Errorf("%s differs between two renderings", n)
		}
	}
	slow := testInput()
	for i := range slow.Cells {
		for j := range slow.Cells[i] {
			slow.Cells[i][j].Seconds *= 7
		}
	}
	c := render(t, slow)
	var ra, rc map[string]any
	if err := json.Unmarshal(a["results.json"], &ra); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(c["results.json"], &rc); err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(ra["timings"], rc["timings"]) {
		t.Error("timings equal for different design times")
	}
	delete(ra, "timings")
	delete(rc, "timings")
	if !reflect.DeepEqual(ra, rc) {
		t.Error("results.json differs beyond timings")
	}
}

// TestSelfContained: index.html loads nothing (no scripts, no external
// URLs, no <img>), inlines every plot as SVG and has the three tables.
func TestSelfContained(t *testing.T) {
	page := string(render(t, testInput())["index.html"])
	noNS := strings.NewReplacer(`xmlns="http://www.w3.org/2000/svg"`, "", `xmlns:xlink="http://www.w3.org/1999/xlink"`, "").Replace(page)
	for _, bad := range []string{"<script", "http://", "https://", "<img", " src=", "<link", "@import"} {
		if strings.Contains(noNS, bad) {
			t.Errorf("index.html contains %q", bad)
		}
	}
	if n := strings.Count(page, "<svg "); n != 4 {
		t.Errorf("%d inline SVGs, want 4", n)
	}
	if n := strings.Count(page, "<table>"); n != 3 {
		t.Errorf("%d tables, want 3", n)
	}
	if regexp.MustCompile(`xlink:href="(?:[^d#]|d[^a])`).MatchString(page) {
		t.Error("an SVG links to something other than a data: URI")
	}
	// The page's own marker, not the plots' prologs.
	if strings.Contains(page, "<?xml") || strings.Count(page, Marker) != 1 {
		t.Errorf("index.html contains an SVG prolog (<?xml, or %d markers)", strings.Count(page, Marker))
	}
}

// TestNoReference: without a reference only the error plots are drawn.
func TestNoReference(t *testing.T) {
	in := testInput()
	in.Reference = nil
	files := render(t, in)
	if _, ok := files["signature-error.svg"]; ok {
		t.Error("signature plot without a reference")
	}
	if _, ok := files["kernel-error.svg"]; ok {
		t.Error("kernel-error map without a reference")
	}
	if _, ok := files["error-linf.svg"]; !ok {
		t.Error("no error plot")
	}
}

// TestRenderRejectsMismatch: cells that do not match methods × dims are an
// error, not a panic.
func TestRenderRejectsMismatch(t *testing.T) {
	in := testInput()
	in.Dims = in.Dims[:2]
	if _, err := Render(in); err == nil || !strings.Contains(err.Error(), "cells for 2 dimensions") {
		t.Errorf("err %v", err)
	}
	if _, err := Render(&Input{}); err == nil {
		t.Error("empty input rendered")
	}
}

// TestChosenDim: the detail plots show the D with the most maps, the
// largest on a tie.
func TestChosenDim(t *testing.T) {
	in := testInput()
	if j, why := in.chosenDim(); in.Dims[j] != 3 || why != "the largest D every method makes" {
		t.Errorf("chose D = %d (%s)", in.Dims[j], why)
	}
	in.Cells[1][2] = Cell{Err: "x"}
	if j, why := in.chosenDim(); in.Dims[j] != 1 || why != "the largest D every method makes" {
		t.Errorf("chose D = %d (%s), want 1: only D = 1 has both", in.Dims[j], why)
	}
	in.Cells[1][0] = Cell{Err: "x"}
	if j, why := in.chosenDim(); in.Dims[j] != 3 || !strings.Contains(why, "1 of 2") {
		t.Errorf("chose D = %d (%s), want 3: one map at D = 1 and 3", in.Dims[j], why)
	}
}

// TestNumbers: table numbers have three significant digits and small ones
// a power of ten.
func TestNumbers(t *testing.T) {
	for v, want := range map[float64]string{0.0123456: "0.0123", 3.18745: "3.19", 0.000190883: "1.91e-4", 12345: "1.23e4", 0: "0", 0.00999996: "0.01", 9.996e-5: "1.00e-4"} {
		if got := plainNumber(v); got != want {
			t.Errorf("plainNumber(%v) = %q, want %q", v, got, want)
		}
	}
	if got := powerOfTen(-4); got != "10⁻⁴" {
		t.Errorf("powerOfTen(-4) = %q", got)
	}
	if got := powerOfTen(-2); got != "0.01" {
		t.Errorf("powerOfTen(-2) = %q", got)
	}
	ts := logTicks{}.Ticks(1e-5, 10)
	labels := 0
	for _, tk := range ts {
		if tk.Label != "" {
			labels++
		}
	}
	if labels != 7 {
		t.Errorf("%d labelled ticks on [1e-5, 10], want 7", labels)
	}
}

// TestRankedByData: with held-out data errors the report shows them first
// and ranks by them, even where the domain's L∞ ranks the other way; the
// results name the data winners; maps beyond MaxResultNumbers constants are
// left out of results.json with the reason.
func TestRankedByData(t *testing.T) {
	in := testInput()
	// wide has the smaller L∞ at D = 1; give odd the smaller data error.
	for i, frob := range []float64{0.2, 0.01} {
		for j := range in.Dims {
			if c := &in.Cells[i][j]; c.ok() {
				v := *c.Verification
				v.Data = &fmap.DataVerification{Frobenius: frob, Absolute: fmap.Measurement{LInf: 10 * frob}, File: "d.csv", Rows: 9, Distinct: fmap.MinRankRows}
				c.Verification = &v
			}
		}
	}
	if w := in.winners(); w != "Smallest held-out data error (Gram matrix, relative Frobenius) at every D: odd (x)." {
		t.Errorf("winners %q", w)
	}
	tabs := in.tables()
	if len(tabs) != 5 || !strings.HasPrefix(tabs[0].Title, "held-out data: relative Frobenius") || tabs[0].Rows[1].Cells[0].Value != 0.01 || !tabs[0].Rows[1].Cells[0].Best {
		t.Errorf("tables: %d, first %q %+v", len(tabs), tabs[0].Title, tabs[0].Rows[1].Cells[0])
	}
	// The domain's errors follow, labelled as the error on the box.
	if len(tabs) == 5 && (!strings.HasPrefix(tabs[2].Title, "on the box: L∞ ") || !strings.HasPrefix(tabs[3].Title, "on the box: RMS ")) {
		t.Errorf("tables 2 and 3: %q, %q: want the box's L∞ and RMS, labelled so", tabs[2].Title, tabs[3].Title)
	}
	// The first figure plots the data error that ranks them: one point per
	// ok cell at its value (odd's 0.01 sits below wide's 0.2).
	figs, err := in.figures()
	if err != nil {
		t.Fatal(err)
	}
	if figs[0].File != "error-data.svg" || !strings.Contains(figs[0].Caption, "held-out data rows") || len(figs) != len(testInputFigures(t))+1 {
		t.Errorf("figures %d, first %q: want error-data.svg first, then the others", len(figs), figs[0].File)
	}
	if len(figs) > 1 && (!strings.Contains(figs[1].Title, "on the box") || !strings.Contains(figs[1].Caption, "on the box of the domain (the whole box, not only where the data lie)")) {
		t.Errorf("the second figure %q (%q): want the error on the box, labelled so", figs[1].Title, figs[1].Caption)
	}
	if svg := string(figs[0].SVG); !strings.Contains(svg, "Held-out Gram-matrix error") || !strings.Contains(svg, "0.01") {
		t.Errorf("the data-error figure lacks its title or its 0.01 tick:\n%.600s", svg)
	}
	r := in.Results()
	if got := r.Best[0].Data; len(got) != 1 || got[0] != "odd (x)" {
		t.Errorf("best by data at D = 1: %v", got)
	}
	if got := r.Best[0].LInf; len(got) != 1 || got[0] != "wide" {
		t.Errorf("best by L∞ at D = 1: %v (the fixture's wide map has the smaller L∞)", got)
	}
	big := in.Cells[0][0]
	big.Map = &fmap.Map{InDim: 2, Dim: 2, Stages: []fmap.Stage{{Kind: &fmap.Random{In: 2, Freq: make([]float64, 2*(MaxResultNumbers+1))}}}}
	if cr := cellResult("wide", 1, big); cr.Map != nil || !strings.Contains(cr.MapOmitted, "constants") {
		t.Errorf("a map of %d constants kept in results.json (%q)", 2*(MaxResultNumbers+1), cr.MapOmitted)
	}
}

// testInputFigures returns the figures of the fixture without data.
func testInputFigures(t *testing.T) []figure {
	t.Helper()
	figs, err := testInput().figures()
	if err != nil {
		t.Fatal(err)
	}
	return figs
}

// TestRankFloor: the held-out error figure draws the rank-D bound the
// verified maps state as a dotted floor with its legend entry, and its
// caption says what it is; without a stated bound there is no floor.
func TestRankFloor(t *testing.T) {
	in := testInput()
	for i := range in.Methods {
		for j, d := range in.Dims {
			if c := &in.Cells[i][j]; c.ok() {
				v := *c.Verification
				v.Data = &fmap.DataVerification{Frobenius: 0.2, File: "d.csv", Rows: 9,
					RankBound: &fmap.RankBound{Rank: d, Rows: 9, Frobenius: 0.001, Map: 0.2, Ratio: 200}}
				c.Verification = &v
			}
		}
	}
	if got := in.rankFloor(); len(got) == 0 || got[0].Y != 0.001 {
		t.Fatalf("floor %v", got)
	}
	figs, err := in.figures()
	if err != nil {
		t.Fatal(err)
	}
	if svg := string(figs[0].SVG); !strings.Contains(svg, "rank-D bound") || !strings.Contains(svg, `stroke-dasharray="2,3"`) || !strings.Contains(svg, ">10⁻³<") {
		t.Errorf("the data-error figure lacks the floor, its legend entry or its 10⁻³ tick:\n%s", svg)
	}
	if !strings.Contains(figs[0].Caption, "rank-D bound") {
		t.Errorf("caption %q", figs[0].Caption)
	}
	for i := range in.Methods {
		for j := range in.Dims {
			if c := in.Cells[i][j]; c.ok() {
				c.Verification.Data.RankBound = nil
			}
		}
	}
	if got := in.rankFloor(); len(got) != 0 {
		t.Errorf("a floor without bounds: %v", got)
	}
}
