package codegen

import (
	"fmt"
	"math"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// polynomialKind emits a polynomial map (fmap.Polynomial: the exact
// monomials and TensorSRHT sketches of a dot-product kernel's degrees),
// followed by the projection of an exact map onto principal directions
// (an fmap.Linear stage) or not. Every component is computed as the reference
// evaluator computes it, in the same order: no fast path.
type polynomialKind struct {
	noFiles
	s   *fmap.Polynomial
	lin *fmap.Linear // nil: the stage's outputs are the map's
	z   int          // the stage's outputs
	// weights are the exact groups' monomial weights, concatenated.
	weights []float64
	// signs and rows are the sketches' tables, concatenated.
	signs []int8
	rows  []int32
	maxF  int       // the most complex features of a sketch
	df    *dataFile // the weights, then the projection; nil: Go literals
}

// maxPolyInts caps the sketches' signs and rows, emitted as Go literals.
const maxPolyInts = 1 << 20

func (q *polynomialKind) plan(p *plan) error {
	if err := noModel(p); err != nil {
		return err
	}
	q.z = q.s.Dim()
	if q.z > maxArgs {
		return fmt.Errorf("codegen: a polynomial map of %d monomials and sketch components; the emitted code keeps them in a stack array of at most %d", q.z, maxArgs)
	}
	for _, e := range q.s.Exact {
		q.weights = append(q.weights, fmap.MonomialWeights(q.s.In, e.Degree, e.Coef)...)
	}
	for _, s := range q.s.Sketch {
		q.signs = append(q.signs, s.Signs...)
		q.rows = append(q.rows, s.Rows...)
		q.maxF = max(q.maxF, s.Features())
	}
	if len(q.signs)+len(q.rows) > maxPolyInts {
		return fmt.Errorf("%w a polynomial map of %d sketch signs and rows (at most %d as Go literals)", ErrUnsupported, len(q.signs)+len(q.rows), maxPolyInts)
	}
	var proj []float64
	if q.lin != nil {
		proj = q.lin.Proj
	}
	q.df = newDataFile(q.weights, proj)
	return nil
}

func (q *polynomialKind) data() *dataFile { return q.df }

func (q *polynomialKind) header(e *emitter) []string { return e.mapHeader(q) }

// Names of a polynomial map's unexported identifiers.
func (e *emitter) polyWName() string      { return e.p.priv + "Weights" }
func (e *emitter) polySignsName() string  { return e.p.priv + "Signs" }
func (e *emitter) polyRowsName() string   { return e.p.priv + "Rows" }
func (e *emitter) polyFeatsName() string  { return e.p.priv + "Features" }
func (e *emitter) polyZName() string      { return e.p.priv + "Z" }
func (e *emitter) polyProjName() string   { return e.p.priv + "Proj" }
func (e *emitter) monomialsName() string  { return e.p.priv + "Monomials" }
func (e *emitter) polySketchName() string { return e.p.priv + "Sketch" }

// api emits N, NSlice, NF32 and NSliceF32 of a polynomial map.
func (q *polynomialKind) api(e *emitter, f *jen.File) {
	e.fourFuncs(f, e.rows(e.docN(q, ""), q.body(e, false), e.doc32(""), q.body(e, true)))
}

// body is the body of N (is32 false) or NF32: NaN everywhere for a
// non-finite input, the stage's features, then the projection if any.
func (q *polynomialKind) body(e *emitter, is32 bool) []jen.Code {
	elem := jen.Float64
	if is32 {
		elem = jen.Float32
	}
	var body []jen.Code
	var in jen.Code = jen.Id(e.inName())
	if e.p.in == 1 {
		in = jen.Lit(1) // one input: no In constant
	}
	body = append(body, jen.Var().Id("t").Index(in).Float64())
	nan := jen.Qual("math", "NaN").Call()
	if is32 {
		nan = jen.Float32().Call(nan)
	}
	fillNaN := []jen.Code{jen.For(jen.Id("i").Op(":=").Range().Id("out")).Block(jen.Id("out").Index(jen.Id("i")).Op("=").Add(nan)), jen.Return()}
	conv := func(v jen.Code) jen.Code {
		if is32 {
			return jen.Float64().Call(v)
		}
		return v
	}
	if e.p.in == 1 {
		body = append(body, jen.Id("t").Index(jen.Lit(0)).Op("=").Add(conv(jen.Id("x"))))
	} else {
		body = append(body, jen.For(jen.List(jen.Id("j"), jen.Id("a")).Op(":=").Range().Id("x")).Block(
			jen.Id("t").Index(jen.Id("j")).Op("=").Add(conv(jen.Id("a"))),
		))
	}
	body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("v")).Op(":=").Range().Id("t")).Block(
		jen.If(jen.Op("!").Parens(jen.Qual("math", "Abs").Call(jen.Id("v")).Op("<=").Qual("math", "MaxFloat64"))).Block(fillNaN...),
	))
	store := func(v jen.Code) jen.Code {
		if is32 {
			return jen.Float32().Call(v)
		}
		return v
	}
	if q.lin == nil && !is32 {
		return append(body, jen.Id(e.polyFeatsName()).Call(jen.Id("out").Index(jen.Op(":")), jen.Id("t").Index(jen.Op(":"))))
	}
	body = append(body,
		jen.Var().Id("z").Index(jen.Id(e.polyZName())).Float64(),
		jen.Id(e.polyFeatsName()).Call(jen.Id("z").Index(jen.Op(":")), jen.Id("t").Index(jen.Op(":"))),
	)
	if q.lin == nil {
		return append(body, jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Id("z")).Block(
			jen.Id("out").Index(jen.Id("i")).Op("=").Add(store(jen.Id("v"))),
		))
	}
	_ = elem
	// The projection, each component one sum in fmap.Linear's order.
	return append(body, jen.For(jen.Id("i").Op(":=").Range().Id("out")).Block(
		jen.Id("row").Op(":=").Parens(jen.Op("*").Index(jen.Id(e.polyZName())).Float64()).Call(jen.Id(e.polyProjName()).Index(jen.Id("i").Op("*").Id(e.polyZName()).Op(":"))),
		jen.Var().Id("v").Float64(),
		jen.For(jen.List(jen.Id("j"), jen.Id("c")).Op(":=").Range().Id("row")).Block(
			jen.Id("v").Op("+=").Float64().Call(jen.Id("c").Op("*").Id("z").Index(jen.Id("j"))),
		),
		jen.Id("out").Index(jen.Id("i")).Op("=").Add(store(jen.Id("v"))),
	))
}

// helpers emits the features function, its helpers and the tables.
func (q *polynomialKind) helpers(e *emitter, f *jen.File) {
	f.Line()
	f.Comment(fmt.Sprintf("%s is the number of the polynomial stage's outputs.", e.polyZName()))
	f.Const().Id(e.polyZName()).Op("=").Add(integer(q.z))
	// The features: one call per exact group and per sketch, at the
	// offsets the reference evaluator writes them.
	var calls []jen.Code
	o, wo, so, ro := 0, 0, 0, 0
	for _, g := range q.s.Exact {
		c := fmap.Monomials(q.s.In, g.Degree)
		calls = append(calls, jen.Id(e.monomialsName()).Call(
			jen.Id("z").Index(jen.Lit(o).Op(":").Lit(o+c)), jen.Id("x"), jen.Lit(g.Degree),
			jen.Id(e.polyWName()).Index(jen.Lit(wo).Op(":").Lit(wo+c))))
		o, wo = o+c, wo+c
	}
	for _, s := range q.s.Sketch {
		scale := math.Sqrt(2 * s.Coef / float64(s.Dim)) // as fmap computes it
		calls = append(calls, jen.Id(e.polySketchName()).Call(
			jen.Id("z").Index(jen.Lit(o).Op(":").Lit(o+s.Dim)), jen.Id("x"), jen.Lit(s.Degree), jen.Lit(s.Size),
			jen.Id(e.polySignsName()).Index(jen.Lit(so).Op(":").Lit(so+len(s.Signs))),
			jen.Id(e.polyRowsName()).Index(jen.Lit(ro).Op(":").Lit(ro+len(s.Rows))),
			e.lit.f64(scale)))
		o, so, ro = o+s.Dim, so+len(s.Signs), ro+len(s.Rows)
	}
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes the polynomial stage's outputs for the finite input x to z: the exact groups' weighted monomials, then the sketches' components, as featmap's reference evaluator computes them.", e.polyFeatsName()))))
	f.Func().Id(e.polyFeatsName()).Params(jen.List(jen.Id("z"), jen.Id("x")).Index().Float64()).Block(calls...)
	if len(q.s.Exact) > 0 {
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes w_k·((x_{i_1}·x_{i_2})·…·x_{i_j}) to dst for the monomials of degree j in the order of their index tuples i_1 ≤ … ≤ i_j (lexicographic), the products taken left to right (the constant w_0 for j = 0).", e.monomialsName()))))
		f.Id(fmt.Sprintf(`func %s(dst, x []float64, j int, w []float64) {
	if j == 0 {
		dst[0] = w[0]
		return
	}
	var idx [%d]int
	var prod [%d]float64
	for l := range j {
		prod[l] = x[0]
		if l > 0 {
			prod[l] = prod[l-1] * x[0]
		}
	}
	for k := 0; ; k++ {
		dst[k] = w[k] * prod[j-1]
		l := j - 1
		for l >= 0 && idx[l] == len(x)-1 {
			l--
		}
		if l < 0 {
			return
		}
		idx[l]++
		for m := l; m < j; m++ {
			idx[m] = idx[l]
			if m == 0 {
				prod[0] = x[idx[0]]
			} else {
				prod[m] = prod[m-1] * x[idx[m]]
			}
		}
	}
}`, e.monomialsName(), fmap.MaxPolyDegree, fmap.MaxPolyDegree))
	}
	if len(q.s.Sketch) > 0 {
		size := q.s.Sketch[0].Size
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes a complex-to-real TensorSRHT sketch of (x·y)^degree to dst (len(dst) components, scale·[Re z_f, Im z_f] per complex feature f): per factor k and block b of size features, x padded to size times the complex signs i^c, c = signs[(k·B + b)·n + i], then the Walsh–Hadamard transform (butterflies a + b, a − b at strides 1, 2, 4, …), its row rows[k·F + f] multiplied into z_f.", e.polySketchName()))))
		f.Id(fmt.Sprintf(`func %s(dst, x []float64, degree, size int, signs []int8, rows []int32, scale float64) {
	n, dim := len(x), len(dst)
	nf := (dim + 1) / 2
	nb := (nf + size - 1) / size
	var zr, zi [%d]float64
	var re, im [%d]float64
	for k := range degree {
		for b := range nb {
			clear(re[:size])
			clear(im[:size])
			sg := signs[(k*nb+b)*n : (k*nb+b+1)*n]
			for i, v := range x {
				switch sg[i] {
				case 0:
					re[i] = v
				case 1:
					im[i] = v
				case 2:
					re[i] = -v
				default:
					im[i] = -v
				}
			}
			for h := 1; h < size; h *= 2 {
				for i := 0; i < size; i += 2 * h {
					for j := i; j < i+h; j++ {
						a, c := re[j], re[j+h]
						re[j], re[j+h] = a+c, a-c
						a, c = im[j], im[j+h]
						im[j], im[j+h] = a+c, a-c
					}
				}
			}
			for f := b * size; f < min((b+1)*size, nf); f++ {
				r := rows[k*nf+f]
				if k == 0 {
					zr[f], zi[f] = re[r], im[r]
					continue
				}
				a, bb, c, d := zr[f], zi[f], re[r], im[r]
				zr[f], zi[f] = float64(a*c)-float64(bb*d), float64(a*d)+float64(bb*c)
			}
		}
	}
	for f := range nf {
		dst[2*f] = scale * zr[f]
		if 2*f+1 < dim {
			dst[2*f+1] = scale * zi[f]
		}
	}
}`, e.polySketchName(), q.maxF, size))
		f.Line()
		f.Comment(fmt.Sprintf("%s holds the sketches' sign codes c (the sign i^c), sketch after sketch.", e.polySignsName()))
		f.Var().Id(e.polySignsName()).Op("=").Index(jen.Lit(len(q.signs))).Int8().Custom(multiLine, intRows(q.signs)...)
		f.Line()
		f.Comment(fmt.Sprintf("%s holds the sketches' Hadamard rows, sketch after sketch.", e.polyRowsName()))
		f.Var().Id(e.polyRowsName()).Op("=").Index(jen.Lit(len(q.rows))).Int32().Custom(multiLine, intRows(q.rows)...)
	}
	wDoc := fmt.Sprintf("%s holds the exact groups' monomial weights √(coef·j!/(k_1!…k_n!)), group after group.", e.polyWName())
	pDoc := fmt.Sprintf("%s holds the projection onto the principal directions, %s × %s, row-major.", e.polyProjName(), e.dimName(), e.polyZName())
	var arrays []embedded
	if len(q.weights) > 0 {
		arrays = append(arrays, embedded{e.polyWName(), wDoc, jen.Lit(len(q.weights))})
	}
	if q.lin != nil {
		arrays = append(arrays, embedded{e.polyProjName(), pDoc, jen.Id(e.dimName()).Op("*").Id(e.polyZName())})
	}
	if q.df == nil {
		if len(q.weights) > 0 {
			f.Line()
			f.Comment(commentBody(paragraphs(wDoc)))
			f.Var().Id(e.polyWName()).Op("=").Index(jen.Lit(len(q.weights))).Float64().Custom(multiLine, e.literalRows(q.weights, len(q.weights), 1)...)
		}
		if q.lin != nil {
			f.Line()
			f.Comment(commentBody(paragraphs(pDoc)))
			f.Var().Id(e.polyProjName()).Op("=").Index(jen.Id(e.dimName()).Op("*").Id(e.polyZName())).Float64().Custom(multiLine, e.literalRows(q.lin.Proj, q.z, 1)...)
		}
		return
	}
	e.embedData(f, q.df, q.dataLayout(e), arrays...)
}

// intRows lists integers as Go literals, 16 a line.
func intRows[T int8 | int32](vs []T) []jen.Code {
	var lines []jen.Code
	for a := 0; a < len(vs); a += 16 {
		var items []jen.Code
		for _, v := range vs[a:min(a+16, len(vs))] {
			items = append(items, jen.Lit(int(v)))
		}
		lines = append(lines, jen.List(items...))
	}
	return lines
}

// dataLayout describes the content of the data file.
func (q *polynomialKind) dataLayout(e *emitter) string {
	s := fmt.Sprintf("the %d monomial weights", len(q.weights))
	if q.lin != nil {
		s += fmt.Sprintf(", then the %d×%d projection", e.p.dim, q.z)
	}
	return s + ", as little-endian float64"
}

func (q *polynomialKind) kernel(e *emitter) string { return kernelText(e.p.m, 0, false) }

// form describes a polynomial map's functional form.
func (q *polynomialKind) form(e *emitter) string {
	s := q.s
	var parts []string
	for _, g := range s.Exact {
		parts = append(parts, fmt.Sprintf("the %d monomials of degree %d weighted by √(%s·j!/k!)", fmap.Monomials(s.In, g.Degree), g.Degree, num(g.Coef)))
	}
	for _, k := range s.Sketch {
		parts = append(parts, fmt.Sprintf("a TensorSRHT sketch of %s·(x·y)^%d in %d components", num(k.Coef), k.Degree, k.Dim))
	}
	t := "polynomial map Ψ(x) = [" + strings.Join(parts, "; ") + "]"
	if q.lin != nil {
		t = fmt.Sprintf("projection of the %s onto %d principal directions", t, e.p.m.Dim)
	}
	return t
}

// edges says what non-finite inputs and inputs outside the domain give.
func (q *polynomialKind) edges(*emitter) string {
	return "An input with a NaN or ±Inf coordinate gives NaN in every component, as featmap's reference evaluator does. Other inputs outside the domain get the formula's value: a polynomial, which grows without bound (and overflows beyond the domain bound the spec was checked against)."
}

// parameterLines says where the constants are.
func (q *polynomialKind) parameterLines(e *emitter) []string {
	where := "Go literals"
	if q.df != nil {
		where = q.df.where(e.p.info.File, q.dataLayout(e))
	}
	proj := ""
	if n := len(q.proj()); n > 0 {
		proj = fmt.Sprintf(", and a projection of %d numbers", n)
	}
	return wrap(fmt.Sprintf("Constants: %d monomial weights, %d sketch signs and %d Hadamard rows%s, in %s (the signs and rows always as Go literals).",
		len(q.weights), len(q.signs), len(q.rows), proj, where))
}

// proj is the projection's entries (none without one).
func (q *polynomialKind) proj() []float64 {
	if q.lin == nil {
		return nil
	}
	return q.lin.Proj
}

// evaluationLines describes the evaluation of a polynomial map.
func (q *polynomialKind) evaluationLines(e *emitter) []string {
	return []string{
		"Ψ(x) is the formula, computed as featmap's reference evaluator computes it, in the same order: the monomials as products taken left to right, the sketches' Hadamard transforms by the same butterflies and their complex products with every product rounded before it is added. Nothing is approximated: the values are the reference evaluator's, bit for bit unless the compiler fuses multiply-adds.",
		fmt.Sprintf("%s and %s convert the input to float64, evaluate the same way and round each component to float32.", e.name32(), e.slice32Name()),
	}
}
