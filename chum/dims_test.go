package chum

import (
	"strings"
	"testing"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// TestDimsForLimits: DimsFor caps a method's dimensions by the closed
// forms' MaxClosedFormDim and by the verification budget
// (fmap.MaxVerifiedDim), and says which limit a D beyond them breaks:
// harmonic makes 255 but not 1023 (a hostile input) nor an even
// D, and rbf on 65 536 inputs makes none.
func TestDimsForLimits(t *testing.T) {
	chi2 := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.Chi2}, Domain: fmap.Domain{Lo: []float64{0.001}, Hi: []float64{1}}, Measure: fmap.Absolute, Norm: fmap.LInf, Negative: fmap.NegativeSign}
	d := design.DimsFor(Harmonic{}, chi2)
	if !d.Has(255) || d.Has(257) || d.Has(1023) || d.Has(254) {
		t.Errorf("harmonic: Has(255, 257, 1023, 254) = %v %v %v %v, want true false false false", d.Has(255), d.Has(257), d.Has(1023), d.Has(254))
	}
	if why := d.WhyNot(1023); !strings.Contains(why, "at most 256") {
		t.Errorf("harmonic, D = 1023: %q does not name the limit", why)
	}
	if why := d.WhyNot(254); !strings.Contains(why, "odd") {
		t.Errorf("harmonic, D = 254: %q does not say odd", why)
	}
	if got := d.Suggest(1023); got != "at most 255" {
		t.Errorf("harmonic, D = 1023: suggests %q, want at most 255", got)
	}
	if got := d.Refusal(1023); !strings.HasSuffix(got, "): at most 255") {
		t.Errorf("harmonic, D = 1023: refusal %q does not end with the nearest D, 255", got)
	}
	chum := design.DimsFor(&Chum{}, chi2)
	if got := chum.Refusal(129); strings.Count(got, "at most 128") != 1 || !strings.HasPrefix(got, "chum designs at most 128 dimensions (") || !strings.HasSuffix(got, ")") {
		t.Errorf("chum, D = 129: refusal %q, want the limit named once", got)
	}
	n := 1 << 16
	wide := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: make([]float64, n)}, Domain: fmap.Domain{Lo: make([]float64, n), Hi: make([]float64, n)}}
	d = design.DimsFor(Harmonic{}, wide)
	if d.Has(1) || !strings.Contains(d.WhyNot(1), "verification budget") || d.Suggest(1) != "no dimension" {
		t.Errorf("65 536 inputs: Has(1) %v, why %q, suggest %q", d.Has(1), d.WhyNot(1), d.Suggest(1))
	}
	if got := d.Refusal(1); !strings.HasSuffix(got, ": no dimension") {
		t.Errorf("65 536 inputs: refusal %q", got)
	}
}
