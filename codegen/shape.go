package codegen

import (
	"errors"
	"fmt"

	"github.com/featmap/featmap/design/fmap"
)

// shape is what the emitters read of a map: the map itself (kernel, domain,
// dimensions, reference evaluator), its measured errors, and the
// parameters of its one stage. The code generator emits one-stage maps:
// a Fourier stage (in x or in log x, cosine or modulation terms) or a χ²
// series stage.
type shape struct {
	*fmap.Map
	// Errors is the map's verification (nil for the helper maps of the
	// per-axis pieces, which are never emitted whole).
	Errors *fmap.Verification

	Form      fmap.Form // FourierForm, Modulation, LiSeries or Chebyshev
	Transform fmap.Transform
	Gamma     float64
	Negative  fmap.Negative
	Terms     []fmap.Term
	LiK       []float64
}

// shapeOf returns the shape of a one-stage map.
func shapeOf(m *fmap.Map, v *fmap.Verification) (*shape, error) {
	if m == nil {
		return nil, errors.New("codegen: nil map")
	}
	if err := m.Validate(); err != nil {
		return nil, fmt.Errorf("codegen: invalid map: %w", err)
	}
	s := &shape{Map: m, Errors: v}
	switch st := m.Stages[0]; {
	case st.Fourier != nil:
		f := st.Fourier
		s.Form, s.Transform, s.Gamma, s.Negative, s.Terms = f.Form, f.Transform, f.Gamma, f.Negative, f.Terms
	case st.Series != nil:
		r := st.Series
		s.Form, s.Transform, s.Gamma, s.Negative, s.LiK = r.Form, fmap.Identity, 1, r.Negative, r.K
	}
	return s, nil
}

// Signature is the approximated signature of a Fourier map.
func (s *shape) Signature(lambda []float64) float64 { return s.Map.Fourier().Signature(lambda) }
