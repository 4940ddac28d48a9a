package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// tableLookup returns, for an integer x in lo..hi, the table row:
//
//	if j := int(x) - lo; uint(j) < n && T(j+lo) == x { *out = table[j]; done }
//
// int(x) of a non-integral, huge or NaN x is some integer; the comparison
// T(j+lo) == x rejects it. done is return (N) or continue (NSlice).
func (e *emitter) tableLookup(tb *table, table string, t func() *jen.Statement, k sink) jen.Code {
	n := tb.hi - tb.lo + 1
	idx := jen.Int().Call(jen.Id(k.x))
	back := jen.Id("j")
	if tb.lo != 0 {
		idx = idx.Op("-").Add(integer(tb.lo))
		back = jen.Id("j").Op("+").Add(integer(tb.lo))
	}
	return jen.If(
		jen.Id("j").Op(":=").Add(idx),
		jen.Uint().Call(jen.Id("j")).Op("<").Add(integer(n)).Op("&&").Add(t()).Call(back).Op("==").Id(k.x),
	).Block(
		jen.Op("*").Id(k.out).Op("=").Id(table).Index(jen.Id("j")),
		k.done,
	)
}

// tables emits the float64 and float32 tables of an integer domain.
func (e *emitter) tables(f *jen.File, tb *table) {
	n := len(tb.rows)
	rows64 := make([]jen.Code, n)
	rows32 := make([]jen.Code, n)
	for i, r := range tb.rows {
		v64 := make([]jen.Code, len(r))
		v32 := make([]jen.Code, len(r))
		for j, v := range r {
			v64[j] = e.lit.f64(v)
			v32[j] = e.lit.f32(float32(v))
		}
		rows64[i] = jen.Values(v64...)
		rows32[i] = jen.Values(v32...)
	}
	multi := jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}
	f.Line()
	f.Comment(fmt.Sprintf("%s[i] is Ψ(%s) for the integer inputs %d..%d, computed by featmap's reference evaluator.",
		e.tableName(), plusLo(tb.lo), tb.lo, tb.hi))
	f.Var().Id(e.tableName()).Op("=").Index(integer(n)).Index(jen.Id(e.dimName())).Float64().Custom(multi, rows64...)
	f.Line()
	f.Comment(fmt.Sprintf("%s is %s rounded to float32.", e.table32Name(), e.tableName()))
	f.Var().Id(e.table32Name()).Op("=").Index(integer(n)).Index(jen.Id(e.dimName())).Float32().Custom(multi, rows32...)
}

func plusLo(lo int) string {
	switch {
	case lo == 0:
		return "i"
	case lo < 0:
		return fmt.Sprintf("i%d", lo)
	}
	return fmt.Sprintf("i+%d", lo)
}

// piecesBlock returns the piecewise polynomial evaluation of a 1-D map:
// find the piece, evaluate every component into the sink, then the sink's
// done (return or continue).
func (e *emitter) piecesBlock(pc *pieces, k sink) []jen.Code {
	pre, init, cond := e.pieceIndex(pc, k.x64)
	body := e.pieceLocal(pc, e.polyName())
	body = append(body, e.pieceComps(pc, "s", k.x64, k.assign)...)
	body = append(body, k.done)
	return append(pre, jen.If(init, cond).Block(body...))
}

// polyIf returns the statements that evaluate the pieces pc (coefficient
// table named table) at the float64 expression x:
//
//	b := math.Float64bits(x)                         // binade pieces only
//	if <x in piece j> { s := …; c := &table[j]; set(0, …); …; tail }
//
// set(j, v) receives column j of the table. The if statement is returned
// separately so that the caller can add an else branch.
func (e *emitter) polyIf(pc *pieces, table string, x func() *jen.Statement, set func(j int, v jen.Code) jen.Code, tail ...jen.Code) ([]jen.Code, *jen.Statement) {
	pre, init, cond := e.pieceIndex(pc, x)
	body := e.pieceLocal(pc, table)
	for j := range pc.coef[0] {
		body = append(body, set(j, e.pieceHorner(pc, j, "s")))
	}
	body = append(body, tail...)
	return pre, jen.If(init, cond).Block(body...)
}

// pieceIndex returns the statements before the if that finds the piece of
// the float64 expression x, and its init and condition; inside, j (an
// integer) is the piece and, for uniform pieces, u the position in units
// of the width:
//
//	b := math.Float64bits(x); if j := b>>(52−k) − first; j < count   // binade
//	if u := float64((x − lo)·(1/h)); u >= 0 && u < count             // uniform
func (e *emitter) pieceIndex(pc *pieces, x func() *jen.Statement) (pre []jen.Code, init, cond jen.Code) {
	if pc.kind == binade {
		pre = []jen.Code{jen.Id("b").Op(":=").Qual("math", "Float64bits").Call(x())}
		return pre, jen.Id("j").Op(":=").Add(e.binadeIndex(pc, jen.Id("b"))), jen.Id("j").Op("<").Add(integer(pc.count))
	}
	u := x()
	if pc.lo != 0 {
		u = jen.Parens(x().Op("-").Add(e.lit.f64(pc.lo)))
	}
	// u is rounded (an explicit conversion): the compiler may otherwise
	// fuse its multiplication into the subtraction u − j of pieceLocal,
	// on arm64 or with GOAMD64=v3, where the piece function, which takes
	// u as an argument, does not.
	return nil, jen.Id("u").Op(":=").Float64().Call(jen.Add(u).Op("*").Add(e.lit.f64(pc.invH))),
		jen.Id("u").Op(">=").Lit(0).Op("&&").Id("u").Op("<").Add(integer(pc.count))
}

// binadeIndex is the piece of the bits b: b>>(52−k) − first.
func (e *emitter) binadeIndex(pc *pieces, b *jen.Statement) *jen.Statement {
	return b.Op(">>").Add(integer(mantBits - pc.k)).Op("-").Add(integer(int(pc.first)))
}

// pieceLocal returns the statements that compute the local variable s
// from b or u (see pieceIndex) and, when table is not empty, the piece
// j := int(u) (uniform pieces) and its coefficients c := &table[j].
func (e *emitter) pieceLocal(pc *pieces, table string) []jen.Code {
	var body []jen.Code
	if pc.kind == binade {
		bits := jen.Id("b")
		if pc.k > 0 {
			bits = bits.Op("<<").Add(integer(pc.k))
		}
		body = append(body, jen.Id("s").Op(":=").Qual("math", "Float64frombits").Call(
			bits.Op("&").Add(hex(mantMask)).Op("|").Add(hex(oneBits)),
		).Op("-").Lit(1.5))
	} else {
		j := jen.Int().Call(jen.Id("u"))
		if table != "" {
			body = append(body, jen.Id("j").Op(":=").Add(j))
			j = jen.Id("j")
		}
		body = append(body, jen.Id("s").Op(":=").Id("u").Op("-").Float64().Call(j).Op("-").Lit(0.5))
	}
	if table != "" {
		body = append(body, jen.Id("c").Op(":=").Op("&").Id(table).Index(jen.Id("j")))
	}
	return body
}

// pieceHorner is column j of the coefficients c at s by Horner's rule,
// every product rounded before it is added: float64(v*s) + c, an explicit
// conversion, which the Go compiler never fuses into a multiply-add (it
// may otherwise, on arm64 or with GOAMD64=v3, and differently in the
// scalar function and the slice loop). The values are the same on every
// platform, and horner1's.
func (e *emitter) pieceHorner(pc *pieces, j int, s string) jen.Code {
	coef := func(p int) jen.Code { return jen.Id("c").Index(integer(j)).Index(integer(p)) }
	v := jen.Float64().Call(jen.Add(coef(pc.deg)).Op("*").Id(s)).Op("+").Add(coef(pc.deg - 1))
	for p := pc.deg - 2; p >= 0; p-- {
		v = jen.Float64().Call(jen.Parens(v).Op("*").Id(s)).Op("+").Add(coef(p))
	}
	return v
}

// pieceComps assigns every component of a 1-D map's piece: the exact ones
// (amplitude times √α, as the exact evaluation computes them) and the
// table's columns by Horner's rule in s.
func (e *emitter) pieceComps(pc *pieces, s string, x func() *jen.Statement, assign func(j int, v jen.Code) jen.Code) []jen.Code {
	var body []jen.Code
	for _, c := range pc.exact {
		body = append(body, assign(c.j, e.exactExpr(pc, c, x)))
	}
	for col, j := range pc.cols {
		body = append(body, assign(j, e.pieceHorner(pc, col, s)))
	}
	return body
}

// exactExpr is the emitted value of the exact component c of the pieces pc
// at the float64 expression x (positive for the log transform): see
// pieces.exactValue.
func (e *emitter) exactExpr(pc *pieces, c exactComp, x func() *jen.Statement) jen.Code {
	f := pc.fm.f
	switch {
	case f.Transform != fmap.Log:
		return e.lit.f64(c.w)
	case f.Gamma == 1:
		return jen.Qual("math", "Sqrt").Call(x()).Op("*").Add(e.lit.f64(c.w))
	}
	return x().Op("*").Add(e.lit.f64(c.w))
}

// sink says where a fast path writes: the output array variable, the
// statement that ends the evaluation (return in N, continue in NSlice), the
// input variable and whether it and the output are float32.
type sink struct {
	out, x string
	done   jen.Code
	is32   bool
}

// x64 is the input as a float64 expression.
func (k sink) x64() *jen.Statement {
	if k.is32 {
		return jen.Float64().Call(jen.Id(k.x))
	}
	return jen.Id(k.x)
}

// assign is out[j] = v, converted to float32 for a float32 sink.
func (k sink) assign(j int, v jen.Code) jen.Code {
	if k.is32 {
		v = jen.Float32().Call(v)
	}
	return assign(k.out, j, v)
}

// polyTable emits the coefficients of the pieces pc as the table name, one
// line per component.
func (e *emitter) polyTable(f *jen.File, pc *pieces, name, doc string) {
	multi := jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}
	rows := make([]jen.Code, pc.count)
	for i, piece := range pc.coef {
		comps := make([]jen.Code, len(piece))
		for j, c := range piece {
			vs := make([]jen.Code, len(c))
			for p, v := range c {
				vs[p] = e.lit.f64(v)
			}
			comps[j] = jen.Values(vs...)
		}
		rows[i] = jen.Custom(multi, comps...)
	}
	f.Line()
	f.Comment(commentBody(paragraphs(doc)))
	f.Var().Id(name).Op("=").Index(integer(pc.count)).Index(integer(len(pc.coef[0]))).Index(integer(pc.deg+1)).Float64().Custom(multi, rows...)
}
