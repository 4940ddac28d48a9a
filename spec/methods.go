package spec

import "github.com/featmap/featmap/design"

// A MethodTable is the design methods a spec may name, in documentation
// order. spec decodes a method section (and a compared method, an inner
// map) into the options of the value New returns, so it needs no method's
// package: the table is given (UseMethods), not imported, and reading a
// spec compiles none of the design stack. Package registry has featmap's
// table; package featmap gives it.
type MethodTable interface {
	// Names lists every method's name, in documentation order.
	Names() []string
	// New returns a new method of the given name with default (zero)
	// options, or nil if there is none.
	New(name string) design.Method
}

// table is the methods given to UseMethods.
var table MethodTable

// UseMethods gives spec the methods its specs may name. It is called once,
// before any spec is read (package featmap does so when it is initialised).
func UseMethods(t MethodTable) { table = t }

// methodTable returns the methods given to UseMethods; reading a spec
// without them is a program error.
func methodTable() MethodTable {
	if table == nil {
		panic("spec: no method table: call spec.UseMethods first (package featmap gives registry.Table)")
	}
	return table
}
