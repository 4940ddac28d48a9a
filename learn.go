package featmap

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/multidim"
)

// MaxLearnClasses is the most distinct labels learning treats as classes.
const MaxLearnClasses = 256

// learnSigma learns the rbf kernel's σ of a spec with a learn section from
// its data's rows to fit and their labels (learn.validation splits them
// again; the held-out rows, which verify the map, are never seen) with the rff method's sampling, features and
// seed at target.dim, and bakes it into Problem.Kernel.Sigma, so that the
// designed map is the learned one. Labels that are all integers, at most
// MaxLearnClasses distinct values, are classes (one-vs-rest ±1 targets);
// other labels are numeric targets.
func learnSigma(s *Spec) error {
	d := s.Problem.Data
	rows, labels := d.Fit, d.FitLabels
	classes := true
	for _, v := range labels {
		if v != math.Trunc(v) {
			classes = false
			break
		}
	}
	if classes && len(slices.Compact(slices.Sorted(slices.Values(labels)))) > MaxLearnClasses {
		classes = false
	}
	rff, ok := s.Method.Method.(*multidim.RFF)
	if !ok {
		return &SpecError{Path: s.Path, Line: s.Learn.Line, Field: "learn", Msg: "learning σ needs method rff"}
	}
	res, err := multidim.LearnSigma(context.Background(), rows, labels, multidim.LearnOptions{
		Kernel: s.Problem.Kernel, PerAxis: s.Learn.PerAxis, Validation: s.Learn.Validation, Ridge: s.Learn.Ridge,
		Penalty: s.Learn.Penalty, Dim: s.Target.Dim, Sampling: rff.Opts.Sampling, Features: rff.Opts.Features,
		Seed: rff.Opts.Seed, Classes: classes,
	})
	if err != nil {
		return &SpecError{Path: s.Path, Line: s.Learn.Line, Field: "learn", Msg: fmt.Sprintf("learning σ from %s: %v", d.File, err), Err: err}
	}
	s.Problem.Kernel.Sigma = res.Sigma
	s.Learned = &res
	return nil
}
