package featmap

import (
	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/homogeneous"
	"github.com/featmap/featmap/multidim"
	"github.com/featmap/featmap/sampled"
)

// registry lists every design method, in documentation order. A method is
// one file (a type implementing design.Method, with its options) and one
// line here: the spec decoder, the dimension checks, comparison labels,
// descriptions and the README's method table all come from this list.
var registry = []func() design.Method{
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
}

// MethodNames lists the names of every method, in documentation order.
func MethodNames() []string {
	names := make([]string, len(registry))
	for i, m := range registry {
		names[i] = m().Name()
	}
	return names
}

// NewMethod returns a new method of the given name with default options,
// or nil if there is none.
func NewMethod(name string) design.Method {
	for _, m := range registry {
		if mm := m(); mm.Name() == name {
			return mm
		}
	}
	return nil
}
