package fmap

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sync"
)

// Reference is the exact kernel of a problem and the sets its maps are
// measured on. Problem.Reference builds it once per problem.
type Reference struct {
	// Problem is what the reference measures against: the exact kernel,
	// its signature and the error weight of the measure.
	Problem *Problem
	// Measure is the measure reported: the problem's, except that the
	// absolute error of a multi-dimensional shift-invariant kernel is
	// reported as the (equal) uniform signature error, whose dense λ grid
	// covers the differences x − y far more finely than pairs of a grid of
	// inputs can.
	Measure Measure
	// Inputs are the verification inputs: kernel errors are taken over all
	// ordered pairs of them. InputsOn names them in words.
	Inputs   [][]float64
	InputsOn string
	// Dense is the dense grid of signature arguments λ and DenseOn names it
	// (empty for kernels without a signature).
	Dense   [][]float64
	DenseOn string

	exactMu sync.Mutex
	exact   []float64 // Exact over all ordered pairs of Inputs, row-major, once computed

	heldMu     sync.Mutex
	held       []float64 // heldKernel over the pairs of heldData's held-out rows
	heldKernel Kernel
	heldData   *Data
	heldEig    []float64 // the eigenvalues of the Gram matrix of held's first heldEigRow rows
	heldEigRow int
}

// Exact is the kernel K(x, y).
func (r *Reference) Exact(x, y []float64) float64 { return r.Problem.Kernel.Eval(x, y) }

// Signature is the exact signature k(λ).
func (r *Reference) Signature(lambda []float64) float64 { return r.Problem.Kernel.Signature(lambda) }

// Weight is the error weight w(λ) of the problem's measure.
func (r *Reference) Weight(lambda []float64) float64 { return r.Problem.Weight(lambda) }

// Verification set sizes.
const (
	// HomogeneousInputs is the number of log-spaced verification inputs on
	// an interval domain of a homogeneous kernel (besides 0).
	HomogeneousInputs = 1500
	// RBFInputs is the number of equally spaced verification inputs on a
	// one-dimensional interval of the RBF kernel.
	RBFInputs = 2001
	// MaxIntegerInputs bounds every integer domain: all its ordered pairs
	// are measured (4096² = 16.8 M exact values; docs/limits.md).
	MaxIntegerInputs = 1 << 12
	// MaxHomogeneousIntegers and MaxRBFIntegers bound the integer domains
	// whose every pair is verified.
	MaxHomogeneousIntegers = MaxIntegerInputs
	MaxRBFIntegers         = 4096
	// DenseStep is the largest λ step of a homogeneous kernel's dense
	// signature grid, and DenseMinPoints its smallest number of points.
	DenseStep      = 0.001
	DenseMinPoints = 2001
)

// newReference builds the reference of p:
//
//   - homogeneous kernels: every integer lo..hi of an integer domain (0
//     included when lo = 0), or {0} ∪ 1500 log-spaced points from lo to hi
//     of an interval (whose lo must be positive: it is the smallest nonzero
//     input); the dense grid is λ on [0, M], M = log(hi/m) with m the
//     smallest nonzero input, in steps of at most 0.001 and at least 2001
//     points;
//   - the RBF kernel on one axis: every integer of an integer domain, or
//     2001 equally spaced points of an interval; the dense grid is λ on
//     [0, hi − lo], ten times denser than the default evaluation set of
//     Chum's designer (RBFZStep) and at least 2001 points;
//   - the other kernels on one axis: 2001 equally spaced points (every
//     integer of an integer domain), and for the skewed kernels a dense
//     grid of λ = t(x) − t(y) ∈ [0, M], M = t(hi) − t(lo), of 2001 points;
//   - on 2 or 3 axes: a 15² or 8³ grid of inputs on the box, and for the
//     shift-invariant kernels a dense grid of λ = t(x) − t(y) over
//     Π_{i<n}[−M_i, M_i] × [0, M_n] (every difference up to sign), ten
//     (2-D) or four (3-D) times denser per axis than the multi-dimensional
//     designer's default Z (41 or 15 points per axis);
//   - on more axes: SampledPoints points drawn uniformly from the box
//     (integers on an integer domain) with a fixed seed, and no dense grid.
func newReference(p *Problem) (*Reference, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	ref := &Reference{Problem: p, Measure: p.Measure}
	switch n := p.InDim(); {
	case p.Kernel.Homogeneous():
		return ref, ref.homogeneous()
	case n == 1 && p.Kernel.Type == RBF:
		return ref, ref.rbf1()
	case n == 1:
		return ref, ref.line()
	case n <= MaxGridAxes:
		return ref, ref.grid()
	}
	return ref, ref.sampled()
}

func (ref *Reference) homogeneous() error {
	p := ref.Problem
	m, err := p.SmallestNonzero()
	if err != nil {
		return err
	}
	lo, hi := p.Domain.Lo[0], p.Domain.Hi[0]
	if p.Domain.Integer {
		n := int(hi-lo) + 1
		if n > MaxHomogeneousIntegers {
			return fmt.Errorf("fmap: integer domain {%g..%g} has %d inputs, more than the %d a pairwise verification can take", lo, hi, n, MaxHomogeneousIntegers)
		}
		ref.Inputs = make([][]float64, n)
		for i := range ref.Inputs {
			ref.Inputs[i] = []float64{lo + float64(i)}
		}
		ref.InputsOn = fmt.Sprintf("x, y ∈ {%g..%g}", lo, hi)
	} else {
		ref.Inputs = make([][]float64, 0, HomogeneousInputs+1)
		ref.Inputs = append(ref.Inputs, []float64{0})
		for _, x := range LogSpace(lo, hi, HomogeneousInputs) {
			ref.Inputs = append(ref.Inputs, []float64{x})
		}
		ref.InputsOn = fmt.Sprintf("x, y ∈ {0} ∪ %d log-spaced points in [%g, %g]", HomogeneousInputs, lo, hi)
	}
	M := math.Log(hi / m)
	n := max(DenseMinPoints, int(math.Ceil(M/DenseStep))+1)
	ref.Dense = make([][]float64, n)
	for i := range ref.Dense {
		ref.Dense[i] = []float64{M * float64(i) / float64(n-1)}
	}
	ref.DenseOn = fmt.Sprintf("%d points of λ ∈ [0, log(%g/%g)] = [0, %.6g], step %.3g", n, hi, m, M, M/float64(n-1))
	return nil
}

// RBFZStep is the default spacing of the evaluation set Z of Chum's
// designer for the RBF kernel of width sigma on [lo, hi]: at least 20
// points per period of the pool's largest frequency 5/σ and at least 200
// points; the integers' spacing 1 on an integer domain.
func RBFZStep(sigma, lo, hi float64, integer bool) float64 {
	if integer {
		return 1
	}
	return math.Min(2*math.Pi/(20*5/sigma), (hi-lo)/200)
}

func (ref *Reference) rbf1() error {
	p := ref.Problem
	lo, hi := p.Domain.Lo[0], p.Domain.Hi[0]
	M := hi - lo
	if p.Domain.Integer {
		n := int(M) + 1
		if n > MaxRBFIntegers {
			return fmt.Errorf("fmap: integer domain {%g..%g} has %d inputs, more than the %d a pairwise verification takes", lo, hi, n, MaxRBFIntegers)
		}
		for i := range n {
			ref.Inputs = append(ref.Inputs, []float64{lo + float64(i)})
		}
		ref.InputsOn = fmt.Sprintf("x, y ∈ {%g..%g}", lo, hi)
	} else {
		for i := range RBFInputs {
			ref.Inputs = append(ref.Inputs, []float64{lo + M*float64(i)/(RBFInputs-1)})
		}
		ref.InputsOn = fmt.Sprintf("x, y on %d equally spaced points of [%g, %g]", RBFInputs, lo, hi)
	}
	step := RBFZStep(p.Kernel.Sigma[0], lo, hi, p.Domain.Integer)
	n := max(2000, int(math.Ceil(10*M/step)))
	ref.Dense = make([][]float64, n+1)
	for i := range ref.Dense {
		ref.Dense[i] = []float64{M * float64(i) / float64(n)}
	}
	ref.DenseOn = fmt.Sprintf("%d equally spaced λ in [0, %.6g]", n+1, M)
	return nil
}

// line is the reference of a kernel other than RBF on one axis.
func (ref *Reference) line() error {
	p := ref.Problem
	lo, hi := p.Domain.Lo[0], p.Domain.Hi[0]
	if p.Domain.Integer && hi-lo < MaxRBFIntegers {
		for v := lo; v <= hi; v++ {
			ref.Inputs = append(ref.Inputs, []float64{v})
		}
		ref.InputsOn = fmt.Sprintf("x, y ∈ {%g..%g}", lo, hi)
	} else {
		for _, v := range Linspace(lo, hi, RBFInputs) {
			ref.Inputs = append(ref.Inputs, []float64{v})
		}
		ref.InputsOn = fmt.Sprintf("x, y on %d equally spaced points of [%g, %g]", RBFInputs, lo, hi)
	}
	if k := p.Kernel; k.ShiftInvariant() {
		M := k.T(hi) - k.T(lo)
		for _, l := range Linspace(0, M, DenseMinPoints) {
			ref.Dense = append(ref.Dense, []float64{l})
		}
		ref.DenseOn = fmt.Sprintf("%d equally spaced λ = t(x) − t(y) in [0, %.6g]", DenseMinPoints, M)
	}
	return nil
}

// Grids of the multi-dimensional reference (2-D and 3-D).
const (
	// inputsPerAxis2 and inputsPerAxis3 are the verification inputs per
	// axis.
	inputsPerAxis2, inputsPerAxis3 = 15, 8
	// ZPoints2 and ZPoints3 are the points per axis of the
	// multi-dimensional designer's default evaluation set Z, which the
	// dense grid refines ten (2-D) or four (3-D) times per axis.
	ZPoints2, ZPoints3 = 41, 15
	// MaxGridAxes is the largest input dimension verified on grids; on
	// more axes the inputs are SampledPoints points of the box.
	MaxGridAxes = 3
	// SampledPoints is the number of inputs drawn on more than
	// MaxGridAxes axes: every ordered pair of them, 10⁶, is verified.
	SampledPoints = 1000
)

// gridSizes returns the inputs per axis, the default Z's points per axis
// and the dense grid's refinement of the reference on n = 2 or 3 axes.
func gridSizes(n int) (g, z, denser int) {
	if n == 3 {
		return inputsPerAxis3, ZPoints3, 4
	}
	return inputsPerAxis2, ZPoints2, 10
}

// denseAxisPoints is the number of dense λ points on [0, span] of one axis
// of the 2-D or 3-D reference: z − 1 steps of the default Z, each refined
// denser times.
func denseAxisPoints(span float64, z, denser int) int {
	zStep := span / float64(z-1)
	return int(math.Ceil(span/zStep))*denser + 1
}

// grid is the reference on 2 or 3 axes.
func (ref *Reference) grid() error {
	p := ref.Problem
	n := p.InDim()
	if ref.Measure == Absolute && p.Kernel.ShiftInvariant() {
		ref.Measure = Uniform
	}
	g, z, denser := gridSizes(n)
	var axes [][]float64
	for i := range n {
		axes = append(axes, Linspace(p.Domain.Lo[i], p.Domain.Hi[i], g))
	}
	ref.Inputs = Product(axes)
	ref.InputsOn = fmt.Sprintf("a %s grid on the box", gridShape(n, g))
	if !p.Kernel.ShiftInvariant() {
		return nil
	}
	span := func(i int) float64 { return p.Kernel.T(p.Domain.Hi[i]) - p.Kernel.T(p.Domain.Lo[i]) }
	var dense [][]float64
	shape, box := "", ""
	for i := range n {
		k := denseAxisPoints(span(i), z, denser)
		var ax []float64
		if i < n-1 {
			ax = Linspace(-span(i), span(i), 2*k-1)
		} else {
			ax = Linspace(0, span(i), k)
		}
		dense = append(dense, ax)
		if i > 0 {
			shape += "×"
			box += " × "
		}
		shape += fmt.Sprint(len(ax))
		if i < n-1 {
			box += fmt.Sprintf("[−%.4g, %.4g]", span(i), span(i))
		} else {
			box += fmt.Sprintf("[0, %.4g]", span(i))
		}
	}
	ref.Dense = Product(dense)
	what := "x − y"
	if p.Kernel.Skewed() {
		what = "t(x) − t(y)"
	}
	ref.DenseOn = fmt.Sprintf("a %s grid of λ = %s over %s", shape, what, box)
	return nil
}

// sampled is the reference on more than MaxGridAxes axes: SampledPoints
// points drawn uniformly from the box (uniform integers on an integer
// domain) by a PCG seeded with 1.
func (ref *Reference) sampled() error {
	p := ref.Problem
	rng := rand.New(rand.NewPCG(1, 1))
	n := p.InDim()
	ref.Inputs = make([][]float64, SampledPoints)
	for i := range ref.Inputs {
		x := make([]float64, n)
		for j := range x {
			lo, hi := p.Domain.Lo[j], p.Domain.Hi[j]
			if p.Domain.Integer {
				x[j] = lo + float64(rng.Int64N(int64(hi-lo)+1))
			} else {
				x[j] = lo + (hi-lo)*rng.Float64()
			}
		}
		ref.Inputs[i] = x
	}
	ref.InputsOn = fmt.Sprintf("%d points drawn uniformly from the box (seed 1)", SampledPoints)
	if ref.Measure == Uniform {
		ref.Measure = Absolute // the same error for a shift-invariant kernel, measured on pairs
	}
	return nil
}

func gridShape(n, g int) string {
	s := fmt.Sprint(g)
	for i := 1; i < n; i++ {
		s += fmt.Sprintf("×%d", g)
	}
	return s
}

// LogSpace returns n ≥ 2 points from lo to hi (both > 0) evenly spaced in
// log, with the ends exact.
func LogSpace(lo, hi float64, n int) []float64 {
	out := make([]float64, n)
	r := math.Log(hi / lo)
	for i := range out {
		out[i] = lo * math.Exp(r*float64(i)/float64(n-1))
	}
	out[0], out[n-1] = lo, hi
	return out
}

// Linspace returns k ≥ 2 equally spaced points from a to b.
func Linspace(a, b float64, k int) []float64 {
	out := make([]float64, k)
	for i := range out {
		out[i] = a + (b-a)*float64(i)/float64(k-1)
	}
	return out
}

// Product returns the Cartesian product of the axes, the last axis varying
// fastest.
func Product(axes [][]float64) [][]float64 {
	out := [][]float64{nil}
	for _, ax := range axes {
		next := make([][]float64, 0, len(out)*len(ax))
		for _, p := range out {
			for _, v := range ax {
				q := make([]float64, len(p), len(p)+1)
				copy(q, p)
				next = append(next, append(q, v))
			}
		}
		out = next
	}
	return out
}

// heldPairs returns k over the ordered pairs of d's held-out rows (see
// the function heldPairs), computed once per Reference for the kernel and
// data it was last asked for: every map a design or a comparison verifies
// on the problem's data is a map of the problem's kernel (a learned σ
// changes the kernel, and so computes them afresh). If ctx is done first
// it returns ctx's error and keeps nothing.
func (r *Reference) heldPairs(ctx context.Context, k Kernel, d *Data) ([]float64, error) {
	r.heldMu.Lock()
	defer r.heldMu.Unlock()
	if r.held != nil && r.heldData == d && reflect.DeepEqual(r.heldKernel, k) {
		return r.held, nil
	}
	held, err := heldPairs(ctx, k, d.Held)
	if err != nil {
		return nil, err
	}
	r.held, r.heldData, r.heldKernel = held, d, k.Clone()
	r.heldEig = nil
	return held, nil
}

// heldEigenvalues returns the eigenvalues of the Gram matrix of the first
// rows of the held-out rows whose kernel values exact holds (n×n), as
// the function heldEigenvalues, computed once for the held-out pairs the
// Reference keeps (exact, which heldPairs returned).
func (r *Reference) heldEigenvalues(ctx context.Context, exact []float64, n, rows int) ([]float64, error) {
	r.heldMu.Lock()
	defer r.heldMu.Unlock()
	cached := len(r.held) > 0 && len(exact) > 0 && &r.held[0] == &exact[0]
	if cached && r.heldEig != nil && r.heldEigRow == rows {
		return r.heldEig, nil
	}
	vals, err := heldEigenvalues(ctx, exact, n, rows)
	if err != nil {
		return nil, err
	}
	if cached {
		r.heldEig, r.heldEigRow = vals, rows
	}
	return vals, nil
}

// exactPairs returns K over all ordered pairs of the inputs, computed once
// per Reference (a design measures several maps against one). Only the
// pairs (i, j ≥ i) are filled: the kernels are symmetric. If ctx is done
// first (looked at before every row) it returns ctx's error and keeps
// nothing, so that the next call computes them afresh.
func (r *Reference) exactPairs(ctx context.Context) ([]float64, error) {
	r.exactMu.Lock()
	defer r.exactMu.Unlock()
	if r.exact != nil {
		return r.exact, nil
	}
	n := len(r.Inputs)
	exact := make([]float64, n*n)
	for i, x := range r.Inputs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for j := i; j < n; j++ {
			exact[i*n+j] = r.Exact(x, r.Inputs[j])
		}
	}
	r.exact = exact
	return exact, nil
}
