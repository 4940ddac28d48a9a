package spec

import (
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/featmap/featmap/fmap"
	"gopkg.in/yaml.v3"
)

// This file reads the sections that make the spec's problem: kernel,
// domain and error.

// kernel reads the kernel section; sigma's node is returned for p.sigma.
func (p *parser) kernel(top *mapping, n kv, pr *fmap.Problem) (*yaml.Node, error) {
	types := fmap.KernelTypes()
	if n.V == nil {
		return nil, p.missing(top, "kernel", "a mapping with type: "+strings.Join(types, " | "))
	}
	var d kernelDoc
	m, err := p.section(n.V, "kernel", &d)
	switch {
	case err != nil:
		return nil, err
	case d.Type == "":
		return nil, p.missing(m, "type", "one of "+strings.Join(types, ", "))
	}
	k := &pr.Kernel
	k.Type, k.Gamma, k.C, k.Beta = d.Type, d.Gamma, d.C, d.Beta
	if err := p.kernelKeys(m, d, k); err != nil {
		return nil, err
	}
	homog, sigma := k.Homogeneous(), k.ShiftInvariant()
	g, s := m.keys["gamma"], m.keys["sigma"]
	switch {
	case g != nil && !homog:
		return nil, p.errAt(g, "kernel.gamma", "gamma is the degree of a homogeneous kernel; %s has none%s", k.Type, map[bool]string{true: " (its width is sigma)"}[k.Type == fmap.RBF])
	case homog && g == nil:
		k.Gamma = 1
	case m.keys["c"] != nil && !k.Skewed():
		return nil, p.errAt(m.keys["c"], "kernel.c", "c is the offset of the skewed kernels; %s has none", k.Type)
	case m.keys["beta"] != nil && k.Type != fmap.ExpChi2:
		return nil, p.errAt(m.keys["beta"], "kernel.beta", "beta is the scale of kernel exp-chi2; %s has none", k.Type)
	case m.keys["beta"] == nil && k.Type == fmap.ExpChi2:
		return nil, p.missing(m, "beta", "exp-chi2's scale: a number > 0")
	}
	switch {
	case s == nil && sigma:
		return nil, p.missing(m, "sigma", fmt.Sprintf("the %s width: a number > 0, or one per axis", k.Type))
	case s != nil && !sigma:
		return nil, p.errAt(s, "kernel.sigma", "sigma is the width of kernels %s; %s has none", fmap.JoinList(fmap.SigmaKernels(), "and"), k.Type)
	}
	if d.Sigma.V == nil {
		return nil, nil
	}
	if _, err := p.list(d.Sigma.V, "", ""); err != nil {
		x, err := p.number(d.Sigma.V, "kernel.sigma", true)
		k.Sigma = []float64{x}
		return d.Sigma.V, err
	}
	var f struct {
		Sigma []float64 `yaml:"sigma" spec:"positive"`
	}
	err = p.value(structFields(reflect.ValueOf(&f).Elem())[0], d.Sigma.K, d.Sigma.V, "kernel.sigma")
	k.Sigma = f.Sigma
	return d.Sigma.V, err
}

// newKernelKeys are the keys of the polynomial and Matérn kernels: the
// kernel that owns each is its family's (fmap.Family.Keys).
var newKernelKeys = []string{"degree", "scale", "offset", "nu"}

// keyOwner is the kernel type whose family owns key, the first of its
// types ("" for none).
func keyOwner(key string) string {
	for _, f := range fmap.Families() {
		if slices.Contains(f.Keys(), key) {
			return f.Types()[0]
		}
	}
	return ""
}

// kernelKeys reads the polynomial kernel's degree, scale and offset
// (scale defaults to 1/n, offset to 1, as scikit-learn's gamma and coef0;
// kernelDefaults sets scale once n is known) and the Matérn kernel's nu,
// refuses them on other kernels, and holds them to fmap.Kernel.Check at
// their keys (fmap.KeyError).
func (p *parser) kernelKeys(m *mapping, d kernelDoc, k *fmap.Kernel) error {
	for _, key := range newKernelKeys {
		if owner := keyOwner(key); m.keys[key] != nil && k.Type != owner {
			return p.errAt(m.keys[key], "kernel."+key, "%s is a key of kernel %s; %s has none", key, owner, k.Type)
		}
	}
	for _, r := range fmap.RequiredKeys(k.Type) {
		if m.keys[r.Key] == nil {
			return p.missing(m, r.Key, r.Hint)
		}
	}
	switch {
	case k.Type == fmap.Poly:
		k.Degree, k.Scale, k.Offset = d.Degree, d.Scale, 1
		if m.keys["offset"] != nil {
			k.Offset = d.Offset
		}
		if m.keys["scale"] == nil {
			k.Scale = 1 // the check's stand-in for 1/n, set by kernelDefaults
		}
	case keyOwner("nu") == k.Type:
		k.Nu = d.Nu
	default:
		return nil
	}
	// σ is checked by the decoder (sigma, kernelDefaults) against the
	// domain's axes: hold the other keys here, with σ's count as given.
	c := *k
	if c.ShiftInvariant() {
		c.Sigma = []float64{1} // a stand-in: σ is checked at its key
	}
	if err := c.Check(len(c.Sigma)); err != nil {
		var ke *fmap.KeyError
		if errors.As(err, &ke) && m.keys[ke.Key] != nil {
			return p.errAt(m.value(ke.Key), "kernel."+ke.Key, "%s", ke.Msg)
		}
		return p.errAt(m.node, "kernel", "%s", strings.TrimPrefix(err.Error(), "fmap: "))
	}
	if k.Type == fmap.Poly && m.keys["scale"] == nil {
		k.Scale = 0
	}
	return nil
}

// kernelDefaults sets what the kernel's keys leave to the domain (the
// polynomial kernel's scale 1/n) and refuses a domain where the
// polynomial map's values would overflow, at domain.interval.
func (p *parser) kernelDefaults(top *mapping, pr *fmap.Problem) error {
	k := &pr.Kernel
	if k.Type != fmap.Poly {
		return nil
	}
	if k.Scale == 0 {
		k.Scale = 1 / float64(pr.InDim())
	}
	if err := pr.CheckPolyDomain(); err != nil {
		var ke *fmap.KeyError
		if errors.As(err, &ke) {
			n := top.value("kernel")
			if km, e := p.keys(n, "kernel"); e == nil && km.value(ke.Key) != nil {
				n = km.value(ke.Key)
			}
			return p.errAt(n, "kernel."+ke.Key, "%s", ke.Msg)
		}
		n, field := top.value("domain"), "domain"
		if dm, e := p.keys(n, "domain"); e == nil {
			for _, key := range []string{"interval", "integers"} {
				if dm.value(key) != nil {
					n, field = dm.value(key), "domain."+key
				}
			}
		}
		return p.errAt(n, field, "%s", strings.TrimPrefix(err.Error(), "fmap: "))
	}
	return nil
}

// sigma checks the rbf widths against domain.dims and broadcasts one.
func (p *parser) sigma(n *yaml.Node, pr *fmap.Problem) error {
	dims := pr.InDim()
	switch k := &pr.Kernel; {
	case n == nil:
	case deref(n).Kind != yaml.SequenceNode:
		k.Sigma = slices.Repeat(k.Sigma, dims)
	case len(k.Sigma) != dims:
		return p.errAt(n, "kernel.sigma", "has %d values but domain.dims is %d: give one per axis, or a single number for all", len(k.Sigma), dims)
	}
	for _, s := range pr.Kernel.Sigma {
		if s < fmap.MinSigma || s > fmap.MaxSigma {
			return p.errAt(n, "kernel.sigma", "%g: %s", s, fmap.SigmaRange)
		}
	}
	return nil
}

// domain reads the domain section.
func (p *parser) domain(top *mapping, n kv, pr *fmap.Problem) error {
	if n.V == nil {
		return p.missing(top, "domain", "a mapping with integers: [lo, hi] or interval: [lo, hi]")
	}
	d := domainDoc{Dims: 1}
	m, err := p.section(n.V, "domain", &d)
	if err != nil {
		return err
	}
	homog := pr.Kernel.Homogeneous()
	if d.Dims > 1 && homog {
		return p.errAt(m.value("dims"), "domain.dims", "%s is additive, a sum over input dimensions: dims > 1 needs a kernel of vectors (%s)", pr.Kernel.Type, strings.Join(fmap.VectorKernels(), ", "))
	}
	if err := p.exclusive(m, "integers", "interval", "give exactly one"); err != nil {
		return err
	}
	dom := &pr.Domain
	switch {
	case d.Integers.V != nil && d.Dims != 1:
		return p.errAt(d.Integers.V, "domain.integers", "integer domains have one axis (domain.dims is %d); use interval", d.Dims)
	case d.Integers.V != nil:
		lo, hi, err := p.pair(d.Integers.V, "domain.integers", true)
		if err == nil && homog && lo < 0 {
			err = p.errAt(d.Integers.V, "domain.integers", "lo must be >= 0: homogeneous kernels take no negative inputs (domain.negative says what the map does with them)")
		}
		if err == nil {
			err = p.lowEnd(d.Integers.V, "domain.integers", lo, pr.Kernel)
		}
		if n := hi - lo + 1; err == nil && n > fmap.MaxIntegerInputs {
			err = p.errAt(d.Integers.V, "domain.integers", "%g integers, more than the %d whose every pair the verification can measure; use interval: [%g, %g]", n, fmap.MaxIntegerInputs, lo, hi)
		}
		if err != nil {
			return err
		}
		dom.Integer, dom.Lo, dom.Hi = true, []float64{lo}, []float64{hi}
	case d.Interval.V != nil:
		if err := p.interval(d.Interval.V, d.Dims, pr); err != nil {
			return err
		}
	default:
		return p.errAt(m.node, "domain", "missing integers or interval (exactly one is required)")
	}
	switch k := m.keys["negative"]; {
	case k != nil && !homog:
		return p.errAt(k, "domain.negative", "applies to homogeneous kernels only, not rbf")
	case k != nil:
		pr.Negative = d.Negative
	case homog:
		pr.Negative = fmap.NegativeSign
	}
	if d.Dims > fmap.MaxGridAxes {
		if top, why := fmap.MaxVerifiedDim(pr); top < 1 {
			return p.errAt(m.value("dims"), "domain.dims", "%d inputs: %s, more than the budget at any D: at most %d inputs", d.Dims, why, fmap.MaxVerifiedInputs())
		}
	}
	return nil
}

// minNormal is the smallest normal float64, and maxHomogeneousRatio the
// widest range hi/lo of a homogeneous kernel's interval: log(hi/lo) ≤ 690,
// far beyond any data, with its grids still finite.
const (
	minNormal           = 0x1p-1022
	maxHomogeneousRatio = 1e300
)

// maxExactInteger is the largest integer every float64 holds exactly.
const maxExactInteger = 1 << 53

// pair reads [lo, hi] with lo < hi: integers exact in float64, or finite
// numbers.
func (p *parser) pair(n *yaml.Node, field string, integers bool) (lo, hi float64, err error) {
	want := "a list [lo, hi] of two numbers"
	if integers {
		want = "a list [lo, hi] of two integers"
	}
	items, err := p.list(n, field, want)
	if err == nil && len(items) != 2 {
		err = p.errAt(n, field, "must be %s, not a list of %d", want, len(items))
	}
	var v [2]float64
	for i := 0; err == nil && i < 2; i++ {
		if !integers {
			v[i], err = p.number(items[i], elem(field, i), false)
			continue
		}
		var x int64
		x, err = p.intIn(items[i], elem(field, i), -1<<63, 1<<63-1)
		if err == nil && (x > maxExactInteger || x < -maxExactInteger) {
			err = p.errAt(items[i], elem(field, i), "%d is beyond ±2^53, where float64 no longer holds every integer", x)
		}
		v[i] = float64(x)
	}
	if err == nil && !(v[0] < v[1]) {
		err = p.errAt(n, field, "lo must be < hi")
	}
	return v[0], v[1], err
}

// interval reads domain.interval: one [lo, hi] for every axis, or a list of
// domain.dims pairs.
func (p *parser) interval(n *yaml.Node, dims int, pr *fmap.Problem) error {
	const field = "domain.interval"
	d := &pr.Domain
	items, err := p.list(n, field, "a list [lo, hi] of two numbers")
	if err != nil {
		return err
	}
	first := n // the pair node of the first axis
	if len(items) > 0 && deref(items[0]).Kind == yaml.SequenceNode {
		if len(items) != dims {
			return p.errAt(n, field, "has %d [lo, hi] pairs but domain.dims is %d: give one per axis, or a single [lo, hi] for all", len(items), dims)
		}
		first = items[0]
		for i, it := range items {
			lo, hi, err := p.pair(it, elem(field, i), false)
			if err != nil {
				return err
			}
			d.Lo, d.Hi = append(d.Lo, lo), append(d.Hi, hi)
		}
	} else {
		lo, hi, err := p.pair(n, field, false)
		if err != nil {
			return err
		}
		d.Lo, d.Hi = slices.Repeat([]float64{lo}, dims), slices.Repeat([]float64{hi}, dims)
	}
	if pr.Kernel.Homogeneous() && !(d.Lo[0] > 0) {
		return p.errAt(first, field, "lo must be > 0: it is the smallest nonzero input of a homogeneous kernel (0 always maps to 0; domain.negative says what happens below)")
	}
	if pr.Kernel.Homogeneous() && !(d.Lo[0] >= minNormal && d.Hi[0]/d.Lo[0] <= maxHomogeneousRatio) {
		return p.errAt(first, field, "hi/lo is %g: a homogeneous kernel's map works in log x, and hi/lo must be at most %g, lo at least %g (a normal float64)", d.Hi[0]/d.Lo[0], maxHomogeneousRatio, minNormal)
	}
	for i, lo := range d.Lo {
		node := first
		if deref(first).Kind == yaml.SequenceNode && len(items) == dims && dims > 1 {
			node = items[i]
		}
		if err := p.lowEnd(node, field, lo, pr.Kernel); err != nil {
			return err
		}
	}
	return nil
}

// lowEnd checks an axis's lower end against kernels defined above it:
// exp-chi2 takes no negative inputs, the skewed kernels need x + c > 0.
func (p *parser) lowEnd(n *yaml.Node, field string, lo float64, k fmap.Kernel) error {
	switch {
	case k.Type == fmap.ExpChi2 && lo < 0:
		return p.errAt(n, field, "lo must be >= 0: exp-chi2 takes no negative inputs")
	case k.Skewed() && !p.groups && !(lo+k.C > 0):
		return p.errAt(n, field, "lo + c must be > 0 (the kernel is a function of log(x + c)); lo is %g and kernel.c %g", lo, k.C)
	}
	return nil
}

// errorSection reads the optional error section.
func (p *parser) errorSection(n kv, pr *fmap.Problem) error {
	d := errorDoc{Norm: fmap.LInf, Weight: fmap.Absolute}
	if pr.Kernel.ShiftInvariant() {
		d.Weight = fmap.Uniform
	}
	if n.V != nil {
		m, err := p.section(n.V, "error", &d)
		if err != nil {
			return err
		}
		if d.Weight == fmap.Uniform && !pr.Kernel.ShiftInvariant() && !pr.Kernel.Homogeneous() {
			return p.errAt(m.value("weight"), "error.weight", "uniform is the unweighted signature error, and %s has no signature: use absolute or relative", pr.Kernel.Type)
		}
		l, k, err := pr.Farthest()
		if d.Weight == fmap.Relative && err == nil && !(k >= fmap.MinRelativeKernel) {
			return p.errAt(m.value("weight"), "error.weight", "relative divides by the kernel, which falls to %.2g on this domain (%s): no fit follows it there; use absolute, or a domain where K stays above %g",
				k, pr.FarthestWhere(l), fmap.MinRelativeKernel)
		}
	}
	pr.Norm, pr.Measure = d.Norm, d.Weight
	return nil
}
