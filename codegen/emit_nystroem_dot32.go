package codegen

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/dense"
)

// The float32 evaluation of a dense Nyström map of the polynomial kernel:
// the float64 sequence (emit_nystroem_dense.go) on the float32 input
// itself, the landmarks and the projection rounded to float32 (packed at
// init), the scale and offset rounded to float32, and the float32 kernels
// featmapDenseMul32, featmapDensePoly32 and featmapDenseMul32, where the
// error that adds to the kernel (measured at generation time, dot32Plan)
// stays within the budget of the map's fast paths; rows with some |x_i|
// beyond L32 or not finite are the float64 evaluation rounded.

// dot32Limit is L32, the largest |x_i| the float32 path takes: every base
// s·x·l_j + c within 2^{100/degree} and every Σᵢ|xᵢl_ji| within 2¹⁰⁰, far
// from float32's overflow. Zero when L32 would not hold the landmarks, or
// when the scale or the offset is not a normal float32 (or zero).
func (q *nystroemKind) dot32Limit() float64 {
	k := q.s.Kernel
	normal := func(v float64) bool {
		return v == 0 || math.Abs(v) >= 0x1p-126 && math.Abs(v) <= math.MaxFloat32
	}
	if !normal(k.Scale) || !normal(k.Offset) {
		return 0
	}
	maxL1, maxAbs := q.landmarkNorms()
	room := math.Pow(2, 100/float64(max(k.Degree, 1))) - math.Abs(k.Offset)
	lim := q.limit
	if maxL1 > 0 {
		lim = math.Min(lim, 0x1p100/maxL1)
	}
	if d := math.Abs(k.Scale) * maxL1; d > 0 {
		lim = math.Min(lim, room/d)
	}
	lim = float64(float32(lim))
	if !(lim > maxAbs) || !(room > 0) || math.IsInf(lim, 0) {
		return 0
	}
	return lim
}

// dot32Prep is the emitted Prep32 at generation time: t = x; false
// beyond L32 or not finite.
func dot32Prep(t, x []float32, lim float64) bool {
	for i, a := range x {
		if !(math.Abs(float64(a)) <= lim) {
			return false
		}
		t[i] = a
	}
	return true
}

// dot32Plan measures the float32 path on dense32Points seeded points of
// the domain's box (dense32Measure; a row Prep32 leaves is the float64
// value rounded) and takes it when the kernel error is within the budget.
func (q *nystroemKind) dot32Plan(p *plan) {
	lim := q.dot32Limit()
	if lim == 0 {
		return
	}
	k := q.s.Kernel
	lp := make([]float32, dense.Packed32(q.m, q.n))
	dense.Pack32(lp, q.s.Landmarks, q.m, q.n)
	pp := make([]float32, dense.Packed32(q.dim, q.m))
	dense.Pack32(pp, q.s.Proj, q.dim, q.m)
	t := make([]float32, q.n)
	q.take32(p, lim, func(o32, x32 []float32) bool {
		ok := dot32Prep(t, x32, lim)
		if ok {
			dense.Poly32(o32, t, lp, pp, q.m, q.n, len(o32), float32(k.Scale), float32(k.Offset), k.Degree)
		}
		return ok
	})
}

// dot32Helpers emits the float32 constants, packed at init, the float32
// row preparation and the float64 evaluation rounded for the rows the
// float32 path leaves.
func (q *nystroemKind) dot32Helpers(e *emitter, f *jen.File) {
	in := func() *jen.Statement { return jen.Id(e.inName()) }
	size := func() *jen.Statement { return jen.Id(e.sizeName()) }
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s and %s are the landmarks and the projection rounded to float32 and packed for featmapDenseMul32 (panels of 32). Computed at init.",
		e.lp32Name(), e.pp32Name()))))
	f.Var().Defs(
		jen.Id(e.lp32Name()).Index(integer(dense.Packed32(q.m, q.n))).Float32(),
		jen.Id(e.pp32Name()).Index(integer(dense.Packed32(q.dim, q.m))).Float32(),
	)
	f.Line()
	f.Func().Id("init").Params().Block(
		jen.Id("featmapDensePack32").Call(jen.Id(e.lp32Name()).Index(jen.Op(":")), jen.Id(e.landName()).Index(jen.Op(":")), size(), in()),
		jen.Id("featmapDensePack32").Call(jen.Id(e.pp32Name()).Index(jen.Op(":")), jen.Id(e.projName()).Index(jen.Op(":")), jen.Id(e.dimName()), size()),
	)
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s sets t = x and reports true, or false if some |x_i| is beyond %s or not finite (the rows %s leaves to %s).",
		e.prep32Name(), num(q.limit32), e.name32(), e.round32Name()))))
	f.Func().Id(e.prep32Name()).Params(jen.List(jen.Id("t"), jen.Id("x")).Op("*").Index(in()).Float32()).Bool().Block(
		jen.For(jen.List(jen.Id("i"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
			jen.If(jen.Op("!").Parens(jen.Qual("math", "Abs").Call(jen.Float64().Call(jen.Id("a"))).Op("<=").Add(e.lit.f64(q.limit32)))).Block(jen.Return(jen.False())),
			jen.Id("t").Index(jen.Id("i")).Op("=").Id("a"),
		),
		jen.Return(jen.True()),
	)
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s is %s of the input converted to float64, each component rounded to float32: %s of the rows %s leaves.",
		e.round32Name(), e.p.name, e.name32(), e.prep32Name()))))
	f.Func().Id(e.round32Name()).Params(e.params(jen.Float32)...).Block(e.linear32Body()...)
}

// poly32Lines describes the polynomial kernel's float32 path in the
// header.
func (q *nystroemKind) poly32Lines(e *emitter) string {
	k := q.s.Kernel
	return fmt.Sprintf("%s and %s compute in float32: the products g_j = x·l_j of the float32 input and the landmarks rounded to float32 by featmapDenseMul32, the kernel values (s·g_j + c)^%d by featmapDensePoly32 with s and c rounded to float32 (the base's product and sum each rounded, then %d multiplications in order), the projection rounded to float32 by featmapDenseMul32. Each kernel value is within d·(|b_j| + δ_j)^{d−1}·δ_j + γ_{d−1}·(|b_j| + δ_j)^d + d·2⁻¹⁴⁹ of the exact K(x, l_j) = b_j^d at the float32 input, d = %d, b_j = s·x·l_j + c, δ_j = |s|·γ_{n+4}·Σᵢ|xᵢl_ji| + γ₃·(|s·x·l_j| + |c|) + (n + 3)·2⁻¹⁴⁹ with γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴)",
		e.name32(), e.slice32Name(), k.Degree, k.Degree-1, k.Degree) + q.nys32Tail(e, "|K_j|", "|xᵢ|")
}
