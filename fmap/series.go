package fmap

import (
	"errors"
	"fmt"
	"math"
)

// Series is a χ² series map of one input (γ = 1): Li's direct series with
// parameters K (LiSeries) or the Chebyshev series of dimension Dim. Both
// give 0 at x = 0 and follow Negative for x < 0.
type Series struct {
	Form     Form      `json:"form"` // LiSeries or Chebyshev
	K        []float64 `json:"k,omitempty"`
	Dim      int       `json:"dim"`
	Negative Negative  `json:"negative"`
}

// out is the number of components, Dim.
func (s *Series) out(int) int { return s.Dim }

func (s *Series) validate(n int) error {
	if n != 1 {
		return errors.New("fmap: the χ² series maps are one-dimensional")
	}
	switch s.Form {
	case LiSeries:
		if len(s.K) != s.Dim {
			return fmt.Errorf("fmap: Li series with %d parameters and dimension %d", len(s.K), s.Dim)
		}
		for _, k := range s.K {
			if !(k > 0) || math.IsInf(k, 0) {
				return fmt.Errorf("fmap: Li parameter %v is not positive and finite", k)
			}
		}
	case Chebyshev:
		if len(s.K) != 0 {
			return errors.New("fmap: the Chebyshev series has no parameters")
		}
	default:
		return fmt.Errorf("fmap: unknown series form %q", s.Form)
	}
	return checkNegative(s.Negative)
}

// NewSeriesMap returns a one-stage map of s with its dimension set.
func NewSeriesMap(k Kernel, d Domain, method string, s *Series) *Map {
	return &Map{Kernel: k, InDim: d.Dims(), Dim: s.Dim, Domain: d.Clone(), Method: method, Stages: []Stage{{Kind: s}}}
}

func (s *Series) eval(dst, x []float64) {
	if nonFinite(x) {
		fillNaN(dst)
		return
	}
	v, sign, ok := homogeneousInput(x[0], s.Negative)
	if !ok {
		clear(dst)
		return
	}
	if s.Form == LiSeries {
		evalLi(dst, s.K, v)
	} else {
		evalChebyshev(dst, v)
	}
	if sign < 0 {
		for i := range dst {
			dst[i] = -dst[i]
		}
	}
}

// evalLi writes Li's direct series c_1..c_N at x > 0 with a running product.
func evalLi(dst, ks []float64, x float64) {
	p := 1.0
	for q, k := range ks {
		dst[q] = p * 2 * math.Sqrt(k) * (x / (x + k)) // x/(x+k) first: no overflow at huge x
		p *= (x - k) / (x + k)
	}
}

// evalChebyshev writes d_0..d_{len(dst)−1} at x > 0 by the stable upward
// recurrence d_0 = 2x/(x+1), d_1 = −(√2 log x/π) d_0,
// d_q = [(−1)^q c d_{q−1} + (q−2) d_{q−2}]/q with c = 2 log x/π.
func evalChebyshev(dst []float64, x float64) {
	if len(dst) == 0 {
		return
	}
	c := 2 * math.Log(x) / math.Pi
	dst[0] = 2 * (x / (x + 1)) // x/(x+1) first: no overflow at huge x
	if len(dst) > 1 {
		dst[1] = -c / math.Sqrt2 * dst[0]
	}
	for q := 2; q < len(dst); q++ {
		s := c
		if q%2 == 1 {
			s = -c
		}
		dst[q] = (s*dst[q-1] + float64(q-2)*dst[q-2]) / float64(q)
	}
}
