package codegen

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/dense"
	"github.com/featmap/featmap/fmap"
)

// The dense evaluation of random Fourier features (docs/measurements/
// dense.md, "Integration design"): the phases of a tile of rows against
// the packed frequencies by featmapDenseMul64 (the package's dense
// kernels, DenseFiles), then the cosines and sines over the tile. N is
// the same sequence on one row (the one-row kernels), so that every
// component of NSlice is N's bit for bit.

// dense reports whether the random map is evaluated by the dense kernels:
// random features of the input itself (the identity transform), without a
// per-coordinate stage before them or a projection after them, and not a
// block of a blocks map.
func (k *randomKind) dense() bool {
	return !k.block && k.inner == nil && k.lin == nil && k.r.Transform == fmap.Identity
}

// files are the dense kernel files of a dense map's package.
func (k *randomKind) files(e *emitter) []File {
	if !k.denseKernels() {
		return nil
	}
	return DenseFiles(e.p.info.Package, e.p.info.Version)
}

// packedName is the frequencies packed for featmapDenseMul64.
func (e *emitter) packedName() string { return e.p.priv + "Packed" }

// denseHelpers emits the packed frequencies and the init function that
// packs them from the frequency matrix (after the data file's decoding,
// which an earlier init function of the file does).
func (k *randomKind) denseHelpers(e *emitter, f *jen.File) {
	if !k.denseKernels() {
		return
	}
	k.packedHelpers(e, f)
}

// packedHelpers emits the packed frequencies and their init function, as
// denseHelpers does, for a map or a block of a blocks map.
func (k *randomKind) packedHelpers(e *emitter, f *jen.File) {
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s holds the frequencies of %s packed for featmapDenseMul64: panels of 16 frequencies, %s numbers per panel (%s[p*16*%s + j*16 + i] is coordinate j of frequency 16p + i), zeros beyond the last frequency. Packed at init.",
		e.packedName(), e.wName(), "16·"+e.argsName(), e.packedName(), e.argsName()))))
	f.Var().Id(e.packedName()).Index(integer(dense.Packed64(k.freqs, k.args))).Float64()
	f.Line()
	f.Func().Id("init").Params().Block(
		jen.Id("featmapDensePack64").Call(jen.Id(e.packedName()).Index(jen.Op(":")), jen.Id(e.wName()).Index(jen.Op(":")), jen.Id(e.freqsName()), jen.Id(e.argsName())),
	)
}

// featScale is the factor the dense path multiplies every cosine and
// sine by: the component scale c, or for a block of a blocks map s_g·c
// (the block's scale times it, rounded once), so that the block's
// components are written scaled.
func (k *randomKind) featScale() float64 {
	if k.block {
		return k.blockScale * k.scale
	}
	return k.scale
}

// denseLimit is the largest |x_j| N takes as it is: the limit L of the
// phases (limit.go), or MaxFloat64 when no finite input needs one.
func (k *randomKind) denseLimit() float64 {
	if lim := randomLimit(k.r); !math.IsInf(lim, 1) {
		return lim
	}
	return math.MaxFloat64
}

// denseFeatures is the loop over the chunks of frequencies of a tile of
// rows rows (an expression) of the arguments a (lda apart) into dst (ldd
// apart), the phases in the scratch ph.
// With is32 the products, the features and the scratch are float32.
func (k *randomKind) denseFeatures(e *emitter, is32 bool, rows jen.Code, one bool, dst, a string, lda, ldd jen.Code) []jen.Code {
	mulFn, cosSinFn, cosFn, packedName, bName, panel := "featmapDenseMul64", "featmapDenseCosSin64", "featmapDenseCos64", e.packedName(), e.bName(), 16
	scale := e.lit.f64(k.featScale())
	if is32 {
		mulFn, cosSinFn, cosFn, packedName, bName, panel = "featmapDenseMul32", "featmapDenseCosSin32", "featmapDenseCos32", e.packed32Name(), e.b32Name(), 32
		scale = e.lit.f32(float32(k.featScale()))
	}
	loop, c0, cb := e.freqChunks(k.freqs, denseCols)
	args := func() *jen.Statement { return jen.Id(e.argsName()) }
	packed := jen.Id(packedName).Index(jen.Op(":"))
	if loop {
		packed = jen.Id(packedName).Index(jen.Id("c0").Op("*").Add(args()).Op(":"))
	}
	mul := jen.Id(mulFn).Call(jen.Id("ph").Index(jen.Op(":")), cb(), jen.Id(a), lda, packed,
		jen.Lit(panel).Op("*").Add(args()), rows, args(), cb(), jen.False())
	// elem is the elementwise function of row i (nil: the one row).
	elem := func(i jen.Code) jen.Code {
		// off is the row's slice of dst from frequency c0 on (mult
		// components per frequency).
		off := func(mult int) *jen.Statement {
			var v *jen.Statement
			switch {
			case loop && mult == 2:
				v = jen.Lit(2).Op("*").Id("c0")
			case loop:
				v = jen.Id("c0")
			}
			if i != nil {
				r := jen.Add(i).Op("*").Add(ldd)
				if v != nil {
					r = r.Op("+").Add(v)
				}
				v = r
			}
			if v == nil {
				return jen.Op(":")
			}
			return v.Op(":")
		}
		phases := jen.Id("ph").Index(jen.Op(":").Add(cb()))
		if i != nil {
			phases = jen.Id("ph").Index(jen.Add(i).Op("*").Add(cb()).Op(":").Parens(jen.Add(i).Op("+").Lit(1)).Op("*").Add(cb()))
		}
		if k.r.Features == fmap.Phase {
			return jen.Id(cosFn).Call(jen.Id(dst).Index(off(1)), phases, jen.Id(bName).Index(c0().Op(":")), scale)
		}
		return jen.Id(cosSinFn).Call(jen.Id(dst).Index(off(2)), phases, scale)
	}
	body := []jen.Code{mul}
	if one {
		body = append(body, elem(nil))
	} else {
		body = append(body, jen.For(jen.Id("i").Op(":=").Range().Add(rows)).Block(elem(jen.Id("i"))))
	}
	if !loop {
		return body
	}
	return []jen.Code{jen.For(jen.Id("c0").Op(":=").Lit(0), jen.Id("c0").Op("<").Id(e.freqsName()), jen.Id("c0").Op("+=").Lit(denseCols)).Block(
		append([]jen.Code{jen.Id("cb").Op(":=").Min(jen.Lit(denseCols), jen.Id(e.freqsName()).Op("-").Id("c0"))}, body...)...,
	)}
}

// freqChunks describes the chunks of cols frequencies of a map of m:
// whether there are several (a loop over c0), and c0 and cb, the chunk's
// first frequency and its size, as expressions (0 and the number of
// frequencies without a loop).
func (e *emitter) freqChunks(m, cols int) (loop bool, c0, cb func() *jen.Statement) {
	loop = m > cols
	c0 = func() *jen.Statement {
		if loop {
			return jen.Id("c0")
		}
		return jen.Lit(0)
	}
	cb = func() *jen.Statement {
		if loop {
			return jen.Id("cb")
		}
		return jen.Id(e.freqsName())
	}
	return loop, c0, cb
}

// denseN is the body of N of a dense map: zeros for a non-finite input,
// the input within ±L beyond it (limit.go), then the phases of the one
// row and their features.
func (k *randomKind) denseN(e *emitter) []jen.Code {
	zero := []jen.Code{jen.Op("*").Id("out").Op("=").Index(jen.Id(e.dimName())).Float64().Values(), jen.Return()}
	body := k.denseInput(e, zero)
	body = append(body,
		jen.Var().Id("ph").Index(integer(min(k.freqs, denseCols))).Float64())
	return append(body, k.denseFeatures(e, false, jen.Lit(1), true, "out", "a", jen.Id(e.argsName()), nil)...)
}

// denseInput is the start of N of a dense map of the input itself: a, the
// input within ±L (a copy when some coordinate is beyond it), or zero (the
// statements that end N) for a non-finite input.
func (k *randomKind) denseInput(e *emitter, zero []jen.Code) []jen.Code {
	p := e.p
	lim := k.denseLimit()
	notFinite := func(v *jen.Statement) *jen.Statement {
		return jen.Op("!").Parens(jen.Qual("math", "Abs").Call(v).Op("<=").Qual("math", "MaxFloat64"))
	}
	clamp := func(v jen.Code) jen.Code {
		return jen.Max(jen.Op("-").Add(e.lit.f64(lim)), jen.Min(v, e.lit.f64(lim)))
	}
	var body []jen.Code
	var t jen.Code
	if p.in == 1 {
		body = append(body, jen.Id("t").Op(":=").Index(integer(1)).Float64().Values(jen.Id("x")))
		fix := []jen.Code{jen.If(notFinite(jen.Id("x"))).Block(zero...)}
		if lim != math.MaxFloat64 {
			fix = append(fix, jen.Id("t").Index(jen.Lit(0)).Op("=").Add(clamp(jen.Id("x"))))
		}
		body = append(body, jen.If(jen.Id("featmapDenseBeyond64").Call(jen.Id("t").Index(jen.Op(":")), e.lit.f64(lim))).Block(fix...))
		t = jen.Id("t").Index(jen.Op(":"))
	} else {
		body = append(body, jen.Id("t").Op(":=").Id("x"))
		fix := []jen.Code{jen.Var().Id("c").Index(jen.Id(e.inName())).Float64(),
			jen.For(jen.List(jen.Id("j"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
				jen.If(notFinite(jen.Id("a"))).Block(zero...),
				jen.Id("c").Index(jen.Id("j")).Op("=").Add(clamp(jen.Id("a"))),
			),
			jen.Id("t").Op("=").Op("&").Id("c"),
		}
		if lim == math.MaxFloat64 {
			fix = zero
		}
		body = append(body, jen.If(jen.Id("featmapDenseBeyond64").Call(jen.Id("x").Index(jen.Op(":")), e.lit.f64(lim))).Block(fix...))
		t = jen.Id("t").Index(jen.Op(":"))
	}
	return append(body, jen.Id("a").Op(":=").Add(t))
}

// slicePath names what NSlice (is32: NSliceF32) of a dense random map
// works in: its element type, its own name, the function that evaluates
// one row, the helper that finds a row beyond the limit, and that limit.
func (k *randomKind) slicePath(e *emitter, is32 bool) (elem func() *jen.Statement, name, fn, beyond string, lim jen.Code) {
	if is32 {
		return jen.Float32, e.slice32Name(), e.name32(), "featmapDenseBeyond32", e.lit.f32(float32(k.limit32()))
	}
	return jen.Float64, e.sliceName(), e.p.name, "featmapDenseBeyond64", e.lit.f64(k.denseLimit())
}

// denseSlice is the body of NSlice of a dense map: the lengths checked,
// then tiles of denseRows rows, their phases and features, and the rows
// with a coordinate beyond ±L or not finite again by N.
func (k *randomKind) denseSlice(e *emitter, is32 bool) []jen.Code {
	p := e.p
	elem, name, fn, beyond, lim := k.slicePath(e, is32)
	body := e.rowsBody(name, fn, elem)[:1] // the length check
	in := func() *jen.Statement { return jen.Id(e.argsName()) }
	dim := func() *jen.Statement { return jen.Id(e.dimName()) }
	row := func(arr string, w func() *jen.Statement) *jen.Statement {
		return jen.Id(arr).Index(jen.Id("i").Op("*").Add(w()).Op(":").Parens(jen.Id("i").Op("+").Lit(1)).Op("*").Add(w()))
	}
	var again jen.Code
	if p.in == 1 {
		again = jen.Id(fn).Call(jen.Parens(e.outType(elem)).Call(jen.Id("d").Index(jen.Id("i").Op("*").Add(dim()).Op(":"))), jen.Id("a").Index(jen.Id("i")))
	} else {
		again = jen.Id(fn).Call(jen.Parens(e.outType(elem)).Call(jen.Id("d").Index(jen.Id("i").Op("*").Add(dim()).Op(":"))),
			jen.Parens(e.inType(elem)).Call(jen.Id("a").Index(jen.Id("i").Op("*").Add(in()).Op(":"))))
	}
	tile := []jen.Code{
		jen.Id("r").Op(":=").Min(jen.Lit(denseRows), jen.Id("rows").Op("-").Id("i0")),
		jen.Id("a").Op(":=").Id("src").Index(jen.Id("i0").Op("*").Add(in()).Op(":").Parens(jen.Id("i0").Op("+").Id("r")).Op("*").Add(in())),
		jen.Id("d").Op(":=").Id("dst").Index(jen.Id("i0").Op("*").Add(dim()).Op(":").Parens(jen.Id("i0").Op("+").Id("r")).Op("*").Add(dim())),
	}
	tile = append(tile, k.denseFeatures(e, is32, jen.Id("r"), false, "d", "a", in(), dim())...)
	tile = append(tile, jen.For(jen.Id("i").Op(":=").Range().Id("r")).Block(
		jen.If(jen.Id(beyond).Call(row("a", in), lim)).Block(again),
	))
	return append(body,
		jen.Id("rows").Op(":=").Len(jen.Id("src")).Op("/").Add(in()),
		jen.Var().Id("ph").Index(integer(denseRows*min(k.freqs, denseCols))).Add(elem()),
		jen.For(jen.Id("i0").Op(":=").Lit(0), jen.Id("i0").Op("<").Id("rows"), jen.Id("i0").Op("+=").Lit(denseRows)).Block(tile...),
	)
}

// denseEvaluationLines describes the dense evaluation of a random map.
func (k *randomKind) denseEvaluationLines(e *emitter) []string {
	fn := "the cosine and sine of every phase by featmapDenseCosSin64"
	what := "ωᵢ·x"
	if k.r.Features == fmap.Phase {
		fn = "the cosine of every phase ωᵢ·x + bᵢ by featmapDenseCos64"
		what = "ωᵢ·x + bᵢ"
	}
	return []string{
		fmt.Sprintf("Ψ(x) is the formula, computed with: the m = %d phases ωᵢ·x as a product of the input rows and the packed frequencies (featmapDenseMul64 of the package's featmap_dense*.go files: AVX-512 or AVX2+FMA assembly chosen by CPUID at init on amd64, register-tiled Go elsewhere), each phase one chain of fused multiply-adds over the %d inputs in their order; %s, within 1 ulp of math.Cos and math.Sin (math.Sincos itself for NaN, ±Inf and |%s| ≥ 2²⁹). The phases differ from the reference evaluator's by the rounding of the sums, the cosines and sines by at most 1 ulp more (docs/gen.md).",
			k.freqs, k.args, fn, what),
		fmt.Sprintf("%s computes tiles of %d rows at a time, %s one row by the one-row kernels: every component is the same arithmetic, so %s equals %s row by row bit for bit; a row with a coordinate beyond ±L or not finite is %s's.",
			e.sliceName(), denseRows, e.p.name, e.sliceName(), e.p.name, e.p.name),
		k.dense32Lines(e),
	}
}
