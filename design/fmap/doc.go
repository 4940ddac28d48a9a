// Package fmap holds featmap's central value, Map — a designed feature map
// Ψ: ℝⁿ → ℝᴰ with Ψ(x)·Ψ(y) ≈ K(x, y), as plain data — with everything
// needed to evaluate and measure it: the kernels (Kernel), input domains
// (Domain), the design problem (Problem: kernel, domain and error measure),
// the reference evaluator (Map.Eval) and error measurement (Reference,
// Verify).
//
// A Map is a short pipeline of stages, each plain data with a reference
// evaluator: a Fourier stage (Chum's cosine maps in one or several inputs,
// in x or in log x, and their modulation products) or a series stage (Li's
// direct χ² series, the Chebyshev χ² series). Every design method ends in a
// Map; code generation, reports and JSON walk the stages without knowing
// which method made it.
//
// The package is a leaf: it imports only the standard library, so that the
// code generator and the report renderer depend on nothing else of featmap.
package fmap
