package codegen

import (
	"fmt"
	"math"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/dense"
	"github.com/featmap/featmap/fmap"
)

// The dense evaluation of a Nyström map (docs/measurements/dense.md,
// "Integration design" and "Error bounds"), in its kernel's form
// (emit_nystroem_forms.go). The RBF kernel's: with t = x − c (c the
// centre of the landmarks' box) and s2 = 1/(2σ²), d²(x, l_j) = q + nl_j −
// g_j, q = Σ s2·t², nl_j = Σ s2·(l_j − c)² and g_j = Σ t·2s2·(l_j − c), the
// last a product of the tile of rows with the packed scaled landmarks;
// then K = exp(−max(0, d²)) over the tile and the projection, a second
// product, chunk by chunk of landmarks. The other forms change the
// product (L1 or squared distances of the scaled rows, or dot products)
// and the function over the tile. N is the same sequence on one row, so
// that NSlice equals N bit for bit.

// nysMaxIn caps the inputs of a dense Nyström map: NSlice keeps a tile of
// denseRows rows of t on the stack (24 KiB at 256 inputs) beside the
// kernel values' tile.
const nysMaxIn = 256

// nysDense reports whether the Nyström map is evaluated by the dense
// kernels: a kernel with a dense form (kernelCode.nysDense), more than one
// input and at most nysMaxIn, and widths and landmarks whose scaled
// values stay far from overflow (nysLimit finite).
func (q *nystroemKind) nysDense() bool {
	return q.dform != nil && q.n > 1 && q.n <= nysMaxIn && q.limit > 0
}

// nysPlanDense sets the form, the centre c, the factors s2 and the limit
// L of a dense Nyström map (L = 0: not dense). The centre is the midpoint
// of the landmarks' box; L bounds |x_i − c_i| (|x_i| for the dot
// product's form) so that the products and their sums over the n inputs
// stay below 2⁶⁰⁰ (rows beyond take the exact path).
func (q *nystroemKind) nysPlanDense() {
	k := q.s.Kernel
	c := kernelCodeOf(k.Type)
	if c == nil || c.nysDense == nil || q.n <= 1 || q.n > nysMaxIn || rowPathOnly {
		return
	}
	form := c.nysDense(k)
	if form == nil {
		return
	}
	if form.prod == nysDot {
		q.planDot(k)
	} else {
		q.planCentred(k, form)
	}
	if q.limit > 0 {
		q.dform = form
	}
}

// planCentred sets the centre, the factors and the limit of the forms
// of t = x − c (nysParts) and t = (x − c)/σ (the distances).
func (q *nystroemKind) planCentred(k fmap.Kernel, form *nysForm) {
	q.centre = make([]float64, q.n)
	if form.prod == nysParts {
		q.s2 = make([]float64, q.n)
	}
	maxS2, spread, minSigma := 0.0, 0.0, math.Inf(1)
	for i := range q.n {
		lo, hi := math.Inf(1), math.Inf(-1)
		for j := range q.m {
			v := q.s.Landmarks[j*q.n+i]
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		q.centre[i] = lo/2 + hi/2
		if q.s2 != nil {
			q.s2[i] = 1 / (k.Sigma[i] * k.Sigma[i])
			if form.half {
				q.s2[i] = 1 / (2 * k.Sigma[i] * k.Sigma[i])
			}
			maxS2 = math.Max(maxS2, q.s2[i])
		}
		minSigma = math.Min(minSigma, k.Sigma[i])
		spread = math.Max(spread, hi-lo)
	}
	// The distances' scaled coordinates stay within 2²⁰⁰, their squares
	// and sums far below overflow.
	lim := minSigma * 0x1p200
	if q.s2 != nil {
		lim = math.Sqrt(0x1p600 / maxS2)
	}
	if !(lim > spread) || math.IsInf(lim, 0) || math.IsInf(maxS2, 0) {
		return
	}
	q.limit = lim
}

// landmarkNorms returns the largest L1 norm of a landmark, max_j Σᵢ|l_ji|,
// and the largest |l_ji|: the dot product forms' limits are set by them.
func (q *nystroemKind) landmarkNorms() (maxL1, maxAbs float64) {
	for j := range q.m {
		s := 0.0
		for _, v := range q.s.Landmarks[j*q.n : (j+1)*q.n] {
			s += math.Abs(v)
			maxAbs = math.Max(maxAbs, math.Abs(v))
		}
		maxL1 = math.Max(maxL1, s)
	}
	return maxL1, maxAbs
}

// planDot sets the limit of the dot product's form: with |x_i| ≤ L every
// base s·x·l_j + c of the polynomial kernel stays within 2^{500/degree},
// its power below 2⁵⁰⁰.
func (q *nystroemKind) planDot(k fmap.Kernel) {
	maxL1, maxAbs := q.landmarkNorms()
	room := math.Pow(2, 500/float64(max(k.Degree, 1))) - math.Abs(k.Offset)
	lim := 0x1p200
	if d := math.Abs(k.Scale) * maxL1; d > 0 {
		lim = math.Min(lim, room/d)
	}
	if !(lim > maxAbs) || !(room > 0) || math.IsInf(lim, 0) {
		return
	}
	q.limit = lim
}

// Names of a dense Nyström map's unexported identifiers.
func (e *emitter) centreName() string { return e.p.priv + "Centre" }
func (e *emitter) s2Name() string     { return e.p.priv + "S2" }
func (e *emitter) lpName() string     { return e.p.priv + "LandmarksPacked" }
func (e *emitter) nlName() string     { return e.p.priv + "LandmarkNorms" }
func (e *emitter) ppName() string     { return e.p.priv + "ProjPacked" }
func (e *emitter) prepName() string   { return e.p.priv + "Prep" }
func (e *emitter) exactName() string  { return e.p.priv + "Exact" }

// nysDenseHelpers emits the centre, the factors, the packed constants and
// their init function, the row preparation and the exact path.
func (q *nystroemKind) nysDenseHelpers(e *emitter, f *jen.File) {
	in := func() *jen.Statement { return jen.Id(e.inName()) }
	size := func() *jen.Statement { return jen.Id(e.sizeName()) }
	prod := q.dform.prod
	if prod != nysDot {
		f.Line()
		f.Comment(fmt.Sprintf("%s is the centre c of the landmarks' box, subtracted from every input.", e.centreName()))
		f.Var().Id(e.centreName()).Op("=").Index(in()).Float64().Custom(multiLine, e.literalRows(q.centre, len(q.centre), 1)...)
	}
	if prod == nysParts {
		f.Line()
		f.Comment(fmt.Sprintf("%s holds the factors s2_i = %s.", e.s2Name(), q.s2Words()))
		f.Var().Id(e.s2Name()).Op("=").Index(in()).Float64().Custom(multiLine, e.literalRows(q.s2, len(q.s2), 1)...)
	}
	f.Line()
	switch prod {
	case nysParts:
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s holds the landmarks scaled, 2s2⊙(l_j − c), packed for featmapDenseMul64, %s their ‖l_j − c‖² in the scaled coordinates, Σ s2_i(l_ji − c_i)², and %s the projection packed. Computed at init.",
			e.lpName(), e.nlName(), e.ppName()))))
		f.Var().Defs(
			jen.Id(e.lpName()).Index(integer(dense.Packed64(q.m, q.n))).Float64(),
			jen.Id(e.nlName()).Index(size()).Float64(),
			jen.Id(e.ppName()).Index(integer(dense.Packed64(q.dim, q.m))).Float64(),
		)
		f.Line()
		f.Func().Id("init").Params().Block(
			jen.Id("w").Op(":=").Make(jen.Index().Float64(), size().Op("*").Add(in())),
			jen.For(jen.Id("j").Op(":=").Range().Add(size())).Block(
				jen.Id("s").Op(":=").Lit(0.0),
				jen.For(jen.Id("i").Op(":=").Range().Add(in())).Block(
					jen.Id("u").Op(":=").Id(e.landName()).Index(jen.Id("j").Op("*").Add(in()).Op("+").Id("i")).Op("-").Id(e.centreName()).Index(jen.Id("i")),
					jen.Id("w").Index(jen.Id("j").Op("*").Add(in()).Op("+").Id("i")).Op("=").Lit(2).Op("*").Id(e.s2Name()).Index(jen.Id("i")).Op("*").Id("u"),
					jen.Id("s").Op("+=").Id(e.s2Name()).Index(jen.Id("i")).Op("*").Id("u").Op("*").Id("u"),
				),
				jen.Id(e.nlName()).Index(jen.Id("j")).Op("=").Id("s"),
			),
			jen.Id("featmapDensePack64").Call(jen.Id(e.lpName()).Index(jen.Op(":")), jen.Id("w"), size(), in()),
			jen.Id("featmapDensePack64").Call(jen.Id(e.ppName()).Index(jen.Op(":")), jen.Id(e.projName()).Index(jen.Op(":")), jen.Id(e.dimName()), size()),
		)
	case nysL1, nysSq:
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s holds the landmarks scaled, (l_j − c)/σ, packed for %s, and %s the projection packed. Computed at init.",
			e.lpName(), q.productName(), e.ppName()))))
		f.Var().Defs(
			jen.Id(e.lpName()).Index(integer(dense.Packed64(q.m, q.n))).Float64(),
			jen.Id(e.ppName()).Index(integer(dense.Packed64(q.dim, q.m))).Float64(),
		)
		f.Line()
		f.Func().Id("init").Params().Block(append(e.nysScaled(),
			jen.Id("featmapDensePack64").Call(jen.Id(e.lpName()).Index(jen.Op(":")), jen.Id("w"), size(), in()),
			jen.Id("featmapDensePack64").Call(jen.Id(e.ppName()).Index(jen.Op(":")), jen.Id(e.projName()).Index(jen.Op(":")), jen.Id(e.dimName()), size()),
		)...)
	case nysDot:
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s holds the landmarks packed for featmapDenseMul64, and %s the projection packed. Computed at init.",
			e.lpName(), e.ppName()))))
		f.Var().Defs(
			jen.Id(e.lpName()).Index(integer(dense.Packed64(q.m, q.n))).Float64(),
			jen.Id(e.ppName()).Index(integer(dense.Packed64(q.dim, q.m))).Float64(),
		)
		f.Line()
		f.Func().Id("init").Params().Block(
			jen.Id("featmapDensePack64").Call(jen.Id(e.lpName()).Index(jen.Op(":")), jen.Id(e.landName()).Index(jen.Op(":")), size(), in()),
			jen.Id("featmapDensePack64").Call(jen.Id(e.ppName()).Index(jen.Op(":")), jen.Id(e.projName()).Index(jen.Op(":")), jen.Id(e.dimName()), size()),
		)
	}
	q.nysPrep(e, f)
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes Ψ(x) to out by the formula, each kernel value as featmap's reference evaluator computes it: the rows %s leaves.", e.exactName(), e.prepName()))))
	f.Func().Id(e.exactName()).Params(e.params(jen.Float64)...).Block(q.body(e, false)...)
}

// nysScaled is the statements of an init function that set w to the
// landmarks scaled, (l_j − c)/σ, row-major.
func (e *emitter) nysScaled() []jen.Code {
	in := func() *jen.Statement { return jen.Id(e.inName()) }
	size := func() *jen.Statement { return jen.Id(e.sizeName()) }
	at := func() *jen.Statement { return jen.Id("j").Op("*").Add(in()).Op("+").Id("i") }
	return []jen.Code{
		jen.Id("w").Op(":=").Make(jen.Index().Float64(), size().Op("*").Add(in())),
		jen.For(jen.Id("j").Op(":=").Range().Add(size())).Block(
			jen.For(jen.Id("i").Op(":=").Range().Add(in())).Block(
				jen.Id("w").Index(at()).Op("=").Parens(jen.Id(e.landName()).Index(at()).Op("-").Id(e.centreName()).Index(jen.Id("i"))).Op("/").Id(e.sigmaName()).Index(jen.Id("i")),
			),
		),
	}
}

// nysPrep emits the row preparation of the map's form: t and q (nysParts)
// or t alone, false for a row beyond the limit or not finite.
func (q *nystroemKind) nysPrep(e *emitter, f *jen.File) {
	in := func() *jen.Statement { return jen.Id(e.inName()) }
	lim := e.lit.f64(q.limit)
	beyond := func(v jen.Code, ret ...jen.Code) jen.Code {
		return jen.If(jen.Op("!").Parens(jen.Qual("math", "Abs").Call(v).Op("<=").Add(lim))).Block(jen.Return(ret...))
	}
	params := jen.List(jen.Id("t"), jen.Id("x")).Op("*").Index(in()).Float64()
	f.Line()
	switch q.dform.prod {
	case nysParts:
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s sets t = x − c and returns q = Σ s2_i·t_i², or false if some |x_i − c_i| is beyond %s or not finite (the exact path's rows).",
			e.prepName(), num(q.limit)))))
		f.Func().Id(e.prepName()).Params(params).Params(jen.Id("q").Float64(), jen.Id("ok").Bool()).Block(
			jen.For(jen.List(jen.Id("i"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
				jen.Id("v").Op(":=").Id("a").Op("-").Id(e.centreName()).Index(jen.Id("i")),
				beyond(jen.Id("v"), jen.Lit(0), jen.False()),
				jen.Id("t").Index(jen.Id("i")).Op("=").Id("v"),
				jen.Id("q").Op("+=").Id(e.s2Name()).Index(jen.Id("i")).Op("*").Id("v").Op("*").Id("v"),
			),
			jen.Return(jen.Id("q"), jen.True()),
		)
	case nysL1, nysSq:
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s sets t = (x − c)/σ and reports true, or false if some |x_i − c_i| is beyond %s or not finite (the exact path's rows).",
			e.prepName(), num(q.limit)))))
		f.Func().Id(e.prepName()).Params(params).Bool().Block(
			jen.For(jen.List(jen.Id("i"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
				jen.Id("v").Op(":=").Id("a").Op("-").Id(e.centreName()).Index(jen.Id("i")),
				beyond(jen.Id("v"), jen.False()),
				jen.Id("t").Index(jen.Id("i")).Op("=").Id("v").Op("/").Id(e.sigmaName()).Index(jen.Id("i")),
			),
			jen.Return(jen.True()),
		)
	case nysDot:
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s sets t = x and reports true, or false if some |x_i| is beyond %s or not finite (the exact path's rows).",
			e.prepName(), num(q.limit)))))
		f.Func().Id(e.prepName()).Params(params).Bool().Block(
			jen.For(jen.List(jen.Id("i"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
				beyond(jen.Id("a"), jen.False()),
				jen.Id("t").Index(jen.Id("i")).Op("=").Id("a"),
			),
			jen.Return(jen.True()),
		)
	}
}

// s2Words is the formula of the factors s2.
func (q *nystroemKind) s2Words() string {
	if q.dform.half {
		return "1/(2σ_i²)"
	}
	return "1/σ_i²"
}

// productName is the dense kernel of the form's product.
func (q *nystroemKind) productName() string {
	switch q.dform.prod {
	case nysL1:
		return "featmapDenseNegL1Dist64"
	case nysSq:
		return "featmapDenseNegSqDist64"
	}
	return "featmapDenseMul64"
}

// product32Name is the dense kernel of the float32 path's product.
func (q *nystroemKind) product32Name() string {
	switch q.dform.prod32 {
	case nysL1:
		return "featmapDenseNegL1Dist32"
	case nysSq:
		return "featmapDenseNegSqDist32"
	}
	return "featmapDenseMul32"
}

// prodOf is the product of the float64 path, or with is32 of the float32
// one.
func (q *nystroemKind) prodOf(is32 bool) nysProduct {
	if is32 {
		return q.dform.prod32
	}
	return q.dform.prod
}

// nysChunks is the loop over the chunks of landmarks of a tile of rows
// (an expression): the kernel values' tile kv, then its projection added
// to dst (ldd apart). With is32 the products, the kernel values and the
// packed constants are float32 (emit_nystroem_dense32.go).
func (q *nystroemKind) nysChunks(e *emitter, is32 bool, rows jen.Code, one bool, dst jen.Code) []jen.Code {
	mulFn, prodFn, lpName, nlName, ppName, panel := "featmapDenseMul64", q.productName(), e.lpName(), e.nlName(), e.ppName(), 16
	values := q.dform.values
	if is32 {
		mulFn, prodFn, lpName, nlName, ppName, panel = "featmapDenseMul32", q.product32Name(), e.lp32Name(), e.nl32Name(), e.pp32Name(), 32
		values = q.dform.values32
	}
	in := func() *jen.Statement { return jen.Id(e.inName()) }
	cols := min(q.m, denseCols)
	loop := q.m > cols
	cb := func() *jen.Statement {
		if loop {
			return jen.Id("cb")
		}
		return jen.Id(e.sizeName())
	}
	lp := jen.Id(lpName).Index(jen.Op(":"))
	nl := jen.Id(nlName).Index(jen.Op(":"))
	pp := jen.Id(ppName).Index(jen.Op(":"))
	acc := jen.False()
	if loop {
		lp = jen.Id(lpName).Index(jen.Id("j0").Op("*").Add(in()).Op(":"))
		nl = jen.Id(nlName).Index(jen.Id("j0").Op(":"))
		pp = jen.Id(ppName).Index(jen.Id("j0").Op("*").Lit(panel).Op(":"))
		acc = jen.Id("j0").Op(">").Lit(0)
	}
	body := []jen.Code{
		jen.Id(prodFn).Call(jen.Id("kv").Index(jen.Op(":")), cb(), jen.Id("t").Index(jen.Op(":")), in(), lp, jen.Lit(panel).Op("*").Add(in()), rows, in(), cb(), jen.False()),
	}
	if one {
		body = append(body, values(e, func() *jen.Statement { return jen.Id("kv").Index(jen.Op(":").Add(cb())) }, nl, jen.Id("q"))...)
	} else {
		row := func() *jen.Statement {
			return jen.Id("kv").Index(jen.Id("i").Op("*").Add(cb()).Op(":").Parens(jen.Id("i").Op("+").Lit(1)).Op("*").Add(cb()))
		}
		body = append(body, jen.For(jen.Id("i").Op(":=").Range().Add(rows)).Block(
			values(e, row, nl, jen.Id("q").Index(jen.Id("i")))...))
	}
	body = append(body,
		jen.Id(mulFn).Call(dst, jen.Id(e.dimName()), jen.Id("kv").Index(jen.Op(":")), cb(), pp, jen.Lit(panel).Op("*").Id(e.sizeName()), rows, cb(), jen.Id(e.dimName()), acc),
	)
	if !loop {
		return body
	}
	return []jen.Code{jen.For(jen.Id("j0").Op(":=").Lit(0), jen.Id("j0").Op("<").Id(e.sizeName()), jen.Id("j0").Op("+=").Lit(denseCols)).Block(
		append([]jen.Code{jen.Id("cb").Op(":=").Min(jen.Lit(denseCols), jen.Id(e.sizeName()).Op("-").Id("j0"))}, body...)...,
	)}
}

// denseN is the body of N of a dense Nyström map.
func (q *nystroemKind) denseN(e *emitter) []jen.Code {
	body := []jen.Code{
		jen.Var().Id("t").Index(jen.Id(e.inName())).Float64(),
		q.prepCall(false, jen.Id("q"), jen.Id("ok"), true, jen.Op("&").Id("t"), jen.Id("x"), e.prepName()),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Id(e.exactName()).Call(jen.Id("out"), jen.Id("x")), jen.Return()),
		jen.Var().Id("kv").Index(integer(min(q.m, denseCols))).Float64(),
	}
	return append(body, q.nysChunks(e, false, jen.Lit(1), true, jen.Id("out").Index(jen.Op(":")))...)
}

// denseSlice is the body of NSlice of a dense Nyström map (NSliceF32
// with is32): tiles of denseRows rows, the rows the preparation leaves by
// the exact path (the float64 evaluation rounded).
func (q *nystroemKind) denseSlice(e *emitter, is32 bool) []jen.Code {
	p := e.p
	elem, name, fn, prep, fallback := jen.Float64, e.sliceName(), p.name, e.prepName(), e.exactName()
	if is32 {
		elem, name, fn, prep, fallback = jen.Float32, e.slice32Name(), e.name32(), e.prep32Name(), e.round32Name()
	}
	in := func() *jen.Statement { return jen.Id(e.inName()) }
	dim := func() *jen.Statement { return jen.Id(e.dimName()) }
	body := e.rowsBody(name, fn, elem)[:1]
	at := func(arr string, w func() *jen.Statement, i jen.Code) *jen.Statement {
		return jen.Id(arr).Index(jen.Add(i).Op("*").Add(w()).Op(":"))
	}
	tile := []jen.Code{
		jen.Id("r").Op(":=").Min(jen.Lit(denseRows), jen.Id("rows").Op("-").Id("i0")),
		jen.Id("d").Op(":=").Id("dst").Index(jen.Id("i0").Op("*").Add(dim()).Op(":").Parens(jen.Id("i0").Op("+").Id("r")).Op("*").Add(dim())),
		jen.For(jen.Id("i").Op(":=").Range().Id("r")).Block(
			q.prepCall(is32, jen.Id("q").Index(jen.Id("i")), jen.Id("ok").Index(jen.Id("i")), false,
				jen.Parens(e.inType(elem)).Call(at("t", in, jen.Id("i"))),
				jen.Parens(e.inType(elem)).Call(at("src", in, jen.Parens(jen.Id("i0").Op("+").Id("i")))), prep),
		),
	}
	tile = append(tile, q.nysChunks(e, is32, jen.Id("r"), false, jen.Id("d"))...)
	tile = append(tile, jen.For(jen.Id("i").Op(":=").Range().Id("r")).Block(
		jen.If(jen.Op("!").Id("ok").Index(jen.Id("i"))).Block(
			jen.Id(fallback).Call(jen.Parens(e.outType(elem)).Call(at("d", dim, jen.Id("i"))),
				jen.Parens(e.inType(elem)).Call(at("src", in, jen.Parens(jen.Id("i0").Op("+").Id("i"))))),
		),
	))
	return append(body,
		jen.Id("rows").Op(":=").Len(jen.Id("src")).Op("/").Add(in()),
		jen.Var().DefsFunc(func(g *jen.Group) {
			g.Id("t").Index(integer(denseRows * q.n)).Add(elem())
			if q.prodOf(is32) == nysParts {
				g.Id("q").Index(integer(denseRows)).Add(elem())
			}
			g.Id("ok").Index(integer(denseRows)).Bool()
			g.Id("kv").Index(integer(denseRows * min(q.m, denseCols))).Add(elem())
		}),
		jen.For(jen.Id("i0").Op(":=").Lit(0), jen.Id("i0").Op("<").Id("rows"), jen.Id("i0").Op("+=").Lit(denseRows)).Block(tile...),
	)
}

// prepCall is the call of the row preparation prep (of the float32 path
// with is32) on t and x: its q and ok (nysParts) or its ok alone, declared
// (define) or assigned.
func (q *nystroemKind) prepCall(is32 bool, qv, ok jen.Code, define bool, t, x jen.Code, prep string) jen.Code {
	op := "="
	if define {
		op = ":="
	}
	if q.prodOf(is32) == nysParts {
		return jen.List(qv, ok).Op(op).Id(prep).Call(t, x)
	}
	return jen.Add(ok).Op(op).Id(prep).Call(t, x)
}

// nysDenseEvaluationLines describes the dense evaluation of a Nyström map.
func (q *nystroemKind) nysDenseEvaluationLines(e *emitter) []string {
	gemm := "AVX-512 or AVX2+FMA assembly chosen by CPUID at init on amd64, register-tiled Go elsewhere"
	var first string
	switch q.dform.prod {
	case nysParts:
		first = fmt.Sprintf("t = x − c (c the centre of the landmarks' box) and q = Σᵢ s2ᵢtᵢ², s2ᵢ = %s (no division per element); the products g_j = Σᵢ tᵢ·2s2ᵢ(l_ji − cᵢ) of the input rows and the m = %d packed scaled landmarks (featmapDenseMul64 of the package's featmap_dense*.go files: %s)",
			strings.ReplaceAll(q.s2Words(), "_i", "ᵢ"), q.m, gemm)
	case nysL1:
		first = fmt.Sprintf("t = (x − c)/σ (c the centre of the landmarks' box); minus the L1 distances −Σᵢ|tᵢ − l'_ji| of the input rows to the m = %d packed scaled landmarks l'_j = (l_j − c)/σ (featmapDenseNegL1Dist64 of the package's featmap_dense*.go files: %s)",
			q.m, gemm)
	case nysSq:
		first = fmt.Sprintf("t = (x − c)/σ (c the centre of the landmarks' box); minus the squared distances −Σᵢ(tᵢ − l'_ji)² of the input rows to the m = %d packed scaled landmarks l'_j = (l_j − c)/σ, each difference formed before it is squared (featmapDenseNegSqDist64 of the package's featmap_dense*.go files: %s)",
			q.m, gemm)
	case nysDot:
		first = fmt.Sprintf("the products g_j = x·l_j of the input rows and the m = %d packed landmarks (featmapDenseMul64 of the package's featmap_dense*.go files: %s)", q.m, gemm)
	}
	kj, beyond := "|K_j|", "|xᵢ − cᵢ|"
	if q.dform.posK {
		kj = "K_j"
	}
	if q.dform.prod == nysDot {
		beyond = "|xᵢ|"
	}
	return []string{
		fmt.Sprintf("Ψ(x) is the formula, computed with: %s; %s; then the %d components of %s·k as a second product, each one chain of fused multiply-adds over the landmarks in their order.",
			first, q.dform.words, q.dim, q.projText()),
		fmt.Sprintf("Each kernel value is within %s, and each component within Σ_j |P_kj|·(that bound) + γ_m·Σ_j |P_kj|·%s of P·k: the reference evaluator's value up to these roundings, not bit for bit.", q.dform.bound, kj),
		fmt.Sprintf("A row with some %s beyond %s or not finite takes the exact path (%s: the kernel values as the reference evaluator computes them, zeros for a non-finite input). %s computes tiles of %d rows at a time, %s one row by the one-row kernels: every component is the same arithmetic, so %s equals %s row by row bit for bit.",
			beyond, num(q.limit), e.exactName(), e.sliceName(), denseRows, e.p.name, e.sliceName(), e.p.name),
		q.nys32Lines(e),
	}
}
