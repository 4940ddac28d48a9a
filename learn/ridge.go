package learn

import (
	"errors"
	"fmt"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// fitParts is the number of parts of the training rows whose ZᵀZ fit
// accumulates in parallel (two: the smallest machine featmap is meant for
// has 2 cores).
const fitParts = 2

// fit solves the ridge system on the training rows at frequencies w: the
// Cholesky factor of Q = ZᵀZ + λI and W = Q⁻¹ZᵀY (D×K).
func (l *learner) fit(w []float64) (*mat.Cholesky, *mat.Dense, error) {
	// The training rows are split into fitParts fixed parts (SymRankK's
	// Dsyrk is serial), each accumulated by its own goroutine.
	return ridgeSolve(l.d, l.k, fitParts, l.lambda, func(p int, fn func(z, y *mat.Dense)) error {
		lo, hi := p*len(l.train)/fitParts, (p+1)*len(l.train)/fitParts
		return l.each(l.train[lo:hi], w, func(s *scratch) { fn(s.z, s.y) })
	})
}

// ridgeAccumulate sums ZᵀZ and ZᵀY over the chunks that each(p, fn)
// hands to fn for part p (see ridgeSolve), without λ.
func ridgeAccumulate(d, k, parts int, each func(p int, fn func(z, y *mat.Dense)) error) (*mat.SymDense, *mat.Dense, error) {
	qs := make([]*mat.SymDense, parts)
	ztys := make([]*mat.Dense, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		q, zty := mat.NewSymDense(d, nil), mat.NewDense(d, k, nil)
		qs[p], ztys[p] = q, zty
		wg.Add(1)
		go func() {
			defer wg.Done()
			var tmp mat.Dense
			errs[p] = each(p, func(z, y *mat.Dense) {
				q.SymRankK(q, 1, z.T())
				tmp.Mul(z.T(), y)
				zty.Add(zty, &tmp)
			})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	q, zty := qs[0], ztys[0]
	for p := 1; p < parts; p++ {
		q.AddSym(q, qs[p])
		zty.Add(zty, ztys[p])
	}
	return q, zty, nil
}

// ridgeSolve accumulates Q = ZᵀZ + λI and ZᵀY over the chunks that
// each(p, fn) hands to fn for part p = 0 … parts−1 (a chunk's features z,
// rows×D, and targets y, rows×K: memory O(parts·D²), not O(N·D)). Every
// part runs in its own goroutine into its own Q and ZᵀY, and the parts are
// summed in part order, so the result does not depend on the number of
// cores. It returns Q's Cholesky factor and W = Q⁻¹ZᵀY (D×K).
func ridgeSolve(d, k, parts int, lambda float64, each func(p int, fn func(z, y *mat.Dense)) error) (*mat.Cholesky, *mat.Dense, error) {
	q, zty, err := ridgeAccumulate(d, k, parts, each)
	if err != nil {
		return nil, nil, err
	}
	for i := range d {
		q.SetSym(i, i, q.At(i, i)+lambda)
	}
	var ch mat.Cholesky
	if !ch.Factorize(q) {
		return nil, nil, fmt.Errorf("learn: ridge: ZᵀZ + λI is not positive definite at λ = %g: raise the ridge", lambda)
	}
	var wt mat.Dense
	if err := ch.SolveTo(&wt, zty); err != nil {
		return nil, nil, fmt.Errorf("learn: ridge: the solve: %w", err)
	}
	return &ch, &wt, nil
}

// RidgeModel is a linear model on features z(x) ∈ ℝᴰ: score_c(x) =
// Σ_j W[j*K+c]·z_j(x) + Bias[c] for its K outputs.
type RidgeModel struct {
	// Classes are the class labels in output order (nil for regression,
	// K = 1).
	Classes []float64
	// W is D×K, row-major; Bias has K entries.
	W, Bias []float64
}

// Ridge fits the ridge model LearnSigma fits (eq. 2), on every one of
// rows: targets coded as LearnSigma codes them (labels, or one-vs-rest ±1
// per class for classes) and centred by their mean over rows, which is
// the model's bias; W = (ZᵀZ + λI)⁻¹ZᵀY with Z the rows' features, which
// features(dst, x) writes (dim of them), accumulated a chunk of 256 rows at
// a time.
func Ridge(rows [][]float64, labels []float64, classes bool, lambda float64, dim int, features func(dst, x []float64)) (RidgeModel, error) {
	switch {
	case len(rows) == 0 || len(rows) != len(labels):
		return RidgeModel{}, fmt.Errorf("learn: ridge: %d rows and %d labels (want as many, at least 1)", len(rows), len(labels))
	case !(lambda > 0):
		return RidgeModel{}, fmt.Errorf("learn: ridge: λ = %v, want positive", lambda)
	case dim < 1:
		return RidgeModel{}, fmt.Errorf("learn: ridge: dimension %d", dim)
	}
	cls, k, y := codeTargets(labels, classes)
	bias := make([]float64, k)
	for i := range rows {
		for c := range k {
			bias[c] += y[i*k+c]
		}
	}
	for c := range bias {
		bias[c] /= float64(len(rows))
	}
	// A regression's centred targets far from 1 are scaled by a power of
	// two (targetScale) and the weights scaled back: exactly the weights
	// of the labels, without their squares overflowing or underflowing.
	scale := 1.0
	if !classes {
		centred := make([]float64, len(rows))
		for i := range rows {
			centred[i] = y[i] - bias[0]
		}
		scale = targetScale(centred)
	}
	const chunk = 256
	z := mat.NewDense(min(chunk, len(rows)), dim, nil)
	yc := mat.NewDense(min(chunk, len(rows)), k, nil)
	_, wt, err := ridgeSolve(dim, k, 1, lambda, func(_ int, fn func(z, y *mat.Dense)) error {
		for lo := 0; lo < len(rows); lo += chunk {
			hi := min(lo+chunk, len(rows))
			zs, ys := z.Slice(0, hi-lo, 0, dim).(*mat.Dense), yc.Slice(0, hi-lo, 0, k).(*mat.Dense)
			for r := lo; r < hi; r++ {
				features(zs.RawRowView(r-lo), rows[r])
				for c := range k {
					ys.Set(r-lo, c, (y[r*k+c]-bias[c])*scale)
				}
			}
			fn(zs, ys)
		}
		return nil
	})
	if err != nil {
		return RidgeModel{}, err
	}
	w := slices.Clone(wt.RawMatrix().Data)
	if scale != 1 {
		for i := range w {
			w[i] /= scale
		}
	}
	return RidgeModel{Classes: cls, W: w, Bias: bias}, nil
}
