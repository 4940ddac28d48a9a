// Package featmap is featmap's front door: it parses YAML specs (ParseSpec,
// LoadSpec) and dispatches them — spec → problem → method → verified Map —
// so that the command line tool and library users share one path.
//
// A spec names a kernel, an input domain, an error measure and either a
// target (dimension or error) with a method, or a comparison of several
// methods and dimensions. Spec.Design runs one method; Spec.RunComparison
// runs several (and package report renders the comparison). Every map is verified on the domain before it is returned:
// its measured errors travel with it (Map.Errors).
package featmap

import (
	"errors"
	"fmt"
	"time"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/homogeneous"
	"github.com/featmap/featmap/multidim"
	"github.com/featmap/featmap/solver"
)

// Version is featmap's version, recorded in generated files.
const Version = "0.1.0"

// RunOptions configure a design run.
type RunOptions struct {
	// Solver is the LP backend (nil: the default, pure Go).
	Solver solver.Backend
	// Progress, if not nil, receives progress messages.
	Progress func(string)
}

func (o RunOptions) solver() solver.Backend {
	if o.Solver == nil {
		return solver.Default()
	}
	return o.Solver
}

func (o RunOptions) progress(msg string) {
	if o.Progress != nil {
		o.Progress(msg)
	}
}

// Design is one designed and verified map with its provenance.
type Design struct {
	Spec   *Spec
	Method MethodSpec
	// Map is the verified map (Map.Errors is set).
	Map *design.Map
	// Stages are the intermediate designs of an optimising method, each
	// with its measured error; nil for closed forms.
	Stages []design.Stage
	// LPs is the number of linear programs solved.
	LPs int
	// Seconds is the wall time of the design, verification included.
	Seconds float64
}

// ErrUnreachable reports that target.max_error was not met up to max_dim.
var ErrUnreachable = errors.New("target error unreachable")

// Design runs the spec's method for its target. With target.max_error it
// designs D = 1, 2, … (the dimensions the method can make) up to
// target.max_dim and returns the first map whose measured error meets it;
// if none does, the error wraps ErrUnreachable.
func (s *Spec) Design(o RunOptions) (*Design, error) {
	if s.Target == nil || s.Method == nil {
		return nil, errors.New("featmap: the spec has no target and method (it is a comparison spec)")
	}
	if s.Target.Dim > 0 {
		return s.DesignDim(*s.Method, s.Target.Dim, o)
	}
	var best *Design
	for dim := 1; dim <= s.Target.MaxDim; dim++ {
		if !s.CanMake(*s.Method, dim) {
			continue
		}
		o.progress(fmt.Sprintf("target max_error %g: trying D = %d", s.Target.MaxError, dim))
		d, err := s.DesignDim(*s.Method, dim, o)
		if err != nil {
			return nil, err
		}
		if d.Map.Errors.Reported.LInf <= s.Target.MaxError {
			return d, nil
		}
		if best == nil || d.Map.Errors.Reported.LInf < best.Map.Errors.Reported.LInf {
			best = d
		}
	}
	if best == nil {
		return nil, fmt.Errorf("%w: %s makes no dimension up to max_dim %d", ErrUnreachable, s.Method.Name, s.Target.MaxDim)
	}
	return nil, fmt.Errorf("%w: the best map up to max_dim %d has error %.4g at D = %d, above max_error %g",
		ErrUnreachable, s.Target.MaxDim, best.Map.Errors.Reported.LInf, best.Map.Dim, s.Target.MaxError)
}

// CanMake reports whether method m can make a map of dimension dim for the
// spec's kernel (VZ and harmonic maps have odd dimensions, Hellinger's exact
// map has one).
func (s *Spec) CanMake(m MethodSpec, dim int) bool {
	switch {
	case dim < 1:
		return false
	case s.Kernel.Type == KernelHellinger:
		return dim == 1
	case m.Name == MethodVZ || m.Name == MethodHarmonic:
		return dim%2 == 1
	case m.Name == MethodLi && len(m.Li.K) > 0:
		return dim == len(m.Li.K)
	}
	return true
}

// DesignDim designs and verifies a map of dimension dim with method m.
func (s *Spec) DesignDim(m MethodSpec, dim int, o RunOptions) (*Design, error) {
	if !s.CanMake(m, dim) {
		return nil, fmt.Errorf("featmap: %s cannot make a %d-dimensional map for kernel %s", m.Name, dim, s.Kernel.Type)
	}
	start := time.Now()
	d := &Design{Spec: s, Method: m}
	var err error
	if s.Kernel.Homogeneous() {
		err = s.designHomogeneous(d, dim, o)
	} else {
		err = s.designRBF(d, dim, o)
	}
	if err != nil {
		return nil, err
	}
	if err := d.Map.Validate(); err != nil {
		return nil, fmt.Errorf("featmap: %s produced an invalid map: %w", m.Name, err)
	}
	d.Seconds = time.Since(start).Seconds()
	return d, nil
}

func (s *Spec) homogeneousProblem(dim int) (homogeneous.Problem, error) {
	k, err := homogeneous.ParseKernel(s.Kernel.Type)
	return homogeneous.Problem{Kernel: k, Gamma: s.Kernel.Gamma, Domain: s.Domain.Design(), Dim: dim, Negative: s.Domain.Negative}, err
}

func (s *Spec) designHomogeneous(d *Design, dim int, o RunOptions) error {
	hp, err := s.homogeneousProblem(dim)
	if err != nil {
		return err
	}
	switch d.Method.Name {
	case MethodChum, MethodHarmonic:
		dp, err := homogeneous.DesignProblem(hp, s.Error.Weight, s.Error.Norm)
		if err != nil {
			return err
		}
		return runSignatureMethod(d, dp, dim, o)
	}
	switch d.Method.Name {
	case MethodVZ:
		d.Map, err = homogeneous.VZ(hp, d.Method.VZ)
	case MethodLi:
		d.Map, err = homogeneous.Li(hp, d.Method.Li)
	case MethodChebyshev:
		d.Map, err = homogeneous.Chebyshev(hp)
	default:
		return fmt.Errorf("featmap: method %q does not apply to kernel %s", d.Method.Name, s.Kernel.Type)
	}
	if err != nil {
		return err
	}
	ref, err := s.Reference()
	if err != nil {
		return err
	}
	o.progress("verifying")
	design.Verify(d.Map, ref)
	return nil
}

func (s *Spec) designRBF(d *Design, dim int, o RunOptions) error {
	if s.Domain.Dims > 1 {
		return s.designMulti(d, dim, o)
	}
	dp, err := design.RBFProblem(s.Kernel.Sigma[0], s.Domain.Design(), s.Error.Weight, s.Error.Norm)
	if err != nil {
		return err
	}
	return runSignatureMethod(d, dp, dim, o)
}

// multiProblem is the spec's multi-dimensional RBF problem.
func (s *Spec) multiProblem() *multidim.Problem {
	return &multidim.Problem{
		Sigma: append([]float64(nil), s.Kernel.Sigma...), Lo: append([]float64(nil), s.Domain.Lo...),
		Hi: append([]float64(nil), s.Domain.Hi...), Measure: s.Error.Weight, Norm: s.Error.Norm,
	}
}

// designMulti runs a multi-dimensional method (Chum §6).
func (s *Spec) designMulti(d *Design, dim int, o RunOptions) error {
	p := s.multiProblem()
	var res *design.Result
	var err error
	switch d.Method.Name {
	case MethodProjection:
		res, err = multidim.Projection(p, dim, d.Method.Multi, o.solver(), o.Progress)
	case MethodModulation:
		res, err = multidim.Modulation(p, dim, d.Method.Multi, o.solver(), o.Progress)
	case MethodTensorGreedy:
		res, err = multidim.TensorGreedy(p, dim, d.Method.Multi, o.solver(), o.Progress)
	default:
		return fmt.Errorf("featmap: method %q does not design %d-dimensional maps", d.Method.Name, s.Domain.Dims)
	}
	if err != nil {
		return err
	}
	d.Map, d.Stages, d.LPs = res.Map, res.Stages, res.LPs
	return nil
}

// runSignatureMethod runs chum or harmonic on a signature problem.
func runSignatureMethod(d *Design, dp *design.Problem, dim int, o RunOptions) error {
	switch d.Method.Name {
	case MethodChum:
		res, err := design.Chum(dp, dim, d.Method.Chum, o.solver(), o.Progress)
		if err != nil {
			return err
		}
		d.Map, d.Stages, d.LPs = res.Map, res.Stages, res.LPs
	case MethodHarmonic:
		m, err := design.Harmonic(dp, dim)
		if err != nil {
			return err
		}
		design.Verify(m, dp.Reference)
		d.Map = m
	default:
		return fmt.Errorf("featmap: method %q does not apply to this kernel", d.Method.Name)
	}
	return nil
}

// Reference returns what a map designed for the spec is verified against:
// the exact kernel, the verification inputs, the signature and the weight
// of the spec's error measure (used by Design, and by reports to plot
// signature errors and kernel-error maps).
func (s *Spec) Reference() (*design.Reference, error) {
	if s.Kernel.Homogeneous() {
		hp, err := s.homogeneousProblem(1)
		if err != nil {
			return nil, err
		}
		return homogeneous.NewReference(hp.Kernel, hp.Gamma, hp.Domain, s.Error.Weight)
	}
	if s.Domain.Dims > 1 {
		return s.multiProblem().Reference(multidim.Options{})
	}
	p, err := design.RBFProblem(s.Kernel.Sigma[0], s.Domain.Design(), s.Error.Weight, s.Error.Norm)
	if err != nil {
		return nil, err
	}
	return p.Reference, nil
}
