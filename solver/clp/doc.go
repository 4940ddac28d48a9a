// Package clp is the LP backend "clp": a thin cgo binding to COIN-OR CLP's
// dual simplex (the library and its headers: coinor-libclp-dev, found by
// pkg-config). It is compiled only with the build tag clp; without it the
// package is empty. It registers itself with solver.Register when
// initialised (solver/backends imports it under the tag) and serves as the
// reference the pure-Go backend is checked against.
package clp
