package featmap

import (
	"fmt"
	"strings"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/homogeneous"
	"github.com/featmap/featmap/multidim"
)

// Spec is a parsed and validated featmap spec (format version 1). After
// ParseSpec returns it, nothing downstream re-checks strings: every field is
// typed and every default filled in.
type Spec struct {
	// Path is the spec's path as given on the command line (recorded in
	// generated files); Hash is the hex SHA-256 of its content.
	Path    string
	Hash    string
	Version int
	// Name is the Go identifier prefix of emitted code.
	Name   string
	Kernel KernelSpec
	Domain DomainSpec
	Error  ErrorSpec
	// Target and Method are set for a single design; Compare instead for a
	// comparison report. Exactly one of the two shapes is present.
	Target  *TargetSpec
	Method  *MethodSpec
	Compare *CompareSpec
}

// Kernel types.
const (
	KernelChi2         = "chi2"
	KernelIntersection = "intersection"
	KernelJS           = "js"
	KernelHellinger    = "hellinger"
	KernelRBF          = "rbf"
)

// KernelSpec is the spec's kernel section.
type KernelSpec struct {
	Type string // one of the Kernel* constants
	// Gamma is the homogeneity degree of a homogeneous kernel (default 1).
	Gamma float64
	// Sigma holds the RBF width per input axis, k(x,y) = exp(−(x−y)²/(2σ²)),
	// a single value broadcast to every axis.
	Sigma []float64
}

// Homogeneous reports whether the kernel is one of the homogeneous ones.
func (k KernelSpec) Homogeneous() bool { return k.Type != KernelRBF }

// DomainSpec is the spec's domain section.
type DomainSpec struct {
	Dims    int  // number of input axes, 1 (default), 2 or 3
	Integer bool // integers: [lo, hi] rather than interval: [lo, hi]
	// Lo and Hi hold the per-axis ends (a single interval is broadcast).
	Lo, Hi []float64
	// Negative is what a homogeneous map does with x < 0 (default sign).
	Negative design.Negative
}

// Design returns the domain as a design.Domain.
func (d DomainSpec) Design() design.Domain {
	return design.Domain{Integer: d.Integer, Lo: append([]float64(nil), d.Lo...), Hi: append([]float64(nil), d.Hi...)}
}

// ErrorSpec is the spec's error section.
type ErrorSpec struct {
	Norm   design.Norm    // linf (default) or l1
	Weight design.Measure // absolute (homogeneous default), relative, uniform (RBF default)
}

// TargetSpec is the spec's target section: exactly one of Dim and MaxError
// is nonzero.
type TargetSpec struct {
	Dim      int
	MaxError float64
	// MaxDim bounds the search for MaxError (default DefaultMaxDim).
	MaxDim int
}

// DefaultMaxDim is the largest dimension target.max_error tries by default.
const DefaultMaxDim = 31

// Method names.
const (
	MethodChum      = "chum"
	MethodHarmonic  = "harmonic"
	MethodVZ        = "vz"
	MethodLi        = "li"
	MethodChebyshev = "chebyshev"
	// The multi-dimensional methods (domain.dims 2 or 3, kernel rbf).
	MethodProjection   = "projection"
	MethodModulation   = "modulation"
	MethodTensorGreedy = "tensor-greedy"
)

// MethodSpec is one method with its options. Only the options struct of the
// named method is meaningful.
type MethodSpec struct {
	Name string
	Chum design.ChumOptions
	VZ   homogeneous.VZOptions
	Li   homogeneous.LiOptions
	// Multi tunes the multi-dimensional methods.
	Multi multidim.Options
	// Line is where the method was declared in the spec (for messages).
	Line int
}

// CompareSpec is the spec's compare section.
type CompareSpec struct {
	Methods []MethodSpec
	Dims    []int
}

// Describe names the kernel in words, e.g. "χ² kernel (γ = 1)".
func (k KernelSpec) Describe() string {
	names := map[string]string{
		KernelChi2: "χ²", KernelIntersection: "intersection", KernelJS: "Jensen–Shannon",
		KernelHellinger: "Hellinger", KernelRBF: "RBF",
	}
	name := names[k.Type]
	if name == "" {
		name = k.Type
	}
	if k.Homogeneous() {
		return fmt.Sprintf("%s kernel (γ = %g)", name, k.Gamma)
	}
	sig := make([]string, len(k.Sigma))
	for i, v := range k.Sigma {
		sig[i] = fmt.Sprint(v)
	}
	return fmt.Sprintf("%s kernel (σ = %s)", name, strings.Join(sig, ", "))
}

// Describe names the domain in words, e.g. "the integers {0..255}".
func (d DomainSpec) Describe() string {
	var parts []string
	for i := range d.Lo {
		if d.Integer {
			parts = append(parts, fmt.Sprintf("{%g..%g}", d.Lo[i], d.Hi[i]))
		} else {
			parts = append(parts, fmt.Sprintf("[%g, %g]", d.Lo[i], d.Hi[i]))
		}
	}
	if d.Integer {
		return "the integers " + strings.Join(parts, " × ")
	}
	return "the interval " + strings.Join(parts, " × ")
}
