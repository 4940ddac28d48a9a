// Package sampled designs the feature maps built from samples rather than
// by an LP: random Fourier features, whose frequencies are drawn from the
// kernel's spectral law, and the two maps learned from the data's rows,
// PCA of random features and Nyström maps (which take the polynomial
// kernel too: it needs only exact kernel values). Each is a design.Method of any
// number of inputs:
//
//   - rff (RFF, rff.go): Ψ(x) = [cos ω_i·t(x), sin ω_i·t(x)]/√m (cos-sin
//     features, D = 2m) or √(2/D)·cos(ω_i·t(x) + b_i) (phase features),
//     t(x) = x or log(x + c), one fmap.Random stage (Rahimi and Recht,
//     "Random features for large-scale kernel machines", 2007; the
//     quantile parametrisation of Băzăvan, Li and Sminchisescu, "Learning
//     random kernel approximations for object recognition", §2 and
//     Table 1). exp-χ² is a two-stage map (Li, Lebanon and Sminchisescu,
//     "A linear approximation to the χ² kernel with geometric
//     convergence", Algorithm 2): an fmap.PerCoordinate stage applies a
//     one-input χ² map ψ (designed by the method of rff's inner option) to
//     every coordinate, then Gaussian random features of width 1/√(2β) act
//     on the concatenation [ψ(x_1), …, ψ(x_n)].
//   - rf-pca (RFPCA, rfpca.go): m random features z(x) of rff, the second
//     moment Z′Z accumulated over the data's rows to fit a chunk at a time,
//     and Ψ(x) = U_kᵀ z(x) (or U_kᵀ(z(x) − z̄), centred) by its k = D leading
//     eigenvectors: rff's stages and an fmap.Linear stage (Li et al. §6,
//     Algorithms 3–5).
//   - nystroem (Nystroem, nystroem.go): Ψ(x) = W^{+1/2}·[K(x, l_1) …
//     K(x, l_D)] for D landmarks l_j chosen among the data's rows to fit
//     (k-means, k-means++ or distinct random rows), W the landmarks' kernel
//     matrix: one fmap.Nystroem stage (Williams and Seeger, 2001; k-means
//     landmarks: Zhang, Tsang and Kwok, 2008). It needs only the exact
//     kernel, so it also takes the additive kernels, whose landmarks are
//     whole rows. With n_landmarks m > D: m landmarks and the top D
//     eigenvectors U of their features' second moment on the rows to fit,
//     folded into the stage's D × m projection Uᵀ·W^{+1/2} (near the
//     kernel-PCA limit of those rows; kmeans.go holds the landmark choice);
//     with m at least the rows to fit, the rows themselves and kernel PCA
//     of them.
//   - polynomial (Polynomial, polynomial.go): the polynomial kernel's
//     exact monomials, their principal directions with data, or exact
//     degrees and TensorSRHT sketches sized for typical inputs of the box.
//
// The maps drawn from samples (rff, rf-pca, the polynomial sketches) are
// shrunk on points of their design (shrink.go): c·Ψ, c² the least Gram
// error on the rows to fit, or without data just enough to beat Ψ = 0 on
// the box (docs/rff.md, "Shrinkage").
//
// The spectral laws (laws.go) are one-dimensional laws of frequencies
// given by their quantile h(u), a frequency coordinate being h(u) for u
// uniform on (0, 1) (docs/formulas.md §5.1): GaussianLaw for rbf (and
// exp-χ²'s outer stage), h(u) = Φ⁻¹(u)/σ; SkewedChi2Law for skewed χ², the
// hyperbolic secant law, h(u) = (2σ/π) log tan(πu/2); SkewedIntersectionLaw
// for skewed intersection, the Cauchy law, h(u) = σ tan(π(u − ½));
// LaplacianLaw for the Laplacian kernel, the Cauchy law of scale 1/σ.
// KernelLaw names the law of each kernel (spectra, one entry a kernel). The Matérn kernel's law is not
// a product over the inputs but the multivariate t law of 2ν degrees of
// freedom scaled by 1/σ, a Gaussian scale mixture that its entry in
// spectra draws whole (KernelFrequencies) from n + 2ν normals per
// frequency. The samplings (sampling.go)
// draw the uniforms u: random (independent), qmc (a shifted Kronecker
// sequence, stratified per coordinate) and orthogonal (blocks of
// orthogonal Gaussian directions with χ-distributed norms: Yu et al.,
// "Orthogonal random features", 2016; the spherical laws only, Spherical:
// Gaussian, and Matérn's, whose radii are a Latin hypercube over the
// frequencies). Frequencies is
// what rff and the learning of σ (package learn) both draw by, so that a
// map designed with a learned σ has the features it was learned with.
//
// Adding a kernel's law: fmap gives the kernel its exact values and says
// it is shift-invariant (Kernel.ShiftInvariant; its argument t(x),
// Kernel.T, is x or log(x + c)); spectra (laws.go) gets an entry with the law's
// quantile, a function of u in (0, 1) that stays finite and exact in the
// tails (see SkewedIntersectionLaw). rff then draws it with random and qmc
// sampling. Orthogonal sampling draws spherical laws only: a kernel whose
// law is a product of one-axis laws says so in its entry (Spherical), which
// DefaultSampling, RFF.CheckOptions and package learn's newLearner
// consult. Learning σ scales standard frequencies drawn at σ = 1 by 1/σ
// (rbf, laplacian) or σ (skewed); a law of another scale family says so
// there.
//
// docs/rff.md gives the defaults and the measurements behind them,
// docs/nystroem.md the landmarks, the k-means spaces and the additive
// kernels' verification.
package sampled
