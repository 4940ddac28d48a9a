package codegen

import (
	"fmt"
	"math"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/dense"
	"github.com/featmap/featmap/fmap"
)

// The dense evaluation of the random maps with a stage before or after
// the random features: rf-pca's projection P·(z − μ), exp-χ²'s
// per-coordinate map ψ and the log-offset transform before them. The
// argument t of a tile of rows (the input itself, or ψ of every
// coordinate, or log(max(x + c, 2⁻¹⁰²²)), computed row by row into a
// scratch) goes through the dense products and the vectorised cosines and
// sines as an rff map's input does (emit_dense.go); an rf-pca map's
// features of a chunk of frequencies then have μ subtracted, one
// subtraction per feature as the reference evaluator does (folding the
// centring into the projection, P·z − P·μ, would round differently), and
// go through a second product with the packed projection, chunk after
// chunk into the same sums. N is the same sequence on one row, so that
// NSlice equals N bit for bit.

// stagedMaxArgs caps the argument t of a staged map whose t is computed
// into a scratch (after ψ or a log): NSlice keeps denseRows rows of it on
// the stack (24 KiB at 256). A longer t is computed in chunks of at most
// that many values (emit_dense_wide.go).
const stagedMaxArgs = 256

// rowPathOnly, when set, makes staged false: the maps it covers then take
// their row-by-row evaluation, which BenchmarkStaged times beside the
// dense one in the same run. Only that benchmark sets it.
var rowPathOnly bool

// staged reports whether the random map is evaluated by the dense kernels
// with its stage before or after the random features: not a block, not
// dense (rff of the input itself), the identity or the log-offset
// transform, and a t computed into a scratch of at most stagedMaxArgs, or
// computed chunk by chunk of that many values (wideOK,
// emit_dense_wide.go).
func (k *randomKind) staged() bool {
	if k.block || k.dense() || rowPathOnly {
		return false
	}
	if k.r.Transform != fmap.Identity && k.r.Transform != fmap.LogOffset {
		return false
	}
	return !k.prepared() || k.args <= stagedMaxArgs || k.wideOK()
}

// prepared reports whether t is computed into a scratch (the args helper)
// rather than read from the input.
func (k *randomKind) prepared() bool { return k.inner != nil || k.r.Transform != fmap.Identity }

// denseKernels reports whether the map is evaluated by the dense kernels
// in either way.
func (k *randomKind) denseKernels() bool { return k.dense() || k.staged() }

// stagedCols is the chunk of frequencies a staged map computes at a time:
// half of denseCols for cos-sin features before a projection, so that the
// features' scratch (two per frequency) is denseRows·denseCols numbers too.
func (k *randomKind) stagedCols() int {
	if k.lin != nil && k.r.Features == fmap.CosSin {
		return denseCols / 2
	}
	return denseCols
}

// perFreq is the number of features of one frequency: 2 (cos-sin) or 1.
func (k *randomKind) perFreq() int {
	if k.r.Features == fmap.CosSin {
		return 2
	}
	return 1
}

// Names of a staged map's identifiers.
func (e *emitter) projPackedName() string { return e.p.priv + "ProjPacked" }
func (e *emitter) targsName() string      { return e.p.priv + "Arguments" }

// stagedHelpers emits the packed projection of an rf-pca map (packed at
// init from the transposed projection) and the helper that computes t.
func (k *randomKind) stagedHelpers(e *emitter, f *jen.File) {
	if !k.staged() {
		return
	}
	if k.lin != nil {
		dim, feats := func() *jen.Statement { return jen.Id(e.dimName()) }, func() *jen.Statement { return jen.Id(e.featsName()) }
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s holds the projection P (%s×%s) packed for featmapDenseMul64: panels of 16 outputs, 16·%s numbers per panel. Packed at init from %s.",
			e.projPackedName(), e.dimName(), e.featsName(), e.featsName(), e.projName()))))
		f.Var().Id(e.projPackedName()).Index(integer(dense.Packed64(k.lin.Dim(), k.lin.In))).Float64()
		f.Line()
		f.Func().Id("init").Params().Block(
			jen.Id("w").Op(":=").Make(jen.Index().Float64(), dim().Op("*").Add(feats())),
			jen.For(jen.Id("j").Op(":=").Range().Add(feats())).Block(
				jen.For(jen.Id("i").Op(":=").Range().Add(dim())).Block(
					jen.Id("w").Index(jen.Id("i").Op("*").Add(feats()).Op("+").Id("j")).Op("=").Id(e.projName()).Index(jen.Id("j").Op("*").Add(dim()).Op("+").Id("i")),
				),
			),
			jen.Id("featmapDensePack64").Call(jen.Id(e.projPackedName()).Index(jen.Op(":")), jen.Id("w"), dim(), feats()),
		)
	}
	if k.prepared() {
		k.targsHelper(e, f)
	}
}

// targsHelper emits the helper that computes t of a map (or a block of a
// blocks map) whose t is computed into a scratch.
func (k *randomKind) targsHelper(e *emitter, f *jen.File) {
	what := fmt.Sprintf("t_j = log(max(x_j + %s, 2⁻¹⁰²²))", num(k.r.Offset))
	if k.inner != nil {
		what = fmt.Sprintf("ψ(x_i) of every input coordinate by %s, at t[i*%s:]", k.inner.name, k.inner.name+"Dim")
	}
	if lim := randomLimit(k.r); !math.IsInf(lim, 1) {
		what += fmt.Sprintf(", each value beyond ±%s taken as ±%s", num(lim), num(lim))
	}
	if k.wide() {
		k.wideHelper(e, f, what)
		return
	}
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s sets t, the random features' argument: %s. It returns false, t unfinished, if an input coordinate or a value of t is not finite (Ψ is then that of zero random features).",
		e.targsName(), what))))
	x := jen.Id("x").Float64()
	if e.p.in > 1 {
		x = jen.Id("x").Add(e.inType(jen.Float64))
	}
	f.Func().Id(e.targsName()).Params(jen.Id("t").Op("*").Index(jen.Id(e.argsName())).Float64(), x).Bool().Block(k.argsBody(e)...)
}

// argsBody is the body of the args helper: t from x, false for a
// non-finite input or value of t.
func (k *randomKind) argsBody(e *emitter) []jen.Code {
	p := e.p
	notFinite := func(v *jen.Statement) *jen.Statement {
		return jen.Op("!").Parens(jen.Qual("math", "Abs").Call(v).Op("<=").Qual("math", "MaxFloat64"))
	}
	no := jen.Return(jen.False())
	var body []jen.Code
	if ip := k.inner; ip != nil {
		if p.in == 1 {
			body = append(body, jen.Id(ip.name).Call(jen.Id("t"), jen.Id("x")))
		} else {
			body = append(body, jen.For(jen.List(jen.Id("j"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
				jen.Id(ip.name).Call(jen.Parens(jen.Op("*").Index(jen.Id(ip.name+"Dim")).Float64()).Call(jen.Id("t").Index(jen.Id("j").Op("*").Id(ip.name+"Dim").Op(":"))), jen.Id("a")),
			))
		}
	} else {
		targ := func(v *jen.Statement) *jen.Statement {
			if k.r.Offset != 0 {
				v = v.Op("+").Add(e.lit.f64(k.r.Offset))
			}
			return jen.Qual("math", "Log").Call(jen.Qual("math", "Max").Call(v, e.lit.f64(0x1p-1022)))
		}
		if p.in == 1 {
			body = append(body, jen.If(notFinite(jen.Id("x"))).Block(no), jen.Id("t").Index(jen.Lit(0)).Op("=").Add(targ(jen.Id("x"))))
		} else {
			body = append(body, jen.For(jen.List(jen.Id("j"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
				jen.If(notFinite(jen.Id("a"))).Block(no),
				jen.Id("t").Index(jen.Id("j")).Op("=").Add(targ(jen.Id("a"))),
			))
		}
	}
	if lim := randomLimit(k.r); math.IsInf(lim, 1) {
		if k.inner != nil {
			body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("a")).Op(":=").Range().Id("t")).Block(
				jen.If(notFinite(jen.Id("a"))).Block(no),
			))
		}
	} else {
		// One comparison per value against L; beyond it, false for a
		// non-finite value, else ±L (limit.go).
		body = append(body, jen.For(jen.List(jen.Id("j"), jen.Id("a")).Op(":=").Range().Id("t")).Block(
			jen.If(jen.Op("!").Parens(jen.Qual("math", "Abs").Call(jen.Id("a")).Op("<=").Add(e.lit.f64(lim)))).Block(
				jen.If(notFinite(jen.Id("a"))).Block(no),
				jen.Id("t").Index(jen.Id("j")).Op("=").Qual("math", "Copysign").Call(e.lit.f64(lim), jen.Id("a")),
			),
		))
	}
	return append(body, jen.Return(jen.True()))
}

// stagedZero ends N for an input whose random features are zeros: zeros,
// or P·(0 − μ) for a centred rf-pca map.
func (k *randomKind) stagedZero(e *emitter) []jen.Code {
	if k.centred() {
		return []jen.Code{jen.Id(e.nonFiniteName()).Call(jen.Id("out")), jen.Return()}
	}
	return []jen.Code{jen.Op("*").Id("out").Op("=").Index(jen.Id(e.dimName())).Float64().Values(), jen.Return()}
}

// stagedScratch declares the scratch of rows rows: the phases ph and, for
// a projection, the features z of a chunk of frequencies.
func (k *randomKind) stagedScratch(rows int, elem func() *jen.Statement) []jen.Code {
	c := min(k.freqs, k.stagedCols())
	s := []jen.Code{jen.Id("ph").Index(integer(rows * c)).Add(elem())}
	if k.lin != nil {
		s = append(s, jen.Id("z").Index(integer(rows*c*k.perFreq())).Add(elem()))
	}
	return s
}

// scratchDecl declares the scratch s: one var, or a group.
func scratchDecl(s []jen.Code) jen.Code {
	if len(s) == 1 {
		return jen.Var().Add(s[0])
	}
	return jen.Var().Defs(s...)
}

// stagedChunks is the loop over the chunks of frequencies of a tile of
// rows rows (an expression; one: a single row) of t (a, lda apart) into
// dst (ldd = the dimension apart): without a projection, denseFeatures;
// with one, the features into z, μ subtracted, and z times the packed
// projection added to dst.
//
// With is32 the products, the features and the scratch are float32
// (emit_dense_staged32.go).
func (k *randomKind) stagedChunks(e *emitter, is32 bool, rows jen.Code, one bool, dst, a string) []jen.Code {
	lda := jen.Id(e.argsName())
	if k.lin == nil {
		var ldd jen.Code
		if !one {
			ldd = jen.Id(e.dimName())
		}
		return k.denseFeatures(e, is32, rows, one, dst, a, lda, ldd)
	}
	mulFn, cosSinFn, cosFn, packedName, bName, meanName, projName, panel := "featmapDenseMul64", "featmapDenseCosSin64", "featmapDenseCos64", e.packedName(), e.bName(), e.meanName(), e.projPackedName(), 16
	scale := e.lit.f64(k.scale)
	if is32 {
		mulFn, cosSinFn, cosFn, packedName, bName, meanName, projName, panel = "featmapDenseMul32", "featmapDenseCosSin32", "featmapDenseCos32", e.packed32Name(), e.b32Name(), e.mean32Name(), e.projPacked32Name(), 32
		scale = e.lit.f32(float32(k.scale))
	}
	per, cols := k.perFreq(), k.stagedCols()
	loop, c0, cb := e.freqChunks(k.freqs, cols)
	// fb is the chunk's number of features.
	fb := func() *jen.Statement {
		if per == 2 {
			return jen.Lit(2).Op("*").Add(cb())
		}
		return cb()
	}
	args := func() *jen.Statement { return jen.Id(e.argsName()) }
	packed := jen.Id(packedName).Index(jen.Op(":"))
	if loop {
		packed = jen.Id(packedName).Index(jen.Id("c0").Op("*").Add(args()).Op(":"))
	}
	slice := func(arr string, w func() *jen.Statement, i jen.Code) *jen.Statement {
		if i == nil {
			return jen.Id(arr).Index(jen.Op(":").Add(w()))
		}
		return jen.Id(arr).Index(jen.Add(i).Op("*").Add(w()).Op(":").Parens(jen.Add(i).Op("+").Lit(1)).Op("*").Add(w()))
	}
	elem := func(i jen.Code) []jen.Code {
		var s []jen.Code
		if k.r.Features == fmap.Phase {
			s = append(s, jen.Id(cosFn).Call(slice("z", fb, i), slice("ph", cb, i), jen.Id(bName).Index(c0().Op(":")), scale))
		} else {
			s = append(s, jen.Id(cosSinFn).Call(slice("z", fb, i), slice("ph", cb, i), scale))
		}
		if k.centred() {
			f0 := c0()
			if per == 2 && loop {
				f0 = jen.Lit(2).Op("*").Id("c0")
			}
			s = append(s,
				jen.Id("zi").Op(":=").Add(slice("z", fb, i)),
				jen.For(jen.List(jen.Id("j"), jen.Id("mu")).Op(":=").Range().Id(meanName).Index(jen.Add(f0).Op(":").Add(f0).Op("+").Len(jen.Id("zi")))).Block(
					jen.Id("zi").Index(jen.Id("j")).Op("-=").Id("mu"),
				))
		}
		return s
	}
	f0 := jen.Lit(0)
	acc := jen.False()
	if loop {
		f0 = jen.Id("c0")
		if per == 2 {
			f0 = jen.Lit(2).Op("*").Id("c0")
		}
		acc = jen.Id("c0").Op(">").Lit(0)
	}
	proj := jen.Id(projName).Index(jen.Add(f0).Op("*").Lit(panel).Op(":"))
	if !loop {
		proj = jen.Id(projName).Index(jen.Op(":"))
	}
	body := []jen.Code{
		jen.Id(mulFn).Call(jen.Id("ph").Index(jen.Op(":")), cb(), jen.Id(a), lda, packed,
			jen.Lit(panel).Op("*").Add(args()), rows, args(), cb(), jen.False()),
	}
	if k.wide() {
		// The chunked products have set the phases (wideProducts; one
		// chunk of frequencies).
		body = body[:0]
	}
	if one {
		body = append(body, elem(nil)...)
	} else {
		body = append(body, jen.For(jen.Id("i").Op(":=").Range().Add(rows)).Block(elem(jen.Id("i"))...))
	}
	body = append(body, jen.Id(mulFn).Call(jen.Id(dst).Index(jen.Op(":")), jen.Id(e.dimName()), jen.Id("z").Index(jen.Op(":")), fb(), proj,
		jen.Lit(panel).Op("*").Id(e.featsName()), rows, fb(), jen.Id(e.dimName()), acc))
	if !loop {
		return body
	}
	return []jen.Code{jen.For(jen.Id("c0").Op(":=").Lit(0), jen.Id("c0").Op("<").Id(e.freqsName()), jen.Id("c0").Op("+=").Lit(cols)).Block(
		append([]jen.Code{jen.Id("cb").Op(":=").Min(jen.Lit(cols), jen.Id(e.freqsName()).Op("-").Id("c0"))}, body...)...,
	)}
}

// stagedN is the body of N of a staged map: t (the input within ±L, or
// the args helper's), zeros or P·(0 − μ) where the random features are
// zeros, then the one row's chunks.
func (k *randomKind) stagedN(e *emitter) []jen.Code {
	if k.wide() {
		return k.wideN(e)
	}
	var body []jen.Code
	if k.prepared() {
		body = append(body,
			jen.Var().Id("t").Index(jen.Id(e.argsName())).Float64(),
			jen.If(jen.Op("!").Id(e.targsName()).Call(jen.Op("&").Id("t"), jen.Id("x"))).Block(k.stagedZero(e)...),
			jen.Id("a").Op(":=").Id("t").Index(jen.Op(":")),
		)
	} else {
		body = k.denseInput(e, k.stagedZero(e))
	}
	body = append(body, scratchDecl(k.stagedScratch(1, jen.Float64)))
	return append(body, k.stagedChunks(e, false, jen.Lit(1), true, "out", "a")...)
}

// stagedSlice is the body of NSlice of a staged map: the lengths checked,
// then tiles of denseRows rows (t computed row by row into a scratch when
// it is not the input), their chunks, and the rows with an input beyond
// ±L or not finite (the input itself), or whose t the args helper
// refused, again by N.
//
// With is32 it is NSliceF32 on the float32 path: the rows beyond ±L32 or
// not finite again by NF32.
func (k *randomKind) stagedSlice(e *emitter, is32 bool) []jen.Code {
	p := e.p
	elem, name, fn, beyond, lim := k.slicePath(e, is32)
	body := e.rowsBody(name, fn, elem)[:1] // the length check
	// in is the length of an input row: NIn, or the literal 1.
	in := func() *jen.Statement { return jen.Id(e.argsName()) }
	if p.in == 1 {
		in = func() *jen.Statement { return jen.Lit(1) }
	} else if k.prepared() {
		in = func() *jen.Statement { return jen.Id(e.inName()) }
	}
	dim := func() *jen.Statement { return jen.Id(e.dimName()) }
	row := func(arr string, w func() *jen.Statement, i jen.Code) *jen.Statement {
		return jen.Id(arr).Index(jen.Add(i).Op("*").Add(w()).Op(":").Parens(jen.Add(i).Op("+").Lit(1)).Op("*").Add(w()))
	}
	src := func(i jen.Code) jen.Code {
		if p.in == 1 {
			return jen.Id("src").Index(i)
		}
		return jen.Parens(e.inType(elem)).Call(jen.Id("src").Index(jen.Parens(i).Op("*").Add(in()).Op(":")))
	}
	again := jen.Id(fn).Call(jen.Parens(e.outType(elem)).Call(jen.Id("d").Index(jen.Id("i").Op("*").Add(dim()).Op(":"))), src(jen.Id("i0").Op("+").Id("i")))
	tile := []jen.Code{
		jen.Id("r").Op(":=").Min(jen.Lit(denseRows), jen.Id("rows").Op("-").Id("i0")),
		jen.Id("d").Op(":=").Id("dst").Index(jen.Id("i0").Op("*").Add(dim()).Op(":").Parens(jen.Id("i0").Op("+").Id("r")).Op("*").Add(dim())),
	}
	scratch := k.stagedScratch(denseRows, elem)
	var redo jen.Code
	if k.wide() {
		scratch = k.wideScratch()
		tile = append(tile, jen.Id("x").Op(":=").Id("src").Index(jen.Id("i0").Op("*").Add(in()).Op(":").Parens(jen.Id("i0").Op("+").Id("r")).Op("*").Add(in())))
		tile = append(tile, k.wideTile(e, in(), "d", dim())...)
		tile = append(tile, jen.For(jen.Id("i").Op(":=").Range().Id("r")).Block(jen.If(jen.Op("!").Id("ok").Index(jen.Id("i"))).Block(again)))
		return append(body,
			jen.Id("rows").Op(":=").Len(jen.Id("src")).Op("/").Add(in()),
			jen.Var().Defs(scratch...),
			jen.For(jen.Id("i0").Op(":=").Lit(0), jen.Id("i0").Op("<").Id("rows"), jen.Id("i0").Op("+=").Lit(denseRows)).Block(tile...),
		)
	}
	if k.prepared() {
		scratch = append(scratch, jen.Id("t").Index(integer(denseRows*k.args)).Float64(), jen.Id("ok").Index(integer(denseRows)).Bool())
		tile = append(tile,
			jen.For(jen.Id("i").Op(":=").Range().Id("r")).Block(
				jen.Id("ok").Index(jen.Id("i")).Op("=").Id(e.targsName()).Call(
					jen.Parens(jen.Op("*").Index(jen.Id(e.argsName())).Float64()).Call(jen.Id("t").Index(jen.Id("i").Op("*").Id(e.argsName()).Op(":"))),
					src(jen.Id("i0").Op("+").Id("i"))),
			),
			jen.Id("a").Op(":=").Id("t").Index(jen.Op(":")),
		)
		redo = jen.If(jen.Op("!").Id("ok").Index(jen.Id("i"))).Block(again)
	} else {
		tile = append(tile, jen.Id("a").Op(":=").Id("src").Index(jen.Id("i0").Op("*").Add(in()).Op(":").Parens(jen.Id("i0").Op("+").Id("r")).Op("*").Add(in())))
		redo = jen.If(jen.Id(beyond).Call(row("a", in, jen.Id("i")), lim)).Block(again)
	}
	tile = append(tile, k.stagedChunks(e, is32, jen.Id("r"), false, "d", "a")...)
	tile = append(tile, jen.For(jen.Id("i").Op(":=").Range().Id("r")).Block(redo))
	return append(body,
		jen.Id("rows").Op(":=").Len(jen.Id("src")).Op("/").Add(in()),
		jen.Var().Defs(scratch...),
		jen.For(jen.Id("i0").Op(":=").Lit(0), jen.Id("i0").Op("<").Id("rows"), jen.Id("i0").Op("+=").Lit(denseRows)).Block(tile...),
	)
}

// stagedEvaluationLines describes the dense evaluation of a staged map.
func (k *randomKind) stagedEvaluationLines(e *emitter) []string {
	var parts []string
	t := "x"
	if ip := k.inner; ip != nil {
		parts = append(parts, fmt.Sprintf("t = [ψ(x₁), …, ψ(xₙ)], ψ of every coordinate by its formula (%s), no fast path", ip.formula().formulaText(&emitter{p: ip})))
		t = "t"
	}
	if k.r.Transform == fmap.LogOffset {
		parts = append(parts, "t, one log per input")
		t = "t"
	}
	fn := "the cosine and sine of every phase by featmapDenseCosSin64"
	what := "ωᵢ·" + t
	if k.r.Features == fmap.Phase {
		fn = fmt.Sprintf("the cosine of every phase ωᵢ·%s + bᵢ by featmapDenseCos64", t)
		what += " + bᵢ"
	}
	parts = append(parts, fmt.Sprintf("the m = %d phases ωᵢ·%s as a product of the rows of %s and the packed frequencies (featmapDenseMul64 of the package's featmap_dense*.go files: AVX-512 or AVX2+FMA assembly chosen by CPUID at init on amd64, register-tiled Go elsewhere), each phase one chain of fused multiply-adds over the %d values of %s in their order; %s, within 1 ulp of math.Cos and math.Sin (math.Sincos itself for NaN, ±Inf and |%s| ≥ 2²⁹)",
		k.freqs, t, t, k.args, t, fn, what))
	if k.wide() {
		parts = append(parts, k.wideText())
	}
	var bound string
	if l := k.lin; l != nil {
		z := "the projection P·z"
		if k.centred() {
			z = "the mean μ_j subtracted from each feature z_j (one subtraction per feature, as the reference evaluator does) and the projection P·(z − μ)"
		}
		chunk := ""
		if k.freqs > k.stagedCols() {
			chunk = fmt.Sprintf(", chunk by chunk of %d frequencies,", k.stagedCols())
		}
		parts = append(parts, fmt.Sprintf("then%s %s as a second product with the packed projection, each of the %d outputs one chain of fused multiply-adds over the F = %d features in their order",
			chunk, z, l.Dim(), l.In))
		at := ""
		if k.prepared() {
			at = " at the values of t the file computes"
		}
		mu := "z_j − μ_j"
		if !k.centred() {
			mu = "z_j"
		}
		b := fmt.Sprintf("Σₗ|ωᵢₗ%sₗ|", t)
		if k.r.Features == fmap.Phase {
			b = fmt.Sprintf("(Σₗ|ωᵢₗ%sₗ| + |bᵢ|)", t)
		}
		bound = fmt.Sprintf("Each random feature z_j of frequency i is within δ_j = c·(2γ_{n+1}·%s + 2⁻⁵³) + 2⁻⁵²·|z_j| of the reference evaluator's%s (c = %s the features' scale, n = %d, γ_k = k·2⁻⁵³/(1 − k·2⁻⁵³)), and each component within Σ_j |P_kj|·(δ_j + 2γ_{F+1}·|%s|) of the reference evaluator's: its value up to these roundings, not bit for bit.",
			b, at, num(k.scale), k.args, mu)
	} else {
		bound = "The phases differ from the reference evaluator's by the rounding of the sums, the cosines and sines by at most 1 ulp more (docs/gen.md)."
	}
	redo := fmt.Sprintf("a row with a coordinate beyond ±L or not finite is %s's", e.p.name)
	if k.prepared() {
		redo = fmt.Sprintf("a row whose t is not finite is %s's", e.p.name)
	}
	return []string{
		fmt.Sprintf("Ψ(x) is the formula, computed with: %s. %s", strings.Join(parts, "; "), bound),
		fmt.Sprintf("%s computes tiles of %d rows at a time, %s one row by the one-row kernels: every component is the same arithmetic, so %s equals %s row by row bit for bit; %s.",
			e.sliceName(), denseRows, e.p.name, e.sliceName(), e.p.name, redo),
		k.staged32Lines(e),
	}
}

// tiled32 reports whether NSliceF32 of a staged map off the float32 path
// converts tiles of rows to float64 for NSlice (e.tiled32).
func (k *randomKind) tiled32(e *emitter) bool { return !k.f32 && e.tiled32() }

// stagedSlice32 is the body of NSliceF32 of a staged map off the float32
// path (e.tiledSlice32).
func (k *randomKind) stagedSlice32(e *emitter) []jen.Code {
	if !k.tiled32(e) {
		return e.rowsBody(e.slice32Name(), e.name32(), jen.Float32)
	}
	return e.tiledSlice32()
}

// tiled32 reports whether the map's NSliceF32, off a float32 path, can
// convert tiles of rows to float64 for NSlice (stack scratch of denseRows
// rows of input and of output, at most 24 and 48 KiB) rather than call
// NF32 on every row.
func (e *emitter) tiled32() bool {
	return denseRows*e.p.in <= 3072 && denseRows*e.p.dim <= 6144
}

// tiledSlice32 is the body of NSliceF32 of a dense map off its float32
// path: tiles of denseRows rows converted to float64, NSlice, every
// component rounded to float32; NF32 is N of the converted input rounded,
// and NSlice equals N bit for bit, so this equals NF32 row by row.
func (e *emitter) tiledSlice32() []jen.Code {
	body := e.rowsBody(e.slice32Name(), e.name32(), jen.Float32)[:1]
	in := jen.Lit(1)
	if e.p.in > 1 {
		in = jen.Id(e.inName())
	}
	dim := jen.Id(e.dimName())
	return append(body,
		jen.Id("rows").Op(":=").Len(jen.Id("src")).Op("/").Add(in),
		jen.Var().Defs(
			jen.Id("x64").Index(integer(denseRows*e.p.in)).Float64(),
			jen.Id("o").Index(integer(denseRows*e.p.dim)).Float64(),
		),
		jen.For(jen.Id("i0").Op(":=").Lit(0), jen.Id("i0").Op("<").Id("rows"), jen.Id("i0").Op("+=").Lit(denseRows)).Block(
			jen.Id("r").Op(":=").Min(jen.Lit(denseRows), jen.Id("rows").Op("-").Id("i0")),
			jen.Id("x").Op(":=").Id("x64").Index(jen.Op(":").Id("r").Op("*").Add(in)),
			jen.For(jen.List(jen.Id("j"), jen.Id("v")).Op(":=").Range().Id("src").Index(jen.Id("i0").Op("*").Add(in).Op(":").Parens(jen.Id("i0").Op("+").Id("r")).Op("*").Add(in))).Block(
				jen.Id("x").Index(jen.Id("j")).Op("=").Float64().Call(jen.Id("v")),
			),
			jen.Id("y").Op(":=").Id("o").Index(jen.Op(":").Id("r").Op("*").Add(dim)),
			jen.Id(e.sliceName()).Call(jen.Id("y"), jen.Id("x")),
			jen.For(jen.List(jen.Id("j"), jen.Id("v")).Op(":=").Range().Id("y")).Block(
				jen.Id("dst").Index(jen.Id("i0").Op("*").Add(dim).Op("+").Id("j")).Op("=").Float32().Call(jen.Id("v")),
			),
		),
	)
}
