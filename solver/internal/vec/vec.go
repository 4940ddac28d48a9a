// Package vec holds the four-wide AVX forms of the pure-Go solver's row
// operations (solver/simplex's axpy and axpy8), in assembly. It is a
// package of its own because the simplex shared package solver with the
// cgo CLP binding when it was written, and a package that uses cgo cannot
// hold Go assembly; under solver/internal it stays the solver tree's.
// Each entry gets the same IEEE operations in the same order as in the Go
// loops, so the results are theirs bit for bit (docs/lp-design.md, "Table
// 2 in two minutes", on why the designs need every bit).
package vec
