package design

import "testing"

// TestDimsRefusal: a set's refusal names the nearest dimensions it has,
// unless its reason states them (the cases of chum's TestDimsForLimits
// that need no method).
func TestDimsRefusal(t *testing.T) {
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
}
