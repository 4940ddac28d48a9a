package featmap

import (
	"context"
	"fmt"
	"reflect"
	"testing"
)

// specFrom parses a spec written in the test.
func specFrom(t *testing.T, name, yaml string) *Spec {
	t.Helper()
	s, err := ParseSpec(name, []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// designDim designs s's map of dimension dim with its own method.
func designDim(t *testing.T, s *Spec, dim int) *Design {
	t.Helper()
	d, err := s.DesignDim(context.Background(), *s.Method, dim, Settings{})
	if err != nil {
		t.Fatalf("%s, D = %d: %v", s.Path, dim, err)
	}
	if d.Map.Dim != dim {
		t.Fatalf("%s: D = %d, want %d", s.Path, d.Map.Dim, dim)
	}
	return d
}

// TestRFFDeterministic: an rff spec of every sampling designed twice gives
// the same map and verification, bit for bit; another seed another map.
func TestRFFDeterministic(t *testing.T) {
	for _, s := range []string{"random", "qmc", "orthogonal"} {
		spec := func(seed int) *Spec {
			return specFrom(t, "det.yaml", fmt.Sprintf(`version: 1
name: Det
kernel: {type: exp-chi2, beta: 0.5}
domain: {dims: 6, interval: [0, 1]}
target: {dim: 64}
method: {name: rff, sampling: %s, seed: %d, inner: {name: chebyshev, dim: 3}}
`, s, seed))
		}
		a, b, c := designDim(t, spec(1), 64), designDim(t, spec(1), 64), designDim(t, spec(2), 64)
		if !reflect.DeepEqual(a.Map, b.Map) || !reflect.DeepEqual(a.Verification, b.Verification) {
			t.Errorf("%s: two designs differ", s)
		}
		if reflect.DeepEqual(a.Map.Stages, c.Map.Stages) {
			t.Errorf("%s: seeds 1 and 2 give the same map", s)
		}
	}
}
