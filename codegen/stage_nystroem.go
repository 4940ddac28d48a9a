package codegen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// nystroemKind emits a Nyström map (fmap.Nystroem): the kernel values at
// the landmarks, computed as featmap's reference evaluator computes them
// (nystroem.go), then the projection. Every component is computed by the
// formula: no fast path, no error beyond rounding.
type nystroemKind struct {
	s    *fmap.Nystroem
	m, n int       // landmarks, inputs
	dim  int       // outputs: m, or fewer (a D×m projection)
	df   *dataFile // the landmarks, then the projection, then the model; nil: Go literals
	// dform, centre, s2 and limit are the dense evaluation's form, centre
	// c, factors s2 and limit on |x − c| (emit_nystroem_dense.go); dform
	// nil: the map is evaluated by the formula alone.
	dform      *nysForm
	centre, s2 []float64
	limit      float64
	// f32: NF32 and NSliceF32 compute in float32 (emit_nystroem_dense32.go),
	// below limit32 on |x − c|; measured32: gen measured the float32 path,
	// err32 and kern32 its component and kernel errors there, beside the
	// budget32 they were held to (taken or not).
	f32, measured32                  bool
	limit32, err32, kern32, budget32 float64
}

// files are the dense kernel files of a dense map's package.
func (q *nystroemKind) files(e *emitter) []File {
	if !q.nysDense() {
		return nil
	}
	return DenseFiles(e.p.info.Package, e.p.info.Version)
}

// constants is the number of constants of the stage.
func (q *nystroemKind) constants() int { return len(q.s.Landmarks) + len(q.s.Proj) }

func (q *nystroemKind) plan(p *plan) error {
	s := q.s
	q.m, q.n, q.dim = s.Size(), s.In, s.Dim()
	if q.n > maxArgs || q.m > maxArgs {
		return fmt.Errorf("codegen: a Nyström map of %d inputs and %d landmarks; the emitted code keeps each in a stack array of at most %d", q.n, q.m, maxArgs)
	}
	k := s.Kernel
	c := kernelCodeOf(k.Type)
	if c == nil || c.body == nil {
		return fmt.Errorf("%w a Nyström map of the %s kernel", ErrUnsupported, k.Type)
	}
	if c.widths && len(k.Sigma) != q.n {
		return fmt.Errorf("codegen: the Nyström kernel has %d widths for %d inputs", len(k.Sigma), q.n)
	}
	var modelW, modelB []float64
	if mod := p.m.Model; mod != nil {
		modelW, modelB = mod.W, mod.Bias
	}
	q.df = newDataFile(s.Landmarks, s.Proj, modelW, modelB)
	q.nysPlanDense()
	if q.nysDense() && q.dform.values32 != nil {
		q.nys32Plan(p)
	}
	return nil
}

func (q *nystroemKind) data() *dataFile { return q.df }

func (q *nystroemKind) header(e *emitter) []string { return e.mapHeader(q) }

// Names of a Nyström map's unexported identifiers.
func (e *emitter) landName() string   { return e.p.priv + "Landmarks" }
func (e *emitter) projName() string   { return e.p.priv + "Proj" }
func (e *emitter) sizeName() string   { return e.p.priv + "M" }
func (e *emitter) kernelName() string { return e.p.priv + "Kernel" }
func (e *emitter) k1Name() string     { return e.p.priv + "Kernel1" }
func (e *emitter) sigmaName() string  { return e.p.priv + "Sigma" }

// api emits N, NSlice, NF32 and NSliceF32 of a Nyström map, then its
// model's predictor.
func (q *nystroemKind) api(e *emitter, f *jen.File) {
	if q.nysDense() {
		e.denseAPI(f, q, q.f32)
		return
	}
	e.fourFuncs(f, e.rows(e.docN(q, ""), q.body(e, false), e.doc32(""), q.body(e, true)))
	e.modelAPI(f)
}

// body is the body of N (is32 false) or NF32: zeros for a non-finite
// input, the kernel values k_j = K(x, l_j), then Proj·k, each component one
// sum in the reference evaluator's order.
func (q *nystroemKind) body(e *emitter, is32 bool) []jen.Code {
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
	return body
}

// helpers emits the kernel, the widths, the landmarks and the projection
// (Go literals, or decoded from the embedded data file).
func (q *nystroemKind) helpers(e *emitter, f *jen.File) {
	k := q.s.Kernel
	f.Line()
	f.Comment(fmt.Sprintf("%s is the number m of landmarks.", e.sizeName()))
	f.Const().Id(e.sizeName()).Op("=").Add(integer(q.m))
	if k.Homogeneous() {
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s is one coordinate's kernel K_γ(x, y) = (xy)^{γ/2}·k(log(y/x)), K_γ(0, ·) = 0, computed as featmap's reference evaluator computes it; a negative input gives NaN.", e.k1Name()))))
		f.Func().Id(e.k1Name()).Params(jen.List(jen.Id("x"), jen.Id("y")).Float64()).Float64().Block(e.nysKernel1Body(k)...)
	}
	if kernelCodeOf(k.Type).widths {
		f.Line()
		f.Comment(fmt.Sprintf("%s holds the kernel's widths σ_i.", e.sigmaName()))
		f.Var().Id(e.sigmaName()).Op("=").Index(jen.Id(e.inName())).Float64().Custom(multiLine, e.literalRows(k.Sigma, len(k.Sigma), 1)...)
	}
	f.Line()
	kDoc := fmt.Sprintf("%s is the kernel K(x, y) = %s, computed as featmap's reference evaluator computes it.", e.kernelName(), q.kernel(e))
	if k.Homogeneous() {
		kDoc = fmt.Sprintf("%s is the %s, computed as featmap's reference evaluator computes it.", e.kernelName(), q.kernel(e))
	}
	f.Comment(commentBody(paragraphs(kDoc)))
	f.Func().Id(e.kernelName()).Params(jen.List(jen.Id("x"), jen.Id("y")).Op("*").Index(jen.Id(e.inName())).Float64()).Float64().Block(e.nysKernelBody(k)...)
	lDoc := fmt.Sprintf("%s holds the landmarks l_1..l_m, row j (%s[j*%s:(j+1)*%s]) is l_{j+1}.", e.landName(), e.landName(), e.inName(), e.inName())
	pDoc := fmt.Sprintf("%s holds W^{+1/2}, the pseudo-inverse square root of the landmarks' kernel matrix, row-major.", e.projName())
	pSize := jen.Id(e.sizeName()).Op("*").Id(e.sizeName())
	if q.dim < q.m {
		pDoc = fmt.Sprintf("%s holds Uᵀ·W^{+1/2}, row-major %s×%s: W^{+1/2} the pseudo-inverse square root of the landmarks' kernel matrix, U the top %d directions of the landmarks' Nyström features on the rows the map was fitted to.", e.projName(), e.dimName(), e.sizeName(), q.dim)
		pSize = jen.Id(e.dimName()).Op("*").Id(e.sizeName())
	}
	lSize := jen.Id(e.sizeName()).Op("*").Id(e.inName())
	if q.df == nil {
		f.Line()
		f.Comment(commentBody(paragraphs(lDoc)))
		f.Var().Id(e.landName()).Op("=").Index(lSize).Float64().Custom(multiLine, e.literalRows(q.s.Landmarks, q.n, 1)...)
		f.Line()
		f.Comment(commentBody(paragraphs(pDoc)))
		f.Var().Id(e.projName()).Op("=").Index(pSize).Float64().Custom(multiLine, e.literalRows(q.s.Proj, q.m, 1)...)
		e.modelLiterals(f, true)
	} else {
		e.modelLiterals(f, false)
		arrays := append([]embedded{{e.landName(), lDoc, lSize}, {e.projName(), pDoc, pSize}}, e.modelArrays()...)
		e.embedData(f, q.df, q.dataLayout(e), arrays...)
	}
	if q.nysDense() {
		q.nysDenseHelpers(e, f)
		q.nys32Helpers(e, f)
	}
}

// dataLayout describes the content of the data file.
func (q *nystroemKind) dataLayout(e *emitter) string {
	return fmt.Sprintf("the %d×%d landmarks, row-major, then the %d×%d projection %s%s, as little-endian float64", q.m, q.n, q.dim, q.m, q.projText(), e.modelLayout())
}

// projText names the projection: W^{+1/2}, or Uᵀ·W^{+1/2} when it keeps
// fewer directions than landmarks.
func (q *nystroemKind) projText() string {
	if q.dim < q.m {
		return "Uᵀ·W^{+1/2}"
	}
	return "W^{+1/2}"
}

// kernel is the additive kernel of whole rows (a homogeneous kernel of γ
// as the kernel states it, 1 by default), or the kernel itself.
func (q *nystroemKind) kernel(e *emitter) string {
	g := 0.0
	if k := e.p.m.Kernel; k.Homogeneous() {
		g = k.Gamma
		if g == 0 {
			g = 1
		}
	}
	return kernelText(e.p.m, g, true)
}

// form describes a Nyström map's functional form.
func (q *nystroemKind) form(*emitter) string {
	s := q.s
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

// edges says what non-finite inputs, and those where the kernel is not
// defined, give.
func (q *nystroemKind) edges(e *emitter) string {
	m := e.p.m
	if m.Kernel.Homogeneous() {
		return "An input with a NaN or ±Inf coordinate gives zeros in every component, as featmap's reference evaluator does; a negative coordinate, where the additive kernel is not defined, gives NaN, as it does there. Other inputs outside the domain get the formula's value."
	}
	s := "An input with a NaN or ±Inf coordinate gives zeros in every component, as featmap's reference evaluator does."
	s += kernelCodeOf(m.Kernel.Type).edges
	return s + " Other inputs outside the domain get the formula's value: far from every landmark the kernel values, and so Ψ, fall to 0."
}

// parameterLines says where the constants are.
func (q *nystroemKind) parameterLines(e *emitter) []string {
	where := fmt.Sprintf("the Go literals of %s and %s", e.landName(), e.projName())
	if q.df != nil {
		where = q.df.where(e.p.info.File, q.dataLayout(e))
	}
	return wrap(fmt.Sprintf("Landmarks and projection: %d landmarks of %d inputs and the %d×%d matrix %s (%d numbers) are in %s.", q.m, q.n, q.dim, q.m, q.projText(), q.constants(), where))
}

// evaluationLines describes the evaluation of a Nyström map.
func (q *nystroemKind) evaluationLines(e *emitter) []string {
	if q.nysDense() {
		return q.nysDenseEvaluationLines(e)
	}
	return []string{
		fmt.Sprintf("Ψ(x) is the formula, computed with: the m = %d kernel values K(x, l_j), each as featmap's reference evaluator computes it (%s); then the %d components of %s·k, each one sum of %d products in the reference evaluator's order. Nothing is approximated: the values are the reference evaluator's, bit for bit unless the compiler fuses multiply-adds.",
			q.m, strings.TrimSuffix(kernelCost(q.s.Kernel, q.n), "."), q.dim, q.projText(), q.m),
		fmt.Sprintf("%s and %s convert the input to float64, evaluate the same way and round each component to float32.", e.name32(), e.slice32Name()),
	}
}
