// Package featmap is featmap's front door: it loads a spec with the files
// it names (LoadSpec: package spec decodes the YAML, package datafile
// reads the data) and runs it — learning → problem → method → map →
// verification — so that the command line tool and library users share one
// path.
//
// Spec.Design designs the spec's target with its method (method auto:
// every applicable method, Spec.Auto; target.max_error: a search over D),
// Spec.RunComparison every method of a comparison at every dimension (and
// package report renders it). A run first learns what the spec's learn or
// kernels section asks (run.go) and designs for the problem learning
// derives; the spec value never changes, and what was learned travels with
// the design. The methods come from package registry; every map is
// verified once, by fmap.Verify against the problem's reference, and its
// measured errors travel with it (Design.Verification, Design.JSON).
package featmap

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/learn"
	"github.com/featmap/featmap/spec"
)

// Version is featmap's version, recorded in generated files.
const Version = "0.1.0"

// Settings are how a design runs: the LP backend, where progress goes and
// how many goroutines a design may use. The zero value is usable.
type Settings = design.Settings

// Design is one designed and verified map with its provenance.
type Design struct {
	Spec   *Spec
	Method spec.MethodSpec
	// Problem is the problem the map was designed for and verified
	// against: the spec's, or one that learning derived from it (the
	// learned σ, a kernels section's combined kernel).
	Problem *fmap.Problem
	// Learned is what a learn section learned before the design (the
	// kernel's σ), GroupLasso what a kernels section's group lasso
	// learned (the kernels' weights); nil without them.
	Learned    *learn.LearnResult
	GroupLasso *learn.GroupLassoResult
	// LearnDim is the number of random Fourier features σ was learned on
	// (target.dim for rff, more for nystroem: NystroemLearnDim); 0
	// without a learn section.
	LearnDim int
	// Map is the designed map and Verification what was measured of it.
	Map          *fmap.Map
	Verification fmap.Verification
	// Steps are the intermediate designs of an optimising method, each
	// with its measured error; nil for closed forms.
	Steps []Step
	// LPs is the number of linear programs solved.
	LPs int
	// Seconds is the time of the design, verification included: the wall
	// time of the call, or for a design made from remembered ones (chum's
	// continuation) their time too.
	Seconds float64
	// LearnSeconds is the time learning took before the design (a learn
	// or kernels section; 0 without), not counted in Seconds.
	LearnSeconds float64
	// Search is the target.max_error search that chose D (nil for a
	// target.dim).
	Search *Search
	// Auto is the choice method auto made (nil for a named method).
	Auto *AutoChoice
}

// Step is one step of a design pipeline with its measured error (in the
// spec's measure, on the verification set).
type Step struct {
	Name  string
	Map   *fmap.Map
	Error fmap.Measurement
}

// Verified returns the map with its verification and the columns of the
// data file it was designed from (what gen -map writes).
func (d *Design) Verified() fmap.Verified {
	v := d.Verification
	return fmap.Verified{Map: d.Map, Verification: &v, Data: d.dataColumns()}
}

// dataColumns are the columns of the spec's data file the map was designed
// from (nil without a data section).
func (d *Design) dataColumns() *fmap.DataColumns {
	if d.Spec == nil || d.Spec.Spec == nil || d.Spec.Data == nil {
		return nil
	}
	s := d.Spec.Data
	c := &fmap.DataColumns{LabelColumn: s.Label}
	if s.Last >= 0 {
		c.Columns = []int{s.First, s.Last}
	}
	return c
}

// ErrUnreachable reports that target.max_error was not met up to max_dim,
// and ErrInternal a failure that is featmap's fault (a bug or a solver
// breakdown), not the spec's.
var (
	ErrUnreachable = errors.New("target error unreachable")
	ErrInternal    = errors.New("internal error")
)

// Design runs the spec's method for its target (with method auto, every
// applicable method: see Spec.Auto). It learns first what the spec's learn
// or kernels section asks (from the rows LoadSpec read; ctx stops it) and
// designs for the problem learning derives, never changing the spec: what
// was learned travels with the design (Design.Problem, Design.Learned,
// Design.GroupLasso).
//
// With target.max_error it searches the dimensions the method can make up
// to target.max_dim by bracketing and bisection: it designs the smallest D,
// then D doubled (the next D the method makes, target.max_dim last) until a
// map meets max_error, then bisects between the last D that missed and the
// first that met it. A method whose design of D makes every smaller D on
// the way (design.Incremental: chum) is walked upward one D at a time
// instead, which for it costs least. Bisection assumes the error falls as D grows (it
// mostly does; a D skipped between two that missed is never tried); the
// map returned is one that was designed and verified to meet max_error,
// the smallest D found to. Design.Search records every D tried with its
// error and the search's wall time. If no D tried meets it, the error wraps
// ErrUnreachable and names the best D tried. Cancelling ctx stops the
// design at its next LP or polish step.
func (s *Spec) Design(ctx context.Context, set Settings) (*Design, error) {
	r, err := s.newRun(ctx, set)
	if err != nil {
		return nil, err
	}
	return r.design(ctx, set)
}

// design designs the run's target: a target.dim, or the max_error search.
func (r *run) design(ctx context.Context, set Settings) (*Design, error) {
	if r.target == nil || r.method == nil {
		return nil, errors.New("featmap: the spec has no target and method (it is a comparison spec)")
	}
	if r.target.Dim > 0 {
		return r.designAt(ctx, r.target.Dim, set)
	}
	return r.search(ctx, set)
}

// canMake reports whether method m can make a map of dimension dim for
// problem p, and if not, why.
func canMake(p *fmap.Problem, m spec.MethodSpec, dim int) (bool, string) {
	d := design.DimsFor(m.Method, p)
	return d.Has(dim), d.WhyNot(dim)
}

// DesignDim designs a map of exactly dim outputs with method m, after the
// learning the spec asks for (see Design), and verifies it once against
// the problem's reference: the map, and the method's intermediate steps.
// A verified error that is not finite is a failed design, and so is a map
// no better than Ψ = 0 (ErrNoBetterThanZero: a relative Gram error of at
// least 1 on the held-out rows, or without data on the domain); a method that
// returns a map of another dimension, or an invalid one, or panics, is an
// internal error (ErrInternal).
func (s *Spec) DesignDim(ctx context.Context, m spec.MethodSpec, dim int, set Settings) (*Design, error) {
	r, err := s.newRun(ctx, set)
	if err != nil {
		return nil, err
	}
	return r.designDim(ctx, m, dim, set)
}

// designDim is DesignDim for the run's problem; a learned map also gets
// its model (run.trainModel).
func (r *run) designDim(ctx context.Context, m spec.MethodSpec, dim int, set Settings) (d *Design, err error) {
	if ok, why := canMake(r.problem, m, dim); !ok {
		return nil, fmt.Errorf("featmap: %s cannot make D = %d: %s", m.Name(), dim, why)
	}
	ref, err := r.problem.Reference()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	defer func() {
		if p := recover(); p != nil {
			d, err = nil, fmt.Errorf("featmap: %w: %s panicked at D = %d: %v", ErrInternal, m.Name(), dim, p)
		}
	}()
	res, err := m.Design(ctx, r.problem, dim, set)
	switch {
	case err != nil:
		return nil, err
	case res.Map.Dim != dim:
		return nil, fmt.Errorf("featmap: %w: %s made a %d-dimensional map for D = %d", ErrInternal, m.Name(), res.Map.Dim, dim)
	}
	if err := res.Map.Validate(); err != nil {
		return nil, fmt.Errorf("featmap: %w: %s made an invalid map: %v", ErrInternal, m.Name(), err)
	}
	set.Say("verifying")
	verified := time.Now()
	v, err := fmap.VerifyContext(ctx, res.Map, ref)
	if err != nil {
		return nil, err
	}
	d = &Design{Spec: r.spec, Method: m, Problem: r.problem, Learned: r.learned, GroupLasso: r.groupLasso, LearnDim: r.learnDim, Map: res.Map, LPs: res.LPs, Verification: v, LearnSeconds: r.learnSeconds}
	if res.DesignSet != nil {
		d.Verification.Design = fmap.SignatureError(res.Map, ref, res.DesignSet, res.DesignSetOn)
	}
	if e := d.Verification.Reported; !e.Finite() {
		return nil, fmt.Errorf("featmap: %s at D = %d: the verified error (L∞ %v, RMS %v on %s) is not finite", m.Name(), dim, e.LInf, e.RMS, e.On)
	}
	if err := worth(d); err != nil {
		return nil, err
	}
	for _, st := range res.Steps {
		e := d.Verification.Reported
		if st.Map != res.Map {
			v, err := fmap.VerifyContext(ctx, st.Map, ref)
			if err != nil {
				return nil, err
			}
			e = v.Reported
		}
		d.Steps = append(d.Steps, Step{Name: st.Name, Map: st.Map, Error: e})
	}
	d.Seconds = time.Since(start).Seconds()
	if res.Seconds > 0 {
		// The method's own account of a design it made from remembered
		// ones, plus this call's verification.
		d.Seconds = res.Seconds + time.Since(verified).Seconds()
	}
	if r.section != nil {
		// A copy: methods may remember res.Map.
		withModel := *d.Map
		if withModel.Model, err = r.trainModel(&withModel); err != nil {
			return nil, err
		}
		d.Map = &withModel
	}
	return d, nil
}
