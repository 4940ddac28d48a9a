// Package simplex is featmap's pure-Go LP backend, "purego", the default of
// package solver: a bounded dual and primal simplex whose basis is held
// through its kernel, with verdicts it certifies. It registers itself with
// solver.Register when initialised (solver/backends imports it); nothing
// else of it is exported. docs/lp-design.md records why it is built this
// way and what was measured ("Shape of the LPs, and what it suggests for a
// solver", "Table 2 in two minutes", "The pure-Go solver's verdicts on
// badly scaled LPs").
//
// # Shape
//
// featmap's LPs have many more rows than columns (|Z| evaluation points
// against |Ω| frequencies) and a dense matrix. With a row activity r = Ax
// per row, a simplex basis of the bounded problem has m basic variables;
// most of them are row activities. If S is the set of basic columns and T
// the set of rows whose activity is nonbasic (at a bound), then |S| = |T| =
// k ≤ min(m, n) and the whole basis is represented by the k×k kernel
// K = A[T, S]: every FTRAN, BTRAN and pivot row needs only K⁻¹ and products
// with A. G = K⁻¹ is kept explicitly, updated in O(k²) per pivot (the
// kernel grows, shrinks, or has a row or column replaced) and refactorised
// from scratch periodically (kernel.go). A pivot then costs O((m + n)·k)
// instead of the O(m²) of an m×m basis; on featmap's LPs k stays at the
// number of frequencies in use. This is the primal simplex on the dual that
// docs/lp-design.md measured (an n×n basis whose non-unit part is small),
// written as a dual simplex on the primal so that general bounds, free and
// fixed variables, ranged and equality rows all fit one framework. A
// simplex keeps A dense, twice (by columns and by rows), in buffers pooled
// between solves (simplex.go).
//
// # Scaling
//
// A badly scaled LP (one geometric pass narrows max/min of |A| at least
// 16×) is solved scaled by powers of two, exactly, with tolerances that
// stand for the unscaled ones, and unscaled after (scale.go). If the scaled
// solve fails, or its optimum's unscaled reduced costs are not optimal, the
// problem is solved as given from the basis it reached, and after a
// failure from that warm basis, once more from the slack basis
// (backend.go).
//
// # Algorithm
//
// From a dual feasible start (featmap's design LPs: nonnegative costs and
// variables, so the all-slack basis qualifies) the dual simplex runs, on
// costs perturbed against dual degeneracy, with Dantzig pricing (dual
// Devex once a solve runs long, if Options.Devex asks for it) and a
// two-pass Harris ratio test (dual.go). Otherwise the primal simplex runs,
// with a composite phase 1 (minimising the sum of infeasibilities) when
// the start is not primal feasible, and Bland's rule after a run of
// degenerate pivots (primal.go). After either, the kernel is refactorised,
// x and the duals are recomputed from scratch and both feasibilities are
// re-checked; a residual infeasibility of either kind sends the solve to
// the appropriate simplex again, and a kernel that became singular is
// repaired by dropping its dependent columns or the basis restarts from
// slack (iterate.go). The returned x is a vertex: nonbasic variables sit at
// a bound (or at zero if free). The row operations round every product
// before adding it, in AVX assembly where the processor has it
// (vector.go, solver/internal/vec), so that a solve takes the same pivots
// on every platform (docs/lp-design.md, "Fused multiply-adds").
//
// # Warm starts and row generation
//
// Options.WarmStart installs a basis (from either backend) that fits the
// problem's shape and whose kernel factorises; otherwise the solve starts
// from the slack basis. Since the kernel holds only the basic columns and
// the rows at a bound, a caller that adds rows to a solved LP — design's
// row generation adds the points the last solution violates — passes the
// last basis with the new rows' activities basic: the kernel is the same,
// the start stays dual feasible, and the dual simplex absorbs the new rows
// in a few pivots. A warm basis on a problem whose matrix has moved (a
// polish's next step) is neither primal nor dual feasible; with
// Options.ShiftedStart the dual simplex runs on costs shifted to make it
// dual feasible and the primal simplex then removes the shift, instead of
// the primal simplex's phase 1.
//
// # Certification
//
// The simplex decides with tolerances, which on an LP whose numbers span
// many orders of magnitude can be wrong; so no verdict is reported on the
// simplex's word alone (certify.go). "Infeasible" needs a Farkas multiplier
// (farkas.go) and "unbounded" an improving ray (ray.go) that pass a check
// on the problem as given with every rounding bounded, or, on a small
// kernel, the ray built and checked in rational arithmetic (exact.go). An
// optimum's vertex and duals are refined where they lost accuracy
// (optimum.go), checked against reduced costs within the tolerance that
// hide a ray or a long improving step (faint.go), and on an ill-conditioned
// small kernel rebuilt exactly (exact.go). A verdict that fails its check
// becomes NumericalFailure, an honest "gave up", never a wrong answer.
package simplex
