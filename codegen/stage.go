package codegen

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// stageEmitter emits the Go form of one kind of map, named for the kind of
// its stage (stage_<kind>.go): everything in which the kinds differ. Each
// of the four exported functions is the kind's own business — N (one row),
// NSlice (a batch), NF32 and NSliceF32 (float32) —, so that one kind's
// path can be replaced, by a faster one or one in assembly, without
// touching another's; so are its helpers and constants, its data file and
// any other file it adds to the package, and what its header says.
// newPlan chooses the emitter once (kindOf); nothing else in the package
// asks which kind a map is.
type stageEmitter interface {
	// plan completes the kind's part of p: its own checks, its fast paths
	// and where its constants go. It may set p.in and p.dim (an anchor map
	// of a table per coordinate takes a row).
	plan(p *plan) error
	// header is the file's header comment after its machine-read lines:
	// the spec, what the map is and its measured errors, its parameters
	// and its evaluation paths (most kinds: e.mapHeader with their words).
	header(e *emitter) []string
	// api emits the exported functions in file order: N, NSlice, NF32 and
	// NSliceF32 (e.fourFuncs), then a model's predictor.
	api(e *emitter, f *jen.File)
	// helpers emits the unexported functions, constants and tables, and
	// the decoding of the data file.
	helpers(e *emitter, f *jen.File)
	// data is the kind's data file (the constants beyond MaxLiterals),
	// nil when they are Go literals.
	data() *dataFile
	// files are the files the kind adds to the Go file's package besides
	// the Go file and its data file (an assembly file its functions call,
	// say), named relative to the Go file's directory; none yet.
	files(e *emitter) []File
}

// mapWords are what a kind says of its map in the standard header
// (emitter.mapHeader) and in N's doc comment (emitter.docN).
type mapWords interface {
	// kernel names the kernel with its formula.
	kernel(e *emitter) string
	// form describes the functional form.
	form(e *emitter) string
	// edges says what x = 0, x < 0, non-finite and huge inputs give.
	edges(e *emitter) string
	// parameterLines lists the parameters, or says where the constants are.
	parameterLines(e *emitter) []string
	// evaluationLines describes every evaluation path with the error it
	// adds.
	evaluationLines(e *emitter) []string
}

// Every kind's emitter is a stageEmitter and says its words.
var (
	_ stageEmitter = (*fourierKind)(nil)
	_ stageEmitter = (*seriesKind)(nil)
	_ stageEmitter = (*randomKind)(nil)
	_ stageEmitter = (*nystroemKind)(nil)
	_ stageEmitter = (*anchorsKind)(nil)
	_ stageEmitter = (*polynomialKind)(nil)
	_ stageEmitter = (*blocksKind)(nil)
	_ mapWords     = (*fourierKind)(nil)
	_ mapWords     = (*seriesKind)(nil)
	_ mapWords     = (*randomKind)(nil)
	_ mapWords     = (*nystroemKind)(nil)
	_ mapWords     = (*anchorsKind)(nil)
	_ mapWords     = (*polynomialKind)(nil)
)

// kindOf returns the emitter of a valid map's kind, from its stages: one
// Fourier, series, Nyström or anchor stage; random features, alone or after
// a per-coordinate stage (in the identity transform), either followed by a
// linear stage or not (rf-pca); a polynomial stage, followed by a linear
// stage or not; one blocks stage. Any other sequence is ErrUnsupported.
// It is the only place that asks which kind a stage is.
func kindOf(m *fmap.Map) (stageEmitter, error) {
	st := m.Stages
	var lin *fmap.Linear
	if n := len(st); n >= 2 {
		if l, ok := st[n-1].Kind.(*fmap.Linear); ok {
			lin, st = l, st[:n-1]
		}
	}
	switch k := st[0].Kind.(type) {
	case *fmap.Fourier:
		if len(st) == 1 && lin == nil {
			return &fourierKind{fm: &fourierMap{Map: m, f: k}}, nil
		}
	case *fmap.Series:
		if len(st) == 1 && lin == nil {
			return &seriesKind{m: m, s: k}, nil
		}
	case *fmap.Random:
		if len(st) == 1 {
			return &randomKind{r: k, lin: lin}, nil
		}
	case *fmap.PerCoordinate:
		if r, ok := st[len(st)-1].Kind.(*fmap.Random); ok && len(st) == 2 && r.Transform == fmap.Identity {
			return &randomKind{r: r, per: k, lin: lin}, nil
		}
	case *fmap.Polynomial:
		if len(st) == 1 {
			return &polynomialKind{s: k, lin: lin}, nil
		}
	case *fmap.Nystroem:
		if len(st) == 1 && lin == nil {
			return &nystroemKind{s: k}, nil
		}
	case *fmap.Anchors:
		if len(st) == 1 && lin == nil {
			return &anchorsKind{a: k}, nil
		}
	case *fmap.Blocks:
		if len(st) == 1 && lin == nil {
			return &blocksKind{b: k}, nil
		}
	}
	return nil, fmt.Errorf("%w a map with the stages %s (it emits one Fourier, series, random, Nyström, anchor or polynomial stage, or a per-coordinate stage followed by random features in the identity transform, and either random map or a polynomial stage followed by a linear stage)", ErrUnsupported, stageNames(m.Stages))
}

// ErrUnsupported reports a map the code generator cannot emit yet (a
// combination of stages it has no Go form for): the map is fine, only its
// Go form is missing.
var ErrUnsupported = errors.New("codegen: cannot emit yet")

// stageNames lists the kinds of stages, e.g. "[per-coordinate, random
// (identity)]".
func stageNames(st []fmap.Stage) string {
	names := make([]string, len(st))
	for i, x := range st {
		names[i] = strings.ReplaceAll(x.Name(), "_", "-")
		if r, ok := x.Kind.(*fmap.Random); ok {
			names[i] += " (" + string(r.Transform) + ")"
		}
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// noFiles is the files method of the kinds that add no file to the
// package.
type noFiles struct{}

func (noFiles) files(*emitter) []File { return nil }
