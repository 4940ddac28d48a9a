package fmap

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strings"
	"sync"
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
	// Frobenius is the relative Frobenius error ‖K − ΨΨᵀ‖_F / ‖K‖_F of the
	// Gram matrix of the verification inputs.
	Frobenius float64 `json:"frobenius"`
	// Signature is the weighted signature error w(λ)|k(λ) − k̂(λ)| on a grid
	// at least ten times denser than the design set.
	Signature Measurement `json:"signature"`
	// Design is the same weighted signature error on the design set Z of an
	// optimising method (empty for closed forms).
	Design Measurement `json:"design"`
	// Data is the error on the held-out rows of the spec's data (nil
	// without data).
	Data *DataVerification `json:"data,omitempty"`
}

// Verified is a map with what was measured of it: what the code generator
// emits and a report shows.
type Verified struct {
	Map          *Map          `json:"map"`
	Verification *Verification `json:"verification"`
	// Data says which columns of its data file the map was designed from
	// (nil for a map designed without data, or read from a map file
	// written before featmap recorded it).
	Data *DataColumns `json:"data,omitempty"`
}

// Verify measures m against ref, and on the held-out rows of the
// problem's data if it has any. It does not change m.
//
// A map with a table per coordinate (see Map.Coordinates) is measured on
// the domain coordinate by coordinate, and the worst coordinate's
// verification (by its reported L∞ error) is the map's, its sets named
// with the coordinate.
//
// A map of whole rows of an additive kernel (see Map.WholeRows) is measured
// on the domain along its diagonal, by verifyRows.
//
// Verify cannot be stopped; VerifyContext can.
func Verify(m *Map, ref *Reference) Verification {
	v, _ := VerifyContext(context.Background(), m, ref)
	return v
}

// VerifyContext is Verify that stops soon after ctx is done (it looks at
// ctx between rows of pairs, every few inputs and signature points), and
// then returns ctx's error and no verification. Its cost is about
// VerifyCost multiply-adds.
func VerifyContext(ctx context.Context, m *Map, ref *Reference) (Verification, error) {
	if m.WholeRows() {
		return verifyRows(ctx, m, ref)
	}
	c := m.Coordinates()
	if c == 1 {
		return verifyAt(ctx, m, ref, true)
	}
	var worst Verification
	at := 0
	for j := range c {
		v, err := verifyAt(ctx, m.Coordinate(j), ref, false)
		if err != nil {
			return Verification{}, err
		}
		if j == 0 || nanMax(v.Reported.LInf, worst.Reported.LInf) != worst.Reported.LInf {
			worst, at = v, j
		}
	}
	for _, ms := range []*Measurement{&worst.Reported, &worst.Absolute, &worst.Signature} {
		ms.On = fmt.Sprintf("%s, at coordinate %d of %d (the worst)", ms.On, at, c)
	}
	if ref.Problem != nil {
		var err error
		if worst.Data, err = verifyData(ctx, m, ref.Problem.Data, ref); err != nil {
			return Verification{}, err
		}
	}
	return worst, nil
}

// verifyAt verifies a map that is the same for every coordinate, on the
// data too if withData is set.
func verifyAt(ctx context.Context, m *Map, ref *Reference, withData bool) (Verification, error) {
	v := Verification{Measure: ref.Measure}
	abs, rel, frob, err := pairErrors(ctx, m, ref)
	if err != nil {
		return Verification{}, err
	}
	v.Absolute, v.Frobenius = abs, frob
	var uni Measurement
	if v.Signature, uni, err = signatureErrors(ctx, m, ref, ref.Dense, ref.DenseOn, ref.Weight, ref.Measure == Uniform); err != nil {
		return Verification{}, err
	}
	if ref.Problem != nil && withData {
		if v.Data, err = verifyData(ctx, m, ref.Problem.Data, ref); err != nil {
			return Verification{}, err
		}
	}
	v.report(ref, rel, abs, uni)
	return v, nil
}

// report sets v.Reported to the error in the reference's measure: rel,
// abs, or uni, the unweighted signature error on the dense grid.
func (v *Verification) report(ref *Reference, rel, abs, uni Measurement) {
	switch ref.Measure {
	case Relative:
		v.Reported = rel
	case Uniform:
		v.Reported = uni
	default:
		v.Reported = abs
	}
}

// WholeRows reports whether m maps whole rows of n > 1 coordinates of an
// additive kernel (K(x, y) = Σ_j k(x_j, y_j), a homogeneous k): a Nyström
// map, whose problem's domain is one axis of every coordinate.
func (m *Map) WholeRows() bool { return m.InDim > 1 && m.Kernel.Homogeneous() }

// verifyRows verifies a map of whole rows (see Map.WholeRows) against the
// one-axis reference of its problem. On the domain it takes the rows
// (v, …, v) of n equal coordinates for every verification input v of the
// axis, all ordered pairs, with K = n·k(v, w) (k over the reference's
// cached pairs), and states the absolute error per coordinate,
// |K − Ψ·Ψ|/n. Of the choices, these rows are the only ones that
//
//   - reach every value of the axis and every pair of values (0 against the
//     largest included), where random rows of the box concentrate around
//     K ≈ n·E[k] and leave a Gram matrix nearly constant;
//   - give an error comparable with every one-axis map's in the same report:
//     an additive map ψ applied to each coordinate leaves exactly n times
//     its one-axis error on them;
//   - need no seed and no extra exact kernel values.
//
// The signature error is taken along the same rows (Map.SignatureAt). The
// meaningful figure of a Nyström map, fitted to the data and good near it
// only, is its held-out data error (VerifyData), also measured here.
func verifyRows(ctx context.Context, m *Map, ref *Reference) (Verification, error) {
	n := m.InDim
	v := Verification{Measure: ref.Measure}
	psi := make([][]float64, len(ref.Inputs))
	row := make([]float64, n)
	for i, x := range ref.Inputs {
		if err := ctx.Err(); err != nil {
			return Verification{}, err
		}
		for j := range row {
			row[j] = x[0]
		}
		psi[i] = make([]float64, m.Dim)
		m.Eval(psi[i], row)
	}
	one, err := ref.exactPairs(ctx)
	if err != nil {
		return Verification{}, err
	}
	exact := make([]float64, len(one))
	for i, k := range one {
		exact[i] = float64(n) * k
	}
	on := fmt.Sprintf("the rows (v, …, v) of %d equal coordinates, v %s", n, strings.TrimPrefix(ref.InputsOn, "x, y "))
	abs, rel, frob, err := gramErrors(ctx, psi, exact, on)
	if err != nil {
		return Verification{}, err
	}
	abs.LInf /= float64(n)
	abs.RMS /= float64(n)
	abs.On += fmt.Sprintf(", per coordinate (|K − Ψ·Ψ|/%d)", n)
	v.Absolute, v.Frobenius = abs, frob
	var uni Measurement
	if v.Signature, uni, err = signatureErrors(ctx, m, ref, ref.Dense, ref.DenseOn+", along those rows", ref.Weight, ref.Measure == Uniform); err != nil {
		return Verification{}, err
	}
	if ref.Problem != nil {
		if v.Data, err = verifyData(ctx, m, ref.Problem.Data, ref); err != nil {
			return Verification{}, err
		}
	}
	v.report(ref, rel, abs, uni)
	return v, nil
}

// pairErrors returns the absolute and relative kernel errors over all
// ordered pairs of ref.Inputs, and the relative Frobenius error of their
// Gram matrix. Rows are measured in parallel, each over its pairs (i, j)
// with j ≥ i (a pair and its mirror have the same error), and their sums
// are added in row order, so the result does not depend on scheduling.
func pairErrors(ctx context.Context, m *Map, ref *Reference) (abs, rel Measurement, frob float64, err error) {
	n := len(ref.Inputs)
	psi := make([][]float64, n)
	for i, x := range ref.Inputs {
		if err := ctx.Err(); err != nil {
			return abs, rel, 0, err
		}
		psi[i] = make([]float64, m.Dim)
		m.Eval(psi[i], x)
	}
	exact, err := ref.exactPairs(ctx)
	if err != nil {
		return abs, rel, 0, err
	}
	return gramErrors(ctx, psi, exact, ref.InputsOn)
}

// gramSums are one row's sums of gramErrors.
type gramSums struct {
	absMax, absSq, relMax, relSq, kSq float64
	relCount                          int
}

// add counts the pair of exact kernel value k and feature product d, mult
// times (2: the pair and its mirror).
func (r *gramSums) add(k, d, mult float64) {
	e := math.Abs(k - d)
	r.absMax = nanMax(r.absMax, e)
	// Products rounded before they are added (see dot): the same sums
	// whichever way the compiler would fuse them.
	r.absSq += float64(mult * e * e)
	r.kSq += float64(mult * k * k)
	if k > 0 {
		rr := e / k
		r.relMax = nanMax(r.relMax, rr)
		r.relSq += float64(mult * rr * rr)
		r.relCount += int(mult)
	}
}

// gramErrors measures the features psi of n points against the exact
// kernel values (row-major n×n, the upper triangle j ≥ i filled) of the
// points named on. It stops, returning ctx's error, soon after ctx is
// done: each worker looks at it before every row.
func gramErrors(ctx context.Context, psi [][]float64, exact []float64, on string) (abs, rel Measurement, frob float64, err error) {
	n := len(psi)
	rows := make([]gramSums, n)
	var wg sync.WaitGroup
	workers := max(1, min(runtime.GOMAXPROCS(0), n))
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				if ctx.Err() != nil {
					return
				}
				r := &rows[i]
				ex := exact[i*n : (i+1)*n]
				r.add(ex[i], dot(psi[i], psi[i]), 1)
				// Four pairs at a time: each dot product is summed in
				// the same order as dot's, and the pairs are added in
				// order, so the sums are bit for bit those of one pair
				// at a time; psi[i] is read once for the four.
				j := i + 1
				for ; j+4 <= n; j += 4 {
					d0, d1, d2, d3 := dot4(psi[i], psi[j], psi[j+1], psi[j+2], psi[j+3])
					r.add(ex[j], d0, 2)
					r.add(ex[j+1], d1, 2)
					r.add(ex[j+2], d2, 2)
					r.add(ex[j+3], d3, 2)
				}
				for ; j < n; j++ {
					r.add(ex[j], dot(psi[i], psi[j]), 2)
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return abs, rel, 0, err
	}
	var sa, sr, sk float64
	relCount := 0
	for _, r := range rows {
		abs.LInf, rel.LInf = nanMax(abs.LInf, r.absMax), nanMax(rel.LInf, r.relMax)
		sa, sr, sk, relCount = sa+r.absSq, sr+r.relSq, sk+r.kSq, relCount+r.relCount
	}
	abs.Points = n * n
	abs.On = fmt.Sprintf("all %d ordered pairs of %s", n*n, on)
	if n > 0 {
		abs.RMS = math.Sqrt(sa / float64(n*n))
	}
	rel.Points = relCount
	rel.On = fmt.Sprintf("the %d ordered pairs with K > 0 of %s", relCount, on)
	if relCount > 0 {
		rel.RMS = math.Sqrt(sr / float64(relCount))
	}
	if sk > 0 {
		frob = math.Sqrt(sa / sk)
	}
	return abs, rel, frob, nil
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
	out, _, _ := signatureErrors(context.Background(), m, ref, pts, on, ref.Weight, false)
	return out
}

// signatureErrors is SignatureError with the weight w, stopped by ctx
// (looked at every 256 points), and, if alsoUnweighted, the unweighted
// error on the same points from the same evaluations (the uniform
// measure's reported error, which took a second pass over the dense grid:
// 321 201 points of Table 2's 2-D grid, each D cosines and a kernel).
// Each is what a pass of its own computes, bit for bit (1·e is e).
func signatureErrors(ctx context.Context, m *Map, ref *Reference, pts [][]float64, on string, w func([]float64) float64, alsoUnweighted bool) (weighted, unweighted Measurement, err error) {
	weighted = Measurement{On: on, Points: len(pts)}
	if alsoUnweighted {
		unweighted = weighted
	}
	if len(pts) == 0 {
		return weighted, unweighted, nil
	}
	s, su := 0.0, 0.0
	// The map's signature at 256 points at a time (Map.signaturesAt: a
	// Fourier map's cosines a term at a time over them), the points then
	// taken in order as one by one.
	var khat [256]float64
	for b0 := 0; b0 < len(pts); b0 += len(khat) {
		if err := ctx.Err(); err != nil {
			return Measurement{}, Measurement{}, err
		}
		blk := pts[b0:min(len(pts), b0+len(khat))]
		m.signaturesAt(khat[:len(blk)], blk)
		for k, l := range blk {
			a := math.Abs(ref.Signature(l) - khat[k])
			e := w(l) * a
			weighted.LInf = nanMax(weighted.LInf, e)
			s += e * e
			if alsoUnweighted {
				unweighted.LInf = nanMax(unweighted.LInf, a)
				su += a * a
			}
		}
	}
	weighted.RMS = math.Sqrt(s / float64(len(pts)))
	if alsoUnweighted {
		unweighted.RMS = math.Sqrt(su / float64(len(pts)))
	}
	return weighted, unweighted, nil
}

// OnPoints measures m against its exact kernel over all ordered pairs of
// the points xs, named by on (e.g. "300 rows of digits.csv"): the absolute
// kernel error and the relative Frobenius error ‖K − ΨΨᵀ‖_F/‖K‖_F of
// their Gram matrix.
func OnPoints(m *Map, xs [][]float64, on string) (abs Measurement, frob float64) {
	ref := &Reference{Problem: &Problem{Kernel: m.Kernel}, Inputs: xs, InputsOn: on}
	abs, _, frob, _ = pairErrors(context.Background(), m, ref)
	return abs, frob
}

// RanksOnData reports whether Rank ranks on the held-out data: the map
// was verified on data of at least MinRankRows distinct held-out rows.
func (v *Verification) RanksOnData() bool {
	return v.Data != nil && v.Data.Distinct >= MinRankRows
}

// Rank is the error that ranks maps of one problem against each other, and
// its name: the held-out data's Gram-matrix relative Frobenius error when
// the map was verified on the spec's data and its held-out rows hold at
// least MinRankRows distinct ones, else the reported L∞ error on the
// domain (and with data, why). Method auto and a comparison's best column
// use it.
func (v *Verification) Rank() (float64, string) {
	switch d := v.Data; {
	case v.RanksOnData():
		return d.Frobenius, "held-out data error (Gram matrix, relative Frobenius)"
	case d != nil:
		return v.Reported.LInf, fmt.Sprintf("L∞ error (the held-out rows, %d distinct, are fewer than the %d that can rank maps)", d.Distinct, MinRankRows)
	}
	return v.Reported.LInf, "L∞ error"
}
