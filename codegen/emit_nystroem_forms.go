package codegen

import (
	"github.com/dave/jennifer/jen"
)

// The dense forms of the Nyström kernels: how a kernel's values K(x, l_j)
// come out of one product of a tile of rows with the packed landmarks.
// A kernel's form is its family's business (kernelCode.nysDense); the
// emitter of a dense Nyström map (emit_nystroem_dense.go) writes the
// preparation of the rows, the packed constants and the product of the
// form, then the form's values over each row of the product's tile.

// nysProduct is the product of a dense Nyström form.
type nysProduct int

const (
	// nysParts: the scaled squared distance from its parts, d² = q +
	// ‖l_j − c‖² − g_j, g_j = Σᵢ tᵢ·2s2ᵢ(l_ji − cᵢ) by featmapDenseMul64,
	// t = x − c and q = Σᵢ s2ᵢtᵢ².
	nysParts nysProduct = iota
	// nysL1: minus the L1 distances of t = (x − c)/σ to the scaled
	// landmarks (l_j − c)/σ, by featmapDenseNegL1Dist64.
	nysL1
	// nysSq: minus the squared distances of t = (x − c)/σ to the scaled
	// landmarks, each difference itself squared, by
	// featmapDenseNegSqDist64.
	nysSq
	// nysDot: the dot products x·l_j by featmapDenseMul64 (no centre).
	nysDot
)

// nysForm is a kernel's dense Nyström form.
type nysForm struct {
	prod nysProduct
	// half: nysParts' factors are s2 = 1/(2σ²) (else 1/σ²).
	half bool
	// values are the statements that turn row, a row of the product's
	// tile (a slice of the chunk's landmarks), into the kernel values in
	// place; nl is the chunk's norms ‖l_j − c‖² and q the row's q (both
	// nysParts' only).
	values func(e *emitter, row func() *jen.Statement, nl, q jen.Code) []jen.Code
	// words say how the kernel values come from the product, for the
	// header; bound states each kernel value's error against the exact
	// K(x, l_j).
	words, bound string
	// prod32 and values32 are the float32 path's product and values
	// (emit_nystroem_dense32.go), as prod and values; values32 nil: no
	// float32 path.
	prod32   nysProduct
	values32 func(e *emitter, row func() *jen.Statement, nl, q jen.Code) []jen.Code
	// eval32 computes at generation time, as the emitted float32 path
	// does, the d components of one row from t and the packed scaled
	// landmarks lp and projection pp (m landmarks of n inputs), so that
	// gen measures that path (dist32Plan); nil for the forms the distance
	// plan does not take.
	eval32 func(dst, t, lp, pp []float32, m, n, d int)
	// lines32 describes the float32 path in the header (nys32Lines);
	// every form with values32 has one.
	lines32 func(q *nystroemKind, e *emitter) string
	// posK: the kernel values are positive (the header's component bound
	// writes K_j for |K_j|).
	posK bool
}

// nysRow binds row, an expression, to the variable row for a form's
// values that index it, and returns the variable.
func nysRow(row func() *jen.Statement) (jen.Code, func() *jen.Statement) {
	return jen.Id("row").Op(":=").Add(row()), func() *jen.Statement { return jen.Id("row") }
}

// Statements of the forms' values shared by several kernels.

// nysExp is the values of the Laplacian form: K = exp(−s) of minus the
// L1 distance the product leaves.
func nysExp(e *emitter, row func() *jen.Statement, _, _ jen.Code) []jen.Code {
	return []jen.Code{jen.Id("featmapDenseExp64").Call(row(), row())}
}

// nysExp32 is the float32 values of the Laplacian form: K = exp(−s) by
// featmapDenseExp32.
func nysExp32(e *emitter, row func() *jen.Statement, _, _ jen.Code) []jen.Code {
	return []jen.Code{jen.Id("featmapDenseExp32").Call(row(), row())}
}

// nysPartsD2 is d² = q + ‖l_j − c‖² − g_j in place of the product g of a
// row, the sum featmapDenseExpDist64 forms (clamped at 0 by the kernel's
// function after it); it returns the statements and the row's variable.
func nysPartsD2(row func() *jen.Statement, nl, q jen.Code) ([]jen.Code, func() *jen.Statement) {
	bind, r := nysRow(row)
	return []jen.Code{
		bind,
		jen.Id("nl").Op(":=").Add(nl),
		jen.For(jen.List(jen.Id("j"), jen.Id("g")).Op(":=").Range().Add(r())).Block(
			r().Index(jen.Id("j")).Op("=").Add(q).Op("+").Id("nl").Index(jen.Id("j")).Op("-").Id("g"),
		),
	}, r
}

// nysNegate turns minus the squared distances of a row into the squared
// distances; it returns the statements and the row's variable.
func nysNegate(row func() *jen.Statement) ([]jen.Code, func() *jen.Statement) {
	bind, r := nysRow(row)
	return []jen.Code{
		bind,
		jen.For(jen.List(jen.Id("j"), jen.Id("v")).Op(":=").Range().Add(r())).Block(
			r().Index(jen.Id("j")).Op("=").Op("-").Id("v"),
		),
	}, r
}
