package fmap

import (
	"fmt"
	"math"
)

// Measurement is one measured error: the largest and the root-mean-square
// value over a named set of points.
type Measurement struct {
	On     string  `json:"on"`     // the set, in words
	Points int     `json:"points"` // how many points (or pairs) it has
	LInf   float64 `json:"linf"`
	RMS    float64 `json:"rms"`
}

func (m Measurement) String() string {
	return fmt.Sprintf("L∞ %.6g, RMS %.6g on %s", m.LInf, m.RMS, m.On)
}

// Finite reports whether both numbers of m are finite.
func (m Measurement) Finite() bool {
	return !math.IsNaN(m.LInf) && !math.IsInf(m.LInf, 0) && !math.IsNaN(m.RMS) && !math.IsInf(m.RMS, 0)
}

// Verification is what Verify measured of a map. Every number is computed
// from the map's reference evaluator, never taken from the optimiser.
type Verification struct {
	Measure Measure `json:"measure"`
	// Reported is the error in the requested measure on the verification
	// set: absolute and relative errors over all ordered pairs of the
	// verification inputs, uniform over the dense λ grid.
	Reported Measurement `json:"reported"`
	// Absolute is the kernel error |K − Ψ·Ψ| over all ordered pairs of the
	// verification inputs (equal to Reported for the absolute measure).
	Absolute Measurement `json:"absolute"`
	// Signature is the weighted signature error w(λ)|k(λ) − k̂(λ)| on a grid
	// at least ten times denser than the design set.
	Signature Measurement `json:"signature"`
	// Design is the same weighted signature error on the design set Z of an
	// optimising method (empty for closed forms).
	Design Measurement `json:"design"`
}

// Verified is a map with what was measured of it: what the code generator
// emits and a report shows.
type Verified struct {
	Map          *Map          `json:"map"`
	Verification *Verification `json:"verification"`
}

// Verify measures m against ref. It does not change m.
func Verify(m *Map, ref *Reference) Verification {
	v := Verification{Measure: ref.Measure}
	abs, rel := pairErrors(m, ref)
	v.Absolute = abs
	v.Signature = SignatureError(m, ref, ref.Dense, ref.DenseOn)
	switch ref.Measure {
	case Relative:
		v.Reported = rel
	case Uniform:
		v.Reported = signatureError(m, ref, ref.Dense, ref.DenseOn, func([]float64) float64 { return 1 })
	default:
		v.Reported = abs
	}
	return v
}

// pairErrors returns the absolute and relative kernel errors over all ordered
// pairs of ref.Inputs.
func pairErrors(m *Map, ref *Reference) (abs, rel Measurement) {
	n := len(ref.Inputs)
	psi := make([][]float64, n)
	for i, x := range ref.Inputs {
		psi[i] = make([]float64, m.Dim)
		m.Eval(psi[i], x)
	}
	exact := ref.exactPairs()
	var sa, sr float64
	relCount := 0
	for i := range n {
		for j := range n {
			k := exact[i*n+j]
			e := math.Abs(k - dot(psi[i], psi[j]))
			abs.LInf = nanMax(abs.LInf, e)
			sa += e * e
			if k > 0 {
				r := e / k
				rel.LInf = nanMax(rel.LInf, r)
				sr += r * r
				relCount++
			}
		}
	}
	abs.Points = n * n
	abs.On = fmt.Sprintf("all %d ordered pairs of %s", n*n, ref.InputsOn)
	if n > 0 {
		abs.RMS = math.Sqrt(sa / float64(n*n))
	}
	rel.Points = relCount
	rel.On = fmt.Sprintf("the %d ordered pairs with K > 0 of %s", relCount, ref.InputsOn)
	if relCount > 0 {
		rel.RMS = math.Sqrt(sr / float64(relCount))
	}
	return abs, rel
}

// nanMax is max that lets a NaN win, so that a NaN error is never hidden.
func nanMax(a, b float64) float64 {
	if math.IsNaN(a) || math.IsNaN(b) {
		return math.NaN()
	}
	return math.Max(a, b)
}

// SignatureError measures the weighted signature error w(λ)|k(λ) − k̂(λ)| of
// m on the λ points pts, named on.
func SignatureError(m *Map, ref *Reference, pts [][]float64, on string) Measurement {
	return signatureError(m, ref, pts, on, ref.Weight)
}

func signatureError(m *Map, ref *Reference, pts [][]float64, on string, w func([]float64) float64) Measurement {
	out := Measurement{On: on, Points: len(pts)}
	if len(pts) == 0 {
		return out
	}
	s := 0.0
	for _, l := range pts {
		e := w(l) * math.Abs(ref.Signature(l)-m.SignatureAt(l))
		out.LInf = nanMax(out.LInf, e)
		s += e * e
	}
	out.RMS = math.Sqrt(s / float64(len(pts)))
	return out
}
