package design

import (
	"fmt"
	"math"
	"sync"
)

// Measure is the error measure a design optimises and reports.
type Measure string

// The error measures.
const (
	// Absolute is |K(x,y) − Ψ(x)·Ψ(y)| over pairs of inputs (Chum's ε_A).
	Absolute Measure = "absolute"
	// Relative is |K − Ψ·Ψ|/K over pairs with K > 0 (Chum's ε_R).
	Relative Measure = "relative"
	// Uniform is the unweighted signature error |k(λ) − k̂(λ)|, which equals
	// the kernel error of a shift-invariant kernel.
	Uniform Measure = "uniform"
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

// Reference is the exact kernel and the sets a map is measured on.
type Reference struct {
	Measure Measure
	// Exact is the kernel K(x, y).
	Exact func(x, y []float64) float64
	// Inputs are the verification inputs: kernel errors are taken over all
	// ordered pairs of them. InputsOn names them in words.
	Inputs   [][]float64
	InputsOn string
	// Signature is the exact signature k(λ) and Weight the error weight w(λ).
	Signature func(lambda []float64) float64
	Weight    func(lambda []float64) float64
	// Dense is the dense λ grid and DenseOn names it.
	Dense   [][]float64
	DenseOn string

	exactOnce sync.Once
	exact     []float64 // Exact over all ordered pairs of Inputs, row-major
}

// exactPairs returns K over all ordered pairs of the inputs, computed once
// per Reference (a design verifies several stage maps against one).
func (r *Reference) exactPairs() []float64 {
	r.exactOnce.Do(func() {
		n := len(r.Inputs)
		r.exact = make([]float64, n*n)
		for i, x := range r.Inputs {
			for j, y := range r.Inputs {
				r.exact[i*n+j] = r.Exact(x, y)
			}
		}
	})
	return r.exact
}

// Verify measures m against ref and stores the result in m.Errors.
func Verify(m *Map, ref *Reference) *Verification {
	v := &Verification{Measure: ref.Measure}
	abs, rel := pairErrors(m, ref)
	v.Absolute = abs
	v.Signature = SignatureError(m, ref, ref.Dense, ref.DenseOn)
	switch ref.Measure {
	case Relative:
		v.Reported = rel
	case Uniform:
		v.Reported = signatureErrorsWeighted(m, ref, ref.Dense, ref.DenseOn, func([]float64) float64 { return 1 })
	default:
		v.Reported = abs
	}
	m.Errors = v
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
	return signatureErrorsWeighted(m, ref, pts, on, ref.Weight)
}

func signatureErrorsWeighted(m *Map, ref *Reference, pts [][]float64, on string, w func([]float64) float64) Measurement {
	out := Measurement{On: on, Points: len(pts)}
	if len(pts) == 0 || ref.Signature == nil {
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

// SignatureAt returns the map's approximation of the signature at λ. For
// Fourier and Modulation maps it is k̂(λ) itself (Signature), which is what
// Ψ(x)·Ψ(y)/(amp(x)amp(y)) equals for every pair with argument λ. The Li and
// Chebyshev series are not exactly homogeneous: for them it is computed with
// the reference evaluator along the pairs where the absolute error is
// largest, y = the domain's upper end and x = y·e^{−|λ|}, divided by the
// amplitude (xy)^{γ/2}.
func (m *Map) SignatureAt(lambda []float64) float64 {
	if m.Form == Fourier || m.Form == Modulation {
		return m.Signature(lambda)
	}
	l := math.Abs(lambda[0])
	y := m.Domain.Hi[0]
	x := y * math.Exp(-l)
	return m.Dot([]float64{x}, []float64{y}) / (math.Pow(x, m.Gamma/2) * math.Pow(y, m.Gamma/2))
}
