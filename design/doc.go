// Package design holds the contract every design method of featmap
// fulfils and what the methods share: the Method interface and its
// optional interfaces (method.go), how a design runs (Settings:
// settings.go), what it returns (Result, Step: result.go) and the set of
// output dimensions a method makes, with the refusals a spec gets for the
// others (Dims, DimsFor, ClosedFormDims: dims.go). It holds no method:
// those live in packages named for what they hold (chum: Chum's LP
// designer and the methods chum and harmonic; homogeneous; multidim).
//
// # Writing a method
//
// A method is a value that carries its options, in one file of its
// package: an options struct whose fields carry yaml tags (the spec keys)
// and optional spec tags with their limits (spec:"positive",
// spec:"min=3,max=20000", spec:"enum=a|b", spec:"nonempty",
// spec:"maxlen=N", spec:"label"; yaml:",inline" for an option group
// several methods share), and a type implementing Method: its Name (the
// spec's method.name), which problems it Applies to (and why not the
// others), Options (a pointer to its options, which the spec decoder
// fills), which Dims it makes for a problem, and Design, which makes a
// map of exactly the dimension asked for and returns it in a Result, with
// the intermediate Steps of an optimising method. Design does not verify
// the map: the caller measures it, and the steps, against the problem's
// reference (fmap.Problem.Reference). The zero value of every option
// means its documented default.
//
// A method is registered by one line in package registry, a
// constructor returning a new value, its options zero
// (the defaults). From the registry come the spec's method names and their
// messages, the decoding of options, comparison labels and option
// descriptions, the spec's JSON Schema and the README's method table.
// docs/ARCHITECTURE.md ("Adding a method") works an example through.
//
// # Optional interfaces
//
// A method implements only those it needs:
//
//   - Defaulter (on the options struct): defaults that do not depend on
//     the problem, filled in so that labels and descriptions show them;
//   - OptionChecker: options that constrain each other or the problem,
//     checked when the spec is read;
//   - TargetChecker: options that fix the dimension (li's k);
//   - FileLoader: options naming files, read when the spec is loaded;
//   - Deprecator: an option a spec should no longer give (li's data),
//     warned of when the spec is loaded;
//   - Incremental: a design of D makes every smaller D on the way (chum),
//     so a max_error search walks D upward instead of bisecting;
//   - WholeRows: a map of an additive kernel takes whole rows (nystroem);
//   - Sizer: a lower bound on the constants a map of dimension D holds,
//     known before the design (gen refuses, before designing, an output
//     that cannot take them);
//   - SeriesMethod: a map of one input that is a single Fourier or
//     series stage (chum, vz, li, chebyshev), which an exp-χ² map's
//     per-coordinate stage can apply to every coordinate (rff's inner);
//   - AutoVarier: variants besides the default that method auto tries
//     (nystroem's);
//   - EvalCoster: maps that cost more than D·n multiply-adds per input to
//     evaluate, priced for the verification budget (MaxVerifiedDim);
//   - Describer: words of its own in a design's description
//     (rff-group-lasso's).
//
// # Learning
//
// A learned map's design starts with learning, by the method's Learner
// (learner.go): it names the spec section it learns from, takes that
// section's options and the problem in a Learning, and returns what it
// learned (the kernel and, where learning makes them, the method and D) in
// a Learned. Package learn holds the learners (rff's and nystroem's σ,
// rff-group-lasso's group lasso); design holds only the contract, so that
// it imports no method. A section decoder's errors (the kernels
// section's, learn.Kernels) are a *SectionError naming the key; the spec
// decoder places it at that key's line.
//
// Their errors about an option are an *OptionError naming the option's
// key (and Other, the key it conflicts with); the spec decoder turns it
// into file:line: method.key: … at the key written last. An option may
// name another method and its dimension (Inner), which the decoder builds
// from the method table it is given (package registry's).
//
// Every method's file asserts the interfaces it implements at compile
// time (var _ design.OptionChecker = (*Chum)(nil)), so that a misspelt
// method name fails the build instead of turning a check off.
//
// # Settings
//
// Settings go down to every method: the LP backend's name (the solver
// registry's, "" for the default; a method that solves LPs looks it up
// there, so that design compiles no solver), where progress goes, how many goroutines a design may use and whether
// it may solve ahead. Design also takes a context.Context, which a method
// checks before each expensive step (an LP, a polish step), so that a
// cancelled or timed-out design ends there.
package design
