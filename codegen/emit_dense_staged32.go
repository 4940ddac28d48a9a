package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/dense"
	"github.com/featmap/featmap/fmap"
)

// The float32 evaluation of a dense rf-pca map of the input itself: the
// float32 phases and features of an rff map's float32 path
// (emit_dense32.go), the mean rounded to float32 subtracted, and the
// product with the projection rounded to float32 (packed at init), where
// the error that adds to the kernel (measured at generation time,
// staged32Plan) stays within the budget of the map's fast paths; rows
// beyond ±L32 or not finite are the float64 evaluation rounded.

// Names of the float32 path's identifiers.
func (e *emitter) mean32Name() string       { return e.p.priv + "Mean32" }
func (e *emitter) projPacked32Name() string { return e.p.priv + "ProjPacked32" }

// staged32Plan measures the float32 path of an rf-pca map on
// dense32Points seeded points of the domain's box (dense32Measure) and
// takes it when the kernel error is within the budget.
func (k *randomKind) staged32Plan(p *plan) {
	n, f, d := k.args, k.lin.In, k.lin.Dim()
	packed, b32 := k.freqs32()
	mu32 := make([]float32, f)
	for j, v := range k.lin.Mean {
		mu32[j] = float32(v)
	}
	pp := make([]float32, dense.Packed32(d, f))
	dense.Pack32(pp, k.lin.Proj, d, f)
	z := make([]float32, f)
	worst, kern, ok := dense32Measure(p, func(o32, x32 []float32, _ []float64) {
		dense.Features32(z, x32, packed, b32, k.freqs, n, float32(k.scale))
		for j := range z {
			z[j] -= mu32[j]
		}
		dense.Project32(o32, z, pp, f, d)
	})
	if ok && kern <= p.budget {
		k.f32, k.err32, k.kern32 = true, worst, kern
	}
}

// staged32Helpers emits the float32 mean and projection of an rf-pca map
// on the float32 path (its frequencies, phases and the float64 evaluation
// rounded are dense32Helpers').
func (k *randomKind) staged32Helpers(e *emitter, f *jen.File) {
	if !k.f32 || !k.staged() {
		return
	}
	dim, feats := func() *jen.Statement { return jen.Id(e.dimName()) }, func() *jen.Statement { return jen.Id(e.featsName()) }
	var init []jen.Code
	if k.centred() {
		f.Line()
		f.Comment(fmt.Sprintf("%s holds the mean %s rounded to float32. Set at init.", e.mean32Name(), e.meanName()))
		f.Var().Id(e.mean32Name()).Index(feats()).Float32()
		init = append(init, jen.For(jen.List(jen.Id("j"), jen.Id("v")).Op(":=").Range().Id(e.meanName())).Block(
			jen.Id(e.mean32Name()).Index(jen.Id("j")).Op("=").Float32().Call(jen.Id("v"))))
	}
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s holds the projection P rounded to float32 and packed for featmapDenseMul32 (panels of 32 outputs). Packed at init from %s.",
		e.projPacked32Name(), e.projName()))))
	f.Var().Id(e.projPacked32Name()).Index(integer(dense.Packed32(k.lin.Dim(), k.lin.In))).Float32()
	init = append(init,
		jen.Id("w").Op(":=").Make(jen.Index().Float64(), dim().Op("*").Add(feats())),
		jen.For(jen.Id("j").Op(":=").Range().Add(feats())).Block(
			jen.For(jen.Id("i").Op(":=").Range().Add(dim())).Block(
				jen.Id("w").Index(jen.Id("i").Op("*").Add(feats()).Op("+").Id("j")).Op("=").Id(e.projName()).Index(jen.Id("j").Op("*").Add(dim()).Op("+").Id("i")),
			),
		),
		jen.Id("featmapDensePack32").Call(jen.Id(e.projPacked32Name()).Index(jen.Op(":")), jen.Id("w"), dim(), feats()),
	)
	f.Line()
	f.Func().Id("init").Params().Block(init...)
}

// staged32N is the body of NF32 of an rf-pca map on the float32 path.
func (k *randomKind) staged32N(e *emitter) []jen.Code {
	var body []jen.Code
	if e.p.in == 1 {
		body = append(body, jen.Id("t").Op(":=").Index(integer(1)).Float32().Values(jen.Id("x")))
	} else {
		body = append(body, jen.Id("t").Op(":=").Id("x"))
	}
	body = append(body,
		jen.If(jen.Id("featmapDenseBeyond32").Call(jen.Id("t").Index(jen.Op(":")), e.lit.f32(float32(k.limit32())))).Block(
			jen.Id(e.round32Name()).Call(jen.Id("out"), jen.Id("x")), jen.Return()),
		jen.Id("a").Op(":=").Id("t").Index(jen.Op(":")),
		scratchDecl(k.stagedScratch(1, jen.Float32)),
	)
	return append(body, k.stagedChunks(e, true, jen.Lit(1), true, "out", "a")...)
}

// staged32Lines describes a staged map's float32 functions in the header.
func (k *randomKind) staged32Lines(e *emitter) string {
	if !k.f32 {
		s := fmt.Sprintf("%s and %s evaluate the same way in float64 and round each component to float32", e.name32(), e.slice32Name())
		if k.tiled32(e) {
			return s + fmt.Sprintf(" (%s converts tiles of %d rows to float64 for %s).", e.slice32Name(), denseRows, e.sliceName())
		}
		return s + "."
	}
	s := "Σₗ|ωᵢₗxₗ|"
	if k.r.Features == fmap.Phase {
		s = "(Σₗ|ωᵢₗxₗ| + |bᵢ|)"
	}
	mu, zmu, eps := "", "z_j", "ε_j"
	if k.centred() {
		mu, zmu, eps = ", the mean rounded to float32 subtracted", "z_j − μ_j", "(ε_j + 2⁻²³·|μ_j|)"
	}
	return fmt.Sprintf("%s and %s compute in float32: the phases by featmapDenseMul32 with the frequencies rounded to float32, the cosines and sines by the float32 functions (within 2⁻²³ of the exact ones of the float32 phase)%s, and the projection by featmapDenseMul32 with P rounded to float32. Each random feature z_j of frequency i is then within ε_j = c·(2⁻²³ + (n + 2)·2⁻²⁴·%s) + 2⁻²⁴·|z_j| of the float64 value at the float32 input, and each component within (1 + γ_{F+3})·Σ_j |P_kj|·%s + γ_{F+3}·Σ_j |P_kj|·|%s| of it, c = %s the features' scale, γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴); %s. A row with a coordinate beyond ±%s or not finite is evaluated in float64 and rounded. %s equals %s row by row bit for bit.",
		e.name32(), e.slice32Name(), mu, s, eps, zmu, num(k.scale), measured32Words(k.err32, k.kern32), num(k.limit32()), e.slice32Name(), e.name32())
}
