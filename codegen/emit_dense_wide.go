package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// The dense evaluation of a staged map (or a staged block of a blocks
// map) whose argument t has more than stagedMaxArgs values: t is computed
// chunk by chunk of input coordinates — at most stagedMaxArgs values of t
// each, into the same scratch — and every chunk's product with the packed
// frequencies' columns of that chunk is added to the phases (acc after the
// first chunk). featmapDenseMul64 continues each element's chain of fused
// multiply-adds exactly, so the phases are those of one product over all
// of t, bit for bit. The phases of every frequency are kept where the
// features go: the row's own components (cos-sin: from the m-th on, read
// chunk by chunk of denseCols into ph before the cosines and sines
// overwrite the components) or, before an rf-pca projection, the phase
// scratch, which holds every frequency when there is one chunk of them
// (with more, the map keeps the row path: t would be computed once per
// chunk of frequencies). N is the same sequence on one row.

// perCoord is the number of values of t per input coordinate: the
// per-coordinate map's dimension, or 1.
func (k *randomKind) perCoord() int {
	if k.inner != nil {
		return k.inner.dim
	}
	return 1
}

// wide reports whether t is computed into a scratch and has more values
// than the scratch holds for a tile: the chunked evaluation's maps.
func (k *randomKind) wide() bool { return k.prepared() && k.args > stagedMaxArgs }

// wideOK reports whether a wide map can take the chunked evaluation: more
// than one input coordinate and a chunk of at least one coordinate's
// values, and before a projection one chunk of frequencies.
func (k *randomKind) wideOK() bool {
	per := k.perCoord()
	return k.wide() && k.args > per && per <= stagedMaxArgs && (k.lin == nil || k.freqs <= k.stagedCols())
}

// wideCoords is the number of input coordinates of a chunk of t, and
// wideArgs its values.
func (k *randomKind) wideCoords() int { return stagedMaxArgs / k.perCoord() }
func (k *randomKind) wideArgs() int   { return k.wideCoords() * k.perCoord() }

// wideHelper emits the args helper of a wide map: t of a chunk of input
// coordinates.
func (k *randomKind) wideHelper(e *emitter, f *jen.File, what string) {
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s sets t, the random features' argument of the chunk x of at most %d input coordinates (t has len(x)·%d values): %s. It returns false, t unfinished, if an input coordinate or a value of t is not finite (Ψ is then that of zero random features).",
		e.targsName(), k.wideCoords(), k.perCoord(), what))))
	f.Func().Id(e.targsName()).Params(jen.List(jen.Id("t"), jen.Id("x")).Index().Float64()).Bool().Block(k.argsBody(e)...)
}

// wideProducts is the loop over the chunks of input coordinates of a
// tile of r rows of x (rows stride apart; one: N's row x), the map's (or
// block's) e.inName() coordinates, that computes each
// chunk's t into the scratch t (of a tile: ok[i] false for a row whose t
// was refused; of one row: zero, the statements that end N) and adds its
// product with the packed frequencies' columns of the chunk to the phases
// c, ldc apart, cols of them.
func (k *randomKind) wideProducts(e *emitter, one bool, stride jen.Code, zero []jen.Code, c, ldc, cols jen.Code) []jen.Code {
	in := func() *jen.Statement { return jen.Id(e.inName()) }
	cw, per := k.wideCoords(), k.perCoord()
	kb := jen.Id("jb")
	if per > 1 {
		kb = jen.Id("jb").Op("*").Lit(per)
	}
	// xs is the chunk's input coordinates of row i (nil: the one row).
	xs := func(i jen.Code) *jen.Statement {
		base := func() *jen.Statement { return jen.Id("j0") }
		if i != nil {
			base = func() *jen.Statement { return jen.Add(i).Op("*").Add(stride).Op("+").Id("j0") }
		}
		return jen.Id("x").Index(base().Op(":").Add(base()).Op("+").Id("jb"))
	}
	rows := jen.Id("r")
	body := []jen.Code{
		jen.Id("jb").Op(":=").Min(jen.Lit(cw), in().Op("-").Id("j0")),
		jen.Id("kb").Op(":=").Add(kb),
	}
	if one {
		rows = jen.Lit(1)
		body = append(body, jen.If(jen.Op("!").Id(e.targsName()).Call(jen.Id("t").Index(jen.Op(":").Id("kb")), xs(nil))).Block(zero...))
	} else {
		body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("r")).Block(
			jen.Id("ok").Index(jen.Id("i")).Op("=").Parens(jen.Id("j0").Op("==").Lit(0).Op("||").Id("ok").Index(jen.Id("i"))).Op("&&").Id(e.targsName()).Call(
				jen.Id("t").Index(jen.Id("i").Op("*").Id("kb").Op(":").Parens(jen.Id("i").Op("+").Lit(1)).Op("*").Id("kb")), xs(jen.Id("i"))),
		))
	}
	body = append(body, jen.Id("featmapDenseMul64").Call(c, ldc, jen.Id("t").Index(jen.Op(":")), jen.Id("kb"),
		jen.Id(e.packedName()).Index(jen.Id("j0").Op("*").Lit(16*per).Op(":")), jen.Lit(16).Op("*").Id(e.argsName()),
		rows, jen.Id("kb"), cols, jen.Id("j0").Op(">").Lit(0)))
	return []jen.Code{jen.For(jen.Id("j0").Op(":=").Lit(0), jen.Id("j0").Op("<").Add(in()), jen.Id("j0").Op("+=").Lit(cw)).Block(body...)}
}

// sumExpr is the sum of the non-nil terms, nil without one.
func sumExpr(terms ...jen.Code) *jen.Statement {
	var s *jen.Statement
	for _, t := range terms {
		switch {
		case t == nil:
		case s == nil:
			s = jen.Add(t)
		default:
			s = s.Op("+").Add(t)
		}
	}
	return s
}

// from is the slice of v from the sum of the terms on.
func from(v string, terms ...jen.Code) *jen.Statement {
	if s := sumExpr(terms...); s != nil {
		return jen.Id(v).Index(s.Op(":"))
	}
	return jen.Id(v).Index(jen.Op(":"))
}

// widePhaseAt is where a wide map without a projection keeps the phases
// in its components: from the m-th on for cos-sin features (the second
// half), from the first for phase features (nil).
func (k *randomKind) widePhaseAt(e *emitter) jen.Code {
	if k.r.Features == fmap.CosSin {
		return jen.Id(e.freqsName())
	}
	return nil
}

// wideFeatures is the features of a wide map without a projection, the
// phases in dst's rows (ldd apart; one: N's out) from widePhaseAt on:
// chunk by chunk of denseCols frequencies, each row's phases of the chunk
// copied to ph, then its cosines and sines (or cosines) into the chunk's
// components.
func (k *randomKind) wideFeatures(e *emitter, one bool, dst string, ldd jen.Code) []jen.Code {
	loop, c0, cb := e.freqChunks(k.freqs, denseCols)
	scale := e.lit.f64(k.featScale())
	var chunk, chunk2 jen.Code
	if loop {
		chunk, chunk2 = jen.Id("c0"), jen.Lit(2).Op("*").Id("c0")
	}
	elem := func(i jen.Code) []jen.Code {
		var row jen.Code
		if i != nil {
			row = jen.Add(i).Op("*").Add(ldd)
		}
		ph := func() *jen.Statement { return jen.Id("ph").Index(jen.Op(":").Add(cb())) }
		s := []jen.Code{jen.Copy(ph(), from(dst, row, k.widePhaseAt(e), chunk))}
		if k.r.Features == fmap.Phase {
			return append(s, jen.Id("featmapDenseCos64").Call(from(dst, row, chunk), ph(), jen.Id(e.bName()).Index(c0().Op(":")), scale))
		}
		return append(s, jen.Id("featmapDenseCosSin64").Call(from(dst, row, chunk2), ph(), scale))
	}
	var body []jen.Code
	if one {
		body = elem(nil)
	} else {
		body = []jen.Code{jen.For(jen.Id("i").Op(":=").Range().Id("r")).Block(elem(jen.Id("i"))...)}
	}
	if !loop {
		return body
	}
	return []jen.Code{jen.For(jen.Id("c0").Op(":=").Lit(0), jen.Id("c0").Op("<").Id(e.freqsName()), jen.Id("c0").Op("+=").Lit(denseCols)).Block(
		append([]jen.Code{jen.Id("cb").Op(":=").Min(jen.Lit(denseCols), jen.Id(e.freqsName()).Op("-").Id("c0"))}, body...)...,
	)}
}

// wideN is the body of N of a wide map: t chunk by chunk into a scratch
// of one chunk, the phases accumulated (in out, or in ph before a
// projection), then the features (and the projection).
func (k *randomKind) wideN(e *emitter) []jen.Code {
	m := func() *jen.Statement { return jen.Id(e.freqsName()) }
	body := []jen.Code{jen.Var().Id("t").Index(integer(k.wideArgs())).Float64()}
	if k.lin != nil {
		body = append(body, scratchDecl(k.stagedScratch(1, jen.Float64)))
		body = append(body, k.wideProducts(e, true, nil, k.stagedZero(e), jen.Id("ph").Index(jen.Op(":")), m(), m())...)
		return append(body, k.stagedChunks(e, false, jen.Lit(1), true, "out", "t")...)
	}
	body = append(body, jen.Var().Id("ph").Index(integer(min(k.freqs, denseCols))).Float64())
	body = append(body, k.wideProducts(e, true, nil, k.stagedZero(e), from("out", k.widePhaseAt(e)), m(), m())...)
	return append(body, k.wideFeatures(e, true, "out", nil)...)
}

// wideScratch declares a wide map's tile scratch: the phases (and the
// features before a projection), the chunk of t of every row, and which
// rows' t the args helper took.
func (k *randomKind) wideScratch() []jen.Code {
	s := []jen.Code{jen.Id("ph").Index(integer(min(k.freqs, denseCols))).Float64()}
	if k.lin != nil {
		s = k.stagedScratch(denseRows, jen.Float64)
	}
	return append(s, jen.Id("t").Index(integer(denseRows*k.wideArgs())).Float64(), jen.Id("ok").Index(integer(denseRows)).Bool())
}

// wideTile is the work of a tile of r rows of x (rows stride apart) of a
// wide map (or block) into d (rows ldd apart): the chunked products, then
// the features (and the projection); ok[i] is false for a row whose t was
// refused.
func (k *randomKind) wideTile(e *emitter, stride jen.Code, d string, ldd jen.Code) []jen.Code {
	m := func() *jen.Statement { return jen.Id(e.freqsName()) }
	if k.lin != nil {
		body := k.wideProducts(e, false, stride, nil, jen.Id("ph").Index(jen.Op(":")), m(), m())
		return append(body, k.stagedChunks(e, false, jen.Id("r"), false, d, "t")...)
	}
	body := k.wideProducts(e, false, stride, nil, from(d, k.widePhaseAt(e)), ldd, m())
	return append(body, k.wideFeatures(e, false, d, ldd)...)
}

// wideText describes the chunked products of a wide map (or block) in its
// header.
func (k *randomKind) wideText() string {
	where := "the components' second half"
	switch {
	case k.lin != nil:
		where = "a scratch"
	case k.r.Features == fmap.Phase:
		where = "the components"
	}
	return fmt.Sprintf("t computed chunk by chunk of %d input coordinates (%d values of t) into a scratch of one chunk, each chunk's product with its columns of the frequencies added to the phases (kept in %s until their cosines and sines are taken): each phase is still one chain over all %d values of t in their order, the bits of one product",
		k.wideCoords(), k.wideArgs(), where, k.args)
}
