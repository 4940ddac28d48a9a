package spec

import (
	"errors"
	"fmt"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// Spec is a decoded and validated featmap spec (format version 1). After
// Parse returns it, nothing downstream re-checks strings: every field is
// typed and every default filled in; after Load returns it, nothing
// changes it: a design's learning derives a problem of its own
// (featmap.Spec.Design).
type Spec struct {
	// Path is the spec's path as given on the command line (recorded in
	// generated files); Hash is the hex SHA-256 of its content.
	Path    string
	Hash    string
	Version int
	// Name is the Go identifier prefix of emitted code.
	Name string
	// Problem is the kernel, the domain, the error measure and norm, and
	// what a homogeneous map does with negative inputs. Every design of the
	// spec shares it (and the reference it is verified against).
	Problem *fmap.Problem
	// Target and Method are set for a single design; Compare instead for a
	// comparison report. Exactly one of the two shapes is present.
	Target  *TargetSpec
	Method  *MethodSpec
	Compare *CompareSpec
	// Data is the data section (nil without one). Load reads its file
	// into Problem.Data; DataHeader says whether the file's first line was
	// a header (given or detected).
	Data       *datafile.Section
	DataHeader bool
	// Learn is the learn section (nil without one): a design learns the
	// kernel's σ from the data's labels first (featmap.Design.Learned).
	Learn *LearnSpec
	// GroupLasso is the kernels section (nil without one), whose method is
	// rff-group-lasso: a design learns the kernels' weights from the
	// data's labels first (featmap.Design.GroupLasso) and designs the combined
	// map; the spec then has no target.
	GroupLasso *GroupLassoSpec
	// Emit is the emit section: how featmap gen writes the map's code
	// (Tables "fast" without one).
	Emit EmitSpec
	// OptionFiles are the files the methods' options named (read by
	// Load, design.FileLoader), in the order they were read, with the
	// SHA-256 of their content; the data section's file is Problem.Data.
	OptionFiles []InputFile
	// Warnings are things the spec does that work but should change (a
	// deprecated key), in the form of error messages.
	Warnings []string
}

// TargetSpec is the spec's target section: exactly one of Dim and MaxError
// is nonzero.
type TargetSpec struct {
	Dim      int
	MaxError float64
	// MaxDim bounds the search for MaxError (default DefaultMaxDim).
	MaxDim int
	// line is the line of target.dim, or of target.max_dim (its section's
	// without one), for errors found once the data is read.
	line int
}

// MinMaxError is the smallest target.max_error a spec may ask for: the
// verification measures |K − Ψ·Ψ| in float64 with D terms, whose rounding is
// about D·2⁻⁵³ ≈ 10⁻¹⁴, so a smaller target can never be confirmed, only
// searched for up to max_dim (1e-300 ran every D to max_dim).
const MinMaxError = 1e-12

// DefaultMaxDim is the largest dimension target.max_error tries by default,
// MaxDim the largest dimension a spec may ask for, and MaxInputs the
// largest input dimension (domain.dims).
const (
	DefaultMaxDim = 31
	MaxDim        = 1 << 16
	MaxInputs     = 1 << 16
)

// MethodSpec is one method of a spec, with its options decoded (the
// design.Method holds them) and where it was declared.
type MethodSpec struct {
	design.Method
	// Line is where the method was declared in the spec; field is its key
	// path (method, or compare.methods[i]) and keys the lines of its keys,
	// for messages about its options.
	Line  int
	field string
	keys  map[string]int
}

// CompareSpec is the spec's compare section.
type CompareSpec struct {
	Methods []MethodSpec
	// Dims are the compared output dimensions D (compare.dims) or, with
	// Widths, the compared output widths (compare.widths): the numbers per
	// row of the map's output, each method designed at the D that gives
	// that width (see Spec.DimForWidth).
	Dims   []int
	Widths bool
}

// LearnSpec is the spec's learn section: learn the rbf kernel's σ from the
// data's labels by the validation gradient (learn.LearnSigma).
type LearnSpec struct {
	// PerAxis is sigma: per-axis (one σ per input axis); else shared.
	PerAxis bool
	// Validation is the held-out fraction (default 0.25), Ridge the ridge
	// λ (default 1e-3), Penalty the weight of Σ log²(σ/σ0) (default 0).
	// Per axis, σ is learned shared first and per axis from there
	// (learn.LearnOptions.SharedFirst).
	Validation, Ridge, Penalty float64
	// RidgeAuto is ridge: auto (Ridge is then 0): λ chosen on the
	// validation split too (learn.LearnOptions.RidgeAuto). RidgeLine is
	// learn.ridge's line (0: not given, Ridge is the default).
	RidgeAuto bool
	RidgeLine int
	// Task is learn.task, TaskClassification or TaskRegression: as given,
	// or (TaskLine 0) decided by Load from the data file's labels
	// (decideTask); TaskWhy says why in words.
	Task     string
	TaskLine int
	TaskWhy  string
	// Line is the section's line in the spec.
	Line int
}

// The tasks of learn.task: labels that are classes (one-vs-rest targets,
// accuracy) or numbers (regression, RMSE).
const (
	TaskClassification = "classification"
	TaskRegression     = "regression"
)

// Classes reports whether the learn section's labels are classes.
func (l *LearnSpec) Classes() bool { return l.Task == TaskClassification }

// InputFile is a file a spec read besides itself: its path as messages
// name it and the hex SHA-256 of its content.
type InputFile struct {
	Path, SHA256 string
}

// EmitSpec is the spec's emit section: choices of featmap gen's output
// that leave the map and its measured errors alone.
type EmitSpec struct {
	// Tables is emit.tables, the size–speed choice of the coefficient
	// tables of a map evaluated by piecewise polynomials (codegen.Tables):
	// fast (the default: the lowest degree, the largest file), compact or
	// small (higher degrees, fewer pieces, smaller files, more arithmetic
	// per input). Other maps' code does not depend on it.
	Tables string
	// Line is the section's line in the spec (0 without one).
	Line int
}

// optionErr places an *design.OptionError of m (at the later of its keys)
// in the spec at path; other errors are returned as they are.
func (m *MethodSpec) optionErr(path string, err error) error {
	var oe *design.OptionError
	if !errors.As(err, &oe) {
		return err
	}
	k, other := oe.Key, oe.Other
	if other != "" && m.keys[other] > m.keys[k] {
		k, other = other, k
	}
	line := m.keys[k]
	if line == 0 { // a default the problem made too large: at the method
		line = m.Line
	}
	e := &SpecError{Path: path, Line: line, Field: child(m.field, k), Msg: oe.Msg, Err: oe.Err}
	if other != "" {
		e.Msg = fmt.Sprintf("conflicts with %s (line %d): %s", child(m.field, other), m.keys[other], oe.Msg)
	}
	return e
}
