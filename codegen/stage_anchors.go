package codegen

import (
	"fmt"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// anchorsKind emits an anchor map (fmap.Anchors: ANNFM): its tables,
// flattened. Every component is computed as the reference
// evaluator computes it (the same lookup and the same interpolation):
// no fast path, no error beyond rounding.
type anchorsKind struct {
	noFiles
	a      *fmap.Anchors
	tables int       // 1 (shared) or one per coordinate
	per    int       // components per coordinate
	start  []int     // table j's anchors are points[start[j]:start[j+1]]
	points []float64 // every table's points, concatenated
	feat   []float64 // every table's features, concatenated
	scale  []float64 // (m − 1)/(a_{m−1} − a_0) of uniform tables, else 0
	// df is the data file of the points, then the features; nil when
	// they are Go literals.
	df *dataFile
}

func (q *anchorsKind) constants() int { return len(q.points) + len(q.feat) }

func (q *anchorsKind) plan(p *plan) error {
	if err := noModel(p); err != nil {
		return err
	}
	a := q.a
	q.tables, q.per, q.start = len(a.Tables), a.Dim, []int{0}
	if q.tables > maxArgs || q.tables*q.per > maxArgs {
		return fmt.Errorf("codegen: an anchor map of %d coordinates × %d components; the emitted code keeps a row in a stack array of at most %d", q.tables, q.per, maxArgs)
	}
	for _, t := range a.Tables {
		q.points = append(q.points, t.Points...)
		q.feat = append(q.feat, t.Features...)
		q.start = append(q.start, len(q.points))
		q.scale = append(q.scale, t.Scale())
	}
	if q.tables > 1 {
		// A row of one value per coordinate in, the concatenation out.
		p.in, p.dim = q.tables, q.tables*q.per
	}
	q.df = newDataFile(q.points, q.feat)
	return nil
}

func (q *anchorsKind) data() *dataFile { return q.df }

func (q *anchorsKind) header(e *emitter) []string { return e.mapHeader(q) }

// Names of an anchor map's unexported identifiers.
func (e *emitter) pointsName() string { return e.p.priv + "Points" }
func (e *emitter) featName() string   { return e.p.priv + "Features" }
func (e *emitter) startName() string  { return e.p.priv + "Start" }
func (e *emitter) scaleName() string  { return e.p.priv + "Scale" }
func (e *emitter) pickName() string   { return e.p.priv + "Pick" }
func (e *emitter) perName() string    { return e.p.priv + "Per" }

// api emits N, NSlice, NF32 and NSliceF32 of an anchor map.
func (q *anchorsKind) api(e *emitter, f *jen.File) {
	p := e.p
	for _, is32 := range []bool{false, true} {
		name, slice, t := p.name, e.sliceName(), jen.Float64
		doc, typ := e.docN(q, ""), "float64"
		if is32 {
			name, slice, t, doc, typ = e.name32(), e.slice32Name(), jen.Float32, e.doc32(""), "float32"
		}
		f.Comment(commentBody(doc))
		f.Func().Id(name).Params(e.params(t)...).Block(q.body(e, is32)...)
		f.Line()
		f.Comment(commentBody(e.docSlice(slice, name, typ)))
		f.Func().Id(slice).Params(jen.List(jen.Id("dst"), jen.Id("src")).Index().Add(t())).
			Block(e.rowsBody(slice, name, t)...)
		f.Line()
	}
}

// body is the body of N or NF32: per coordinate j, the anchors and
// weight from Pick, then s·((1 − w)·φ(a) + w·φ(b)) per component.
func (q *anchorsKind) body(e *emitter, is32 bool) []jen.Code {
	conv := func(c jen.Code) jen.Code { return c }
	store := func(c jen.Code) jen.Code { return c }
	if is32 {
		conv = func(c jen.Code) jen.Code { return jen.Float64().Call(c) }
		store = func(c jen.Code) jen.Code { return jen.Float32().Call(c) }
	}
	per := jen.Id(e.perName())
	// coord writes coordinate j's components to o, done ending the
	// zero case.
	coord := func(j, v, o, done jen.Code) []jen.Code {
		return []jen.Code{
			jen.List(jen.Id("a"), jen.Id("b"), jen.Id("w"), jen.Id("s"), jen.Id("ok")).Op(":=").Id(e.pickName()).Call(j, conv(v)),
			jen.If(jen.Op("!").Id("ok")).Block(
				jen.For(jen.Id("c").Op(":=").Range().Add(per.Clone())).Block(jen.Add(o).Index(jen.Id("c")).Op("=").Lit(0)),
				done,
			),
			jen.List(jen.Id("fa"), jen.Id("fb")).Op(":=").List(
				jen.Id(e.featName()).Index(jen.Id("a").Op("*").Add(per.Clone()).Op(":").Parens(jen.Id("a").Op("+").Lit(1)).Op("*").Add(per.Clone())),
				jen.Id(e.featName()).Index(jen.Id("b").Op("*").Add(per.Clone()).Op(":").Parens(jen.Id("b").Op("+").Lit(1)).Op("*").Add(per.Clone())),
			),
			jen.For(jen.Id("c").Op(":=").Range().Add(per.Clone())).Block(
				jen.Add(o).Index(jen.Id("c")).Op("=").Add(store(jen.Id("s").Op("*").Parens(
					jen.Parens(jen.Lit(1).Op("-").Id("w")).Op("*").Id("fa").Index(jen.Id("c")).Op("+").Id("w").Op("*").Id("fb").Index(jen.Id("c"))))),
			),
		}
	}
	if q.tables == 1 {
		return coord(jen.Lit(0), jen.Id("x"), jen.Id("out"), jen.Return())
	}
	return []jen.Code{jen.For(jen.List(jen.Id("j"), jen.Id("v")).Op(":=").Range().Id("x")).Block(
		append([]jen.Code{jen.Id("o").Op(":=").Id("out").Index(jen.Id("j").Op("*").Add(per.Clone()).Op(":").Parens(jen.Id("j").Op("+").Lit(1)).Op("*").Add(per.Clone()))},
			coord(jen.Id("j"), jen.Id("v"), jen.Id("o"), jen.Continue())...)...,
	)}
}

// helpers emits Pick, the constants and their decoding.
func (q *anchorsKind) helpers(e *emitter, f *jen.File) {
	f.Line()
	f.Comment(fmt.Sprintf("%s is the number of components per coordinate.", e.perName()))
	f.Const().Id(e.perName()).Op("=").Add(integer(q.per))
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s[j]..%s[j+1] are the anchors of table j in %s.", e.startName(), e.startName(), e.pointsName()))))
	starts := make([]jen.Code, len(q.start))
	for i, s := range q.start {
		starts[i] = integer(s)
	}
	f.Var().Id(e.startName()).Op("=").Index(jen.Op("...")).Int().Values(starts...)
	if uniform, _ := q.kinds(); uniform {
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s[j] is (m − 1)/(a_{m−1} − a_0) of uniform table j (0 for the others), as the reference evaluator computes it.", e.scaleName()))))
		f.Var().Id(e.scaleName()).Op("=").Index(jen.Op("...")).Float64().Custom(multiLine, e.literalRows(q.scale, len(q.scale), 1)...)
	}
	f.Line()
	// The source is text; its one math.MaxFloat64 goes through jennifer,
	// which then imports math.
	head, tail, _ := strings.Cut(q.pickSource(e), mathMax)
	f.Id(head).Qual("math", "MaxFloat64").Id(tail)
	pDoc := fmt.Sprintf("%s holds the anchors of every table, increasing within a table.", e.pointsName())
	fDoc := fmt.Sprintf("%s holds the features φ(a) of every anchor, %s numbers per anchor, in the order of %s.", e.featName(), e.perName(), e.pointsName())
	if q.df == nil {
		f.Line()
		f.Comment(commentBody(paragraphs(pDoc)))
		f.Var().Id(e.pointsName()).Op("=").Index(jen.Op("...")).Float64().Custom(multiLine, e.literalRows(q.points, len(q.points), 1)...)
		f.Line()
		f.Comment(commentBody(paragraphs(fDoc)))
		f.Var().Id(e.featName()).Op("=").Index(jen.Op("...")).Float64().Custom(multiLine, e.literalRows(q.feat, q.per, q.per)...)
		return
	}
	e.embedData(f, q.df, q.dataLayout(),
		embedded{e.pointsName(), pDoc, integer(len(q.points))}, embedded{e.featName(), fDoc, integer(len(q.feat))})
}

// kinds reports whether some table is equally spaced (scale ≠ 0) and
// whether some is not.
func (q *anchorsKind) kinds() (uniform, other bool) {
	return slices.ContainsFunc(q.scale, func(s float64) bool { return s != 0 }),
		slices.Contains(q.scale, 0)
}

// pickSource is the Go source of Pick: fmap.AnchorTable.Pick for the
// map's assignment, with the homogeneous input rule in front.
func (q *anchorsKind) pickSource(e *emitter) string {
	uniform, other := q.kinds()
	var b strings.Builder
	fmt.Fprintf(&b, "// %s returns, for the value v of coordinate j, the anchors a and b (rows\n// of %s) and the weight w with ψ(v) = s·((1 − w)·φ(a) + w·φ(b)), and\n// ok false when ψ(v) = 0.\n", e.pickName(), e.featName())
	fmt.Fprintf(&b, "func %s(j int, v float64) (a, b int, w, s float64, ok bool) {\n", e.pickName())
	b.WriteString("s = 1\nif !(v > 0) {\n")
	if q.a.Negative == fmap.NegativeZero {
		b.WriteString("return 0, 0, 0, 0, false\n}\n")
	} else {
		b.WriteString("if v == 0 || v != v {\nreturn 0, 0, 0, 0, false\n}\nv, s = -v, -1\n}\n")
	}
	b.WriteString("if v > " + mathMax + " {\nreturn 0, 0, 0, 0, false\n}\n")
	fmt.Fprintf(&b, "lo, hi := %s[j], %s[j+1]\npts := %s[lo:hi]\nm := hi - lo\nif m == 1 {\nreturn lo, lo, 0, s, true\n}\n", e.startName(), e.startName(), e.pointsName())
	if uniform {
		end := ""
		if other {
			fmt.Fprintf(&b, "if sc := %s[j]; sc != 0 {\nu := (v - pts[0]) * sc\n", e.scaleName())
			end = "}\n"
		} else {
			fmt.Fprintf(&b, "u := (v - pts[0]) * %s[j]\n", e.scaleName())
		}
		switch q.a.Assign {
		case fmap.Nearest1:
			b.WriteString("i := int(math.Min(float64(m-1), math.Max(0, math.Floor(u+0.5))))\nreturn lo + i, lo + i, 0, s, true\n")
		case fmap.Pair2Linear:
			b.WriteString("i := int(math.Min(float64(m-2), math.Max(0, math.Floor(u))))\nreturn lo + i, lo + i + 1, math.Min(1, math.Max(0, u-float64(i))), s, true\n")
		default:
			b.WriteString("i := int(math.Min(float64(m-2), math.Max(0, math.Floor(u))))\nreturn lo + i, lo + i + 1, 0.5, s, true\n")
		}
		b.WriteString(end)
	}
	if other {
		switch q.a.Assign {
		case fmap.Nearest1:
			b.WriteString(nearestSource + "return lo + n, lo + n, 0, s, true\n")
		case fmap.Pair2Linear:
			b.WriteString(belowSource + "p, r := pts[i], pts[i+1]\nswitch {\ncase v >= r:\nw = 1\ncase v > p:\nw = (v - p) / (r - p)\n}\nreturn lo + i, lo + i + 1, w, s, true\n")
		default:
			b.WriteString(nearestSource + "switch {\ncase n == 0:\nreturn lo, lo + 1, 0.5, s, true\ncase n == m-1:\nreturn lo + m - 2, lo + m - 1, 0.5, s, true\ncase v-pts[n-1] < pts[n+1]-v:\nreturn lo + n - 1, lo + n, 0.5, s, true\n}\nreturn lo + n, lo + n + 1, 0.5, s, true\n")
		}
	}
	b.WriteString("}\n")
	return b.String()
}

// mathMax marks where Pick's source refers to math.MaxFloat64.
const mathMax = "MATH_MAX_FLOAT64"

// nearestSource finds n, the number of midpoints (a_i + a_{i+1})/2 at or
// below v (the nearest anchor, ties to the upper one), by bisection.
const nearestSource = `n, top := 0, m-1
for n < top {
mid := (n + top) / 2
if v >= (pts[mid]+pts[mid+1])/2 {
n = mid + 1
} else {
top = mid
}
}
`

// belowSource finds i ≤ m − 2, the number of anchors a_1..a_{m−2} at or
// below v (the bracketing pair (i, i+1)), by bisection.
const belowSource = `i, top := 0, m-2
for i < top {
mid := (i + top) / 2
if v >= pts[mid+1] {
i = mid + 1
} else {
top = mid
}
}
`

// dataLayout describes the content of the data file.
func (q *anchorsKind) dataLayout() string {
	return fmt.Sprintf("the %d anchors of %d tables, then their %d×%d features, as little-endian float64", len(q.points), q.tables, len(q.points), q.per)
}

// kernel is the kernel of an anchor map (a homogeneous kernel of γ as the
// kernel states it, 1 by default).
func (q *anchorsKind) kernel(e *emitter) string {
	g := e.p.m.Kernel.Gamma
	if g == 0 {
		g = 1
	}
	return kernelText(e.p.m, g, false)
}

// form describes an anchor map's functional form.
func (q *anchorsKind) form(*emitter) string {
	a := q.a
	how := map[fmap.Assign]string{
		fmap.Nearest1:    "φ of the nearest anchor",
		fmap.Pair2Linear: "(1 − w)·φ(a_i) + w·φ(a_{i+1}) between the two anchors that bracket x, w = (x − a_i)/(a_{i+1} − a_i)",
		fmap.Pair2Mean:   "½·(φ(a_j) + φ(a_k)) of the two nearest anchors",
	}[a.Assign]
	tables := "one table of anchors shared by every coordinate"
	if len(a.Tables) > 1 {
		tables = fmt.Sprintf("a table of anchors per coordinate (%d, learned from the data)", len(a.Tables))
	}
	return fmt.Sprintf("anchor map (ANNFM): ψ(x) = %s, φ(a) the rows of V_D·diag(√λ) of the anchors' kernel matrix; %s", how, tables)
}

// edges says what 0, negative and non-finite inputs give.
func (q *anchorsKind) edges(*emitter) string {
	neg := "x < 0 gives −ψ(|x|) (the positive-definite extension sign(x)·sign(y)·K(|x|, |y|))"
	if q.a.Negative == fmap.NegativeZero {
		neg = "x < 0 gives zeros"
	}
	return "x = 0 gives zeros; " + neg + "; NaN and ±Inf give zeros; inputs beyond the end anchors get the end anchor's features."
}

// parameterLines says where the constants are.
func (q *anchorsKind) parameterLines(e *emitter) []string {
	where := fmt.Sprintf("the Go literals of %s and %s", e.pointsName(), e.featName())
	if q.df != nil {
		where = q.df.where(e.p.info.File, q.dataLayout())
	}
	return wrap(fmt.Sprintf("Anchors and features: %d tables, %d anchors in all, %d components each (%d numbers), are in %s.",
		q.tables, len(q.points), q.per, q.constants(), where))
}

// evaluationLines describes the evaluation of an anchor map.
func (q *anchorsKind) evaluationLines(e *emitter) []string {
	return []string{
		fmt.Sprintf("ψ(x) is the reference evaluator's lookup and interpolation, bit for bit unless the compiler fuses multiply-adds: equally spaced tables find the anchor by arithmetic, the others by bisection over the anchors (%s); then s·((1 − w)·φ(a) + w·φ(b)) per component: three multiplications and an addition.", e.pickName()),
		fmt.Sprintf("%s and %s convert the input to float64, evaluate the same way and round each component to float32.", e.name32(), e.slice32Name()),
	}
}
