package sampled

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// TestNystroemLandmarksOption: n_landmarks m > D makes a map of D outputs
// whose projection is D × m, and says so; n_landmarks = D is the map of D
// landmarks, bit for bit; D above m, and m × inputs beyond
// MaxLandmarkValues, are refused naming the key.
func TestNystroemLandmarksOption(t *testing.T) {
	xs := digits(t, 1797)
	p := digitsProblem(fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{49}, 64)}, 16, xs)
	var said []string
	res, err := (&Nystroem{Opts: NystroemOptions{NLandmarks: 32}}).Design(context.Background(), p, 8, design.Settings{Progress: func(s string) { said = append(said, s) }})
	if err != nil {
		t.Fatal(err)
	}
	st := res.Map.Stages[0].Kind.(*fmap.Nystroem)
	if res.Map.Dim != 8 || st.Size() != 32 || st.Dim() != 8 || len(st.Proj) != 8*32 {
		t.Errorf("D %d, %d landmarks, %d outputs, %d projection entries; want 8, 32, 8, 256", res.Map.Dim, st.Size(), st.Dim(), len(st.Proj))
	}
	if !slices.ContainsFunc(said, func(s string) bool { return strings.Contains(s, "the top 8 directions of 32 Nyström features") }) {
		t.Errorf("progress %q", said)
	}
	a := nystroemMap(t, p, 16, NystroemOptions{})
	b := nystroemMap(t, p, 16, NystroemOptions{NLandmarks: 16})
	if !slices.Equal(a.Stages[0].Kind.(*fmap.Nystroem).Proj, b.Stages[0].Kind.(*fmap.Nystroem).Proj) || !slices.Equal(a.Stages[0].Kind.(*fmap.Nystroem).Landmarks, b.Stages[0].Kind.(*fmap.Nystroem).Landmarks) {
		t.Error("n_landmarks = D differs from the default")
	}
	m := &Nystroem{Opts: NystroemOptions{NLandmarks: 16}}
	if err := m.CheckTarget(17); err == nil || !strings.Contains(err.Error(), "method.n_landmarks") {
		t.Errorf("D = 17 of 16 landmarks: %v", err)
	}
	if _, err := m.Design(context.Background(), p, 17, design.Settings{}); err == nil {
		t.Error("designed D = 17 of 16 landmarks")
	}
	wide := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{1}, 10_000)},
		Domain: fmap.Domain{Lo: make([]float64, 10_000), Hi: slices.Repeat([]float64{1}, 10_000)}}
	err = (&Nystroem{Opts: NystroemOptions{NLandmarks: 1000}}).CheckOptions(wide)
	if err == nil || !strings.Contains(err.Error(), "at most 838 landmarks of 10000 inputs") {
		t.Errorf("1000 landmarks of 10000 inputs: %v", err)
	}
}

// TestNystroemAutoVariants: with data method auto is offered m = 8D
// landmarks, at most MaxLandmarks and the rows to fit, and nothing when
// that is not more than D.
func TestNystroemAutoVariants(t *testing.T) {
	xs := digits(t, 1797)
	p := digitsProblem(fmap.Kernel{Type: fmap.RBF, Sigma: slices.Repeat([]float64{49}, 64)}, 16, xs)
	for dim, want := range map[int]int{4: 32, 64: 512, 256: 1024, 1024: 0} {
		vs := (&Nystroem{}).AutoVariants(p, dim)
		got := 0
		if len(vs) == 1 {
			got = vs[0].(*Nystroem).Opts.NLandmarks
		}
		if got != want || len(vs) > 1 {
			t.Errorf("D = %d: %d variants, n_landmarks %d; want %d", dim, len(vs), got, want)
		}
	}
}
