package spec

// This file holds method auto's stand-in: what a spec's method: auto
// decodes to. The front door (featmap.Spec.Design) resolves it into the
// registered methods.

import (
	"context"
	"errors"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// AutoName is the method name that designs with every applicable method
// and keeps the most accurate verified map (spec `method: auto`).
const AutoName = "auto"

// autoMethod stands in the spec for method auto; the front door
// (featmap.Spec.Design) resolves it into the registered methods
// (featmap.Spec.Auto), so it designs nothing.
type autoMethod struct{}

// Name returns "auto".
func (autoMethod) Name() string { return AutoName }

// Applies accepts every problem: auto's candidates say why they do not.
func (autoMethod) Applies(*fmap.Problem) error { return nil }

// Options returns no options: auto takes none.
func (autoMethod) Options() any { return &struct{}{} }

// Dims is every dimension: auto's candidates say which they make.
func (autoMethod) Dims(*fmap.Problem) design.Dims { return design.AnyDim }

// Design designs nothing: the front door resolves auto first.
func (autoMethod) Design(context.Context, *fmap.Problem, int, design.Settings) (*design.Result, error) {
	return nil, errors.New("featmap: method auto is resolved by Spec.Design into the registered methods")
}

// IsAuto reports whether the spec's method is auto.
func (s *Spec) IsAuto() bool { return s.Method.IsAuto() }

// IsAuto reports whether m is method auto (false for a nil m).
func (m *MethodSpec) IsAuto() bool {
	if m == nil {
		return false
	}
	_, ok := m.Method.(autoMethod)
	return ok
}

// TargetError is an error at the spec's target.dim, for what the front
// door finds of the target only when it designs: that no method auto can
// try makes that D.
func (s *Spec) TargetError(msg string) error {
	line := 0
	if s.Target != nil {
		line = s.Target.line
	}
	return &SpecError{Path: s.Path, Line: line, Field: "target.dim", Msg: msg}
}
