package fmap

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
)

// FieldError is a field of a map that does not fit the rest of it
// (Map.CheckKernel): Field is the field's path in the map's JSON, such as
// "kernel.sigma", "kernel.parts[1].weight" or "domain.lo[0]".
type FieldError struct {
	Field string
	Msg   string
}

// Error returns "fmap: Field: Msg".
func (e *FieldError) Error() string { return "fmap: " + e.Field + ": " + e.Msg }

// CheckKernel reports why the map's kernel does not fit the map, or nil: a
// map read from a file is input, and its kernel is held to what a spec's
// kernel is held to (Validate checks the stages, not the kernel). It
// checks
//
//   - the kernel's keys for the map's inputs (Kernel.Check: every key in
//     its range, one σ per input, no key of another kernel);
//   - the domain as the kernel takes it: no negative inputs for a
//     homogeneous or exp-χ² kernel, x + c > 0 for a skewed one, the
//     polynomial kernel's bound (CheckPolyDomain);
//   - a combined kernel on a blocks map only, with one part per block:
//     the block's inputs, its kernel, and the weight Scale²;
//   - a Nyström stage's kernel, which its features compute, is the map's.
//
// Its errors are *FieldError values naming the field.
func (m *Map) CheckKernel() error {
	k := m.Kernel
	if err := k.Check(m.InDim); err != nil {
		var ke *KeyError
		if errors.As(err, &ke) {
			return &FieldError{Field: "kernel." + ke.Key, Msg: ke.Msg}
		}
		return &FieldError{Field: "kernel", Msg: strings.TrimPrefix(err.Error(), "fmap: ")}
	}
	domain := func(err error) error {
		return &FieldError{Field: "domain", Msg: strings.TrimPrefix(err.Error(), "fmap: ")}
	}
	if err := m.Domain.Check(k.Homogeneous() || k.needsNonnegative()); err != nil {
		return domain(err)
	}
	p := &Problem{Kernel: k, Domain: m.Domain}
	if err := p.CheckPolyDomain(); err != nil {
		return domain(err)
	}
	skewed := func(field string, k Kernel, first, last int) error {
		for i := first; i <= last && k.Skewed(); i++ {
			if lo := m.Domain.Lo[i]; !(lo+k.C > 0) {
				return &FieldError{Field: fmt.Sprintf("domain.lo[%d]", i),
					Msg: fmt.Sprintf("%v: %s needs x + c > 0 on the domain, and %s is %v", lo, k.Type, field, k.C)}
			}
		}
		return nil
	}
	if err := skewed("kernel.c", k, 0, m.InDim-1); err != nil {
		return err
	}
	for g, part := range k.Parts {
		if err := skewed(fmt.Sprintf("kernel.parts[%d].kernel.c", g), part.Kernel, part.First, part.Last); err != nil {
			return err
		}
	}
	b := m.Blocks()
	switch {
	case b == nil && k.Type == Combined:
		return &FieldError{Field: "kernel.type", Msg: "combined: the kernel of a blocks map, and this map's stages hold no blocks stage"}
	case b != nil && k.Type != Combined:
		return &FieldError{Field: "kernel.type", Msg: fmt.Sprintf("%s: a blocks map's kernel is combined, one part per block", k.Type)}
	case b != nil:
		if err := m.checkParts(b); err != nil {
			return err
		}
	}
	for i, st := range m.Stages {
		if n, ok := st.Kind.(*Nystroem); ok && !reflect.DeepEqual(n.Kernel, k) {
			return &FieldError{Field: fmt.Sprintf("stages[%d].nystroem.kernel", i),
				Msg: fmt.Sprintf("%s, but the map's kernel is %s: the features compute the stage's", n.Kernel.Describe(), k.Describe())}
		}
	}
	return nil
}

// checkParts reports why the map's combined kernel is not the kernel of
// its blocks b: part g on block g's inputs, with its kernel and the
// weight Scale², to rounding.
func (m *Map) checkParts(b *Blocks) error {
	parts := m.Kernel.Parts
	if len(parts) != len(b.Parts) {
		return &FieldError{Field: "kernel.parts", Msg: fmt.Sprintf("%d parts for the %d blocks of the map's blocks stage", len(parts), len(b.Parts))}
	}
	for g, p := range parts {
		bl := &b.Parts[g]
		bad := func(key, format string, a ...any) error {
			return &FieldError{Field: fmt.Sprintf("kernel.parts[%d].%s", g, key), Msg: fmt.Sprintf(format, a...)}
		}
		switch w := bl.Scale * bl.Scale; {
		case p.First != bl.First || p.Last != bl.Last:
			return bad("first", "inputs %d..%d, but block %d maps inputs %d..%d", p.First, p.Last, g, bl.First, bl.Last)
		case !reflect.DeepEqual(p.Kernel, bl.Kernel):
			return bad("kernel", "%s, but block %d maps %s", p.Kernel.Describe(), g, bl.Kernel.Describe())
		case math.Abs(p.Weight-w) > 1e-12*w:
			return bad("weight", "%v, but block %d's scale %v makes a weight of %v (its square)", p.Weight, g, bl.Scale, w)
		}
	}
	return nil
}

// Undefined says why the kernel of n inputs is not defined at the value v
// of input j, "" where it is: below 0 for a homogeneous kernel and exp-χ²,
// at x + c ≤ 0 for a skewed kernel, beyond PolyBound(n) for the polynomial
// kernel (where its map's values overflow), and for a combined kernel what
// the part that holds input j says. A domain of the kernel lies where it
// is defined; featmap eval measures rows beyond the map's domain but
// refuses values where the kernel is not defined.
func (k Kernel) Undefined(j, n int, v float64) string {
	switch {
	case k.Type == Combined:
		for _, p := range k.Parts {
			if j >= p.First && j <= p.Last {
				return p.Kernel.Undefined(j-p.First, p.Last-p.First+1, v)
			}
		}
	case (k.Homogeneous() || k.Type == ExpChi2) && v < 0:
		return fmt.Sprintf("the %s kernel is defined for x ≥ 0 only", k.Type)
	case k.Skewed() && !(v+k.C > 0):
		return fmt.Sprintf("the %s kernel is defined for x + c > 0 only (c = %v)", k.Type, k.C)
	case k.Type == Poly && !(math.Abs(v) <= k.PolyBound(n)):
		return fmt.Sprintf("the polynomial kernel's map overflows float64 beyond |x| = %.6g", k.PolyBound(n))
	}
	return ""
}
