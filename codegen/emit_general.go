package codegen

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// generalBody evaluates the map by its formula: the reference evaluator's
// arithmetic with the constants baked in (√α, 2√k, 1/q), sincos shared per
// axis and frequency, and harmonic ladders by angle addition.
func (e *emitter) generalBody() []jen.Code {
	p := e.p
	var body []jen.Code
	if p.m.Homogeneous() {
		body = append(body,
			jen.If(jen.Op("!").Parens(jen.Id("x").Op(">").Lit(0).Op("&&").Id("x").Op("<=").Qual("math", "MaxFloat64"))).Block(
				jen.Id(e.specialName()).Call(jen.Id("out"), jen.Id("x")),
				jen.Return(),
			))
	} else {
		body = append(body, e.finiteCheck()...)
	}
	switch p.m.Form {
	case fmap.LiSeries:
		return append(body, e.liBody()...)
	case fmap.Chebyshev:
		return append(body, e.chebyshevBody()...)
	}
	return append(body, e.fourierBody()...)
}

// finiteCheck returns NaN components unless every input is finite
// (shift-invariant maps), and takes a finite input coordinate beyond ±L,
// the map's phaseLimit, as ±L (limit.go): one comparison per coordinate
// against L instead of MaxFloat64, the rest only beyond L.
func (e *emitter) finiteCheck() []jen.Code {
	lim := phaseLimit(e.p.m)
	var names []string
	var body []jen.Code
	if e.p.in == 1 {
		names = []string{"x"}
	} else {
		var ids, vals []jen.Code
		for i := range e.p.in {
			names = append(names, fmt.Sprintf("x%d", i))
			ids = append(ids, jen.Id(names[i]))
			vals = append(vals, jen.Id("x").Index(integer(i)))
		}
		body = append(body, jen.List(ids...).Op(":=").List(vals...))
	}
	// within is |x_i| <= bound for every coordinate.
	within := func(bound func() jen.Code) *jen.Statement {
		var cond *jen.Statement
		for _, n := range names {
			c := jen.Qual("math", "Abs").Call(jen.Id(n)).Op("<=").Add(bound())
			if cond == nil {
				cond = c
			} else {
				cond = cond.Op("&&").Add(c)
			}
		}
		return cond
	}
	maxF := func() jen.Code { return jen.Qual("math", "MaxFloat64") }
	nonFinite := jen.If(jen.Op("!").Parens(within(maxF))).Block(append(nanFill(), jen.Return())...)
	if math.IsInf(lim, 1) {
		return append(body, nonFinite)
	}
	l := func() jen.Code { return e.lit.f64(lim) }
	var ids, clamped []jen.Code
	for _, n := range names {
		ids = append(ids, jen.Id(n))
		clamped = append(clamped, jen.Max(jen.Op("-").Add(l()), jen.Min(jen.Id(n), l())))
	}
	if len(names) == 1 {
		clamped = []jen.Code{jen.Qual("math", "Copysign").Call(l(), jen.Id("x"))}
	}
	return append(body, jen.If(jen.Op("!").Parens(within(l))).Block(
		nonFinite,
		jen.Comment("Beyond ±L no ω·x keeps a correct digit; at ±L none overflows."),
		jen.List(ids...).Op("=").List(clamped...),
	))
}

// axisArg returns the argument variable of axis i: t = log x (log
// transform), x (1-D) or x<i>.
func (e *emitter) axisArg(i int) string {
	switch {
	case e.p.m.Transform == fmap.Log:
		return "t"
	case e.p.in == 1:
		return "x"
	}
	return fmt.Sprintf("x%d", i)
}

// trig names the cosine and sine variables of frequency index j (or ladder
// multiple j) of axis i.
func (e *emitter) trig(i, j int) (c, s string) {
	if e.p.in == 1 {
		return fmt.Sprintf("c%d", j), fmt.Sprintf("s%d", j)
	}
	return fmt.Sprintf("c%d_%d", i, j), fmt.Sprintf("s%d_%d", i, j)
}

// trigOf returns the variables holding cos(|w|·t_i) and sin(|w|·t_i).
func (e *emitter) trigOf(i int, w float64) (c, s string) {
	ax := e.p.axes[i]
	w = math.Abs(w)
	for j, f := range ax.freqs {
		if f == w {
			if ax.ladder != nil {
				return e.trig(i, ax.ladder.mult[j])
			}
			return e.trig(i, j+1)
		}
	}
	panic("codegen: frequency not on its axis")
}

// axisTrig emits the cos/sin variables of every axis: by polynomial
// pieces where the axis has them and x_i is in their range, else by sincos
// (one per frequency, or one and the angle-addition recurrence for a
// harmonic ladder).
func (e *emitter) axisTrig() []jen.Code {
	var body []jen.Code
	for i, ax := range e.p.axes {
		if len(ax.freqs) == 0 {
			continue
		}
		var pc *pieces
		if e.p.axisPieces != nil {
			pc = e.p.axisPieces[i]
		}
		if pc == nil {
			body = append(body, e.sincosAxis(i, ":=")...)
			continue
		}
		// Declare every variable the sincos branch assigns.
		n := len(ax.freqs)
		if ax.ladder != nil {
			n = ax.ladder.top
		}
		var names []jen.Code
		for j := 1; j <= n; j++ {
			c, s := e.trig(i, j)
			names = append(names, jen.Id(c), jen.Id(s))
		}
		body = append(body, jen.Var().List(names...).Float64())
		set := func(j int, v jen.Code) jen.Code {
			c, s := e.trigOf(i, ax.freqs[j/2])
			if j%2 == 1 {
				c = s
			}
			return jen.Id(c).Op("=").Add(v)
		}
		x := func() *jen.Statement { return jen.Id(e.axisArg(i)) }
		pre, st := e.polyIf(pc, e.axisPolyName(i), x, set)
		body = append(body, pre...)
		body = append(body, st.Else().Block(e.sincosAxis(i, "=")...))
	}
	return body
}

// sincosAxis computes the cos/sin variables of axis i by sincos, declaring
// them (op ":=") or assigning declared ones (op "=").
func (e *emitter) sincosAxis(i int, op string) []jen.Code {
	ax := e.p.axes[i]
	arg := e.axisArg(i)
	var body []jen.Code
	if ax.ladder == nil {
		for j, w := range ax.freqs {
			c, s := e.trig(i, j+1)
			body = append(body, jen.List(jen.Id(s), jen.Id(c)).Op(op).Qual("math", "Sincos").Call(e.lit.f64(w).(*jen.Statement).Op("*").Id(arg)))
		}
		return body
	}
	l := ax.ladder
	c1, s1 := e.trig(i, 1)
	body = append(body, jen.List(jen.Id(s1), jen.Id(c1)).Op(op).Qual("math", "Sincos").Call(e.lit.f64(l.base).(*jen.Statement).Op("*").Id(arg)))
	for n := 2; n <= l.top; n++ {
		cp, sp := e.trig(i, n-1)
		cn, sn := e.trig(i, n)
		// cos(nθ) = cos((n−1)θ)cos θ − sin((n−1)θ)sin θ, sin likewise.
		body = append(body, jen.List(jen.Id(cn), jen.Id(sn)).Op(op).List(
			jen.Id(cp).Op("*").Id(c1).Op("-").Id(sp).Op("*").Id(s1),
			jen.Id(sp).Op("*").Id(c1).Op("+").Id(cp).Op("*").Id(s1),
		))
	}
	return body
}

// fourierBody evaluates a Fourier or Modulation map at a finite input
// (positive for the log transform).
func (e *emitter) fourierBody() []jen.Code {
	p := e.p
	m := p.m
	var body []jen.Code
	amp := ""
	if m.Transform == fmap.Log {
		if nonzeroTerms(m) > 0 {
			body = append(body, jen.Id("t").Op(":=").Qual("math", "Log").Call(jen.Id("x")))
		}
		amp = "a"
		var a jen.Code
		switch m.Gamma {
		case 1:
			a = jen.Qual("math", "Sqrt").Call(jen.Id("x"))
		case 2:
			a = jen.Id("x")
		default:
			a = jen.Qual("math", "Pow").Call(jen.Id("x"), e.lit.f64(m.Gamma/2))
		}
		body = append(body, jen.Id("a").Op(":=").Add(a))
	}
	if !p.perTerm {
		body = append(body, e.axisTrig()...)
	}
	k := 0
	for ti, t := range m.Terms {
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
			body = append(body, outAssign(k, coef()))
			k++
		case m.Form == fmap.Modulation:
			for b := range 1 << len(nz) {
				x := coef()
				for pos, i := range nz {
					c, s := e.trigOf(i, t.Freq[i])
					if b>>(len(nz)-1-pos)&1 == 0 {
						x = x.Op("*").Id(c)
					} else if t.Freq[i] > 0 {
						x = x.Op("*").Id(s)
					} else {
						x = x.Op("*").Parens(jen.Op("-").Id(s))
					}
				}
				body = append(body, outAssign(k, x))
				k++
			}
		case p.perTerm:
			s, c := fmt.Sprintf("s%d", ti), fmt.Sprintf("c%d", ti)
			var phase *jen.Statement
			for _, i := range nz {
				term := e.lit.f64(t.Freq[i]).(*jen.Statement).Op("*").Id(e.axisArg(i))
				if phase == nil {
					phase = term
				} else {
					phase = phase.Op("+").Add(term)
				}
			}
			body = append(body,
				jen.List(jen.Id(s), jen.Id(c)).Op(":=").Qual("math", "Sincos").Call(phase),
				outAssign(k, coef().Op("*").Id(c)),
				outAssign(k+1, coef().Op("*").Id(s)),
			)
			k += 2
		default:
			cs, ss := e.angleSum(t.Freq, nz)
			body = append(body, outAssign(k, coef().Op("*").Add(cs)), outAssign(k+1, coef().Op("*").Add(ss)))
			k += 2
		}
	}
	return body
}

// angleSum returns expressions for cos(Σ ω_i t_i) and sin(Σ ω_i t_i) over
// the nonzero axes nz, built from the per-axis variables by angle addition.
func (e *emitter) angleSum(freq []float64, nz []int) (c, s *jen.Statement) {
	signed := func(i int) (jen.Code, jen.Code) {
		cv, sv := e.trigOf(i, freq[i])
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

func outAssign(k int, v jen.Code) jen.Code { return assign("out", k, v) }

// assign is out[k] = v.
func assign(out string, k int, v jen.Code) jen.Code {
	return jen.Id(out).Index(integer(k)).Op("=").Add(v)
}

// liBody evaluates Li's direct series at x > 0: a running product P of
// ρ_q = (x − k_q)/(x + k_q) and c_q = P·2√k_q·x/(x + k_q), with one division
// r_q = 1/(x + k_q) per term.
func (e *emitter) liBody() []jen.Code {
	var body []jen.Code
	ks := e.p.m.LiK
	for q, k := range ks {
		r := fmt.Sprintf("r%d", q)
		body = append(body, jen.Id(r).Op(":=").Lit(1).Op("/").Parens(jen.Id("x").Op("+").Add(e.lit.f64(k))))
		c := e.lit.f64(2 * math.Sqrt(k)).(*jen.Statement).Op("*").Parens(jen.Id("x").Op("*").Id(r))
		rho := jen.Parens(jen.Id("x").Op("-").Add(e.lit.f64(k))).Op("*").Id(r)
		switch {
		case q == 0:
			body = append(body, outAssign(q, c))
			if len(ks) > 1 {
				body = append(body, jen.Id("p").Op(":=").Add(rho))
			}
		default:
			body = append(body, outAssign(q, jen.Id("p").Op("*").Add(c)))
			if q < len(ks)-1 {
				body = append(body, jen.Id("p").Op("*=").Add(rho))
			}
		}
	}
	return body
}

// chebyshevBody evaluates Li's Chebyshev series at x > 0 by the upward
// recurrence d_q = (−1)^q (c/q) d_{q−1} + ((q−2)/q) d_{q−2}, c = 2 log x/π.
func (e *emitter) chebyshevBody() []jen.Code {
	n := e.p.dim
	d := func(q int) *jen.Statement { return jen.Id(fmt.Sprintf("d%d", q)) }
	body := []jen.Code{
		jen.Id("d0").Op(":=").Lit(2).Op("*").Parens(jen.Id("x").Op("/").Parens(jen.Id("x").Op("+").Lit(1))),
		outAssign(0, d(0)),
	}
	if n == 1 {
		return body
	}
	body = append(body,
		jen.Id("c").Op(":=").Add(e.lit.f64(2/math.Pi)).Op("*").Qual("math", "Log").Call(jen.Id("x")),
		jen.Id("d1").Op(":=").Add(e.lit.f64(-1/math.Sqrt2)).Op("*").Id("c").Op("*").Add(d(0)),
		outAssign(1, d(1)),
	)
	for q := 2; q < n; q++ {
		a := 1 / float64(q)
		if q%2 == 1 {
			a = -a
		}
		v := e.lit.f64(a).(*jen.Statement).Op("*").Id("c").Op("*").Add(d(q - 1))
		if q > 2 {
			v = v.Op("+").Add(e.lit.f64(float64(q-2) / float64(q))).Op("*").Add(d(q - 2))
		}
		if q == n-1 {
			body = append(body, outAssign(q, v))
			continue
		}
		body = append(body, d(q).Op(":=").Add(v), outAssign(q, d(q)))
	}
	return body
}
