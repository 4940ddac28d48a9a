package design

import (
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/featmap/featmap/fmap"
)

// TestDimsForLimits: DimsFor caps a method's dimensions by the closed
// forms' MaxClosedFormDim and by the verification budget
// (fmap.MaxVerifiedDim), and says which limit a D beyond them breaks:
// harmonic makes 255 but not 1023 (issue 18's hostile input) nor an even
// D, and rbf on 65 536 inputs makes none.
func TestDimsForLimits(t *testing.T) {
	chi2 := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.Chi2}, Domain: fmap.Domain{Lo: []float64{0.001}, Hi: []float64{1}}, Measure: fmap.Absolute, Norm: fmap.LInf, Negative: fmap.NegativeSign}
	d := DimsFor(Harmonic{}, chi2)
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
	chum := DimsFor(&Chum{}, chi2)
	if got := chum.Refusal(129); strings.Count(got, "at most 128") != 1 || !strings.HasPrefix(got, "chum designs at most 128 dimensions (") || !strings.HasSuffix(got, ")") {
		t.Errorf("chum, D = 129: refusal %q, want the limit named once", got)
	}
	if got := (Dims{Max: 12, Why: "at most 128 here"}).Refusal(13); got != "at most 128 here: at most 12" {
		t.Errorf("a reason naming 128 and a limit of 12: refusal %q", got)
	}
	// A number in the reason is not the suggestion (rff's cos-sin
	// features on 2 inputs refused D = 1 without suggesting 2), and a
	// stated Max is not suggested again.
	if got := (Dims{Even: true, Max: 100, MaxStated: true, Why: "even dimensions only, and on 2 inputs at most 100"}).Refusal(1); got != "even dimensions only, and on 2 inputs at most 100: 2" {
		t.Errorf("an even set on 2 inputs, D = 1: refusal %q, want the suggestion 2", got)
	}
	if got := (Dims{Even: true, Max: 100, MaxStated: true, Why: "even dimensions only, and on 2 inputs at most 100"}).Refusal(101); got != "even dimensions only, and on 2 inputs at most 100" {
		t.Errorf("an even set with its Max stated, D = 101: refusal %q, want the reason alone", got)
	}
	if got := (Dims{Odd: true, Max: 100, MaxStated: true, Why: "odd dimensions only, at most 100"}).Refusal(101); got != "odd dimensions only, at most 100: at most 99" {
		t.Errorf("an odd set with an even Max, D = 101: refusal %q, want the largest it has, 99", got)
	}
	n := 1 << 16
	wide := &fmap.Problem{Kernel: fmap.Kernel{Type: fmap.RBF, Sigma: make([]float64, n)}, Domain: fmap.Domain{Lo: make([]float64, n), Hi: make([]float64, n)}}
	d = DimsFor(Harmonic{}, wide)
	if d.Has(1) || !strings.Contains(d.WhyNot(1), "verification budget") || d.Suggest(1) != "no dimension" {
		t.Errorf("65 536 inputs: Has(1) %v, why %q, suggest %q", d.Has(1), d.WhyNot(1), d.Suggest(1))
	}
	if got := d.Refusal(1); !strings.HasSuffix(got, ": no dimension") {
		t.Errorf("65 536 inputs: refusal %q", got)
	}
}

// TestGateUrgentFirst: the gate lets at most its capacity hold a place,
// and a place given back goes to the urgent waiters first, then to the
// others in the order they asked.
func TestGateUrgentFirst(t *testing.T) {
	g := newGate(1)
	g.acquire(false) // the one place is taken
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	queued := 0
	wait := func(name string, urgent bool) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g.acquire(urgent)
			mu.Lock()
			order = append(order, name)
			mu.Unlock()
			g.release()
		}()
		// Let it queue before the next one asks.
		for {
			g.mu.Lock()
			n := len(g.queue[0]) + len(g.queue[1])
			g.mu.Unlock()
			if n == queued+1 {
				break
			}
			runtime.Gosched()
		}
		queued++
	}
	wait("a", false)
	wait("bb", false)
	wait("ccc", true)
	g.release()
	wg.Wait()
	if want := []string{"ccc", "a", "bb"}; !slices.Equal(order, want) {
		t.Errorf("served %v, want %v", order, want)
	}
	if g.free != 1 {
		t.Errorf("%d places free at the end, want 1", g.free)
	}
}
