package design

import (
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/featmap/featmap/solver"
)

func rbfProblem(t *testing.T, sigma float64) *Problem {
	t.Helper()
	p, err := RBFProblem(sigma, Domain{Lo: []float64{0}, Hi: []float64{math.Pi}}, Uniform, LInf)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func stageError(t *testing.T, res *Result, name string) float64 {
	t.Helper()
	for _, st := range res.Stages {
		if st.Name == name {
			return st.Error.LInf
		}
	}
	t.Fatalf("no stage %q in %v", name, res.Stages)
	return 0
}

// TestRBFClaims checks Chum §7.1's convention-free claims on the 1-D RBF
// kernel on [0, π] with D = 11 (lp-design.md: the paper's absolute numbers
// depend on an unknown σ convention, so they are not oracles):
//   - the continuous method (the paper pipeline) beats the discrete LP;
//   - the 11-D designed map beats the 17-D harmonic projection ω = 0..8.
//
// Measured here (L∞ on 2001 λ in [0, π]): σ = 0.2: discrete 0.211, paper
// pipeline 0.0824, polished 0.0372, harmonic 0.0886; σ = 0.3: 0.105, 0.0224,
// 0.00485, 0.0105.
func TestRBFClaims(t *testing.T) {
	for _, sigma := range []float64{0.2, 0.3} {
		p := rbfProblem(t, sigma)
		res, err := Chum(p, 11, ChumOptions{}, solver.Default(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Map.Dim != 11 {
			t.Errorf("σ=%g: map has D = %d, want 11", sigma, res.Map.Dim)
		}
		discrete, paper := stageError(t, res, StageDiscrete), stageError(t, res, StagePaper)
		if !(paper < discrete) {
			t.Errorf("σ=%g: continuous %.4g does not beat discrete %.4g", sigma, paper, discrete)
		}
		h, err := Harmonic(p, 17)
		if err != nil {
			t.Fatal(err)
		}
		if h.Dim != 17 {
			t.Errorf("σ=%g: harmonic map has D = %d, want 17", sigma, h.Dim)
		}
		hv := Verify(h, p.Reference)
		if got := res.Map.Errors.Reported.LInf; !(got < hv.Reported.LInf) {
			t.Errorf("σ=%g: 11-D designed map %.4g does not beat the 17-D harmonic %.4g", sigma, got, hv.Reported.LInf)
		}
		t.Logf("σ=%g: discrete %.4g, paper %.4g, polished %.4g, harmonic-17 %.4g (%d LPs)", sigma, discrete, paper, res.Map.Errors.Reported.LInf, hv.Reported.LInf, res.LPs)
	}
}

// TestChumDeterministic designs the same problem twice: identical maps.
func TestChumDeterministic(t *testing.T) {
	p := rbfProblem(t, 0.3)
	a, err := Chum(p, 7, ChumOptions{}, solver.Default(), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Chum(rbfProblem(t, 0.3), 7, ChumOptions{}, solver.Default(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a.Map.Terms, b.Map.Terms) {
		t.Errorf("two designs differ:\n%v\n%v", a.Map.Terms, b.Map.Terms)
	}
}

// TestChumVerifiedStages: every stage is measured with the reference, and
// the final map is one of them with its errors set.
func TestChumVerifiedStages(t *testing.T) {
	p := rbfProblem(t, 0.3)
	res, err := Chum(p, 5, ChumOptions{}, solver.Default(), nil)
	if err != nil {
		t.Fatal(err)
	}
	names := []string{StageDiscrete, StagePaper, StageRefit, StagePolished}
	if len(res.Stages) != len(names) {
		t.Fatalf("%d stages, want %v", len(res.Stages), names)
	}
	found := false
	for i, st := range res.Stages {
		if st.Name != names[i] || st.Map.Errors == nil || st.Error != st.Map.Errors.Reported {
			t.Errorf("stage %d: %q with errors %+v", i, st.Name, st.Map.Errors)
		}
		if want := int(math.Ceil(p.M/p.ZStep)) + 1; st.Map.Errors.Design.Points != want {
			t.Errorf("stage %q measured on %d points of Z, want %d", st.Name, st.Map.Errors.Design.Points, want)
		}
		found = found || st.Map == res.Map
	}
	if !found {
		t.Error("the final map is not one of the stages")
	}
	// The polish never ends worse than the refit it starts from.
	if stageError(t, res, StagePolished) > stageError(t, res, StageRefit)*(1+1e-9) {
		t.Errorf("polished %.4g worse than refit %.4g", stageError(t, res, StagePolished), stageError(t, res, StageRefit))
	}
}

// TestChumOversizedPoolIsAClearError: a pool or Z beyond the limits is an
// error naming the option to change, not an hour-long run.
func TestChumOversizedPoolIsAClearError(t *testing.T) {
	p := rbfProblem(t, 0.3)
	_, err := Chum(p, 5, ChumOptions{Spacing: 1e-4}, solver.Default(), nil)
	if err == nil || !strings.Contains(err.Error(), "method.spacing") {
		t.Errorf("pool of 166667 frequencies: error %v, want one naming method.spacing", err)
	}
	_, err = Chum(p, 5, ChumOptions{ZPoints: MaxZ + 1}, solver.Default(), nil)
	if err == nil || !strings.Contains(err.Error(), "method.z_points") {
		t.Errorf("|Z| = %d: error %v, want one naming method.z_points", MaxZ+1, err)
	}
}
