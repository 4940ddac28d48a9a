// Package fmap holds featmap's central value, Map — a designed feature map
// Ψ: ℝⁿ → ℝᴰ with Ψ(x)·Ψ(y) ≈ K(x, y), as plain data — with everything
// needed to evaluate and measure it: the kernels (Kernel), input domains
// (Domain), the design problem (Problem: kernel, domain, error measure and
// the user's rows, Data; the kernels' parameters are checked key by key,
// KeyError), the reference evaluator (Map.Eval) and error
// measurement (Reference, Verify).
//
// A Map is a short pipeline of stages, each plain data with a reference
// evaluator. A Stage holds one stage kind (StageKind, a closed set: the
// kinds are this package's types, each in its own file) and reads and
// writes JSON as {"<kind>": {…}}:
//
//   - Fourier: cosine maps of one or several inputs, in x or in log x, and
//     their modulation products (Chum's designs, VZ, the harmonic
//     projection);
//   - Series: Li's direct χ² series and the Chebyshev χ² series;
//   - PerCoordinate: a one-input stage applied to every coordinate;
//   - Random: random Fourier features;
//   - Nystroem: kernel values at landmark rows, whitened;
//   - Anchors: tables of values at anchor points, interpolated;
//   - Linear: a projection of the previous stage's output;
//   - Blocks: maps of column groups side by side (a combined kernel);
//   - Polynomial: exact monomials and random sketches of the degrees of
//     a dot-product kernel (the polynomial kernel).
//
// Every design method ends in a Map; code generation, reports and JSON walk
// the stages without knowing which method made it. A Map may carry a linear
// model on its features (LinearModel), the predictor a learned map brings.
//
// The package is the leaf of featmap: besides the standard library it
// imports only internal/vtrig (math's cosines and sines, many at once, bit
// for bit), so that the code generator and the report renderer depend on
// nothing that designs.
package fmap
