package sampled

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	digitsdata "github.com/featmap/featmap/internal/digits"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// digits returns the first rows of ../testdata/digits.csv.gz.
func digits(t testing.TB, rows int) [][]float64 {
	t.Helper()
	xs, err := digitsdata.Load("../testdata/digits.csv.gz", rows)
	if err != nil {
		t.Fatal(err)
	}
	return xs
}

// gramError is the relative Frobenius error of the map's Gram matrix on
// the rows xs.
func gramError(m *fmap.Map, xs [][]float64) float64 {
	_, frob := fmap.OnPoints(m, xs, "rows of digits")
	return frob
}

// rffMapOf designs m's map of the kernel on [lo, hi]^n at dim.
func rffMapOf(t testing.TB, m *RFF, k fmap.Kernel, n int, lo, hi float64, dim int) *fmap.Map {
	t.Helper()
	p := &fmap.Problem{Kernel: k, Domain: fmap.Domain{Lo: slices.Repeat([]float64{lo}, n), Hi: slices.Repeat([]float64{hi}, n)},
		Measure: fmap.Absolute, Norm: fmap.LInf}
	res, err := m.Design(context.Background(), p, dim, design.Settings{})
	if err != nil {
		t.Fatalf("rff %+v, D = %d: %v", m.Opts, dim, err)
	}
	if res.Map.Dim != dim {
		t.Fatalf("D = %d, want %d", res.Map.Dim, dim)
	}
	return res.Map
}

// TestRFFDimensionError: a dimension the method cannot make is an error
// naming the nearest it can.
func TestRFFDimensionError(t *testing.T) {
	p := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{2}, 5)},
		Domain: fmap.Domain{Lo: make([]float64, 5), Hi: slices.Repeat([]float64{1.0}, 5)}, Measure: fmap.Absolute, Norm: fmap.LInf}
	_, err := (&RFF{}).Design(context.Background(), p, 63, design.Settings{})
	if err == nil || !strings.Contains(err.Error(), "62 or 64") {
		t.Errorf("D = 63 with cos-sin features: %v, want an error suggesting 62 or 64", err)
	}
}

// TestExpChi2InnerOnce: an rff method designs an exp-χ² map's inner χ² map
// on one problem value per inner interval (so that chum, which remembers
// its designs by problem, designs it once for every D), and the inner
// stage it puts in a map is the one a fresh rff method designs.
func TestExpChi2InnerOnce(t *testing.T) {
	dom := func(lo, hi float64) *fmap.Problem {
		return &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.ExpChi2, Beta: 1},
			Domain:  fmap.Domain{Lo: []float64{lo, lo, lo}, Hi: []float64{hi, hi, hi}},
			Measure: fmap.Absolute, Norm: fmap.LInf}
	}
	m := &RFF{}
	p, q := dom(0, 1), dom(0, 1)
	if a, b := m.innerProblemOf(p), m.innerProblemOf(q); a != b {
		t.Error("two problems of the same domain got two inner problems")
	}
	if a, b := m.innerProblemOf(p), m.innerProblemOf(dom(0, 2)); a == b {
		t.Error("problems on [0, 1] and [0, 2] share an inner problem")
	}
	if m.inner() != m.inner() {
		t.Error("the default inner method is made afresh at every call")
	}
	first, err := m.Design(context.Background(), p, 64, design.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	again, err := m.Design(context.Background(), q, 128, design.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := (&RFF{}).Design(context.Background(), dom(0, 1), 128, design.Settings{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*design.Result{first, again} {
		if !reflect.DeepEqual(r.Map.Stages[0], fresh.Map.Stages[0]) {
			t.Errorf("inner stage %+v, a fresh rff's %+v", r.Map.Stages[0].Kind.(*fmap.PerCoordinate).Inner, fresh.Map.Stages[0].Kind.(*fmap.PerCoordinate).Inner)
		}
	}
	if !reflect.DeepEqual(again.Map, fresh.Map) {
		t.Error("the D = 128 map after a D = 64 design differs from a fresh rff's")
	}
}

// TestRFFCancelOrthogonal: a context cancelled while orthogonal sampling
// runs its Gram–Schmidt (2048 frequencies of 2048 inputs: MaxOrthogonalWork,
// about 10 s on one core) stops it: Design returns the context's error soon
// after the cancel, not a map once the work is done.
func TestRFFCancelOrthogonal(t *testing.T) {
	if testing.Short() {
		t.Skip("2³³ multiply-adds if the cancel is missed")
	}
	const n = 2048
	p := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{1}, n)},
		Domain: fmap.Domain{Lo: make([]float64, n), Hi: slices.Repeat([]float64{1.0}, n)}, Measure: fmap.Absolute, Norm: fmap.LInf}
	cancelledSoon(t, "rff", 200*time.Millisecond, 2*time.Second, func(ctx context.Context) error {
		_, err := (&RFF{Opts: RFFOptions{Sampling: SamplingOrthogonal}}).Design(ctx, p, 2*n, design.Settings{})
		return err
	})
}

// cancelledSoon runs run with a context cancelled after the given time and
// fails t unless run returns context.Canceled within the time allowed.
func cancelledSoon(t *testing.T, what string, after, within time.Duration, run func(ctx context.Context) error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	time.AfterFunc(after, cancel)
	start := time.Now()
	err := run(ctx)
	if took := time.Since(start); !errors.Is(err, context.Canceled) || took > within {
		t.Errorf("%s cancelled after %v: %v after %v, want context.Canceled within %v", what, after, err, took, within)
	}
}
