package codegen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// blocksKind emits a map of column groups (one fmap.Blocks stage:
// rff-group-lasso's learned multiple-kernel map): every block is a
// random-feature map of its own inputs, emitted as an unexported function
// that writes its slice of out scaled by √d_g, and N calls them in order
// on their columns. A block is evaluated by the dense kernels (of its
// inputs in place, or of its t computed into a scratch;
// emit_dense_blocks.go) or, where they do not apply, by the
// random-feature emitter's formula (nothing approximated) and then
// multiplied by its scale, as the reference evaluator does.
type blocksKind struct {
	b *fmap.Blocks
	// subs are the blocks' plans (random maps named <priv>Block<g>, their
	// constants never in a data file of their own), and kinds their
	// random-feature emitters.
	subs  []*plan
	kinds []*randomKind
	// offsets are the blocks' first components in out.
	offsets []int
	// df is the data file of every block's constants (ω row-major, then
	// the phases, block after block), nil when they are Go literals.
	df *dataFile
	// paths are the blocks' evaluations.
	paths []blockPath
	// f32: NF32 and NSliceF32 compute in float32 (every block dense and
	// the measured kernel error within the budget, blocks32Plan), with the
	// component and kernel errors err32 and kern32.
	f32           bool
	err32, kern32 float64
}

func (bp *blocksKind) plan(p *plan) error {
	m, v, info := p.m, p.v, p.info
	if m.Dim > maxArgs || m.InDim > maxArgs {
		return fmt.Errorf("codegen: a map of column groups of %d inputs and %d outputs: %sF32 keeps them in float64 stack arrays of at most %d", m.InDim, m.Dim, info.Name, maxArgs)
	}
	var consts [][]float64
	o := 0
	for g := range bp.b.Parts {
		bm := m.BlockMap(g)
		if err := bm.Validate(); err != nil {
			return fmt.Errorf("codegen: block %d: codegen: invalid map: %w", g, err)
		}
		kind, err := kindOf(bm)
		if err != nil {
			return fmt.Errorf("codegen: block %d: %w", g, err)
		}
		rk, ok := kind.(*randomKind)
		if !ok || rk.lin != nil {
			return fmt.Errorf("%w block %d with the stages %s (a block is emitted as random features, after a per-coordinate stage or not)", ErrUnsupported, g, stageNames(bm.Stages))
		}
		rk.block, rk.blockScale = true, bp.b.Parts[g].Scale
		name := fmt.Sprintf("%sBlock%d", p.priv, g)
		sp := &plan{m: bm, v: v, info: info, name: name, priv: name, dim: bm.Dim, in: bm.InDim, kind: rk}
		if err := rk.plan(sp); err != nil {
			return fmt.Errorf("codegen: block %d: %w", g, err)
		}
		rk.df = nil // the blocks' constants share one data file
		bp.subs = append(bp.subs, sp)
		bp.kinds = append(bp.kinds, rk)
		bp.offsets = append(bp.offsets, o)
		bp.paths = append(bp.paths, blockPathOf(rk))
		o += bm.Dim
		consts = append(consts, rk.r.Freq, rk.r.Phase)
	}
	if mod := m.Model; mod != nil {
		consts = append(consts, mod.W, mod.Bias)
	}
	bp.df = newDataFile(consts...)
	bp.blocks32Plan(p)
	return nil
}

func (bp *blocksKind) data() *dataFile { return bp.df }

// api emits N (the blocks in order, each scaled), NSlice (tiles of rows
// when a block is dense, else N row by row), NF32 (in float32 on the
// float32 path, else N in float64, rounded) and NSliceF32 of a blocks map.
func (bp *blocksKind) api(e *emitter, f *jen.File) {
	p := e.p
	doc32 := paragraphs(fmt.Sprintf("%s is %s in float32: it converts x to float64, evaluates %s in stack arrays and rounds every component to float32, so each component is the float64 value correctly rounded, up to a relative 2⁻²⁴.",
		e.name32(), p.name, p.name))
	a := e.rows(bp.docN(e), bp.body(e, false), doc32, bp.body32(e))
	if bp.anyDense() {
		a.slice = bp.sliceBody(e, false)
		if e.tiled32() {
			a.slice32 = e.tiledSlice32()
		}
	}
	if bp.f32 {
		a.doc32, a.n32, a.slice32 = e.doc32Computed(), bp.body(e, true), bp.sliceBody(e, true)
	}
	e.fourFuncs(f, a)
	e.modelAPI(f)
}

// body calls every block's function (is32: its float32 function) on its
// columns, which writes its components, scaled.
func (bp *blocksKind) body(e *emitter, is32 bool) []jen.Code {
	p := e.p
	elem, suffix := jen.Float64, ""
	if is32 {
		elem, suffix = jen.Float32, "F32"
	}
	var body []jen.Code
	for g, sp := range bp.subs {
		b := &bp.b.Parts[g]
		o := bp.offsets[g]
		out := jen.Parens(jen.Op("*").Index(jen.Id(sp.name + "Dim")).Add(elem())).Call(jen.Id("out").Index(jen.Add(integer(o)).Op(":")))
		var x jen.Code
		switch {
		case p.in == 1:
			x = jen.Id("x")
		case sp.in == 1:
			x = jen.Id("x").Index(integer(b.First))
		default:
			x = jen.Parens(jen.Op("*").Index(jen.Id(sp.name + "In")).Add(elem())).Call(jen.Id("x").Index(jen.Add(integer(b.First)).Op(":")))
		}
		body = append(body, jen.Id(sp.name+suffix).Call(out, x))
		if bp.paths[g] == blockRow {
			body = append(body, bp.scaleLoop(e, g, "out", integer(o)))
		}
	}
	return body
}

// scaleLoop multiplies the components of row block g by its scale: out
// from off on (nil: from 0).
func (bp *blocksKind) scaleLoop(e *emitter, g int, out string, off jen.Code) jen.Code {
	i := "i"
	if off == nil {
		i = "j" // inside a loop over rows i
	}
	idx := jen.Id(i)
	if bp.offsets[g] > 0 && off != nil {
		idx = jen.Id(i).Op("+").Add(off)
	}
	return jen.For(jen.Id(i).Op(":=").Range().Id(bp.subs[g].name + "Dim")).Block(
		jen.Id(out).Index(idx).Op("*=").Add(e.lit.f64(bp.b.Parts[g].Scale)),
	)
}

// body32 is NF32: N on x in float64, rounded.
func (bp *blocksKind) body32(e *emitter) []jen.Code {
	p := e.p
	var body []jen.Code
	x := jen.Op("&").Id("x64")
	if p.in == 1 {
		x = jen.Float64().Call(jen.Id("x"))
	} else {
		body = append(body,
			jen.Var().Id("x64").Index(jen.Id(e.inName())).Float64(),
			jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Id("x")).Block(
				jen.Id("x64").Index(jen.Id("i")).Op("=").Float64().Call(jen.Id("v")),
			))
	}
	return append(body,
		jen.Var().Id("o64").Index(jen.Id(e.dimName())).Float64(),
		jen.Id(p.name).Call(jen.Op("&").Id("o64"), x),
		jen.For(jen.List(jen.Id("i"), jen.Id("v")).Op(":=").Range().Id("o64")).Block(
			jen.Id("out").Index(jen.Id("i")).Op("=").Float32().Call(jen.Id("v")),
		))
}

// helpers emits every block: its dimensions, its per-coordinate map,
// its constants and its function; then the data file if there is one.
func (bp *blocksKind) helpers(e *emitter, f *jen.File) {
	var arrays []embedded
	for g, sp := range bp.subs {
		se := &emitter{p: sp}
		rp := bp.kinds[g]
		b := &bp.b.Parts[g]
		f.Line()
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%sDim and %sIn are block %d's output and input dimensions (inputs x_%d..x_%d of %s), %s the number m of its random frequencies and %s the length of their argument t (%s).",
			sp.name, sp.name, g, b.First, b.Last, e.p.name, se.freqsName(), se.argsName(), rp.argsText(se)))))
		f.Const().Defs(
			jen.Id(sp.name+"Dim").Op("=").Add(integer(sp.dim)),
			jen.Id(sp.name+"In").Op("=").Add(integer(sp.in)),
			jen.Id(se.freqsName()).Op("=").Add(integer(rp.freqs)),
			jen.Id(se.argsName()).Op("=").Add(integer(rp.args)),
		)
		rp.innerHelpers(se, f)
		wSize := jen.Id(se.freqsName()).Op("*").Id(se.argsName())
		wDoc := fmt.Sprintf("%s holds block %d's frequencies ω_1..ω_m, row k (%s[k*%s:(k+1)*%s]) is ω_{k+1}.", se.wName(), g, se.wName(), se.argsName(), se.argsName())
		bDoc := fmt.Sprintf("%s holds block %d's phases b_1..b_m.", se.bName(), g)
		phases := rp.r.Features == fmap.Phase
		if bp.df == nil {
			group := 1
			if rp.inner != nil {
				group = rp.inner.dim
			}
			f.Line()
			f.Comment(commentBody(paragraphs(wDoc)))
			f.Var().Id(se.wName()).Op("=").Index(wSize).Float64().Custom(multiLine, se.literalRows(rp.r.Freq, rp.args, group)...)
			if phases {
				f.Line()
				f.Comment(commentBody(paragraphs(bDoc)))
				f.Var().Id(se.bName()).Op("=").Index(jen.Id(se.freqsName())).Float64().Custom(multiLine, se.literalRows(rp.r.Phase, len(rp.r.Phase), 1)...)
			}
		} else {
			arrays = append(arrays, embedded{se.wName(), wDoc, wSize})
			if phases {
				arrays = append(arrays, embedded{se.bName(), bDoc, jen.Id(se.freqsName())})
			}
		}
		f.Line()
		switch bp.paths[g] {
		case blockDense, blockStaged:
			f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes block %d's components of Ψ to out: its random features z_%d of its inputs, scaled by √d_%d: %s",
				sp.name, g, g, g, bp.blockEvaluation(se, g)))))
			n := rp.denseN(se)
			if bp.paths[g] == blockStaged {
				n = rp.stagedN(se)
			}
			f.Func().Id(sp.name).Params(se.params(jen.Float64)...).Block(n...)
		default:
			f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes block %d's random features z_%d of its inputs to out, unscaled (%s scales them by √d_%d): %s",
				sp.name, g, g, e.p.name, g, strings.Join(rp.evaluationLines(se)[:1], " ")))))
			f.Func().Id(sp.name).Params(se.params(jen.Float64)...).Block(rp.body(se, false)...)
		}
		if se.lit.err != nil && e.lit.err == nil {
			e.lit.err = se.lit.err
		}
	}
	e.modelLiterals(f, bp.df == nil)
	if bp.df != nil {
		e.embedData(f, bp.df, bp.dataLayout(e), append(arrays, e.modelArrays()...)...)
	}
	for g := range bp.subs {
		bp.blockHelpers(e, f, g)
	}
}

// dataLayout describes the content of a blocks map's data file.
func (bp *blocksKind) dataLayout(e *emitter) string {
	var parts []string
	for g, rk := range bp.kinds {
		s := fmt.Sprintf("block %d's %d×%d frequency matrix, row-major", g, rk.freqs, rk.args)
		if rk.r.Features == fmap.Phase {
			s += fmt.Sprintf(", then its %d phases", rk.freqs)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", then ") + e.modelLayout() + ", as little-endian float64"
}

// docN is N's doc comment.
func (bp *blocksKind) docN(e *emitter) []string {
	p := e.p
	v := p.v
	first := fmt.Sprintf("%s writes Ψ(x) to out: the %d-dimensional feature map of the %s, with Ψ(x)·Ψ(y) ≈ K(x, y): block g's random features of its inputs, scaled by √d_g, in out's components of the block (see the file header).", p.name, p.dim, p.m.Kernel.Describe())
	dom := fmt.Sprintf("On its domain, %s, the measured kernel error (%s) is L∞ %s and RMS %s, on %s.",
		domainText(p.m), measureText(v.Measure), g4(v.Reported.LInf), g4(v.Reported.RMS), v.Reported.On)
	if dv := v.Data; dv != nil {
		// The held-out data's error first: the one that matters.
		dom = fmt.Sprintf("On held-out rows of the data it was learned from (%s, %d rows), the absolute error is L∞ %s and RMS %s, on %s. On the box of its domain, %s (the whole box, not only where the data lie), the measured kernel error (%s) is L∞ %s and RMS %s, on %s.",
			dv.File, dv.Rows, g4(dv.Absolute.LInf), g4(dv.Absolute.RMS), dv.Absolute.On,
			domainText(p.m), measureText(v.Measure), g4(v.Reported.LInf), g4(v.Reported.RMS), v.Reported.On)
	}
	return paragraphs(first, dom, "An input with a NaN or ±Inf coordinate in a block gives zeros in that block.")
}

// header is the file header of a blocks map: what the map is, its
// measured errors, every block's parameters and the evaluation.
func (bp *blocksKind) header(e *emitter) []string {
	p := e.p
	m, v := p.m, p.v
	lines := e.specLines()
	lines = append(lines, wrap(fmt.Sprintf("%s is a feature map Ψ: ℝ%s → ℝ%s with Ψ(x)·Ψ(y) ≈ K(x, y), K = Σ_g d_g K_g the learned combination of the kernels on their column groups (multiple kernel learning by a group lasso on random features, Băzăvan et al. §3.3); kernels whose group the lasso set to zero are left out, and D counts the kept ones only:",
		p.name, supIn(p.in), sup(p.dim)))...)
	lines = append(lines, "")
	row := func(k, v string) { lines = append(lines, fmt.Sprintf("\t%-10s %s", k, v)) }
	row("kernel", m.Kernel.Describe())
	row("domain", domainText(m))
	row("measure", measureText(v.Measure))
	row("method", m.Method)
	row("form", fmt.Sprintf("Ψ(x) = [√d_1 z_1(x_G1), …, √d_%d z_%d(x_G%d)], z_g random Fourier features of kernel g", len(bp.subs), len(bp.subs), len(bp.subs)))
	errorRows(row, v)
	if mod := p.model(); mod != nil {
		lines = append(lines, "")
		lines = append(lines, bp.modelText(e, mod)...)
	}
	lines = append(lines, "", "Blocks:", "")
	for g, sp := range bp.subs {
		b := &bp.b.Parts[g]
		o := bp.offsets[g]
		rp := bp.kinds[g]
		what := fmt.Sprintf("%d %s frequencies of %s", rp.freqs, rp.r.Features, rp.argsText(&emitter{p: sp}))
		l := fmt.Sprintf("block %d: %s on x_%d..x_%d, weight d_%d = %s (scale √d = %s), components out[%d:%d]: %s (%s).",
			g, b.Kernel.Describe(), b.First, b.Last, g, fmt.Sprintf("%.6g", b.Scale*b.Scale), num(b.Scale), o, o+sp.dim, what, sp.name)
		if bp.f32 {
			l += fmt.Sprintf(" L32 = %s.", num(rp.limit32()))
		}
		w := wrap(l)
		lines = append(lines, "\t- "+w[0])
		for _, c := range w[1:] {
			lines = append(lines, "\t  "+c)
		}
	}
	where := "Go literals in this file"
	if p.model() != nil {
		where = "with the model's weights, " + where
	}
	if bp.df != nil {
		where = bp.df.where(p.info.File, bp.dataLayout(e))
	}
	lines = append(lines, "")
	lines = append(lines, wrap("The frequencies and phases are "+where+".")...)
	lines = append(lines, "", "Evaluation:", "")
	for _, l := range bp.evaluationText(e) {
		w := wrap(l)
		lines = append(lines, "\t- "+w[0])
		for _, c := range w[1:] {
			lines = append(lines, "\t  "+c)
		}
	}
	return lines
}

// modelText states what the model of a blocks map is, what it was
// trained on and how well it did on the held-out rows.
func (bp *blocksKind) modelText(e *emitter, mod *fmap.LinearModel) []string {
	what, held, api, data := e.modelWords(mod)
	if mod.HeldRows > 0 {
		held += " (rows neither the group lasso nor the model saw)"
	}
	return paragraphs(
		fmt.Sprintf("Model: %s, trained on this map's features (the kept kernels' blocks, scaled by √d_g) on the %d rows to fit%s; %s. %s.",
			what, mod.Rows, data, held, api),
		fmt.Sprintf("It is a baseline fitted to a sample with a fixed ridge λ, not tuned for prediction: with more labelled data, or another loss, retrain a linear model on %s's features rather than relying on these weights.", e.p.name))
}
