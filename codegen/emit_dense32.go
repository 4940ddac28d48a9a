package codegen

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/dense"
	"github.com/featmap/featmap/fmap"
)

// The float32 evaluation of a dense random map: the float32 products of
// the input with the frequencies rounded to float32 (packed at init) and
// the float32 cosines and sines, where the error that adds to the kernel
// (measured at generation time, dense32Plan) stays within the budget of
// the map's fast paths; rows beyond ±L32 or not finite are the float64
// evaluation rounded.

// dense32Points is the number of points of the domain on which gen
// measures the float32 path's error (all their ordered pairs for the
// kernel's).
const dense32Points = 200

// measured32Words states a float32 path's measurement in its header: the
// largest component and kernel errors dense32Measure found, and why the
// path is taken.
func measured32Words(err32, kern32 float64) string {
	return fmt.Sprintf("measured on %d seeded points of the domain: components within %.2g, kernel values Ψ(x)·Ψ(y) within %.2g of the float64 map's (the float32 path is taken because that is within 10⁻³ of the map's L∞ error)", dense32Points, err32, kern32)
}

// Names of the float32 path's identifiers.
func (e *emitter) packed32Name() string { return e.p.priv + "Packed32" }
func (e *emitter) b32Name() string      { return e.p.priv + "B32" }
func (e *emitter) round32Name() string  { return e.p.priv + "Round32" }

// limit32 is L32: the largest |x_j| the float32 path takes, so that no
// float32 phase overflows (MaxFloat32/(2·S), S the largest Σ|ω_kj|).
func (k *randomKind) limit32() float64 {
	s := math.Max(freqSum(k.r.Freq, k.r.In), 0.5)
	return float64(float32(math.MaxFloat32 / (2 * s)))
}

// dense32Plan measures the float32 path on dense32Points seeded points of
// the domain's box (dense32Measure) and takes it when the kernel error is
// within the budget. A domain without a finite box keeps the float64
// evaluation rounded.
func (k *randomKind) dense32Plan(p *plan) {
	n := k.args
	packed, b32 := k.freqs32()
	worst, kern, ok := dense32Measure(p, func(o32, x32 []float32, _ []float64) {
		dense.Features32(o32, x32, packed, b32, k.freqs, n, float32(k.scale))
	})
	if ok && kern <= p.budget {
		k.f32, k.err32, k.kern32 = true, worst, kern
	}
}

// freqs32 are the frequencies rounded to float32 and packed for
// featmapDenseMul32, and the phases rounded (nil for cos-sin features),
// as the emitted float32 path packs them at init.
func (k *randomKind) freqs32() (packed, b32 []float32) {
	packed = make([]float32, dense.Packed32(k.freqs, k.args))
	dense.Pack32(packed, k.r.Freq, k.freqs, k.args)
	if k.r.Features == fmap.Phase {
		b32 = make([]float32, k.freqs)
		for i, v := range k.r.Phase {
			b32[i] = float32(v)
		}
	}
	return packed, b32
}

// dense32Measure evaluates f32 (the float32 path: o32 from the float32
// input x32, given the reference's components ref there) on dense32Points
// seeded points of the domain's box, inputs rounded to float32, against
// the reference evaluator: the largest component error and the largest
// kernel error Ψ(x)·Ψ(y) over their ordered pairs; ok false when the box
// is not finite.
func dense32Measure(p *plan, f32 func(o32, x32 []float32, ref []float64)) (worst, kern float64, ok bool) {
	m := p.m
	n := p.m.InDim
	for i := range n {
		if math.IsInf(m.Domain.Lo[i], 0) || math.IsInf(m.Domain.Hi[i], 0) {
			return 0, 0, false
		}
	}
	rng := rand.New(rand.NewPCG(32, 32))
	d := p.dim
	got := make([][]float64, dense32Points)
	ref := make([][]float64, dense32Points)
	x32 := make([]float32, n)
	x := make([]float64, n)
	o32 := make([]float32, d)
	for pt := range dense32Points {
		for i := range n {
			lo, hi := m.Domain.Lo[i], m.Domain.Hi[i]
			v := lo + (hi-lo)*rng.Float64()
			if m.Domain.Integer {
				v = math.Round(v)
			}
			x32[i] = float32(v)
			x[i] = float64(x32[i])
		}
		got[pt], ref[pt] = make([]float64, d), make([]float64, d)
		fmap.RowFeatures(m, ref[pt], x)
		f32(o32, x32, ref[pt])
		for c := range d {
			got[pt][c] = float64(o32[c])
			worst = math.Max(worst, math.Abs(got[pt][c]-ref[pt][c]))
		}
	}
	// The products are symmetric bit for bit (each term's product
	// commutes, the sum runs in the same order), so the pairs b ≥ a give
	// the largest error over all ordered pairs.
	for a := range dense32Points {
		for b := a; b < dense32Points; b++ {
			var g, r float64
			for c := range d {
				g += got[a][c] * got[b][c]
				r += ref[a][c] * ref[b][c]
			}
			kern = math.Max(kern, math.Abs(g-r))
		}
	}
	return worst, kern, true
}

// doc32Computed is the doc comment of NF32 on a dense map's float32 path.
func (e *emitter) doc32Computed() []string {
	return paragraphs(fmt.Sprintf("%s is %s in float32: it computes in float32, within the bound the file's header states of the float64 value. Edge inputs behave as in %s.", e.name32(), e.p.name, e.p.name))
}

// dense32Helpers emits the float32 frequencies (and phases), packed at
// init, and the float64 evaluation rounded for the rows the float32 path
// leaves.
func (k *randomKind) dense32Helpers(e *emitter, f *jen.File) {
	if !k.f32 {
		return
	}
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s holds the frequencies of %s rounded to float32 and packed for featmapDenseMul32 (panels of 32). Packed at init.", e.packed32Name(), e.wName()))))
	f.Var().Id(e.packed32Name()).Index(integer(dense.Packed32(k.freqs, k.args))).Float32()
	init := []jen.Code{jen.Id("featmapDensePack32").Call(jen.Id(e.packed32Name()).Index(jen.Op(":")), jen.Id(e.wName()).Index(jen.Op(":")), jen.Id(e.freqsName()), jen.Id(e.argsName()))}
	if k.r.Features == fmap.Phase {
		f.Line()
		f.Comment(fmt.Sprintf("%s holds the phases of %s rounded to float32. Set at init.", e.b32Name(), e.bName()))
		f.Var().Id(e.b32Name()).Index(jen.Id(e.freqsName())).Float32()
		init = append(init, jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Id(e.bName())).Block(
			jen.Id(e.b32Name()).Index(jen.Id("i")).Op("=").Float32().Call(jen.Id("v"))))
	}
	f.Line()
	f.Func().Id("init").Params().Block(init...)
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s is %s of the input converted to float64, each component rounded to float32: %s of a row with a coordinate beyond ±%s or not finite.",
		e.round32Name(), e.p.name, e.name32(), num(k.limit32())))))
	f.Func().Id(e.round32Name()).Params(e.params(jen.Float32)...).Block(e.linear32Body()...)
}

// dense32N is the body of NF32 of a dense map on the float32 path.
func (k *randomKind) dense32N(e *emitter) []jen.Code {
	p := e.p
	lim := e.lit.f32(float32(k.limit32()))
	var body []jen.Code
	if p.in == 1 {
		body = append(body, jen.Id("t").Op(":=").Index(integer(1)).Float32().Values(jen.Id("x")))
	} else {
		body = append(body, jen.Id("t").Op(":=").Id("x"))
	}
	body = append(body,
		jen.If(jen.Id("featmapDenseBeyond32").Call(jen.Id("t").Index(jen.Op(":")), lim)).Block(
			jen.Id(e.round32Name()).Call(jen.Id("out"), jen.Id("x")), jen.Return()),
		jen.Id("a").Op(":=").Id("t").Index(jen.Op(":")),
		jen.Var().Id("ph").Index(integer(min(k.freqs, denseCols))).Float32(),
	)
	return append(body, k.denseFeatures(e, true, jen.Lit(1), true, "out", "a", jen.Id(e.argsName()), nil)...)
}

// dense32Lines describes the float32 path in the header.
func (k *randomKind) dense32Lines(e *emitter) string {
	if !k.f32 {
		return fmt.Sprintf("%s and %s evaluate the same way in float64 and round each component to float32.", e.name32(), e.slice32Name())
	}
	b := "Σⱼ|ωᵢⱼxⱼ|"
	if k.r.Features == fmap.Phase {
		b = "(Σⱼ|ωᵢⱼxⱼ| + |bᵢ|)"
	}
	return fmt.Sprintf("%s and %s compute in float32: the phases by featmapDenseMul32 with the frequencies rounded to float32, the cosines and sines by the float32 functions (within 2⁻²³ of the exact ones of the float32 phase), so each component is within c·(2⁻²³ + (n + 2)·2⁻²⁴·%s) + 2⁻²⁴·|Ψᵢ| of the float64 value at the float32 input, c = %s the components' scale; %s. A row with a coordinate beyond ±%s or not finite is evaluated in float64 and rounded. %s equals %s row by row bit for bit.",
		e.name32(), e.slice32Name(), b, num(k.scale), measured32Words(k.err32, k.kern32), num(k.limit32()), e.slice32Name(), e.name32())
}
