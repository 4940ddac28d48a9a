package codegen

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/featmap/featmap/fmap"
)

// num formats v for prose: the shortest round-trip decimal.
func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// g4 formats a measured error with four significant digits.
func g4(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// glued matches the short parenthesised lists that wrap keeps on one line,
// such as K(x, y) or sign(x)·sign(y)·K(|x|, |y|).
var glued = regexp.MustCompile(`\(([^()\s]{1,8}), ([^()\s]{1,8})\)`)

// wrap splits prose into lines of at most 76 columns, never inside a
// glued list.
func wrap(s string) []string {
	s = glued.ReplaceAllString(s, "($1,\x00$2)")
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len([]rune(line))+1+len([]rune(w)) > 76 {
			lines = append(lines, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	for i := range lines {
		lines[i] = strings.ReplaceAll(lines[i], "\x00", " ")
	}
	return lines
}

// paragraphs joins wrapped paragraphs with blank lines; a paragraph that
// starts with a tab is kept verbatim (preformatted).
func paragraphs(ps ...string) []string {
	var out []string
	for _, p := range ps {
		if p == "" {
			continue
		}
		if len(out) > 0 {
			out = append(out, "")
		}
		if strings.HasPrefix(p, "\t") {
			out = append(out, strings.Split(p, "\n")...)
			continue
		}
		out = append(out, wrap(p)...)
	}
	return out
}

func commentBody(lines []string) string { return commentBlock(lines) }

var superscripts = []rune("⁰¹²³⁴⁵⁶⁷⁸⁹")

func sup(n int) string {
	var b strings.Builder
	for _, c := range strconv.Itoa(n) {
		b.WriteRune(superscripts[c-'0'])
	}
	return b.String()
}

// sigmaText lists the per-axis σ of an n-D kernel: "(0.3, 0.3)", or
// "3 on every axis" for more than three equal values.
func sigmaText(sig []float64) string {
	if len(sig) == 1 {
		return num(sig[0])
	}
	if len(sig) > 3 && allEqual(sig) {
		return num(sig[0]) + " on every axis"
	}
	s := make([]string, len(sig))
	for i, v := range sig {
		s[i] = num(v)
	}
	return "(" + strings.Join(s, ", ") + ")"
}

func allEqual(v []float64) bool {
	for _, x := range v {
		if x != v[0] {
			return false
		}
	}
	return true
}

// domainText describes the designed domain.
func domainText(m *fmap.Map) string {
	d := m.Domain
	if m.InDim > 3 && allEqual(d.Lo) && allEqual(d.Hi) {
		if d.Integer {
			return fmt.Sprintf("{%s..%s}%s", num(d.Lo[0]), num(d.Hi[0]), sup(m.InDim))
		}
		return fmt.Sprintf("[%s, %s]%s", num(d.Lo[0]), num(d.Hi[0]), sup(m.InDim))
	}
	if m.InDim == 1 {
		if d.Integer {
			return fmt.Sprintf("the integers %s..%s", num(d.Lo[0]), num(d.Hi[0]))
		}
		return fmt.Sprintf("the interval [%s, %s]", num(d.Lo[0]), num(d.Hi[0]))
	}
	axes := make([]string, m.InDim)
	for i := range axes {
		if d.Integer {
			axes[i] = fmt.Sprintf("{%s..%s}", num(d.Lo[i]), num(d.Hi[i]))
		} else {
			axes[i] = fmt.Sprintf("[%s, %s]", num(d.Lo[i]), num(d.Hi[i]))
		}
	}
	return strings.Join(axes, " × ")
}

func measureText(ms fmap.Measure) string {
	switch ms {
	case fmap.Absolute:
		return "absolute error |K(x, y) − Ψ(x)·Ψ(y)|"
	case fmap.Relative:
		return "relative error |K(x, y) − Ψ(x)·Ψ(y)|/K(x, y) over the pairs with K > 0"
	case fmap.Uniform:
		return "signature error |k(λ) − k̂(λ)|, the kernel error of a shift-invariant kernel"
	}
	return fmt.Sprintf("%q error", string(ms))
}

func measurementText(r fmap.Measurement) string {
	return fmt.Sprintf("L∞ %s, RMS %s on %s", g4(r.LInf), g4(r.RMS), r.On)
}

// limitText ends the sentence on very large inputs: with a limit L
// (limit.go), that what beyond ±L is taken as ±L, L = MaxFloat64/(2·sum),
// so that no phase overflows.
func limitText(lim float64, what, sum, phase string) string {
	if math.IsInf(lim, 1) {
		return "."
	}
	return fmt.Sprintf("; %s beyond ±L = %s (MaxFloat64/(2·%s)) is taken as ±L, so that no %s overflows.", what, strconv.FormatFloat(lim, 'g', -1, 64), sum, phase)
}

// specLines opens the header after its first line: the spec's path and
// hash, its restatement (Info.Spec) indented, and a blank line.
func (e *emitter) specLines() []string {
	p := e.p
	lines := []string{"", fmt.Sprintf("Spec: %s (hash %s)", p.info.SpecPath, p.info.SpecHash)}
	if s := strings.TrimRight(p.info.Spec, "\n"); s != "" {
		for _, l := range strings.Split(s, "\n") {
			lines = append(lines, "  "+strings.TrimRight(l, "\r"))
		}
	}
	lines = append(lines, "")
	return lines
}

// mapHeader returns the lines of the standard header comment after its
// machine-read lines: the spec, what the map is and its measured errors in
// rows, its model, then the kind's parameters and evaluation paths.
func (e *emitter) mapHeader(k mapWords) []string {
	p := e.p
	m, v := p.m, p.v
	lines := e.specLines()
	lines = append(lines, wrap(fmt.Sprintf("%s is a feature map Ψ: ℝ%s → ℝ%s with Ψ(x)·Ψ(y) ≈ K(x, y), stated the way an approximation generator states its interval and maximum error:",
		p.name, supIn(p.in), sup(p.dim)))...)
	lines = append(lines, "")
	row := func(k, v string) { lines = append(lines, fmt.Sprintf("\t%-10s %s", k, v)) }
	row("kernel", k.kernel(e))
	row("domain", domainText(m))
	row("measure", measureText(v.Measure))
	row("method", m.Method)
	row("form", k.form(e))
	errorRows(row, v)
	if v.Measure != fmap.Absolute && v.Absolute.Points > 0 {
		row("absolute", measurementText(v.Absolute))
	}
	if v.Absolute.Points > 0 {
		row("gram", gramText(v.Frobenius, v.Data != nil))
	}
	if v.Signature.Points > 0 {
		row("signature", measurementText(v.Signature))
	}
	if v.Design.Points > 0 {
		row("design", measurementText(v.Design))
	}
	if p.model() != nil {
		lines = append(lines, "")
		lines = append(lines, e.modelText()...)
	}
	lines = append(lines, "")
	lines = append(lines, k.parameterLines(e)...)
	lines = append(lines, "")
	lines = append(lines, "Evaluation:")
	lines = append(lines, "")
	return append(lines, bullets(k.evaluationLines(e))...)
}

// bullets wraps every line as an item of the header's list: "\t- " and
// the first line, "\t  " and the others.
func bullets(items []string) []string {
	var lines []string
	for _, l := range items {
		w := wrap(l)
		lines = append(lines, "\t- "+w[0])
		for _, c := range w[1:] {
			lines = append(lines, "\t  "+c)
		}
	}
	return lines
}

// errorRows writes the header's rows of the verified error: for a map
// verified on held-out data, the data, its error there and the rank-D
// limit first (the error that matters for the user's inputs), then the
// error on the domain's box, labelled so ("on the box": points of the
// domain, the whole box, not only where the data lie); for a map without,
// the error alone.
func errorRows(row func(k, v string), v *fmap.Verification) {
	dv := v.Data
	if dv == nil {
		row("error", measurementText(v.Reported))
		return
	}
	row("data", fmt.Sprintf("%s (%d rows, sha256:%s)", dv.File, dv.Rows, dv.SHA256))
	row("on data", fmt.Sprintf("%s; Gram matrix relative Frobenius error %s (Ψ = 0 scores 1)", measurementText(dv.Absolute), g4(dv.Frobenius)))
	if b := dv.RankBound; b != nil {
		row("limit", rankBoundText(b))
	}
	row("on the box", measurementText(v.Reported))
}

func supIn(n int) string {
	if n == 1 {
		return ""
	}
	return sup(n)
}

// docN is the doc comment of N: what it writes, the measured errors,
// what other inputs give (the kind's edges) and, from a kind with a fast
// path, speed, a summary of it ("" without one).
func (e *emitter) docN(k mapWords, speed string) []string {
	p := e.p
	v := p.v
	first := fmt.Sprintf("%s writes Ψ(x) to out: the %d-dimensional feature map of the %s, with Ψ(x)·Ψ(y) ≈ K(x, y).", p.name, p.dim, k.kernel(e))
	dom := fmt.Sprintf("On its domain, %s, the measured kernel error (%s) is L∞ %s and RMS %s, on %s.",
		domainText(p.m), measureText(v.Measure), g4(v.Reported.LInf), g4(v.Reported.RMS), v.Reported.On)
	outside := "Other inputs get the formula's value, but that error bound does not hold for them. " + k.edges(e)
	if dv := v.Data; dv != nil {
		// The held-out data's error first: the one that matters.
		dom = fmt.Sprintf("On held-out rows of the data it was designed for (%s, %d rows), the absolute error is L∞ %s and RMS %s, on %s. On the box of its domain, %s (the whole box, not only where the data lie), the measured kernel error (%s) is L∞ %s and RMS %s, on %s.",
			dv.File, dv.Rows, g4(dv.Absolute.LInf), g4(dv.Absolute.RMS), dv.Absolute.On,
			domainText(p.m), measureText(v.Measure), g4(v.Reported.LInf), g4(v.Reported.RMS), v.Reported.On)
	}
	return paragraphs(first, dom, outside, speed)
}

func (e *emitter) docSlice(name, fn, typ string) []string {
	p := e.p
	if p.in == 1 {
		return paragraphs(fmt.Sprintf("%s maps src[i] to dst[i*%s:(i+1)*%s] with %s (an additive kernel's map of a histogram); it panics if len(dst) != %s*len(src).",
			name, e.dimName(), e.dimName(), fn, e.dimName()))
	}
	return paragraphs(fmt.Sprintf("%s maps the consecutive %s-tuples src[i*%s:(i+1)*%s] to dst[i*%s:(i+1)*%s] with %s; it panics unless len(src)%%%s == 0 and len(dst) == %s*len(src)/%s.",
		name, e.inName(), e.inName(), e.inName(), e.dimName(), e.dimName(), fn, e.inName(), e.dimName(), e.inName()))
}

// doc32 is the doc comment of NF32, with what a kind's fast path adds in
// parentheses (how, "" for nothing).
func (e *emitter) doc32(how string) []string {
	p := e.p
	s := fmt.Sprintf("%s is %s in float32: it evaluates in float64 and rounds every component to float32", e.name32(), p.name)
	if how != "" {
		s += " (" + how + ")"
	}
	return paragraphs(s + ", so each component is the float64 value correctly rounded, up to a relative 2⁻²⁴. Edge inputs behave as in " + p.name + ".")
}

// addedError is the kernel error the pieces add at most, (2ε + ε²)·scale.
func (pc *pieces) addedError() float64 { return (2*pc.err + pc.err*pc.err) * pc.scale }

// piecesText describes the evaluation by the pieces pc of a 1-D map.
func (e *emitter) piecesText(pc *pieces) string {
	var where string
	if pc.kind == binade {
		where = fmt.Sprintf("x in [%s, %s) (%d pieces: %d per binade, indexed by the exponent and the top %d mantissa bits)",
			num(pc.start()), num(pc.end()), pc.count, 1<<pc.k, pc.k)
	} else {
		where = fmt.Sprintf("x in [%s, %s) (%d pieces of width %s)", num(pc.start()), num(pc.end()), pc.count, num(pc.h))
	}
	return fmt.Sprintf("%s evaluates Ψ by polynomials of degree %d in the position within the piece (Horner's rule)%s. Measured against the reference evaluator at %d points, ‖Ψ̃(x) − Ψ(x)‖ ≤ %s·‖Ψ(x)‖ (target %s), which adds at most %s to the kernel error on the domain: within the budget %s = 1e-3 × the L∞ error.",
		where, pc.deg, exactText(pc, ", except "), pc.points, g4(pc.err), g4(pc.target), g4(pc.addedError()), g4(e.p.budget))
}

// exactText describes the components the fast path of the pieces pc
// computes by formula (pieces.exact), after prefix; "" when there are none.
func exactText(pc *pieces, prefix string) string {
	if len(pc.exact) == 0 {
		return ""
	}
	var js []string
	for _, c := range pc.exact {
		js = append(js, strconv.Itoa(c.j))
	}
	what := "the constant √α"
	if f := pc.fm.f; f.Transform == fmap.Log {
		what = "x·√α"
		if f.Gamma == 1 {
			what = "√x·√α"
		}
	}
	noun := "component"
	if len(js) > 1 {
		noun = "components"
	}
	return fmt.Sprintf("%s%s %s, %s of a zero-frequency term, computed as in the formula", prefix, noun, strings.Join(js, ", "), what)
}

// columnsText says which component column j of the table of the pieces pc
// holds.
func columnsText(pc *pieces) string {
	shift := pc.cols[0]
	for c, j := range pc.cols {
		if j != c+shift {
			var js []string
			for _, j := range pc.cols {
				js = append(js, strconv.Itoa(j))
			}
			return fmt.Sprintf("the j-th (from 0) of the components %s", strings.Join(js, ", "))
		}
	}
	if shift == 0 {
		return "component j"
	}
	return fmt.Sprintf("component j+%d", shift)
}

// docPoly documents the coefficient table of the pieces pc of a 1-D map.
func (e *emitter) docPoly(pc *pieces) string {
	return fmt.Sprintf("%s[i][j][p] is the coefficient of s^p of %s on piece i, s ∈ [−1/2, 1/2) the position within the piece: Chebyshev interpolants of the reference evaluator, measured error %s relative to ‖Ψ(x)‖%s.",
		e.polyName(), columnsText(pc), g4(pc.err), exactText(pc, " with "))
}

// docAxisPoly documents the coefficient table of the pieces pc of axis i.
func (e *emitter) docAxisPoly(i int, pc *pieces) string {
	return fmt.Sprintf("%s[i][j][p] is the coefficient of s^p on piece i, s ∈ [−1/2, 1/2) the position within the piece, of cos(ω x%d) (j = 2k) and sin(ω x%d) (j = 2k+1) for the k-th frequency ω of axis %d: Chebyshev interpolants, measured error %s relative to the norm of these values.",
		e.axisPolyName(i), i, i, i, g4(pc.err))
}

// rankBoundText states the rank-D bound on the held-out rows and the map's
// ratio to it, for the header.
func rankBoundText(b *fmap.RankBound) string {
	if b.Frobenius == 0 {
		return fmt.Sprintf("none: %d components can reproduce the Gram matrix of the %d held-out rows exactly (its rank-%d bound is 0)", b.Rank, b.Rows, b.Rank)
	}
	t := fmt.Sprintf("rank-%d bound %s on %d held-out rows (the best rank-%d approximation of their Gram matrix, which no map of %d components beats)", b.Rank, g4(b.Frobenius), b.Rows, b.Rank, b.Rank)
	if b.Ratio > 0 {
		t += fmt.Sprintf("; this map %s× it", g4(b.Ratio))
		if b.Map != 0 {
			t += fmt.Sprintf(" (%s on those rows)", g4(b.Map))
		}
	}
	return t
}

// gramText states a map's Gram matrix error on its domain's verification
// inputs against Ψ = 0's, and for a map fitted to data (withData) when it
// is no better there.
func gramText(frob float64, withData bool) string {
	t := fmt.Sprintf("relative Frobenius error of the Gram matrix of those inputs %s (Ψ = 0 scores 1)", g4(frob))
	if withData && frob >= 1 {
		t += ": no better than Ψ = 0 on the domain; the map is fitted to the data, and good near it only"
	}
	return t
}
