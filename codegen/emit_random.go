package codegen

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// Names of a random map's unexported identifiers.
func (e *emitter) freqsName() string { return e.p.priv + "Freqs" }
func (e *emitter) argsName() string  { return e.p.priv + "Args" }
func (e *emitter) wName() string     { return e.p.priv + "W" }
func (e *emitter) bName() string     { return e.p.priv + "B" }
func (e *emitter) meanName() string  { return e.p.priv + "Mean" }
func (e *emitter) featsName() string { return e.p.priv + "Features" }
func (e *emitter) nonFiniteName() string {
	return e.p.priv + "NonFinite"
}

// randomBody is the body of N (is32 false) or NF32: the argument t of the
// random stage, zeros for a non-finite input, then the features.
func (k *randomKind) body(e *emitter, is32 bool) []jen.Code {
	p := e.p
	rp := k
	elem := jen.Float64
	if is32 {
		elem = jen.Float32
	}
	// in64 is an input value as float64.
	in64 := func(v jen.Code) *jen.Statement {
		if is32 {
			return jen.Float64().Call(v)
		}
		return jen.Add(v)
	}
	zero := []jen.Code{jen.Op("*").Id("out").Op("=").Index(jen.Id(e.dimName())).Add(elem()).Values(), jen.Return()}
	if rp.centred() {
		// The random features are zeros: Ψ = P·(0 − μ).
		zero = []jen.Code{jen.Id(e.nonFiniteName()).Call(jen.Id("out")), jen.Return()}
	}
	notFinite := func(v *jen.Statement) *jen.Statement {
		return jen.Op("!").Parens(jen.Qual("math", "Abs").Call(v).Op("<=").Qual("math", "MaxFloat64"))
	}
	args := jen.Id(e.argsName())
	// lim is L: random-feature arguments beyond ±L are taken as ±L, so
	// that no phase overflows (limit.go); +Inf: none can.
	lim := randomLimit(rp.r)
	var body []jen.Code
	if rp.inner != nil {
		// t = [ψ(x_1), …, ψ(x_n)]; zeros unless every value is finite.
		ip := rp.inner
		innerOut := func(j jen.Code) jen.Code {
			return jen.Parens(jen.Op("*").Index(jen.Id(ip.name + "Dim")).Float64()).Call(jen.Id("t").Index(jen.Add(j).Op("*").Id(ip.name + "Dim").Op(":")))
		}
		body = append(body, jen.Var().Id("t").Index(args.Clone()).Float64())
		if p.in == 1 {
			body = append(body, jen.Id(ip.name).Call(jen.Op("&").Id("t"), in64(jen.Id("x"))))
		} else {
			body = append(body, jen.For(jen.List(jen.Id("j"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
				jen.Id(ip.name).Call(innerOut(jen.Id("j")), in64(jen.Id("a"))),
			))
		}
		if math.IsInf(lim, 1) {
			body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("a")).Op(":=").Range().Id("t")).Block(
				jen.If(notFinite(jen.Id("a"))).Block(zero...),
			))
		} else {
			// One comparison per value against L; beyond it, zeros for
			// a non-finite value, else ±L (limit.go).
			body = append(body, jen.For(jen.List(jen.Id("j"), jen.Id("a")).Op(":=").Range().Id("t")).Block(
				jen.If(jen.Op("!").Parens(jen.Qual("math", "Abs").Call(jen.Id("a")).Op("<=").Add(e.lit.f64(lim)))).Block(
					jen.If(notFinite(jen.Id("a"))).Block(zero...),
					jen.Id("t").Index(jen.Id("j")).Op("=").Qual("math", "Copysign").Call(e.lit.f64(lim), jen.Id("a")),
				),
			))
		}
		return append(body, k.features(e, is32)...)
	}
	clamp := !math.IsInf(lim, 1) // only in the identity transform
	l := func() jen.Code { return e.lit.f64(lim) }
	// Zeros unless every input is finite. With a limit L, the loop over
	// the inputs only compares each with L: big, if one is beyond it
	// (NaN included), has the inputs checked for non-finite ones and the
	// arguments taken within ±L once t is built.
	check := func(v jen.Code) jen.Code {
		if !clamp {
			return jen.If(notFinite(in64(v))).Block(zero...)
		}
		return jen.If(jen.Op("!").Parens(jen.Qual("math", "Abs").Call(in64(v)).Op("<=").Add(l()))).Block(
			jen.Id("big").Op("=").True(),
		)
	}
	if clamp {
		body = append(body, jen.Id("big").Op(":=").False())
	}
	if p.in == 1 {
		body = append(body, check(jen.Id("x")))
	} else {
		body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("a")).Op(":=").Range().Id("x")).Block(check(jen.Id("a"))))
	}
	// targ is t_j of the input value v.
	targ := func(v jen.Code) jen.Code {
		if rp.r.Transform != fmap.LogOffset {
			return in64(v)
		}
		arg := in64(v)
		if rp.r.Offset != 0 {
			arg = arg.Op("+").Add(e.lit.f64(rp.r.Offset))
		}
		return jen.Qual("math", "Log").Call(jen.Qual("math", "Max").Call(arg, e.lit.f64(0x1p-1022)))
	}
	// within sets v (an element of t or its copy) to zeros for a
	// non-finite value, else within ±L.
	within := func(v func() *jen.Statement) []jen.Code {
		return []jen.Code{
			jen.If(notFinite(v())).Block(zero...),
			v().Op("=").Max(jen.Op("-").Add(l()), jen.Min(v(), l())),
		}
	}
	at := func(arr, j string) func() *jen.Statement {
		return func() *jen.Statement { return jen.Id(arr).Index(jen.Id(j)) }
	}
	switch {
	case p.in == 1:
		body = append(body, jen.Id("t").Op(":=").Index(integer(1)).Float64().Values(targ(jen.Id("x"))))
		if clamp {
			body = append(body, jen.If(jen.Id("big")).Block(within(func() *jen.Statement { return jen.Id("t").Index(integer(0)) })...))
		}
	case rp.r.Transform != fmap.LogOffset && !is32:
		body = append(body, jen.Id("t").Op(":=").Id("x"))
		if clamp {
			// A copy within ±L: x is the caller's.
			body = append(body, jen.If(jen.Id("big")).Block(
				jen.Id("c").Op(":=").Op("*").Id("x"),
				jen.For(jen.Id("j").Op(":=").Range().Id("c")).Block(within(at("c", "j"))...),
				jen.Id("t").Op("=").Op("&").Id("c"),
			))
		}
	default:
		body = append(body,
			jen.Var().Id("t").Index(args.Clone()).Float64(),
			jen.For(jen.List(jen.Id("j"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
				jen.Id("t").Index(jen.Id("j")).Op("=").Add(targ(jen.Id("a"))),
			))
		if clamp {
			body = append(body, jen.If(jen.Id("big")).Block(
				jen.For(jen.Id("j").Op(":=").Range().Id("t")).Block(within(at("t", "j"))...),
			))
		}
	}
	return append(body, k.features(e, is32)...)
}

// features is the loop over the frequencies: the phase ω_k·t (plus b_k)
// and the components of frequency k.
func (k *randomKind) features(e *emitter, is32 bool) []jen.Code {
	rp := k
	args := func() *jen.Statement { return jen.Id(e.argsName()) }
	store := func(idx jen.Code, v *jen.Statement) jen.Code {
		if is32 {
			v = jen.Float32().Call(v)
		}
		return jen.Id("out").Index(idx).Op("=").Add(v)
	}
	term := func(j jen.Code) *jen.Statement {
		return jen.Id("p").Index(j).Op("*").Id("t").Index(j)
	}
	loop := []jen.Code{
		jen.Id("p").Op(":=").Parens(jen.Op("*").Index(args()).Float64()).Call(jen.Id(e.wName()).Index(jen.Id("k").Op("*").Add(args()).Op(":"))),
	}
	var phase *jen.Statement
	if rp.args < seqTerms {
		// One sum in the reference evaluator's order.
		sum := term(integer(0))
		for j := 1; j < rp.args; j++ {
			sum = sum.Op("+").Add(term(integer(j)))
		}
		phase = sum
	} else {
		var accs []jen.Code
		var step []jen.Code
		for a := range accumulators {
			acc := fmt.Sprintf("s%d", a)
			accs = append(accs, jen.Id(acc))
			j := jen.Id("j")
			if a > 0 {
				j = jen.Id("j").Op("+").Add(integer(a))
			}
			step = append(step, jen.Id(acc).Op("+=").Add(term(j)))
		}
		loop = append(loop,
			jen.Var().List(accs...).Float64(),
			jen.For(
				jen.Id("j").Op(":=").Lit(0),
				jen.Id("j").Op("<=").Add(args()).Op("-").Add(integer(accumulators)),
				jen.Id("j").Op("+=").Add(integer(accumulators)),
			).Block(step...),
		)
		for a, j := 0, rp.args-rp.args%accumulators; j < rp.args; a, j = a+1, j+1 {
			loop = append(loop, jen.Id(fmt.Sprintf("s%d", a)).Op("+=").Add(term(integer(j))))
		}
		// Pairwise, as the accumulators are.
		phase = jen.Parens(jen.Id("s0").Op("+").Id("s1")).Op("+").Parens(jen.Id("s2").Op("+").Id("s3"))
	}
	scale := func() *jen.Statement { return jen.Add(e.lit.f64(rp.scale)) }
	if rp.r.Features == fmap.Phase {
		phase = phase.Op("+").Id(e.bName()).Index(jen.Id("k"))
	}
	loop = append(loop, jen.Id("ph").Op(":=").Add(phase))
	loop = append(loop, e.sincos("ph")...)
	switch {
	case rp.lin != nil:
		loop = append(loop, k.project(e)...)
	case rp.r.Features == fmap.CosSin:
		loop = append(loop,
			store(jen.Lit(2).Op("*").Id("k"), scale().Op("*").Id("c")),
			store(jen.Lit(2).Op("*").Id("k").Op("+").Lit(1), scale().Op("*").Id("s")),
		)
	default:
		loop = append(loop, store(jen.Id("k"), scale().Op("*").Id("c")))
	}
	var pre []jen.Code
	if rp.lin != nil {
		pre = append(pre, jen.Op("*").Id("out").Op("=").Index(jen.Id(e.dimName())).Float64().Values())
	}
	return append(pre, jen.For(jen.Id("k").Op(":=").Range().Id(e.freqsName())).Block(loop...))
}

// project is the end of an rf-pca map's loop over the frequencies: the
// random feature(s) z_j of frequency k (minus μ_j when centred), then
// out_i += P_ij·z_j for every output i. Each output is one sum over j in
// increasing order, as fmap.Linear computes it (the cos and sin features
// of a frequency are added one after the other, left to right, every
// product rounded before it is added, which the compiler never fuses into
// a multiply-add), so the projection adds no rounding of its own to the
// reference evaluator's, on every platform.
func (k *randomKind) project(e *emitter) []jen.Code {
	rp := k
	dim := func() *jen.Statement { return jen.Id(e.dimName()) }
	scale := func() *jen.Statement { return jen.Add(e.lit.f64(rp.scale)) }
	feature := func(z string, v *jen.Statement, j *jen.Statement) jen.Code {
		if rp.centred() {
			v = v.Op("-").Id(e.meanName()).Index(j)
		}
		return jen.Id(z).Op(":=").Add(v)
	}
	row := func(r string, j *jen.Statement) jen.Code {
		return jen.Id(r).Op(":=").Parens(jen.Op("*").Index(dim()).Float64()).Call(jen.Id(e.projName()).Index(jen.Parens(j).Op("*").Add(dim()).Op(":")))
	}
	out := func() *jen.Statement { return jen.Id("out").Index(jen.Id("i")) }
	if rp.r.Features == fmap.CosSin {
		j0 := func() *jen.Statement { return jen.Lit(2).Op("*").Id("k") }
		j1 := func() *jen.Statement { return jen.Lit(2).Op("*").Id("k").Op("+").Lit(1) }
		return []jen.Code{
			feature("zc", scale().Op("*").Id("c"), j0()),
			feature("zs", scale().Op("*").Id("s"), j1()),
			row("pc", j0()),
			row("ps", j1()),
			jen.For(jen.Id("i").Op(":=").Range().Id("out")).Block(
				out().Op("=").Add(out()).Op("+").Float64().Call(jen.Id("pc").Index(jen.Id("i")).Op("*").Id("zc")).Op("+").Float64().Call(jen.Id("ps").Index(jen.Id("i")).Op("*").Id("zs")),
			),
		}
	}
	return []jen.Code{
		feature("z", scale().Op("*").Id("c"), jen.Id("k")),
		row("pz", jen.Id("k")),
		jen.For(jen.Id("i").Op(":=").Range().Id("out")).Block(
			out().Op("+=").Float64().Call(jen.Id("pz").Index(jen.Id("i")).Op("*").Id("z")),
		),
	}
}

// linear32Body is the body of N32 of an rf-pca map: N of the input
// converted to float64, each component rounded to float32 (the projection
// needs its D sums in float64 anyway).
func (e *emitter) linear32Body() []jen.Code {
	p := e.p
	var body []jen.Code
	arg := jen.Float64().Call(jen.Id("x"))
	if p.in > 1 {
		body = append(body,
			jen.Var().Id("x64").Index(jen.Id(e.inName())).Float64(),
			jen.For(jen.List(jen.Id("j"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
				jen.Id("x64").Index(jen.Id("j")).Op("=").Float64().Call(jen.Id("a")),
			))
		arg = jen.Op("&").Id("x64")
	}
	return append(body,
		jen.Var().Id("o").Index(jen.Id(e.dimName())).Float64(),
		jen.Id(p.name).Call(jen.Op("&").Id("o"), arg),
		jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Id("o")).Block(
			jen.Id("out").Index(jen.Id("i")).Op("=").Float32().Call(jen.Id("v")),
		),
	)
}

// nonFiniteBody is the body of an rf-pca map's nonFinite helper: P·(0 − μ),
// the value of a centred map where the random features are zeros, by the
// same sums as N.
func (e *emitter) nonFiniteBody() []jen.Code {
	dim := jen.Id(e.dimName())
	return []jen.Code{
		jen.Op("*").Id("out").Op("=").Index(dim.Clone()).Float64().Values(),
		jen.For(jen.List(jen.Id("j"), jen.Id("mu")).Op(":=").Range().Id(e.meanName())).Block(
			jen.Id("z").Op(":=").Lit(0.0).Op("-").Id("mu"),
			jen.Id("row").Op(":=").Parens(jen.Op("*").Index(dim.Clone()).Float64()).Call(jen.Id(e.projName()).Index(jen.Id("j").Op("*").Add(dim.Clone()).Op(":"))),
			jen.For(jen.Id("i").Op(":=").Range().Id("out")).Block(
				jen.Id("out").Index(jen.Id("i")).Op("+=").Float64().Call(jen.Id("row").Index(jen.Id("i")).Op("*").Id("z")),
			),
		),
	}
}

// The constants of math.Sincos (and math.Sin, math.Cos) of Go's standard
// library: π/4 in three parts for the Cody–Waite reduction, which it uses
// below 2²⁹, and the coefficients of the sine and cosine polynomials on
// [−π/4, π/4].
var (
	sincosPi4 = [3]float64{7.85398125648498535156e-1, 3.77489470793079817668e-8, 2.69515142907905952645e-15}
	sincosSin = [6]float64{1.58962301576546568060e-10, -2.50507477628578072866e-8, 2.75573136213857245213e-6,
		-1.98412698295895385996e-4, 8.33333333332211858878e-3, -1.66666666666666307295e-1}
	sincosCos = [6]float64{-1.13585365213876817300e-11, 2.08757008419747316778e-9, -2.75573141792967388112e-7,
		2.48015872888517045348e-5, -1.38888888888730564116e-3, 4.16666666666665929218e-2}
)

// sincos declares s, c := sin(ph), cos(ph) by math.Sincos's own arithmetic
// written out without its branches: the octant j of |ph| (rounded up to
// even; int64 rather than math's uint64, the same value below 2²⁹ and one
// conversion instruction each way), the reduced argument z = |ph| − j·π/4
// (Cody–Waite), both polynomials, then the quadrant's swap and signs as bit
// operations. The
// values are math.Sincos's, bit for bit where the compiler does not fuse
// multiply-adds (within an ulp where it does); the branches of
// math.Sincos depend on the quadrant of a random phase, which the
// processor cannot predict, and cost more than the arithmetic. NaN, ±Inf
// and |ph| ≥ 2²⁹ (Payne–Hanek reduction) call math.Sincos.
func (e *emitter) sincos(ph string) []jen.Code {
	f := e.lit.f64
	id := jen.Id
	horner := func(c [6]float64) *jen.Statement {
		v := jen.Add(f(c[0])).Op("*").Id("zz").Op("+").Add(f(c[1]))
		for _, x := range c[2:] {
			v = jen.Parens(v).Op("*").Id("zz").Op("+").Add(f(x))
		}
		return jen.Parens(v)
	}
	bits := func(v jen.Code) *jen.Statement { return jen.Qual("math", "Float64bits").Call(v) }
	fast := []jen.Code{
		id("j").Op(":=").Int64().Call(id("a").Op("*").Add(f(4 / math.Pi))),
		id("j").Op("+=").Id("j").Op("&").Lit(1),
		id("y").Op(":=").Float64().Call(id("j")),
		id("z").Op(":=").Parens(jen.Parens(id("a").Op("-").Id("y").Op("*").Add(f(sincosPi4[0]))).Op("-").Id("y").Op("*").Add(f(sincosPi4[1]))).
			Op("-").Id("y").Op("*").Add(f(sincosPi4[2])),
		id("zz").Op(":=").Id("z").Op("*").Id("z"),
		id("c").Op("=").Add(f(1)).Op("-").Add(f(0.5)).Op("*").Id("zz").Op("+").Id("zz").Op("*").Id("zz").Op("*").Add(horner(sincosCos)),
		id("s").Op("=").Id("z").Op("+").Id("z").Op("*").Id("zz").Op("*").Add(horner(sincosSin)),
		jen.Comment("Quadrant q = j/2 mod 4: odd q swaps sin and cos; q = 2, 3 negate sin,"),
		jen.Comment("q = 1, 2 negate cos; a negative phase negates sin."),
		id("q").Op(":=").Uint64().Call(id("j").Op(">>").Lit(1)),
		jen.List(id("sb"), id("cb")).Op(":=").List(bits(id("s")), bits(id("c"))),
		id("d").Op(":=").Parens(id("sb").Op("^").Id("cb")).Op("&").Op("-").Parens(id("q").Op("&").Lit(1)),
		id("s").Op("=").Qual("math", "Float64frombits").Call(
			id("sb").Op("^").Id("d").Op("^").Parens(id("q").Op("&").Lit(2)).Op("<<").Lit(62).Op("^").Add(bits(id(ph))).Op("&").Parens(jen.Lit(1).Op("<<").Lit(63))),
		id("c").Op("=").Qual("math", "Float64frombits").Call(
			id("cb").Op("^").Id("d").Op("^").Parens(jen.Parens(id("q").Op("+").Lit(1)).Op("&").Lit(2)).Op("<<").Lit(62)),
	}
	return []jen.Code{
		jen.Var().List(id("s"), id("c")).Float64(),
		jen.If(id("a").Op(":=").Qual("math", "Abs").Call(id(ph)), id("a").Op("<").Lit(1).Op("<<").Lit(29)).Block(fast...).
			Else().Block(jen.List(id("s"), id("c")).Op("=").Qual("math", "Sincos").Call(id(ph))),
	}
}
