package learn

import (
	"errors"
	"fmt"
	"math"
	"sync"

	"gonum.org/v1/gonum/mat"
)

// eval returns the objective E(θ) = ½‖F‖² + Penalty·Σ_a log²(σ_a/σ0_a),
// F = Z_v W − Y_v, and the validation error ‖F‖²/N_v; with grad non-nil
// it also writes ∂E/∂θ there.
//
// The gradient (eqs. 5–9 in matrix form, K targets at once): with
// R = Y − ZW the training residual and A = Q⁻¹Z_vᵀF (one back-solve),
//
//	dE = tr(Fᵀ dZ_v W) + tr(Aᵀ dZᵀ R) − tr(Aᵀ Zᵀ dZ W)
//	   = Σ_{validation i} dz_i·(W f_i) + Σ_{training i} dz_i·(A r_i − W Aᵀz_i),
//
// since dW = Q⁻¹(dZᵀY − dQ W) = Q⁻¹(dZᵀR − ZᵀdZ W). Every row contributes
// dz_i·v_i for a D-vector v_i, and as z's components of frequency j depend
// on θ only through its phase p_j = Σ_a ω_ja t_a, with ∂p_j/∂θ_a =
// sgn·ω_ja t_a, dz_i·v_i = sgn Σ_j e_ij Σ_a ω_ja t_ia dθ_a where e_ij =
// Σ_{components c of j} (∂z_c/∂p_j) v_ic. So one pass accumulates
// G_ja = Σ_i e_ij t_ia (per axis) or Σ_i e_ij p_ij (shared).
func (l *learner) eval(theta, grad []float64) (obj, mse float64, err error) {
	w := l.freqs(theta)
	ch, wt, err := l.fit(w)
	if err != nil {
		return 0, 0, err
	}
	var sq float64
	ztf := mat.NewDense(l.d, l.k, nil)
	G := make([]float64, len(w))
	var shared float64
	var tmp mat.Dense
	acc := func(s *scratch, G []float64, shared *float64) {
		zr, vr := s.z.RawMatrix(), s.v.RawMatrix()
		for r := range zr.Rows {
			zi, vi := zr.Data[r*zr.Stride:r*zr.Stride+l.d], vr.Data[r*vr.Stride:r*vr.Stride+l.d]
			for j := range l.m {
				var e float64
				if l.cosSin {
					e = zi[2*j]*vi[2*j+1] - zi[2*j+1]*vi[2*j]
				} else {
					e = -math.Sqrt(2/float64(l.m)) * math.Sin(s.p[r*l.m+j]+l.phase[j]) * vi[j]
				}
				if l.perAxis {
					for a, ta := range s.t[r*l.n : (r+1)*l.n] {
						G[j*l.n+a] += e * ta
					}
				} else {
					*shared += e * s.p[r*l.m+j]
				}
			}
		}
	}
	err = l.each(l.val, w, func(s *scratch) {
		s.f.Mul(s.z, wt)
		s.f.Sub(s.f, s.y)
		fr := s.f.RawMatrix()
		for r := range fr.Rows {
			for _, v := range fr.Data[r*fr.Stride : r*fr.Stride+l.k] {
				sq += v * v
			}
		}
		if grad == nil {
			return
		}
		tmp.Mul(s.z.T(), s.f)
		ztf.Add(ztf, &tmp)
		s.v.Mul(s.f, wt.T()) // v_i = W f_i
		acc(s, G, &shared)
	})
	if err != nil {
		return 0, 0, err
	}
	var pen float64
	s := l.sigmas(theta)
	for a := range s {
		d := math.Log(s[a]) - l.logSig0[a]
		pen += d * d
	}
	obj, mse = sq/2+l.penalty*pen, sq/float64(len(l.val))
	if grad == nil {
		return obj, mse, nil
	}
	var am mat.Dense
	if err := ch.SolveTo(&am, ztf); err != nil {
		return 0, 0, fmt.Errorf("learn: learning σ: the gradient's back-solve: %w", err)
	}
	// The training rows' pass runs in fitParts parts as fit's does, each
	// with its own G (or shared sum), added in part order.
	Gs := make([][]float64, fitParts)
	shareds := make([]float64, fitParts)
	errs := make([]error, fitParts)
	var wg sync.WaitGroup
	for p := range fitParts {
		lo, hi := p*len(l.train)/fitParts, (p+1)*len(l.train)/fitParts
		Gs[p] = make([]float64, len(w))
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[p] = l.each(l.train[lo:hi], w, func(s *scratch) {
				s.f.Mul(s.z, wt)
				s.f.Sub(s.y, s.f) // r_i = y_i − Wᵀz_i
				s.v.Mul(s.f, am.T())
				var qa, qw mat.Dense
				qa.Mul(s.z, &am) // q_i = Aᵀz_i
				qw.Mul(&qa, wt.T())
				s.v.Sub(s.v, &qw) // v_i = A r_i − W q_i
				acc(s, Gs[p], &shareds[p])
			})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, 0, err
	}
	for p := range fitParts {
		for i, v := range Gs[p] {
			G[i] += v
		}
		shared += shareds[p]
	}
	sgn := -1.0
	if l.skewed {
		sgn = 1
	}
	if l.perAxis {
		for a := range l.n {
			var g float64
			for j := range l.m {
				g += w[j*l.n+a] * G[j*l.n+a]
			}
			grad[a] = sgn*g + 2*l.penalty*theta[a]
		}
	} else {
		grad[0] = sgn*shared + 2*l.penalty*float64(l.n)*theta[0]
	}
	return obj, mse, nil
}

// scores fits the ridge model on the training rows at θ and returns the
// validation rows' scores (N_v×K, the centred targets' scale).
func (l *learner) scores(theta []float64) (*mat.Dense, error) {
	w := l.freqs(theta)
	_, wt, err := l.fit(w)
	if err != nil {
		return nil, err
	}
	out := mat.NewDense(len(l.val), l.k, nil)
	row := 0
	err = l.each(l.val, w, func(s *scratch) {
		c, _ := s.z.Dims()
		dst := out.Slice(row, row+c, 0, l.k).(*mat.Dense)
		dst.Mul(s.z, wt)
		row += c
	})
	return out, err
}
