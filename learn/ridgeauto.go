package learn

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/design/learnplan"
)

// chooseRidge returns the λ of learnplan.RidgeGrid whose ridge fit on the training
// rows has the least validation error at θ (the first of equals), and
// every λ's error. ZᵀZ and ZᵀY of the training rows and of the validation
// rows are accumulated once; each λ is then one Cholesky factorisation of
// ZᵀZ + λI and the closed-form validation error
// ‖Z_vW − Y_v‖² = tr(WᵀZ_vᵀZ_vW) − 2tr(WᵀZ_vᵀY_v) + ‖Y_v‖², divided by
// the validation rows (the error eval reports). A done l.ctx ends it
// before the next λ, with the context's error; say, if not nil, hears of
// every λ before it is tried.
func (l *learner) chooseRidge(theta []float64, say func(string)) (float64, []float64, error) {
	w := l.freqs(theta)
	parts := func(rows []int) func(p int, fn func(z, y *mat.Dense)) error {
		return func(p int, fn func(z, y *mat.Dense)) error {
			lo, hi := p*len(rows)/fitParts, (p+1)*len(rows)/fitParts
			return l.each(rows[lo:hi], w, func(s *scratch) { fn(s.z, s.y) })
		}
	}
	q, zty, err := ridgeAccumulate(l.d, l.k, fitParts, parts(l.train))
	if err != nil {
		return 0, nil, err
	}
	qv, ztyv, err := ridgeAccumulate(l.d, l.k, fitParts, parts(l.val))
	if err != nil {
		return 0, nil, err
	}
	var yy float64
	for _, i := range l.val {
		for _, v := range l.y[i*l.k : (i+1)*l.k] {
			yy += v * v
		}
	}
	grid := learnplan.RidgeGrid()
	errs := make([]float64, len(grid))
	best := -1
	a := mat.NewSymDense(l.d, nil)
	var ch mat.Cholesky
	var wt, qw mat.Dense
	for g, lam := range grid {
		// Each λ is a D³/3 factorisation: a cancel is seen between
		// two.
		if err := l.ctx.Err(); err != nil {
			return 0, nil, err
		}
		if say != nil {
			say(fmt.Sprintf("λ %d of %d", g+1, len(grid)))
		}
		a.CopySym(q)
		for i := range l.d {
			a.SetSym(i, i, a.At(i, i)+lam)
		}
		if !ch.Factorize(a) {
			errs[g] = math.Inf(1)
			continue
		}
		if err := ch.SolveTo(&wt, zty); err != nil {
			errs[g] = math.Inf(1)
			continue
		}
		qw.Mul(qv, &wt)
		var quad, lin float64
		for i := range l.d {
			for c := range l.k {
				quad += wt.At(i, c) * qw.At(i, c)
				lin += wt.At(i, c) * ztyv.At(i, c)
			}
		}
		errs[g] = math.Max(quad-2*lin+yy, 0) / float64(len(l.val))
		if best < 0 || errs[g] < errs[best] {
			best = g
		}
	}
	if best < 0 {
		return 0, errs, fmt.Errorf("learn: ridge auto: ZᵀZ + λI is not positive definite at any λ of %g … %g", grid[0], grid[len(grid)-1])
	}
	return grid[best], errs, nil
}
