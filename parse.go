package featmap

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/token"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/homogeneous"
	"github.com/featmap/featmap/multidim"
)

// SpecError is an error in a spec: the file, the 1-based line of the
// offending YAML node and the dotted key path of the field, as in
//
//	specs/x.yaml:7: domain.interval: lo must be < hi
//
// Field is empty for errors about the file as a whole (invalid YAML, several
// documents). Line is at least 1 in every error ParseSpec returns; Error
// leaves out a Line of 0.
type SpecError struct {
	Path  string // the spec's path as given
	Line  int    // 1-based line of the offending node, 0 if unknown
	Field string // dotted key path with list indices, e.g. compare.methods[2].window
	Msg   string
	// Err is the underlying error when there is one (reading a data file),
	// for errors.Is and errors.As; Msg already includes its text.
	Err error
}

// Error returns "path:line: field: message".
func (e *SpecError) Error() string {
	var b strings.Builder
	b.WriteString(e.Path)
	if e.Path == "" {
		b.WriteString("<spec>")
	}
	if e.Line > 0 {
		b.WriteString(":")
		b.WriteString(strconv.Itoa(e.Line))
	}
	b.WriteString(": ")
	if e.Field != "" {
		b.WriteString(e.Field)
		b.WriteString(": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Unwrap returns the underlying error, if any.
func (e *SpecError) Unwrap() error { return e.Err }

// Limits that guard against runaway specs (values beyond them are not
// impossible, just never useful, and would make a design run for hours).
const (
	// maxRefineIterations bounds chum's refine_iterations: each iteration
	// halves the trust region, and after 50 halvings of the pool spacing it
	// is below float64 resolution.
	maxRefineIterations = 50
	// maxStarts bounds chum's starts, each a full multi-start polish run.
	maxStarts = 1000
	// maxExactInteger is the largest integer every float64 holds exactly.
	maxExactInteger = 1 << 53
)

// ParseSpec parses and validates a spec (format version 1) given its
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
//	compare: {methods: [name or {name, options…}, …], dims: [D, …]}
//
// Every default is filled in: gamma 1, dims 1, negative sign (homogeneous
// kernels), norm linf, weight absolute (homogeneous) or uniform (rbf),
// max_dim DefaultMaxDim, sigma broadcast to every axis, the vz window
// rectangular and the li bins homogeneous.DefaultLiBins. Chum's numeric
// options stay 0 when not given, which design.ChumOptions documents as its
// default (they depend on the problem). Method options are checked against
// the kernel, the domain and (for a single design) the target dimension.
// ParseSpec does not read method.data files (LoadSpec does): LiOptions.Data
// is set and LiOptions.Values left nil.
//
// Every error is a *SpecError naming the file, the line and the key path.
func ParseSpec(path string, data []byte) (*Spec, error) {
	s, _, err := parseSpec(path, data)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// LoadSpec reads the spec at path and parses it with ParseSpec; then it
// reads each li method's data file (method.data, relative to the spec's
// directory unless absolute) with homogeneous.ParseValues into
// LiOptions.Values, keeping LiOptions.Data as written. A data file error is
// a *SpecError at the data key whose message names the data file and its
// line.
func LoadSpec(path string) (*Spec, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, refs, err := parseSpec(path, data)
	if err != nil {
		return nil, err
	}
	dir := filepath.Dir(path)
	for _, r := range refs {
		m := s.Method
		if r.index >= 0 {
			m = &s.Compare.Methods[r.index]
		}
		name := m.Li.Data
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		vals, err := readValues(name)
		if err != nil {
			return nil, &SpecError{Path: path, Line: r.line, Field: r.field, Msg: err.Error(), Err: err}
		}
		m.Li.Values = vals
	}
	return s, nil
}

// readValues reads a data file of nonnegative values.
func readValues(name string) ([]float64, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return homogeneous.ParseValues(f, name)
}

// dataRef is a method.data key to be read by LoadSpec: index −1 is
// Spec.Method, otherwise Spec.Compare.Methods[index].
type dataRef struct {
	index int
	line  int
	field string
}

// parser walks one spec's YAML tree.
type parser struct {
	path string
	data []byte
	refs []dataRef
	// targetDim is the target.dim value node, for dimension errors.
	targetDim *yaml.Node
}

// errAt returns a *SpecError at node n (its line) for field.
func (p *parser) errAt(n *yaml.Node, field, format string, args ...any) *SpecError {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &SpecError{Path: p.path, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// child returns the key path of key under field; a key that is not a
// plain name is quoted.
func child(field, key string) string {
	switch {
	case len(key) > 64:
		key = strconv.Quote(key[:40]) + "..."
	case !plainKey(key):
		key = strconv.Quote(key)
	}
	if field == "" {
		return key
	}
	return field + "." + key
}

// plainKey reports whether key can stand unquoted in a key path.
func plainKey(key string) bool {
	if key == "" {
		return false
	}
	for _, r := range key {
		if !(r == '_' || r == '-' || r == '<' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// elem returns the key path of list element i of field.
func elem(field string, i int) string {
	return field + "[" + strconv.Itoa(i) + "]"
}

// deref follows aliases to the node they stand for.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 64; i++ {
		n = n.Alias
	}
	if n == nil || n.Kind == yaml.AliasNode {
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null"}
	}
	return n
}

// YAML short tags.
const (
	tagStr   = "!!str"
	tagInt   = "!!int"
	tagFloat = "!!float"
	tagBool  = "!!bool"
	tagNull  = "!!null"
)

// describe says what a node is, for "must be X, not Y" messages.
func describe(n *yaml.Node) string {
	n = deref(n)
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.DocumentNode:
		return "a document"
	}
	v := n.Value
	if len(v) > 40 {
		v = v[:37] + "..."
	}
	switch tag := n.ShortTag(); tag {
	case tagStr:
		return "the string " + strconv.Quote(v)
	case tagInt:
		return "the integer " + v
	case tagFloat:
		return "the number " + v
	case tagBool:
		return "the boolean " + v
	case tagNull:
		return "null"
	case "!!timestamp":
		return "the timestamp " + v
	case "!!binary":
		return "binary data"
	default:
		return "a value tagged " + strconv.Quote(tag)
	}
}

// typeErr is a wrong-type error: field must be want, not what n is.
func (p *parser) typeErr(n *yaml.Node, field, want string) *SpecError {
	return p.errAt(n, field, "must be %s, not %s", want, describe(n))
}

// ---- documents -------------------------------------------------------------

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlParserProblems are the problems of yaml.v3's parser (as opposed to
// its scanner), for which it reports the 0-based line of the context (the
// collection being parsed) or of the problem.
var yamlParserProblems = map[string]bool{
	"did not find expected <stream-start>":   true,
	"did not find expected <document start>": true,
	"found undefined tag handle":             true,
	"did not find expected node content":     true,
	"did not find expected '-' indicator":    true,
	"did not find expected key":              true,
	"did not find expected ',' or ']'":       true,
	"did not find expected ',' or '}'":       true,
	"found duplicate %YAML directive":        true,
	"found incompatible YAML document":       true,
	"found duplicate %TAG directive":         true,
}

// yamlErr turns a YAML parser error into a *SpecError with its line.
func (p *parser) yamlErr(err error) *SpecError {
	msg := err.Error()
	if m := yamlLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		if yamlParserProblems[m[2]] {
			line++
		}
		return &SpecError{Path: p.path, Line: line, Msg: "invalid YAML: " + m[2], Err: err}
	}
	msg = strings.TrimPrefix(msg, "yaml: ")
	return &SpecError{Path: p.path, Line: p.guessLine(msg), Msg: "invalid YAML: " + msg, Err: err}
}

var unknownAnchorRE = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)

// guessLine finds the line of a YAML error reported without one: the first
// use of an unknown anchor, or the first character YAML does not allow.
// Otherwise it returns 1: yaml.v3 omits the line of scanner and parser
// errors on the first line.
func (p *parser) guessLine(msg string) int {
	lineAt := func(off int) int { return 1 + bytes.Count(p.data[:off], []byte("\n")) }
	if m := unknownAnchorRE.FindStringSubmatch(msg); m != nil {
		if i := bytes.Index(p.data, []byte("*"+m[1])); i >= 0 {
			return lineAt(i)
		}
		return 1
	}
	if bytes.HasPrefix(p.data, []byte{0xFE, 0xFF}) || bytes.HasPrefix(p.data, []byte{0xFF, 0xFE}) {
		return 1 // UTF-16: offsets are not bytes of data
	}
	for off := 0; off < len(p.data); {
		r, size := utf8.DecodeRune(p.data[off:])
		if (r == utf8.RuneError && size == 1) || !yamlPrintable(r) {
			return lineAt(off)
		}
		off += size
	}
	return 1
}

// yamlPrintable reports whether YAML allows r in a stream.
func yamlPrintable(r rune) bool {
	switch {
	case r == 0x09, r == 0x0A, r == 0x0D, r >= 0x20 && r <= 0x7E, r == 0x85,
		r >= 0xA0 && r <= 0xD7FF, r >= 0xE000 && r <= 0xFFFD, r >= 0x10000 && r <= 0x10FFFF:
		return true
	}
	return false
}

// decodeDoc decodes the next document of dec, turning a panic of the YAML
// library into an error.
func decodeDoc(dec *yaml.Decoder) (doc *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc, err = nil, fmt.Errorf("yaml: %v", r)
		}
	}()
	var n yaml.Node
	if err := dec.Decode(&n); err != nil {
		return nil, err
	}
	return &n, nil
}

// document returns the root node of the single YAML document in data.
func (p *parser) document(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	doc, err := decodeDoc(dec)
	switch {
	case err == io.EOF:
		return nil, &SpecError{Path: p.path, Line: 1, Msg: "empty spec: want a mapping with version, name, kernel, domain, and target and method or compare"}
	case err != nil:
		return nil, p.yamlErr(err)
	}
	second, err := decodeDoc(dec)
	switch {
	case err == io.EOF:
	case err != nil:
		return nil, p.yamlErr(err)
	default:
		return nil, p.errAt(second, "", "more than one YAML document; a spec is a single document")
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		return nil, &SpecError{Path: p.path, Line: 1, Msg: "empty spec"}
	}
	root := deref(doc.Content[0])
	if root.Kind == yaml.ScalarNode && root.ShortTag() == tagNull {
		return nil, p.errAt(root, "", "empty spec: want a mapping with version, name, kernel, domain, and target and method or compare")
	}
	if root.Kind != yaml.MappingNode {
		return nil, p.errAt(root, "", "a spec must be a mapping of keys (version, name, kernel, ...), not %s", describe(root))
	}
	return root, nil
}

// ---- mappings ----------------------------------------------------------------

// mapNode is a YAML mapping with its keys checked for duplicates.
type mapNode struct {
	node  *yaml.Node
	field string
	keys  []*yaml.Node // key nodes, in document order
	vals  []*yaml.Node // value nodes, in document order
	index map[string]int
}

// mapping returns n as a mapping for field, rejecting non-mappings,
// duplicate keys, merge keys and keys that are not scalars.
func (p *parser) mapping(n *yaml.Node, field string) (*mapNode, error) {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		return nil, p.typeErr(n, field, "a mapping")
	}
	m := &mapNode{node: n, field: field, index: make(map[string]int)}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn, vn := n.Content[i], n.Content[i+1]
		k := deref(kn)
		if k.Kind != yaml.ScalarNode {
			return nil, p.errAt(kn, field, "keys must be plain names, not %s", describe(k))
		}
		if k.ShortTag() == "!!merge" {
			return nil, p.errAt(kn, child(field, k.Value), "merge keys are not supported; write the keys out")
		}
		if j, dup := m.index[k.Value]; dup {
			return nil, p.errAt(kn, child(field, k.Value), "duplicate key (first at line %d)", m.keys[j].Line)
		}
		m.index[k.Value] = len(m.keys)
		m.keys = append(m.keys, kn)
		m.vals = append(m.vals, vn)
	}
	return m, nil
}

// get returns the value and key nodes of key, or nils.
func (m *mapNode) get(key string) (val, keyNode *yaml.Node) {
	i, ok := m.index[key]
	if !ok {
		return nil, nil
	}
	return m.vals[i], m.keys[i]
}

// has reports whether key is present.
func (m *mapNode) has(key string) bool {
	_, ok := m.index[key]
	return ok
}

// allow rejects the first key (in document order) not in allowed; what
// describes the mapping in the message ("keys of kernel", "vz options").
func (p *parser) allow(m *mapNode, allowed []string, what string) error {
	for _, kn := range m.keys {
		k := deref(kn).Value
		if contains(allowed, k) {
			continue
		}
		msg := "unknown key"
		if s := suggest(k, allowed); s != "" {
			msg += " (did you mean " + s + "?)"
		}
		return p.errAt(kn, child(m.field, k), "%s; %s %s", msg, what, strings.Join(allowed, ", "))
	}
	return nil
}

// missing is the error for a required key absent from m.
func (p *parser) missing(m *mapNode, key, hint string) error {
	msg := "missing required key"
	if hint != "" {
		msg += " (" + hint + ")"
	}
	return p.errAt(m.node, child(m.field, key), "%s", msg)
}

// exclusive returns the error for two mutually exclusive keys a and b of m
// both present (at the later one), or nil.
func (p *parser) exclusive(m *mapNode, a, b, hint string) error {
	ia, okA := m.index[a]
	ib, okB := m.index[b]
	if !okA || !okB {
		return nil
	}
	if ib < ia {
		a, b, ia, ib = b, a, ib, ia
	}
	return p.errAt(m.keys[ib], child(m.field, b), "conflicts with %s (line %d): %s",
		child(m.field, a), m.keys[ia].Line, hint)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// suggest returns the allowed name closest to an unknown key if it is
// close enough to be a typo.
func suggest(key string, allowed []string) string {
	if len(key) > 64 {
		return ""
	}
	best, bestD := "", 3
	for _, a := range allowed {
		if d := editDistance(key, a); d < bestD && d < len(a) {
			best, bestD = a, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance of a and b (bytes).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// ---- scalars -----------------------------------------------------------------

// plainScalar reports whether n is an untagged, unquoted scalar.
func plainScalar(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Style&(yaml.TaggedStyle|yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0
}

var intLikeRE = regexp.MustCompile(`^[-+]?[0-9][0-9_]*$`)

// legacyOctal reports whether an integer literal has a leading zero, which
// YAML 1.1 (and yaml.v3) read as octal: 0255 is 173.
func legacyOctal(v string) bool {
	v = strings.TrimLeft(v, "+-")
	return len(v) > 1 && v[0] == '0' && v[1] >= '0' && v[1] <= '9'
}

// number reads a number (YAML int or float) for field.
func (p *parser) number(n *yaml.Node, field string) (float64, error) {
	n = deref(n)
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case tagInt:
			if legacyOctal(n.Value) {
				return 0, p.errAt(n, field, "%s has a leading zero, which YAML reads as octal; write it without (or with 0o for octal)", n.Value)
			}
			fallthrough
		case tagFloat:
			var v float64
			if err := n.Decode(&v); err != nil {
				return 0, p.errAt(n, field, "%q is not a valid number", n.Value)
			}
			return v, nil
		case tagStr:
			if plainScalar(n) {
				if _, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); errors.Is(err, strconv.ErrRange) {
					return 0, p.errAt(n, field, "%s is out of the float64 range", n.Value)
				}
			}
		}
	}
	return 0, p.typeErr(n, field, "a number")
}

// finite reads a finite number for field.
func (p *parser) finite(n *yaml.Node, field string) (float64, error) {
	v, err := p.number(n, field)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, p.errAt(n, field, "must be a finite number, not %s", deref(n).Value)
	}
	return v, nil
}

// positive reads a finite number > 0 for field.
func (p *parser) positive(n *yaml.Node, field string) (float64, error) {
	v, err := p.finite(n, field)
	if err != nil {
		return 0, err
	}
	if !(v > 0) {
		return 0, p.errAt(n, field, "must be > 0, not %s", deref(n).Value)
	}
	return v, nil
}

// integer reads a YAML integer (not a float) for field.
func (p *parser) integer(n *yaml.Node, field string) (int64, error) {
	n = deref(n)
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case tagInt:
			if legacyOctal(n.Value) {
				return 0, p.errAt(n, field, "%s has a leading zero, which YAML reads as octal; write it without (or with 0o for octal)", n.Value)
			}
			var v int64
			if err := n.Decode(&v); err != nil {
				return 0, p.errAt(n, field, "%s is out of the integer range", n.Value)
			}
			return v, nil
		case tagFloat:
			if intLikeRE.MatchString(n.Value) {
				return 0, p.errAt(n, field, "%s is out of the integer range", n.Value)
			}
		}
	}
	return 0, p.typeErr(n, field, "an integer")
}

// intIn reads an integer in [lo, hi] for field.
func (p *parser) intIn(n *yaml.Node, field string, lo, hi int64) (int, error) {
	v, err := p.integer(n, field)
	if err != nil {
		return 0, err
	}
	switch {
	case v < lo:
		return 0, p.errAt(n, field, "must be >= %d, not %d", lo, v)
	case v > hi:
		return 0, p.errAt(n, field, "must be <= %d, not %d", hi, v)
	}
	return int(v), nil
}

// str reads a string for field.
func (p *parser) str(n *yaml.Node, field string) (string, error) {
	n = deref(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != tagStr {
		return "", p.typeErr(n, field, "a string")
	}
	return n.Value, nil
}

// enum reads a string for field that must be one of values; what names
// the kind of value in the message ("kernel", "norm").
func (p *parser) enum(n *yaml.Node, field, what string, values []string) (string, error) {
	want := "one of " + strings.Join(values, ", ")
	n = deref(n)
	if n.Kind != yaml.ScalarNode || n.ShortTag() != tagStr {
		return "", p.typeErr(n, field, want)
	}
	if !contains(values, n.Value) {
		return "", p.errAt(n, field, "unknown %s %s; want %s", what, strconv.Quote(n.Value), want)
	}
	return n.Value, nil
}

// boolean reads true or false for field.
func (p *parser) boolean(n *yaml.Node, field string) (bool, error) {
	n = deref(n)
	if n.Kind == yaml.ScalarNode && n.ShortTag() == tagBool {
		var v bool
		if err := n.Decode(&v); err == nil {
			return v, nil
		}
	}
	return false, p.typeErr(n, field, "true or false")
}

// list returns the items of a YAML list for field.
func (p *parser) list(n *yaml.Node, field, want string) ([]*yaml.Node, error) {
	n = deref(n)
	if n.Kind != yaml.SequenceNode {
		return nil, p.typeErr(n, field, want)
	}
	return n.Content, nil
}

// ---- the spec ----------------------------------------------------------------

// Keys of each section, in the order the spec format documents them.
var (
	topKeys     = []string{"version", "name", "kernel", "domain", "error", "target", "method", "compare"}
	kernelKeys  = []string{"type", "gamma", "sigma"}
	domainKeys  = []string{"dims", "integers", "interval", "negative"}
	errorKeys   = []string{"norm", "weight"}
	targetKeys  = []string{"dim", "max_error", "max_dim"}
	compareKeys = []string{"methods", "dims"}

	kernelTypes = []string{KernelChi2, KernelIntersection, KernelJS, KernelHellinger, KernelRBF}
	negatives   = []string{string(design.NegativeSign), string(design.NegativeZero)}
	norms       = []string{string(design.LInf), string(design.L1)}
	weights     = []string{string(design.Absolute), string(design.Relative), string(design.Uniform)}
)

// parseSpec parses data, returning the spec and the data files to read.
func parseSpec(path string, data []byte) (*Spec, []dataRef, error) {
	p := &parser{path: path, data: data}
	root, err := p.document(data)
	if err != nil {
		return nil, nil, err
	}
	sum := sha256.Sum256(data)
	s := &Spec{Path: path, Hash: hex.EncodeToString(sum[:])}
	top, err := p.mapping(root, "")
	if err != nil {
		return nil, nil, err
	}
	// The version comes first: a spec of another version may have other keys.
	vn, _ := top.get("version")
	if vn == nil {
		return nil, nil, p.missing(top, "version", "this featmap reads version 1")
	}
	v, err := p.integer(vn, "version")
	if err != nil {
		return nil, nil, err
	}
	if v != 1 {
		return nil, nil, p.errAt(vn, "version", "unsupported version %d: this featmap reads version 1", v)
	}
	s.Version = 1
	if err := p.allow(top, topKeys, "top-level keys are"); err != nil {
		return nil, nil, err
	}
	if err := p.name(top, s); err != nil {
		return nil, nil, err
	}
	sigma, err := p.kernel(top, s)
	if err != nil {
		return nil, nil, err
	}
	if err := p.domain(top, s); err != nil {
		return nil, nil, err
	}
	if err := p.sigma(sigma, s); err != nil {
		return nil, nil, err
	}
	if err := p.errorSection(top, s); err != nil {
		return nil, nil, err
	}
	if err := p.shape(top, s); err != nil {
		return nil, nil, err
	}
	return s, p.refs, nil
}

// name reads the name: an exported Go identifier.
func (p *parser) name(top *mapNode, s *Spec) error {
	n, _ := top.get("name")
	if n == nil {
		return p.missing(top, "name", "a Go identifier such as Chi2U8D7")
	}
	name, err := p.str(n, "name")
	if err != nil {
		return err
	}
	switch {
	case !token.IsIdentifier(name):
		return p.errAt(n, "name", "%s is not a Go identifier (letters, digits and _, not starting with a digit)", strconv.Quote(name))
	case !token.IsExported(name):
		return p.errAt(n, "name", "%s must start with an uppercase letter: it prefixes exported Go names", strconv.Quote(name))
	case token.IsKeyword(name):
		return p.errAt(n, "name", "%s is a Go keyword", strconv.Quote(name))
	}
	s.Name = name
	return nil
}

// sigmaValue is the kernel's sigma as written, checked once domain.dims is
// known.
type sigmaValue struct {
	node   *yaml.Node
	values []float64
	list   bool
}

// kernel reads the kernel section; sigma is returned for p.sigma.
func (p *parser) kernel(top *mapNode, s *Spec) (*sigmaValue, error) {
	n, _ := top.get("kernel")
	if n == nil {
		return nil, p.missing(top, "kernel", "a mapping with type: "+strings.Join(kernelTypes, " | "))
	}
	m, err := p.mapping(n, "kernel")
	if err != nil {
		return nil, err
	}
	if err := p.allow(m, kernelKeys, "kernel keys are"); err != nil {
		return nil, err
	}
	tn, _ := m.get("type")
	if tn == nil {
		return nil, p.missing(m, "type", "one of "+strings.Join(kernelTypes, ", "))
	}
	if s.Kernel.Type, err = p.enum(tn, "kernel.type", "kernel", kernelTypes); err != nil {
		return nil, err
	}
	homog := s.Kernel.Homogeneous()
	if gn, gk := m.get("gamma"); gn != nil {
		if !homog {
			return nil, p.errAt(gk, "kernel.gamma", "gamma is the degree of a homogeneous kernel; rbf has none (its width is sigma)")
		}
		if s.Kernel.Gamma, err = p.positive(gn, "kernel.gamma"); err != nil {
			return nil, err
		}
	} else if homog {
		s.Kernel.Gamma = 1
	}
	sn, sk := m.get("sigma")
	if sn == nil {
		if !homog {
			return nil, p.missing(m, "sigma", "the rbf width: a number > 0, or one per axis")
		}
		return nil, nil
	}
	if homog {
		return nil, p.errAt(sk, "kernel.sigma", "sigma is the width of kernel rbf; %s has none", s.Kernel.Type)
	}
	sv := &sigmaValue{node: sn}
	if d := deref(sn); d.Kind == yaml.SequenceNode {
		sv.list = true
		if len(d.Content) == 0 {
			return nil, p.errAt(sn, "kernel.sigma", "must not be an empty list")
		}
		for i, it := range d.Content {
			x, err := p.positive(it, elem("kernel.sigma", i))
			if err != nil {
				return nil, err
			}
			sv.values = append(sv.values, x)
		}
	} else {
		x, err := p.positive(sn, "kernel.sigma")
		if err != nil {
			return nil, err
		}
		sv.values = []float64{x}
	}
	return sv, nil
}

// sigma checks the rbf widths against domain.dims and broadcasts one.
func (p *parser) sigma(sv *sigmaValue, s *Spec) error {
	if sv == nil {
		return nil
	}
	dims := s.Domain.Dims
	if !sv.list {
		s.Kernel.Sigma = make([]float64, dims)
		for i := range s.Kernel.Sigma {
			s.Kernel.Sigma[i] = sv.values[0]
		}
		return nil
	}
	if len(sv.values) != dims {
		return p.errAt(sv.node, "kernel.sigma", "has %d values but domain.dims is %d: give one per axis, or a single number for all", len(sv.values), dims)
	}
	s.Kernel.Sigma = sv.values
	return nil
}

// domain reads the domain section.
func (p *parser) domain(top *mapNode, s *Spec) error {
	n, _ := top.get("domain")
	if n == nil {
		return p.missing(top, "domain", "a mapping with integers: [lo, hi] or interval: [lo, hi]")
	}
	m, err := p.mapping(n, "domain")
	if err != nil {
		return err
	}
	if err := p.allow(m, domainKeys, "domain keys are"); err != nil {
		return err
	}
	homog := s.Kernel.Homogeneous()
	d := &s.Domain
	d.Dims = 1
	if dn, _ := m.get("dims"); dn != nil {
		if d.Dims, err = p.intIn(dn, "domain.dims", 1, 3); err != nil {
			return err
		}
		if d.Dims > 1 && homog {
			return p.errAt(dn, "domain.dims", "%s is additive, a sum over input dimensions: dims > 1 needs kernel rbf", s.Kernel.Type)
		}
	}
	if err := p.exclusive(m, "integers", "interval", "give exactly one"); err != nil {
		return err
	}
	switch {
	case m.has("integers"):
		in, _ := m.get("integers")
		if d.Dims != 1 {
			return p.errAt(in, "domain.integers", "integer domains have one axis (domain.dims is %d); use interval", d.Dims)
		}
		lo, hi, err := p.intPair(in, "domain.integers")
		if err != nil {
			return err
		}
		if homog && lo < 0 {
			return p.errAt(in, "domain.integers", "lo must be >= 0: homogeneous kernels take no negative inputs (domain.negative says what the map does with them)")
		}
		d.Integer = true
		d.Lo, d.Hi = []float64{lo}, []float64{hi}
	case m.has("interval"):
		in, _ := m.get("interval")
		if err := p.interval(in, s); err != nil {
			return err
		}
	default:
		return p.errAt(m.node, "domain", "missing integers or interval (exactly one is required)")
	}
	if nn, nk := m.get("negative"); nn != nil {
		if !homog {
			return p.errAt(nk, "domain.negative", "applies to homogeneous kernels only, not rbf")
		}
		v, err := p.enum(nn, "domain.negative", "rule", negatives)
		if err != nil {
			return err
		}
		d.Negative = design.Negative(v)
	} else if homog {
		d.Negative = design.NegativeSign
	}
	return nil
}

// intPair reads [lo, hi] of integers exact in float64 with lo < hi.
func (p *parser) intPair(n *yaml.Node, field string) (lo, hi float64, err error) {
	const want = "a list [lo, hi] of two integers"
	items, err := p.list(n, field, want)
	if err != nil {
		return 0, 0, err
	}
	if len(items) != 2 {
		return 0, 0, p.errAt(n, field, "must be %s, not a list of %d", want, len(items))
	}
	var v [2]float64
	for i, it := range items {
		x, err := p.integer(it, elem(field, i))
		if err != nil {
			return 0, 0, err
		}
		if x > maxExactInteger || x < -maxExactInteger {
			return 0, 0, p.errAt(it, elem(field, i), "%d is beyond ±2^53, where float64 no longer holds every integer", x)
		}
		v[i] = float64(x)
	}
	if !(v[0] < v[1]) {
		return 0, 0, p.errAt(n, field, "lo must be < hi")
	}
	return v[0], v[1], nil
}

// numPair reads [lo, hi] of finite numbers with lo < hi.
func (p *parser) numPair(n *yaml.Node, field string) (lo, hi float64, err error) {
	const want = "a list [lo, hi] of two numbers"
	items, err := p.list(n, field, want)
	if err != nil {
		return 0, 0, err
	}
	if len(items) != 2 {
		return 0, 0, p.errAt(n, field, "must be %s, not a list of %d", want, len(items))
	}
	var v [2]float64
	for i, it := range items {
		if v[i], err = p.finite(it, elem(field, i)); err != nil {
			return 0, 0, err
		}
	}
	if !(v[0] < v[1]) {
		return 0, 0, p.errAt(n, field, "lo must be < hi")
	}
	return v[0], v[1], nil
}

// interval reads domain.interval: one [lo, hi] for every axis, or a list of
// domain.dims pairs.
func (p *parser) interval(n *yaml.Node, s *Spec) error {
	const field = "domain.interval"
	d := &s.Domain
	items, err := p.list(n, field, "a list [lo, hi] of two numbers")
	if err != nil {
		return err
	}
	var nodes []*yaml.Node // the pair node of each axis
	if len(items) > 0 && deref(items[0]).Kind == yaml.SequenceNode {
		if len(items) != d.Dims {
			return p.errAt(n, field, "has %d [lo, hi] pairs but domain.dims is %d: give one per axis, or a single [lo, hi] for all", len(items), d.Dims)
		}
		for i, it := range items {
			lo, hi, err := p.numPair(it, elem(field, i))
			if err != nil {
				return err
			}
			d.Lo, d.Hi = append(d.Lo, lo), append(d.Hi, hi)
			nodes = append(nodes, it)
		}
	} else {
		lo, hi, err := p.numPair(n, field)
		if err != nil {
			return err
		}
		for range d.Dims {
			d.Lo, d.Hi = append(d.Lo, lo), append(d.Hi, hi)
			nodes = append(nodes, n)
		}
	}
	if s.Kernel.Homogeneous() && !(d.Lo[0] > 0) {
		return p.errAt(nodes[0], field, "lo must be > 0: it is the smallest nonzero input of a homogeneous kernel (0 always maps to 0; domain.negative says what happens below)")
	}
	return nil
}

// errorSection reads the optional error section.
func (p *parser) errorSection(top *mapNode, s *Spec) error {
	s.Error.Norm = design.LInf
	s.Error.Weight = design.Absolute
	if !s.Kernel.Homogeneous() {
		s.Error.Weight = design.Uniform
	}
	n, _ := top.get("error")
	if n == nil {
		return nil
	}
	m, err := p.mapping(n, "error")
	if err != nil {
		return err
	}
	if err := p.allow(m, errorKeys, "error keys are"); err != nil {
		return err
	}
	if nn, _ := m.get("norm"); nn != nil {
		v, err := p.enum(nn, "error.norm", "norm", norms)
		if err != nil {
			return err
		}
		s.Error.Norm = design.Norm(v)
	}
	if wn, _ := m.get("weight"); wn != nil {
		v, err := p.enum(wn, "error.weight", "weight", weights)
		if err != nil {
			return err
		}
		s.Error.Weight = design.Measure(v)
	}
	return nil
}

// shape reads either target and method or compare.
func (p *parser) shape(top *mapNode, s *Spec) error {
	const both = "a spec has either target and method (one design) or compare (a comparison), not both"
	if err := p.exclusive(top, "target", "compare", both); err != nil {
		return err
	}
	if err := p.exclusive(top, "method", "compare", both); err != nil {
		return err
	}
	if cn, _ := top.get("compare"); cn != nil {
		return p.compare(cn, s)
	}
	tn, tk := top.get("target")
	mn, mk := top.get("method")
	switch {
	case tn == nil && mn == nil:
		return p.errAt(top.node, "", "missing target and method (one design) or compare (a comparison)")
	case tn == nil:
		return p.missing(top, "target", fmt.Sprintf("method at line %d needs a target: dim or max_error", mk.Line))
	case mn == nil:
		return p.missing(top, "method", fmt.Sprintf("target at line %d needs a method: name: %s", tk.Line, strings.Join(methodNames(), " | ")))
	}
	t, err := p.target(tn)
	if err != nil {
		return err
	}
	s.Target = t
	m, mc, err := p.method(mn, "method", mk.Line, -1, s)
	if err != nil {
		return err
	}
	s.Method = m
	return p.checkDim(s, m, mc)
}

// target reads the target section.
func (p *parser) target(n *yaml.Node) (*TargetSpec, error) {
	m, err := p.mapping(n, "target")
	if err != nil {
		return nil, err
	}
	if err := p.allow(m, targetKeys, "target keys are"); err != nil {
		return nil, err
	}
	if err := p.exclusive(m, "dim", "max_error", "give exactly one"); err != nil {
		return nil, err
	}
	t := &TargetSpec{}
	dn, _ := m.get("dim")
	en, _ := m.get("max_error")
	switch {
	case dn != nil:
		if t.Dim, err = p.intIn(dn, "target.dim", 1, homogeneous.MaxDim); err != nil {
			return nil, err
		}
		p.targetDim = dn
		if _, k := m.get("max_dim"); k != nil {
			return nil, p.errAt(k, "target.max_dim", "applies only with target.max_error, not with target.dim")
		}
	case en != nil:
		if t.MaxError, err = p.positive(en, "target.max_error"); err != nil {
			return nil, err
		}
		t.MaxDim = DefaultMaxDim
		if mn, _ := m.get("max_dim"); mn != nil {
			if t.MaxDim, err = p.intIn(mn, "target.max_dim", 1, homogeneous.MaxDim); err != nil {
				return nil, err
			}
		}
	default:
		return nil, p.errAt(m.node, "target", "missing dim or max_error (exactly one is required)")
	}
	return t, nil
}

// compare reads the compare section.
func (p *parser) compare(n *yaml.Node, s *Spec) error {
	m, err := p.mapping(n, "compare")
	if err != nil {
		return err
	}
	if err := p.allow(m, compareKeys, "compare keys are"); err != nil {
		return err
	}
	c := &CompareSpec{}
	mn, _ := m.get("methods")
	if mn == nil {
		return p.missing(m, "methods", "a list of methods, e.g. [chum, vz]")
	}
	items, err := p.list(mn, "compare.methods", "a list of methods")
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return p.errAt(mn, "compare.methods", "must name at least one method")
	}
	seenMethods := make(map[string]int)
	for i, it := range items {
		field := elem("compare.methods", i)
		ms, _, err := p.method(it, field, it.Line, i, s)
		if err != nil {
			return err
		}
		key := methodKey(ms)
		if j, dup := seenMethods[key]; dup {
			return p.errAt(it, field, "same method and options as %s", elem("compare.methods", j))
		}
		seenMethods[key] = i
		c.Methods = append(c.Methods, *ms)
	}
	dn, _ := m.get("dims")
	if dn == nil {
		return p.missing(m, "dims", "a list of output dimensions, e.g. [3, 5, 7]")
	}
	items, err = p.list(dn, "compare.dims", "a list of output dimensions")
	if err != nil {
		return err
	}
	if len(items) == 0 {
		return p.errAt(dn, "compare.dims", "must give at least one dimension")
	}
	seen := make(map[int]int)
	for i, it := range items {
		field := elem("compare.dims", i)
		d, err := p.intIn(it, field, 1, homogeneous.MaxDim)
		if err != nil {
			return err
		}
		if j, dup := seen[d]; dup {
			return p.errAt(it, field, "duplicate dimension %d (also %s)", d, elem("compare.dims", j))
		}
		seen[d] = i
		c.Dims = append(c.Dims, d)
	}
	s.Compare = c
	return nil
}

// methodKey returns a string that is equal for two methods exactly when
// they have the same name and options (their lines aside).
func methodKey(ms *MethodSpec) string {
	x := *ms
	x.Line = 0
	return fmt.Sprintf("%#v", x)
}

// ---- methods -------------------------------------------------------------------

// methodDef describes one method for the parser: where it applies and the
// options it takes. Adding a method is adding an entry to methodDefs.
type methodDef struct {
	name string
	// axes is the largest domain.dims the method designs for, minAxes the
	// smallest (0 means 1).
	axes, minAxes int
	// oddOnly is set for methods whose maps have odd dimensions only.
	oddOnly bool
	// kernelOK returns "" if the method applies to the kernel, else why not.
	kernelOK func(KernelSpec) string
	// options are the method's options, in documentation order.
	options []option
	// defaults fills in the defaults of options not given.
	defaults func(*MethodSpec)
	// check checks the options against each other (may be nil).
	check func(p *parser, mc *methodCtx) error
	// checkTarget checks the options against the target of a single design
	// (may be nil; a comparison shows impossible dimensions as n/a).
	checkTarget func(p *parser, t *TargetSpec, ms *MethodSpec, mc *methodCtx) error
}

// option is one method option: its key and how to read it into a
// MethodSpec.
type option struct {
	key   string
	parse func(p *parser, n *yaml.Node, field string, ms *MethodSpec) error
}

// methodDefs is every method the spec format knows.
var methodDefs = []methodDef{
	{
		name: MethodChum, axes: 1, kernelOK: anyKernel,
		options: []option{
			positiveOption("omega_max", func(ms *MethodSpec, v float64) { ms.Chum.OmegaMax = v }),
			positiveOption("spacing", func(ms *MethodSpec, v float64) { ms.Chum.Spacing = v }),
			intOption("z_points", 3, design.MaxZ, func(ms *MethodSpec, v int64) { ms.Chum.ZPoints = int(v) }),
			intOption("refine_iterations", 1, maxRefineIterations, func(ms *MethodSpec, v int64) { ms.Chum.RefineIterations = int(v) }),
			boolOption("polish", func(ms *MethodSpec, v bool) { ms.Chum.NoPolish = !v }),
			intOption("starts", 1, maxStarts, func(ms *MethodSpec, v int64) { ms.Chum.Starts = int(v) }),
			intOption("seed", math.MinInt64, math.MaxInt64, func(ms *MethodSpec, v int64) { ms.Chum.Seed = v }),
		},
	},
	{name: MethodHarmonic, axes: 1, oddOnly: true, kernelOK: anyKernel},
	{
		name: MethodVZ, axes: 1, oddOnly: true, kernelOK: homogeneousOnly(MethodVZ),
		options: []option{
			positiveOption("period", func(ms *MethodSpec, v float64) { ms.VZ.Period = v }),
			enumOption("window", "window", []string{string(homogeneous.Uniform), string(homogeneous.Rectangular)},
				func(ms *MethodSpec, v string) { ms.VZ.Window = homogeneous.Window(v) }),
		},
		defaults: func(ms *MethodSpec) {
			if ms.VZ.Window == "" {
				ms.VZ.Window = homogeneous.Rectangular
			}
		},
	},
	{
		name: MethodLi, axes: 1, kernelOK: chi2Only(MethodLi),
		options: []option{
			positiveListOption("k", func(ms *MethodSpec, v []float64) { ms.Li.K = v }),
			intOption("bins", 2, homogeneous.MaxLiBins, func(ms *MethodSpec, v int64) { ms.Li.Bins = int(v) }),
			stringOption("data", func(ms *MethodSpec, v string) { ms.Li.Data = v }),
		},
		defaults: func(ms *MethodSpec) {
			if ms.Li.Bins == 0 {
				ms.Li.Bins = homogeneous.DefaultLiBins
			}
		},
		check: func(p *parser, mc *methodCtx) error {
			if err := p.exclusive(mc.m, "k", "data", "li takes explicit k or data for Algorithm 1, not both"); err != nil {
				return err
			}
			return p.exclusive(mc.m, "k", "bins", "bins are for Algorithm 1, which explicit k skip")
		},
		checkTarget: func(p *parser, t *TargetSpec, ms *MethodSpec, mc *methodCtx) error {
			n, field := len(ms.Li.K), child(mc.field, "k")
			switch {
			case n == 0:
			case t.Dim == 0:
				return p.errAt(mc.opts["k"], field, "fixes the dimension at %d (one per k): give target.dim: %d, not target.max_error", n, n)
			case n != t.Dim:
				return p.errAt(mc.opts["k"], field, "has %d values but target.dim is %d: li makes one dimension per k", n, t.Dim)
			}
			return nil
		},
	},
	{name: MethodChebyshev, axes: 1, kernelOK: chi2Only(MethodChebyshev)},
	{name: MethodProjection, axes: multidim.MaxDims, minAxes: 2, kernelOK: rbfOnly(MethodProjection),
		options: append(multiOptions(),
			enumOption("pool", "pool", []string{multidim.PoolPolar, multidim.PoolTensor}, func(ms *MethodSpec, v string) { ms.Multi.Pool = v }),
			intOption("angles", 2, 360, func(ms *MethodSpec, v int64) { ms.Multi.Angles = int(v) }),
			intOption("radii", 1, 500, func(ms *MethodSpec, v int64) { ms.Multi.Radii = int(v) }),
			positiveOption("omega_max", func(ms *MethodSpec, v float64) { ms.Multi.OmegaMax = v }),
		),
		defaults: func(ms *MethodSpec) {
			if ms.Multi.Pool == "" {
				ms.Multi.Pool = multidim.PoolPolar
			}
		},
	},
	{name: MethodModulation, axes: multidim.MaxDims, minAxes: 2, kernelOK: rbfOnly(MethodModulation), options: multiOptions()},
	{name: MethodTensorGreedy, axes: multidim.MaxDims, minAxes: 2, kernelOK: rbfOnly(MethodTensorGreedy),
		options: []option{
			intOption("axis_dim", 1, 201, func(ms *MethodSpec, v int64) { ms.Multi.AxisDim = int(v) }),
			intOption("z_points", 3, multidim.MaxZPoints, func(ms *MethodSpec, v int64) { ms.Multi.ZPoints = int(v) }),
			intOption("seed", math.MinInt64, math.MaxInt64, func(ms *MethodSpec, v int64) { ms.Multi.Chum.Seed = v }),
		},
	},
}

// multiOptions are the options of the multi-dimensional LP methods.
func multiOptions() []option {
	return []option{
		intOption("axis_dim", 1, 201, func(ms *MethodSpec, v int64) { ms.Multi.AxisDim = int(v) }),
		intOption("z_points", 3, multidim.MaxZPoints, func(ms *MethodSpec, v int64) { ms.Multi.ZPoints = int(v) }),
		intOption("refine_iterations", 1, maxRefineIterations, func(ms *MethodSpec, v int64) { ms.Multi.Chum.RefineIterations = int(v) }),
		boolOption("polish", func(ms *MethodSpec, v bool) { ms.Multi.Chum.NoPolish = !v }),
		intOption("starts", 1, maxStarts, func(ms *MethodSpec, v int64) { ms.Multi.Chum.Starts = int(v) }),
		intOption("seed", math.MinInt64, math.MaxInt64, func(ms *MethodSpec, v int64) { ms.Multi.Chum.Seed = v }),
	}
}

func rbfOnly(method string) func(KernelSpec) string {
	return func(k KernelSpec) string {
		if k.Type == KernelRBF {
			return ""
		}
		return fmt.Sprintf("%s designs maps of the multiplicative rbf kernel, not %s", method, k.Type)
	}
}

// methodNames returns the names of methodDefs.
func methodNames() []string {
	names := make([]string, len(methodDefs))
	for i, d := range methodDefs {
		names[i] = d.name
	}
	return names
}

// methodByName returns the definition of a known method.
func methodByName(name string) *methodDef {
	for i := range methodDefs {
		if methodDefs[i].name == name {
			return &methodDefs[i]
		}
	}
	return nil
}

func anyKernel(KernelSpec) string { return "" }

func homogeneousOnly(method string) func(KernelSpec) string {
	return func(k KernelSpec) string {
		if k.Homogeneous() {
			return ""
		}
		return fmt.Sprintf("%s needs a homogeneous kernel (%s), not %s", method, strings.Join(kernelTypes[:4], ", "), k.Type)
	}
}

func chi2Only(method string) func(KernelSpec) string {
	return func(k KernelSpec) string {
		switch {
		case k.Type != KernelChi2:
			return fmt.Sprintf("%s needs kernel chi2 with gamma 1, not %s", method, k.Type)
		case k.Gamma != 1:
			return fmt.Sprintf("%s needs kernel chi2 with gamma 1, not gamma %v", method, k.Gamma)
		}
		return ""
	}
}

// positiveOption is an option holding a finite number > 0.
func positiveOption(key string, set func(*MethodSpec, float64)) option {
	return option{key, func(p *parser, n *yaml.Node, field string, ms *MethodSpec) error {
		v, err := p.positive(n, field)
		if err == nil {
			set(ms, v)
		}
		return err
	}}
}

// intOption is an option holding an integer in [lo, hi].
func intOption(key string, lo, hi int64, set func(*MethodSpec, int64)) option {
	return option{key, func(p *parser, n *yaml.Node, field string, ms *MethodSpec) error {
		v, err := p.integer(n, field)
		switch {
		case err != nil:
			return err
		case v < lo:
			return p.errAt(n, field, "must be >= %d, not %d", lo, v)
		case v > hi:
			return p.errAt(n, field, "must be <= %d, not %d", hi, v)
		}
		set(ms, v)
		return nil
	}}
}

// boolOption is an option holding true or false.
func boolOption(key string, set func(*MethodSpec, bool)) option {
	return option{key, func(p *parser, n *yaml.Node, field string, ms *MethodSpec) error {
		v, err := p.boolean(n, field)
		if err == nil {
			set(ms, v)
		}
		return err
	}}
}

// enumOption is an option holding one of values.
func enumOption(key, what string, values []string, set func(*MethodSpec, string)) option {
	return option{key, func(p *parser, n *yaml.Node, field string, ms *MethodSpec) error {
		v, err := p.enum(n, field, what, values)
		if err == nil {
			set(ms, v)
		}
		return err
	}}
}

// stringOption is an option holding a nonempty string.
func stringOption(key string, set func(*MethodSpec, string)) option {
	return option{key, func(p *parser, n *yaml.Node, field string, ms *MethodSpec) error {
		v, err := p.str(n, field)
		if err != nil {
			return err
		}
		if v == "" {
			return p.errAt(n, field, "must not be empty")
		}
		set(ms, v)
		return nil
	}}
}

// positiveListOption is an option holding a nonempty list of finite
// numbers > 0.
func positiveListOption(key string, set func(*MethodSpec, []float64)) option {
	return option{key, func(p *parser, n *yaml.Node, field string, ms *MethodSpec) error {
		items, err := p.list(n, field, "a list of numbers")
		if err != nil {
			return err
		}
		if len(items) == 0 {
			return p.errAt(n, field, "must not be an empty list")
		}
		if len(items) > homogeneous.MaxDim {
			return p.errAt(n, field, "has %d values, more than %d", len(items), homogeneous.MaxDim)
		}
		v := make([]float64, len(items))
		for i, it := range items {
			if v[i], err = p.positive(it, elem(field, i)); err != nil {
				return err
			}
		}
		set(ms, v)
		return nil
	}}
}

// methodCtx is what the option and compatibility checks need to point at a
// method's keys.
type methodCtx struct {
	field    string
	m        *mapNode              // the method's mapping (nil for a bare name)
	nameNode *yaml.Node            // the name's node (the list item for a bare name)
	nameFld  string                // its key path
	opts     map[string]*yaml.Node // option value nodes by key
}

// method reads a method (the method section, or a compare.methods item:
// a name or a mapping with name and options) and checks it against the
// kernel and domain. index is −1 for the method section, else the compare
// item's index (for data files).
func (p *parser) method(n *yaml.Node, field string, line, index int, s *Spec) (*MethodSpec, *methodCtx, error) {
	ms := &MethodSpec{Line: line}
	mc := &methodCtx{field: field, opts: map[string]*yaml.Node{}}
	if d := deref(n); index >= 0 && d.Kind == yaml.ScalarNode && d.ShortTag() == tagStr {
		// A compare item written as a bare method name.
		mc.nameNode, mc.nameFld = n, field
	} else {
		if index >= 0 && d.Kind != yaml.MappingNode {
			return nil, nil, p.typeErr(n, field, "a method name or a mapping with name and options")
		}
		var err error
		if mc.m, err = p.mapping(n, field); err != nil {
			return nil, nil, err
		}
		nn, _ := mc.m.get("name")
		if nn == nil {
			return nil, nil, p.missing(mc.m, "name", "one of "+strings.Join(methodNames(), ", "))
		}
		mc.nameNode, mc.nameFld = nn, child(field, "name")
	}
	name, err := p.enum(mc.nameNode, mc.nameFld, "method", methodNames())
	if err != nil {
		return nil, nil, err
	}
	def := methodByName(name)
	ms.Name = name
	if why := def.kernelOK(s.Kernel); why != "" {
		return nil, nil, p.errAt(mc.nameNode, mc.nameFld, "%s", why)
	}
	if s.Domain.Dims > def.axes {
		return nil, nil, p.errAt(mc.nameNode, mc.nameFld, "%s designs maps of %s; domain.dims is %d", name, axesText(def.axes), s.Domain.Dims)
	}
	if s.Domain.Dims < def.minAxes {
		return nil, nil, p.errAt(mc.nameNode, mc.nameFld, "%s designs maps of %d or %d input axes; domain.dims is %d (one axis: use chum)", name, def.minAxes, def.axes, s.Domain.Dims)
	}
	if mc.m != nil {
		if err := p.methodOptions(mc, def); err != nil {
			return nil, nil, err
		}
		for _, o := range def.options {
			vn, _ := mc.m.get(o.key)
			if vn == nil {
				continue
			}
			mc.opts[o.key] = vn
			if err := o.parse(p, vn, child(field, o.key), ms); err != nil {
				return nil, nil, err
			}
		}
		if def.check != nil {
			if err := def.check(p, mc); err != nil {
				return nil, nil, err
			}
		}
	}
	if def.defaults != nil {
		def.defaults(ms)
	}
	if ms.Li.Data != "" {
		p.refs = append(p.refs, dataRef{index: index, line: deref(mc.opts["data"]).Line, field: child(field, "data")})
	}
	return ms, mc, nil
}

// methodOptions rejects keys of a method mapping that are neither name nor
// one of the method's options.
func (p *parser) methodOptions(mc *methodCtx, def *methodDef) error {
	var keys []string
	for _, o := range def.options {
		keys = append(keys, o.key)
	}
	for _, kn := range mc.m.keys {
		k := deref(kn).Value
		if k == "name" || contains(keys, k) {
			continue
		}
		if len(keys) == 0 {
			return p.errAt(kn, child(mc.field, k), "unknown option; %s takes no options", def.name)
		}
		msg := "unknown option"
		if s := suggest(k, keys); s != "" {
			msg += " (did you mean " + s + "?)"
		}
		return p.errAt(kn, child(mc.field, k), "%s; %s options are %s", msg, def.name, strings.Join(keys, ", "))
	}
	return nil
}

func axesText(n int) string {
	if n == 1 {
		return "one input axis only"
	}
	return "at most " + strconv.Itoa(n) + " input axes"
}

// checkDim checks that the method can make the target (single designs
// only: a comparison shows impossible dimensions as n/a).
func (p *parser) checkDim(s *Spec, ms *MethodSpec, mc *methodCtx) error {
	def := methodByName(ms.Name)
	if dim := s.Target.Dim; dim > 0 {
		switch {
		case s.Kernel.Type == KernelHellinger && dim != 1:
			return p.errAt(p.targetDim, "target.dim", "hellinger's exact map is 1-dimensional: dim must be 1")
		case def.oddOnly && dim%2 == 0:
			return p.errAt(p.targetDim, "target.dim", "%s makes odd dimensions only: %d or %d", ms.Name, dim-1, dim+1)
		}
	}
	if def.checkTarget != nil {
		return def.checkTarget(p, s.Target, ms, mc)
	}
	return nil
}
