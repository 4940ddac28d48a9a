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
	"fmt"

	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
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

// An exp-χ² map's inner map, when rff's options name none, is chum's
// (sampled.SetDefaultInner).
func init() { sampled.SetDefaultInner(func() design.Method { return &chum.Chum{} }) }

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

// normMinimisers are the methods whose designs minimise the error in the
// spec's norm (error.norm): the LP designs. Every other method builds its
// map another way (closed forms, projections, samples), and the norm only
// measures it.
var normMinimisers = map[string]bool{"chum": true, "projection": true, "modulation": true, "tensor-greedy": true}

// samplers are the methods that build their maps from random draws or
// the data's rows.
var samplers = map[string]bool{"rff": true, "rf-pca": true, "nystroem": true, "rff-group-lasso": true}

// DrawnFromSamples reports whether method builds its maps from random
// draws or the data's rows, or (polynomial) sketches them: maps whose
// error is measured, not minimised by the design, which the front door
// fails when they are no better than Ψ = 0 (their relative Gram error at
// least 1). The optimising and closed-form methods are held to their own
// error measure instead.
func DrawnFromSamples(method string) bool { return samplers[method] || method == "polynomial" }

// ErrorLine states the error measure and norm, and whether method
// minimises the error in that norm or only is measured in it.
func ErrorLine(p *fmap.Problem, method string) string {
	switch {
	case normMinimisers[method]:
		return fmt.Sprintf("error: %s, minimised in the %s norm", p.Measure, p.Norm)
	case samplers[method]:
		return fmt.Sprintf("error: %s, measured in the %s norm (%s draws its map from samples: it minimises no error)", p.Measure, p.Norm, method)
	}
	return fmt.Sprintf("error: %s, measured in the %s norm (%s does not minimise it)", p.Measure, p.Norm, method)
}

// Table is the methods as a table a spec is read against
// (spec.MethodTable): Names and New.
type Table struct{}

// Names lists the names of every method, in documentation order.
func (Table) Names() []string { return Names() }

// New returns a new method of the given name with default (zero)
// options, or nil if there is none.
func (Table) New(name string) design.Method { return New(name) }
