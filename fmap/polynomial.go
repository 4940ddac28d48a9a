package fmap

import (
	"errors"
	"fmt"
	"math"
)

// Polynomial is a feature map of a dot-product kernel Σ_j a_j·(x·y)^j of
// its n inputs (the polynomial kernel (s·x·y + c)^d has a_j =
// C(d, j)·s^j·c^{d−j}): per degree j either the exact monomials of degree
// j (Exact) or random features of it (Sketch). Its outputs are the exact
// groups in order, then the sketches in order. An input with a NaN or
// ±Inf coordinate gives NaN in every component.
type Polynomial struct {
	In     int          `json:"in"`
	Exact  []PolyExact  `json:"exact,omitempty"`
	Sketch []PolySketch `json:"sketch,omitempty"`
}

// PolyExact is the exact map of Coef·(x·y)^Degree: one component
// √(Coef·j!/(k_1!…k_n!))·x_1^{k_1}…x_n^{k_n} per monomial of degree j,
// the monomials in the order of their index tuples i_1 ≤ … ≤ i_j
// (lexicographic), each computed as ((x_{i_1}·x_{i_2})·…)·x_{i_j} and
// then multiplied by its weight (MonomialWeights). Degree 0 is the one
// component √Coef.
type PolyExact struct {
	Degree int     `json:"degree"`
	Coef   float64 `json:"coef"`
}

// PolySketch is Dim random features of Coef·(x·y)^Degree (Coef 0: Dim
// components identically 0, a sketch its design found worth nothing), a
// complex-to-real TensorSRHT (Ahle et al., "Oblivious sketching of
// high-degree polynomial kernels", 2020; Wacker, Kanagawa and Filippone,
// "Complex-to-real sketches for tensor products", 2023): with N = Size,
// the power of 2 at least In, and F = ⌈Dim/2⌉ complex features in blocks
// of N, feature f of block b = ⌊f/N⌋ is
//
//	z_f(x) = Π_{k<Degree} [H·S_{k,b}·x̃]_{r_{k,f}},
//
// x̃ the input padded with zeros to N, S_{k,b} the diagonal of the complex
// signs i^{c}, c = Signs[(k·B + b)·In + i] (B blocks; the padding's signs
// do not matter), H the N × N Walsh–Hadamard matrix (entries ±1, natural
// order: H_{rc} = (−1)^{popcount(r & c)}) and r_{k,f} = Rows[k·F + f] its
// row, distinct within a block. E[z_f(x)·conj(z_f(y))] = (x·y)^Degree,
// and the components are √(2·Coef/Dim)·Re z_f, √(2·Coef/Dim)·Im z_f for
// f = 0, 1, … (an odd Dim leaves the last feature its real part alone,
// whose expectation is half: the sum stays unbiased).
type PolySketch struct {
	Degree int     `json:"degree"`
	Coef   float64 `json:"coef"`
	Dim    int     `json:"dim"`
	Size   int     `json:"size"`
	Signs  []int8  `json:"signs"`
	Rows   []int32 `json:"rows"`
}

// Features is the number F = ⌈Dim/2⌉ of complex features.
func (s *PolySketch) Features() int { return (s.Dim + 1) / 2 }

// Blocks is the number B = ⌈F/N⌉ of blocks of Size features.
func (s *PolySketch) Blocks() int { return (s.Features() + s.Size - 1) / s.Size }

// MaxPolyMonomials bounds the components of a Polynomial stage's exact
// groups: the number of monomials of degree ≤ d in n inputs,
// C(n + d, d), grows quickly.
const MaxPolyMonomials = 1 << 20

// Monomials is the number C(n + j − 1, j) of monomials of degree j in n
// variables, or −1 beyond MaxPolyMonomials.
func Monomials(n, j int) int {
	c := 1
	for i := 1; i <= j; i++ {
		c = c * (n + i - 1) / i // exact: a binomial coefficient at every step
		if c > MaxPolyMonomials {
			return -1
		}
	}
	return c
}

// MonomialWeights returns the weights √(coef·j!/(k_1!…k_n!)) of the
// monomials of degree j in n variables, in PolyExact's order.
func MonomialWeights(n, j int, coef float64) []float64 {
	var out []float64
	fact := [MaxPolyDegree + 1]float64{1}
	for i := 1; i <= MaxPolyDegree; i++ {
		fact[i] = fact[i-1] * float64(i)
	}
	idx := make([]int, j)
	var rec func(level, start int)
	rec = func(level, start int) {
		if level == j {
			den, run := 1.0, 1
			for a := 1; a <= j; a++ {
				if a < j && idx[a] == idx[a-1] {
					run++
					continue
				}
				den *= fact[run]
				run = 1
			}
			out = append(out, math.Sqrt(coef*(fact[j]/den)))
			return
		}
		for i := start; i < n; i++ {
			idx[level] = i
			rec(level+1, i)
		}
	}
	rec(0, 0)
	return out
}

// Dim is the number of components.
func (p *Polynomial) Dim() int {
	d := 0
	for _, e := range p.Exact {
		d += Monomials(p.In, e.Degree)
	}
	for _, s := range p.Sketch {
		d += s.Dim
	}
	return d
}

// out is the number of components, Dim.
func (p *Polynomial) out(int) int { return p.Dim() }

func (p *Polynomial) validate(in int) error {
	switch {
	case p.In != in:
		return fmt.Errorf("fmap: a polynomial stage of %d inputs after a stage of %d outputs", p.In, in)
	case len(p.Exact)+len(p.Sketch) == 0:
		return errors.New("fmap: a polynomial stage without exact or sketched degrees")
	}
	total := 0
	for _, e := range p.Exact {
		c := Monomials(p.In, e.Degree)
		switch {
		case e.Degree < 0 || e.Degree > MaxPolyDegree:
			return fmt.Errorf("fmap: a polynomial stage with exact degree %d", e.Degree)
		case c < 0 || total+c > MaxPolyMonomials:
			return fmt.Errorf("fmap: a polynomial stage of more than %d monomials", MaxPolyMonomials)
		case !(e.Coef > 0) || math.IsInf(e.Coef, 0):
			return fmt.Errorf("fmap: a polynomial stage with coefficient %v", e.Coef)
		}
		total += c
	}
	for _, s := range p.Sketch {
		F := s.Features()
		switch {
		case s.Degree < 1 || s.Degree > MaxPolyDegree:
			return fmt.Errorf("fmap: a polynomial sketch of degree %d", s.Degree)
		case !(s.Coef >= 0) || math.IsInf(s.Coef, 0):
			return fmt.Errorf("fmap: a polynomial sketch with coefficient %v", s.Coef)
		case s.Dim < 1:
			return fmt.Errorf("fmap: a polynomial sketch of %d components", s.Dim)
		case s.Size < p.In || s.Size&(s.Size-1) != 0:
			return fmt.Errorf("fmap: a polynomial sketch of Hadamard size %d for %d inputs (want a power of 2, at least the inputs)", s.Size, p.In)
		case len(s.Signs) != s.Degree*s.Blocks()*p.In:
			return fmt.Errorf("fmap: a polynomial sketch with %d signs, want %d", len(s.Signs), s.Degree*s.Blocks()*p.In)
		case len(s.Rows) != s.Degree*F:
			return fmt.Errorf("fmap: a polynomial sketch with %d rows, want %d", len(s.Rows), s.Degree*F)
		}
		for _, c := range s.Signs {
			if c < 0 || c > 3 {
				return fmt.Errorf("fmap: a polynomial sketch with sign code %d (want 0..3: the sign i^c)", c)
			}
		}
		for k := range s.Degree {
			for b := range s.Blocks() {
				seen := make(map[int32]bool)
				for f := b * s.Size; f < min((b+1)*s.Size, F); f++ {
					r := s.Rows[k*F+f]
					if r < 0 || int(r) >= s.Size || seen[r] {
						return fmt.Errorf("fmap: a polynomial sketch with row %d of a Hadamard block of %d repeated or out of range", r, s.Size)
					}
					seen[r] = true
				}
			}
		}
	}
	return nil
}

// eval writes the stage's components for x to dst.
func (p *Polynomial) eval(dst, x []float64) {
	if nonFinite(x) {
		fillNaN(dst)
		return
	}
	o := 0
	for _, e := range p.Exact {
		o += evalMonomials(dst[o:], x, e.Degree, MonomialWeights(p.In, e.Degree, e.Coef))
	}
	for i := range p.Sketch {
		s := &p.Sketch[i]
		s.eval(dst[o:o+s.Dim], x)
		o += s.Dim
	}
}

// evalMonomials writes w_k·((x_{i_1}·x_{i_2})·…·x_{i_j}) for the monomials
// of degree j in order to dst and returns their number.
func evalMonomials(dst, x []float64, j int, w []float64) int {
	if j == 0 {
		dst[0] = w[0]
		return 1
	}
	k := 0
	var rec func(level, start int, prod float64)
	rec = func(level, start int, prod float64) {
		for i := start; i < len(x); i++ {
			v := x[i]
			if level > 0 {
				v = prod * x[i]
			}
			if level == j-1 {
				dst[k] = w[k] * v
				k++
				continue
			}
			rec(level+1, i, v)
		}
	}
	rec(0, 0, 0)
	return k
}

// Hadamard applies the N × N Walsh–Hadamard matrix (natural order) to the
// complex vector (re, im) of length N, a power of 2, in place: the
// butterflies a + b, a − b for strides h = 1, 2, 4, …, each pair in
// increasing index order (the emitted code runs the same additions).
func Hadamard(re, im []float64) {
	n := len(re)
	for h := 1; h < n; h *= 2 {
		for i := 0; i < n; i += 2 * h {
			for j := i; j < i+h; j++ {
				a, b := re[j], re[j+h]
				re[j], re[j+h] = a+b, a-b
				a, b = im[j], im[j+h]
				im[j], im[j+h] = a+b, a-b
			}
		}
	}
}

// eval writes the sketch's components for x to dst.
func (s *PolySketch) eval(dst, x []float64) {
	n, N, F, B := len(x), s.Size, s.Features(), s.Blocks()
	zr, zi := make([]float64, F), make([]float64, F)
	re, im := make([]float64, N), make([]float64, N)
	for k := range s.Degree {
		for b := range B {
			clear(re)
			clear(im)
			signs := s.Signs[(k*B+b)*n : (k*B+b+1)*n]
			for i, v := range x {
				switch signs[i] {
				case 0:
					re[i] = v
				case 1:
					im[i] = v
				case 2:
					re[i] = -v
				default:
					im[i] = -v
				}
			}
			Hadamard(re, im)
			for f := b * N; f < min((b+1)*N, F); f++ {
				r := s.Rows[k*F+f]
				if k == 0 {
					zr[f], zi[f] = re[r], im[r]
					continue
				}
				// (a + ib)(c + id), every product rounded before it is
				// added (never fused), as the emitted code computes it.
				a, bb, c, d := zr[f], zi[f], re[r], im[r]
				zr[f], zi[f] = float64(a*c)-float64(bb*d), float64(a*d)+float64(bb*c)
			}
		}
	}
	scale := math.Sqrt(2 * s.Coef / float64(s.Dim))
	for f := range F {
		dst[2*f] = scale * zr[f]
		if 2*f+1 < s.Dim {
			dst[2*f+1] = scale * zi[f]
		}
	}
}
