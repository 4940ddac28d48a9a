package featmap

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"hash"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/homogeneous"
	"github.com/featmap/featmap/internal/atomicfile"
	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/registry"
	"gopkg.in/yaml.v3"
)

// ParseSpec decodes and validates a spec (format version 1) given its
// content; path is only used in messages and recorded in Spec.Path, and
// Spec.Hash is the hex SHA-256 of data. The spec is one YAML document, a
// mapping of
//
//	version: 1                      required
//	name:    Chi2U8D7               required, an exported Go identifier
//	kernel:  {type, gamma, sigma}   required; gamma homogeneous only, sigma rbf only
//	domain:  {dims, integers | interval, negative}
//	error:   {norm, weight}         optional
//	target:  {dim | max_error, max_dim}   and   method: {name, options…}
//	  or
//	compare: {methods: [name or {name, options…}, …], dims: [D, …] | widths: [W, …]}
//	emit:    {tables: fast | compact | small}   optional; not with compare
//
// Every default is filled in: gamma 1, dims 1, negative sign (homogeneous
// kernels), norm linf, weight absolute (homogeneous) or uniform (rbf),
// max_dim DefaultMaxDim, sigma broadcast to every axis, emit.tables fast. A method's options
// are decoded strictly into its options struct (see design.Method), with
// the defaults that do not depend on the problem filled in; the others stay
// 0, which the options document as their default. Methods are checked
// against the kernel, the domain and (for a single design) the target
// dimension. ParseSpec reads no file a method's options name (LoadSpec
// does).
//
// Every error is a *SpecError naming the file, the line and the key path.
func ParseSpec(path string, data []byte) (*Spec, error) {
	p := &parser{path: path, data: data}
	root, err := p.document()
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(data)
	s := &Spec{Path: path, Hash: hex.EncodeToString(sum[:]), Version: 1}
	if err := p.spec(root, s); err != nil {
		return nil, err
	}
	return s, nil
}

// MaxSpecBytes is the largest spec file LoadSpec reads.
const MaxSpecBytes = 1 << 20

// LoadSpec reads the spec at path (a regular file of at most MaxSpecBytes) and decodes it with ParseSpec; then it
// reads the files its methods' options name (design.FileLoader), relative
// to the spec's directory unless absolute, and its data file. A file's
// error is a *SpecError at the option's key whose message names the file
// and its line; a data file's is a *datafile.DataError.
func LoadSpec(path string) (*Spec, error) { return LoadSpecProgress(path, nil) }

// LoadSpecProgress is LoadSpec with progress messages for long reads: a
// data file reports the rows read and the share of the file behind them
// every datafile.DefaultProgressRows rows. A nil progress says nothing.
func LoadSpecProgress(path string, progress func(string)) (*Spec, error) {
	return LoadSpecContext(context.Background(), path, progress)
}

// LoadSpecContext is LoadSpecProgress that stops reading the data file
// when ctx ends (it checks every datafile.CheckRows rows), with an error that
// wraps ctx's: Ctrl-C need not wait for the whole file.
func LoadSpecContext(ctx context.Context, path string, progress func(string)) (*Spec, error) {
	fi, err := os.Stat(path)
	switch {
	case err != nil:
		return nil, fileError(path, err)
	case !fi.Mode().IsRegular():
		return nil, &SpecError{Path: path, Msg: fmt.Sprintf("not a regular file (%s): featmap reads specs only from regular files", atomicfile.Kind(fi.Mode()))}
	case fi.Size() > MaxSpecBytes:
		return nil, &SpecError{Path: path, Msg: fmt.Sprintf("%d bytes, more than the %d a spec may have", fi.Size(), MaxSpecBytes)}
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, fileError(path, err)
	}
	// The file may have grown since: read at most one byte beyond the limit.
	data, err := io.ReadAll(io.LimitReader(f, MaxSpecBytes+1))
	f.Close()
	switch {
	case err != nil:
		return nil, err
	case len(data) > MaxSpecBytes:
		return nil, &SpecError{Path: path, Msg: fmt.Sprintf("more than the %d a spec may have (it grew while read)", MaxSpecBytes)}
	}
	s, err := ParseSpec(path, data)
	if err != nil {
		return nil, err
	}
	open := func(name string) (io.ReadCloser, string, error) {
		if !filepath.IsAbs(name) {
			name = filepath.Join(filepath.Dir(path), name)
		}
		f, err := os.Open(name)
		if err != nil {
			return nil, name, err
		}
		return &hashingFile{f: f, h: sha256.New(), path: name, spec: s}, name, nil
	}
	for _, m := range s.methods() {
		if fl, ok := m.Method.(design.FileLoader); ok {
			if err := fl.LoadFiles(open); err != nil {
				return nil, m.optionErr(path, err)
			}
		}
	}
	if s.Data != nil {
		r, err := datafile.Read(ctx, s.Path, s.Data, s.Problem, datafile.Options{Progress: progress})
		if err != nil {
			return nil, err
		}
		s.Problem.Data, s.DataHeader = r.Data, r.Header
		s.Warnings = append(s.Warnings, r.Warnings...)
		if err := checkDataBudget(s); err != nil {
			return nil, err
		}
	}
	for _, m := range s.methods() {
		if l, ok := m.Method.(*homogeneous.Li); ok && l.Opts.Data != "" {
			s.Warnings = append(s.Warnings, (&SpecError{Path: path, Line: m.keys["data"], Field: child(m.field, "data"),
				Msg: "deprecated: give the file in the spec's data section (data: {file: …}), which every method and the verification use"}).Error())
		}
	}
	return s, nil
}

// fileError is the *SpecError of a spec file that could not be opened:
// "path: no such file or directory", not the system call's "stat path: …";
// errors.Is(err, fs.ErrNotExist) holds as for the bare error.
func fileError(path string, err error) error {
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Err.Error()
	}
	return &SpecError{Path: path, Msg: msg, Err: err}
}

// checkDataBudget checks the target against the verification budget
// again once the data is read: verifying on its held-out rows adds to the
// cost (fmap.VerifyCost), which the spec alone could not tell.
func checkDataBudget(s *Spec) error {
	t, d := s.Target, s.Problem.Data
	if t == nil || d == nil {
		return nil
	}
	top, why := fmap.MaxVerifiedDim(s.Problem)
	field, dim := "target.dim", t.Dim
	if t.MaxError > 0 {
		field, dim = "target.max_dim", t.MaxDim
	}
	if dim <= top {
		return nil
	}
	return &SpecError{Path: s.Path, Field: field, Msg: fmt.Sprintf("%d: %s, with the %d held-out rows of %s (data.file): at most %d", dim, why, len(d.Held), d.File, top)}
}

// methods returns the spec's method, or its compared methods.
func (s *Spec) methods() []*MethodSpec {
	if s.Method != nil {
		return []*MethodSpec{s.Method}
	}
	if s.Compare == nil { // kernels: rff-group-lasso is no registry method
		return nil
	}
	var out []*MethodSpec
	for i := range s.Compare.Methods {
		out = append(out, &s.Compare.Methods[i])
	}
	return out
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

// The sections of a spec, decoded strictly: each field a key.
type (
	specDoc struct {
		Version kv `yaml:"version"`
		Name    kv `yaml:"name"`
		Kernel  kv `yaml:"kernel"`
		Kernels kv `yaml:"kernels"`
		Domain  kv `yaml:"domain"`
		Error   kv `yaml:"error"`
		Target  kv `yaml:"target"`
		Method  kv `yaml:"method"`
		Compare kv `yaml:"compare"`
		Data    kv `yaml:"data"`
		Learn   kv `yaml:"learn"`
		Emit    kv `yaml:"emit"`
	}
	emitDoc struct {
		Tables string `yaml:"tables" spec:"enum=fast|compact|small,what=choice"`
	}
	learnDoc struct {
		Sigma      string  `yaml:"sigma" spec:"enum=shared|per-axis"`
		Validation float64 `yaml:"validation" spec:"positive"`
		Ridge      kv      `yaml:"ridge"`
		Penalty    float64 `yaml:"penalty"`
	}
	dataDoc struct {
		File        string `yaml:"file"`
		Columns     kv     `yaml:"columns"`
		LabelColumn int    `yaml:"label_column" spec:"min=0,max=1000000"`
		Header      bool   `yaml:"header"`
		MaxRows     int    `yaml:"max_rows" spec:"min=2,max=1000000000"`
	}
	kernelDoc struct {
		Type  string  `yaml:"type" spec:"enum=chi2|intersection|js|hellinger|rbf|skewed-chi2|skewed-intersection|exp-chi2,what=kernel"`
		Gamma float64 `yaml:"gamma" spec:"positive"`
		Sigma kv      `yaml:"sigma"`
		C     float64 `yaml:"c"`
		Beta  float64 `yaml:"beta" spec:"positive"`
	}
	domainDoc struct {
		Dims     int           `yaml:"dims" spec:"min=1,max=65536"`
		Integers kv            `yaml:"integers"`
		Interval kv            `yaml:"interval"`
		Negative fmap.Negative `yaml:"negative" spec:"enum=sign|zero,what=rule"`
	}
	errorDoc struct {
		Norm   fmap.Norm    `yaml:"norm" spec:"enum=linf|l1"`
		Weight fmap.Measure `yaml:"weight" spec:"enum=absolute|relative|uniform"`
	}
	targetDoc struct {
		Dim      int     `yaml:"dim" spec:"min=1,max=65536"`
		MaxError float64 `yaml:"max_error" spec:"positive"`
		MaxDim   int     `yaml:"max_dim" spec:"min=1,max=65536"`
	}
	compareDoc struct {
		Methods kv `yaml:"methods"`
		Dims    kv `yaml:"dims"`
		Widths  kv `yaml:"widths"`
	}
)

// section decodes the mapping n at key path field into the section struct
// dst points to.
func (p *parser) section(n *yaml.Node, field string, dst any) (*mapping, error) {
	m, err := p.keys(n, field)
	if err != nil {
		return nil, err
	}
	return m, p.fill(m, dst, field+" keys are", "unknown key")
}

func (p *parser) spec(root *yaml.Node, s *Spec) error {
	top, err := p.keys(root, "")
	if err != nil {
		return err
	}
	// The version comes first: a spec of another version may have other keys.
	vn := top.value("version")
	if vn == nil {
		return p.missing(top, "version", "this featmap reads version 1")
	}
	if v, err := p.intIn(vn, "version", -1<<63, 1<<63-1); err != nil {
		return err
	} else if v != 1 {
		return p.errAt(vn, "version", "unsupported version %d: this featmap reads version 1", v)
	}
	var d specDoc
	if err := p.fill(top, &d, "top-level keys are", "unknown key"); err != nil {
		return err
	}
	if err := p.name(top, d.Name, s); err != nil {
		return err
	}
	if err := p.emitSection(top, d.Emit, s); err != nil {
		return err
	}
	s.Problem = &fmap.Problem{}
	if d.Kernels.V != nil {
		return p.kernelsSpec(top, d, s)
	}
	sigma, err := p.kernel(top, d.Kernel, s.Problem)
	if err != nil {
		return err
	}
	if err := p.domain(top, d.Domain, s.Problem); err != nil {
		return err
	}
	if err := p.sigma(sigma, s.Problem); err != nil {
		return err
	}
	if err := p.errorSection(d.Error, s.Problem); err != nil {
		return err
	}
	if err := p.dataSection(d.Data, s); err != nil {
		return err
	}
	if err := p.shape(top, d, s); err != nil {
		return err
	}
	return p.learnSection(d.Learn, s)
}

// emitSection reads the optional emit section: how gen writes the map's
// code. A comparison emits none, so a compare spec with one is refused.
func (p *parser) emitSection(top *mapping, n kv, s *Spec) error {
	s.Emit = EmitSpec{Tables: "fast"}
	if n.V == nil {
		return nil
	}
	d := emitDoc{Tables: "fast"}
	if _, err := p.section(n.V, "emit", &d); err != nil {
		return err
	}
	if top.keys["compare"] != nil {
		return p.errAt(n.K, "emit", "a comparison emits no code: emit is for a spec with target and method (featmap gen)")
	}
	s.Emit = EmitSpec{Tables: d.Tables, Line: n.K.Line}
	return nil
}

// learnSection reads the learn section: σ learned from the data's labels
// (see learn.go). It needs a data section with a label column, one rff
// design of a fixed dimension, and an rbf kernel.
func (p *parser) learnSection(n kv, s *Spec) error {
	if n.V == nil {
		return nil
	}
	var d learnDoc
	m, err := p.section(n.V, "learn", &d)
	if err != nil {
		return err
	}
	if d.Sigma == "" {
		return p.missing(m, "sigma", "shared (one σ) or per-axis (one σ per input axis)")
	}
	l := &LearnSpec{PerAxis: d.Sigma == "per-axis", Validation: 0.25, Ridge: 1e-3, Line: n.K.Line}
	if m.keys["validation"] != nil {
		if !(d.Validation < 1) {
			return p.errAt(m.value("validation"), "learn.validation", "the held-out fraction must be below 1, not %v", d.Validation)
		}
		l.Validation = d.Validation
	}
	if rn := d.Ridge.V; rn != nil {
		if rn.Kind == yaml.ScalarNode && rn.Value == "auto" {
			l.Ridge, l.RidgeAuto = 0, true
		} else if l.Ridge, err = p.number(rn, "learn.ridge", true); err != nil {
			return p.errAt(rn, "learn.ridge", "must be a number > 0 or auto, not %s", describe(rn))
		}
	}
	if m.keys["penalty"] != nil {
		if !(d.Penalty >= 0) || math.IsInf(d.Penalty, 0) {
			return p.errAt(m.value("penalty"), "learn.penalty", "must be a finite number ≥ 0, not %v", d.Penalty)
		}
		l.Penalty = d.Penalty
	}
	switch {
	case s.Data == nil || s.Data.Label < 0:
		return p.errAt(n.K, "learn", "learning σ needs labels: a data section with label_column")
	case s.Method == nil || s.Method.Name() != "rff":
		return p.errAt(n.K, "learn", "learning σ needs one design by method rff (target and method: {name: rff})")
	case s.Target.Dim == 0:
		return p.errAt(n.K, "learn", "learning σ needs target.dim (the features it learns with are the map's)")
	case s.Target.Dim > learn.MaxLearnDim:
		return p.errAt(n.K, "learn", "learning σ with target.dim %d: at most %d features (learn.MaxLearnDim: every step factors a D × D matrix, 185 MB and tens of seconds at D = 2048)", s.Target.Dim, learn.MaxLearnDim)
	case s.Problem.Kernel.Type != fmap.RBF:
		return p.errAt(n.K, "learn", "learning σ is for kernel rbf, not %s", s.Problem.Kernel.Type)
	}
	s.Learn = l
	return nil
}

// dataSection reads the data section (its file is read by LoadSpec).
func (p *parser) dataSection(n kv, s *Spec) error {
	if n.V == nil {
		return nil
	}
	var d dataDoc
	m, err := p.section(n.V, "data", &d)
	if err != nil {
		return err
	}
	if d.File == "" {
		return p.missing(m, "file", "the data file's path, relative to the spec")
	}
	ds := &datafile.Section{File: d.File, First: 0, Last: -1, Label: -1, MaxRows: datafile.DefaultMaxRows, Line: n.K.Line}
	if m.keys["label_column"] != nil {
		ds.Label = d.LabelColumn
	}
	if m.keys["header"] != nil {
		ds.Header = &d.Header
	}
	if m.keys["max_rows"] != nil {
		ds.MaxRows = d.MaxRows
	}
	if d.Columns.V != nil {
		items, err := p.list(d.Columns.V, "data.columns", "a list [first, last] of two column numbers")
		if err == nil && len(items) != 2 {
			err = p.errAt(d.Columns.V, "data.columns", "must be a list [first, last] of two column numbers, not a list of %d", len(items))
		}
		var v [2]int64
		for i := 0; err == nil && i < 2; i++ {
			v[i], err = p.intIn(items[i], elem("data.columns", i), 0, MaxInputs*16)
		}
		if err == nil && v[0] > v[1] {
			err = p.errAt(d.Columns.V, "data.columns", "first must be <= last")
		}
		if err != nil {
			return err
		}
		ds.First, ds.Last = int(v[0]), int(v[1])
	}
	s.Data = ds
	// The rows come with LoadSpec; methods that learn from data see now
	// that there will be some.
	s.Problem.Data = &fmap.Data{File: d.File}
	return nil
}

// name reads the name: an exported Go identifier.
func (p *parser) name(top *mapping, n kv, s *Spec) error {
	if n.V == nil {
		return p.missing(top, "name", "a Go identifier such as Chi2U8D7")
	}
	name, err := p.str(n.V, "name", "", nil)
	switch q := strconv.Quote(name); {
	case err != nil:
		return err
	case !token.IsIdentifier(name):
		return p.errAt(n.V, "name", "%s is not a Go identifier (letters, digits and _, not starting with a digit)", q)
	case !token.IsExported(name):
		return p.errAt(n.V, "name", "%s must start with an uppercase letter: it prefixes exported Go names", q)
	case token.IsKeyword(name):
		return p.errAt(n.V, "name", "%s is a Go keyword", q)
	}
	s.Name = name
	return nil
}

// kernel reads the kernel section; sigma's node is returned for p.sigma.
func (p *parser) kernel(top *mapping, n kv, pr *fmap.Problem) (*yaml.Node, error) {
	types := fmap.KernelTypes()
	if n.V == nil {
		return nil, p.missing(top, "kernel", "a mapping with type: "+strings.Join(types, " | "))
	}
	var d kernelDoc
	m, err := p.section(n.V, "kernel", &d)
	switch {
	case err != nil:
		return nil, err
	case d.Type == "":
		return nil, p.missing(m, "type", "one of "+strings.Join(types, ", "))
	}
	k := &pr.Kernel
	k.Type, k.Gamma, k.C, k.Beta = d.Type, d.Gamma, d.C, d.Beta
	homog, sigma := k.Homogeneous(), k.ShiftInvariant()
	g, s := m.keys["gamma"], m.keys["sigma"]
	switch {
	case g != nil && !homog:
		return nil, p.errAt(g, "kernel.gamma", "gamma is the degree of a homogeneous kernel; %s has none%s", k.Type, map[bool]string{true: " (its width is sigma)"}[k.Type == fmap.RBF])
	case homog && g == nil:
		k.Gamma = 1
	case m.keys["c"] != nil && !k.Skewed():
		return nil, p.errAt(m.keys["c"], "kernel.c", "c is the offset of the skewed kernels; %s has none", k.Type)
	case m.keys["beta"] != nil && k.Type != fmap.ExpChi2:
		return nil, p.errAt(m.keys["beta"], "kernel.beta", "beta is the scale of kernel exp-chi2; %s has none", k.Type)
	case m.keys["beta"] == nil && k.Type == fmap.ExpChi2:
		return nil, p.missing(m, "beta", "exp-chi2's scale: a number > 0")
	}
	switch {
	case s == nil && sigma:
		return nil, p.missing(m, "sigma", fmt.Sprintf("the %s width: a number > 0, or one per axis", k.Type))
	case s != nil && !sigma:
		return nil, p.errAt(s, "kernel.sigma", "sigma is the width of kernels rbf, skewed-chi2 and skewed-intersection; %s has none", k.Type)
	}
	if d.Sigma.V == nil {
		return nil, nil
	}
	if _, err := p.list(d.Sigma.V, "", ""); err != nil {
		x, err := p.number(d.Sigma.V, "kernel.sigma", true)
		k.Sigma = []float64{x}
		return d.Sigma.V, err
	}
	var f struct {
		Sigma []float64 `yaml:"sigma" spec:"positive"`
	}
	err = p.value(structFields(reflect.ValueOf(&f).Elem())[0], d.Sigma.K, d.Sigma.V, "kernel.sigma")
	k.Sigma = f.Sigma
	return d.Sigma.V, err
}

// sigma checks the rbf widths against domain.dims and broadcasts one.
func (p *parser) sigma(n *yaml.Node, pr *fmap.Problem) error {
	dims := pr.InDim()
	switch k := &pr.Kernel; {
	case n == nil:
	case deref(n).Kind != yaml.SequenceNode:
		k.Sigma = slices.Repeat(k.Sigma, dims)
	case len(k.Sigma) != dims:
		return p.errAt(n, "kernel.sigma", "has %d values but domain.dims is %d: give one per axis, or a single number for all", len(k.Sigma), dims)
	}
	return nil
}

// domain reads the domain section.
func (p *parser) domain(top *mapping, n kv, pr *fmap.Problem) error {
	if n.V == nil {
		return p.missing(top, "domain", "a mapping with integers: [lo, hi] or interval: [lo, hi]")
	}
	d := domainDoc{Dims: 1}
	m, err := p.section(n.V, "domain", &d)
	if err != nil {
		return err
	}
	homog := pr.Kernel.Homogeneous()
	if d.Dims > 1 && homog {
		return p.errAt(m.value("dims"), "domain.dims", "%s is additive, a sum over input dimensions: dims > 1 needs a kernel of vectors (rbf, skewed-chi2, skewed-intersection, exp-chi2)", pr.Kernel.Type)
	}
	if err := p.exclusive(m, "integers", "interval", "give exactly one"); err != nil {
		return err
	}
	dom := &pr.Domain
	switch {
	case d.Integers.V != nil && d.Dims != 1:
		return p.errAt(d.Integers.V, "domain.integers", "integer domains have one axis (domain.dims is %d); use interval", d.Dims)
	case d.Integers.V != nil:
		lo, hi, err := p.pair(d.Integers.V, "domain.integers", true)
		if err == nil && homog && lo < 0 {
			err = p.errAt(d.Integers.V, "domain.integers", "lo must be >= 0: homogeneous kernels take no negative inputs (domain.negative says what the map does with them)")
		}
		if err == nil {
			err = p.lowEnd(d.Integers.V, "domain.integers", lo, pr.Kernel)
		}
		if n := hi - lo + 1; err == nil && n > fmap.MaxIntegerInputs {
			err = p.errAt(d.Integers.V, "domain.integers", "%g integers, more than the %d whose every pair the verification can measure; use interval: [%g, %g]", n, fmap.MaxIntegerInputs, lo, hi)
		}
		if err != nil {
			return err
		}
		dom.Integer, dom.Lo, dom.Hi = true, []float64{lo}, []float64{hi}
	case d.Interval.V != nil:
		if err := p.interval(d.Interval.V, d.Dims, pr); err != nil {
			return err
		}
	default:
		return p.errAt(m.node, "domain", "missing integers or interval (exactly one is required)")
	}
	switch k := m.keys["negative"]; {
	case k != nil && !homog:
		return p.errAt(k, "domain.negative", "applies to homogeneous kernels only, not rbf")
	case k != nil:
		pr.Negative = d.Negative
	case homog:
		pr.Negative = fmap.NegativeSign
	}
	if d.Dims > fmap.MaxGridAxes {
		if top, why := fmap.MaxVerifiedDim(pr); top < 1 {
			return p.errAt(m.value("dims"), "domain.dims", "%d inputs: %s, more than the budget at any D: at most %d inputs", d.Dims, why, fmap.MaxVerifiedInputs())
		}
	}
	return nil
}

// minNormal is the smallest normal float64, and maxHomogeneousRatio the
// widest range hi/lo of a homogeneous kernel's interval: log(hi/lo) ≤ 690,
// far beyond any data, with its grids still finite.
const (
	minNormal           = 0x1p-1022
	maxHomogeneousRatio = 1e300
)

// maxExactInteger is the largest integer every float64 holds exactly.
const maxExactInteger = 1 << 53

// pair reads [lo, hi] with lo < hi: integers exact in float64, or finite
// numbers.
func (p *parser) pair(n *yaml.Node, field string, integers bool) (lo, hi float64, err error) {
	want := "a list [lo, hi] of two numbers"
	if integers {
		want = "a list [lo, hi] of two integers"
	}
	items, err := p.list(n, field, want)
	if err == nil && len(items) != 2 {
		err = p.errAt(n, field, "must be %s, not a list of %d", want, len(items))
	}
	var v [2]float64
	for i := 0; err == nil && i < 2; i++ {
		if !integers {
			v[i], err = p.number(items[i], elem(field, i), false)
			continue
		}
		var x int64
		x, err = p.intIn(items[i], elem(field, i), -1<<63, 1<<63-1)
		if err == nil && (x > maxExactInteger || x < -maxExactInteger) {
			err = p.errAt(items[i], elem(field, i), "%d is beyond ±2^53, where float64 no longer holds every integer", x)
		}
		v[i] = float64(x)
	}
	if err == nil && !(v[0] < v[1]) {
		err = p.errAt(n, field, "lo must be < hi")
	}
	return v[0], v[1], err
}

// interval reads domain.interval: one [lo, hi] for every axis, or a list of
// domain.dims pairs.
func (p *parser) interval(n *yaml.Node, dims int, pr *fmap.Problem) error {
	const field = "domain.interval"
	d := &pr.Domain
	items, err := p.list(n, field, "a list [lo, hi] of two numbers")
	if err != nil {
		return err
	}
	first := n // the pair node of the first axis
	if len(items) > 0 && deref(items[0]).Kind == yaml.SequenceNode {
		if len(items) != dims {
			return p.errAt(n, field, "has %d [lo, hi] pairs but domain.dims is %d: give one per axis, or a single [lo, hi] for all", len(items), dims)
		}
		first = items[0]
		for i, it := range items {
			lo, hi, err := p.pair(it, elem(field, i), false)
			if err != nil {
				return err
			}
			d.Lo, d.Hi = append(d.Lo, lo), append(d.Hi, hi)
		}
	} else {
		lo, hi, err := p.pair(n, field, false)
		if err != nil {
			return err
		}
		d.Lo, d.Hi = slices.Repeat([]float64{lo}, dims), slices.Repeat([]float64{hi}, dims)
	}
	if pr.Kernel.Homogeneous() && !(d.Lo[0] > 0) {
		return p.errAt(first, field, "lo must be > 0: it is the smallest nonzero input of a homogeneous kernel (0 always maps to 0; domain.negative says what happens below)")
	}
	if pr.Kernel.Homogeneous() && !(d.Lo[0] >= minNormal && d.Hi[0]/d.Lo[0] <= maxHomogeneousRatio) {
		return p.errAt(first, field, "hi/lo is %g: a homogeneous kernel's map works in log x, and hi/lo must be at most %g, lo at least %g (a normal float64)", d.Hi[0]/d.Lo[0], maxHomogeneousRatio, minNormal)
	}
	for i, lo := range d.Lo {
		node := first
		if deref(first).Kind == yaml.SequenceNode && len(items) == dims && dims > 1 {
			node = items[i]
		}
		if err := p.lowEnd(node, field, lo, pr.Kernel); err != nil {
			return err
		}
	}
	return nil
}

// lowEnd checks an axis's lower end against kernels defined above it:
// exp-chi2 takes no negative inputs, the skewed kernels need x + c > 0.
func (p *parser) lowEnd(n *yaml.Node, field string, lo float64, k fmap.Kernel) error {
	switch {
	case k.Type == fmap.ExpChi2 && lo < 0:
		return p.errAt(n, field, "lo must be >= 0: exp-chi2 takes no negative inputs")
	case k.Skewed() && !(lo+k.C > 0):
		return p.errAt(n, field, "lo + c must be > 0 (the kernel is a function of log(x + c)); lo is %g and kernel.c %g", lo, k.C)
	}
	return nil
}

// errorSection reads the optional error section.
func (p *parser) errorSection(n kv, pr *fmap.Problem) error {
	d := errorDoc{Norm: fmap.LInf, Weight: fmap.Absolute}
	if pr.Kernel.ShiftInvariant() {
		d.Weight = fmap.Uniform
	}
	if n.V != nil {
		m, err := p.section(n.V, "error", &d)
		if err != nil {
			return err
		}
		if d.Weight == fmap.Uniform && !pr.Kernel.ShiftInvariant() && !pr.Kernel.Homogeneous() {
			return p.errAt(m.value("weight"), "error.weight", "uniform is the unweighted signature error, and %s has no signature: use absolute or relative", pr.Kernel.Type)
		}
		l, k, err := pr.Farthest()
		if d.Weight == fmap.Relative && err == nil && !(k >= fmap.MinRelativeKernel) {
			return p.errAt(m.value("weight"), "error.weight", "relative divides by the kernel, which falls to %.2g on this domain (at λ = %s): no fit follows it there; use absolute, or a domain where K stays above %g",
				k, strings.Trim(fmt.Sprintf("%.4g", l), "[]"), fmap.MinRelativeKernel)
		}
	}
	pr.Norm, pr.Measure = d.Norm, d.Weight
	return nil
}

// shape reads either target and method or compare.
func (p *parser) shape(top *mapping, d specDoc, s *Spec) error {
	const both = "a spec has either target and method (one design) or compare (a comparison), not both"
	if err := p.exclusive(top, "target", "compare", both); err != nil {
		return err
	}
	if err := p.exclusive(top, "method", "compare", both); err != nil {
		return err
	}
	if d.Compare.V != nil {
		return p.compare(d.Compare.V, s)
	}
	switch {
	case d.Target.V == nil && d.Method.V == nil:
		return p.errAt(top.node, "", "missing target and method (one design) or compare (a comparison)")
	case d.Target.V == nil:
		return p.missing(top, "target", fmt.Sprintf("method at line %d needs a target: dim or max_error", d.Method.K.Line))
	case d.Method.V == nil:
		return p.missing(top, "method", fmt.Sprintf("target at line %d needs a method: name: %s", d.Target.K.Line, strings.Join(registry.Names(), " | ")))
	}
	dimNode, err := p.target(d.Target.V, s)
	if err != nil {
		return err
	}
	if s.Method, err = p.method(d.Method.V, "method", d.Method.K.Line, false, s.Problem); err != nil {
		return err
	}
	// The kernel's limits first (Hellinger's one dimension), then the
	// options' (li's explicit k), then the method's (vz's odd dimensions).
	m, dim := s.Method, s.Target.Dim
	if s.IsAuto() {
		// Which methods apply is decided at design time, once the data
		// is loaded (Spec.Auto).
		return nil
	}
	dims := design.DimsFor(m, s.Problem)
	dimErr := p.errAt(dimNode, "target.dim", "%s", dims.Refusal(dim))
	if s.Problem.Kernel.Type == fmap.Hellinger && dim > 0 && !dims.Has(dim) {
		return dimErr
	}
	if tc, ok := m.Method.(design.TargetChecker); ok {
		if err := tc.CheckTarget(dim); err != nil {
			return m.optionErr(p.path, err)
		}
	}
	if dim > 0 && !dims.Has(dim) {
		return dimErr
	}
	return nil
}

// target reads the target section and returns target.dim's node.
func (p *parser) target(n *yaml.Node, s *Spec) (*yaml.Node, error) {
	var d targetDoc
	m, err := p.section(n, "target", &d)
	if err == nil {
		err = p.exclusive(m, "dim", "max_error", "give exactly one")
	}
	switch {
	case err != nil:
		return nil, err
	case d.Dim > 0 && m.keys["max_dim"] != nil:
		return nil, p.errAt(m.keys["max_dim"], "target.max_dim", "applies only with target.max_error, not with target.dim")
	case d.Dim == 0 && d.MaxError == 0:
		return nil, p.errAt(m.node, "target", "missing dim or max_error (exactly one is required)")
	case d.MaxError > 0 && d.MaxError < MinMaxError:
		return nil, p.errAt(m.value("max_error"), "target.max_error", "%v is below %v, the smallest error the float64 verification can tell from rounding: at least %v", d.MaxError, MinMaxError, MinMaxError)
	case d.MaxError > 0 && d.MaxDim == 0:
		d.MaxDim = DefaultMaxDim
	}
	s.Target = &TargetSpec{Dim: d.Dim, MaxError: d.MaxError, MaxDim: d.MaxDim}
	if top, why := fmap.MaxVerifiedDim(s.Problem); d.MaxError > 0 && d.MaxDim > top {
		n := m.value("max_dim")
		if n == nil {
			n = m.node
		}
		return nil, p.errAt(n, "target.max_dim", "%d (the largest D the max_error search may verify): %s: at most %d", d.MaxDim, why, top)
	}
	return m.value("dim"), nil
}

// compare reads the compare section.
func (p *parser) compare(n *yaml.Node, s *Spec) error {
	var d compareDoc
	m, err := p.section(n, "compare", &d)
	if err != nil {
		return err
	}
	c := &CompareSpec{}
	if d.Methods.V == nil {
		return p.missing(m, "methods", "a list of methods, e.g. [chum, vz]")
	}
	items, err := p.list(d.Methods.V, "compare.methods", "a list of methods")
	if err == nil && len(items) == 0 {
		err = p.errAt(d.Methods.V, "compare.methods", "must name at least one method")
	}
	if err != nil {
		return err
	}
	seen := map[string]int{}
	for i, it := range items {
		field := elem("compare.methods", i)
		ms, err := p.method(it, field, it.Line, true, s.Problem)
		if err != nil {
			return err
		}
		opts, _ := json.Marshal(ms.Options())
		key := ms.Name() + string(opts)
		if j, dup := seen[key]; dup {
			return p.errAt(it, field, "same method and options as %s", elem("compare.methods", j))
		}
		seen[key] = i
		c.Methods = append(c.Methods, *ms)
	}
	if err := p.exclusive(m, "dims", "widths", "give exactly one: dims (every method at D) or widths (every method at the D giving that many outputs per row)"); err != nil {
		return err
	}
	key, one, what, eg := "dims", "dimension", "output dimensions", "[3, 5, 7]"
	list := d.Dims.V
	if d.Widths.V != nil {
		key, one, what, eg = "widths", "width", "output widths (numbers per row)", "[64, 128, 256]"
		list = d.Widths.V
		c.Widths = true
	}
	if list == nil {
		return p.missing(m, "dims", "a list of output dimensions, e.g. [3, 5, 7], or widths: a list of output widths, e.g. [64, 128, 256]")
	}
	field := "compare." + key
	items, err = p.list(list, field, "a list of "+what)
	if err == nil && len(items) == 0 {
		err = p.errAt(list, field, "must give at least one %s, e.g. %s", one, eg)
	}
	if err != nil {
		return err
	}
	dims := map[int64]int{}
	for i, it := range items {
		f := elem(field, i)
		v, err := p.intIn(it, f, 1, MaxDim)
		if err != nil {
			return err
		}
		if j, dup := dims[v]; dup {
			return p.errAt(it, f, "duplicate %s %d (also %s)", one, v, elem(field, j))
		}
		dims[v] = i
		c.Dims = append(c.Dims, int(v))
	}
	s.Compare = c
	return nil
}

// method reads a method (the method section, or a compare.methods item: a
// name or a mapping with name and options) and checks it against the
// problem.
func (p *parser) method(n *yaml.Node, field string, line int, item bool, pr *fmap.Problem) (*MethodSpec, error) {
	names := registry.Names()
	ms := &MethodSpec{Line: line, field: field, keys: map[string]int{}}
	nameNode, nameField := n, field
	var m *mapping
	// A compared method may be a bare name; so may the method section's
	// auto (method: auto).
	bare := func(d *yaml.Node) bool {
		return d.Kind == yaml.ScalarNode && d.ShortTag() == "!!str" && (item || d.Value == AutoName)
	}
	if d := deref(n); !bare(d) {
		if item && d.Kind != yaml.MappingNode {
			return nil, p.typeErr(n, field, "a method name or a mapping with name and options")
		}
		if d.Kind == yaml.ScalarNode && d.ShortTag() == "!!str" && slices.Contains(names, d.Value) {
			// method: chum, as a compare list has it.
			e := p.typeErr(n, field, "a mapping")
			e.Msg += fmt.Sprintf(": write %s: {name: %s} (only auto stands alone)", field, d.Value)
			return nil, e
		}
		var err error
		if m, err = p.keys(n, field); err != nil {
			return nil, err
		}
		if nameNode, nameField = m.value("name"), child(field, "name"); nameNode == nil {
			return nil, p.missing(m, "name", "one of "+strings.Join(names, ", "))
		}
	}
	if !item {
		// The method section may also be auto (every applicable method).
		names = append(names, AutoName)
	}
	name, err := p.str(nameNode, nameField, "method", names)
	if err != nil {
		return nil, err
	}
	if name == AutoName {
		if m != nil {
			if err := p.fill(m, &struct{}{}, "auto takes no options", "unknown option", "name"); err != nil {
				return nil, err
			}
		}
		ms.Method = autoMethod{}
		return ms, nil
	}
	ms.Method = registry.New(name)
	if err := ms.Applies(pr); err != nil {
		return nil, p.errAt(nameNode, nameField, "%s", err)
	}
	opts := ms.Options()
	if m != nil {
		what := name + " options are"
		if len(structFields(reflect.ValueOf(opts).Elem())) == 0 {
			what = name + " takes no options"
		}
		if err := p.fill(m, opts, what, "unknown option", "name"); err != nil {
			return nil, err
		}
		for k, kn := range m.keys {
			ms.keys[k] = kn.Line
		}
	}
	if c, ok := ms.Method.(design.OptionChecker); ok {
		if err := c.CheckOptions(pr); err != nil {
			return nil, ms.optionErr(p.path, err)
		}
	}
	if d, ok := opts.(design.Defaulter); ok {
		d.SetDefaults()
	}
	return ms, nil
}

// hashingFile is an option's file as LoadSpec hands it to a FileLoader: on
// Close it reads what the loader left unread and records the SHA-256 of
// the whole content in the spec's OptionFiles.
type hashingFile struct {
	f    *os.File
	h    hash.Hash
	path string
	spec *Spec
}

func (r *hashingFile) Read(p []byte) (int, error) {
	n, err := r.f.Read(p)
	r.h.Write(p[:n])
	return n, err
}

func (r *hashingFile) Close() error {
	_, err := io.Copy(r.h, r.f)
	if cerr := r.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		r.spec.OptionFiles = append(r.spec.OptionFiles, InputFile{Path: r.path, SHA256: hex.EncodeToString(r.h.Sum(nil))})
	}
	return err
}
