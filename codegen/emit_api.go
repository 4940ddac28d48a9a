package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
)

// apiFuncs are a kind's four exported functions: the doc comments and
// bodies of N (one row in float64) and NF32 (in float32), and the bodies
// of NSlice and NSliceF32 (a batch of rows: e.rowsBody, unless the kind's
// batch path is its own).
type apiFuncs struct {
	docN, doc32    []string
	n, n32         []jen.Code
	slice, slice32 []jen.Code
}

// densePaths is a kind whose evaluation runs on the package's dense
// kernels (rff, the RBF Nyström map): N of one row, NSlice in tiles, and
// the float32 path's N.
type densePaths interface {
	mapWords
	denseN(e *emitter) []jen.Code
	denseSlice(e *emitter, is32 bool) []jen.Code
	dense32N(e *emitter) []jen.Code
}

// tiler32 is a dense kind whose NSliceF32 off its float32 path converts
// tiles of rows to float64 for NSlice (e.tiledSlice32) where it reports
// tiles32.
type tiler32 interface {
	tiles32(e *emitter) bool
}

// denseAPI emits N, NSlice, NF32 and NSliceF32 of a dense kind, then its
// model's predictor: NF32 and NSliceF32 are its float32 path where gen
// took it (f32), else the float64 evaluation rounded.
func (e *emitter) denseAPI(f *jen.File, k densePaths, f32 bool) {
	a := apiFuncs{docN: e.docN(k, ""), n: k.denseN(e), doc32: e.doc32(""), n32: e.linear32Body(),
		slice: k.denseSlice(e, false), slice32: e.rowsBody(e.slice32Name(), e.name32(), jen.Float32)}
	if f32 {
		a.doc32 = e.doc32Computed()
		a.n32, a.slice32 = k.dense32N(e), k.denseSlice(e, true)
	} else if t, ok := k.(tiler32); ok && t.tiles32(e) {
		a.slice32 = e.tiledSlice32()
	}
	e.fourFuncs(f, a)
	e.modelAPI(f)
}

// fourFuncs emits N, NSlice, NF32 and NSliceF32, in that order.
func (e *emitter) fourFuncs(f *jen.File, a apiFuncs) {
	p := e.p
	f.Comment(commentBody(a.docN))
	f.Func().Id(p.name).Params(e.params(jen.Float64)...).Block(a.n...)
	f.Line()

	f.Comment(commentBody(e.docSlice(e.sliceName(), p.name, "float64")))
	f.Func().Id(e.sliceName()).Params(jen.List(jen.Id("dst"), jen.Id("src")).Index().Float64()).Block(a.slice...)
	f.Line()

	f.Comment(commentBody(a.doc32))
	f.Func().Id(e.name32()).Params(e.params(jen.Float32)...).Block(a.n32...)
	f.Line()

	f.Comment(commentBody(e.docSlice(e.slice32Name(), e.name32(), "float32")))
	f.Func().Id(e.slice32Name()).Params(jen.List(jen.Id("dst"), jen.Id("src")).Index().Float32()).Block(a.slice32...)
}

// rows returns apiFuncs with the batch bodies that call N and NF32 on
// every row (rowsBody), for a kind whose batch path is the row loop.
func (e *emitter) rows(docN []string, n []jen.Code, doc32 []string, n32 []jen.Code) apiFuncs {
	return apiFuncs{docN: docN, n: n, doc32: doc32, n32: n32,
		slice:   e.rowsBody(e.sliceName(), e.p.name, jen.Float64),
		slice32: e.rowsBody(e.slice32Name(), e.name32(), jen.Float32)}
}

// params is (out *[NDim]T, x T) or (out *[NDim]T, x *[NIn]T).
func (e *emitter) params(t func() *jen.Statement) []jen.Code {
	x := jen.Id("x").Add(t())
	if e.p.in > 1 {
		x = jen.Id("x").Add(e.inType(t))
	}
	return []jen.Code{jen.Id("out").Add(e.outType(t)), x}
}

// rowsBody is the body of NSlice (or NSliceF32, its name): the lengths
// checked, then fn (N or NF32) on every row.
func (e *emitter) rowsBody(name, fn string, t func() *jen.Statement) []jen.Code {
	p := e.p
	dim := jen.Id(e.dimName())
	outAt := jen.Parens(e.outType(t)).Call(jen.Id("dst").Index(jen.Id("i").Op("*").Add(dim.Clone()).Op(":")))
	if p.in == 1 {
		msg := fmt.Sprintf("%s: %s: len(dst) != %s*len(src)", p.info.Package, name, e.dimName())
		return []jen.Code{
			jen.If(jen.Len(jen.Id("dst")).Op("!=").Add(dim.Clone()).Op("*").Len(jen.Id("src"))).Block(
				jen.Panic(jen.Lit(msg)),
			),
			jen.For(jen.List(jen.Id("i"), jen.Id("x")).Op(":=").Range().Id("src")).Block(jen.Id(fn).Call(outAt, jen.Id("x"))),
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

// nanFill sets every component of out to NaN.
func nanFill() []jen.Code {
	return []jen.Code{
		jen.Id("nan").Op(":=").Qual("math", "NaN").Call(),
		jen.For(jen.Id("i").Op(":=").Range().Id("out")).Block(
			jen.Id("out").Index(jen.Id("i")).Op("=").Id("nan"),
		),
	}
}

// outAssign is out[k] = v.
func outAssign(k int, v jen.Code) jen.Code { return assign("out", k, v) }

// assign is out[k] = v for the output array named out.
func assign(out string, k int, v jen.Code) jen.Code {
	return jen.Id(out).Index(integer(k)).Op("=").Add(v)
}
