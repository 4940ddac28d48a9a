package codegen

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/dense"
	"github.com/featmap/featmap/fmap"
)

// The dense evaluation of a Nyström map of the RBF kernel (docs/
// measurements/dense.md, "Integration design" and "Error bounds"): with
// t = x − c (c the centre of the landmarks' box) and s2 = 1/(2σ²),
// d²(x, l_j) = q + nl_j − g_j, q = Σ s2·t², nl_j = Σ s2·(l_j − c)² and
// g_j = Σ t·2s2·(l_j − c), the last a product of the tile of rows with the
// packed scaled landmarks; then K = exp(−max(0, d²)) over the tile and the
// projection, a second product, chunk by chunk of landmarks. N is the same
// sequence on one row, so that NSlice equals N bit for bit.

// nysMaxIn caps the inputs of a dense Nyström map: NSlice keeps a tile of
// denseRows rows of t on the stack (24 KiB at 256 inputs) beside the
// kernel values' tile.
const nysMaxIn = 256

// nysDense reports whether the Nyström map is evaluated by the dense
// kernels: the RBF kernel, more than one input and at most nysMaxIn, and
// widths and landmarks whose scaled squares stay far from overflow
// (nysLimit finite).
func (q *nystroemKind) nysDense() bool {
	return q.s.Kernel.Type == fmap.RBF && q.n > 1 && q.n <= nysMaxIn && q.limit > 0
}

// nysPlanDense sets the centre c, the factors s2 and the limit L of a
// dense Nyström map (L = 0: not dense). The centre is the midpoint of the
// landmarks' box; L bounds |x_i − c_i| so that every s2_i·t_i² and the
// sums of n of them stay below 2⁶⁰⁰ (rows beyond take the exact path).
func (q *nystroemKind) nysPlanDense() {
	k := q.s.Kernel
	if k.Type != fmap.RBF || q.n <= 1 || q.n > nysMaxIn {
		return
	}
	q.centre, q.s2 = make([]float64, q.n), make([]float64, q.n)
	maxS2, spread := 0.0, 0.0
	for i := range q.n {
		lo, hi := math.Inf(1), math.Inf(-1)
		for j := range q.m {
			v := q.s.Landmarks[j*q.n+i]
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		q.centre[i] = lo/2 + hi/2
		q.s2[i] = 1 / (2 * k.Sigma[i] * k.Sigma[i])
		maxS2 = math.Max(maxS2, q.s2[i])
		spread = math.Max(spread, hi-lo)
	}
	lim := math.Sqrt(0x1p600 / maxS2)
	if !(lim > spread) || math.IsInf(lim, 0) || math.IsInf(maxS2, 0) {
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
	f.Line()
	f.Comment(fmt.Sprintf("%s is the centre c of the landmarks' box, subtracted from every input.", e.centreName()))
	f.Var().Id(e.centreName()).Op("=").Index(in()).Float64().Custom(multiLine, e.literalRows(q.centre, len(q.centre), 1)...)
	f.Line()
	f.Comment(fmt.Sprintf("%s holds the factors s2_i = 1/(2σ_i²).", e.s2Name()))
	f.Var().Id(e.s2Name()).Op("=").Index(in()).Float64().Custom(multiLine, e.literalRows(q.s2, len(q.s2), 1)...)
	f.Line()
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
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s sets t = x − c and returns q = Σ s2_i·t_i², or false if some |x_i − c_i| is beyond %s or not finite (the exact path's rows).",
		e.prepName(), num(q.limit)))))
	f.Func().Id(e.prepName()).Params(jen.List(jen.Id("t"), jen.Id("x")).Op("*").Index(in()).Float64()).Params(jen.Id("q").Float64(), jen.Id("ok").Bool()).Block(
		jen.For(jen.List(jen.Id("i"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
			jen.Id("v").Op(":=").Id("a").Op("-").Id(e.centreName()).Index(jen.Id("i")),
			jen.If(jen.Op("!").Parens(jen.Qual("math", "Abs").Call(jen.Id("v")).Op("<=").Add(e.lit.f64(q.limit)))).Block(jen.Return(jen.Lit(0), jen.False())),
			jen.Id("t").Index(jen.Id("i")).Op("=").Id("v"),
			jen.Id("q").Op("+=").Id(e.s2Name()).Index(jen.Id("i")).Op("*").Id("v").Op("*").Id("v"),
		),
		jen.Return(jen.Id("q"), jen.True()),
	)
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes Ψ(x) to out by the formula, each kernel value as featmap's reference evaluator computes it: the rows %s leaves.", e.exactName(), e.prepName()))))
	f.Func().Id(e.exactName()).Params(e.params(jen.Float64)...).Block(q.body(e, false)...)
}

// nysChunks is the loop over the chunks of landmarks of a tile of rows
// (an expression): the kernel values' tile kv, then its projection added
// to dst (ldd apart). With is32 the products, the kernel values and the
// packed constants are float32 (emit_nystroem_dense32.go).
func (q *nystroemKind) nysChunks(e *emitter, is32 bool, rows jen.Code, one bool, dst jen.Code) []jen.Code {
	mulFn, expFn, lpName, nlName, ppName, panel := "featmapDenseMul64", "featmapDenseExpDist64", e.lpName(), e.nlName(), e.ppName(), 16
	if is32 {
		mulFn, expFn, lpName, nlName, ppName, panel = "featmapDenseMul32", "featmapDenseExpDist32", e.lp32Name(), e.nl32Name(), e.pp32Name(), 32
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
	var exp jen.Code
	if one {
		exp = jen.Id(expFn).Call(jen.Id("kv").Index(jen.Op(":").Add(cb())), jen.Id("kv").Index(jen.Op(":").Add(cb())), nl, jen.Id("q"))
	} else {
		row := func() *jen.Statement {
			return jen.Id("kv").Index(jen.Id("i").Op("*").Add(cb()).Op(":").Parens(jen.Id("i").Op("+").Lit(1)).Op("*").Add(cb()))
		}
		exp = jen.For(jen.Id("i").Op(":=").Range().Add(rows)).Block(
			jen.Id(expFn).Call(row(), row(), nl, jen.Id("q").Index(jen.Id("i"))))
	}
	body := []jen.Code{
		jen.Id(mulFn).Call(jen.Id("kv").Index(jen.Op(":")), cb(), jen.Id("t").Index(jen.Op(":")), in(), lp, jen.Lit(panel).Op("*").Add(in()), rows, in(), cb(), jen.False()),
		exp,
		jen.Id(mulFn).Call(dst, jen.Id(e.dimName()), jen.Id("kv").Index(jen.Op(":")), cb(), pp, jen.Lit(panel).Op("*").Id(e.sizeName()), rows, cb(), jen.Id(e.dimName()), acc),
	}
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
		jen.List(jen.Id("q"), jen.Id("ok")).Op(":=").Id(e.prepName()).Call(jen.Op("&").Id("t"), jen.Id("x")),
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
			jen.List(jen.Id("q").Index(jen.Id("i")), jen.Id("ok").Index(jen.Id("i"))).Op("=").Id(prep).Call(
				jen.Parens(e.inType(elem)).Call(at("t", in, jen.Id("i"))),
				jen.Parens(e.inType(elem)).Call(at("src", in, jen.Parens(jen.Id("i0").Op("+").Id("i"))))),
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
		jen.Var().Defs(
			jen.Id("t").Index(integer(denseRows*q.n)).Add(elem()),
			jen.Id("q").Index(integer(denseRows)).Add(elem()),
			jen.Id("ok").Index(integer(denseRows)).Bool(),
			jen.Id("kv").Index(integer(denseRows*min(q.m, denseCols))).Add(elem()),
		),
		jen.For(jen.Id("i0").Op(":=").Lit(0), jen.Id("i0").Op("<").Id("rows"), jen.Id("i0").Op("+=").Lit(denseRows)).Block(tile...),
	)
}

// nysDenseEvaluationLines describes the dense evaluation of a Nyström map.
func (q *nystroemKind) nysDenseEvaluationLines(e *emitter) []string {
	return []string{
		fmt.Sprintf("Ψ(x) is the formula, computed with: t = x − c (c the centre of the landmarks' box) and q = Σᵢ s2ᵢtᵢ², s2ᵢ = 1/(2σᵢ²) (no division per element); the products g_j = Σᵢ tᵢ·2s2ᵢ(l_ji − cᵢ) of the input rows and the m = %d packed scaled landmarks (featmapDenseMul64 of the package's featmap_dense*.go files: AVX-512 or AVX2+FMA assembly chosen by CPUID at init on amd64, register-tiled Go elsewhere); K(x, l_j) = exp(−max(0, q + ‖l_j − c‖² − g_j)) by featmapDenseExpDist64 (within 1 ulp of e^x); then the %d components of %s·k as a second product, each one chain of fused multiply-adds over the landmarks in their order.",
			q.m, q.dim, q.projText()),
		"Each kernel value is within e^{−(d²−δ)}·δ + 1 ulp of the exact K(x, l_j) = e^{−d²}, δ = 2γ_{n+8}·Σᵢ s2ᵢ(|tᵢ| + |l_ji − cᵢ|)², γ_k = k·2⁻⁵³/(1 − k·2⁻⁵³) (docs/measurements/dense.md, \"Error bounds\"), and each component within Σ_j |P_kj|·(that bound) + γ_m·Σ_j |P_kj|·K_j of P·k: the reference evaluator's value up to these roundings, not bit for bit.",
		fmt.Sprintf("A row with some |xᵢ − cᵢ| beyond %s or not finite takes the exact path (%s: the kernel values as the reference evaluator computes them, zeros for a non-finite input). %s computes tiles of %d rows at a time, %s one row by the one-row kernels: every component is the same arithmetic, so %s equals %s row by row bit for bit.",
			num(q.limit), e.exactName(), e.sliceName(), denseRows, e.p.name, e.sliceName(), e.p.name),
		q.nys32Lines(e),
	}
}
