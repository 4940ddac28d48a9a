// Package registry is the list of featmap's design methods, one line each.
//
// A method is one file in its package (a type implementing design.Method,
// with its options struct) and one line here. From this list come the
// spec's method names and the decoding of their options (package spec),
// the dimension checks, comparison labels and option descriptions, the
// candidates of method auto, the spec's JSON Schema and the README's
// method table (TestReadmeMethodTable).
package registry

import (
	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/homogeneous"
	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/multidim"
	"github.com/featmap/featmap/sampled"
)

// methods lists every design method, in documentation order: a
// constructor each, returning a new value with zero (default) options.
var methods = []func() design.Method{
	func() design.Method { return &chum.Chum{} },
	func() design.Method { return chum.Harmonic{} },
	func() design.Method { return &homogeneous.VZ{} },
	func() design.Method { return &homogeneous.Li{} },
	func() design.Method { return homogeneous.Chebyshev{} },
	func() design.Method { return &homogeneous.ANNFM{} },
	func() design.Method { return &multidim.Projection{} },
	func() design.Method { return &multidim.Modulation{} },
	func() design.Method { return &multidim.TensorGreedy{} },
	func() design.Method { return &sampled.RFF{} },
	func() design.Method { return &sampled.RFPCA{} },
	func() design.Method { return &sampled.Nystroem{} },
	func() design.Method { return &sampled.Polynomial{} },
	func() design.Method { return &learn.RFFGroupLasso{} },
}

// Names lists the names of every method, in documentation order.
func Names() []string {
	names := make([]string, len(methods))
	for i, m := range methods {
		names[i] = m().Name()
	}
	return names
}

// New returns a new method of the given name with default (zero)
// options, or nil if there is none.
func New(name string) design.Method {
	for _, m := range methods {
		if mm := m(); mm.Name() == name {
			return mm
		}
	}
	return nil
}

// All returns a new value of every method, with default (zero) options,
// in documentation order.
func All() []design.Method {
	out := make([]design.Method, len(methods))
	for i, m := range methods {
		out[i] = m()
	}
	return out
}
