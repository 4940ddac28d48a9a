// Package backends links every LP backend the build has into a program:
// the pure-Go simplex ("purego", solver/simplex, the default) always, and
// COIN-OR CLP ("clp", solver/clp) with the build tag clp. It holds no code:
// a backend registers itself with solver.Register when its package is
// initialised, and importing this package is what initialises them.
//
// The rule: package solver imports no backend (a backend imports it), so
// a package that solves LPs through solver.Default or solver.Get imports
// this one, once, for effect. chum, which builds and solves every design
// LP (multidim's LP designs run on chum.Fit) and takes the default through
// design.Settings.Backend, does (lp.go), so every package above it — the
// methods, the root package, the CLI — has every backend; solver's own
// tests import it to run the conformance suites against each.
package backends

import _ "github.com/featmap/featmap/solver/simplex" // "purego"
