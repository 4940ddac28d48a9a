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

// kernelText names the kernel with its formula.
func kernelText(m *shape) string {
	g := m.Gamma
	homog := func(name, one, general string) string {
		t := fmt.Sprintf("%s-homogeneous %s kernel K(x, y) = %s, γ = %s", num(g), name, general, num(g))
		if g == 1 {
			t = name + " kernel K(x, y) = " + one
		}
		if m.Nystroem != nil { // whole rows of an additive kernel
			t = fmt.Sprintf("additive %s, summed over the %d coordinates of a row", t, m.InDim)
		}
		return t
	}
	switch m.Kernel.Type {
	case "chi2":
		return homog("χ²", "2xy/(x+y)", "(xy)^{γ/2}·sech(log(y/x)/2)")
	case "intersection":
		return homog("intersection", "min(x, y)", "(xy)^{γ/2}·e^{−|log(y/x)|/2}")
	case "js":
		return homog("Jensen–Shannon", "(x/2)·log₂((x+y)/x) + (y/2)·log₂((x+y)/y)", "(xy)^{γ/2}·k_JS(log(y/x))")
	case "hellinger":
		return homog("Hellinger", "√(xy)", "(xy)^{γ/2}")
	case "rbf":
		if m.InDim == 1 {
			return fmt.Sprintf("Gaussian RBF kernel K(x, y) = exp(−(x−y)²/(2σ²)), σ = %s", num(m.Kernel.Sigma[0]))
		}
		return fmt.Sprintf("Gaussian RBF kernel K(x, y) = exp(−Σᵢ(xᵢ−yᵢ)²/(2σᵢ²)), σ = %s", sigmaText(m.Kernel.Sigma))
	case fmap.SkewedChi2:
		return fmt.Sprintf("skewed χ² kernel K(x, y) = Πᵢ sech(σᵢ·(log(xᵢ+c) − log(yᵢ+c))), σ = %s, c = %s", sigmaText(m.Kernel.Sigma), num(m.Kernel.C))
	case fmap.SkewedIntersection:
		return fmt.Sprintf("skewed intersection kernel K(x, y) = exp(−Σᵢ σᵢ·|log(xᵢ+c) − log(yᵢ+c)|), σ = %s, c = %s", sigmaText(m.Kernel.Sigma), num(m.Kernel.C))
	case fmap.ExpChi2:
		return fmt.Sprintf("exponential χ² kernel K(x, y) = exp(−β·Σᵢ (xᵢ−yᵢ)²/(xᵢ+yᵢ)), β = %s", num(m.Kernel.Beta))
	case fmap.Laplacian:
		return fmt.Sprintf("Laplacian kernel K(x, y) = exp(−Σᵢ|xᵢ−yᵢ|/σᵢ), σ = %s", sigmaText(m.Kernel.Sigma))
	case fmap.Matern:
		return fmt.Sprintf("Matérn kernel K(x, y) = %s of r = ‖(x−y)/σ‖, ν = %s, σ = %s", maternText(m.Kernel.Nu), num(m.Kernel.Nu), sigmaText(m.Kernel.Sigma))
	case fmap.Poly:
		return fmt.Sprintf("polynomial kernel K(x, y) = (s·x·y + c)^%d, s = %s, c = %s", m.Kernel.Degree, num(m.Kernel.Scale), num(m.Kernel.Offset))
	}
	if m.Homogeneous() {
		return fmt.Sprintf("%q kernel (γ = %s)", m.Kernel.Type, num(g))
	}
	return fmt.Sprintf("%q kernel", m.Kernel.Type)
}

// maternText is the Matérn function of smoothness ν.
func maternText(nu float64) string {
	switch nu {
	case 0.5:
		return "e^{−r}"
	case 1.5:
		return "(1 + √3r)·e^{−√3r}"
	}
	return "(1 + √5r + 5r²/3)·e^{−√5r}"
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
func domainText(m *shape) string {
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

// formText describes the functional form.
func formText(m *shape) string {
	if m.Random != nil {
		return randomFormText(m)
	}
	if m.Nystroem != nil {
		return nysFormText(m)
	}
	if m.Polynomial != nil {
		return polyFormText(m)
	}
	if m.Anchors != nil {
		return anchorFormText(m)
	}
	switch m.Form {
	case fmap.LiSeries:
		return "Li et al.'s direct χ² series c_q(x) = Π_{p<q} ρ_p(x)·2√k_q·x/(x+k_q), ρ_p(x) = (x−k_p)/(x+k_p)"
	case fmap.Chebyshev:
		return "Li et al.'s Chebyshev χ² series: d_0 = 2x/(x+1), d_1 = −(√2·log x/π)·d_0, d_q = [(−1)^q·(2·log x/π)·d_{q−1} + (q−2)·d_{q−2}]/q"
	case fmap.Modulation:
		return "modulation map: per term √α·⊗ᵢ[cos(ωᵢxᵢ), sin(ωᵢxᵢ)] over the axes with ωᵢ ≠ 0, the first axis varying slowest"
	}
	if m.Transform == fmap.Log {
		return fmt.Sprintf("Fourier map in t = log|x|: Ψ(x) = |x|^{%s}·[√α cos(ωt), √α sin(ωt)] per term (√α alone for ω = 0)", num(m.Gamma/2))
	}
	if m.InDim == 1 {
		return "Fourier map: Ψ(x) = [√α cos(ωx), √α sin(ωx)] per term (√α alone for ω = 0)"
	}
	return "projection map: Ψ(x) = [√α cos(ω·x), √α sin(ω·x)] per term, ω ∈ ℝ" + sup(m.InDim) + " (√α alone for ω = 0)"
}

// negativeText says what x = 0, x < 0 and non-finite inputs give.
func negativeText(m *shape) string {
	if m.Random != nil {
		return randomNegativeText(m)
	}
	if m.Nystroem != nil {
		return nysNegativeText(m)
	}
	if m.Polynomial != nil {
		return "An input with a NaN or ±Inf coordinate gives NaN in every component, as featmap's reference evaluator does. Other inputs outside the domain get the formula's value: a polynomial, which grows without bound (and overflows beyond the domain bound the spec was checked against)."
	}
	if m.Anchors != nil {
		return anchorNegativeText(m)
	}
	nf := "NaN and ±Inf give NaN in every component."
	if m.InDim > 1 {
		nf = "An input with a NaN or ±Inf coordinate gives NaN in every component."
	}
	if !m.Homogeneous() {
		s := nf + " Very large inputs, where ω·x keeps no correct digit, still give bounded components (|Ψ_j| ≤ √α of its term) but not meaningful ones"
		what, sum := "an input", "max|ω|"
		if m.InDim > 1 {
			what, sum = "a coordinate", "max Σᵢ|ωᵢ| over the terms"
		}
		return s + limitText(phaseLimit(m), what, sum, "ω·x")
	}
	neg := "x < 0 gives −Ψ(|x|) (the positive-definite extension sign(x)·sign(y)·K(|x|, |y|))"
	if m.Negative == fmap.NegativeZero {
		neg = "x < 0 gives zeros"
	}
	return "x = 0 gives zeros; " + neg + "; " + nf
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

// header returns the lines of the file's header comment after the first.
func (e *emitter) header() []string {
	p := e.p
	if p.blocks != nil {
		return e.blocksHeader()
	}
	m := p.m
	v := m.Errors
	lines := e.specLines()
	lines = append(lines, wrap(fmt.Sprintf("%s is a feature map Ψ: ℝ%s → ℝ%s with Ψ(x)·Ψ(y) ≈ K(x, y), stated the way an approximation generator states its interval and maximum error:",
		p.name, supIn(p.in), sup(p.dim)))...)
	lines = append(lines, "")
	row := func(k, v string) { lines = append(lines, fmt.Sprintf("\t%-10s %s", k, v)) }
	row("kernel", kernelText(m))
	row("domain", domainText(m))
	row("measure", measureText(v.Measure))
	row("method", m.Method)
	row("form", formText(m))
	errorRows(row, v)
	if v.Measure != fmap.Absolute && v.Absolute.Points > 0 {
		row("absolute", measurementText(v.Absolute))
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
	lines = append(lines, e.parameterLines()...)
	lines = append(lines, "")
	lines = append(lines, "Evaluation:")
	lines = append(lines, "")
	for _, l := range e.evaluationLines() {
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
	row("on data", fmt.Sprintf("%s; Gram matrix relative Frobenius error %s", measurementText(dv.Absolute), g4(dv.Frobenius)))
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

// parameterLines lists the map's parameters with round-trip precision.
func (e *emitter) parameterLines() []string {
	m := e.p.m
	if e.p.rnd != nil {
		return e.randomParameterLines()
	}
	if e.p.nys != nil {
		return e.nysParameterLines()
	}
	if e.p.poly != nil {
		return e.polyParameterLines()
	}
	if e.p.anchor != nil {
		return e.anchorParameterLines()
	}
	switch m.Form {
	case fmap.LiSeries:
		ks := make([]string, len(m.LiK))
		for i, k := range m.LiK {
			ks[i] = num(k)
		}
		return append([]string{"Parameters k_1..k_N:", ""}, "\t"+strings.Join(ks, ", "))
	case fmap.Chebyshev:
		return []string{fmt.Sprintf("Terms d_0..d_%d (no parameters).", m.Dim-1)}
	}
	lines := []string{"Terms (frequency ω, weight α → components):", ""}
	k := 0
	for _, t := range m.Terms {
		fs := make([]string, len(t.Freq))
		for i, w := range t.Freq {
			fs[i] = num(w)
		}
		f := strings.Join(fs, ", ")
		if len(fs) > 1 {
			f = "(" + f + ")"
		}
		n := fmap.TermDim(m.Form, t.Freq)
		comps := strconv.Itoa(k)
		if n > 1 {
			comps = fmt.Sprintf("%d..%d", k, k+n-1)
		}
		lines = append(lines, fmt.Sprintf("\tω = %-24s α = %-24s → %s", f, num(t.Weight), comps))
		k += n
	}
	return lines
}

// evaluationLines describes every evaluation path with its measured error.
func (e *emitter) evaluationLines() []string {
	p := e.p
	if p.rnd != nil {
		return e.randomEvaluationLines()
	}
	if p.nys != nil {
		return e.nysEvaluationLines()
	}
	if p.poly != nil {
		return e.polyEvaluationLines()
	}
	if p.anchor != nil {
		return e.anchorEvaluationLines()
	}
	var out []string
	if tb := p.table; tb != nil {
		out = append(out, fmt.Sprintf("Integer x in %d..%d reads a table of Ψ(x) computed by featmap's reference evaluator (no error beyond rounding to float64, or to float32 for %s).", tb.lo, tb.hi, e.name32()))
	}
	if pc := p.pieces; pc != nil {
		out = append(out, e.piecesText())
	}
	if p.hasAxisPieces() {
		err, target, added := p.axisError()
		out = append(out, fmt.Sprintf("On every axis with polynomial pieces (below), inputs in their range take cos(ωxᵢ) and sin(ωxᵢ) from the pieces instead of sincos. Together the pieces perturb Ψ by at most Σᵢ√Fᵢ·εᵢ = %s relative to ‖Ψ(x)‖ (target %s; Fᵢ frequencies and measured error εᵢ on axis i), which adds at most %s to the kernel error on the domain: within the budget %s = 1e-3 × the L∞ error.",
			g4(err), g4(target), g4(added), g4(p.budget)))
	}
	if (p.pieces != nil || p.hasAxisPieces()) && p.info.Tables != Fast {
		why := map[Tables]string{
			Compact: "the degree of fewer coefficients among the fastest degree and the one above it",
			Small:   "the degree of the fewest coefficients",
		}[p.info.Tables]
		out = append(out, fmt.Sprintf("The pieces' degree was chosen for a smaller file (emit.tables %s: %s), not for the fewest operations per input.", p.info.Tables, why))
	}
	switch {
	case p.in > 1:
		out = append(out, fmt.Sprintf("Ψ(x) is the formula, computed with: %s.", e.formulaText()))
	case p.table != nil || p.pieces != nil:
		out = append(out, fmt.Sprintf("Other inputs take the formula: %s.", e.formulaText()))
	default:
		out = append(out, fmt.Sprintf("All inputs take the formula: %s.", e.formulaText()))
	}
	out = append(out, fmt.Sprintf("%s and %s evaluate the same way in float64 and round each component to float32.", e.name32(), e.slice32Name()))
	return out
}

// addedError is the kernel error the pieces add at most, (2ε + ε²)·scale.
func (pc *pieces) addedError() float64 { return (2*pc.err + pc.err*pc.err) * pc.scale }

func (e *emitter) piecesText() string {
	pc := e.p.pieces
	var where string
	if pc.kind == binade {
		where = fmt.Sprintf("x in [%s, %s) (%d pieces: %d per binade, indexed by the exponent and the top %d mantissa bits)",
			num(pc.start()), num(pc.end()), pc.count, 1<<pc.k, pc.k)
	} else {
		where = fmt.Sprintf("x in [%s, %s) (%d pieces of width %s)", num(pc.start()), num(pc.end()), pc.count, num(pc.h))
	}
	return fmt.Sprintf("%s evaluates Ψ by polynomials of degree %d in the position within the piece (Horner's rule)%s. Measured against the reference evaluator at %d points, ‖Ψ̃(x) − Ψ(x)‖ ≤ %s·‖Ψ(x)‖ (target %s), which adds at most %s to the kernel error on the domain: within the budget %s = 1e-3 × the L∞ error.",
		where, pc.deg, e.exactText(", except "), pc.points, g4(pc.err), g4(pc.target), g4(pc.addedError()), g4(e.p.budget))
}

// exactText describes the components the pieces' fast path computes by
// formula (pieces.exact), after prefix; "" when there are none.
func (e *emitter) exactText(prefix string) string {
	pc := e.p.pieces
	if len(pc.exact) == 0 {
		return ""
	}
	var js []string
	for _, c := range pc.exact {
		js = append(js, strconv.Itoa(c.j))
	}
	what := "the constant √α"
	if m := e.p.m; m.Transform == fmap.Log {
		what = "x·√α"
		if m.Gamma == 1 {
			what = "√x·√α"
		}
	}
	noun := "component"
	if len(js) > 1 {
		noun = "components"
	}
	return fmt.Sprintf("%s%s %s, %s of a zero-frequency term, computed as in the formula", prefix, noun, strings.Join(js, ", "), what)
}

// columnsText says which component column j of the pieces' table holds.
func (e *emitter) columnsText() string {
	pc := e.p.pieces
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

// formulaText describes the exact evaluation.
func (e *emitter) formulaText() string {
	m := e.p.m
	switch m.Form {
	case fmap.LiSeries:
		return "a running product with one division per term and no transcendental function"
	case fmap.Chebyshev:
		return "one log and the stable upward recurrence"
	}
	var parts []string
	if m.Transform == fmap.Log {
		a := "math.Pow"
		switch m.Gamma {
		case 1:
			a = "one square root"
		case 2:
			a = "no root"
		}
		parts = append(parts, "one log", a)
	}
	if e.p.perTerm {
		parts = append(parts, fmt.Sprintf("one sincos of ω·x per term (%d)", nonzeroTerms(m)))
	} else {
		for i, ax := range e.p.axes {
			on := ""
			if m.InDim > 1 {
				on = fmt.Sprintf(" on axis %d", i)
			}
			var pc *pieces
			if e.p.axisPieces != nil {
				pc = e.p.axisPieces[i]
			}
			switch {
			case len(ax.freqs) == 0:
			case pc != nil:
				parts = append(parts, fmt.Sprintf("on axis %d, %d polynomial pieces of degree %d over [%s, %s) (measured error %s relative to the norm of the axis's cos/sin values, %d points), else %s",
					i, pc.count, pc.deg, num(pc.start()), num(pc.end()), g4(pc.err), pc.points, e.axisSincosText(i)))
			case ax.ladder != nil:
				parts = append(parts, fmt.Sprintf("one sincos%s of %s·%s and the angle-addition recurrence up to the multiple %d (harmonic frequencies)",
					on, num(ax.ladder.base), e.axisArg(i), ax.ladder.top))
			default:
				parts = append(parts, fmt.Sprintf("%d sincos%s, one per distinct frequency", len(ax.freqs), on))
			}
		}
		if m.InDim > 1 && m.Form == fmap.FourierForm {
			parts = append(parts, "angle addition per term")
		}
		if m.Form == fmap.Modulation {
			parts = append(parts, "products per term")
		}
	}
	if len(parts) == 0 {
		return "constants"
	}
	if m.InDim > 1 {
		return strings.Join(parts, "; ")
	}
	return strings.Join(parts, ", ")
}

// axisSincosText describes the sincos evaluation of axis i.
func (e *emitter) axisSincosText(i int) string {
	ax := e.p.axes[i]
	if ax.ladder != nil {
		return fmt.Sprintf("one sincos of %s·%s and the angle-addition recurrence up to the multiple %d", num(ax.ladder.base), e.axisArg(i), ax.ladder.top)
	}
	return fmt.Sprintf("%d sincos", len(ax.freqs))
}

// docN is the doc comment of N.
func (e *emitter) docN() []string {
	p := e.p
	m := p.m
	v := m.Errors
	first := fmt.Sprintf("%s writes Ψ(x) to out: the %d-dimensional feature map of the %s, with Ψ(x)·Ψ(y) ≈ K(x, y).", p.name, p.dim, kernelText(m))
	dom := fmt.Sprintf("On its domain, %s, the measured kernel error (%s) is L∞ %s and RMS %s, on %s.",
		domainText(m), measureText(v.Measure), g4(v.Reported.LInf), g4(v.Reported.RMS), v.Reported.On)
	outside := "Other inputs get the formula's value, but that error bound does not hold for them. " + negativeText(m)
	if dv := v.Data; dv != nil {
		// The held-out data's error first: the one that matters.
		dom = fmt.Sprintf("On held-out rows of the data it was designed for (%s, %d rows), the absolute error is L∞ %s and RMS %s, on %s. On the box of its domain, %s (the whole box, not only where the data lie), the measured kernel error (%s) is L∞ %s and RMS %s, on %s.",
			dv.File, dv.Rows, g4(dv.Absolute.LInf), g4(dv.Absolute.RMS), dv.Absolute.On,
			domainText(m), measureText(v.Measure), g4(v.Reported.LInf), g4(v.Reported.RMS), v.Reported.On)
	}
	return paragraphs(first, dom, outside, e.speedText())
}

// speedText summarises the fast path for N's doc comment.
func (e *emitter) speedText() string {
	p := e.p
	switch {
	case p.table != nil:
		return fmt.Sprintf("Integer inputs %d..%d read a precomputed table; see the file header for the evaluation of the others.", p.table.lo, p.table.hi)
	case p.pieces != nil:
		return fmt.Sprintf("Inputs in [%s, %s) use piecewise polynomials that add at most %s to the kernel error; see the file header.",
			num(p.pieces.start()), num(p.pieces.end()), g4(p.pieces.addedError()))
	case p.hasAxisPieces():
		_, _, added := p.axisError()
		return fmt.Sprintf("Coordinates in the domain take their cos/sin values from piecewise polynomials that add at most %s to the kernel error; see the file header.", g4(added))
	}
	return ""
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

func (e *emitter) doc32() []string {
	p := e.p
	s := fmt.Sprintf("%s is %s in float32: it evaluates in float64 and rounds every component to float32", e.name32(), p.name)
	if p.table != nil {
		s += fmt.Sprintf(" (integer inputs %d..%d read a float32 table)", p.table.lo, p.table.hi)
	}
	return paragraphs(s + ", so each component is the float64 value correctly rounded, up to a relative 2⁻²⁴. Edge inputs behave as in " + p.name + ".")
}

func (e *emitter) docGeneral() []string {
	return paragraphs(fmt.Sprintf("%s evaluates Ψ(x) by its formula: %s.", e.generalName(), e.formulaText()))
}

func (e *emitter) docSpecial() []string {
	return paragraphs(fmt.Sprintf("%s handles the inputs that are not positive and finite: %s", e.specialName(), negativeText(e.p.m)))
}

func (e *emitter) docPoly() string {
	pc := e.p.pieces
	return fmt.Sprintf("%s[i][j][p] is the coefficient of s^p of %s on piece i, s ∈ [−1/2, 1/2) the position within the piece: Chebyshev interpolants of the reference evaluator, measured error %s relative to ‖Ψ(x)‖%s.",
		e.polyName(), e.columnsText(), g4(pc.err), e.exactText(" with "))
}

func (e *emitter) docAxisPoly(i int) string {
	pc := e.p.axisPieces[i]
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
