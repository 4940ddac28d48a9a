package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/codegen/internal/dense"
	"github.com/featmap/featmap/fmap"
)

// kernelCode is codegen's view of one kernel family (fmap.Family): its
// words in a header, the emitted kernel code of a Nyström map and what a
// kernel value costs. Every family has one (TestKernelCodes).
type kernelCode struct {
	// text names the kernel of m with its formula (kernelText).
	text func(m *fmap.Map, g float64, rows bool) string
	// body is the body of a Nyström map's kernel K(x, y) as
	// fmap.Kernel.Eval computes it; nil: no Nyström map of the family.
	body func(e *emitter, k fmap.Kernel) []jen.Code
	// cost names what one kernel value of n inputs costs.
	cost func(k fmap.Kernel, n int) string
	// widths: the kernel has one width σᵢ per input, which the emitted
	// kernel reads from an array.
	widths bool
	// nysDense is the dense form of a Nyström map of kernel k
	// (emit_nystroem_forms.go); nil, or a nil result: evaluated row by
	// row.
	nysDense func(k fmap.Kernel) *nysForm
	// edges is what a Nyström map's header adds about the inputs where
	// the kernel is not defined ("": nothing).
	edges string
}

// kernelCodes holds every family's kernelCode.
var kernelCodes = map[fmap.Family]*kernelCode{
	fmap.FamilyOf(fmap.Chi2):       &homogeneousCode,
	fmap.FamilyOf(fmap.RBF):        &rbfCode,
	fmap.FamilyOf(fmap.SkewedChi2): &skewedCode,
	fmap.FamilyOf(fmap.ExpChi2):    &expChi2Code,
	fmap.FamilyOf(fmap.Poly):       &polyCode,
	fmap.FamilyOf(fmap.Laplacian):  &laplacianCode,
	fmap.FamilyOf(fmap.Matern):     &maternCode,
	fmap.FamilyOf(fmap.Combined):   &combinedCode,
}

// kernelCodeOf is the kernelCode of kernel type typ, nil for an unknown
// type.
func kernelCodeOf(typ string) *kernelCode { return kernelCodes[fmap.FamilyOf(typ)] }

// kernelText names the kernel of m with its formula: a homogeneous
// kernel's of degree g (the map's γ), summed over the coordinates of a
// row when rows (a Nyström map of whole rows of an additive kernel).
func kernelText(m *fmap.Map, g float64, rows bool) string {
	if c := kernelCodeOf(m.Kernel.Type); c != nil {
		return c.text(m, g, rows)
	}
	return fmt.Sprintf("%q kernel", m.Kernel.Type)
}

// kernelCost names what one kernel value costs.
func kernelCost(k fmap.Kernel, n int) string {
	return kernelCodeOf(k.Type).cost(k, n)
}

// gammaWords defines γ_k in a header's bound.
const gammaWords = "γ_k = k·2⁻⁵³/(1 − k·2⁻⁵³)"

// deltaWords is the error bound δ of d² from its parts.
const deltaWords = "δ = 2γ_{n+8}·Σᵢ s2ᵢ(|tᵢ| + |l_ji − cᵢ|)²"

// nysLoop is the loop over the inputs of a Nyström kernel's body.
func nysLoop(inner ...jen.Code) jen.Code {
	return jen.For(jen.Id("i").Op(":=").Range().Id("x")).Block(inner...)
}

// homogeneousCode is the additive (homogeneous) kernels': χ²,
// intersection, Jensen–Shannon and Hellinger.
var homogeneousCode = kernelCode{
	text: func(m *fmap.Map, g float64, rows bool) string {
		homog := func(name, one, general string) string {
			t := fmt.Sprintf("%s-homogeneous %s kernel K(x, y) = %s, γ = %s", num(g), name, general, num(g))
			if g == 1 {
				t = name + " kernel K(x, y) = " + one
			}
			if rows {
				t = fmt.Sprintf("additive %s, summed over the %d coordinates of a row", t, m.InDim)
			}
			return t
		}
		switch m.Kernel.Type {
		case fmap.Chi2:
			return homog("χ²", "2xy/(x+y)", "(xy)^{γ/2}·sech(log(y/x)/2)")
		case fmap.Intersection:
			return homog("intersection", "min(x, y)", "(xy)^{γ/2}·e^{−|log(y/x)|/2}")
		case fmap.JS:
			return homog("Jensen–Shannon", "(x/2)·log₂((x+y)/x) + (y/2)·log₂((x+y)/y)", "(xy)^{γ/2}·k_JS(log(y/x))")
		case fmap.Hellinger:
			return homog("Hellinger", "√(xy)", "(xy)^{γ/2}")
		}
		return fmt.Sprintf("%q kernel (γ = %s)", m.Kernel.Type, num(g))
	},
	// The sum of the per-coordinate kernels in coordinate order, as
	// fmap.Kernel.Eval adds them.
	body: func(e *emitter, k fmap.Kernel) []jen.Code {
		return []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			nysLoop(jen.Id("s").Op("+=").Id(e.k1Name()).Call(jen.Id("x").Index(jen.Id("i")), jen.Id("y").Index(jen.Id("i")))),
			jen.Return(jen.Id("s")),
		}
	},
	cost: func(k fmap.Kernel, n int) string { return fmt.Sprintf("the sum of %d per-coordinate kernels", n) },
}

// rbfCode is the Gaussian RBF kernel's.
var rbfCode = kernelCode{
	text: func(m *fmap.Map, g float64, rows bool) string {
		if m.InDim == 1 {
			return fmt.Sprintf("Gaussian RBF kernel K(x, y) = exp(−(x−y)²/(2σ²)), σ = %s", num(m.Kernel.Sigma[0]))
		}
		return fmt.Sprintf("Gaussian RBF kernel K(x, y) = exp(−Σᵢ(xᵢ−yᵢ)²/(2σᵢ²)), σ = %s", sigmaText(m.Kernel.Sigma))
	},
	body: func(e *emitter, k fmap.Kernel) []jen.Code {
		return []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			nysLoop(
				jen.Id("d").Op(":=").Id("x").Index(jen.Id("i")).Op("-").Id("y").Index(jen.Id("i")),
				jen.Id("s").Op("+=").Id("d").Op("*").Id("d").Op("/").Parens(jen.Lit(2).Op("*").Id(e.sigmaName()).Index(jen.Id("i")).Op("*").Id(e.sigmaName()).Index(jen.Id("i"))),
			),
			jen.Return(jen.Qual("math", "Exp").Call(jen.Op("-").Id("s"))),
		}
	},
	cost:   func(k fmap.Kernel, n int) string { return fmt.Sprintf("%d squared differences and one exp", n) },
	widths: true,
	nysDense: func(k fmap.Kernel) *nysForm {
		return &nysForm{prod: nysParts, half: true, prod32: nysParts, posK: true, lines32: rbf32Lines,
			values: func(e *emitter, row func() *jen.Statement, nl, q jen.Code) []jen.Code {
				return []jen.Code{jen.Id("featmapDenseExpDist64").Call(row(), row(), nl, q)}
			},
			values32: func(e *emitter, row func() *jen.Statement, nl, q jen.Code) []jen.Code {
				return []jen.Code{jen.Id("featmapDenseExpDist32").Call(row(), row(), nl, q)}
			},
			words: "K(x, l_j) = exp(−max(0, q + ‖l_j − c‖² − g_j)) by featmapDenseExpDist64 (within 1 ulp of e^x)",
			bound: "e^{−(d²−δ)}·δ + 1 ulp of the exact K(x, l_j) = e^{−d²}, " + deltaWords + ", " + gammaWords + " (docs/measurements/dense.md, \"Error bounds\")",
		}
	},
}

// skewedCode is the skewed kernels': skewed χ² and skewed intersection.
var skewedCode = kernelCode{
	text: func(m *fmap.Map, g float64, rows bool) string {
		if m.Kernel.Type == fmap.SkewedChi2 {
			return fmt.Sprintf("skewed χ² kernel K(x, y) = Πᵢ sech(σᵢ·(log(xᵢ+c) − log(yᵢ+c))), σ = %s, c = %s", sigmaText(m.Kernel.Sigma), num(m.Kernel.C))
		}
		return fmt.Sprintf("skewed intersection kernel K(x, y) = exp(−Σᵢ σᵢ·|log(xᵢ+c) − log(yᵢ+c)|), σ = %s, c = %s", sigmaText(m.Kernel.Sigma), num(m.Kernel.C))
	},
	// λ_i = log of the larger of x_i + c, y_i + c over the smaller
	// (fmap's logRatio), then the signature.
	body: func(e *emitter, k fmap.Kernel) []jen.Code {
		f := e.lit.f64
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
				nysLoop(append(lambda,
					jen.Id("v").Op(":=").Qual("math", "Abs").Call(jen.Lit(2).Op("*").Id(e.sigmaName()).Index(jen.Id("i")).Op("*").Id("l")),
					jen.Id("p").Op("*=").Lit(2).Op("*").Qual("math", "Exp").Call(jen.Op("-").Id("v").Op("/").Lit(2)).Op("/").Parens(jen.Lit(1).Op("+").Qual("math", "Exp").Call(jen.Op("-").Id("v"))),
				)...),
				jen.Return(jen.Id("p")),
			}
		}
		return []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			nysLoop(append(lambda, jen.Id("s").Op("+=").Id(e.sigmaName()).Index(jen.Id("i")).Op("*").Qual("math", "Abs").Call(jen.Id("l")))...),
			jen.Return(jen.Qual("math", "Exp").Call(jen.Op("-").Id("s"))),
		}
	},
	cost: func(k fmap.Kernel, n int) string {
		if k.Type == fmap.SkewedChi2 {
			return fmt.Sprintf("%d logs and %d pairs of exps", n, n)
		}
		return fmt.Sprintf("%d logs and one exp", n)
	},
	widths: true,
	edges:  " A coordinate with x + c < 0, where the skewed kernel is not defined (no log(x + c)), gives NaN, as it does there.",
}

// expChi2Code is the exponential χ² kernel's.
var expChi2Code = kernelCode{
	text: func(m *fmap.Map, g float64, rows bool) string {
		return fmt.Sprintf("exponential χ² kernel K(x, y) = exp(−β·Σᵢ (xᵢ−yᵢ)²/(xᵢ+yᵢ)), β = %s", num(m.Kernel.Beta))
	},
	body: func(e *emitter, k fmap.Kernel) []jen.Code {
		return []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			nysLoop(jen.If(jen.Id("t").Op(":=").Id("x").Index(jen.Id("i")).Op("+").Id("y").Index(jen.Id("i")), jen.Id("t").Op("!=").Lit(0)).Block(
				jen.Id("d").Op(":=").Id("x").Index(jen.Id("i")).Op("-").Id("y").Index(jen.Id("i")),
				jen.Id("s").Op("+=").Id("d").Op("*").Id("d").Op("/").Id("t"),
			)),
			jen.Return(jen.Qual("math", "Exp").Call(jen.Op("-").Add(e.lit.f64(k.Beta)).Op("*").Id("s"))),
		}
	},
	cost:  func(k fmap.Kernel, n int) string { return fmt.Sprintf("%d quotients and one exp", n) },
	edges: " A negative coordinate, where the exp-χ² kernel is not defined (its (x−y)²/(x+y) is negative for x + y < 0), gives the formula's value, as it does there: possibly huge, ±Inf or NaN.",
}

// polyCode is the polynomial kernel's.
var polyCode = kernelCode{
	text: func(m *fmap.Map, g float64, rows bool) string {
		return fmt.Sprintf("polynomial kernel K(x, y) = (s·x·y + c)^%d, s = %s, c = %s", m.Kernel.Degree, num(m.Kernel.Scale), num(m.Kernel.Offset))
	},
	// fmap's evalPoly: the dot product in order, then degree − 1
	// multiplications; each product rounded apart, as there, so that a
	// build that fuses multiply-adds fuses neither.
	body: func(e *emitter, k fmap.Kernel) []jen.Code {
		f := e.lit.f64
		body := []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			nysLoop(jen.Id("s").Op("+=").Float64().Call(jen.Id("x").Index(jen.Id("i")).Op("*").Id("y").Index(jen.Id("i")))),
			jen.Id("b").Op(":=").Float64().Call(jen.Add(f(k.Scale)).Op("*").Id("s")).Op("+").Add(f(k.Offset)),
			jen.Id("v").Op(":=").Id("b"),
		}
		for range k.Degree - 1 {
			body = append(body, jen.Id("v").Op("*=").Id("b"))
		}
		return append(body, jen.Return(jen.Id("v")))
	},
	cost: func(k fmap.Kernel, n int) string {
		return fmt.Sprintf("a dot product of %d terms and %d multiplications", n, k.Degree-1)
	},
	nysDense: func(k fmap.Kernel) *nysForm {
		return &nysForm{prod: nysDot, prod32: nysDot, lines32: (*nystroemKind).poly32Lines,
			values: func(e *emitter, row func() *jen.Statement, _, _ jen.Code) []jen.Code {
				return []jen.Code{jen.Id("featmapDensePoly64").Call(row(), row(), e.lit.f64(k.Scale), e.lit.f64(k.Offset), integer(k.Degree))}
			},
			values32: func(e *emitter, row func() *jen.Statement, _, _ jen.Code) []jen.Code {
				return []jen.Code{jen.Id("featmapDensePoly32").Call(row(), row(), e.lit.f32(float32(k.Scale)), e.lit.f32(float32(k.Offset)), integer(k.Degree))}
			},
			words: fmt.Sprintf("K(x, l_j) = (s·g_j + c)^%d by featmapDensePoly64 (the base rounded as the reference evaluator rounds it, then %d multiplications in order)", k.Degree, k.Degree-1),
			bound: fmt.Sprintf("d·(|b_j| + δ_j)^{d−1}·δ_j + γ_{d−1}·(|b_j| + δ_j)^d of the exact K(x, l_j) = b_j^d, d = %d, b_j = s·x·l_j + c, δ_j = |s|·γ_{n+2}·Σᵢ|xᵢl_ji| + γ_2·(|s·x·l_j| + |c|), %s (docs/gen.md, \"Dense maps\")", k.Degree, gammaWords),
		}
	},
}

// laplacianCode is the Laplacian kernel's.
var laplacianCode = kernelCode{
	text: func(m *fmap.Map, g float64, rows bool) string {
		return fmt.Sprintf("Laplacian kernel K(x, y) = exp(−Σᵢ|xᵢ−yᵢ|/σᵢ), σ = %s", sigmaText(m.Kernel.Sigma))
	},
	body: func(e *emitter, k fmap.Kernel) []jen.Code {
		return []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			nysLoop(jen.Id("s").Op("+=").Qual("math", "Abs").Call(jen.Id("x").Index(jen.Id("i")).Op("-").Id("y").Index(jen.Id("i"))).Op("/").Id(e.sigmaName()).Index(jen.Id("i"))),
			jen.Return(jen.Qual("math", "Exp").Call(jen.Op("-").Id("s"))),
		}
	},
	cost:   func(k fmap.Kernel, n int) string { return fmt.Sprintf("%d absolute differences and one exp", n) },
	widths: true,
	nysDense: func(k fmap.Kernel) *nysForm {
		return &nysForm{prod: nysL1, values: nysExp, prod32: nysL1, values32: nysExp32, posK: true,
			eval32: dense.Laplacian32, lines32: lap32Lines,
			words: "K(x, l_j) = exp(−Σᵢ|tᵢ − l'_ji|) by featmapDenseExp64 (within 1 ulp of e^x)",
			bound: "e^{−(s−ε)}·ε + 2⁻⁵² of the exact K(x, l_j) = e^{−s}, s = Σᵢ|xᵢ − l_ji|/σᵢ, ε = γ_{n+3}·(s + Σᵢ(|tᵢ| + |l'_ji|)), " + gammaWords + " (docs/gen.md, \"Dense maps\")",
		}
	},
}

// maternCode is the Matérn kernel's (ν = ½, 3/2 or 5/2).
var maternCode = kernelCode{
	text: func(m *fmap.Map, g float64, rows bool) string {
		return fmt.Sprintf("Matérn kernel K(x, y) = %s of r = ‖(x−y)/σ‖, ν = %s, σ = %s", maternText(m.Kernel.Nu), num(m.Kernel.Nu), sigmaText(m.Kernel.Sigma))
	},
	// fmap.MaternOf at r = ‖(x − y)/σ‖.
	body: func(e *emitter, k fmap.Kernel) []jen.Code {
		body := []jen.Code{
			jen.Id("s").Op(":=").Lit(0.0),
			nysLoop(
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
	},
	cost: func(k fmap.Kernel, n int) string {
		return fmt.Sprintf("%d squared differences, one square root and one exp", n)
	},
	widths:   true,
	nysDense: maternDense,
}

// maternDense is the Matérn kernel's dense Nyström form: ν = ½, whose
// e^{−r} has a cusp at r = 0, from the squared distances themselves;
// ν = 3/2 and 5/2, flat in d² at 0, from d²'s parts as the RBF kernel's.
// The slope of (1 + a)·e^{−a} in d² is at most 3/2 (a = √3·r), of
// (1 + a + a²/3)·e^{−a} at most 5/6 (a = √5·r).
func maternDense(k fmap.Kernel) *nysForm {
	nu := k.Nu
	call := func(e *emitter, r func() *jen.Statement) jen.Code {
		return jen.Id("featmapDenseMatern64").Call(r(), r(), e.lit.f64(nu))
	}
	// The float32 path takes the squared distances for every ν: d² from
	// its parts would lose to cancellation most of float32's digits.
	values32 := func(e *emitter, row func() *jen.Statement, _, _ jen.Code) []jen.Code {
		body, r := nysNegate(row)
		return append(body, jen.Id("featmapDenseMatern32").Call(r(), r(), e.lit.f64(nu)))
	}
	eval32 := func(dst, t, lp, pp []float32, m, n, d int) { dense.Matern32(dst, t, lp, pp, m, n, d, nu) }
	if nu == 0.5 {
		return &nysForm{prod: nysSq, prod32: nysSq, values32: values32, eval32: eval32, lines32: matern32Lines,
			values: func(e *emitter, row func() *jen.Statement, _, _ jen.Code) []jen.Code {
				body, r := nysNegate(row)
				return append(body, call(e, r))
			},
			words: "K(x, l_j) = e^{−r}, r = √(Σᵢ(tᵢ − l'_ji)²), by featmapDenseMatern64 (e^{−r} by featmapDenseExp64, within 1 ulp)",
			bound: "e^{−(r−ε)}·ε + 2⁻⁵² of the exact K(x, l_j) = e^{−r}, r = ‖(x − l_j)/σ‖, ε = γ_{n+5}·(r + (Σᵢ(|tᵢ| + |l'_ji|)²)^{1/2}), " + gammaWords + " (docs/gen.md, \"Dense maps\")",
		}
	}
	slope := "3/2"
	if nu == 2.5 {
		slope = "5/6"
	}
	return &nysForm{prod: nysParts, prod32: nysSq, values32: values32, eval32: eval32, lines32: matern32Lines,
		values: func(e *emitter, row func() *jen.Statement, nl, q jen.Code) []jen.Code {
			body, r := nysPartsD2(row, nl, q)
			return append(body, call(e, r))
		},
		words: fmt.Sprintf("d² = q + ‖l_j − c‖² − g_j, then K(x, l_j) = %s of r = √max(0, d²) by featmapDenseMatern64 (e^{−a} by featmapDenseExp64, within 1 ulp)", maternText(nu)),
		bound: fmt.Sprintf("%s·δ + 2⁻⁴⁸ of the exact K(x, l_j) (the kernel's slope in d² is at most %s), %s, %s (docs/gen.md, \"Dense maps\")", slope, slope, deltaWords, gammaWords),
	}
}

// rbf32Lines describes the RBF kernel's float32 path in the header.
func rbf32Lines(q *nystroemKind, e *emitter) string {
	return fmt.Sprintf("%s and %s compute in float32: t = x − c and q rounded to float32, the products by featmapDenseMul32 with the scaled landmarks, their norms and the projection rounded to float32, the kernel values by featmapDenseExpDist32. Each kernel value is within e^{−(d²−δ)}·(δ + 2⁻²²) + 2⁻¹⁴⁸ of the exact K(x, l_j) at the float32 input, δ = 2γ_{n+8}·Σᵢ s2ᵢ(|tᵢ| + |l_ji − cᵢ|)² with γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴)",
		e.name32(), e.slice32Name()) + q.nys32Tail(e, "K_j", "|xᵢ − cᵢ|")
}

// lap32Lines describes the Laplacian kernel's float32 path in the header.
func lap32Lines(q *nystroemKind, e *emitter) string {
	return fmt.Sprintf("%s and %s compute in float32: t = (x − c)/σ in float64, rounded to float32, minus the L1 distances to the scaled landmarks rounded to float32 by featmapDenseNegL1Dist32, the kernel values by featmapDenseExp32, the projection rounded to float32 by featmapDenseMul32. Each kernel value is within e^{−(s−ε)}·(ε + 2⁻²³) + 2⁻¹⁴⁹ of the exact K(x, l_j) = e^{−s} at the float32 input, ε = γ_{n+3}·(s + Σᵢ(|tᵢ| + |l'_ji|)) with γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴)",
		e.name32(), e.slice32Name()) + q.nys32Tail(e, "K_j", "|xᵢ − cᵢ|")
}

// matern32Lines describes the Matérn kernel's float32 path in the header.
func matern32Lines(q *nystroemKind, e *emitter) string {
	nu := q.s.Kernel.Nu
	value := "e^{−(r−ε)}·(ε + 2⁻²³) + 2⁻¹⁴⁹ of the exact K(x, l_j) = e^{−r} at the float32 input, r = ‖(x − l_j)/σ‖, ε = γ_{n+5}·(r + (Σᵢ(|tᵢ| + |l'_ji|)²)^{1/2}) + 2⁻⁷⁰"
	if nu != 0.5 {
		slope, c := "√3/e", "√3"
		if nu == 2.5 {
			slope, c = "0.63", "√5"
		}
		value = fmt.Sprintf("(2/3)·ε + 2⁻²⁰ of the exact K(x, l_j) at the float32 input, r = ‖(x − l_j)/σ‖, ε = γ_{n+7}·(r + (Σᵢ(|tᵢ| + |l'_ji|)²)^{1/2}) + 2⁻⁷⁰ (%s·ε bounds the error of the computed a = %s·r, %s rounded to float32; the kernel's slope in r is at most %s)", c, c, c, slope)
	}
	return fmt.Sprintf("%s and %s compute in float32: t = (x − c)/σ in float64, rounded to float32, minus the squared distances to the scaled landmarks rounded to float32 by featmapDenseNegSqDist32 (each difference formed before it is squared, for every ν), the kernel values %s of r = √d² by featmapDenseMatern32 (the square root correctly rounded, e^{−a} by featmapDenseExp32), the projection rounded to float32 by featmapDenseMul32. Each kernel value is within %s, with γ_k = k·2⁻²⁴/(1 − k·2⁻²⁴)",
		e.name32(), e.slice32Name(), maternText(nu), value) + q.nys32Tail(e, "K_j", "|xᵢ − cᵢ|")
}

// maternText is the Matérn function of smoothness ν.
func maternText(nu float64) string {
	switch nu {
	case 0.5:
		return "e^{−r}"
	case 1.5:
		return "(1 + √3r)·e^{−√3r}"
	}
	return "(1 + √5r + 5r²/3)·e^{−√5r}"
}

// combinedCode is the combined kernel's (a weighted sum of kernels on
// groups of inputs, which a blocks map evaluates block by block): no
// Nyström map.
var combinedCode = kernelCode{
	text: func(m *fmap.Map, g float64, rows bool) string { return fmt.Sprintf("%q kernel", m.Kernel.Type) },
	cost: func(k fmap.Kernel, n int) string { return "" },
}
