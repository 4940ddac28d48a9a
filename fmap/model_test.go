package fmap

import (
	"math"
	"reflect"
	"strings"
	"testing"
)

// TestLinearModel: scores, the class of the largest score, the JSON round
// trip, and Validate's refusals of a model that does not fit its map.
func TestLinearModel(t *testing.T) {
	m := &Map{Kernel: Kernel{Type: RBF, Sigma: []float64{1}}, InDim: 1, Dim: 2, Domain: Domain{Lo: []float64{-1}, Hi: []float64{1}},
		Method: "rff", Stages: []Stage{{Kind: &Random{Features: CosSin, Transform: Identity, In: 1, Freq: []float64{1}}}}}
	m.Model = &LinearModel{Classes: []float64{3, 7}, W: []float64{1, -1, 2, 0.5}, Bias: []float64{0.25, 0}, Ridge: 1e-3, Rows: 10, HeldRows: 4, HeldAccuracy: 0.75}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	z := []float64{0.5, -1}
	s := make([]float64, 2)
	m.Model.Scores(s, z)
	if want := []float64{0.25 + 0.5 - 2, 0 - 0.5 - 0.5}; !reflect.DeepEqual(s, want) {
		t.Fatalf("scores %v, want %v", s, want)
	}
	if c := m.Model.Class(s); c != 7 {
		t.Fatalf("class %v, want 7 (scores %v)", c, s)
	}
	back := jsonRoundTrip(t, m)
	if !reflect.DeepEqual(back.Model, m.Model) {
		t.Fatalf("round trip: %+v, want %+v", back.Model, m.Model)
	}
	for name, c := range map[string]struct {
		edit func(l *LinearModel)
		want string
	}{
		"weights":    {func(l *LinearModel) { l.W = l.W[:3] }, "weights"},
		"classes":    {func(l *LinearModel) { l.Classes = []float64{7, 3} }, "sorted"},
		"outputs":    {func(l *LinearModel) { l.Classes = nil }, "regression"},
		"non-finite": {func(l *LinearModel) { l.Bias = []float64{math.NaN(), 0} }, "non-finite"},
	} {
		l := *m.Model
		c.edit(&l)
		bad := *m
		bad.Model = &l
		if err := bad.Validate(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Validate = %v, want an error saying %q", name, err, c.want)
		}
	}
}
