// Package chum holds Chum's LP designer of feature maps from a sampled
// signature (O. Chum, Low Dimensional Explicit Feature Maps, ICCV 2015,
// §2–§5) and the one-input methods built on it: "chum" (Chum), the LP
// design of a kernel's signature on one axis, and "harmonic" (Harmonic),
// the projection of the signature on a cosine basis (§3, the paper's
// baseline). Package multidim builds its 2- and 3-axis LP designs
// (projection, modulation, tensor-greedy) on the same designer: it makes
// a FitProblem and calls Fit, and designs its per-axis maps by
// Chum.DesignOne.
//
// A FitProblem approximates a signature k(λ) by k̂(λ) = Σ_j α_j φ(ω_j, λ),
// α ≥ 0, with φ a cosine of ω·λ (or a product of per-axis cosines), on an
// evaluation set Z with an error weight at each point and a pool Ω of
// candidate frequencies. A cosine term of frequency ω ≠ 0 takes two
// output dimensions (a cosine and a sine), ω = 0 one (§2); a product of
// per-axis cosines with k nonzero frequencies 2^k (§6.2). For a kernel
// of one input, Chum makes the problem from a fmap.Problem (line.go):
// λ = x − y on [0, M] for the RBF kernel, λ = log(y/x) for the
// homogeneous kernels, whose signature and weight turn the error of k
// into the kernel error the spec asks for (§5); on an integer domain, the
// complete set of attainable λ (ExactSet), of which Z takes the heaviest
// point per cell.
//
// Fit runs the pipeline, each stage a file:
//
//   - the discrete LP and its γ search (§2.1; search.go, chumlp.go): min
//     Σ_ω D_ω α_ω + γ·C(k, k̂) over the pool, C the L∞ or L1 error on Z,
//     solved at γ bracketed by factors of 10 around a start, then
//     bisected in log space until the output's dimension D(γ) is the
//     target; every output is truncated to the target dimension (its
//     largest weights) and kept as a candidate. Large L∞ LPs are solved by
//     row generation (lp.go). With FitProblem.RefineLarge a lone design
//     solves the γ its search will likely take next beside the one it
//     takes now (ahead.go);
//   - the continuous refinement (§4.2; refine.go): from the output that
//     truncates best, each frequency may move within a trust region
//     d_max through its first-order term (the cone encoding of
//     docs/lp-design.md), a γ search again, d_max halved at each of
//     FitOptions.RefineIterations iterations. With the discrete LP, the
//     "paper pipeline";
//   - beyond the paper, unless FitOptions.Polish is off: the refit of the
//     weights on the chosen support, then a joint (ω, α) polish by a
//     trust-region sequential LP (polish.go) from several starts: the
//     best distinct candidates, the problem's ladders of frequencies and
//     random perturbations (starts.go); where the problem has a complete
//     finite set (FitProblem.Exact: an integer domain's attainable λ, a
//     denser grid of multidim's), the best polish is exchanged against it
//     until its largest error there is on the working set (exchange.go);
//   - the continuation of the design of one dimension less (continue.go,
//     FitProblem.Prev): its terms, with a constant added or turned into a
//     term of tiny frequency and new frequencies above the largest, refit
//     and polished, so that one more dimension never fits worse.
//
// The result is the step of exactly the target dimension with the lowest
// error on the scoring set (fit.go). A Chum value designs D by a chain of
// levels D = 1, …, D, remembered per problem (chain.go): those it lacks
// are explored at once, bounded by Settings.Workers through a gate
// (gate.go), share the γ searches' solves that do not depend on the level
// (cache.go), and are finished in order, each continuing the one below.
// With ChumOptions.Continuation false a Chum designs D alone (DesignOne).
//
// docs/lp-design.md records the formulation, the measurements behind
// these choices and the figures of the runs they come from.
package chum
