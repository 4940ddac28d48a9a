package spec

import (
	"crypto/sha256"
	"encoding/hex"
	"go/token"
	"math"
	"strconv"
	"strings"

	"github.com/featmap/featmap/datafile"
	"github.com/featmap/featmap/design/learnplan"
	"github.com/featmap/featmap/fmap"
	"gopkg.in/yaml.v3"
)

// This file decodes a spec's document (Parse) and its sections name,
// emit, learn and data.

// Parse decodes and validates a spec (format version 1) given its
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
// dimension. Parse reads no file a method's options name (Load
// does).
//
// Every error is a *SpecError naming the file, the line and the key path.
func Parse(path string, data []byte) (*Spec, error) {
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
		Task       string  `yaml:"task" spec:"enum=classification|regression,what=task"`
	}
	dataDoc struct {
		File        string `yaml:"file"`
		Columns     kv     `yaml:"columns"`
		LabelColumn int    `yaml:"label_column" spec:"min=0,max=1000000"`
		Header      bool   `yaml:"header"`
		MaxRows     int    `yaml:"max_rows" spec:"min=2,max=1000000000"`
		Holdout     kv     `yaml:"holdout"`
	}
	kernelDoc struct {
		Type  string  `yaml:"type" spec:"enumof=kernels,what=kernel"`
		Gamma float64 `yaml:"gamma" spec:"positive"`
		Sigma kv      `yaml:"sigma"`
		C     float64 `yaml:"c"`
		Beta  float64 `yaml:"beta" spec:"positive"`
		// The polynomial kernel's (scale·x·y + offset)^degree, and the
		// Matérn kernel's smoothness nu: checked by fmap.Kernel.Check,
		// whose fmap.KeyError names the key.
		Degree int     `yaml:"degree" spec:"min=1,max=8"`
		Scale  float64 `yaml:"scale" spec:"positive"`
		Offset float64 `yaml:"offset"`
		Nu     float64 `yaml:"nu"`
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
	// Every independent error is collected (docs/spec.md, "Several
	// errors at once"): each unknown key; the name and emit sections; the
	// problem (kernel, domain, error), whose first error stops the checks
	// that need it; the data section; target and method, or compare, each
	// of its methods and its dims; learn. A key that an unknown one seems
	// meant for is not said to be missing.
	var d specDoc
	var errs []error
	add := func(err error) bool {
		if err != nil {
			errs = append(errs, err)
		}
		return err != nil
	}
	meant, err := p.unknownKeys(top, &d, "top-level keys are", "unknown key")
	add(err)
	p.decodeFields(top, &d) // kv fields only: no error
	absent := func(k kv, key string) bool { return k.V == nil && meant[key] }
	if !absent(d.Name, "name") {
		add(p.name(top, d.Name, s))
	}
	add(p.emitSection(top, d.Emit, s))
	s.Problem = &fmap.Problem{}
	if d.Kernels.V != nil {
		add(p.kernelsSpec(top, d, s))
		return joinSpecErrors(errs)
	}
	ok := !absent(d.Kernel, "kernel") && !absent(d.Domain, "domain")
	var sigma *yaml.Node
	if ok {
		sigma, err = p.kernel(top, d.Kernel, s.Problem)
		ok = !add(err)
	} else {
		add(p.alone(d.Kernel, "kernel", &kernelDoc{}))
	}
	if ok {
		ok = !add(p.domain(top, d.Domain, s.Problem))
	} else if !absent(d.Domain, "domain") {
		add(p.aloneRequired(top, d.Domain, "domain", &domainDoc{}, "a mapping with integers: [lo, hi] or interval: [lo, hi]"))
	}
	if ok {
		ok = !add(p.sigma(sigma, s.Problem)) && !add(p.kernelDefaults(top, s.Problem))
	}
	if ok {
		ok = !add(p.errorSection(d.Error, s.Problem))
	} else {
		add(p.alone(d.Error, "error", &errorDoc{}))
	}
	if absent(d.Data, "data") || add(p.dataSection(d.Data, s)) {
		ok = false
	}
	p.noProblem = !ok
	shapeOK := !add(p.shape(top, d, s))
	if ok && shapeOK {
		return joinSpecErrors(append(errs, p.learnSection(d.Learn, s)))
	}
	add(p.alone(d.Learn, "learn", &learnDoc{}))
	return joinSpecErrors(errs)
}

// alone reads the optional section n of key field, which a section it
// needs made impossible to check in full, for the errors of its own: its
// unknown keys and values its struct's tags refuse.
func (p *parser) alone(n kv, field string, dst any) error {
	if n.V == nil {
		return nil
	}
	_, err := p.section(n.V, field, dst)
	return err
}

// aloneRequired is alone for a required section: missing is an error
// (hint says what it holds).
func (p *parser) aloneRequired(top *mapping, n kv, field string, dst any, hint string) error {
	if n.V == nil {
		return p.missing(top, field, hint)
	}
	return p.alone(n, field, dst)
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
// (see learn.go). It needs a data section with a label column, one rff or
// nystroem design of a fixed dimension, and a kernel with a σ.
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
	l := &LearnSpec{PerAxis: d.Sigma == "per-axis", Validation: 0.25, Ridge: 1e-3, Task: d.Task, Line: n.K.Line}
	if d.Task != "" {
		l.TaskLine = m.value("task").Line
	}
	if m.keys["validation"] != nil {
		if !(d.Validation < 1) {
			return p.errAt(m.value("validation"), "learn.validation", "the held-out fraction must be below 1, not %v", d.Validation)
		}
		l.Validation = d.Validation
	}
	if rn := d.Ridge.V; rn != nil {
		l.RidgeLine = rn.Line
		if l.Ridge, l.RidgeAuto, err = p.numberOrAuto(rn, "learn.ridge", true); err != nil {
			return err
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
	case s.Method == nil || s.Method.Name() != "rff" && s.Method.Name() != "nystroem":
		return p.errAt(n.K, "learn", "learning σ needs one design by method rff or nystroem (target and method: {name: rff})")
	case s.Target.Dim == 0:
		return p.errAt(n.K, "learn", "learning σ needs target.dim (the features it learns with are the map's)")
	case s.Target.Dim > learnplan.MaxLearnDim:
		return p.errAt(n.K, "learn", "learning σ with target.dim %d: at most %d features (learn.MaxLearnDim: every step factors a D × D matrix, 185 MB at D = 2048; below it, learning's cost is checked against its budget once the data is read)", s.Target.Dim, learnplan.MaxLearnDim)
	case !s.Problem.Kernel.ShiftInvariant():
		return p.errAt(n.K, "learn", "learning σ is for the kernels with a σ (%s), not %s", strings.Join(fmap.SigmaKernels(), ", "), s.Problem.Kernel.Type)
	}
	s.Learn = l
	return nil
}

// dataSection reads the data section (its file is read by Load).
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
	if strings.ContainsRune(d.File, 0) {
		return p.errAt(m.keys["file"], "data.file", "%q holds a NUL byte, which no file name can", d.File)
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
	ds.Holdout = datafile.DefaultHoldout
	if hn := d.Holdout.V; hn != nil {
		h, err := p.number(hn, "data.holdout", false)
		if err == nil && !(h >= 0 && h <= datafile.MaxHoldout) {
			err = p.errAt(hn, "data.holdout", "the fraction of the rows held out must be in [0, %g], not %v (0 holds none out: every row fits the map and the model, and featmap eval measures them on a test file)", datafile.MaxHoldout, h)
		}
		if err != nil {
			return err
		}
		ds.Holdout, ds.HoldoutLine = h, hn.Line
	}
	if d.Columns.V != nil {
		v, err := p.intPair(d.Columns.V, "data.columns", "column numbers", 0, MaxInputs*16)
		if err == nil && v[0] > v[1] {
			err = p.errAt(d.Columns.V, "data.columns", "first must be <= last")
		}
		if err != nil {
			return err
		}
		ds.First, ds.Last = int(v[0]), int(v[1])
		if ds.Label >= ds.First && ds.Label <= ds.Last {
			return p.errAt(m.keys["label_column"], "data.label_column", "%d is inside data.columns [%d, %d] (line %d): a label is never a feature", ds.Label, ds.First, ds.Last, m.keys["columns"].Line)
		}
	}
	s.Data = ds
	// The rows come with Load; methods that learn from data see now
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
