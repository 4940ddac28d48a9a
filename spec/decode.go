package spec

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/featmap/featmap/design"
	"gopkg.in/yaml.v3"
)

// This file reads YAML for the spec decoder: the one document of a spec,
// mappings decoded strictly into tagged structs (unknown and duplicate keys
// rejected, with a suggestion for typos), and typed scalars whose errors
// name the file, line and key path.

// parser reads one spec's YAML tree.
type parser struct {
	path string
	data []byte
	// noProblem says that the spec's problem (kernel, domain, error,
	// data) had an error: the target and the methods are read without the
	// checks against it, which would only repeat it.
	noProblem bool
	// groups is set while a kernels section's domain is read: a skewed
	// kernel's offset is then checked per kernel, at kernels[i].c, once
	// the domain is known (kernelsSpec), not as kernel.c.
	groups bool
}

// errAt returns a *SpecError at node n (its line) for field.
func (p *parser) errAt(n *yaml.Node, field, format string, args ...any) *SpecError {
	line := 0
	if n != nil {
		line = n.Line
	}
	return &SpecError{Path: p.path, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// typeErr is a wrong-type error: field must be want, not what n is.
func (p *parser) typeErr(n *yaml.Node, field, want string) *SpecError {
	return p.errAt(n, field, "must be %s, not %s", want, describe(n))
}

// child returns the key path of key under field; a key that is not a
// plain name is quoted.
func child(field, key string) string {
	plain := key != "" && strings.IndexFunc(key, func(r rune) bool {
		return !(r == '_' || r == '-' || r == '<' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0
	switch {
	case len(key) > 64:
		key = strconv.Quote(key[:40]) + "..."
	case !plain:
		key = strconv.Quote(key)
	}
	if field == "" {
		return key
	}
	return field + "." + key
}

// elem returns the key path of list element i of field.
func elem(field string, i int) string { return field + "[" + strconv.Itoa(i) + "]" }

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
	names := map[string]string{"!!str": "the string " + strconv.Quote(v), "!!int": "the integer " + v, "!!float": "the number " + v,
		"!!bool": "the boolean " + v, "!!null": "null", "!!timestamp": "the timestamp " + v, "!!binary": "binary data"}
	if s, ok := names[n.ShortTag()]; ok {
		return s
	}
	return "a value tagged " + strconv.Quote(n.ShortTag())
}

var (
	yamlLineRE      = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)
	unknownAnchorRE = regexp.MustCompile(`^unknown anchor '(.*)' referenced$`)
	// indentProblems are the problems of yaml.v3 that a line's
	// indentation causes, for which badIndent looks for that line.
	indentProblems = map[string]bool{
		"did not find expected key": true, "mapping values are not allowed in this context": true,
		"did not find expected '-' indicator": true, "block sequence entries are not allowed in this context": true,
		"could not find expected ':'": true,
	}
	// yamlParserProblems are the problems of yaml.v3's parser (as opposed
	// to its scanner), for which it reports the 0-based line.
	yamlParserProblems = map[string]bool{
		"did not find expected <stream-start>": true, "did not find expected <document start>": true,
		"found undefined tag handle": true, "did not find expected node content": true,
		"did not find expected '-' indicator": true, "did not find expected key": true,
		"did not find expected ',' or ']'": true, "did not find expected ',' or '}'": true,
		"found duplicate %YAML directive": true, "found incompatible YAML document": true,
		"found duplicate %TAG directive": true,
	}
)

// tabIndented reports whether the 1-based line of the spec starts with
// white space that holds a tab.
func (p *parser) tabIndented(line int) bool {
	lines := bytes.Split(p.data, []byte("\n"))
	if line < 1 || line > len(lines) {
		return false
	}
	l := lines[line-1]
	indent := l[:len(l)-len(bytes.TrimLeft(l, " \t"))]
	return bytes.ContainsRune(indent, '\t')
}

// yamlErr turns a YAML parser error into a *SpecError with its line.
// Errors without
// a line are placed at the first use of an unknown anchor, or at the first
// character YAML does not allow, or else on line 1.
func (p *parser) yamlErr(err error) *SpecError {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		line, _ := strconv.Atoi(m[1])
		if yamlParserProblems[m[2]] {
			line++
		}
		msg := "invalid YAML: " + m[2]
		if p.tabIndented(line) {
			msg += " (the line is indented with a tab: YAML indents with spaces)"
		} else if l, why, ok := badIndent(p.data, len(p.data)); ok && indentProblems[m[2]] {
			// The parser names where it gave up, or where the mapping
			// it was reading began: the line whose indentation it
			// could not read is the one to fix.
			msg += " (" + why + ")"
			line = l
		}
		return &SpecError{Path: p.path, Line: line, Msg: msg, Err: err}
	}
	lineAt := func(off int) int { return 1 + bytes.Count(p.data[:off], []byte("\n")) }
	line := 1
	if m := unknownAnchorRE.FindStringSubmatch(msg); m != nil {
		if i := bytes.Index(p.data, []byte("*"+m[1])); i >= 0 {
			line = lineAt(i)
		}
	} else if !bytes.HasPrefix(p.data, []byte{0xFE, 0xFF}) && !bytes.HasPrefix(p.data, []byte{0xFF, 0xFE}) {
		for off := 0; off < len(p.data); {
			r, size := utf8.DecodeRune(p.data[off:])
			if (r == utf8.RuneError && size == 1) || !yamlPrintable(r) {
				line = lineAt(off)
				break
			}
			off += size
		}
	}
	return &SpecError{Path: p.path, Line: line, Msg: "invalid YAML: " + msg, Err: err}
}

// yamlPrintable reports whether YAML allows r in a stream.
func yamlPrintable(r rune) bool {
	return r == 0x09 || r == 0x0A || r == 0x0D || r >= 0x20 && r <= 0x7E || r == 0x85 ||
		r >= 0xA0 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
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

const emptySpec = "empty spec: want a mapping with version, name, kernel, domain, and target and method or compare"

// document returns the root mapping of the single YAML document in data.
func (p *parser) document() (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(p.data))
	doc, err := decodeDoc(dec)
	switch {
	case err == io.EOF:
		return nil, &SpecError{Path: p.path, Line: 1, Msg: emptySpec}
	case err != nil:
		return nil, p.yamlErr(err)
	}
	if second, err := decodeDoc(dec); err != io.EOF {
		if err != nil {
			return nil, p.yamlErr(err)
		}
		return nil, p.errAt(second, "", "more than one YAML document; a spec is a single document")
	}
	root := deref(doc.Content[0])
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return nil, p.errAt(root, "", emptySpec)
	}
	if root.Kind != yaml.MappingNode {
		return nil, p.errAt(root, "", "a spec must be a mapping of keys (version, name, kernel, ...), not %s", describe(root))
	}
	return root, nil
}

// kv is one key of a mapping decoded into a struct: the key's and the
// value's nodes (nil when the key is absent).
type kv struct{ K, V *yaml.Node }

// mapping is a YAML mapping decoded into a struct.
type mapping struct {
	node  *yaml.Node
	field string
	keys  map[string]*yaml.Node // key nodes by name
	order []string              // names in document order
}

// value returns the value node of key name (nil if absent).
func (m *mapping) value(name string) *yaml.Node {
	if i := slices.Index(m.order, name); i >= 0 {
		return m.node.Content[2*i+1]
	}
	return nil
}

// keys reads the mapping n at key path field, rejecting non-mappings,
// duplicate keys, merge keys and keys that are not scalars.
func (p *parser) keys(n *yaml.Node, field string) (*mapping, error) {
	n = deref(n)
	if n.Kind != yaml.MappingNode {
		return nil, p.typeErr(n, field, "a mapping")
	}
	m := &mapping{node: n, field: field, keys: map[string]*yaml.Node{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		kn := n.Content[i]
		k := deref(kn)
		switch {
		case k.Kind != yaml.ScalarNode:
			return nil, p.errAt(kn, field, "keys must be plain names, not %s", describe(k))
		case k.ShortTag() == "!!merge":
			return nil, p.errAt(kn, child(field, k.Value), "merge keys are not supported; write the keys out")
		case m.keys[k.Value] != nil:
			return nil, p.errAt(kn, child(field, k.Value), "duplicate key (first at line %d)", m.keys[k.Value].Line)
		}
		m.keys[k.Value] = kn
		m.order = append(m.order, k.Value)
	}
	return m, nil
}

// fill decodes m into the struct dst points to, strictly: every key but
// those in skip must be a field's yaml tag (inline structs included), or
// each unknown one is an error (all of them, unknownKeys); unknown says
// what it is ("unknown key"), and what names the allowed keys ("kernel
// keys are"). Without unknown keys the values are decoded in document
// order: fields of type kv receive the nodes, the others are read with
// the checks of their kind and spec tag (see value).
func (p *parser) fill(m *mapping, dst any, what, unknown string, skip ...string) error {
	if _, err := p.unknownKeys(m, dst, what, unknown, skip...); err != nil {
		return err
	}
	return p.decodeFields(m, dst)
}

// unknownKeys returns the fields the unknown keys of m seem meant for (a
// typo's suggestion: the checks that need such a field would only say it
// is missing), and the errors of every key of m that is neither a field
// of the struct dst points to nor in skip (see fill).
func (p *parser) unknownKeys(m *mapping, dst any, what, unknown string, skip ...string) (map[string]bool, error) {
	fields := structFields(reflect.ValueOf(dst).Elem())
	var names []string
	for _, f := range fields {
		names = append(names, f.name)
	}
	var errs []error
	meant := map[string]bool{}
	for _, name := range m.order {
		if slices.Contains(names, name) || slices.Contains(skip, name) {
			continue
		}
		kn := m.keys[name]
		if len(names) == 0 {
			errs = append(errs, p.errAt(kn, child(m.field, name), "%s; %s", unknown, what))
			continue
		}
		msg := unknown
		if s := suggest(name, names); s != "" {
			msg += " (did you mean " + s + "?)"
			meant[s] = true
		}
		errs = append(errs, p.errAt(kn, child(m.field, name), "%s; %s %s", msg, what, strings.Join(names, ", ")))
	}
	return meant, joinSpecErrors(errs)
}

// decodeFields decodes the known keys of m into the struct dst points to
// (see fill), stopping at the first error.
func (p *parser) decodeFields(m *mapping, dst any) error {
	fields := structFields(reflect.ValueOf(dst).Elem())
	var names []string
	for _, f := range fields {
		names = append(names, f.name)
	}
	for _, name := range m.order {
		if i := slices.Index(names, name); i >= 0 {
			if err := p.value(fields[i], m.keys[name], m.value(name), child(m.field, name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// missing is the error for a required key absent from m.
func (p *parser) missing(m *mapping, name, hint string) error {
	return p.errAt(m.node, child(m.field, name), "missing required key (%s)", hint)
}

// exclusive returns the error for two keys a and b of m that must not
// both be given (at the later one), or nil.
func (p *parser) exclusive(m *mapping, a, b, hint string) error {
	ka, kb := m.keys[a], m.keys[b]
	if ka == nil || kb == nil {
		return nil
	}
	if slices.Index(m.order, b) < slices.Index(m.order, a) {
		a, b, ka, kb = b, a, kb, ka
	}
	return p.errAt(kb, child(m.field, b), "conflicts with %s (line %d): %s", child(m.field, a), ka.Line, hint)
}

// suggest returns the allowed name closest to an unknown key if it is
// close enough to be a typo: the same but for case (NAME for name), or at
// a Levenshtein distance < 3.
func suggest(key string, allowed []string) string {
	if len(key) > 64 {
		return ""
	}
	for _, a := range allowed {
		if strings.EqualFold(key, a) {
			return a
		}
	}
	best, bestD := "", 3
	for _, a := range allowed {
		prev, cur := make([]int, len(a)+1), make([]int, len(a)+1)
		for j := range prev {
			prev[j] = j
		}
		for i := 1; i <= len(key); i++ {
			cur[0] = i
			for j := 1; j <= len(a); j++ {
				c := prev[j-1]
				if key[i-1] != a[j-1] {
					c++
				}
				cur[j] = min(c, prev[j]+1, cur[j-1]+1)
			}
			prev, cur = cur, prev
		}
		if d := prev[len(a)]; d < bestD && d < len(a) {
			best, bestD = a, d
		}
	}
	return best
}

// value decodes the node vn of key kn into the field f at key path field:
// kv fields take the nodes; float64, *float64 (nil when absent), int,
// int64, bool, *bool, strings, []float64 and [2]int, *[2]int (a pair
// [first, last]) are read with the checks their kind and tag ask for.
func (p *parser) value(f structField, kn, vn *yaml.Node, field string) error {
	v, r := f.v, f.tag
	switch v.Type() {
	case reflect.TypeOf(kv{}):
		v.Set(reflect.ValueOf(kv{kn, vn}))
		return nil
	case reflect.TypeOf((*design.Inner)(nil)):
		in, err := p.inner(vn, field)
		if err == nil {
			v.Set(reflect.ValueOf(in))
		}
		return err
	case reflect.TypeOf([2]int{}), reflect.TypeOf((*[2]int)(nil)):
		xy, err := p.intPair(vn, field, r.what, r.min, r.max)
		if err != nil {
			return err
		}
		pair := [2]int{int(xy[0]), int(xy[1])}
		if v.Kind() == reflect.Pointer {
			v.Set(reflect.ValueOf(&pair))
		} else {
			v.Set(reflect.ValueOf(pair))
		}
		return nil
	}
	switch v.Kind() {
	case reflect.Float64:
		var x float64
		var err error
		if r.auto {
			x, _, err = p.numberOrAuto(vn, field, r.positive)
		} else {
			x, err = p.number(vn, field, r.positive)
		}
		v.SetFloat(x)
		return err
	case reflect.Int, reflect.Int64:
		x, err := p.intIn(vn, field, r.min, r.max)
		v.SetInt(int64(x))
		return err
	case reflect.Pointer:
		if v.Type().Elem().Kind() == reflect.Float64 {
			x, err := p.number(vn, field, r.positive)
			v.Set(reflect.ValueOf(&x))
			return err
		}
		fallthrough // *bool
	case reflect.Bool:
		var x bool
		if b := deref(vn); b.Kind != yaml.ScalarNode || b.ShortTag() != "!!bool" || b.Decode(&x) != nil {
			return p.typeErr(vn, field, "true or false")
		}
		if v.Kind() == reflect.Pointer {
			v.Set(reflect.ValueOf(&x))
		} else {
			v.SetBool(x)
		}
	case reflect.String:
		s, err := p.str(vn, field, r.what, r.enum)
		if err == nil && r.nonempty && s == "" {
			err = p.errAt(vn, field, "must not be empty")
		}
		v.SetString(s)
		return err
	case reflect.Slice:
		items, err := p.list(vn, field, "a list of numbers")
		switch {
		case err != nil:
			return err
		case len(items) == 0:
			return p.errAt(vn, field, "must not be an empty list")
		case r.maxlen > 0 && len(items) > r.maxlen:
			return p.errAt(vn, field, "has %d values, more than %d", len(items), r.maxlen)
		}
		xs := make([]float64, len(items))
		for i, it := range items {
			if xs[i], err = p.number(it, elem(field, i), r.positive); err != nil {
				return err
			}
		}
		v.Set(reflect.ValueOf(xs))
	default:
		panic(fmt.Sprintf("featmap: no decoder for the option %s of type %s", field, v.Type()))
	}
	return nil
}

// inner reads an option naming another method: a mapping of its name, its
// dimension and its options.
func (p *parser) inner(n *yaml.Node, field string) (*design.Inner, error) {
	m, err := p.keys(n, field)
	if err != nil {
		return nil, err
	}
	names := methodTable().Names()
	nameNode, dimNode := m.value("name"), m.value("dim")
	switch {
	case nameNode == nil:
		return nil, p.missing(m, "name", "one of "+strings.Join(names, ", "))
	case dimNode == nil:
		return nil, p.missing(m, "dim", "the inner map's output dimension")
	}
	name, err := p.str(nameNode, child(field, "name"), "method", names)
	if err != nil {
		return nil, err
	}
	dim, err := p.intIn(dimNode, child(field, "dim"), 1, MaxDim)
	if err != nil {
		return nil, err
	}
	in := &design.Inner{Method: methodTable().New(name), Dim: int(dim)}
	if err := p.fill(m, in.Method.Options(), name+" options are", "unknown option", "name", "dim"); err != nil {
		return nil, err
	}
	if d, ok := in.Method.Options().(design.Defaulter); ok {
		d.SetDefaults()
	}
	return in, nil
}

// legacyOctal reports whether an integer literal has a leading zero, which
// YAML 1.1 (and yaml.v3) read as octal: 0255 is 173.
func legacyOctal(v string) bool {
	v = strings.TrimLeft(v, "+-")
	return len(v) > 1 && v[0] == '0' && v[1] >= '0' && v[1] <= '9'
}

var intLikeRE = regexp.MustCompile(`^[-+]?[0-9][0-9_]*$`)

// number reads a finite number (YAML int or float) for field, > 0 if
// positive is set.
func (p *parser) number(n *yaml.Node, field string, positive bool) (float64, error) {
	n = deref(n)
	var v float64
	switch tag := n.ShortTag(); {
	case n.Kind != yaml.ScalarNode:
		return 0, p.typeErr(n, field, "a number")
	case tag == "!!int" && legacyOctal(n.Value):
		return 0, p.errAt(n, field, "%s has a leading zero, which YAML reads as octal; write it without (or with 0o for octal)", n.Value)
	case tag == "!!int" || tag == "!!float":
		if err := n.Decode(&v); err != nil {
			return 0, p.errAt(n, field, "%q is not a valid number", n.Value)
		}
	case tag == "!!str" && n.Style&(yaml.TaggedStyle|yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0:
		if _, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64); errors.Is(err, strconv.ErrRange) {
			return 0, p.errAt(n, field, "%s is out of the float64 range", n.Value)
		}
		fallthrough
	default:
		return 0, p.typeErr(n, field, "a number")
	}
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return 0, p.errAt(n, field, "must be a finite number, not %s", n.Value)
	case positive && !(v > 0):
		return 0, p.errAt(n, field, "must be > 0, not %s", n.Value)
	}
	return v, nil
}

// numberOrAuto reads a number for field (> 0 if positive is set) or the
// word auto (auto true, the number 0); anything else is "must be a number
// or auto".
func (p *parser) numberOrAuto(n *yaml.Node, field string, positive bool) (x float64, auto bool, err error) {
	if n.Kind == yaml.ScalarNode && n.Value == "auto" {
		return 0, true, nil
	}
	if x, err = p.number(n, field, positive); err != nil {
		want := "a number"
		if positive {
			want += " > 0"
		}
		return 0, false, p.errAt(n, field, "must be %s or auto, not %s", want, describe(n))
	}
	return x, false, nil
}

// intPair reads a list [first, last] of two integers in [lo, hi] for field;
// what names them in messages ("column numbers").
func (p *parser) intPair(n *yaml.Node, field, what string, lo, hi int64) ([2]int64, error) {
	items, err := p.list(n, field, "a list [first, last] of two "+what)
	if err == nil && len(items) != 2 {
		err = p.errAt(n, field, "must be a list [first, last] of two %s, not a list of %d", what, len(items))
	}
	var v [2]int64
	for i := 0; err == nil && i < 2; i++ {
		v[i], err = p.intIn(items[i], elem(field, i), lo, hi)
	}
	return v, err
}

// intIn reads a YAML integer (not a float) in [lo, hi] for field.
func (p *parser) intIn(n *yaml.Node, field string, lo, hi int64) (int64, error) {
	n = deref(n)
	var v int64
	switch tag := n.ShortTag(); {
	case n.Kind != yaml.ScalarNode:
		return 0, p.typeErr(n, field, "an integer")
	case tag == "!!int" && legacyOctal(n.Value):
		return 0, p.errAt(n, field, "%s has a leading zero, which YAML reads as octal; write it without (or with 0o for octal)", n.Value)
	case tag == "!!int":
		if err := n.Decode(&v); err != nil {
			return 0, p.errAt(n, field, "%s is out of the integer range", n.Value)
		}
	case tag == "!!float" && intLikeRE.MatchString(n.Value):
		return 0, p.errAt(n, field, "%s is out of the integer range", n.Value)
	default:
		return 0, p.typeErr(n, field, "an integer")
	}
	switch {
	case v < lo:
		return 0, p.errAt(n, field, "must be >= %d, not %d", lo, v)
	case v > hi:
		return 0, p.errAt(n, field, "must be <= %d, not %d", hi, v)
	}
	return v, nil
}

// str reads a string for field; with values, one of them ("unknown what
// "x"; want one of a, b" otherwise).
func (p *parser) str(n *yaml.Node, field, what string, values []string) (string, error) {
	want := "a string"
	if values != nil {
		want = "one of " + strings.Join(values, ", ")
	}
	n = deref(n)
	switch {
	case n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str":
		return "", p.typeErr(n, field, want)
	case values != nil && !slices.Contains(values, n.Value):
		return "", p.errAt(n, field, "unknown %s %s; want %s", what, strconv.Quote(n.Value), want)
	}
	return n.Value, nil
}

// list returns the items of a YAML list for field.
func (p *parser) list(n *yaml.Node, field, want string) ([]*yaml.Node, error) {
	if d := deref(n); d.Kind == yaml.SequenceNode {
		return d.Content, nil
	}
	return nil, p.typeErr(n, field, want)
}
