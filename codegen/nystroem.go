package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// nysKernelBody is the body of the kernel K(x, y) as fmap.Kernel.Eval
// computes it.
func (e *emitter) nysKernelBody(k fmap.Kernel) []jen.Code {
	f := e.lit.f64
	loop := func(inner ...jen.Code) jen.Code {
		return jen.For(jen.Id("i").Op(":=").Range().Id("x")).Block(inner...)
	}
	switch {
	case k.Homogeneous():
		// The additive kernel: the sum of the per-coordinate kernels in
		// coordinate order, as fmap.Kernel.Eval adds them.
		return []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			loop(jen.Id("s").Op("+=").Id(e.k1Name()).Call(jen.Id("x").Index(jen.Id("i")), jen.Id("y").Index(jen.Id("i")))),
			jen.Return(jen.Id("s")),
		}
	case k.Type == fmap.ExpChi2:
		return []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			loop(jen.If(jen.Id("t").Op(":=").Id("x").Index(jen.Id("i")).Op("+").Id("y").Index(jen.Id("i")), jen.Id("t").Op("!=").Lit(0)).Block(
				jen.Id("d").Op(":=").Id("x").Index(jen.Id("i")).Op("-").Id("y").Index(jen.Id("i")),
				jen.Id("s").Op("+=").Id("d").Op("*").Id("d").Op("/").Id("t"),
			)),
			jen.Return(jen.Qual("math", "Exp").Call(jen.Op("-").Add(f(k.Beta)).Op("*").Id("s"))),
		}
	case k.Type == fmap.Laplacian:
		return []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			loop(jen.Id("s").Op("+=").Qual("math", "Abs").Call(jen.Id("x").Index(jen.Id("i")).Op("-").Id("y").Index(jen.Id("i"))).Op("/").Id(e.sigmaName()).Index(jen.Id("i"))),
			jen.Return(jen.Qual("math", "Exp").Call(jen.Op("-").Id("s"))),
		}
	case k.Type == fmap.Matern:
		// fmap.MaternOf at r = ‖(x − y)/σ‖.
		body := []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			loop(
				jen.Id("u").Op(":=").Parens(jen.Id("x").Index(jen.Id("i")).Op("-").Id("y").Index(jen.Id("i"))).Op("/").Id(e.sigmaName()).Index(jen.Id("i")),
				jen.Id("s").Op("+=").Id("u").Op("*").Id("u"),
			),
			jen.Id("r").Op(":=").Qual("math", "Sqrt").Call(jen.Id("s")),
			jen.If(jen.Qual("math", "IsInf").Call(jen.Id("r"), jen.Lit(1))).Block(jen.Return(jen.Lit(0))),
		}
		switch k.Nu {
		case 0.5:
			return append(body, jen.Return(jen.Qual("math", "Exp").Call(jen.Op("-").Id("r"))))
		case 1.5:
			return append(body,
				jen.Id("a").Op(":=").Qual("math", "Sqrt").Call(jen.Lit(3.0)).Op("*").Id("r"),
				jen.Return(jen.Parens(jen.Lit(1).Op("+").Id("a")).Op("*").Qual("math", "Exp").Call(jen.Op("-").Id("a"))))
		}
		return append(body,
			jen.Id("a").Op(":=").Qual("math", "Sqrt").Call(jen.Lit(5.0)).Op("*").Id("r"),
			jen.Return(jen.Parens(jen.Lit(1).Op("+").Id("a").Op("+").Id("a").Op("*").Id("a").Op("/").Lit(3)).Op("*").Qual("math", "Exp").Call(jen.Op("-").Id("a"))))
	case k.Type == fmap.Poly:
		// fmap's evalPoly: the dot product in order, then degree − 1
		// multiplications; each product rounded apart, as there, so that
		// a build that fuses multiply-adds fuses neither.
		body := []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			loop(jen.Id("s").Op("+=").Float64().Call(jen.Id("x").Index(jen.Id("i")).Op("*").Id("y").Index(jen.Id("i")))),
			jen.Id("b").Op(":=").Float64().Call(jen.Add(f(k.Scale)).Op("*").Id("s")).Op("+").Add(f(k.Offset)),
			jen.Id("v").Op(":=").Id("b"),
		}
		for range k.Degree - 1 {
			body = append(body, jen.Id("v").Op("*=").Id("b"))
		}
		return append(body, jen.Return(jen.Id("v")))
	case k.Skewed():
		// λ_i = log of the larger of x_i + c, y_i + c over the smaller
		// (fmap's logRatio), then the signature.
		lambda := []jen.Code{
			jen.List(jen.Id("a"), jen.Id("b")).Op(":=").List(jen.Id("x").Index(jen.Id("i")).Op("+").Add(f(k.C)), jen.Id("y").Index(jen.Id("i")).Op("+").Add(f(k.C))),
			jen.List(jen.Id("hi"), jen.Id("lo")).Op(":=").List(jen.Max(jen.Id("a"), jen.Id("b")), jen.Min(jen.Id("a"), jen.Id("b"))),
			jen.Var().Id("l").Float64(),
			jen.If(jen.Id("r").Op(":=").Id("hi").Op("/").Id("lo"), jen.Id("r").Op(">=").Add(f(0x1p-1022)).Op("&&").Id("r").Op("<=").Qual("math", "MaxFloat64")).Block(
				jen.Id("l").Op("=").Qual("math", "Log").Call(jen.Id("r")),
			).Else().Block(
				jen.Id("l").Op("=").Qual("math", "Log").Call(jen.Id("hi")).Op("-").Qual("math", "Log").Call(jen.Id("lo")),
			),
		}
		if k.Type == fmap.SkewedChi2 {
			// sech(σλ) = 2e^{−a/2}/(1+e^{−a}) at a = |2σλ|.
			return []jen.Code{
				jen.Id("p").Op(":=").Lit(1.0),
				loop(append(lambda,
					jen.Id("v").Op(":=").Qual("math", "Abs").Call(jen.Lit(2).Op("*").Id(e.sigmaName()).Index(jen.Id("i")).Op("*").Id("l")),
					jen.Id("p").Op("*=").Lit(2).Op("*").Qual("math", "Exp").Call(jen.Op("-").Id("v").Op("/").Lit(2)).Op("/").Parens(jen.Lit(1).Op("+").Qual("math", "Exp").Call(jen.Op("-").Id("v"))),
				)...),
				jen.Return(jen.Id("p")),
			}
		}
		return []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			loop(append(lambda, jen.Id("s").Op("+=").Id(e.sigmaName()).Index(jen.Id("i")).Op("*").Qual("math", "Abs").Call(jen.Id("l")))...),
			jen.Return(jen.Qual("math", "Exp").Call(jen.Op("-").Id("s"))),
		}
	}
	return []jen.Code{
		jen.Id("s").Op(":=").Lit(0.0),
		loop(
			jen.Id("d").Op(":=").Id("x").Index(jen.Id("i")).Op("-").Id("y").Index(jen.Id("i")),
			jen.Id("s").Op("+=").Id("d").Op("*").Id("d").Op("/").Parens(jen.Lit(2).Op("*").Id(e.sigmaName()).Index(jen.Id("i")).Op("*").Id(e.sigmaName()).Index(jen.Id("i"))),
		),
		jen.Return(jen.Qual("math", "Exp").Call(jen.Op("-").Id("s"))),
	}
}

// nysKernel1Body is the body of one coordinate's homogeneous kernel
// K_γ(x, y) as fmap.Kernel.Eval1 computes it for this type and γ: NaN for
// a negative, infinite or NaN input, 0 when either is 0, the direct forms
// at γ = 1 (min for intersection, 2·min·(max/(x+y)) for χ² unless x + y
// overflows, √x·√y for Hellinger), else (xy)^{γ/2} as two powers times the
// signature at log(y/x) (fmap's logRatio).
func (e *emitter) nysKernel1Body(k fmap.Kernel) []jen.Code {
	f := e.lit.f64
	g := k.Gamma
	if g == 0 {
		g = 1
	}
	x, y := jen.Id("x"), jen.Id("y")
	body := []jen.Code{
		jen.If(jen.Op("!").Parens(jen.Id("x").Op(">=").Lit(0)).Op("||").Op("!").Parens(jen.Id("y").Op(">=").Lit(0)).Op("||").
			Qual("math", "IsInf").Call(jen.Id("x"), jen.Lit(1)).Op("||").Qual("math", "IsInf").Call(jen.Id("y"), jen.Lit(1))).Block(
			jen.Return(jen.Qual("math", "NaN").Call()),
		),
		jen.If(jen.Id("x").Op("==").Lit(0).Op("||").Id("y").Op("==").Lit(0)).Block(jen.Return(jen.Lit(0))),
	}
	if g == 1 {
		switch k.Type {
		case fmap.Intersection:
			return append(body, jen.Return(jen.Qual("math", "Min").Call(x, y)))
		case fmap.Hellinger:
			return append(body, jen.Return(jen.Qual("math", "Sqrt").Call(x).Op("*").Qual("math", "Sqrt").Call(y)))
		case fmap.Chi2:
			body = append(body, jen.If(jen.Id("s").Op(":=").Id("x").Op("+").Id("y"), jen.Id("s").Op("<=").Qual("math", "MaxFloat64")).Block(
				jen.Return(jen.Lit(2).Op("*").Qual("math", "Min").Call(x, y).Op("*").Parens(jen.Qual("math", "Max").Call(x, y).Op("/").Id("s"))),
			))
		}
	}
	body = append(body, jen.Id("amp").Op(":=").Qual("math", "Pow").Call(x, f(g/2)).Op("*").Qual("math", "Pow").Call(y, f(g/2)))
	if k.Type == fmap.Hellinger {
		return append(body, jen.Return(jen.Id("amp")))
	}
	body = append(body,
		jen.Var().Id("l").Float64(),
		jen.If(jen.Id("r").Op(":=").Id("y").Op("/").Id("x"), jen.Id("r").Op(">=").Add(f(0x1p-1022)).Op("&&").Id("r").Op("<=").Qual("math", "MaxFloat64")).Block(
			jen.Id("l").Op("=").Qual("math", "Log").Call(jen.Id("r")),
		).Else().Block(
			jen.Id("l").Op("=").Qual("math", "Log").Call(y).Op("-").Qual("math", "Log").Call(x),
		),
		jen.Id("a").Op(":=").Qual("math", "Abs").Call(jen.Id("l")),
	)
	switch k.Type {
	case fmap.Chi2:
		body = append(body, jen.Return(jen.Id("amp").Op("*").Parens(jen.Lit(2).Op("*").Qual("math", "Exp").Call(jen.Op("-").Id("a").Op("/").Lit(2)).Op("/").Parens(jen.Lit(1).Op("+").Qual("math", "Exp").Call(jen.Op("-").Id("a"))))))
	case fmap.Intersection:
		body = append(body, jen.Return(jen.Id("amp").Op("*").Qual("math", "Exp").Call(jen.Op("-").Id("a").Op("/").Lit(2))))
	default: // JS
		body = append(body,
			jen.If(jen.Qual("math", "IsInf").Call(jen.Id("a"), jen.Lit(1))).Block(jen.Return(jen.Id("amp").Op("*").Lit(0))),
			jen.Id("u").Op(":=").Qual("math", "Exp").Call(jen.Op("-").Id("a")),
			jen.Id("q").Op(":=").Lit(1.0),
			jen.If(jen.Id("u").Op(">").Lit(0)).Block(jen.Id("q").Op("=").Qual("math", "Log1p").Call(jen.Id("u")).Op("/").Id("u")),
			jen.Return(jen.Id("amp").Op("*").Parens(jen.Qual("math", "Exp").Call(jen.Op("-").Id("a").Op("/").Lit(2)).Op("/").Parens(jen.Lit(2).Op("*").Qual("math", "Ln2")).Op("*").Parens(jen.Id("q").Op("+").Id("a").Op("+").Qual("math", "Log1p").Call(jen.Id("u"))))),
		)
	}
	return body
}

// kernelCost names what one kernel value costs.
func kernelCost(k fmap.Kernel, n int) string {
	switch {
	case k.Homogeneous():
		return fmt.Sprintf("the sum of %d per-coordinate kernels", n)
	case k.Type == fmap.ExpChi2:
		return fmt.Sprintf("%d quotients and one exp", n)
	case k.Type == fmap.SkewedChi2:
		return fmt.Sprintf("%d logs and %d pairs of exps", n, n)
	case k.Skewed():
		return fmt.Sprintf("%d logs and one exp", n)
	case k.Type == fmap.Laplacian:
		return fmt.Sprintf("%d absolute differences and one exp", n)
	case k.Type == fmap.Matern:
		return fmt.Sprintf("%d squared differences, one square root and one exp", n)
	case k.Type == fmap.Poly:
		return fmt.Sprintf("a dot product of %d terms and %d multiplications", n, k.Degree-1)
	}
	return fmt.Sprintf("%d squared differences and one exp", n)
}
