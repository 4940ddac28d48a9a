package codegen

import (
	"fmt"
	"math"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/dense"
)

// The float32 evaluation of a dense Nyström map of a distance form (the
// Laplacian kernel's L1 distances, the Matérn kernel's squared ones): the
// float64 sequence (emit_nystroem_dense.go) with t = (x − c)/σ computed in
// float64 and rounded to float32, the scaled landmarks and the projection
// rounded to float32 (packed at init), and the float32 kernels
// featmapDenseNegL1Dist32 and featmapDenseExp32, or
// featmapDenseNegSqDist32 and featmapDenseMatern32, then featmapDenseMul32,
// where the error that adds to the kernel (measured at generation time,
// dist32Plan) stays within the budget of the map's fast paths; rows with
// some |x_i − c_i| beyond L32 or not finite are the float64 evaluation
// rounded. The Matérn kernel's float32 path takes the squared distances
// for every ν, also where its float64 path forms d² from its parts.

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
	nu := q.s.Kernel.Nu
	q.take32(p, lim, func(o32, x32 []float32) bool {
		ok := q.dist32Prep(t, x32, lim)
		switch {
		case !ok:
		case q.dform.prod32 == nysL1:
			dense.Laplacian32(o32, t, lp, pp, q.m, q.n, len(o32))
		default:
			dense.Matern32(o32, t, lp, pp, q.m, q.n, len(o32), nu)
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

// lap32Lines describes the Laplacian kernel's float32 path in the header.
func (q *nystroemKind) lap32Lines(e *emitter) string {
	return fmt.Sprintf("%s and %s compute in float32: t = (x − c)/σ in float64, rounded to float32, minus the L1 distances to the scaled landmarks rounded to float32 by featmapDenseNegL1Dist32, the kernel values by featmapDenseExp32, the projection rounded to float32 by featmapDenseMul32. Each kernel value is within e^{−(s−ε)}·(ε + 2⁻²³) + 2⁻¹⁴⁹ of the exact K(x, l_j) = e^{−s} at the float32 input, ε = γ_{n+3}·(s + Σᵢ(|tᵢ| + |l'_ji|)) with γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴), and each component within Σ_j |P_kj|·(that bound) + γ_{m+2}·Σ_j |P_kj|·K_j + 2⁻¹⁴⁹ of P·k; measured on %d seeded points of the domain: components within %.2g, kernel values Ψ(x)·Ψ(y) within %.2g of the float64 map's (the float32 path is taken because that is within 10⁻³ of the map's L∞ error). A row with some |xᵢ − cᵢ| beyond %s or not finite is evaluated in float64 and rounded. %s equals %s row by row bit for bit.",
		e.name32(), e.slice32Name(), dense32Points, q.err32, q.kern32, num(q.limit32), e.slice32Name(), e.name32())
}

// matern32Lines describes the Matérn kernel's float32 path in the header.
func (q *nystroemKind) matern32Lines(e *emitter) string {
	nu := q.s.Kernel.Nu
	value := "e^{−(r−ε)}·(ε + 2⁻²³) + 2⁻¹⁴⁹ of the exact K(x, l_j) = e^{−r} at the float32 input, r = ‖(x − l_j)/σ‖, ε = γ_{n+5}·(r + (Σᵢ(|tᵢ| + |l'_ji|)²)^{1/2}) + 2⁻⁷⁰"
	if nu != 0.5 {
		slope, c := "√3/e", "√3"
		if nu == 2.5 {
			slope, c = "0.63", "√5"
		}
		value = fmt.Sprintf("(2/3)·ε + 2⁻²⁰ of the exact K(x, l_j) at the float32 input, r = ‖(x − l_j)/σ‖, ε = γ_{n+7}·(r + (Σᵢ(|tᵢ| + |l'_ji|)²)^{1/2}) + 2⁻⁷⁰ (%s·ε bounds the error of the computed a = %s·r, %s rounded to float32; the kernel's slope in r is at most %s)", c, c, c, slope)
	}
	return fmt.Sprintf("%s and %s compute in float32: t = (x − c)/σ in float64, rounded to float32, minus the squared distances to the scaled landmarks rounded to float32 by featmapDenseNegSqDist32 (each difference formed before it is squared, for every ν), the kernel values %s of r = √d² by featmapDenseMatern32 (the square root correctly rounded, e^{−a} by featmapDenseExp32), the projection rounded to float32 by featmapDenseMul32. Each kernel value is within %s, with γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴), and each component within Σ_j |P_kj|·(that bound) + γ_{m+2}·Σ_j |P_kj|·K_j + 2⁻¹⁴⁹ of P·k; measured on %d seeded points of the domain: components within %.2g, kernel values Ψ(x)·Ψ(y) within %.2g of the float64 map's (the float32 path is taken because that is within 10⁻³ of the map's L∞ error). A row with some |xᵢ − cᵢ| beyond %s or not finite is evaluated in float64 and rounded. %s equals %s row by row bit for bit.",
		e.name32(), e.slice32Name(), maternText(nu), value, dense32Points, q.err32, q.kern32, num(q.limit32), e.slice32Name(), e.name32())
}
