// Package vec holds the four-wide AVX forms of the pure-Go solver's row
// operations (solver's axpy and axpy8), in assembly: a package that uses
// cgo, as package solver does with the clp tag, cannot hold Go assembly.
// Each entry gets the same IEEE operations in the same order as in the Go
// loops, so the results are theirs bit for bit (docs/lp-design.md, "Table
// 2 in two minutes", on why the designs need every bit).
package vec
