package spec

import (
	"strconv"
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
