package codegen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// nysPlan is what Generate decided for a Nyström map: the stage and where
// its constants (landmarks, then the projection) go. Every component is
// computed by the formula, the kernel as featmap's reference evaluator
// computes it: no fast path, no error beyond rounding.
type nysPlan struct {
	s    *fmap.Nystroem
	m, n int       // landmarks, inputs
	dim  int       // outputs: m, or fewer (a D×m projection)
	data *dataFile // the landmarks, then the projection; nil: Go literals
}

// constants is the number of constants of the stage.
func (q *nysPlan) constants() int { return len(q.s.Landmarks) + len(q.s.Proj) }

func newNysPlan(p *plan) (*nysPlan, error) {
	s := p.m.Nystroem
	q := &nysPlan{s: s, m: s.Size(), n: s.In, dim: s.Dim()}
	if q.n > maxArgs || q.m > maxArgs {
		return nil, fmt.Errorf("codegen: a Nyström map of %d inputs and %d landmarks; the emitted code keeps each in a stack array of at most %d", q.n, q.m, maxArgs)
	}
	switch k := s.Kernel; {
	case k.Type == fmap.RBF, k.Skewed(), k.Type == fmap.Laplacian, k.Type == fmap.Matern:
		if len(k.Sigma) != q.n {
			return nil, fmt.Errorf("codegen: the Nyström kernel has %d widths for %d inputs", len(k.Sigma), q.n)
		}
	case k.Type == fmap.ExpChi2, k.Homogeneous(), k.Type == fmap.Poly:
	default:
		return nil, fmt.Errorf("%w a Nyström map of the %s kernel", ErrUnsupported, k.Type)
	}
	var modelW, modelB []float64
	if mod := p.m.Model; mod != nil {
		modelW, modelB = mod.W, mod.Bias
	}
	q.data = newDataFile(s.Landmarks, s.Proj, modelW, modelB)
	return q, nil
}

// Names of a Nyström map's unexported identifiers.
func (e *emitter) landName() string   { return e.p.priv + "Landmarks" }
func (e *emitter) projName() string   { return e.p.priv + "Proj" }
func (e *emitter) sizeName() string   { return e.p.priv + "M" }
func (e *emitter) kernelName() string { return e.p.priv + "Kernel" }
func (e *emitter) k1Name() string     { return e.p.priv + "Kernel1" }
func (e *emitter) sigmaName() string  { return e.p.priv + "Sigma" }

// nysAPI emits N, NSlice, NF32 and NSliceF32 of a Nyström map.
func (e *emitter) nysAPI(f *jen.File) {
	e.fourFuncs(f, e.docN, func() []jen.Code { return e.nysBody(false) }, e.doc32, func() []jen.Code { return e.nysBody(true) })
	e.modelAPI(f)
}

// nysBody is the body of N (is32 false) or NF32: zeros for a non-finite
// input, the kernel values k_j = K(x, l_j), then Proj·k, each component one
// sum in the reference evaluator's order.
func (e *emitter) nysBody(is32 bool) []jen.Code {
	q := e.p.nys
	elem := jen.Float64
	if is32 {
		elem = jen.Float32
	}
	zero := []jen.Code{jen.Op("*").Id("out").Op("=").Index(jen.Id(e.dimName())).Add(elem()).Values(), jen.Return()}
	var body []jen.Code
	body = append(body, jen.Var().Id("t").Index(jen.Id(e.inName())).Float64())
	conv := jen.Id("a")
	if is32 {
		conv = jen.Float64().Call(jen.Id("a"))
	}
	body = append(body, jen.For(jen.List(jen.Id("j"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
		jen.Id("v").Op(":=").Add(conv),
		jen.If(jen.Op("!").Parens(jen.Qual("math", "Abs").Call(jen.Id("v")).Op("<=").Qual("math", "MaxFloat64"))).Block(zero...),
		jen.Id("t").Index(jen.Id("j")).Op("=").Id("v"),
	))
	body = append(body,
		jen.Var().Id("k").Index(jen.Id(e.sizeName())).Float64(),
		jen.For(jen.Id("j").Op(":=").Range().Id("k")).Block(
			jen.Id("k").Index(jen.Id("j")).Op("=").Id(e.kernelName()).Call(
				jen.Op("&").Id("t"),
				jen.Parens(jen.Op("*").Index(jen.Id(e.inName())).Float64()).Call(jen.Id(e.landName()).Index(jen.Id("j").Op("*").Id(e.inName()).Op(":"))),
			),
		),
	)
	store := jen.Id("v")
	if is32 {
		store = jen.Float32().Call(jen.Id("v"))
	}
	body = append(body, jen.For(jen.Id("i").Op(":=").Range().Id("out")).Block(
		jen.Id("row").Op(":=").Parens(jen.Op("*").Index(jen.Id(e.sizeName())).Float64()).Call(jen.Id(e.projName()).Index(jen.Id("i").Op("*").Id(e.sizeName()).Op(":"))),
		jen.Var().Id("v").Float64(),
		jen.For(jen.List(jen.Id("j"), jen.Id("c")).Op(":=").Range().Id("row")).Block(
			jen.Id("v").Op("+=").Id("c").Op("*").Id("k").Index(jen.Id("j")),
		),
		jen.Id("out").Index(jen.Id("i")).Op("=").Add(store),
	))
	_ = q
	return body
}

// nysKernelBody is the body of the kernel K(x, y) as fmap.Kernel.Eval
// computes it.
func (e *emitter) nysKernelBody() []jen.Code {
	k := e.p.nys.s.Kernel
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
func (e *emitter) nysKernel1Body() []jen.Code {
	k := e.p.nys.s.Kernel
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

// nysHelpers emits the kernel, the widths, the landmarks and the projection
// (Go literals, or decoded from the embedded data file).
func (e *emitter) nysHelpers(f *jen.File) {
	p := e.p
	q := p.nys
	k := q.s.Kernel
	f.Line()
	f.Comment(fmt.Sprintf("%s is the number m of landmarks.", e.sizeName()))
	f.Const().Id(e.sizeName()).Op("=").Add(integer(q.m))
	if k.Homogeneous() {
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s is one coordinate's kernel K_γ(x, y) = (xy)^{γ/2}·k(log(y/x)), K_γ(0, ·) = 0, computed as featmap's reference evaluator computes it; a negative input gives NaN.", e.k1Name()))))
		f.Func().Id(e.k1Name()).Params(jen.List(jen.Id("x"), jen.Id("y")).Float64()).Float64().Block(e.nysKernel1Body()...)
	}
	if k.Type != fmap.ExpChi2 && k.Type != fmap.Poly && !k.Homogeneous() {
		f.Line()
		f.Comment(fmt.Sprintf("%s holds the kernel's widths σ_i.", e.sigmaName()))
		f.Var().Id(e.sigmaName()).Op("=").Index(jen.Id(e.inName())).Float64().Custom(multiLine, e.literalRows(k.Sigma, len(k.Sigma), 1)...)
	}
	f.Line()
	kDoc := fmt.Sprintf("%s is the kernel K(x, y) = %s, computed as featmap's reference evaluator computes it.", e.kernelName(), kernelText(p.m))
	if k.Homogeneous() {
		kDoc = fmt.Sprintf("%s is the %s, computed as featmap's reference evaluator computes it.", e.kernelName(), kernelText(p.m))
	}
	f.Comment(commentBody(paragraphs(kDoc)))
	f.Func().Id(e.kernelName()).Params(jen.List(jen.Id("x"), jen.Id("y")).Op("*").Index(jen.Id(e.inName())).Float64()).Float64().Block(e.nysKernelBody()...)
	lDoc := fmt.Sprintf("%s holds the landmarks l_1..l_m, row j (%s[j*%s:(j+1)*%s]) is l_{j+1}.", e.landName(), e.landName(), e.inName(), e.inName())
	pDoc := fmt.Sprintf("%s holds W^{+1/2}, the pseudo-inverse square root of the landmarks' kernel matrix, row-major.", e.projName())
	pSize := jen.Id(e.sizeName()).Op("*").Id(e.sizeName())
	if q.dim < q.m {
		pDoc = fmt.Sprintf("%s holds Uᵀ·W^{+1/2}, row-major %s×%s: W^{+1/2} the pseudo-inverse square root of the landmarks' kernel matrix, U the top %d directions of the landmarks' Nyström features on the rows the map was fitted to.", e.projName(), e.dimName(), e.sizeName(), q.dim)
		pSize = jen.Id(e.dimName()).Op("*").Id(e.sizeName())
	}
	lSize := jen.Id(e.sizeName()).Op("*").Id(e.inName())
	if q.data == nil {
		f.Line()
		f.Comment(commentBody(paragraphs(lDoc)))
		f.Var().Id(e.landName()).Op("=").Index(lSize).Float64().Custom(multiLine, e.literalRows(q.s.Landmarks, q.n, 1)...)
		f.Line()
		f.Comment(commentBody(paragraphs(pDoc)))
		f.Var().Id(e.projName()).Op("=").Index(pSize).Float64().Custom(multiLine, e.literalRows(q.s.Proj, q.m, 1)...)
		e.modelLiterals(f, true)
		return
	}
	e.modelLiterals(f, false)
	arrays := append([]embedded{{e.landName(), lDoc, lSize}, {e.projName(), pDoc, pSize}}, e.modelArrays()...)
	e.embedData(f, q.data, e.nysDataLayout(), arrays...)
}

// nysDataLayout describes the content of the data file.
func (e *emitter) nysDataLayout() string {
	q := e.p.nys
	return fmt.Sprintf("the %d×%d landmarks, row-major, then the %d×%d projection %s%s, as little-endian float64", q.m, q.n, q.dim, q.m, q.projText(), e.modelLayout())
}

// projText names the projection: W^{+1/2}, or Uᵀ·W^{+1/2} when it keeps
// fewer directions than landmarks.
func (q *nysPlan) projText() string {
	if q.dim < q.m {
		return "Uᵀ·W^{+1/2}"
	}
	return "W^{+1/2}"
}

// nysFormText describes a Nyström map's functional form.
func nysFormText(m *shape) string {
	s := m.Nystroem
	if s.Dim() < s.Size() {
		t := fmt.Sprintf("Nyström map Ψ(x) = Uᵀ·W^{+1/2}·[K(x, l₁), …, K(x, l_m)] with m = %d landmarks l_j ∈ ℝ%s, W_ij = K(l_i, l_j) and U the top %d eigenvectors of the second moment of the m features W^{+1/2}·[K(x, l_j)] over the rows to fit", s.Size(), sup(s.In), s.Dim())
		if s.Dropped > 0 {
			t += fmt.Sprintf("; %d eigenvalues of W too small to invert are left out of W^{+1/2}", s.Dropped)
		}
		return t
	}
	t := fmt.Sprintf("Nyström map Ψ(x) = W^{+1/2}·[K(x, l₁), …, K(x, l_m)] with m = %d landmarks l_j ∈ ℝ%s and W_ij = K(l_i, l_j)", s.Size(), sup(s.In))
	if s.Dropped > 0 {
		t += fmt.Sprintf("; %d eigenvalues of W too small to invert are left out of W^{+1/2} (rank %d)", s.Dropped, s.Size()-s.Dropped)
	}
	return t
}

// nysNegativeText says what non-finite inputs, and those where the kernel
// is not defined, give.
func nysNegativeText(m *shape) string {
	if m.Kernel.Homogeneous() {
		return "An input with a NaN or ±Inf coordinate gives zeros in every component, as featmap's reference evaluator does; a negative coordinate, where the additive kernel is not defined, gives NaN, as it does there. Other inputs outside the domain get the formula's value."
	}
	s := "An input with a NaN or ±Inf coordinate gives zeros in every component, as featmap's reference evaluator does."
	switch k := m.Kernel; {
	case k.Type == fmap.ExpChi2:
		s += " A negative coordinate, where the exp-χ² kernel is not defined (its (x−y)²/(x+y) is negative for x + y < 0), gives the formula's value, as it does there: possibly huge, ±Inf or NaN."
	case k.Skewed():
		s += " A coordinate with x + c < 0, where the skewed kernel is not defined (no log(x + c)), gives NaN, as it does there."
	}
	return s + " Other inputs outside the domain get the formula's value: far from every landmark the kernel values, and so Ψ, fall to 0."
}

// nysParameterLines says where the constants are.
func (e *emitter) nysParameterLines() []string {
	q := e.p.nys
	where := fmt.Sprintf("the Go literals of %s and %s", e.landName(), e.projName())
	if q.data != nil {
		where = q.data.where(e.p.info.File, e.nysDataLayout())
	}
	return wrap(fmt.Sprintf("Landmarks and projection: %d landmarks of %d inputs and the %d×%d matrix %s (%d numbers) are in %s.", q.m, q.n, q.dim, q.m, q.projText(), q.constants(), where))
}

// nysEvaluationLines describes the evaluation of a Nyström map.
func (e *emitter) nysEvaluationLines() []string {
	q := e.p.nys
	return []string{
		fmt.Sprintf("Ψ(x) is the formula, computed with: the m = %d kernel values K(x, l_j), each as featmap's reference evaluator computes it (%s); then the %d components of %s·k, each one sum of %d products in the reference evaluator's order. Nothing is approximated: the values are the reference evaluator's, bit for bit unless the compiler fuses multiply-adds.",
			q.m, strings.TrimSuffix(kernelCost(q.s.Kernel, q.n), "."), q.dim, q.projText(), q.m),
		fmt.Sprintf("%s and %s convert the input to float64, evaluate the same way and round each component to float32.", e.name32(), e.slice32Name()),
	}
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
