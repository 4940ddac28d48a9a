package codegen

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/dense"
)

// The float32 evaluation of a dense Nyström map of a distance form, of
// L1 or of squared distances (the form's prod32; the forms are the
// kernels', kernels.go): the float64 sequence (emit_nystroem_dense.go)
// with t = (x − c)/σ computed in float64 and rounded to float32, the
// scaled landmarks and the projection rounded to float32 (packed at init),
// the float32 distances (featmapDenseNegL1Dist32 or
// featmapDenseNegSqDist32), the form's float32 kernel values (values32),
// then featmapDenseMul32, where the error that adds to the kernel
// (measured at generation time by the form's eval32, dist32Plan) stays
// within the budget of the map's fast paths; rows with some |x_i − c_i|
// beyond L32 or not finite are the float64 evaluation rounded. The squared
// distances are formed difference by difference, also where the float64
// path forms d² from its parts.

// dist32Limit is L32, the largest |x_i − c_i| the float32 path takes:
// every scaled coordinate within 2¹⁰⁰/n (L1 distances) or 2⁵⁰/√n (squared
// distances), so that the distances stay far from float32's overflow.
// Zero when L32 would not hold the landmarks' box.
func (q *nystroemKind) dist32Limit() float64 {
	k := q.s.Kernel
	minSigma, spread := math.Inf(1), 0.0
	for i := range q.n {
		minSigma = math.Min(minSigma, k.Sigma[i])
		for j := range q.m {
			spread = math.Max(spread, 2*math.Abs(q.s.Landmarks[j*q.n+i]-q.centre[i]))
		}
	}
	scaled := 0x1p100 / float64(q.n)
	if q.dform.prod32 == nysSq {
		scaled = 0x1p50 / math.Sqrt(float64(q.n))
	}
	lim := math.Min(q.limit, float64(float32(minSigma*scaled)))
	if !(lim > spread) || math.IsInf(lim, 0) {
		return 0
	}
	return lim
}

// dist32Prep is the emitted Prep32 at generation time: t = (x − c)/σ in
// float64, rounded to float32; false beyond L32 or not finite.
func (q *nystroemKind) dist32Prep(t, x []float32, lim float64) bool {
	for i, a := range x {
		v := float64(a) - q.centre[i]
		if !(math.Abs(v) <= lim) {
			return false
		}
		t[i] = float32(v / q.s.Kernel.Sigma[i])
	}
	return true
}

// dist32Scaled is the scaled landmarks (l_j − c)/σ, row-major, in float64.
func (q *nystroemKind) dist32Scaled() []float64 {
	w := make([]float64, q.m*q.n)
	for j := range q.m {
		for i := range q.n {
			w[j*q.n+i] = (q.s.Landmarks[j*q.n+i] - q.centre[i]) / q.s.Kernel.Sigma[i]
		}
	}
	return w
}

// dist32Plan measures the float32 path on dense32Points seeded points of
// the domain's box (dense32Measure; a row Prep32 leaves is the float64
// value rounded) and takes it when the kernel error is within the budget.
func (q *nystroemKind) dist32Plan(p *plan) {
	lim := q.dist32Limit()
	if lim == 0 {
		return
	}
	lp := make([]float32, dense.Packed32(q.m, q.n))
	dense.Pack32(lp, q.dist32Scaled(), q.m, q.n)
	pp := make([]float32, dense.Packed32(q.dim, q.m))
	dense.Pack32(pp, q.s.Proj, q.dim, q.m)
	t := make([]float32, q.n)
	q.take32(p, lim, func(o32, x32 []float32) bool {
		ok := q.dist32Prep(t, x32, lim)
		if ok {
			q.dform.eval32(o32, t, lp, pp, q.m, q.n, len(o32))
		}
		return ok
	})
}

// dist32Helpers emits the float32 constants, packed at init, the float32
// row preparation and the float64 evaluation rounded for the rows the
// float32 path leaves.
func (q *nystroemKind) dist32Helpers(e *emitter, f *jen.File) {
	in := func() *jen.Statement { return jen.Id(e.inName()) }
	size := func() *jen.Statement { return jen.Id(e.sizeName()) }
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s and %s are the scaled landmarks (l_j − c)/σ and the projection rounded to float32 and packed for %s and featmapDenseMul32 (panels of 32). Computed at init.",
		e.lp32Name(), e.pp32Name(), q.product32Name()))))
	f.Var().Defs(
		jen.Id(e.lp32Name()).Index(integer(dense.Packed32(q.m, q.n))).Float32(),
		jen.Id(e.pp32Name()).Index(integer(dense.Packed32(q.dim, q.m))).Float32(),
	)
	f.Line()
	f.Func().Id("init").Params().Block(append(e.nysScaled(),
		jen.Id("featmapDensePack32").Call(jen.Id(e.lp32Name()).Index(jen.Op(":")), jen.Id("w"), size(), in()),
		jen.Id("featmapDensePack32").Call(jen.Id(e.pp32Name()).Index(jen.Op(":")), jen.Id(e.projName()).Index(jen.Op(":")), jen.Id(e.dimName()), size()),
	)...)
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s sets t = (x − c)/σ (in float64, rounded to float32) and reports true, or false if some |x_i − c_i| is beyond %s or not finite (the rows %s leaves to %s).",
		e.prep32Name(), num(q.limit32), e.name32(), e.round32Name()))))
	f.Func().Id(e.prep32Name()).Params(jen.List(jen.Id("t"), jen.Id("x")).Op("*").Index(in()).Float32()).Bool().Block(
		jen.For(jen.List(jen.Id("i"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
			jen.Id("v").Op(":=").Float64().Call(jen.Id("a")).Op("-").Id(e.centreName()).Index(jen.Id("i")),
			jen.If(jen.Op("!").Parens(jen.Qual("math", "Abs").Call(jen.Id("v")).Op("<=").Add(e.lit.f64(q.limit32)))).Block(jen.Return(jen.False())),
			jen.Id("t").Index(jen.Id("i")).Op("=").Float32().Call(jen.Id("v").Op("/").Id(e.sigmaName()).Index(jen.Id("i"))),
		),
		jen.Return(jen.True()),
	)
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s is %s of the input converted to float64, each component rounded to float32: %s of the rows %s leaves.",
		e.round32Name(), e.p.name, e.name32(), e.prep32Name()))))
	f.Func().Id(e.round32Name()).Params(e.params(jen.Float32)...).Block(e.linear32Body()...)
}
