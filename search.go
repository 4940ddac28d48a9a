package featmap

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/featmap/featmap/design"
)

// search designs the smallest D the run's method makes that meets
// target.max_error, as Spec.Design says: bracketing by doubling D (or D
// upward one at a time for an incremental method), then bisection.
func (r *run) search(ctx context.Context, set Settings) (*Design, error) {
	t := r.target
	start := time.Now()
	var valid []int
	for dim := 1; dim <= t.MaxDim; dim++ {
		if r.canMakeTarget(dim) {
			valid = append(valid, dim)
		}
	}
	search := &Search{MaxError: t.MaxError, Strategy: "bracketing by doubling D, then bisection (assumes the error falls with D)"}
	var best *Design
	// try designs valid[i] and reports whether it meets max_error.
	try := func(i int) (*Design, bool, error) {
		dim := valid[i]
		set.Say(fmt.Sprintf("target max_error %g: trying D = %d", t.MaxError, dim))
		d, err := r.designAt(ctx, dim, set)
		var zero *NoBetterThanZeroError
		if errors.As(err, &zero) {
			// A map no better than Ψ = 0 misses max_error, as a larger
			// D may not.
			set.Say(fmt.Sprintf("target max_error %g: D = %d: %v", t.MaxError, dim, err))
			search.Tried = append(search.Tried, Tried{Dim: dim, Error: zero.Design.Verification.Reported.LInf, Method: zero.Design.Method.Name()})
			return nil, false, nil
		}
		if err != nil {
			return nil, false, err
		}
		e := d.Verification.Reported.LInf
		ok := e <= t.MaxError
		search.Tried = append(search.Tried, Tried{Dim: dim, Error: e, Met: ok, Method: d.Method.Name()})
		verdict := "above"
		if ok {
			verdict = "meets"
		}
		set.Say(fmt.Sprintf("target max_error %g: D = %d has error %.4g (%s)", t.MaxError, dim, e, verdict))
		if best == nil || e < best.Verification.Reported.LInf {
			best = d
		}
		return d, ok, nil
	}
	// A method that makes every smaller D on the way (chum) pays least
	// walking D upward: then the bracket grows by one D at a time.
	linear := design.IsIncremental(r.method.Method)
	if linear {
		search.Strategy = "D upward one at a time (" + r.method.Name() + " makes every smaller D on the way)"
	}
	// Bracket: lo is the index of the largest D known to miss (−1 for
	// none), hi that of the first D found to meet.
	lo, hi := -1, -1
	var found *Design
	for i := 0; i < len(valid); {
		d, ok, err := try(i)
		if err != nil {
			return nil, err
		}
		if ok {
			hi, found = i, d
			break
		}
		lo = i
		if i == len(valid)-1 {
			break
		}
		next := i + 1
		for !linear && next < len(valid)-1 && valid[next] < 2*valid[i] {
			next++
		}
		i = next
	}
	if found == nil {
		search.Seconds = time.Since(start).Seconds()
		if best == nil && len(search.Tried) > 0 {
			return nil, fmt.Errorf("%w: every map tried up to max_dim %d (D = %s in %.1f s) is no better than Ψ = 0 (a relative Gram error of at least 1)", ErrUnreachable, t.MaxDim, search.dims(), search.Seconds)
		}
		if best == nil {
			return nil, fmt.Errorf("%w: %s makes no dimension up to max_dim %d", ErrUnreachable, r.method.Name(), t.MaxDim)
		}
		return nil, fmt.Errorf("%w: the best map tried up to max_dim %d has error %.4g at D = %d, above max_error %g (tried D = %s in %.1f s)",
			ErrUnreachable, t.MaxDim, best.Verification.Reported.LInf, best.Map.Dim, t.MaxError, search.dims(), search.Seconds)
	}
	// Bisect (lo, hi]: the error is assumed to fall with D.
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		d, ok, err := try(mid)
		if err != nil {
			return nil, err
		}
		if ok {
			hi, found = mid, d
		} else {
			lo = mid
		}
	}
	search.Seconds = time.Since(start).Seconds()
	found.Search = search
	return found, nil
}

// Search is the record of a target.max_error search: every D designed, in
// the order tried, with its verified error, and the search's wall time.
type Search struct {
	MaxError float64 `json:"max_error"`
	// Strategy says how D was searched, in words.
	Strategy string  `json:"strategy"`
	Tried    []Tried `json:"tried"`
	// Seconds is the wall time of the whole search (every design tried).
	Seconds float64 `json:"seconds"`
}

// Tried is one dimension a search designed: its verified L∞ error (in the
// spec's measure), whether it met max_error, and the method that made it.
type Tried struct {
	Dim    int     `json:"dim"`
	Error  float64 `json:"error"`
	Met    bool    `json:"met"`
	Method string  `json:"method"`
}

// dims lists the dimensions tried, e.g. "1, 2, 4".
func (s *Search) dims() string {
	var b strings.Builder
	for i, t := range s.Tried {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprint(&b, t.Dim)
	}
	return b.String()
}
