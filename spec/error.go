package spec

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// SpecError is an error in a spec: the file, the 1-based line of the
// offending YAML node and the dotted key path of the field, as in
//
//	specs/x.yaml:7: domain.interval: lo must be < hi
//
// Field is empty for errors about the file as a whole (invalid YAML, several
// documents). Line is at least 1 in every error Parse returns; Error
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
	s := e.Path
	if s == "" {
		s = "<spec>"
	}
	if e.Line > 0 {
		s += ":" + strconv.Itoa(e.Line)
	}
	if e.Field != "" {
		s += ": " + e.Field
	}
	return s + ": " + e.Msg
}

// Unwrap returns the underlying error, if any.
func (e *SpecError) Unwrap() error { return e.Err }

// MaxSpecErrors is how many errors of one spec are reported at most.
const MaxSpecErrors = 10

// SpecErrors are several independent errors of one spec, at most
// MaxSpecErrors of them (More counts those left out): first the error a
// spec with it alone would give (the first the checks meet, in the order
// of Parse: what featmap reported when it stopped at the first), then the
// others sorted by line, as
//
//	specs/x.yaml:3: kernel.gama: unknown key (did you mean gamma?); kernel keys are …
//	specs/x.yaml:7: target.dim: must be an integer, not "7.5"
//
// A spec with a single error gives that *SpecError alone, never a
// SpecErrors; errors.As finds the first error of a SpecErrors as a
// *SpecError. docs/spec.md says which errors are independent.
type SpecErrors struct {
	List []*SpecError
	More int
}

// Error returns one line per error, "path:line: field: message", and a
// last line saying how many more there were if any were left out.
func (e *SpecErrors) Error() string {
	var b strings.Builder
	for i, se := range e.List {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(se.Error())
	}
	if e.More > 0 && len(e.List) > 0 {
		fmt.Fprintf(&b, "\n%s: %d more errors not shown", e.List[0].Path, e.More)
	}
	return b.String()
}

// Errors returns the errors: the first one met, then the others by line.
func (e *SpecErrors) Errors() []*SpecError { return e.List }

// Unwrap returns the errors, for errors.Is and errors.As.
func (e *SpecErrors) Unwrap() []error {
	out := make([]error, len(e.List))
	for i, se := range e.List {
		out[i] = se
	}
	return out
}

// joinSpecErrors returns the errors of errs (nil ones left out, a
// *SpecErrors' taken one by one, the same error twice once), the first
// one first and the others sorted by line: nil for none, the *SpecError
// itself for one, else a *SpecErrors.
// An error that is not a spec error is returned alone (it is no error of
// the spec's text).
func joinSpecErrors(errs []error) error {
	var list []*SpecError
	more := 0 // left out of a *SpecErrors already
	seen := map[string]bool{}
	for _, err := range errs {
		var items []*SpecError
		switch e := err.(type) {
		case nil:
			continue
		case *SpecError:
			items = []*SpecError{e}
		case *SpecErrors:
			items, more = e.List, more+e.More
		default:
			return err
		}
		for _, se := range items {
			if k := se.Error(); !seen[k] {
				seen[k] = true
				list = append(list, se)
			}
		}
	}
	if len(list) > 1 {
		rest := list[1:]
		sort.SliceStable(rest, func(i, j int) bool { return lineOrder(rest[i].Line) < lineOrder(rest[j].Line) })
	}
	switch {
	case len(list) == 0:
		return nil
	case len(list) == 1 && more == 0:
		return list[0]
	case len(list) > MaxSpecErrors:
		return &SpecErrors{List: list[:MaxSpecErrors], More: more + len(list) - MaxSpecErrors}
	}
	return &SpecErrors{List: list, More: more}
}

// lineOrder sorts errors of no known line (0) after the others.
func lineOrder(line int) int {
	if line <= 0 {
		return math.MaxInt
	}
	return line
}
