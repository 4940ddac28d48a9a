package registry

import (
	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/homogeneous"
	"github.com/featmap/featmap/multidim"
	"github.com/featmap/featmap/sampled"
)

// The optional interfaces of package design each method implements, one
// line each: a method whose optional method is misspelt or loses its
// signature fails to compile here, instead of silently losing the check the
// interface stands for (the run asks for them by type assertion).
var (
	_ design.OptionChecker = (*chum.Chum)(nil)
	_ design.SeriesMethod  = (*chum.Chum)(nil)
	_ design.Incremental   = (*chum.Chum)(nil)

	_ design.SeriesMethod = (*homogeneous.VZ)(nil)

	_ design.FileLoader    = (*homogeneous.Li)(nil)
	_ design.OptionChecker = (*homogeneous.Li)(nil)
	_ design.SeriesMethod  = (*homogeneous.Li)(nil)
	_ design.TargetChecker = (*homogeneous.Li)(nil)

	_ design.SeriesMethod = homogeneous.Chebyshev{}

	_ design.OptionChecker = (*homogeneous.ANNFM)(nil)
	_ design.Sizer         = (*homogeneous.ANNFM)(nil)

	_ design.OptionChecker = (*multidim.Projection)(nil)
	_ design.OptionChecker = (*multidim.Modulation)(nil)

	_ design.OptionChecker = (*sampled.RFF)(nil)
	_ design.Sizer         = (*sampled.RFF)(nil)
	_ design.EvalCoster    = (*sampled.RFF)(nil)

	_ design.OptionChecker = (*sampled.RFPCA)(nil)
	_ design.Sizer         = (*sampled.RFPCA)(nil)
	_ design.EvalCoster    = (*sampled.RFPCA)(nil)

	_ design.OptionChecker = (*sampled.Nystroem)(nil)
	_ design.TargetChecker = (*sampled.Nystroem)(nil)
	_ design.Sizer         = (*sampled.Nystroem)(nil)
	_ design.AutoVarier    = (*sampled.Nystroem)(nil)
	_ design.WholeRows     = (*sampled.Nystroem)(nil)
	_ design.EvalCoster    = (*sampled.Nystroem)(nil)

	_ design.Sizer = (*sampled.Polynomial)(nil)
)
