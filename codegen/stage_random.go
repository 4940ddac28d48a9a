package codegen

import (
	"fmt"
	"math"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// Limits and choices of the random-feature emission.
const (
	// MaxLiterals caps the constants of a map written as Go literals (a
	// random stage's frequency coordinates and phases and what follows
	// them in the data file, a Nyström map's landmarks and projection, an
	// anchor map's tables): 4096 numbers are about 100 kB of source, which
	// go build compiles in a fraction of a second. Beyond, they go to a
	// little-endian data file beside the Go file, embedded with
	// //go:embed and decoded once at package init.
	MaxLiterals = 4096
	// maxArgs caps the length of the random stage's argument t (n, or n·d
	// after a per-coordinate stage): the emitted code keeps it in a stack
	// array of that many float64, 64 KiB, half of the largest variable the
	// Go compiler keeps on the stack (128 KiB; larger ones would be
	// allocated on the heap at every call).
	maxArgs = 8192
	// seqTerms: dot products of fewer terms are one sum in the reference
	// evaluator's order; longer ones are `accumulators` independent
	// partial sums (added pairwise at the end), so that the additions of
	// one row overlap instead of waiting for each other. Four keep the
	// floating-point adder busy without FMA; eight, or two rows at a time,
	// measured no faster (BenchmarkRFF64).
	seqTerms     = 8
	accumulators = 4
)

// randomKind emits a random-feature map (fmap.Random: rff): the random
// stage alone, or after a per-coordinate stage (exp-χ²'s inner map ψ of
// every coordinate), and either followed by an fmap.Linear stage (rf-pca's
// projection) or not. Every component is computed by the formula, the
// sines and cosines by math.Sincos's own arithmetic (emitter.sincos): no
// fast path, no error beyond rounding. Its evaluation is emit_random.go.
type randomKind struct {
	r     *fmap.Random
	per   *fmap.PerCoordinate // the per-coordinate stage before r, nil without one
	freqs int                 // m
	args  int                 // the random stage's inputs: n, or n·d after a per-coordinate stage
	// scale is the factor of every component: c/√m (cos-sin) or c·√(2/m)
	// (phase), c the stage's shrinkage, as the reference evaluator
	// computes it (fmap.Random.ComponentScale).
	scale float64
	// inner is the plan of the per-coordinate map ψ (nil for a random
	// stage alone): a formula kind, without fast paths.
	inner *plan
	// lin is the projection of an rf-pca map (nil otherwise); projT is its
	// matrix transposed, row j (projT[j*k:(j+1)*k]) the k coefficients of
	// random feature z_j, so that N adds P_ij·(z_j − μ_j) to every output
	// as feature j is computed (no scratch of the m features) while each
	// output is still one sum over j in the reference evaluator's order.
	lin   *fmap.Linear
	projT []float64
	// df is the data file of the constants (ω row-major, then the phases,
	// then projT and the mean of an rf-pca map, then the model's weights),
	// nil when they are Go literals.
	df *dataFile
	// model is the map's linear model (nil without one).
	model *fmap.LinearModel
	// block: the stage is a block of a blocks map, which evaluates it
	// by its own code (stage_blocks.go, emit_dense_blocks.go): dense()
	// and staged() are false for it.
	block bool
	// blockScale is a block's scale s_g (its components are s_g times
	// the block map's), which its dense path folds into featScale.
	blockScale float64
	// f32: NF32 and NSliceF32 compute in float32 (emit_dense32.go),
	// with the component and kernel errors err32 and kern32 measured at
	// generation time.
	f32           bool
	err32, kern32 float64
}

// constants is the number of constants of the random stage (and of the
// projection after it, and of the model).
func (k *randomKind) constants() int {
	n := len(k.r.Freq) + len(k.r.Phase)
	if k.lin != nil {
		n += len(k.lin.Proj) + len(k.lin.Mean)
	}
	if k.model != nil {
		n += len(k.model.W) + len(k.model.Bias)
	}
	return n
}

// centred reports whether an rf-pca map subtracts a mean before projecting.
func (k *randomKind) centred() bool { return k.lin != nil && len(k.lin.Mean) > 0 }

// centredMean is the mean μ of a centred rf-pca map, nil otherwise.
func (k *randomKind) centredMean() []float64 {
	if k.centred() {
		return k.lin.Mean
	}
	return nil
}

func (k *randomKind) plan(p *plan) error {
	r := k.r
	dom := p.m.Domain
	if k.per != nil {
		dom = fmap.Domain{} // the random stage's inputs are ψ's values
	}
	if err := randomPhases(r, dom); err != nil {
		return err
	}
	if k.per != nil {
		ip, err := innerPlan(p, k.per.Inner)
		if err != nil {
			return err
		}
		k.inner = ip
	}
	k.freqs, k.args, k.model = r.Frequencies(), r.In, p.m.Model
	if k.args > maxArgs {
		return fmt.Errorf("codegen: the random features take %d inputs; the emitted code keeps them in a stack array of at most %d", k.args, maxArgs)
	}
	k.scale = r.ComponentScale()
	if l := k.lin; l != nil {
		d := l.Dim()
		k.projT = make([]float64, len(l.Proj))
		for i := range d {
			for j := range l.In {
				k.projT[j*d+i] = l.Proj[i*l.In+j]
			}
		}
	}
	var modelW, modelB []float64
	if mod := k.model; mod != nil {
		modelW, modelB = mod.W, mod.Bias
	}
	k.df = newDataFile(r.Freq, r.Phase, k.projT, k.centredMean(), modelW, modelB)
	switch {
	case k.dense():
		k.dense32Plan(p)
	case k.staged() && k.lin != nil && !k.prepared():
		k.staged32Plan(p)
	}
	return nil
}

// innerPlan plans the one-input map ψ of the per-coordinate stage inner of
// p's map, as a map of its own on the smallest range that holds every axis
// of the map's domain, by its formula alone (its phases checked there).
func innerPlan(p *plan, inner fmap.Stage) (*plan, error) {
	m := p.m
	dom := fmap.Domain{Integer: m.Domain.Integer, Lo: []float64{math.Inf(1)}, Hi: []float64{math.Inf(-1)}}
	for i := range m.InDim {
		dom.Lo[0] = math.Min(dom.Lo[0], m.Domain.Lo[i])
		dom.Hi[0] = math.Max(dom.Hi[0], m.Domain.Hi[i])
	}
	im := &fmap.Map{Kernel: m.Kernel, InDim: 1, Dim: inner.Out(1), Domain: dom, Method: m.Method, Stages: []fmap.Stage{inner}}
	if err := im.Validate(); err != nil {
		return nil, fmt.Errorf("codegen: the per-coordinate map: codegen: invalid map: %w", err)
	}
	kind, err := kindOf(im)
	if err != nil {
		return nil, fmt.Errorf("codegen: the per-coordinate map: %w", err)
	}
	ip := &plan{m: im, info: p.info, name: p.priv + "Inner", priv: p.priv + "Inner", dim: im.Dim, in: 1, kind: kind}
	return ip, ip.formula().planFormula(ip)
}

// formula is the formula kind of an inner map's plan.
func (p *plan) formula() formula { return p.kind.(formula) }

func (k *randomKind) data() *dataFile { return k.df }

func (k *randomKind) header(e *emitter) []string { return e.mapHeader(k) }

// api emits N, NSlice, NF32 and NSliceF32 of a random-feature map, then
// its model's predictor. N and NF32 are the same evaluation (NF32
// converts its input to float64 and rounds every component), written out
// twice so that neither needs a temporary of D components; an rf-pca map's
// NF32 is N, rounded.
func (k *randomKind) api(e *emitter, f *jen.File) {
	if k.dense() {
		e.denseAPI(f, k, k.f32)
		return
	}
	if k.staged() {
		a := apiFuncs{docN: e.docN(k, ""), n: k.stagedN(e), doc32: e.doc32(""), n32: e.linear32Body(),
			slice: k.stagedSlice(e, false), slice32: k.stagedSlice32(e)}
		if k.f32 {
			a.doc32, a.n32, a.slice32 = e.doc32Computed(), k.staged32N(e), k.stagedSlice(e, true)
		}
		e.fourFuncs(f, a)
		e.modelAPI(f)
		return
	}
	n32 := k.body(e, true)
	if k.lin != nil {
		n32 = e.linear32Body()
	}
	e.fourFuncs(f, e.rows(e.docN(k, ""), k.body(e, false), e.doc32(""), n32))
	e.modelAPI(f)
}

// helpers emits the constants of a random map, its per-coordinate map ψ
// and, for a data file, the embedded bytes and their decoding.
func (k *randomKind) helpers(e *emitter, f *jen.File) {
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s is the number m of random frequencies and %s the length of their argument t (%s).",
		e.freqsName(), e.argsName(), k.argsText(e)))))
	f.Const().Defs(
		jen.Id(e.freqsName()).Op("=").Add(integer(k.freqs)),
		jen.Id(e.argsName()).Op("=").Add(integer(k.args)),
	)
	k.innerHelpers(e, f)
	wSize := jen.Id(e.freqsName()).Op("*").Id(e.argsName())
	wDoc := fmt.Sprintf("%s holds the frequencies ω_1..ω_m, row k (%s[k*%s:(k+1)*%s]) is ω_{k+1}.", e.wName(), e.wName(), e.argsName(), e.argsName())
	bDoc := fmt.Sprintf("%s holds the phases b_1..b_m.", e.bName())
	phases := k.r.Features == fmap.Phase
	if k.df == nil {
		f.Line()
		f.Comment(commentBody(paragraphs(wDoc)))
		group := 1
		if k.inner != nil {
			group = k.inner.dim
		}
		f.Var().Id(e.wName()).Op("=").Index(wSize).Float64().Custom(multiLine, e.literalRows(k.r.Freq, k.args, group)...)
		if phases {
			f.Line()
			f.Comment(commentBody(paragraphs(bDoc)))
			f.Var().Id(e.bName()).Op("=").Index(jen.Id(e.freqsName())).Float64().Custom(multiLine, e.literalRows(k.r.Phase, len(k.r.Phase), 1)...)
		}
		if k.lin != nil {
			f.Line()
			f.Comment(commentBody(paragraphs(e.projDoc())))
			f.Var().Id(e.projName()).Op("=").Index(e.projSize()).Float64().Custom(multiLine, e.literalRows(k.projT, e.p.dim, 1)...)
			if k.centred() {
				f.Line()
				f.Comment(commentBody(paragraphs(e.meanDoc())))
				f.Var().Id(e.meanName()).Op("=").Index(jen.Id(e.featsName())).Float64().Custom(multiLine, e.literalRows(k.lin.Mean, len(k.lin.Mean), 1)...)
			}
		}
		e.modelLiterals(f, true)
		k.linearHelpers(e, f)
		k.denseHelpers(e, f)
		k.dense32Helpers(e, f)
		k.stagedHelpers(e, f)
		k.staged32Helpers(e, f)
		return
	}
	arrays := []embedded{{e.wName(), wDoc, wSize}}
	if phases {
		arrays = append(arrays, embedded{e.bName(), bDoc, jen.Id(e.freqsName())})
	}
	if k.lin != nil {
		arrays = append(arrays, embedded{e.projName(), e.projDoc(), e.projSize()})
		if k.centred() {
			arrays = append(arrays, embedded{e.meanName(), e.meanDoc(), jen.Id(e.featsName())})
		}
	}
	arrays = append(arrays, e.modelArrays()...)
	e.modelLiterals(f, false)
	e.embedData(f, k.df, k.dataLayout(e), arrays...)
	k.linearHelpers(e, f)
	k.denseHelpers(e, f)
	k.dense32Helpers(e, f)
	k.stagedHelpers(e, f)
	k.staged32Helpers(e, f)
}

// innerHelpers emits the per-coordinate map ψ of a random map with one
// (its dimension and function), nothing otherwise.
func (k *randomKind) innerHelpers(e *emitter, f *jen.File) {
	ip := k.inner
	if ip == nil {
		return
	}
	ie := &emitter{p: ip}
	ik := ip.formula()
	f.Line()
	f.Comment(fmt.Sprintf("%sDim is the dimension d of the per-coordinate map %s.", ip.name, ip.name))
	f.Const().Id(ip.name + "Dim").Op("=").Add(integer(ip.dim))
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes ψ(x) to out, the per-coordinate map applied to every input coordinate, by its formula: %s. %s",
		ip.name, ik.formulaText(ie), strings.ReplaceAll(ik.edges(ie), "Ψ", "ψ")))))
	f.Func().Id(ip.name).Params(ie.params(jen.Float64)...).Block(ik.fast().generalBody(ie)...)
	if ik.homogeneous() {
		ik.fast().special(ie, f, true)
	}
	if ie.lit.err != nil && e.lit.err == nil {
		e.lit.err = ie.lit.err
	}
}

// projDoc and meanDoc document an rf-pca map's projection and mean;
// projSize is the projection's length.
func (e *emitter) projDoc() string {
	return fmt.Sprintf("%s holds the projection P (k = %s outputs of the %s random features z_j) transposed: row j (%s[j*%s:(j+1)*%s]) is the column P_·j that z_j is multiplied by.",
		e.projName(), e.dimName(), e.featsName(), e.projName(), e.dimName(), e.dimName())
}

func (e *emitter) meanDoc() string {
	return fmt.Sprintf("%s holds the mean μ of the random features over the data, subtracted before the projection.", e.meanName())
}

func (e *emitter) projSize() jen.Code { return jen.Id(e.featsName()).Op("*").Id(e.dimName()) }

// linearHelpers emits an rf-pca map's number of random features and, for a
// centred map, the value it takes where the random features are zeros.
func (k *randomKind) linearHelpers(e *emitter, f *jen.File) {
	if k.lin == nil {
		return
	}
	f.Line()
	f.Comment(fmt.Sprintf("%s is the number of random features z_j before the projection.", e.featsName()))
	f.Const().Id(e.featsName()).Op("=").Add(integer(k.lin.In))
	if k.centred() {
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes P·(0 − μ) to out: Ψ of an input whose random features are zeros (a non-finite one), by the sums of %s.", e.nonFiniteName(), e.p.name))))
		f.Func().Id(e.nonFiniteName()).Params(jen.Id("out").Op("*").Index(jen.Id(e.dimName())).Float64()).Block(e.nonFiniteBody()...)
	}
}

// argsText describes the random stage's argument t.
func (k *randomKind) argsText(e *emitter) string {
	switch {
	case k.inner != nil:
		return fmt.Sprintf("the per-coordinate map's %d values for each of the %d inputs", k.inner.dim, e.p.in)
	case k.r.Transform == fmap.LogOffset:
		return "log(max(x_j + c, 2⁻¹⁰²²)) per input"
	}
	return "the input x"
}

// dataLayout describes the content of the data file.
func (k *randomKind) dataLayout(e *emitter) string {
	s := fmt.Sprintf("the %d×%d frequency matrix, row-major", k.freqs, k.args)
	if k.r.Features == fmap.Phase {
		s += fmt.Sprintf(", then the %d phases", k.freqs)
	}
	if k.lin != nil {
		s += fmt.Sprintf(", then the %d×%d projection transposed, row-major", k.lin.In, e.p.dim)
		if k.centred() {
			s += fmt.Sprintf(", then the %d features' mean", k.lin.In)
		}
	}
	return s + e.modelLayout() + ", as little-endian float64"
}

func (k *randomKind) kernel(e *emitter) string { return kernelText(e.p.m, 0, false) }

// form describes a random-feature map's functional form (and the
// projection after it of an rf-pca map).
func (k *randomKind) form(e *emitter) string {
	t := k.featuresText(e)
	if l := k.lin; l != nil {
		t = strings.Replace(t, "Ψ(x) = ", "z(x) = ", 1)
		if len(l.Mean) > 0 {
			return fmt.Sprintf("PCA of random features (Li et al. §6): Ψ(x) = P·(z(x) − μ), P the %d×%d projection onto the leading eigenvectors of the features' covariance over the data and μ their mean, of the %d %s", l.Dim(), l.In, l.In, t)
		}
		return fmt.Sprintf("PCA of random features (Li et al. §6): Ψ(x) = P·z(x), P the %d×%d projection onto the leading eigenvectors of the features' second moment over the data, of the %d %s", l.Dim(), l.In, l.In, t)
	}
	return t
}

// featuresText describes the random stage (with the per-coordinate map
// before it).
func (k *randomKind) featuresText(*emitter) string {
	r := k.r
	feat := func(t string) string {
		if r.Features == fmap.CosSin {
			return fmt.Sprintf("%s[cos(ωᵢ·%s), sin(ωᵢ·%s)]/√m", shrinkFactor(r), t, t)
		}
		return fmt.Sprintf("%s√(2/m)·cos(ωᵢ·%s + bᵢ)", shrinkFactor(r), t)
	}
	per := fmt.Sprintf("for the m = %d frequencies ωᵢ ∈ ℝ%s", r.Frequencies(), sup(r.In))
	if r.Features == fmap.Phase {
		per += " and phases bᵢ"
	}
	if r.Scale != 0 && r.Scale != 1 {
		per += fmt.Sprintf(", shrunk by c = %s (Ψ(x)·Ψ(y) estimates c²·K: featmap shrinks random features to the least Gram error on the rows to fit, or without data just enough to beat Ψ = 0 on the box)", num(r.Scale))
	}
	switch {
	case k.inner != nil:
		ie := &emitter{p: k.inner}
		inner := strings.Replace(k.inner.formula().form(ie), "Ψ(x)", "ψ(x)", 1)
		return fmt.Sprintf("per-coordinate map u = [ψ(x₁), …, ψ(xₙ)] ∈ ℝ%s with ψ the %d-dimensional %s, then random Fourier features of u (Rahimi–Recht): Ψ(x) = %s %s",
			sup(r.In), k.inner.dim, inner, feat("u"), per)
	case r.Transform == fmap.LogOffset:
		return fmt.Sprintf("random Fourier features (Rahimi–Recht) in tⱼ = log(max(xⱼ + c, 2⁻¹⁰²²)), c = %s: Ψ(x) = %s %s", num(r.Offset), feat("t"), per)
	}
	return fmt.Sprintf("random Fourier features (Rahimi–Recht): Ψ(x) = %s %s", feat("x"), per)
}

// componentBound is the largest |Ψ_j| of a random map: 1/√m or √(2/m),
// times its shrinkage c.
func componentBound(r *fmap.Random) string {
	if r.Features == fmap.CosSin {
		if shrinkFactor(r) != "" {
			return "c/√m"
		}
		return "1/√m"
	}
	return shrinkFactor(r) + "√(2/m)"
}

// shrinkFactor is "c·" for a random stage shrunk by c ≠ 1, else "".
func shrinkFactor(r *fmap.Random) string {
	if r.Scale == 0 || r.Scale == 1 {
		return ""
	}
	return "c·"
}

// edges says what non-finite, huge and (after a per-coordinate map) zero
// or negative inputs give.
func (k *randomKind) edges(*emitter) string {
	s := "An input with a NaN or ±Inf coordinate gives zeros in every component, as featmap's reference evaluator does."
	if k.inner != nil {
		s = "An input with a NaN or ±Inf coordinate, or one whose ψ is not finite, gives zeros in every component, as featmap's reference evaluator does."
		switch ik := k.inner.formula(); {
		case !ik.homogeneous():
		case ik.negative() == fmap.NegativeZero:
			s = "Every coordinate goes through ψ, with ψ(0) = 0 and ψ(x) = 0 for x < 0. " + s
		default:
			s = "Every coordinate goes through ψ, with ψ(0) = 0 and ψ(x) = −ψ(|x|) for x < 0. " + s
		}
	}
	if l := k.lin; l != nil {
		s = strings.Replace(s, "gives zeros in every component", "gives zero random features", 1)
		bound := "‖Ψ‖ ≤ ‖z‖"
		if len(l.Mean) > 0 {
			s += " Ψ is then P·(0 − μ)."
			bound = "‖Ψ‖ ≤ ‖z‖ + ‖μ‖"
		} else {
			s += " Ψ is then 0."
		}
		zn := "‖z‖ = 1"
		if k.r.Features == fmap.Phase {
			zn = "‖z‖ ≤ √2"
		}
		return s + fmt.Sprintf(" Very large inputs, where ωᵢ·t keeps no correct digit, still give bounded components (%s, %s) but not meaningful ones", bound, zn) + k.limitText()
	}
	return s + fmt.Sprintf(" Very large inputs, where ωᵢ·t keeps no correct digit, still give bounded components (|Ψ_j| ≤ %s) but not meaningful ones", componentBound(k.r)) + k.limitText()
}

// limitText ends the sentence on very large inputs with the limit L of the
// random features' arguments (limit.go), if any.
func (k *randomKind) limitText() string {
	what := "an input coordinate"
	if k.inner != nil {
		what = "a value of ψ"
	}
	return limitText(randomLimit(k.r), what, "max Σⱼ|ωᵢⱼ| over the frequencies", "ωᵢ·t")
}

// parameterLines lists the per-coordinate map's parameters and says where
// the random stage's constants are.
func (k *randomKind) parameterLines(e *emitter) []string {
	var lines []string
	if ip := k.inner; ip != nil {
		lines = append(lines, fmt.Sprintf("Per-coordinate map ψ (%s, d = %d):", ip.name, ip.dim), "")
		lines = append(lines, ip.formula().parameterLines(&emitter{p: ip})...)
		lines = append(lines, "")
	}
	where := fmt.Sprintf("the Go literals of %s", e.wName())
	if k.r.Features == fmap.Phase {
		where += " and " + e.bName()
	}
	if k.df != nil {
		where = k.df.where(e.p.info.File, k.dataLayout(e))
	}
	s := fmt.Sprintf("Random features: m = %d frequencies ωᵢ ∈ ℝ%s", k.freqs, sup(k.args))
	if k.r.Features == fmap.Phase {
		s += " and phases bᵢ"
	}
	if l := k.lin; l != nil {
		if k.centred() {
			s += fmt.Sprintf(", the %d×%d projection P and the features' mean μ", l.Dim(), l.In)
		} else {
			s += fmt.Sprintf(" and the %d×%d projection P", l.Dim(), l.In)
		}
		if k.df == nil {
			where += " and " + e.projName()
			if k.centred() {
				where += " and " + e.meanName()
			}
		}
	}
	s += fmt.Sprintf(" (%d numbers) are in %s.", k.constants(), where)
	return append(lines, wrap(s)...)
}

// evaluationLines describes the evaluation of a random map.
func (k *randomKind) evaluationLines(e *emitter) []string {
	if k.dense() {
		return k.denseEvaluationLines(e)
	}
	if k.staged() {
		return k.stagedEvaluationLines(e)
	}
	var parts []string
	if ip := k.inner; ip != nil {
		parts = append(parts, fmt.Sprintf("ψ of every coordinate by its formula (%s), no fast path", ip.formula().formulaText(&emitter{p: ip})))
	}
	if k.r.Transform == fmap.LogOffset {
		parts = append(parts, "one log per input")
	}
	if k.args < seqTerms {
		parts = append(parts, fmt.Sprintf("the m = %d dot products ωᵢ·t of %d terms, each one sum in the reference evaluator's order", k.freqs, k.args))
	} else {
		parts = append(parts, fmt.Sprintf("the m = %d dot products ωᵢ·t of %d terms, each as %d independent partial sums added pairwise", k.freqs, k.args, accumulators))
	}
	if k.r.Features == fmap.CosSin {
		parts = append(parts, "the sine and cosine of every phase by math.Sincos's own reduction and polynomials written out without its branches (math.Sincos itself for NaN, ±Inf and |ωᵢ·t| ≥ 2²⁹)")
	} else {
		parts = append(parts, "the cosine of every phase ωᵢ·t + bᵢ by math.Cos's own reduction and polynomials written out without its branches (math.Sincos for NaN, ±Inf and |ωᵢ·t + bᵢ| ≥ 2²⁹)")
	}
	if l := k.lin; l != nil {
		z := "P_ij·z_j"
		if k.centred() {
			z = "P_ij·(z_j − μ_j)"
		}
		parts = append(parts, fmt.Sprintf("then, as each random feature z_j is computed, %s added to each of the %d outputs (each output one sum over the %d features in the reference evaluator's order; no scratch of the features)", z, l.Dim(), l.In))
	}
	return []string{
		fmt.Sprintf("Ψ(x) is the formula, computed with: %s. Nothing is approximated: the sines and cosines are the standard library's values (bit for bit unless the compiler fuses multiply-adds), and the phases differ from the reference evaluator's by the rounding of the sums.", strings.Join(parts, "; ")),
		fmt.Sprintf("%s and %s evaluate the same way in float64 and round each component to float32.", e.name32(), e.slice32Name()),
	}
}
