// Package learn learns from labelled rows (class labels or numeric
// targets): a kernel's widths, the ridge model a learned map carries, and
// a combination of several kernels. All three work on random Fourier
// features drawn as package sampled draws rff's (sampled.Frequencies, the
// same seeds and samplings), so that a map designed after learning has the
// features that were learned with; learn imports sampled, never the other
// way round.
//
//   - LearnSigma (learn.go drives it): the widths σ of an rbf or skewed
//     kernel, one shared factor or one per input axis, by the validation
//     gradient of Băzăvan, Li and Sminchisescu, "Learning random kernel
//     approximations for object recognition" (§3.2, eqs. 2–9): the uniform
//     draws fixed, the features are smooth in σ; a ridge model is fitted on
//     the training rows of a seeded split and L-BFGS (gonum optimize)
//     minimises the validation error over log σ. learner.go holds the
//     problem (rows, split, targets, the standard frequencies the widths
//     scale, the features a chunk of rows at a time), gradient.go the
//     objective and its closed-form gradient, ridge.go the ridge fits and
//     ridgeauto.go the choice of λ on the validation split (ridge: auto).
//   - Ridge (ridge.go): the same ridge fit on every given row, on any
//     features (the designed map's); Model (model.go) trains it on a
//     designed map's Ψ and measures it on the held-out rows: the model a
//     learned map carries (fmap.LinearModel).
//   - GroupLasso (grouplasso.go): multiple kernel learning (Băzăvan et al.
//     §3.3, eqs. 10, 15 and 16): one block of random features per kernel
//     and column group, a group lasso on their concatenation by FISTA (Beck
//     and Teboulle) on the accumulated ZᵀZ/N, λ chosen by the validation
//     error of the relaxed (refitted) model, and the kernel weights of
//     eq. 16 (KernelWeights).
//   - RFFGroupLasso (rffgrouplasso.go): the registered method
//     rff-group-lasso. Its Learn runs GroupLasso on rff's maps of the
//     kernels and returns the combined kernel Σ_g d_g K_g and a method
//     holding the kept kernels' blocks, whose Design makes the map
//     (fmap.Blocks).
//   - Kernels (kernelsection.go): what a spec's kernels section means —
//     its keys (KernelItem, KernelsMethod: tagged structs, as a method's
//     options), their checks, the kernels' columns against the data's and
//     the domain's, the kernels and rff-group-lasso with its options —
//     the decoder package spec is given for it (spec.UseKernels), which
//     reads the YAML and places the errors, named by key
//     (design.SectionError), at their lines.
//
// Learning is one interface, Learner (learning.go): For gives a method's,
// Sigma (LearnSigma on the features of a SigmaMethod: rff, nystroem) or
// RFFGroupLasso. Nothing here reads YAML (Kernels works on what spec
// decoded): the root package's run of a spec with a learn or a kernels
// section calls its method's Learner and Model, and designs for the
// problem they derive.
package learn
