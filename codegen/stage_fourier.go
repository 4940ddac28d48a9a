package codegen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// fourierKind emits a one-stage Fourier map (fmap.Fourier: Chum's designs,
// VZ, harmonic and the multi-axis projection and modulation maps): the
// formula with one sincos per distinct frequency and axis (or one and the
// angle-addition recurrence for a harmonic ladder), and the fast paths —
// on one input a table (integer domains) or polynomial pieces, on 2–3 axes
// polynomial pieces of every axis's cos/sin values.
type fourierKind struct {
	scalar
	noFiles
	fm *fourierMap
	// axes are the distinct nonzero frequencies per input axis; perTerm
	// is set for a multi-axis Fourier (projection) map evaluated with one
	// sincos of ω·x per term instead.
	axes    []axis
	perTerm bool
	// axisPieces are the piecewise polynomials of the per-axis cos/sin
	// values of an n-D map (nil entries: sincos on that axis).
	axisPieces []*pieces
}

func (k *fourierKind) fast() *scalar { return &k.scalar }

func (k *fourierKind) plan(p *plan) error {
	if err := noModel(p); err != nil {
		return err
	}
	k.scalar.k, k.fm.measure = k, p.v.Measure
	m, f := k.fm, k.fm.f
	if err := fourierPhases(f, m.Domain); err != nil {
		return err
	}
	k.axes = axesOf(m)
	k.axisPieces = axisPieces(m, k.axes, p.budget, p.info.Tables)
	if f.Form == fmap.FourierForm && m.InDim > 1 && !k.allAxisPieces() {
		// Without pieces on every axis, one sincos of ω·x per term is
		// cheaper when there are no more terms than per-axis sincos.
		if k.perTerm = sincosCount(k.axes) >= nonzeroTerms(m); k.perTerm {
			k.axisPieces = nil
		}
	}
	if m.InDim == 1 && m.Domain.Integer {
		k.table = newTable(m.Map)
	}
	if k.table == nil {
		pc, err := fitPieces(m, p.budget, p.info.Tables)
		if err != nil {
			return err
		}
		k.pieces = pc
	}
	return nil
}

func (k *fourierKind) planFormula(*plan) error {
	k.scalar.k = k
	if err := fourierPhases(k.fm.f, k.fm.Domain); err != nil {
		return err
	}
	k.axes = axesOf(k.fm)
	return nil
}

func (k *fourierKind) homogeneous() bool       { return k.fm.f.Homogeneous() }
func (k *fourierKind) negative() fmap.Negative { return k.fm.f.Negative }
func (k *fourierKind) limit() float64          { return phaseLimit(k.fm.f) }
func (k *fourierKind) data() *dataFile         { return nil }

func (k *fourierKind) header(e *emitter) []string { return e.mapHeader(k) }

func (k *fourierKind) api(e *emitter, f *jen.File) { k.scalar.api(e, f) }

func (k *fourierKind) helpers(e *emitter, f *jen.File) {
	k.scalar.helpers(e, f)
	for i, pc := range k.axisPieces {
		if pc != nil {
			e.polyTable(f, pc, e.axisPolyName(i), e.docAxisPoly(i, pc))
		}
	}
}

// speed summarises the fast path for N's doc comment.
func (k *fourierKind) speed() string {
	if s := k.scalar.speed(); s != "" || !k.hasAxisPieces() {
		return s
	}
	_, _, added := k.axisError()
	return fmt.Sprintf("Coordinates in the domain take their cos/sin values from piecewise polynomials that add at most %s to the kernel error; see the file header.", g4(added))
}

func (k *fourierKind) kernel(e *emitter) string { return kernelText(e.p.m, k.fm.f.Gamma, false) }

func (k *fourierKind) form(*emitter) string {
	m, f := k.fm, k.fm.f
	if f.Form == fmap.Modulation {
		return "modulation map: per term √α·⊗ᵢ[cos(ωᵢxᵢ), sin(ωᵢxᵢ)] over the axes with ωᵢ ≠ 0, the first axis varying slowest"
	}
	if f.Transform == fmap.Log {
		return fmt.Sprintf("Fourier map in t = log|x|: Ψ(x) = |x|^{%s}·[√α cos(ωt), √α sin(ωt)] per term (√α alone for ω = 0)", num(f.Gamma/2))
	}
	if m.InDim == 1 {
		return "Fourier map: Ψ(x) = [√α cos(ωx), √α sin(ωx)] per term (√α alone for ω = 0)"
	}
	return "projection map: Ψ(x) = [√α cos(ω·x), √α sin(ω·x)] per term, ω ∈ ℝ" + sup(m.InDim) + " (√α alone for ω = 0)"
}

func (k *fourierKind) edges(e *emitter) string { return k.scalar.edges(e) }

// parameterLines lists the terms with round-trip precision.
func (k *fourierKind) parameterLines(*emitter) []string {
	lines := []string{"Terms (frequency ω, weight α → components):", ""}
	j := 0
	for _, t := range k.fm.f.Terms {
		fs := make([]string, len(t.Freq))
		for i, w := range t.Freq {
			fs[i] = num(w)
		}
		f := strings.Join(fs, ", ")
		if len(fs) > 1 {
			f = "(" + f + ")"
		}
		n := fmap.TermDim(k.fm.f.Form, t.Freq)
		comps := strconv.Itoa(j)
		if n > 1 {
			comps = fmt.Sprintf("%d..%d", j, j+n-1)
		}
		lines = append(lines, fmt.Sprintf("\tω = %-24s α = %-24s → %s", f, num(t.Weight), comps))
		j += n
	}
	return lines
}

func (k *fourierKind) evaluationLines(e *emitter) []string {
	var axes []string
	if k.hasAxisPieces() {
		err, target, added := k.axisError()
		axes = append(axes, fmt.Sprintf("On every axis with polynomial pieces (below), inputs in their range take cos(ωxᵢ) and sin(ωxᵢ) from the pieces instead of sincos. Together the pieces perturb Ψ by at most Σᵢ√Fᵢ·εᵢ = %s relative to ‖Ψ(x)‖ (target %s; Fᵢ frequencies and measured error εᵢ on axis i), which adds at most %s to the kernel error on the domain: within the budget %s = 1e-3 × the L∞ error.",
			g4(err), g4(target), g4(added), g4(e.p.budget)))
	}
	return k.scalar.evaluationLines(e, axes, k.pieces != nil || k.hasAxisPieces())
}

// formulaText describes the exact evaluation.
func (k *fourierKind) formulaText(e *emitter) string {
	m, f := k.fm, k.fm.f
	var parts []string
	if f.Transform == fmap.Log {
		a := "math.Pow"
		switch f.Gamma {
		case 1:
			a = "one square root"
		case 2:
			a = "no root"
		}
		parts = append(parts, "one log", a)
	}
	if k.perTerm {
		parts = append(parts, fmt.Sprintf("one sincos of ω·x per term (%d)", nonzeroTerms(m)))
	} else {
		for i, ax := range k.axes {
			on := ""
			if m.InDim > 1 {
				on = fmt.Sprintf(" on axis %d", i)
			}
			var pc *pieces
			if k.axisPieces != nil {
				pc = k.axisPieces[i]
			}
			switch {
			case len(ax.freqs) == 0:
			case pc != nil:
				parts = append(parts, fmt.Sprintf("on axis %d, %d polynomial pieces of degree %d over [%s, %s) (measured error %s relative to the norm of the axis's cos/sin values, %d points), else %s",
					i, pc.count, pc.deg, num(pc.start()), num(pc.end()), g4(pc.err), pc.points, k.axisSincosText(e, i)))
			case ax.ladder != nil:
				parts = append(parts, fmt.Sprintf("one sincos%s of %s·%s and the angle-addition recurrence up to the multiple %d (harmonic frequencies)",
					on, num(ax.ladder.base), k.axisArg(e, i), ax.ladder.top))
			default:
				parts = append(parts, fmt.Sprintf("%d sincos%s, one per distinct frequency", len(ax.freqs), on))
			}
		}
		if m.InDim > 1 && f.Form == fmap.FourierForm {
			parts = append(parts, "angle addition per term")
		}
		if f.Form == fmap.Modulation {
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
func (k *fourierKind) axisSincosText(e *emitter, i int) string {
	ax := k.axes[i]
	if ax.ladder != nil {
		return fmt.Sprintf("one sincos of %s·%s and the angle-addition recurrence up to the multiple %d", num(ax.ladder.base), k.axisArg(e, i), ax.ladder.top)
	}
	return fmt.Sprintf("%d sincos", len(ax.freqs))
}

// axisError returns the bound Σ_i √F_i·ε_i on ‖δΨ‖/‖Ψ‖ of the per-axis
// pieces (F_i frequencies and measured error ε_i on axis i), the target it
// had to meet, and the kernel error it adds at most.
func (k *fourierKind) axisError() (err, target, added float64) {
	scale := 0.0
	for i, pc := range k.axisPieces {
		if pc == nil {
			continue
		}
		f := math.Sqrt(float64(len(k.axes[i].freqs)))
		err += f * pc.err
		// Every axis's target is the map's target/(n·√F_i).
		target, scale = pc.target*float64(k.fm.InDim)*f, pc.scale
	}
	return err, target, (2*err + err*err) * scale
}

// allAxisPieces reports whether every axis with frequencies has
// polynomial pieces.
func (k *fourierKind) allAxisPieces() bool {
	if k.axisPieces == nil {
		return false
	}
	for i, ax := range k.axes {
		if len(ax.freqs) > 0 && k.axisPieces[i] == nil {
			return false
		}
	}
	return true
}

// hasAxisPieces reports whether some axis has polynomial pieces.
func (k *fourierKind) hasAxisPieces() bool {
	for _, pc := range k.axisPieces {
		if pc != nil {
			return true
		}
	}
	return false
}

// formulaBody evaluates a Fourier or Modulation map at a finite input
// (positive for the log transform).
func (k *fourierKind) formulaBody(e *emitter) []jen.Code {
	m, f := k.fm, k.fm.f
	var body []jen.Code
	amp := ""
	if f.Transform == fmap.Log {
		if nonzeroTerms(m) > 0 {
			body = append(body, jen.Id("t").Op(":=").Qual("math", "Log").Call(jen.Id("x")))
		}
		amp = "a"
		var a jen.Code
		switch f.Gamma {
		case 1:
			a = jen.Qual("math", "Sqrt").Call(jen.Id("x"))
		case 2:
			a = jen.Id("x")
		default:
			a = jen.Qual("math", "Pow").Call(jen.Id("x"), e.lit.f64(f.Gamma/2))
		}
		body = append(body, jen.Id("a").Op(":=").Add(a))
	}
	if !k.perTerm {
		body = append(body, k.axisTrig(e)...)
	}
	j := 0
	for ti, t := range f.Terms {
		coef := func() *jen.Statement {
			c := e.lit.f64(math.Sqrt(t.Weight)).(*jen.Statement)
			if amp != "" {
				return jen.Id(amp).Op("*").Add(c)
			}
			return c
		}
		var nz []int
		for i, w := range t.Freq {
			if w != 0 {
				nz = append(nz, i)
			}
		}
		switch {
		case len(nz) == 0:
			body = append(body, outAssign(j, coef()))
			j++
		case f.Form == fmap.Modulation:
			for b := range 1 << len(nz) {
				x := coef()
				for pos, i := range nz {
					c, s := k.trigOf(e, i, t.Freq[i])
					if b>>(len(nz)-1-pos)&1 == 0 {
						x = x.Op("*").Id(c)
					} else if t.Freq[i] > 0 {
						x = x.Op("*").Id(s)
					} else {
						x = x.Op("*").Parens(jen.Op("-").Id(s))
					}
				}
				body = append(body, outAssign(j, x))
				j++
			}
		case k.perTerm:
			s, c := fmt.Sprintf("s%d", ti), fmt.Sprintf("c%d", ti)
			var phase *jen.Statement
			for _, i := range nz {
				term := e.lit.f64(t.Freq[i]).(*jen.Statement).Op("*").Id(k.axisArg(e, i))
				if phase == nil {
					phase = term
				} else {
					phase = phase.Op("+").Add(term)
				}
			}
			body = append(body,
				jen.List(jen.Id(s), jen.Id(c)).Op(":=").Qual("math", "Sincos").Call(phase),
				outAssign(j, coef().Op("*").Id(c)),
				outAssign(j+1, coef().Op("*").Id(s)),
			)
			j += 2
		default:
			cs, ss := k.angleSum(e, t.Freq, nz)
			body = append(body, outAssign(j, coef().Op("*").Add(cs)), outAssign(j+1, coef().Op("*").Add(ss)))
			j += 2
		}
	}
	return body
}

// axisArg returns the argument variable of axis i: t = log x (log
// transform), x (1-D) or x<i>.
func (k *fourierKind) axisArg(e *emitter, i int) string {
	switch {
	case k.fm.f.Transform == fmap.Log:
		return "t"
	case e.p.in == 1:
		return "x"
	}
	return fmt.Sprintf("x%d", i)
}

// trig names the cosine and sine variables of frequency index j (or ladder
// multiple j) of axis i.
func (k *fourierKind) trig(e *emitter, i, j int) (c, s string) {
	if e.p.in == 1 {
		return fmt.Sprintf("c%d", j), fmt.Sprintf("s%d", j)
	}
	return fmt.Sprintf("c%d_%d", i, j), fmt.Sprintf("s%d_%d", i, j)
}

// trigOf returns the variables holding cos(|w|·t_i) and sin(|w|·t_i).
func (k *fourierKind) trigOf(e *emitter, i int, w float64) (c, s string) {
	ax := k.axes[i]
	w = math.Abs(w)
	for j, f := range ax.freqs {
		if f == w {
			if ax.ladder != nil {
				return k.trig(e, i, ax.ladder.mult[j])
			}
			return k.trig(e, i, j+1)
		}
	}
	panic("codegen: frequency not on its axis")
}

// axisTrig emits the cos/sin variables of every axis: by polynomial
// pieces where the axis has them and x_i is in their range, else by sincos
// (one per frequency, or one and the angle-addition recurrence for a
// harmonic ladder).
func (k *fourierKind) axisTrig(e *emitter) []jen.Code {
	var body []jen.Code
	for i, ax := range k.axes {
		if len(ax.freqs) == 0 {
			continue
		}
		var pc *pieces
		if k.axisPieces != nil {
			pc = k.axisPieces[i]
		}
		if pc == nil {
			body = append(body, k.sincosAxis(e, i, ":=")...)
			continue
		}
		// Declare every variable the sincos branch assigns.
		n := len(ax.freqs)
		if ax.ladder != nil {
			n = ax.ladder.top
		}
		var names []jen.Code
		for j := 1; j <= n; j++ {
			c, s := k.trig(e, i, j)
			names = append(names, jen.Id(c), jen.Id(s))
		}
		body = append(body, jen.Var().List(names...).Float64())
		set := func(j int, v jen.Code) jen.Code {
			c, s := k.trigOf(e, i, ax.freqs[j/2])
			if j%2 == 1 {
				c = s
			}
			return jen.Id(c).Op("=").Add(v)
		}
		x := func() *jen.Statement { return jen.Id(k.axisArg(e, i)) }
		pre, st := e.polyIf(pc, e.axisPolyName(i), x, set)
		body = append(body, pre...)
		body = append(body, st.Else().Block(k.sincosAxis(e, i, "=")...))
	}
	return body
}

// sincosAxis computes the cos/sin variables of axis i by sincos, declaring
// them (op ":=") or assigning declared ones (op "=").
func (k *fourierKind) sincosAxis(e *emitter, i int, op string) []jen.Code {
	ax := k.axes[i]
	arg := k.axisArg(e, i)
	var body []jen.Code
	if ax.ladder == nil {
		for j, w := range ax.freqs {
			c, s := k.trig(e, i, j+1)
			body = append(body, jen.List(jen.Id(s), jen.Id(c)).Op(op).Qual("math", "Sincos").Call(e.lit.f64(w).(*jen.Statement).Op("*").Id(arg)))
		}
		return body
	}
	l := ax.ladder
	c1, s1 := k.trig(e, i, 1)
	body = append(body, jen.List(jen.Id(s1), jen.Id(c1)).Op(op).Qual("math", "Sincos").Call(e.lit.f64(l.base).(*jen.Statement).Op("*").Id(arg)))
	for n := 2; n <= l.top; n++ {
		cp, sp := k.trig(e, i, n-1)
		cn, sn := k.trig(e, i, n)
		// cos(nθ) = cos((n−1)θ)cos θ − sin((n−1)θ)sin θ, sin likewise.
		body = append(body, jen.List(jen.Id(cn), jen.Id(sn)).Op(op).List(
			jen.Id(cp).Op("*").Id(c1).Op("-").Id(sp).Op("*").Id(s1),
			jen.Id(sp).Op("*").Id(c1).Op("+").Id(cp).Op("*").Id(s1),
		))
	}
	return body
}

// angleSum returns expressions for cos(Σ ω_i t_i) and sin(Σ ω_i t_i) over
// the nonzero axes nz, built from the per-axis variables by angle addition.
func (k *fourierKind) angleSum(e *emitter, freq []float64, nz []int) (c, s *jen.Statement) {
	signed := func(i int) (jen.Code, jen.Code) {
		cv, sv := k.trigOf(e, i, freq[i])
		if freq[i] > 0 {
			return jen.Id(cv), jen.Id(sv)
		}
		return jen.Id(cv), jen.Parens(jen.Op("-").Id(sv))
	}
	c0, s0 := signed(nz[0])
	c, s = jen.Add(c0), jen.Add(s0)
	for _, i := range nz[1:] {
		ci, si := signed(i)
		c, s = jen.Parens(c.Clone().Op("*").Add(ci).Op("-").Add(s.Clone()).Op("*").Add(si)),
			jen.Parens(s.Clone().Op("*").Add(ci).Op("+").Add(c.Clone()).Op("*").Add(si))
	}
	return c, s
}
