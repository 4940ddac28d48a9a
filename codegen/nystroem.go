package codegen

import (
	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// nysKernelBody is the body of the kernel K(x, y) as fmap.Kernel.Eval
// computes it: its family's (kernels.go).
func (e *emitter) nysKernelBody(k fmap.Kernel) []jen.Code {
	return kernelCodeOf(k.Type).body(e, k)
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
