package codegen

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/dense"
)

// The float32 evaluation of a dense Nyström map (the other kernels' in
// emit_nystroem_dist32.go and emit_nystroem_dot32.go), the RBF kernel's:
// the same sequence as the float64 one (emit_nystroem_dense.go) with t = x − c
// rounded to float32, the scaled landmarks, their norms and the projection
// rounded to float32 (packed at init), and the float32 kernels
// featmapDenseMul32 and featmapDenseExpDist32, where the error that adds to
// the kernel (measured at generation time, nys32Plan) stays within the
// budget of the map's fast paths; rows with some |x_i − c_i| beyond L32 or
// not finite are the float64 evaluation rounded.

// Names of the float32 path's identifiers.
func (e *emitter) lp32Name() string   { return e.p.priv + "LandmarksPacked32" }
func (e *emitter) nl32Name() string   { return e.p.priv + "LandmarkNorms32" }
func (e *emitter) pp32Name() string   { return e.p.priv + "ProjPacked32" }
func (e *emitter) prep32Name() string { return e.p.priv + "Prep32" }

// nys32Limit is L32, the largest |x_i − c_i| the float32 path takes: every
// scaled square and product, and their sums over the n inputs, stay below
// 2¹⁰⁰, far from float32's overflow. Zero when L32 would not hold the
// landmarks' box (no float32 path).
func (q *nystroemKind) nys32Limit() float64 {
	maxS2, spread := 0.0, 0.0
	for i := range q.n {
		maxS2 = math.Max(maxS2, q.s2[i])
		for j := range q.m {
			spread = math.Max(spread, 2*math.Abs(q.s.Landmarks[j*q.n+i]-q.centre[i]))
		}
	}
	lim := math.Min(q.limit, float64(float32(math.Sqrt(0x1p100/(float64(q.n)*maxS2)))))
	if !(lim > spread) || math.IsInf(lim, 0) {
		return 0
	}
	return lim
}

// nys32Prep is the emitted Prep32 at generation time: t = x − c rounded
// to float32 and q = Σ s2_i·t_i² in float64, rounded; false beyond L32 or
// not finite.
func (q *nystroemKind) nys32Prep(t, x []float32, lim float64) (float32, bool) {
	s := 0.0
	for i, a := range x {
		v := float64(a) - q.centre[i]
		if !(math.Abs(v) <= lim) {
			return 0, false
		}
		t[i] = float32(v)
		s += q.s2[i] * v * v
	}
	return float32(s), true
}

// nys32Plan measures the float32 path on dense32Points seeded points of
// the domain's box (dense32Measure; a row Prep32 leaves is the float64
// value rounded) and takes it when the kernel error is within the budget.
// A domain without a finite box keeps the float64 evaluation rounded.
func (q *nystroemKind) nys32Plan(p *plan) {
	switch q.dform.prod32 {
	case nysL1, nysSq:
		q.dist32Plan(p)
		return
	case nysDot:
		q.dot32Plan(p)
		return
	}
	n := q.n
	lim := q.nys32Limit()
	if lim == 0 {
		return
	}
	w := make([]float64, q.m*n)
	nl := make([]float32, q.m)
	for j := range q.m {
		s := 0.0
		for i := range n {
			u := q.s.Landmarks[j*n+i] - q.centre[i]
			w[j*n+i] = 2 * q.s2[i] * u
			s += q.s2[i] * u * u
		}
		nl[j] = float32(s)
	}
	lp := make([]float32, dense.Packed32(q.m, n))
	dense.Pack32(lp, w, q.m, n)
	pp := make([]float32, dense.Packed32(q.dim, q.m))
	dense.Pack32(pp, q.s.Proj, q.dim, q.m)
	t := make([]float32, n)
	q.take32(p, lim, func(o32, x32 []float32) bool {
		qq, ok := q.nys32Prep(t, x32, lim)
		if ok {
			dense.Nystroem32(o32, t, qq, lp, nl, pp, q.m, n, len(o32))
		}
		return ok
	})
}

// take32 measures a float32 path, eval (false for a row it leaves, whose
// value is then the float64 value rounded), on dense32Points seeded points
// of the domain's box (dense32Measure) and takes it, with its limit lim,
// when the kernel error is within the budget.
func (q *nystroemKind) take32(p *plan, lim float64, eval func(o32, x32 []float32) bool) {
	worst, kern, ok := dense32Measure(p, func(o32, x32 []float32, ref []float64) {
		if eval(o32, x32) {
			return
		}
		for c, v := range ref {
			o32[c] = float32(v)
		}
	})
	if ok {
		q.measured32, q.err32, q.kern32, q.budget32 = true, worst, kern, p.budget
	}
	if ok && kern <= p.budget {
		q.f32, q.limit32 = true, lim
	}
}

// nys32Helpers emits the float32 constants, packed at init, the float32
// row preparation and the float64 evaluation rounded for the rows the
// float32 path leaves.
func (q *nystroemKind) nys32Helpers(e *emitter, f *jen.File) {
	if !q.f32 {
		return
	}
	switch q.dform.prod32 {
	case nysL1, nysSq:
		q.dist32Helpers(e, f)
		return
	case nysDot:
		q.dot32Helpers(e, f)
		return
	}
	in := func() *jen.Statement { return jen.Id(e.inName()) }
	size := func() *jen.Statement { return jen.Id(e.sizeName()) }
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s, %s and %s are %s, %s and %s rounded to float32 and packed for featmapDenseMul32 (panels of 32). Computed at init.",
		e.lp32Name(), e.nl32Name(), e.pp32Name(), e.lpName(), e.nlName(), e.ppName()))))
	f.Var().Defs(
		jen.Id(e.lp32Name()).Index(integer(dense.Packed32(q.m, q.n))).Float32(),
		jen.Id(e.nl32Name()).Index(size()).Float32(),
		jen.Id(e.pp32Name()).Index(integer(dense.Packed32(q.dim, q.m))).Float32(),
	)
	f.Line()
	f.Func().Id("init").Params().Block(
		jen.Id("w").Op(":=").Make(jen.Index().Float64(), size().Op("*").Add(in())),
		jen.For(jen.Id("j").Op(":=").Range().Add(size())).Block(
			jen.For(jen.Id("i").Op(":=").Range().Add(in())).Block(
				jen.Id("w").Index(jen.Id("j").Op("*").Add(in()).Op("+").Id("i")).Op("=").Lit(2).Op("*").Id(e.s2Name()).Index(jen.Id("i")).Op("*").Parens(
					jen.Id(e.landName()).Index(jen.Id("j").Op("*").Add(in()).Op("+").Id("i")).Op("-").Id(e.centreName()).Index(jen.Id("i"))),
			),
			jen.Id(e.nl32Name()).Index(jen.Id("j")).Op("=").Float32().Call(jen.Id(e.nlName()).Index(jen.Id("j"))),
		),
		jen.Id("featmapDensePack32").Call(jen.Id(e.lp32Name()).Index(jen.Op(":")), jen.Id("w"), size(), in()),
		jen.Id("featmapDensePack32").Call(jen.Id(e.pp32Name()).Index(jen.Op(":")), jen.Id(e.projName()).Index(jen.Op(":")), jen.Id(e.dimName()), size()),
	)
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s sets t = x − c (in float64, rounded to float32) and returns q = Σ s2_i·t_i² (in float64, rounded), or false if some |x_i − c_i| is beyond %s or not finite (the rows %s leaves to %s).",
		e.prep32Name(), num(q.limit32), e.name32(), e.round32Name()))))
	f.Func().Id(e.prep32Name()).Params(jen.List(jen.Id("t"), jen.Id("x")).Op("*").Index(in()).Float32()).Params(jen.Id("q").Float32(), jen.Id("ok").Bool()).Block(
		jen.Id("s").Op(":=").Lit(0.0),
		jen.For(jen.List(jen.Id("i"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
			jen.Id("v").Op(":=").Float64().Call(jen.Id("a")).Op("-").Id(e.centreName()).Index(jen.Id("i")),
			jen.If(jen.Op("!").Parens(jen.Qual("math", "Abs").Call(jen.Id("v")).Op("<=").Add(e.lit.f64(q.limit32)))).Block(jen.Return(jen.Lit(0), jen.False())),
			jen.Id("t").Index(jen.Id("i")).Op("=").Float32().Call(jen.Id("v")),
			jen.Id("s").Op("+=").Id(e.s2Name()).Index(jen.Id("i")).Op("*").Id("v").Op("*").Id("v"),
		),
		jen.Return(jen.Float32().Call(jen.Id("s")), jen.True()),
	)
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s is %s of the input converted to float64, each component rounded to float32: %s of the rows %s leaves.",
		e.round32Name(), e.p.name, e.name32(), e.prep32Name()))))
	f.Func().Id(e.round32Name()).Params(e.params(jen.Float32)...).Block(e.linear32Body()...)
}

// dense32N is the body of NF32 of a dense Nyström map on the float32 path.
func (q *nystroemKind) dense32N(e *emitter) []jen.Code {
	body := []jen.Code{
		jen.Var().Id("t").Index(jen.Id(e.inName())).Float32(),
		q.prepCall(true, jen.Id("q"), jen.Id("ok"), true, jen.Op("&").Id("t"), jen.Id("x"), e.prep32Name()),
		jen.If(jen.Op("!").Id("ok")).Block(jen.Id(e.round32Name()).Call(jen.Id("out"), jen.Id("x")), jen.Return()),
		jen.Var().Id("kv").Index(integer(min(q.m, denseCols))).Float32(),
	}
	return append(body, q.nysChunks(e, true, jen.Lit(1), true, jen.Id("out").Index(jen.Op(":")))...)
}

// nys32Lines describes the float32 path in the header.
func (q *nystroemKind) nys32Lines(e *emitter) string {
	if !q.f32 {
		s := fmt.Sprintf("%s and %s convert the input to float64, evaluate as %s and round each component to float32", e.name32(), e.slice32Name(), e.p.name)
		if q.tiles32(e) {
			s += fmt.Sprintf(" (%s converts tiles of %d rows to float64 for %s)", e.slice32Name(), denseRows, e.sliceName())
		}
		if q.measured32 {
			s += fmt.Sprintf(": gen measured the float32 evaluation on %d seeded points of the domain, kernel values Ψ(x)·Ψ(y) within %.2g of the float64 map's, beyond the budget %.2g (10⁻³ of the map's L∞ error)", dense32Points, q.kern32, q.budget32)
		}
		return s + "."
	}
	return q.dform.lines32(q, e)
}

// nys32Tail ends the header words of a dense Nyström map's float32 path:
// each component's bound (kj: the kernel values' magnitudes in it), the
// measurement, the rows left to the float64 evaluation (coord: what L32
// bounds) and NSliceF32's agreement with NF32.
func (q *nystroemKind) nys32Tail(e *emitter, kj, coord string) string {
	return fmt.Sprintf(", and each component within Σ_j |P_kj|·(that bound) + γ_{m+2}·Σ_j |P_kj|·%s + 2⁻¹⁴⁹ of P·k; %s. A row with some %s beyond %s or not finite is evaluated in float64 and rounded. %s equals %s row by row bit for bit.",
		kj, measured32Words(q.err32, q.kern32), coord, num(q.limit32), e.slice32Name(), e.name32())
}

// tiles32 reports whether NSliceF32 of a dense Nyström map off the
// float32 path converts tiles of rows to float64 for NSlice.
func (q *nystroemKind) tiles32(e *emitter) bool { return !q.f32 && e.tiled32() }
