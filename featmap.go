// Package featmap is featmap's front door: it decodes YAML specs
// (ParseSpec, LoadSpec) and runs them — spec → problem → method → map →
// verification — so that the command line tool and library users share one
// path.
//
// A spec names a kernel, an input domain, an error measure and either a
// target (dimension or error) with a method, or a comparison of several
// methods and dimensions. Spec.Design runs one method; Spec.RunComparison
// runs several (and package report renders the comparison). The methods
// come from one registry (MethodNames); every map is verified once, by
// fmap.Verify against the problem's reference, and its measured errors
// travel with it (Design.Verification).
package featmap

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/design/fmap"
)

// Version is featmap's version, recorded in generated files.
const Version = "0.1.0"

// Settings are how a design runs: the LP backend, where progress goes and
// how many goroutines a design may use. The zero value is usable.
type Settings = design.Settings

// Design is one designed and verified map with its provenance.
type Design struct {
	Spec   *Spec
	Method MethodSpec
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
}

// Step is one step of a design pipeline with its measured error (in the
// spec's measure, on the verification set).
type Step struct {
	Name  string
	Map   *fmap.Map
	Error fmap.Measurement
}

// Verified returns the map with its verification.
func (d *Design) Verified() fmap.Verified {
	v := d.Verification
	return fmap.Verified{Map: d.Map, Verification: &v}
}

// ErrUnreachable reports that target.max_error was not met up to max_dim,
// and ErrInternal a failure that is featmap's fault (a bug or a solver
// breakdown), not the spec's.
var (
	ErrUnreachable = errors.New("target error unreachable")
	ErrInternal    = errors.New("internal error")
)

// Design runs the spec's method for its target. With target.max_error it
// designs the dimensions the method can make, 1, 2, … up to
// target.max_dim, and returns the first map whose measured error meets it;
// if none does, the error wraps ErrUnreachable. Cancelling ctx stops the
// design at its next LP or polish step.
func (s *Spec) Design(ctx context.Context, set Settings) (*Design, error) {
	if s.Target == nil || s.Method == nil {
		return nil, errors.New("featmap: the spec has no target and method (it is a comparison spec)")
	}
	if s.Target.Dim > 0 {
		return s.DesignDim(ctx, *s.Method, s.Target.Dim, set)
	}
	dims := design.DimsFor(s.Method, s.Problem)
	var best *Design
	for dim := 1; dim <= s.Target.MaxDim; dim++ {
		if !dims.Has(dim) {
			continue
		}
		set.Say(fmt.Sprintf("target max_error %g: trying D = %d", s.Target.MaxError, dim))
		d, err := s.DesignDim(ctx, *s.Method, dim, set)
		if err != nil {
			return nil, err
		}
		if d.Verification.Reported.LInf <= s.Target.MaxError {
			return d, nil
		}
		if best == nil || d.Verification.Reported.LInf < best.Verification.Reported.LInf {
			best = d
		}
	}
	if best == nil {
		return nil, fmt.Errorf("%w: %s makes no dimension up to max_dim %d", ErrUnreachable, s.Method.Name(), s.Target.MaxDim)
	}
	return nil, fmt.Errorf("%w: the best map up to max_dim %d has error %.4g at D = %d, above max_error %g",
		ErrUnreachable, s.Target.MaxDim, best.Verification.Reported.LInf, best.Map.Dim, s.Target.MaxError)
}

// CanMake reports whether method m can make a map of dimension dim for the
// spec's problem, and if not, why.
func (s *Spec) CanMake(m MethodSpec, dim int) (bool, string) {
	d := design.DimsFor(m, s.Problem)
	return d.Has(dim), d.Why
}

// DesignDim designs a map of exactly dim outputs with method m and
// verifies it once against the problem's reference: the map, and the
// method's intermediate steps. A verified error that is not finite is a
// failed design; a method that returns a map of another dimension, or an
// invalid one, or panics, is an internal error (ErrInternal).
func (s *Spec) DesignDim(ctx context.Context, m MethodSpec, dim int, set Settings) (d *Design, err error) {
	if ok, why := s.CanMake(m, dim); !ok {
		return nil, fmt.Errorf("featmap: %s cannot make D = %d: %s", m.Name(), dim, why)
	}
	ref, err := s.Problem.Reference()
	if err != nil {
		return nil, err
	}
	start := time.Now()
	defer func() {
		if r := recover(); r != nil {
			d, err = nil, fmt.Errorf("featmap: %w: %s panicked at D = %d: %v", ErrInternal, m.Name(), dim, r)
		}
	}()
	res, err := m.Design(ctx, s.Problem, dim, set)
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
	d = &Design{Spec: s, Method: m, Map: res.Map, LPs: res.LPs, Verification: fmap.Verify(res.Map, ref)}
	if res.DesignSet != nil {
		d.Verification.Design = fmap.SignatureError(res.Map, ref, res.DesignSet, res.DesignSetOn)
	}
	if r := d.Verification.Reported; !r.Finite() {
		return nil, fmt.Errorf("featmap: %s at D = %d: the verified error (L∞ %v, RMS %v on %s) is not finite", m.Name(), dim, r.LInf, r.RMS, r.On)
	}
	for _, st := range res.Steps {
		e := d.Verification.Reported
		if st.Map != res.Map {
			e = fmap.Verify(st.Map, ref).Reported
		}
		d.Steps = append(d.Steps, Step{Name: st.Name, Map: st.Map, Error: e})
	}
	d.Seconds = time.Since(start).Seconds()
	if res.Seconds > 0 {
		// The method's own account of a design it made from remembered
		// ones, plus this call's verification.
		d.Seconds = res.Seconds + time.Since(verified).Seconds()
	}
	if s.Learned != nil {
		// A copy: methods may remember res.Map.
		withModel := *d.Map
		if withModel.Model, err = trainModel(s, &withModel); err != nil {
			return nil, err
		}
		d.Map = &withModel
	}
	return d, nil
}
