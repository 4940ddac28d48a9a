package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/featmap/featmap/fmap"
)

// A map with a model (fmap.Map.Model, a learn section's ridge model) also
// gets its predictor: NScore (regression) or NScores, NClass, NClasses and
// NClassLabels (classes). The scores are computed from Ψ(x) in a stack
// array, as fmap.LinearModel.Scores computes them (the bias, then the
// features' terms in order), and the weights are constants of the map's
// one mechanism: Go literals, or the same data file as its frequencies
// when all its constants together exceed MaxLiterals.

func (e *emitter) scoreName() string       { return e.p.name + "Score" }
func (e *emitter) scoresName() string      { return e.p.name + "Scores" }
func (e *emitter) className() string       { return e.p.name + "Class" }
func (e *emitter) classesName() string     { return e.p.name + "Classes" }
func (e *emitter) classLabelsName() string { return e.p.name + "ClassLabels" }
func (e *emitter) modelWName() string      { return e.p.priv + "ScoreW" }
func (e *emitter) modelBName() string      { return e.p.priv + "ScoreBias" }
func (e *emitter) labelsName() string      { return e.p.priv + "ScoreLabels" }

// model is the map's model, nil without one.
func (p *plan) model() *fmap.LinearModel { return p.m.Model }

// modelOutputs is K as a Go expression: NClasses, or 1.
func (e *emitter) modelOutputs() jen.Code {
	if e.p.model().Classes != nil {
		return jen.Id(e.classesName())
	}
	return jen.Lit(1)
}

func (e *emitter) modelWDoc() string {
	mod := e.p.model()
	if mod.Classes != nil {
		return fmt.Sprintf("%s holds the model's weights, %s×%s row-major: row j (%s[j*%s:(j+1)*%s]) multiplies Ψ_j(x) in the score of every class.",
			e.modelWName(), e.dimName(), e.classesName(), e.modelWName(), e.classesName(), e.classesName())
	}
	return fmt.Sprintf("%s holds the model's weights: %s[j] multiplies Ψ_j(x).", e.modelWName(), e.modelWName())
}

func (e *emitter) modelBDoc() string {
	return fmt.Sprintf("%s holds the model's bias (the mean of the coded targets of its training rows), per output.", e.modelBName())
}

// modelLayout is the data file's part of the model.
func (e *emitter) modelLayout() string {
	mod := e.p.model()
	if mod == nil {
		return ""
	}
	return fmt.Sprintf(", then the model's %d×%d weights, row-major, and its %d biases", e.p.dim, mod.Outputs(), mod.Outputs())
}

// modelText states what the model is, what it was trained on and how well
// it did on the held-out rows, for the header; it also says how the
// predictor should be taken.
func (e *emitter) modelText() []string {
	mod := e.p.model()
	what, held, api, data := e.modelWords(mod)
	if mod.HeldRows > 0 {
		held += " (rows never trained on, nor used in learning)"
	}
	return paragraphs(
		fmt.Sprintf("Model: %s, trained on this map's Ψ over the %d rows to fit%s (learning's training and validation rows both); %s. %s.",
			what, mod.Rows, data, held, api),
		"It is the model learning fitted, shipped as it is: a baseline fitted to a sample with "+ridgeOrigin(mod)+", not tuned for prediction. "+
			fmt.Sprintf("With more labelled data, or another loss, retrain a linear model on %s's features (Ψ is the part that is designed and verified) rather than relying on these weights.", e.p.name))
}

// ridgeOrigin says where a model's λ came from (fmap.LinearModel.RidgeFrom).
func ridgeOrigin(mod *fmap.LinearModel) string {
	switch mod.RidgeFrom {
	case fmap.RidgeDefault:
		return "the learn section's default λ (learn.ridge not given; ridge: auto would choose it on the validation split)"
	case fmap.RidgeGiven:
		return "the λ the learn section gave (learn.ridge)"
	case fmap.RidgeValidation:
		return "the λ chosen on the validation split at the learned σ (learn.ridge: auto)"
	case fmap.RidgeFixed:
		return "the fixed small λ of a kernels section's model"
	}
	return "the λ above"
}

// modelWords says what a model is (ridge regression or classifier, λ),
// how it did on the held-out rows, its API and the data it was trained on,
// for the header's model paragraph.
func (e *emitter) modelWords(mod *fmap.LinearModel) (what, held, api, data string) {
	what = fmt.Sprintf("a ridge regression (λ = %s) on Ψ, centred numeric targets", num(mod.Ridge))
	held = fmt.Sprintf("RMSE %s on the %d held-out rows", g4(mod.HeldRMSE), mod.HeldRows)
	api = fmt.Sprintf("%s(x) = w·Ψ(x) + b", e.scoreName())
	if mod.Classes != nil {
		what = fmt.Sprintf("a ridge classifier (λ = %s) on Ψ, one-vs-rest ±1 targets centred, %d classes", num(mod.Ridge), len(mod.Classes))
		held = fmt.Sprintf("accuracy %s on the %d held-out rows", g4(mod.HeldAccuracy), mod.HeldRows)
		api = fmt.Sprintf("%s writes w_c·Ψ(x) + b_c per class, %s returns the label of the largest", e.scoresName(), e.className())
	}
	if mod.HeldRows == 0 {
		held = "no row was held out (data.holdout 0), so its accuracy is not measured here: featmap eval measures it on a test file"
	}
	if mod.DataSHA256 != "" {
		data = fmt.Sprintf(" of the data (sha256:%s)", mod.DataSHA256)
	}
	return what, held, api, data
}

// modelAPI emits the predictor of a map with a model.
func (e *emitter) modelAPI(f *jen.File) {
	p := e.p
	mod := p.model()
	if mod == nil {
		return
	}
	x := jen.Id("x").Float64()
	xArg := jen.Id("x")
	if p.in > 1 {
		x = jen.Id("x").Add(e.inType(jen.Float64))
	}
	features := []jen.Code{
		jen.Var().Id("z").Index(jen.Id(e.dimName())).Float64(),
		jen.Id(p.name).Call(jen.Op("&").Id("z"), xArg),
	}
	f.Line()
	if mod.Classes == nil {
		f.Comment(commentBody(paragraphs(fmt.Sprintf("%s is the model's prediction at x: w·Ψ(x) + b with Ψ(x) = %s(x), without allocating. See the file header for what the model is and how well it did on held-out rows.", e.scoreName(), p.name))))
		body := append(features,
			jen.Id("s").Op(":=").Id(e.modelBName()).Index(jen.Lit(0)),
			jen.For(jen.List(jen.Id("j"), jen.Id("zj")).Op(":=").Range().Id("z")).Block(
				jen.Id("s").Op("+=").Id(e.modelWName()).Index(jen.Id("j")).Op("*").Id("zj"),
			),
			jen.Return(jen.Id("s")),
		)
		f.Func().Id(e.scoreName()).Params(x).Float64().Block(body...)
		return
	}
	f.Comment(fmt.Sprintf("%s is the number of classes of %s.", e.classesName(), e.scoresName()))
	f.Const().Id(e.classesName()).Op("=").Add(integer(len(mod.Classes)))
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s are the class labels, in the order of %s's scores (a copy: %s does not read it).", e.classLabelsName(), e.scoresName(), e.className()))))
	f.Var().Id(e.classLabelsName()).Op("=").Id(e.labelsName())
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s writes the model's score of every class at x to out: w_c·Ψ(x) + b_c with Ψ(x) = %s(x), the one-vs-rest ridge score of class %s[c], without allocating. See the file header for what the model is and how well it did on held-out rows.",
		e.scoresName(), p.name, e.classLabelsName()))))
	body := append(features,
		jen.Op("*").Id("out").Op("=").Id(e.modelBName()),
		jen.For(jen.List(jen.Id("j"), jen.Id("zj")).Op(":=").Range().Id("z")).Block(
			jen.Id("w").Op(":=").Parens(jen.Op("*").Index(jen.Id(e.classesName())).Float64()).Call(
				jen.Id(e.modelWName()).Index(jen.Id("j").Op("*").Id(e.classesName()).Op(":"))),
			jen.For(jen.Id("c").Op(":=").Range().Id("out")).Block(
				jen.Id("out").Index(jen.Id("c")).Op("+=").Id("w").Index(jen.Id("c")).Op("*").Id("zj"),
			),
		),
	)
	f.Func().Id(e.scoresName()).Params(jen.Id("out").Op("*").Index(jen.Id(e.classesName())).Float64(), x).Block(body...)
	f.Line()
	f.Comment(commentBody(paragraphs(fmt.Sprintf("%s is the label of the class of the largest score of %s at x (the first on ties), without allocating.", e.className(), e.scoresName()))))
	f.Func().Id(e.className()).Params(x.Clone()).Float64().Block(
		jen.Var().Id("s").Index(jen.Id(e.classesName())).Float64(),
		jen.Id(e.scoresName()).Call(jen.Op("&").Id("s"), jen.Id("x")),
		jen.Id("best").Op(":=").Lit(0),
		jen.For(jen.Id("c").Op(":=").Lit(1), jen.Id("c").Op("<").Id(e.classesName()), jen.Id("c").Op("++")).Block(
			jen.If(jen.Id("s").Index(jen.Id("c")).Op(">").Id("s").Index(jen.Id("best"))).Block(jen.Id("best").Op("=").Id("c")),
		),
		jen.Return(jen.Id(e.labelsName()).Index(jen.Id("best"))),
	)
}

// modelLiterals emits the model's constants as Go literals (the labels
// always are).
func (e *emitter) modelLiterals(f *jen.File, weights bool) {
	mod := e.p.model()
	if mod == nil {
		return
	}
	if mod.Classes != nil {
		f.Line()
		f.Comment(fmt.Sprintf("%s are the class labels in score order.", e.labelsName()))
		f.Var().Id(e.labelsName()).Op("=").Index(jen.Id(e.classesName())).Float64().Custom(multiLine, e.literalRows(mod.Classes, len(mod.Classes), 1)...)
	}
	if !weights {
		return
	}
	k := mod.Outputs()
	f.Line()
	f.Comment(commentBody(paragraphs(e.modelWDoc())))
	f.Var().Id(e.modelWName()).Op("=").Index(e.modelWSize()).Float64().Custom(multiLine, e.literalRows(mod.W, k, k)...)
	f.Line()
	f.Comment(commentBody(paragraphs(e.modelBDoc())))
	f.Var().Id(e.modelBName()).Op("=").Index(e.modelOutputs()).Float64().Custom(multiLine, e.literalRows(mod.Bias, k, 1)...)
}

func (e *emitter) modelWSize() jen.Code {
	if e.p.model().Classes != nil {
		return jen.Id(e.dimName()).Op("*").Id(e.classesName())
	}
	return jen.Id(e.dimName())
}

// modelArrays are the model's arrays in the data file.
func (e *emitter) modelArrays() []embedded {
	if e.p.model() == nil {
		return nil
	}
	return []embedded{{e.modelWName(), e.modelWDoc(), e.modelWSize()}, {e.modelBName(), e.modelBDoc(), e.modelOutputs()}}
}
