package codegen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/dense"
	"github.com/featmap/featmap/fmap"
)

// The dense evaluation of a blocks map: every block's features of a tile
// of rows by the dense kernels (emit_dense.go), the product of the tile's
// columns First..Last — read in place from the input, rows NIn apart, or
// for a block with a per-coordinate stage or the log-offset transform from
// its argument t computed row by row into a scratch as a staged map's
// (emit_dense_staged.go) — with the block's packed frequencies, then the
// cosines and sines scaled by s_g·c straight into the block's components
// of the tile's outputs, rows NDim apart. N calls every block's one-row
// function, the same sequence on one row, so NSlice equals N bit for bit.

// blockPath is how a block of a blocks map is evaluated.
type blockPath int

const (
	// blockRow: the block's random-feature function of its formula
	// (emit_random.go), then its scale, row by row.
	blockRow blockPath = iota
	// blockDense: the dense kernels on the block's inputs in place.
	blockDense
	// blockStaged: the dense kernels on the block's t, computed into a
	// scratch (exp-χ²'s ψ, the log-offset transform).
	blockStaged
)

// blockPathOf chooses the evaluation of block rk: dense for random
// features of its inputs, staged for a t computed into a scratch (at most
// stagedMaxArgs values, or chunk by chunk of that many: wideOK), the row
// path otherwise (and under rowPathOnly).
func blockPathOf(rk *randomKind) blockPath {
	switch {
	case rowPathOnly || rk.lin != nil:
		return blockRow
	case rk.inner == nil && rk.r.Transform == fmap.Identity:
		return blockDense
	case (rk.r.Transform == fmap.Identity || rk.r.Transform == fmap.LogOffset) && (rk.args <= stagedMaxArgs || rk.wideOK()):
		return blockStaged
	}
	return blockRow
}

// anyDense reports whether some block is evaluated by the dense kernels.
func (bp *blocksKind) anyDense() bool {
	for _, path := range bp.paths {
		if path != blockRow {
			return true
		}
	}
	return false
}

// files are the dense kernel files of a blocks map's package, when some
// block uses them.
func (bp *blocksKind) files(e *emitter) []File {
	if !bp.anyDense() {
		return nil
	}
	return DenseFiles(e.p.info.Package, e.p.info.Version)
}

// blocks32Plan measures the float32 path of a blocks map whose every
// block is dense — each block's float32 features of its float32 inputs,
// scaled by s_g·c rounded to float32, as the emitted code computes them —
// on dense32Points seeded points of the domain's box (dense32Measure), and
// takes it when the kernel error is within the budget, the rule of an rff
// map's float32 path.
func (bp *blocksKind) blocks32Plan(p *plan) {
	for _, path := range bp.paths {
		if path != blockDense {
			return
		}
	}
	type blk struct {
		packed, b32 []float32
	}
	bs := make([]blk, len(bp.kinds))
	for g, rk := range bp.kinds {
		bs[g].packed, bs[g].b32 = rk.freqs32()
	}
	worst, kern, ok := dense32Measure(p, func(o32, x32 []float32, _ []float64) {
		for g, rk := range bp.kinds {
			b := &bp.b.Parts[g]
			o := bp.offsets[g]
			dense.Features32(o32[o:o+bp.subs[g].dim], x32[b.First:b.Last+1], bs[g].packed, bs[g].b32, rk.freqs, rk.args, float32(rk.featScale()))
		}
	})
	if ok && kern <= p.budget {
		bp.f32, bp.err32, bp.kern32 = true, worst, kern
		for _, rk := range bp.kinds {
			rk.f32 = true
		}
	}
}

// rowsName is the function that evaluates a block on a tile of rows.
func (bp *blocksKind) rowsName(g int, is32 bool) string {
	if is32 {
		return bp.subs[g].name + "RowsF32"
	}
	return bp.subs[g].name + "Rows"
}

// blockHelpers emits the dense helpers of block g (after the data file's
// decoding, which the packing at init reads): its packed frequencies, the
// helper that computes its t, its float32 helpers and the functions of a
// tile of rows.
func (bp *blocksKind) blockHelpers(e *emitter, f *jen.File, g int) {
	sp, rk, path := bp.subs[g], bp.kinds[g], bp.paths[g]
	se := &emitter{p: sp}
	if path != blockRow {
		rk.packedHelpers(se, f)
	}
	if path == blockStaged {
		rk.targsHelper(se, f)
	}
	if rk.f32 {
		rk.dense32Helpers(se, f)
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%sF32 writes block %d's components of Ψ to out in float32 (%s in float32, see the file header).", sp.name, g, sp.name))))
		f.Func().Id(sp.name + "F32").Params(se.params(jen.Float32)...).Block(rk.dense32N(se)...)
	}
	if !bp.anyDense() {
		return
	}
	for _, is32 := range []bool{false, true} {
		if is32 && !rk.f32 {
			continue
		}
		name := bp.rowsName(g, is32)
		t := jen.Float64
		what := sp.name
		if is32 {
			t, what = jen.Float32, sp.name+"F32"
		}
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes block %d's components of the r rows of the tile x (inputs from the block's first, %s apart) to d (from the block's first component, %s apart), as %s of every row writes them.",
			name, g, e.inExpr(), e.dimName(), what))))
		f.Func().Id(name).Params(jen.List(jen.Id("d"), jen.Id("x")).Index().Add(t()), jen.Id("r").Int()).Block(bp.rowsBody(e, se, g, is32)...)
	}
	if se.lit.err != nil && e.lit.err == nil {
		e.lit.err = se.lit.err
	}
}

// inExpr names the length of an input row of the map: NIn, or 1.
func (e *emitter) inExpr() string {
	if e.p.in == 1 {
		return "1"
	}
	return e.inName()
}

// inLen is inExpr as an expression.
func (e *emitter) inLen() *jen.Statement {
	if e.p.in == 1 {
		return jen.Lit(1)
	}
	return jen.Id(e.inName())
}

// rowsBody is the body of block g's function of a tile of rows (is32:
// the float32 path's): the dense features of the tile and the rows the
// block's one-row function evaluates again (beyond ±L or not finite, or
// whose t is not finite); the row path's is that function on every row.
func (bp *blocksKind) rowsBody(e, se *emitter, g int, is32 bool) []jen.Code {
	sp, rk, path := bp.subs[g], bp.kinds[g], bp.paths[g]
	elem, fn := jen.Float64, sp.name
	if is32 {
		elem, fn = jen.Float32, sp.name+"F32"
	}
	in, dim := e.inLen, func() *jen.Statement { return jen.Id(e.dimName()) }
	row := func(i jen.Code) jen.Code {
		if sp.in == 1 {
			return jen.Id("x").Index(jen.Add(i).Op("*").Add(in()))
		}
		return jen.Parens(se.inType(elem)).Call(jen.Id("x").Index(jen.Add(i).Op("*").Add(in()).Op(":")))
	}
	again := func(call string) jen.Code {
		return jen.Id(call).Call(jen.Parens(se.outType(elem)).Call(jen.Id("d").Index(jen.Id("i").Op("*").Add(dim()).Op(":"))), row(jen.Id("i")))
	}
	if path == blockRow {
		return []jen.Code{jen.For(jen.Id("i").Op(":=").Range().Id("r")).Block(
			jen.Id("o").Op(":=").Parens(se.outType(elem)).Call(jen.Id("d").Index(jen.Id("i").Op("*").Add(dim()).Op(":"))),
			jen.Id(fn).Call(jen.Id("o"), row(jen.Id("i"))),
			bp.scaleLoop(e, g, "o", nil),
		)}
	}
	c := min(rk.freqs, denseCols)
	body := []jen.Code{jen.Var().Id("ph").Index(integer(denseRows * c)).Add(elem())}
	var redo jen.Code
	if path == blockStaged && rk.wide() {
		body = []jen.Code{jen.Var().Defs(rk.wideScratch()...)}
		body = append(body, rk.wideTile(se, in(), "d", dim())...)
		redo = jen.If(jen.Op("!").Id("ok").Index(jen.Id("i"))).Block(again(fn))
	} else if path == blockStaged {
		body = []jen.Code{jen.Var().Defs(
			jen.Id("ph").Index(integer(denseRows*c)).Float64(),
			jen.Id("t").Index(integer(denseRows*rk.args)).Float64(),
			jen.Id("ok").Index(integer(denseRows)).Bool(),
		)}
		body = append(body,
			jen.For(jen.Id("i").Op(":=").Range().Id("r")).Block(
				jen.Id("ok").Index(jen.Id("i")).Op("=").Id(se.targsName()).Call(
					jen.Parens(jen.Op("*").Index(jen.Id(se.argsName())).Float64()).Call(jen.Id("t").Index(jen.Id("i").Op("*").Id(se.argsName()).Op(":"))),
					row(jen.Id("i"))),
			),
			jen.Id("a").Op(":=").Id("t").Index(jen.Op(":")),
		)
		body = append(body, rk.denseFeatures(se, false, jen.Id("r"), false, "d", "a", jen.Id(se.argsName()), dim())...)
		redo = jen.If(jen.Op("!").Id("ok").Index(jen.Id("i"))).Block(again(fn))
	} else {
		body = append(body, rk.denseFeatures(se, is32, jen.Id("r"), false, "d", "x", in(), dim())...)
		beyond, lim, call := "featmapDenseBeyond64", se.lit.f64(rk.denseLimit()), fn
		if is32 {
			beyond, lim, call = "featmapDenseBeyond32", se.lit.f32(float32(rk.limit32())), se.round32Name()
		}
		xs := jen.Id("x").Index(jen.Id("i").Op("*").Add(in()).Op(":").Id("i").Op("*").Add(in()).Op("+").Id(sp.name + "In"))
		redo = jen.If(jen.Id(beyond).Call(xs, lim)).Block(again(call))
	}
	return append(body, jen.For(jen.Id("i").Op(":=").Range().Id("r")).Block(redo))
}

// sliceBody is the body of NSlice (is32: NSliceF32 on the float32 path)
// of a blocks map with a dense block: the lengths checked, then tiles of
// denseRows rows, every block's function of a tile on its columns and
// components.
func (bp *blocksKind) sliceBody(e *emitter, is32 bool) []jen.Code {
	elem, name, fn := jen.Float64, e.sliceName(), e.p.name
	if is32 {
		elem, name, fn = jen.Float32, e.slice32Name(), e.name32()
	}
	body := e.rowsBody(name, fn, elem)[:1] // the length check
	in, dim := e.inLen, func() *jen.Statement { return jen.Id(e.dimName()) }
	tile := []jen.Code{
		jen.Id("r").Op(":=").Min(jen.Lit(denseRows), jen.Id("rows").Op("-").Id("i0")),
		jen.Id("x").Op(":=").Id("src").Index(jen.Id("i0").Op("*").Add(in()).Op(":").Parens(jen.Id("i0").Op("+").Id("r")).Op("*").Add(in())),
		jen.Id("d").Op(":=").Id("dst").Index(jen.Id("i0").Op("*").Add(dim()).Op(":").Parens(jen.Id("i0").Op("+").Id("r")).Op("*").Add(dim())),
	}
	for g := range bp.subs {
		b := &bp.b.Parts[g]
		tile = append(tile, jen.Id(bp.rowsName(g, is32)).Call(
			jen.Id("d").Index(jen.Add(integer(bp.offsets[g])).Op(":")), jen.Id("x").Index(jen.Add(integer(b.First)).Op(":")), jen.Id("r")))
	}
	return append(body,
		jen.Id("rows").Op(":=").Len(jen.Id("src")).Op("/").Add(in()),
		jen.For(jen.Id("i0").Op(":=").Lit(0), jen.Id("i0").Op("<").Id("rows"), jen.Id("i0").Op("+=").Lit(denseRows)).Block(tile...),
	)
}

// blockEvaluation describes how block g is evaluated, for its function's
// doc comment.
func (bp *blocksKind) blockEvaluation(se *emitter, g int) string {
	rk := bp.kinds[g]
	switch bp.paths[g] {
	case blockDense:
		return fmt.Sprintf("the phases by featmapDenseMul64 (the one-row kernels), the features by featmapDense%s64 scaled by s_%d·c = %s; an input coordinate beyond ±%s is taken as ±%s (limit.go), a non-finite one gives zeros.",
			trigName(rk), g, num(rk.featScale()), num(rk.denseLimit()), num(rk.denseLimit()))
	case blockStaged:
		return fmt.Sprintf("t by %s, the phases by featmapDenseMul64 (the one-row kernels), the features by featmapDense%s64 scaled by s_%d·c = %s; zeros where %s refuses t.",
			se.targsName(), trigName(rk), g, num(rk.featScale()), se.targsName())
	}
	return rk.evaluationLines(se)[0] + fmt.Sprintf(" Then every component is multiplied by s_%d = %s.", g, num(bp.b.Parts[g].Scale))
}

// trigName is CosSin or Cos, the features' function of a random map.
func trigName(rk *randomKind) string {
	if rk.r.Features == fmap.Phase {
		return "Cos"
	}
	return "CosSin"
}

// evaluationText is the header's Evaluation section of a blocks map.
func (bp *blocksKind) evaluationText(e *emitter) []string {
	p := e.p
	if !bp.anyDense() {
		return []string{
			fmt.Sprintf("Every block is a random-feature map of its own inputs, evaluated by its formula as featmap emits random features (nothing approximated: the dot products ωᵢ·t as partial sums, the sines and cosines by math.Sincos's own arithmetic), then its components are multiplied by the block's scale √d_g, as the reference evaluator does. %s allocates nothing.", p.name),
			fmt.Sprintf("%s and %s evaluate %s in float64 and round each component to float32.", e.name32(), e.slice32Name(), p.name),
		}
	}
	var dense, staged, rows []string
	for g, path := range bp.paths {
		s := fmt.Sprintf("%d", g)
		switch path {
		case blockDense:
			dense = append(dense, s)
		case blockStaged:
			staged = append(staged, s)
		default:
			rows = append(rows, s)
		}
	}
	var t string
	const prepared = "ψ of every input coordinate (exp-χ²) or log(max(x_j + c, 2⁻¹⁰²²)) (the skewed kernels), computed by the block's formula into a scratch, each value beyond ±L taken as ±L"
	switch {
	case len(staged) == 0:
		t = " t is the block's inputs themselves, each beyond ±L taken as ±L (limit.go); a block with a non-finite input gives zeros."
	case len(dense) == 0:
		t = " t is " + prepared + "; a block whose t is not finite gives zeros."
	default:
		t = fmt.Sprintf(" t is the block's inputs themselves for %s, each beyond ±L taken as ±L (limit.go), and for %s %s; a block with a non-finite input or t gives zeros.", strings.ToLower(blocksWord(dense)), strings.ToLower(blocksWord(staged)), prepared)
	}
	for g, rk := range bp.kinds {
		if bp.paths[g] == blockStaged && rk.wide() {
			t += fmt.Sprintf(" Block %d's t has %d values: %s.", g, rk.args, rk.wideText())
		}
	}
	who := "Every block's"
	if len(rows) > 0 {
		who = fmt.Sprintf("%s: each block's", blocksWord(append(dense, staged...)))
	}
	lines := []string{fmt.Sprintf("%s components are its random features, computed with: the phases ωᵢ·t as a product of the rows of t and the block's packed frequencies (featmapDenseMul64 of the package's featmap_dense*.go files: AVX-512 or AVX2+FMA assembly chosen by CPUID at init on amd64, register-tiled Go elsewhere), each phase one chain of fused multiply-adds over the block's values of t in their order; the cosine and sine of every phase ωᵢ·t (phase features: the cosine of ωᵢ·t + bᵢ) by featmapDenseCosSin64 (featmapDenseCos64), within 1 ulp of math.Cos and math.Sin (math.Sincos itself for NaN, ±Inf and |ωᵢ·t| ≥ 2²⁹), multiplied by s_g·c, the block's scale √d_g times its features' scale c, rounded once.%s The phases differ from the reference evaluator's by the rounding of the sums, the cosines and sines by at most 1 ulp more, and each component by one rounding more (the reference multiplies by c, then by s_g; docs/gen.md).",
		who, t)}
	if len(rows) > 0 {
		lines = append(lines, fmt.Sprintf("%s: each block is evaluated by its formula as featmap emits random features (the dot products ωᵢ·t as partial sums, the sines and cosines by math.Sincos's own arithmetic), then multiplied by the block's scale √d_g, as the reference evaluator does.", blocksWord(rows)))
	}
	lines = append(lines, fmt.Sprintf("%s computes tiles of %d rows at a time, block after block (the block's columns of the tile read in place, its components written in place), %s one row by the one-row kernels: every component is the same arithmetic, so %s equals %s row by row bit for bit; a block of a row with a coordinate beyond ±L or not finite, or whose t is not finite, is that block's one-row function's. %s allocates nothing.",
		e.sliceName(), denseRows, p.name, e.sliceName(), p.name, p.name))
	return append(lines, bp.blocks32Line(e))
}

// blocksWord is "Block 0" or "Blocks 0 and 2".
func blocksWord(gs []string) string {
	if len(gs) == 1 {
		return "Block " + gs[0]
	}
	return "Blocks " + joinList(gs)
}

// joinList is "0", "0 and 1", "0, 1 and 2".
func joinList(s []string) string {
	switch len(s) {
	case 0:
		return ""
	case 1:
		return s[0]
	}
	out := s[0]
	for _, v := range s[1 : len(s)-1] {
		out += ", " + v
	}
	return out + " and " + s[len(s)-1]
}

// blocks32Line describes the float32 functions of a blocks map with a
// dense block.
func (bp *blocksKind) blocks32Line(e *emitter) string {
	if !bp.f32 {
		s := fmt.Sprintf("%s and %s evaluate the same way in float64 and round each component to float32", e.name32(), e.slice32Name())
		if e.tiled32() {
			return s + fmt.Sprintf(" (%s converts tiles of %d rows to float64 for %s).", e.slice32Name(), denseRows, e.sliceName())
		}
		return s + "."
	}
	return fmt.Sprintf("%s and %s compute in float32: every block's phases by featmapDenseMul32 with its frequencies rounded to float32, the cosines and sines by the float32 functions (within 2⁻²³ of the exact ones of the float32 phase), multiplied by s_g·c rounded to float32, so each component of frequency i of block g is within s_g·c·(2⁻²³ + (n_g + 2)·2⁻²⁴·Σⱼ|ωᵢⱼxⱼ|) (phase features: Σⱼ|ωᵢⱼxⱼ| + |bᵢ|) + 2⁻²⁴·|Ψᵢ| of the float64 value at the float32 input, n_g the block's inputs; %s. A block of a row with a coordinate beyond its ±L32 (the block's header line states it) or not finite is evaluated in float64 and rounded. %s equals %s row by row bit for bit.",
		e.name32(), e.slice32Name(), measured32Words(bp.err32, bp.kern32), e.slice32Name(), e.name32())
}
