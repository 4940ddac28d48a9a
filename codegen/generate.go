package codegen

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"
	"github.com/featmap/featmap/fmap"
)

// Info says where a generated file comes from and what it is called.
type Info struct {
	// Name is the Go identifier N of the emitted map: N, NDim, NSlice, NF32,
	// NSliceF32 (and NIn for n-D input; see ExportedNames). Unexported helpers start with N
	// with its first letter lowered.
	Name string
	// Package is the package clause of the emitted file.
	Package string
	// Version is featmap's version, recorded in the first line.
	Version string
	// SpecPath is the spec's path as given (never made absolute) and
	// SpecHash a hash of its content; both are recorded in the header.
	SpecPath, SpecHash string
	// Spec is an optional human restatement of the spec, one or more
	// lines, copied into the header comment.
	Spec string
	// File is the emitted Go file's base name, e.g. "rbf64.go". The data
	// file of a map whose constants do not fit in Go literals is named
	// after it ("rbf64.bin") and embedded with //go:embed; GenerateFiles
	// needs it, Generate ignores it.
	File string
	// Key, when set, is recorded as the header's second line,
	// "// featmap-key: KEY" (see FileKey): whatever the caller needs to
	// tell whether the file is fresh, e.g. a hash of everything the
	// output depends on. Empty: no such line.
	Key string
	// MapSHA256, when set, is the SHA-256 (hex) of the map's JSON written
	// beside the Go file (gen -map), recorded as the header's featmap-map
	// line so that a freshness check sees that file's content. Empty: no
	// such line.
	MapSHA256 string
	// Tables chooses between speed and size for the coefficient tables of
	// the piecewise polynomials that evaluate a Fourier map on an interval
	// (and the per-axis values of a 2-D or 3-D map): Fast (the zero value),
	// Compact or Small. Other maps' output does not depend on it.
	Tables Tables
}

// Tables is the size–speed choice of the emitted coefficient tables (the
// spec's emit.tables). Either choice keeps the fast paths' accuracy rule:
// the pieces add at most 10⁻³ of the map's measured error to the kernel.
type Tables int

const (
	// Fast takes the lowest polynomial degree that meets the error target
	// within the table limit (maxPolyCoefs): each degree costs
	// D multiplications and D additions per input.
	Fast Tables = iota
	// Compact takes Fast's degree or one more, whichever needs fewer
	// coefficients (with the fewest pieces that meet the target): on the
	// shipped maps about a third of the file for 1.1–1.4× the time per
	// input while Fast's table stays in the cache, and less time than
	// Fast's once other work has pushed the tables out (docs/gen.md,
	// "Generated-file size"; BenchmarkTables).
	Compact
	// Small takes the degree, up to 7, with the fewest coefficients (and
	// then the fewest pieces): on the shipped maps about a tenth of the
	// file for 1.5–2.1× the time per input with warm caches, about
	// Fast's time with cold ones.
	Small
)

// TablesNames are the spec's names of the Tables values, in their order.
var TablesNames = []string{"fast", "compact", "small"}

// TablesNamed returns the Tables value of a spec's name (TablesNames), and
// false for another name.
func TablesNamed(name string) (Tables, bool) {
	for i, n := range TablesNames {
		if n == name {
			return Tables(i), true
		}
	}
	return Fast, false
}

// String returns the spec's name of t: fast, compact or small.
func (t Tables) String() string {
	if t >= 0 && int(t) < len(TablesNames) {
		return TablesNames[t]
	}
	return fmt.Sprintf("Tables(%d)", int(t))
}

// FileKey returns the Info.Key recorded in a file Generate wrote, and
// false when its header (the comments before the package clause) has no
// featmap-key line.
func FileKey(src []byte) (string, bool) {
	for line := range strings.SplitSeq(string(src), "\n") {
		line = strings.TrimRight(line, "\r")
		if strings.HasPrefix(line, "package ") {
			break
		}
		if k, ok := strings.CutPrefix(line, keyPrefix); ok {
			return k, true
		}
	}
	return "", false
}

// ExportedNames returns the exported identifiers of a map named name, in
// the order the file declares them: N, NDim, NIn (declared only for n > 1
// inputs), NSlice, NF32 and NSliceF32. The float32 variants end in F32,
// not 32, so that a name ending in digits (RBF15) stays readable (RBF15F32,
// not RBF1532) and does not produce another map's name. A map with a
// model also declares PredictorNames.
func ExportedNames(name string) []string {
	return []string{name, name + "Dim", name + "In", name + "Slice", name + "F32", name + "SliceF32"}
}

// PredictorNames returns the exported identifiers the predictor of a map
// named name with a model declares, in file order: NClasses,
// NClassLabels, NScores and NClass (classes), NScore (regression).
func PredictorNames(name string, classes bool) []string {
	if classes {
		return []string{name + "Classes", name + "ClassLabels", name + "Scores", name + "Class"}
	}
	return []string{name + "Score"}
}

// File is one emitted file: its name relative to the Go file's directory
// and its content.
type File struct {
	Name string
	Data []byte
}

// check returns an error naming the first field of info that cannot be
// used in a Go source file.
func (info Info) check() error {
	if !isIdent(info.Name) {
		return fmt.Errorf("codegen: map name %q is not a Go identifier", info.Name)
	}
	if reservedName(info.Name) {
		return fmt.Errorf("codegen: map name %q would collide with an identifier of the emitted code (a predeclared name, the math package or a local variable)", info.Name)
	}
	if strings.HasPrefix(private(info.Name), densePrefix) {
		return fmt.Errorf("codegen: map name %q would give unexported names starting with %s, the prefix of the package's dense kernels", info.Name, densePrefix)
	}
	if !isIdent(info.Package) {
		return fmt.Errorf("codegen: package name %q is not a Go identifier", info.Package)
	}
	for _, f := range []struct{ name, v string }{{"version", info.Version}, {"spec path", info.SpecPath}, {"spec hash", info.SpecHash}, {"key", info.Key}, {"map hash", info.MapSHA256}} {
		if f.v == "" && (f.name == "key" || f.name == "map hash") {
			continue
		}
		if f.v == "" {
			return fmt.Errorf("codegen: empty %s", f.name)
		}
		if !printable(f.v) {
			return fmt.Errorf("codegen: %s %q has a line break or control character", f.name, f.v)
		}
	}
	if info.File != "" {
		if err := CheckFileName(info.File); err != nil {
			return err
		}
	}
	for _, line := range strings.Split(info.Spec, "\n") {
		if !printable(strings.TrimRight(line, "\r")) || !utf8.ValidString(line) {
			return fmt.Errorf("codegen: spec restatement line %q has a control character", line)
		}
	}
	return nil
}

// reserved are the identifiers the emitted code uses besides the map's own
// names: the imported package, the predeclared names it relies on (all of
// them, to be safe) and its local variables.
var reserved = strings.Fields(`math
	bool byte complex64 complex128 error float32 float64 int int8 int16 int32 int64 rune string
	uint uint8 uint16 uint32 uint64 uintptr any comparable true false iota nil
	append cap clear close complex copy delete imag len make max min new panic print println real recover
	out x t a b s c j u o i k p nan dst src
	ph y z zz q sb cb d
	kv w r ok rows i0 c0 j0 v u`)

// goFileName matches the Go file names the emitted code may have: a plain
// base name that the go command builds and a //go:embed directive can name
// the data file beside it without quoting.
var goFileName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]*\.go$`)

// CheckFileName returns an error if name cannot be an emitted Go file's
// name (Info.File).
func CheckFileName(name string) error {
	if !goFileName.MatchString(name) {
		return fmt.Errorf("codegen: Go file name %q is not a plain base name ending in .go (letters, digits, '_', '-' and '.', not starting with '_' or '.', not a _test.go file)", name)
	}
	if strings.HasSuffix(name, "_test.go") {
		return fmt.Errorf("codegen: Go file name %q names a test file", name)
	}
	return nil
}

// DataFileName is the name of the data file beside the Go file goFile (a
// base name, Info.File): "rbf64.go" gives "rbf64.bin".
func DataFileName(goFile string) string { return strings.TrimSuffix(goFile, ".go") + ".bin" }

// localPattern matches the numbered local variables (x0, c1, s0_2, r3, d4).
var localPattern = regexp.MustCompile(`^[xcsrd][0-9]+(_[0-9]+)?$`)

func reservedName(name string) bool {
	return slices.Contains(reserved, name) || localPattern.MatchString(name)
}

func isIdent(s string) bool {
	return token.IsIdentifier(s) && s != "_"
}

func printable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if unicode.IsControl(r) {
			return false
		}
	}
	return true
}

// private returns the prefix of the unexported names of a map named name:
// its leading upper-case run lowered the way Go names are (RBF → rbf,
// VZInt → vzInt, Chi2 → chi2).
func private(name string) string {
	rs := []rune(name)
	n := 0
	for n < len(rs) && unicode.IsUpper(rs[n]) {
		n++
	}
	if n > 1 && n < len(rs) && unicode.IsLower(rs[n]) {
		n-- // the last capital starts the next word
	}
	if n == 0 {
		n = 1
	}
	for i := range n {
		rs[i] = unicode.ToLower(rs[i])
	}
	return string(rs)
}

// Generate returns the Go source of a verified map (its measured errors
// are stated in the header and bound the fast paths): gofmt'd, importing only the
// standard library, byte-identical for the same input. See the package
// documentation for the emitted API. A map whose constants go to a data file
// (random features with more than 4096 frequency coordinates and phases) is
// an error: use GenerateFiles. A random-feature map calls the package's
// dense kernels (DenseFiles), which GenerateFiles returns beside it and
// Generate leaves out: the package needs them once, whatever its maps.
func Generate(vm fmap.Verified, info Info) ([]byte, error) {
	p, err := newPlan(vm, info)
	if err != nil {
		return nil, err
	}
	if d := p.kind.data(); d != nil {
		return nil, fmt.Errorf("codegen: %s has %d constants, more than the %d written as Go literals: they go to a data file beside the Go file (use GenerateFiles)",
			info.Name, len(d.blob)/8, MaxLiterals)
	}
	files, err := p.render()
	if err != nil {
		return nil, err
	}
	files = slices.DeleteFunc(files, func(f File) bool { return IsDenseFile(f.Name) })
	if len(files) > 1 {
		return nil, fmt.Errorf("codegen: %s is emitted as %d files (%s beside the Go file): use GenerateFiles", info.Name, len(files), files[1].Name)
	}
	return files[0].Data, nil
}

// GenerateFiles returns the Go source of a verified map (first, named
// info.File, which must be set) and any data file it embeds (named after
// it, see Info.File). The Go source is what Generate returns for a map
// without a data file.
func GenerateFiles(vm fmap.Verified, info Info) ([]File, error) {
	if info.File == "" {
		return nil, errors.New("codegen: GenerateFiles needs Info.File, the emitted Go file's name")
	}
	p, err := newPlan(vm, info)
	if err != nil {
		return nil, err
	}
	return p.render()
}

// render emits the plan: the Go source, then the data file if there is
// one, then the files the kind adds to the package.
func (p *plan) render() ([]File, error) {
	e := &emitter{p: p}
	f := e.file()
	if e.lit.err != nil {
		return nil, e.lit.err
	}
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, fmt.Errorf("codegen: rendering %s: %w", p.info.Name, err)
	}
	files := []File{{Name: p.info.File, Data: buf.Bytes()}}
	if d := p.kind.data(); d != nil {
		files = append(files, File{Name: DataFileName(p.info.File), Data: d.blob})
	}
	return append(files, p.kind.files(e)...), nil
}

// emitter builds the jennifer file of one plan.
type emitter struct {
	p   *plan
	lit lits
}

// Names of the emitted identifiers.
func (e *emitter) dimName() string      { return e.p.name + "Dim" }
func (e *emitter) inName() string       { return e.p.name + "In" }
func (e *emitter) sliceName() string    { return e.p.name + "Slice" }
func (e *emitter) name32() string       { return e.p.name + "F32" }
func (e *emitter) slice32Name() string  { return e.p.name + "SliceF32" }
func (e *emitter) tableName() string    { return e.p.priv + "Table" }
func (e *emitter) table32Name() string  { return e.p.priv + "Table32" }
func (e *emitter) polyName() string     { return e.p.priv + "Poly" }
func (e *emitter) generalName() string  { return e.p.priv + "General" }
func (e *emitter) dispatchName() string { return e.p.priv + "Dispatch" }
func (e *emitter) pieceName() string    { return e.p.priv + "Piece" }
func (e *emitter) axisPolyName(i int) string {
	return fmt.Sprintf("%sAxis%dPoly", e.p.priv, i)
}
func (e *emitter) specialName() string { return e.p.priv + "Special" }

// outType is *[NDim]T, inType *[NIn]T.
func (e *emitter) outType(t func() *jen.Statement) *jen.Statement {
	return jen.Op("*").Index(jen.Id(e.dimName())).Add(t())
}

func (e *emitter) inType(t func() *jen.Statement) *jen.Statement {
	return jen.Op("*").Index(jen.Id(e.inName())).Add(t())
}

func (e *emitter) file() *jen.File {
	p := e.p
	f := jen.NewFile(p.info.Package)
	for _, l := range p.header().lines() {
		f.HeaderComment(l)
	}
	f.HeaderComment(commentBlock(p.kind.header(e)))

	f.Comment(fmt.Sprintf("%s is the output dimension D of %s.", e.dimName(), p.name))
	f.Const().Id(e.dimName()).Op("=").Add(integer(p.dim))
	if p.in > 1 {
		f.Comment(fmt.Sprintf("%s is the input dimension n of %s.", e.inName(), p.name))
		f.Const().Id(e.inName()).Op("=").Add(integer(p.in))
	}
	f.Line()
	p.kind.api(e, f)
	p.kind.helpers(e, f)
	return f
}

// commentBlock turns lines into a // comment rendered verbatim (blank
// lines become "//").
func commentBlock(lines []string) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		switch {
		case l == "":
			b.WriteString("//")
		case l[0] == '\t':
			b.WriteString("//" + l)
		default:
			b.WriteString("// " + l)
		}
	}
	return b.String()
}
