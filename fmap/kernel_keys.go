package fmap

import (
	"fmt"
	"slices"
	"strings"
)

// KeyError is a bad value of one key of a kernel's section (the spec's
// kernel.degree, kernel.sigma, …, a map file's map.kernel.sigma):
// Kernel.Check returns one for every kernel, so that the spec decoder can
// report it at the key, as "file:line: kernel.Key: Msg", and featmap eval
// at the map file's field.
type KeyError struct {
	// Key is the key within the kernel section: type, gamma, sigma, c,
	// beta, degree, scale, offset, nu, or parts (a combined kernel's,
	// parts[g]… for part g's).
	Key string
	// Msg says what is wrong, e.g. "must be an integer from 1 to 8, not 9".
	Msg string
}

// Error returns "fmap: kernel.Key: Msg".
func (e *KeyError) Error() string { return "fmap: kernel." + e.Key + ": " + e.Msg }

// checkKeys checks the keys of a kernel of n input axes: that no key of
// another family is set, then its family's own, each in its range (its
// file says which: homogeneous.go, rbf.go, …). Every error is a *KeyError
// naming the key.
func (k Kernel) checkKeys(n int) error {
	bad := func(key, format string, a ...any) error { return &KeyError{Key: key, Msg: fmt.Sprintf(format, a...)} }
	f := FamilyOf(k.Type)
	if f == nil {
		return bad("type", "unknown kernel %q (want one of %s)", k.Type, strings.Join(KernelTypes(), ", "))
	}
	// Keys of other kernels, set on this one; the families say whose.
	other := []struct {
		key string
		set bool
	}{
		{"gamma", k.Gamma != 0},
		{"c", k.C != 0},
		{"beta", k.Beta != 0},
		{"degree", k.Degree != 0},
		{"scale", k.Scale != 0},
		{"offset", k.Offset != 0},
		{"nu", k.Nu != 0},
		{"sigma", len(k.Sigma) > 0},
		{"parts", len(k.Parts) > 0},
	}
	for _, o := range other {
		if o.set && !slices.Contains(f.Keys(), o.key) {
			return bad(o.key, "%s is a key of %s; %s has none", o.key, keyOwners(o.key), k.Type)
		}
	}
	return f.check(k, n)
}
