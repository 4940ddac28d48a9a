package featmap

import (
	"context"
	"fmt"
	"time"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/design/learnplan"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/solver"
	"github.com/featmap/featmap/spec"
)

// run is one run of a loaded spec: the problem, target and method it
// designs, which learning derives from the spec's (a learn section's σ, a
// kernels section's combined kernel and its map's method and dimension)
// without changing them, and what it learned.
type run struct {
	spec    *Spec
	problem *fmap.Problem
	target  *spec.TargetSpec
	method  *spec.MethodSpec
	// learned is what a learn section learned, groupLasso what a kernels
	// section's group lasso learned (nil without them).
	learned    *learn.LearnResult
	groupLasso *learn.GroupLassoResult
	// learnDim is the number of random Fourier features σ was learned
	// with (target.dim for rff; NystroemLearnDim for nystroem).
	learnDim int
	// section is the section learning learned from (nil without
	// learning), which trains the model a learned map carries.
	section *learnSection
	// seed is the seed of the method learning designs for (its Learned's),
	// which a Nyström model's ridge: auto draws its folds by.
	seed int64
	// learnSeconds is learning's wall time.
	learnSeconds float64
}

// newRun learns what the spec asks for, from the rows LoadSpec read: a
// learn section's σ or a kernels section's group lasso, by the method's
// learner (learn.For); a spec without either has nothing to learn, and
// runs its own problem, target and method. Learning waits for this step
// (not LoadSpec), so that loading a spec stays fast (gen can find its
// output fresh without learning), and ctx stops it; set.Say hears how far
// it is. An LP backend set.Solver names that the build does not have is
// refused first, before anything is learned.
func (s *Spec) newRun(ctx context.Context, set Settings) (*run, error) {
	if _, err := solver.Get(set.Solver); err != nil {
		return nil, fmt.Errorf("featmap: %w", err)
	}
	r := &run{spec: s, problem: s.Problem, target: s.Target, method: s.Method}
	if s.Learn == nil && s.GroupLasso == nil {
		return r, nil
	}
	start := time.Now()
	defer func() { r.learnSeconds = time.Since(start).Seconds() }()
	return r, r.learn(ctx, set.Say)
}

// derive returns a problem like the spec's with kernel k: its domain,
// error measure, norm, negative rule and data.
func derive(p *fmap.Problem, k fmap.Kernel) *fmap.Problem {
	return &fmap.Problem{Kernel: k, Domain: p.Domain, Measure: p.Measure, Norm: p.Norm, Negative: p.Negative, Data: p.Data}
}

// learn learns from the spec's data's rows to fit and their labels (the
// held-out rows, which verify the map, are never seen) and designs for
// what was learned. Every learning runs alike: the method's
// design.Learner (learn.For) is handed the options of the section it
// names (learnSection), and what it returns is the kernel designed for
// and, where it made them, the method and D.
//
// A learn section learns the kernel's σ (learn.Sigma, learn.validation
// splitting the rows again) on random Fourier features: for rff with its
// sampling, features and seed at target.dim, so that the designed map is
// the learned one; for nystroem with the kernel's default sampling on
// NystroemLearnDim features, the landmarks then chosen and their kernel
// matrix factored at the learned σ. The labels of a classification task
// (learn.task, or decided by spec.Load) get one-vs-rest ±1 targets; a
// regression's are numeric targets.
//
// A kernels section's group lasso (learn.RFFGroupLasso) learns the
// combined kernel Σ_g d_g K_g over the kept kernels (fmap.Combined), whose
// map the rff-group-lasso method holding their blocks designs, of its
// dimension (dim_per_kernel per kept kernel).
func (r *run) learn(ctx context.Context, say func(string)) error {
	s := r.spec
	sec := s.learnSection()
	learner, ok := learn.For(s.Method.Method)
	if !ok || learner.Section() != sec.name {
		return sec.refuse(sec.needs, nil)
	}
	if sec.progress != "" {
		say(sec.progress)
	}
	res, err := learner.Learn(ctx, design.Learning{Problem: s.Problem, Dim: sec.dim, Options: sec.options, Progress: say})
	if err != nil {
		return sec.wrap(err)
	}
	r.section = &sec
	r.learned, r.groupLasso = learn.Results(res)
	r.problem, r.learnDim, r.seed = derive(s.Problem, res.Kernel), res.LearnDim, res.Seed
	if res.Method == nil {
		return nil
	}
	// The combined kernel has no signature: its error is the absolute
	// kernel error on pairs (what the uniform signature error of a
	// shift-invariant kernel, the default, equals).
	switch r.problem.Measure {
	case fmap.Uniform:
		r.problem.Measure = fmap.Absolute
	case fmap.Relative:
		return sec.refuse("the combined kernel's map is measured by the absolute error: error.measure relative is not supported with kernels", nil)
	}
	m := *s.Method
	m.Method = res.Method
	r.method, r.target = &m, &spec.TargetSpec{Dim: res.Dim}
	return nil
}

// learnSection is the spec section a run learns from, as its learner
// takes it: the section's name (design.Learner's Section), D and options,
// and the run's words about it.
type learnSection struct {
	name    string
	dim     int
	options any
	// needs is the refusal of a method whose learner learns from
	// another section, or that has none.
	needs string
	// progress is said as learning starts ("" for nothing).
	progress string
	// refuse is the section's error with message msg (and err, which it
	// wraps); wrap is what a learning error says: for σ, the spec was
	// checked when it was read (rows, labels, the cost), and what fails
	// now is learning, not the spec (exit 1); the group lasso's are the
	// kernels section's.
	refuse func(msg string, err error) error
	wrap   func(err error) error
	// field and line name the section in the model's errors; ridge is the
	// λ, target coding and λ's origin of the model a learned map carries.
	field string
	line  int
	ridge func(r *run, m *fmap.Map) (lambda float64, classes bool, from string, err error)
}

// learnSection is s's learn section, or else its kernels section.
func (s *Spec) learnSection() learnSection {
	at := func(line int, field string) func(string, error) error {
		return func(msg string, err error) error {
			return &spec.SpecError{Path: s.Path, Line: line, Field: field, Msg: msg, Err: err}
		}
	}
	if l := s.Learn; l != nil {
		return learnSection{
			name: learn.SigmaSection,
			dim:  s.Target.Dim,
			options: learn.LearnOptions{
				Kernel: s.Problem.Kernel, PerAxis: l.PerAxis, Validation: l.Validation, Ridge: l.Ridge, RidgeAuto: l.RidgeAuto,
				Penalty: l.Penalty, SharedFirst: l.PerAxis, Classes: l.Classes(),
			},
			needs:    "learning σ needs method rff or nystroem",
			progress: "learning σ from the labels",
			refuse:   at(l.Line, "learn"),
			wrap:     func(err error) error { return fmt.Errorf("%w (learning from %s)", err, s.Problem.Data.File) },
			field:    "learn",
			line:     l.Line,
			ridge:    sigmaRidge,
		}
	}
	refuse := at(s.GroupLasso.Line, "kernels")
	return learnSection{
		name:    learn.KernelsSection,
		options: kernelGroups(s),
		needs:   "kernels need method rff-group-lasso",
		refuse:  refuse,
		wrap:    func(err error) error { return refuse(err.Error(), err) },
		field:   "kernels",
		line:    s.GroupLasso.Line,
		ridge:   kernelsRidge,
	}
}

// NystroemLearnDim is the number of random Fourier features a nystroem
// design of D landmarks learns σ with (learnplan.NystroemLearnDim).
func NystroemLearnDim(dim int) int { return learnplan.NystroemLearnDim(dim) }

// MinNystroemLearnDim is the fewest random features a nystroem design
// learns σ with (learnplan.MinNystroemLearnDim).
const MinNystroemLearnDim = learnplan.MinNystroemLearnDim

// kernelGroups are the kernels of a spec's kernels section as the group
// lasso takes them.
func kernelGroups(s *Spec) []learn.KernelGroup {
	out := make([]learn.KernelGroup, len(s.GroupLasso.Kernels))
	for i, k := range s.GroupLasso.Kernels {
		out[i] = learn.KernelGroup{Kernel: k.Kernel, Columns: k.Columns}
	}
	return out
}

// trainModel trains the ridge model a learned map m carries
// (learn.Model) with the λ and target coding of the section learning
// learned from (learnSection's ridge).
func (r *run) trainModel(m *fmap.Map) (*fmap.LinearModel, error) {
	s, d, sec := r.spec, r.problem.Data, r.section
	lambda, classes, from, err := sec.ridge(r, m)
	if err != nil {
		return nil, err
	}
	model, err := learn.Model(m, d, classes, lambda)
	if err != nil {
		return nil, fmt.Errorf("%s (%s:%d): %w (training the model on %s)", sec.field, s.Path, sec.line, err, d.File)
	}
	model.RidgeFrom = from
	return model, nil
}

// sigmaRidge is the model's λ after a learn section: learning's (the
// spec's learn.ridge, the parser's default 1e-3 when not given, or with
// ridge: auto the one chosen at the learned σ), for a Nyström map with
// ridge: auto chosen again on the map's own features, not on the random
// features σ was learned with; with the target coding σ was learned by.
func sigmaRidge(r *run, m *fmap.Map) (lambda float64, classes bool, from string, err error) {
	s, d, l := r.spec, r.problem.Data, r.learned
	lambda, classes = l.Ridge, l.Classes != nil
	_, nystroem := m.Stages[0].Kind.(*fmap.Nystroem)
	switch {
	case s.Learn.RidgeAuto && len(m.Stages) == 1 && nystroem:
		if lambda, _, err = learn.ModelRidge(m, d, classes, s.Learn.Validation, r.seed); err != nil {
			return 0, false, "", fmt.Errorf("%w (choosing the model's λ on %s)", err, d.File)
		}
		from = fmap.RidgeValidation
	case s.Learn.RidgeAuto:
		from = fmap.RidgeValidation
	case s.Learn.RidgeLine > 0:
		from = fmap.RidgeGiven
	default:
		from = fmap.RidgeDefault
	}
	return lambda, classes, from, nil
}

// kernelsRidge is the model's λ after a kernels section: on the combined
// map's Ψ (the kept kernels' blocks scaled by √d_g), λ =
// learn.GroupLassoRidge with the group lasso's target coding.
func kernelsRidge(r *run, _ *fmap.Map) (float64, bool, string, error) {
	return learn.GroupLassoRidge, r.groupLasso.Classes != nil, fmap.RidgeFixed, nil
}
