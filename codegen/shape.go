package codegen

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/featmap/featmap/fmap"
)

// shape is what the emitters read of a map: the map itself (kernel, domain,
// dimensions, reference evaluator), its measured errors, and the
// parameters of its stages. The code generator emits
//
//   - one-stage maps: a Fourier stage (in x or in log x, cosine or
//     modulation terms) or a χ² series stage, whose parameters are the
//     fields Form..LiK;
//   - random-feature maps: a random stage alone (Random), or a
//     per-coordinate stage followed by a random stage (exp-χ²: Inner is the
//     per-coordinate map, Random the random stage on its output).
type shape struct {
	*fmap.Map
	// Errors is the map's verification (nil for the helper maps of the
	// per-axis pieces and for the inner map of a per-coordinate stage,
	// which are never emitted whole).
	Errors *fmap.Verification

	Form      fmap.Form // FourierForm, Modulation, LiSeries or Chebyshev
	Transform fmap.Transform
	Gamma     float64
	Negative  fmap.Negative
	Terms     []fmap.Term
	LiK       []float64

	// Random is the random-feature stage of a random map, nil otherwise.
	Random *fmap.Random
	// Nystroem is the stage of a Nyström map, nil otherwise.
	Nystroem *fmap.Nystroem
	// Anchors is the stage of an anchor map, nil otherwise.
	Anchors *fmap.Anchors
	// Inner is the one-input map of a per-coordinate stage that precedes
	// Random, as a one-stage map of its own on the union of the axes'
	// ranges (nil without one).
	Inner *shape
	// Linear is the projection after the random stage of an rf-pca map,
	// or after the polynomial stage of a polynomial map's principal
	// directions, nil otherwise.
	Linear *fmap.Linear
	// Polynomial is the stage of a polynomial map, nil otherwise.
	Polynomial *fmap.Polynomial
}

// shapeOf returns the shape of a map the code generator emits.
func shapeOf(m *fmap.Map, v *fmap.Verification) (*shape, error) {
	if m == nil {
		return nil, errors.New("codegen: nil map")
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("codegen: invalid map: %w", err)
	}
	s := &shape{Map: m, Errors: v}
	st := m.Stages
	if n := len(st); n >= 2 && as[*fmap.Linear](st[n-1]) != nil && (as[*fmap.Random](st[n-2]) != nil || as[*fmap.Polynomial](st[n-2]) != nil) {
		// rf-pca: the random map underneath, then its projection.
		s.Linear = as[*fmap.Linear](st[n-1])
		st = st[:n-1]
	}
	switch {
	case len(st) == 1 && as[*fmap.Fourier](st[0]) != nil:
		f := as[*fmap.Fourier](st[0])
		s.Form, s.Transform, s.Gamma, s.Negative, s.Terms = f.Form, f.Transform, f.Gamma, f.Negative, f.Terms
	case len(st) == 1 && as[*fmap.Series](st[0]) != nil:
		r := as[*fmap.Series](st[0])
		s.Form, s.Transform, s.Gamma, s.Negative, s.LiK = r.Form, fmap.Identity, 1, r.Negative, r.K
	case len(st) == 1 && as[*fmap.Random](st[0]) != nil:
		s.Random = as[*fmap.Random](st[0])
	case len(st) == 1 && as[*fmap.Polynomial](st[0]) != nil:
		s.Polynomial = as[*fmap.Polynomial](st[0])
	case len(st) == 1 && as[*fmap.Nystroem](st[0]) != nil:
		s.Nystroem = as[*fmap.Nystroem](st[0])
		if m.Kernel.Homogeneous() { // an additive kernel of whole rows
			s.Gamma = m.Kernel.Gamma
			if s.Gamma == 0 {
				s.Gamma = 1
			}
		}
	case len(st) == 1 && as[*fmap.Anchors](st[0]) != nil:
		s.Anchors = as[*fmap.Anchors](st[0])
		s.Transform, s.Gamma, s.Negative = fmap.Identity, m.Kernel.Gamma, s.Anchors.Negative
		if s.Gamma == 0 {
			s.Gamma = 1
		}
	case len(st) == 2 && as[*fmap.PerCoordinate](st[0]) != nil && as[*fmap.Random](st[1]) != nil && as[*fmap.Random](st[1]).Transform == fmap.Identity:
		s.Random = as[*fmap.Random](st[1])
		inner, err := innerShape(m, as[*fmap.PerCoordinate](st[0]).Inner)
		if err != nil {
			return nil, err
		}
		s.Inner = inner
	default:
		return nil, fmt.Errorf("%w a map with the stages %s (it emits one Fourier, series, random, Nyström, anchor or polynomial stage, or a per-coordinate stage followed by random features in the identity transform, and either random map or a polynomial stage followed by a linear stage)", ErrUnsupported, stageNames(m.Stages))
	}
	return s, nil
}

// ErrUnsupported reports a map the code generator cannot emit yet (a
// combination of stages it has no Go form for): the map is fine, only its
// Go form is missing.
var ErrUnsupported = errors.New("codegen: cannot emit yet")

// innerShape is the one-input map of the per-coordinate stage inner of m,
// on the smallest range that holds every axis of m's domain.
func innerShape(m *fmap.Map, inner fmap.Stage) (*shape, error) {
	dom := fmap.Domain{Integer: m.Domain.Integer, Lo: []float64{math.Inf(1)}, Hi: []float64{math.Inf(-1)}}
	for i := range m.InDim {
		dom.Lo[0] = math.Min(dom.Lo[0], m.Domain.Lo[i])
		dom.Hi[0] = math.Max(dom.Hi[0], m.Domain.Hi[i])
	}
	d := inner.Out(1)
	im := &fmap.Map{Kernel: m.Kernel, InDim: 1, Dim: d, Domain: dom, Method: m.Method, Stages: []fmap.Stage{inner}}
	s, err := shapeOf(im, nil)
	if err != nil {
		return nil, fmt.Errorf("codegen: the per-coordinate map: %w", err)
	}
	return s, nil
}

// as returns the stage's kind if it is a K, else nil.
func as[K fmap.StageKind](s fmap.Stage) K {
	k, _ := s.Kind.(K)
	return k
}

// stageNames lists the kinds of stages, e.g. "[per-coordinate, random
// (identity)]".
func stageNames(st []fmap.Stage) string {
	names := make([]string, len(st))
	for i, x := range st {
		names[i] = strings.ReplaceAll(x.Name(), "_", "-")
		if r, ok := x.Kind.(*fmap.Random); ok {
			names[i] += " (" + string(r.Transform) + ")"
		}
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// Signature is the approximated signature of a Fourier map.
func (s *shape) Signature(lambda []float64) float64 { return s.Map.Fourier().Signature(lambda) }
