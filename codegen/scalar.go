package codegen

import (
	"fmt"
	"math"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// formula is a kind of map whose components are one formula of the input
// (a Fourier stage, stage_fourier.go; a χ² series, stage_series.go): it
// says its words, evaluates its formula, and shares with the other such
// kind the fast paths of one input and the emission around them
// (scalar). Alone it is also the per-coordinate map ψ of random features
// (randomKind).
type formula interface {
	stageEmitter
	mapWords
	// fast is the kind's fast paths and their emission.
	fast() *scalar
	// homogeneous reports whether the map is a homogeneous kernel's: x = 0
	// gives zeros and x < 0 follows negative().
	homogeneous() bool
	negative() fmap.Negative
	// limit is L: an input coordinate beyond ±L is taken as ±L (limit.go);
	// +Inf for none.
	limit() float64
	// planFormula plans the formula alone, without fast paths (the inner
	// map of a per-coordinate stage).
	planFormula(p *plan) error
	// formulaBody evaluates the map at a finite input (positive when
	// homogeneous): the reference evaluator's arithmetic with the constants
	// baked in.
	formulaBody(e *emitter) []jen.Code
	// formulaText describes formulaBody.
	formulaText(e *emitter) string
	// speed summarises the fast path for N's doc comment ("" without one).
	speed() string
}

// scalar is what the formula kinds share: the fast paths of a map of one
// input — a table of an integer domain, a Fourier map's polynomial pieces
// — and the emission of N as a dispatcher to them, the exact evaluation
// ("general", the formula) and a homogeneous map's special inputs (zero,
// negative and non-finite x).
type scalar struct {
	k      formula // the kind whose fast paths these are
	table  *table  // integer-domain table, or nil
	pieces *pieces // piecewise polynomials of a 1-D map, or nil
}

// hasGeneral reports whether the exact evaluation is a function of its own.
func (s *scalar) hasGeneral() bool { return s.table != nil || s.pieces != nil }

// api emits N, NSlice, NF32 and NSliceF32: with a fast path, N is the
// inlinable dispatcher's call and the slices have the fast paths inline.
func (s *scalar) api(e *emitter, f *jen.File) {
	how := ""
	if tb := s.table; tb != nil {
		how = fmt.Sprintf("integer inputs %d..%d read a float32 table", tb.lo, tb.hi)
	}
	e.fourFuncs(f, apiFuncs{
		docN: e.docN(s.k, s.k.speed()), n: s.nBody(e),
		doc32: e.doc32(how), n32: s.body32(e, sink{out: "out", x: "x", done: jen.Return(), is32: true}),
		slice: s.sliceBody(e, e.sliceName(), e.p.name, jen.Float64), slice32: s.sliceBody(e, e.slice32Name(), e.name32(), jen.Float32),
	})
}

// nBody is the body of N: with a fast path (a table or pieces, 1-D maps
// only), the call of the dispatcher with the piece evaluation and the exact
// evaluation as function values (see dispatcher); without one, the exact
// evaluation inline.
func (s *scalar) nBody(e *emitter) []jen.Code {
	if !s.hasGeneral() {
		return s.generalBody(e)
	}
	args := []jen.Code{jen.Id("out"), jen.Id("x")}
	if s.pieces != nil {
		args = append(args, jen.Id(e.pieceName()))
	}
	args = append(args, jen.Id(e.generalName()))
	return []jen.Code{jen.Id(e.dispatchName()).Call(args...)}
}

// sliceBody is NSlice's (or NSliceF32's) body: the lengths checked, then
// fn on every input, with a 1-D map's fast paths inlined in the loop.
func (s *scalar) sliceBody(e *emitter, name, fn string, t func() *jen.Statement) []jen.Code {
	p := e.p
	if p.in > 1 || !s.hasGeneral() {
		return e.rowsBody(name, fn, t)
	}
	dim := jen.Id(e.dimName())
	outAt := jen.Parens(e.outType(t)).Call(jen.Id("dst").Index(jen.Id("i").Op("*").Add(dim.Clone()).Op(":")))
	msg := fmt.Sprintf("%s: %s: len(dst) != %s*len(src)", p.info.Package, name, e.dimName())
	loop := []jen.Code{jen.Id("o").Op(":=").Add(outAt)}
	if fn == p.name {
		loop = append(loop, s.fastPaths(e, sink{out: "o", x: "x", done: jen.Continue()})...)
		loop = append(loop, jen.Id(e.generalName()).Call(jen.Id("o"), jen.Id("x")))
	} else {
		loop = append(loop, s.body32(e, sink{out: "o", x: "x", done: jen.Continue(), is32: true})...)
	}
	return []jen.Code{
		jen.If(jen.Len(jen.Id("dst")).Op("!=").Add(dim.Clone()).Op("*").Len(jen.Id("src"))).Block(
			jen.Panic(jen.Lit(msg)),
		),
		jen.For(jen.List(jen.Id("i"), jen.Id("x")).Op(":=").Range().Id("src")).Block(loop...),
	}
}

// dispatcher emits N's dispatcher and, for pieces, the piece evaluation.
// N must be cheap to call in a loop, but with the polynomials of D
// components inline its cost in the Go compiler's inliner is 300 and more
// (budget 80) and every call pays a call, a frame and the spills of the
// caller's registers. So N only calls the dispatcher, which finds the fast
// path and calls the piece evaluation (a leaf function: no frame, no stack
// check) or the exact evaluation, both passed in as function values: the
// inliner charges a call of a parameter 17 instead of 57, so the
// dispatcher (cost 63–65 with pieces, 44 with a table) and N (69–71, 49)
// inline into the caller, which then calls the piece through the function
// value (the compiler keeps that call indirect). TestEmittedAgree checks
// the inlining; docs/results.md, "The generated code", has the timings. An
// integer table is read inline in the dispatcher, which takes only the
// exact evaluation.
func (s *scalar) dispatcher(e *emitter, f *jen.File) {
	p := e.p
	out := jen.Id("out").Add(e.outType(jen.Float64))
	outT := e.outType(jen.Float64)
	general := jen.Id("general").Func().Params(outT.Clone(), jen.Float64())
	if tb := s.table; tb != nil {
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes Ψ(x) to out for %s: the table row of an integer x in %d..%d, else general(out, x). %s",
			e.dispatchName(), p.name, tb.lo, tb.hi, dispatchWhy))))
		f.Func().Id(e.dispatchName()).Params(out, jen.Id("x").Float64(), general).Block(
			e.tableLookup(tb, e.tableName(), jen.Float64, sink{out: "out", x: "x", done: jen.Return()}),
			jen.Id("general").Call(jen.Id("out"), jen.Id("x")),
		)
		return
	}
	pc := s.pieces
	coefT := jen.Op("*").Index(integer(len(pc.cols))).Index(integer(pc.deg + 1)).Float64()
	arg := "x"
	if pc.kind == uniform {
		arg = "u"
	}
	piece := jen.Id("piece").Func().Params(outT.Clone(), coefT.Clone(), jen.Float64())
	x := func() *jen.Statement { return jen.Id("x") }
	var init, cond, j jen.Code
	if pc.kind == binade {
		// The bits are needed once: no variable b.
		init = jen.Id("j").Op(":=").Add(e.binadeIndex(pc, jen.Qual("math", "Float64bits").Call(x())))
		cond = jen.Id("j").Op("<").Add(integer(pc.count))
		j = jen.Id("j")
	} else {
		_, init, cond = e.pieceIndex(pc, x)
		j = jen.Int().Call(jen.Id("u"))
	}
	body := []jen.Code{
		jen.If(init, cond).Block(
			jen.Id("piece").Call(jen.Id("out"), jen.Op("&").Id(e.polyName()).Index(j), jen.Id(arg)),
			jen.Return(),
		),
		jen.Id("general").Call(jen.Id("out"), x()),
	}
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes Ψ(x) to out for %s: piece(out, c, %s) with the coefficients c of x's piece when x is in [%s, %s), else general(out, x). %s",
		e.dispatchName(), p.name, arg, num(pc.start()), num(pc.end()), dispatchWhy))))
	f.Func().Id(e.dispatchName()).Params(out, jen.Id("x").Float64(), piece, general).Block(body...)

	var what string
	if pc.kind == binade {
		what = "x in that piece"
	} else {
		what = "u = (x − lo)/h, the position of x in piece widths h from the start lo (piece ⌊u⌋)"
	}
	var pbody []jen.Code
	if pc.kind == binade {
		pbody = append(pbody, jen.Id("b").Op(":=").Qual("math", "Float64bits").Call(x()))
	}
	pbody = append(pbody, e.pieceLocal(pc, "")...)
	pbody = append(pbody, e.pieceComps(pc, "s", x, func(j int, v jen.Code) jen.Code { return assign("out", j, v) })...)
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes to out the polynomials of one piece, coefficients c (a row of %s), at %s. It calls nothing, so it needs no frame.",
		e.pieceName(), e.polyName(), what))))
	f.Func().Id(e.pieceName()).Params(jen.Id("out").Add(outT.Clone()), jen.Id("c").Add(coefT.Clone()), jen.Id(arg).Float64()).Block(pbody...)
}

// dispatchWhy is the part of the dispatcher's doc comment that says why it
// takes function values.
const dispatchWhy = "It takes the other paths as function values, whose calls the Go compiler's inliner charges less than those of named functions, so that it and the exported function inline into the caller."

// fastPaths returns the table lookup and the polynomial pieces writing to
// the sink, each ending in its done when it applies.
func (s *scalar) fastPaths(e *emitter, k sink) []jen.Code {
	var body []jen.Code
	if tb := s.table; tb != nil {
		name, t := e.tableName(), jen.Float64
		if k.is32 {
			name, t = e.table32Name(), jen.Float32
		}
		body = append(body, e.tableLookup(tb, name, t, k))
	}
	if s.pieces != nil {
		body = append(body, e.piecesBlock(s.pieces, k)...)
	}
	return body
}

// body32 is the body of NF32 writing to the sink k: the fast paths (the
// float32 table, or the polynomials rounded to float32), else the float64
// evaluation rounded to float32.
func (s *scalar) body32(e *emitter, k sink) []jen.Code {
	p := e.p
	body := s.fastPaths(e, k)
	callee := p.name
	if s.hasGeneral() {
		callee = e.generalName() // the fast paths have been tried
	}
	arg := jen.Float64().Call(jen.Id("x"))
	if p.in > 1 {
		var xs []jen.Code
		for i := range p.in {
			xs = append(xs, jen.Float64().Call(jen.Id("x").Index(integer(i))))
		}
		arg = jen.Op("&").Index(jen.Id(e.inName())).Float64().Values(xs...)
	}
	body = append(body,
		jen.Var().Id("t").Index(jen.Id(e.dimName())).Float64(),
		jen.Id(callee).Call(jen.Op("&").Id("t"), arg),
	)
	for j := range p.dim {
		body = append(body, assign(k.out, j, jen.Float32().Call(jen.Id("t").Index(integer(j)))))
	}
	return body
}

// helpers emits the dispatcher and the exact evaluation (with a fast
// path), the special inputs of a homogeneous map, the table and the
// pieces' coefficients.
func (s *scalar) helpers(e *emitter, f *jen.File) {
	if s.hasGeneral() {
		s.dispatcher(e, f)
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s evaluates Ψ(x) by its formula: %s.", e.generalName(), s.k.formulaText(e)))))
		f.Func().Id(e.generalName()).Params(e.params(jen.Float64)...).Block(s.generalBody(e)...)
	}
	if s.k.homogeneous() {
		s.special(e, f, false)
	}
	if s.table != nil {
		e.tables(f, s.table)
	}
	if pc := s.pieces; pc != nil {
		e.polyTable(f, pc, e.polyName(), e.docPoly(pc))
	}
}

// special emits the function for the special inputs of a homogeneous map,
// its doc comment calling the map ψ for the per-coordinate map of random
// features (inner), else Ψ.
func (s *scalar) special(e *emitter, f *jen.File, inner bool) {
	doc := paragraphs(fmt.Sprintf("%s handles the inputs that are not positive and finite: %s", e.specialName(), s.edges(e)))
	if inner {
		doc = paragraphs(strings.ReplaceAll(strings.Join(doc, " "), "Ψ", "ψ"))
	}
	f.Line()
	f.Comment(commentBody(doc))
	f.Func().Id(e.specialName()).Params(e.params(jen.Float64)...).Block(s.specialBody(e)...)
}

// generalBody evaluates the map by its formula: zero, negative and
// non-finite inputs of a homogeneous map to the special function, NaN for
// a non-finite input of another (and coordinates beyond its limit taken
// within), then the kind's formula.
func (s *scalar) generalBody(e *emitter) []jen.Code {
	var body []jen.Code
	if s.k.homogeneous() {
		body = append(body,
			jen.If(jen.Op("!").Parens(jen.Id("x").Op(">").Lit(0).Op("&&").Id("x").Op("<=").Qual("math", "MaxFloat64"))).Block(
				jen.Id(e.specialName()).Call(jen.Id("out"), jen.Id("x")),
				jen.Return(),
			))
	} else {
		body = append(body, s.finiteCheck(e)...)
	}
	return append(body, s.k.formulaBody(e)...)
}

// finiteCheck returns NaN components unless every input is finite
// (shift-invariant maps), and takes a finite input coordinate beyond ±L,
// the map's limit, as ±L (limit.go): one comparison per coordinate
// against L instead of MaxFloat64, the rest only beyond L.
func (s *scalar) finiteCheck(e *emitter) []jen.Code {
	lim := s.k.limit()
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

// specialBody handles x = 0, x < 0 and non-finite x of a homogeneous map.
func (s *scalar) specialBody(e *emitter) []jen.Code {
	p := e.p
	zero := jen.Op("*").Id("out").Op("=").Index(jen.Id(e.dimName())).Float64().Values()
	negFinite := jen.Id("x").Op("<").Lit(0).Op("&&").Id("x").Op(">=").Op("-").Qual("math", "MaxFloat64")
	var cases []jen.Code
	if s.k.negative() == fmap.NegativeZero {
		cases = append(cases,
			jen.Case(jen.Id("x").Op("==").Lit(0).Op("||").Add(negFinite)).Block(zero),
		)
	} else {
		cases = append(cases,
			jen.Case(jen.Id("x").Op("==").Lit(0)).Block(zero),
			jen.Case(negFinite).Block(
				jen.Id(p.name).Call(jen.Id("out"), jen.Op("-").Id("x")),
				jen.For(jen.Id("i").Op(":=").Range().Id("out")).Block(
					jen.Id("out").Index(jen.Id("i")).Op("=").Op("-").Id("out").Index(jen.Id("i")),
				),
			),
		)
	}
	cases = append(cases, jen.Default().Block(nanFill()...))
	return []jen.Code{jen.Switch().Block(cases...)}
}

// edges says what x = 0, x < 0 and non-finite inputs give, and for a map
// that is not homogeneous what very large inputs give.
func (s *scalar) edges(e *emitter) string {
	p := e.p
	nf := "NaN and ±Inf give NaN in every component."
	if p.in > 1 {
		nf = "An input with a NaN or ±Inf coordinate gives NaN in every component."
	}
	if !s.k.homogeneous() {
		t := nf + " Very large inputs, where ω·x keeps no correct digit, still give bounded components (|Ψ_j| ≤ √α of its term) but not meaningful ones"
		what, sum := "an input", "max|ω|"
		if p.in > 1 {
			what, sum = "a coordinate", "max Σᵢ|ωᵢ| over the terms"
		}
		return t + limitText(s.k.limit(), what, sum, "ω·x")
	}
	neg := "x < 0 gives −Ψ(|x|) (the positive-definite extension sign(x)·sign(y)·K(|x|, |y|))"
	if s.k.negative() == fmap.NegativeZero {
		neg = "x < 0 gives zeros"
	}
	return "x = 0 gives zeros; " + neg + "; " + nf
}

// speed summarises the fast path for N's doc comment ("" without one).
func (s *scalar) speed() string {
	switch {
	case s.table != nil:
		return fmt.Sprintf("Integer inputs %d..%d read a precomputed table; see the file header for the evaluation of the others.", s.table.lo, s.table.hi)
	case s.pieces != nil:
		return fmt.Sprintf("Inputs in [%s, %s) use piecewise polynomials that add at most %s to the kernel error; see the file header.",
			num(s.pieces.start()), num(s.pieces.end()), g4(s.pieces.addedError()))
	}
	return ""
}

// evaluationLines describes every evaluation path with its measured
// error: the table, the pieces, more (a Fourier map's per-axis pieces), the
// choice of smaller tables when some pieces were fitted (fitted), the
// formula, and the float32 functions.
func (s *scalar) evaluationLines(e *emitter, more []string, fitted bool) []string {
	p := e.p
	var out []string
	if tb := s.table; tb != nil {
		out = append(out, fmt.Sprintf("Integer x in %d..%d reads a table of Ψ(x) computed by featmap's reference evaluator (no error beyond rounding to float64, or to float32 for %s).", tb.lo, tb.hi, e.name32()))
	}
	if pc := s.pieces; pc != nil {
		out = append(out, e.piecesText(pc))
	}
	out = append(out, more...)
	if fitted && p.info.Tables != Fast {
		why := map[Tables]string{
			Compact: "the degree of fewer coefficients among the fastest degree and the one above it",
			Small:   "the degree of the fewest coefficients",
		}[p.info.Tables]
		out = append(out, fmt.Sprintf("The pieces' degree was chosen for a smaller file (emit.tables %s: %s), not for the fewest operations per input.", p.info.Tables, why))
	}
	switch {
	case p.in > 1:
		out = append(out, fmt.Sprintf("Ψ(x) is the formula, computed with: %s.", s.k.formulaText(e)))
	case s.table != nil || s.pieces != nil:
		out = append(out, fmt.Sprintf("Other inputs take the formula: %s.", s.k.formulaText(e)))
	default:
		out = append(out, fmt.Sprintf("All inputs take the formula: %s.", s.k.formulaText(e)))
	}
	return append(out, fmt.Sprintf("%s and %s evaluate the same way in float64 and round each component to float32.", e.name32(), e.slice32Name()))
}
