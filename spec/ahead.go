package spec

// This file holds what a loaded spec tells before any design: whether its
// map will carry a model, the constants it will hold at least, which
// dimensions a method makes for its problem, and the output width of a
// map of its data's rows (compare.widths).

import (
	"fmt"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/design/learnplan"
)

// Predictor reports whether the spec's map will carry a trained model (a
// learn or a kernels section: learn.Model), and whether its labels are
// classes (a learn section's task; for kernels learnplan.Classes) — known
// before learning, from the data read.
func (s *Spec) Predictor() (model, classes bool) {
	if s.Learn == nil && s.GroupLasso == nil || s.Problem.Data == nil {
		return false, false
	}
	if s.Learn != nil && s.Learn.Task != "" {
		return true, s.Learn.Classes()
	}
	return true, learnplan.Classes(s.Problem.Data.FitLabels)
}

// modelConstants is the number of weights and biases of the ridge model a
// learn section's map of dimension dim carries (learn.Model): D × K and K,
// K one score per class of the rows to fit (learn.Ridge's one-vs-rest
// coding) or 1 for numeric labels; 0 without a learn section. The data
// Load read fixes it before learning.
func (s *Spec) modelConstants(dim int) int {
	if s.Learn == nil {
		return 0
	}
	model, classes := s.Predictor()
	if !model {
		return 0
	}
	k := 1
	if classes {
		k = learnplan.Distinct(s.Problem.Data.FitLabels)
	}
	return dim*k + k
}

// ConstantsAhead is a lower bound on the numbers the spec's map holds,
// read from the spec before any design (design.Sizer: random features,
// an exp-chi2 map's included, Nyström, uniform anchor tables) and a learn
// section's model (its weights and biases, the classes counted in the data
// read): gen compares it with the constants it writes as Go literals,
// beyond which a map needs a data file. It is 0 where only the design
// tells: method auto (which method wins), a max_error search (which D),
// a kernels section (which kernels the group lasso keeps), annfm's
// k-means anchors (how many distinct), the methods whose few constants
// stay literals.
func (s *Spec) ConstantsAhead() int {
	if s.Target == nil || s.Target.Dim == 0 || s.Method == nil {
		return 0
	}
	if sz, ok := s.Method.Method.(design.Sizer); ok {
		return sz.Constants(s.Problem, s.Target.Dim) + s.modelConstants(s.Target.Dim)
	}
	return 0
}

// CanMake reports whether method m can make a map of dimension dim for the
// spec's problem, and if not, why.
func (s *Spec) CanMake(m MethodSpec, dim int) (bool, string) {
	d := design.DimsFor(m.Method, s.Problem)
	return d.Has(dim), d.WhyNot(dim)
}

// Coordinates returns how many coordinates of a row a per-coordinate map
// of the spec maps: for an additive kernel (one spec axis) with data of
// n > 1 columns, n; else 1 (the map takes the whole input).
func (s *Spec) Coordinates() int {
	p := s.Problem
	if !p.Kernel.Homogeneous() || p.InDim() != 1 || p.Data == nil {
		return 1
	}
	for _, rows := range [][][]float64{p.Data.Fit, p.Data.Held} {
		if len(rows) > 0 {
			return len(rows[0])
		}
	}
	return 1
}

// Width returns the output width of method m's map at D: the numbers per
// row of its output, D·n for a per-coordinate map of rows of n
// coordinates (Spec.Coordinates), D for a map that takes whole rows
// (design.WholeRows, e.g. nystroem) or whole inputs.
func (s *Spec) Width(m MethodSpec, dim int) int {
	if w, ok := m.Method.(design.WholeRows); ok && w.WholeRows() {
		return dim
	}
	return dim * s.Coordinates()
}

// DimForWidth returns the D at which method m's map has output width w
// (see Spec.Width), or why there is none: a per-coordinate map of n
// coordinates makes only multiples of n.
func (s *Spec) DimForWidth(m MethodSpec, w int) (int, string) {
	n := s.Width(m, 1)
	if w%n != 0 {
		return 0, fmt.Sprintf("%s maps each of the %d coordinates to D outputs: its widths are multiples of %d", m.Name(), n, n)
	}
	return w / n, ""
}
