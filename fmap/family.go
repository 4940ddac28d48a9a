package fmap

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Family is one kind of kernel: its types (Kernel.Type), the keys of a
// kernel section it owns, their checks, its exact value, its signature and
// its words. Every family is one file named for it (homogeneous.go,
// rbf.go, laplacian.go, …; the combined kernel's in blocks.go); Kernel's
// methods dispatch to the family of its type (FamilyOf), and the layers
// above keep their own view of a family in a table keyed by its types
// (sampled's spectral laws, init's starters).
// The set is closed: its methods past Types and Keys are this package's.
type Family interface {
	// Types are the family's kernel types, in documentation order.
	Types() []string
	// Keys are the keys of a kernel section the family owns besides
	// type: gamma, sigma, c, beta, degree, scale, offset, nu or parts.
	Keys() []string
	// check reports why k, of this family, is not a kernel of n input
	// axes: its own keys' ranges, a *KeyError naming the key.
	check(k Kernel, n int) error
	// eval is the exact kernel K(x, y).
	eval(k Kernel, x, y []float64) float64
	// signature is k(λ) (see Kernel.Signature), NaN for none.
	signature(k Kernel, lambda []float64) float64
	// describe names k in words.
	describe(k Kernel) string
	// named names the family's kernels in a message, as the owners of a
	// key: its type, or the group ("the skewed kernels").
	named() string
}

// families are the kernel families, in documentation order.
var families = []Family{homogeneousFamily{}, rbfFamily{}, skewedFamily{}, expChi2Family{}, polyFamily{}, laplacianFamily{}, maternFamily{}, combinedFamily{}}

// Families lists the kernel families, in documentation order.
func Families() []Family { return slices.Clone(families) }

// FamilyOf returns the family of kernel type typ, or nil for an unknown
// type.
func FamilyOf(typ string) Family { return familyByType[typ] }

// familyByType maps every kernel type to its family. It is built once:
// Kernel.Eval asks for a family on every call, and a search of the
// families' Types, each a fresh slice, allocated on each.
var familyByType = func() map[string]Family {
	m := map[string]Family{}
	for _, f := range families {
		for _, typ := range f.Types() {
			if _, dup := m[typ]; dup {
				panic("fmap: kernel type " + typ + " in two families")
			}
			m[typ] = f
		}
	}
	return m
}()

// KernelTypes lists every kernel type the spec decoder reads, in
// documentation order: every family's but the combined kernel's, which
// learning makes.
func KernelTypes() []string {
	var out []string
	for _, f := range families {
		if _, combined := f.(combinedFamily); !combined {
			out = append(out, f.Types()...)
		}
	}
	return out
}

// A KeyHint is a key a kernel section must give, and the words a spec
// that lacks it is told what it takes.
type KeyHint struct {
	Key, Hint string
}

// requirer is a family with keys a spec must give (poly's degree,
// matern's nu), beyond those the decoder knows (sigma, beta).
type requirer interface {
	required() []KeyHint
}

// RequiredKeys lists the keys of kernel type typ's family that a kernel
// section must give, with what each takes (none for most families).
func RequiredKeys(typ string) []KeyHint {
	if r, ok := FamilyOf(typ).(requirer); ok {
		return r.required()
	}
	return nil
}

// vectorKernels are the kernels of vectors, every type of a family but
// the additive (homogeneous) kernels and the combined kernel, in the
// order messages name them (TestVectorKernels holds it to the families).
var vectorKernels = []string{RBF, Laplacian, Matern, Poly, SkewedChi2, SkewedIntersection, ExpChi2}

// VectorKernels lists the kernels of vectors (those a spec may give more
// than one input axis), in the order messages name them.
func VectorKernels() []string { return slices.Clone(vectorKernels) }

// SigmaKernels lists the kernels with a width σ, those whose family owns
// the key sigma (the shift-invariant kernels), in VectorKernels' order.
func SigmaKernels() []string {
	var out []string
	for _, typ := range vectorKernels {
		if owns(typ, "sigma") {
			out = append(out, typ)
		}
	}
	return out
}

// JoinList joins items as a message lists them: "a", "a and b", "a, b
// and c" (conj "and"; "or" for alternatives).
func JoinList(items []string, conj string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + conj + " " + items[len(items)-1]
}

// keyOwners names, for a message, the kernels whose family owns key: the
// families of the kernels of vectors in VectorKernels' order, then the
// others ("rbf, laplacian, matern and the skewed kernels").
func keyOwners(key string) string {
	var order []Family
	for _, typ := range vectorKernels {
		if f := FamilyOf(typ); !slices.Contains(order, f) {
			order = append(order, f)
		}
	}
	for _, f := range families {
		if !slices.Contains(order, f) {
			order = append(order, f)
		}
	}
	var names []string
	for _, f := range order {
		if slices.Contains(f.Keys(), key) {
			names = append(names, f.named())
		}
	}
	return JoinList(names, "and")
}

// owns reports whether the family of typ owns key.
func owns(typ, key string) bool {
	f := FamilyOf(typ)
	return f != nil && slices.Contains(f.Keys(), key)
}

// checkSigma checks one σ in [MinSigma, MaxSigma] per axis of a kernel of
// n input axes.
func checkSigma(k Kernel, n int) error {
	if len(k.Sigma) != n {
		return &KeyError{Key: "sigma", Msg: fmt.Sprintf("has %d values for %d input axes: want one per axis", len(k.Sigma), n)}
	}
	for i, s := range k.Sigma {
		at := ""
		if n > 1 {
			at = "[" + strconv.Itoa(i) + "]"
		}
		if !(s > 0) || math.IsInf(s, 0) {
			return &KeyError{Key: "sigma", Msg: fmt.Sprintf("σ%s must be > 0 and finite, not %v", at, s)}
		}
		if s < MinSigma || s > MaxSigma {
			return &KeyError{Key: "sigma", Msg: fmt.Sprintf("σ%s = %v: %s", at, s, SigmaRange)}
		}
	}
	return nil
}

// sigmaWords is σ in words: every width, or the first when more than four
// are all equal.
func sigmaWords(k Kernel) string {
	sig := make([]string, len(k.Sigma))
	for i, v := range k.Sigma {
		sig[i] = fmt.Sprint(v)
	}
	if len(sig) > 4 && slicesEqual(k.Sigma) {
		sig = sig[:1]
	}
	return strings.Join(sig, ", ")
}
