package featmap

import (
	"errors"
	"fmt"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/registry"
)

// ErrNoBetterThanZero reports a design whose verified Gram matrix error is
// not below 1, what the map Ψ = 0 scores: a map no better than no map,
// which the front door fails (exit 1) rather than state as a result. Its
// errors are *NoBetterThanZeroError values.
var ErrNoBetterThanZero = errors.New("no better than Ψ = 0")

// NoBetterThanZeroError is a design that cannot beat Ψ = 0 where it is
// judged: on the held-out rows when the spec has data (the map is fitted
// to the data, and good near it only), else on the domain. Design is the
// design, verified, for the record of a max_error search.
type NoBetterThanZeroError struct {
	Design *Design
	// Gram is the relative Frobenius Gram error, On the set it was
	// measured on.
	Gram float64
	On   string
}

func (e *NoBetterThanZeroError) Error() string {
	d := e.Design
	return fmt.Sprintf("featmap: %s at D = %d: the relative Frobenius error of the Gram matrix of %s is %.4g, no better than Ψ = 0 (which scores 1): %s",
		d.Method.Name(), d.Map.Dim, e.On, e.Gram, worthAdvice(d))
}

// Unwrap is ErrNoBetterThanZero.
func (e *NoBetterThanZeroError) Unwrap() error { return ErrNoBetterThanZero }

// worth fails a design of a method whose maps are drawn from samples
// (registry.DrawnFromSamples: their error is measured, not minimised)
// whose verified relative Gram error is not below 1:
// on the held-out rows when it was verified on data, else on the domain
// (fmap.Verification.Frobenius). A map fitted to data is judged on the
// rows like those it was fitted to; its error on the box is stated, not
// judged (a map of a small learned σ is near 0 away from the rows).
func worth(d *Design) error {
	if !registry.DrawnFromSamples(d.Method.Name()) {
		return nil
	}
	v := d.Verification
	e, on := v.Frobenius, v.Reported.On
	if dv := v.Data; dv != nil && dv.Rows > 0 {
		e, on = dv.Frobenius, fmt.Sprintf("the held-out rows of %s", dv.File)
	}
	if e < 1 {
		return nil
	}
	return &NoBetterThanZeroError{Design: d, Gram: e, On: on}
}

// worthAdvice says what would make a map beat Ψ = 0.
func worthAdvice(d *Design) string {
	if d.Problem.Data != nil {
		return "a larger target.dim, more rows to fit, or another method or kernel width would"
	}
	return "a larger target.dim (a map drawn from samples leaves an error falling about as 1/√D), a data section (a map fitted to the rows it will see, verified on held-out rows), or a narrower domain would"
}

// BoxWorth says, for a design verified on data, whether its error on the
// domain is no better than Ψ = 0 ("" when it is below 1, or without
// data): a figure stated beside the data's, not a failure.
func BoxWorth(v fmap.Verification) string {
	if v.Data == nil || v.Frobenius < 1 {
		return ""
	}
	return "no better than Ψ = 0 on the domain: the map is fitted to the data, and good near it only"
}
