// Package spec reads featmap's YAML specs into an immutable value: Parse
// decodes and validates a spec's content, Load reads a spec file and the
// files it names (its methods' option files, its data file through
// package datafile), and nothing changes the Spec afterwards.
//
// A spec names a kernel (or, with kernels, several on column groups of
// the data), an input domain, an error measure, and either a target with a
// method or a comparison of methods at several dimensions, optionally a
// data file, a learn section and an emit section (docs/spec.md). Decoding
// is strict: every mapping is decoded into a tagged struct (decode.go:
// unknown and duplicate keys refused, with a suggestion for a typo;
// fields.go: the `yaml` and `spec` tags), the sections are read in
// parse.go (name, emit, learn, data), problem.go (kernel, domain, error),
// shape.go (target and method, or compare; a method's options decoded
// into its options struct) and kernels.go (the kernels section and its
// method section, decoded into the structs of the kernels decoder it is
// given), and every error is a *SpecError naming the file, the line and
// the key path (file:line: key: message).
//
// The methods come from a table it is given (methods.go: UseMethods;
// package featmap gives package registry's), and the meaning of a kernels
// section from a decoder it is given (kernels.go: KernelsDecoder,
// UseKernels; package featmap gives package learn's Kernels), so that
// reading a spec compiles no method's package; their options and the
// kernels decoder's items are plain structs whose tags this package reads,
// for decoding, for the JSON Schema of specs (schema.go: Schema,
// docs/spec.schema.json) and for the labels that tell methods apart
// (labels.go: MethodLabels). The decoder's errors name keys
// (design.SectionError), which this package places at their lines. This is
// the only package of featmap that reads YAML.
package spec
