package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// api emits the exported functions N, NSlice, NF32 and NSliceF32.
func (e *emitter) api(f *jen.File) {
	p := e.p
	if p.rnd != nil {
		e.randomAPI(f)
		return
	}
	if p.nys != nil {
		e.nysAPI(f)
		return
	}
	if p.poly != nil {
		e.polyAPI(f)
		return
	}
	if p.anchor != nil {
		e.anchorAPI(f)
		return
	}
	if p.blocks != nil {
		e.blocksAPI(f)
		return
	}
	e.fourFuncs(f, e.docN, e.scalarBody, e.doc32, func() []jen.Code {
		return e.body32(sink{out: "out", x: "x", done: jen.Return(), is32: true})
	})
}

// fourFuncs emits N (its doc comment from docN, its body from body64),
// NSlice, NF32 (from doc32 and body32) and NSliceF32, in that order,
// calling each function where its part is emitted.
func (e *emitter) fourFuncs(f *jen.File, docN func() []string, body64 func() []jen.Code, doc32 func() []string, body32 func() []jen.Code) {
	p := e.p
	f.Comment(commentBody(docN()))
	f.Func().Id(p.name).Params(e.params(jen.Float64)...).Block(body64()...)
	f.Line()

	f.Comment(commentBody(e.docSlice(e.sliceName(), p.name, "float64")))
	f.Func().Id(e.sliceName()).Params(jen.List(jen.Id("dst"), jen.Id("src")).Index().Float64()).
		Block(e.sliceBody(e.sliceName(), p.name, jen.Float64)...)
	f.Line()

	f.Comment(commentBody(doc32()))
	f.Func().Id(e.name32()).Params(e.params(jen.Float32)...).Block(body32()...)
	f.Line()

	f.Comment(commentBody(e.docSlice(e.slice32Name(), e.name32(), "float32")))
	f.Func().Id(e.slice32Name()).Params(jen.List(jen.Id("dst"), jen.Id("src")).Index().Float32()).
		Block(e.sliceBody(e.slice32Name(), e.name32(), jen.Float32)...)
}

// params is (out *[NDim]T, x T) or (out *[NDim]T, x *[NIn]T).
func (e *emitter) params(t func() *jen.Statement) []jen.Code {
	x := jen.Id("x").Add(t())
	if e.p.in > 1 {
		x = jen.Id("x").Add(e.inType(t))
	}
	return []jen.Code{jen.Id("out").Add(e.outType(t)), x}
}

// scalarBody is the body of N: with a fast path (a table or pieces, 1-D
// maps only), the call of the dispatcher with the piece evaluation and the
// exact evaluation as function values (see dispatcher); without one, the
// exact evaluation inline.
func (e *emitter) scalarBody() []jen.Code {
	if !e.hasGeneral() {
		return e.generalBody()
	}
	args := []jen.Code{jen.Id("out"), jen.Id("x")}
	if e.p.pieces != nil {
		args = append(args, jen.Id(e.pieceName()))
	}
	args = append(args, jen.Id(e.generalName()))
	return []jen.Code{jen.Id(e.dispatchName()).Call(args...)}
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
func (e *emitter) dispatcher(f *jen.File) {
	p := e.p
	out := jen.Id("out").Add(e.outType(jen.Float64))
	outT := e.outType(jen.Float64)
	general := jen.Id("general").Func().Params(outT.Clone(), jen.Float64())
	if p.table != nil {
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes Ψ(x) to out for %s: the table row of an integer x in %d..%d, else general(out, x). %s",
			e.dispatchName(), p.name, p.table.lo, p.table.hi, dispatchWhy))))
		f.Func().Id(e.dispatchName()).Params(out, jen.Id("x").Float64(), general).Block(
			e.tableLookup(e.tableName(), jen.Float64, sink{out: "out", x: "x", done: jen.Return()}),
			jen.Id("general").Call(jen.Id("out"), jen.Id("x")),
		)
		return
	}
	pc := p.pieces
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
func (e *emitter) fastPaths(k sink) []jen.Code {
	var body []jen.Code
	if e.p.table != nil {
		name, t := e.tableName(), jen.Float64
		if k.is32 {
			name, t = e.table32Name(), jen.Float32
		}
		body = append(body, e.tableLookup(name, t, k))
	}
	if e.p.pieces != nil {
		body = append(body, e.piecesBlock(k)...)
	}
	return body
}

// hasGeneral reports whether the exact evaluation is a function of its own.
func (e *emitter) hasGeneral() bool { return e.p.table != nil || e.p.pieces != nil }

// sliceBody checks the lengths and applies fn to every input.
func (e *emitter) sliceBody(name, fn string, t func() *jen.Statement) []jen.Code {
	p := e.p
	dim := jen.Id(e.dimName())
	outAt := jen.Parens(e.outType(t)).Call(jen.Id("dst").Index(jen.Id("i").Op("*").Add(dim.Clone()).Op(":")))
	if p.in == 1 {
		msg := fmt.Sprintf("%s: %s: len(dst) != %s*len(src)", p.info.Package, name, e.dimName())
		// The loop body is fn with its fast paths inlined.
		loop := []jen.Code{jen.Id(fn).Call(outAt, jen.Id("x"))}
		if e.hasGeneral() {
			loop = []jen.Code{jen.Id("o").Op(":=").Add(outAt)}
			if fn == p.name {
				loop = append(loop, e.fastPaths(sink{out: "o", x: "x", done: jen.Continue()})...)
				loop = append(loop, jen.Id(e.generalName()).Call(jen.Id("o"), jen.Id("x")))
			} else {
				loop = append(loop, e.body32(sink{out: "o", x: "x", done: jen.Continue(), is32: true})...)
			}
		}
		return []jen.Code{
			jen.If(jen.Len(jen.Id("dst")).Op("!=").Add(dim.Clone()).Op("*").Len(jen.Id("src"))).Block(
				jen.Panic(jen.Lit(msg)),
			),
			jen.For(jen.List(jen.Id("i"), jen.Id("x")).Op(":=").Range().Id("src")).Block(loop...),
		}
	}
	in := jen.Id(e.inName())
	msg := fmt.Sprintf("%s: %s: len(src) is not a multiple of %s or len(dst) != %s*len(src)/%s",
		p.info.Package, name, e.inName(), e.dimName(), e.inName())
	inAt := jen.Parens(e.inType(t)).Call(jen.Id("src").Index(jen.Id("i").Op("*").Add(in.Clone()).Op(":")))
	return []jen.Code{
		jen.If(jen.Len(jen.Id("src")).Op("%").Add(in.Clone()).Op("!=").Lit(0).Op("||").
			Len(jen.Id("dst")).Op("!=").Add(dim.Clone()).Op("*").Parens(jen.Len(jen.Id("src")).Op("/").Add(in.Clone()))).Block(
			jen.Panic(jen.Lit(msg)),
		),
		jen.For(jen.Id("i").Op(":=").Range().Len(jen.Id("src")).Op("/").Add(in.Clone())).Block(
			jen.Id(fn).Call(outAt, inAt),
		),
	}
}

// body32 is the body of NF32 writing to the sink k: the fast paths (the
// float32 table, or the polynomials rounded to float32), else the float64
// evaluation rounded to float32.
func (e *emitter) body32(k sink) []jen.Code {
	p := e.p
	body := e.fastPaths(k)
	callee := p.name
	if e.hasGeneral() {
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

// helpers emits the unexported functions and tables.
func (e *emitter) helpers(f *jen.File) {
	p := e.p
	if p.rnd != nil {
		e.randomHelpers(f)
		return
	}
	if p.nys != nil {
		e.nysHelpers(f)
		return
	}
	if p.poly != nil {
		e.polyHelpers(f)
		return
	}
	if p.anchor != nil {
		e.anchorHelpers(f)
		return
	}
	if p.blocks != nil {
		e.blocksHelpers(f)
		return
	}
	if e.hasGeneral() {
		e.dispatcher(f)
		f.Line()
		f.Comment(commentBody(e.docGeneral()))
		f.Func().Id(e.generalName()).Params(e.params(jen.Float64)...).Block(e.generalBody()...)
	}
	if p.m.Homogeneous() {
		f.Line()
		f.Comment(commentBody(e.docSpecial()))
		f.Func().Id(e.specialName()).Params(e.params(jen.Float64)...).Block(e.specialBody()...)
	}
	if p.table != nil {
		e.tables(f)
	}
	if p.pieces != nil {
		e.polyTable(f, p.pieces, e.polyName(), e.docPoly())
	}
	for i, pc := range p.axisPieces {
		if pc != nil {
			e.polyTable(f, pc, e.axisPolyName(i), e.docAxisPoly(i))
		}
	}
}

// nanFill sets every component of out to NaN.
func nanFill() []jen.Code {
	return []jen.Code{
		jen.Id("nan").Op(":=").Qual("math", "NaN").Call(),
		jen.For(jen.Id("i").Op(":=").Range().Id("out")).Block(
			jen.Id("out").Index(jen.Id("i")).Op("=").Id("nan"),
		),
	}
}

// specialBody handles x = 0, x < 0 and non-finite x of a homogeneous map.
func (e *emitter) specialBody() []jen.Code {
	p := e.p
	zero := jen.Op("*").Id("out").Op("=").Index(jen.Id(e.dimName())).Float64().Values()
	negFinite := jen.Id("x").Op("<").Lit(0).Op("&&").Id("x").Op(">=").Op("-").Qual("math", "MaxFloat64")
	var cases []jen.Code
	if p.m.Negative == "zero" {
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
