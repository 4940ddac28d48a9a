// Package multidim holds the LP designs of the multiplicative RBF kernel
// on 2–3 axes (Chum §6): maps of the kernel with a diagonal Σ on a box in
// ℝ² or ℝ³, which is not a sum of one-dimensional maps, by projection
// (terms cos(ω·x), ω ∈ ℝⁿ), by modulation (products of per-axis cosines)
// and by the greedy tensor product of per-axis 1-D designs ("⊗ no LP").
// The LP methods run design's LP designer on n-D evaluation sets and pools.
// Each method is one file: projection.go, modulation.go, tensor_greedy.go;
// this file holds what they share. Maps of any number of inputs drawn
// from samples (rff, rf-pca, nystroem) are package sampled's.
package multidim

import (
	"context"
	"fmt"
	"math"
	"slices"

	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// MaxDims is the largest input dimension supported.
const MaxDims = fmap.MaxGridAxes

// MaxLPEntries bounds rows × columns of the discrete LP a design may build,
// and MaxZPoints the points of Z per axis.
const (
	MaxLPEntries = 12_000_000
	MaxZPoints   = 201
)

// Grid are the options every multi-dimensional method has: the per-axis
// 1-D designs whose frequencies make the tensor pools, and the evaluation
// set Z.
type Grid struct {
	// AxisDim is the dimension of the per-axis 1-D designs whose
	// frequencies make the tensor pools (modulation, projection with pool
	// tensor, tensor-greedy). Default 11 (Chum §7.3 uses the 11-D map of
	// §7.1), raised to the smallest odd value whose n-th power exceeds the
	// target dimension.
	AxisDim int `yaml:"axis_dim" spec:"min=1,max=201"`
	// ZPoints is the number of points of Z per axis on [0, M_i] (axes on
	// [−M_i, M_i] get 2·ZPoints−1). Default 41 in 2-D, 15 in 3-D.
	ZPoints int `yaml:"z_points" spec:"min=3,max=201"`
}

// withDefaults fills in the defaults for an n-D problem and dimension dim.
func (g Grid) withDefaults(n, dim int) Grid {
	if g.AxisDim <= 0 {
		g.AxisDim = 11
		for math.Pow(float64(g.AxisDim), float64(n)) <= float64(dim) {
			g.AxisDim += 2
		}
	}
	if g.ZPoints <= 0 {
		g.ZPoints = fmap.ZPoints2
		if n == 3 {
			g.ZPoints = fmap.ZPoints3
		}
	}
	return g
}

// rbfAxes is the Applies of the multi-dimensional methods.
func rbfAxes(name string, p *fmap.Problem) error {
	if p.Kernel.Type != fmap.RBF {
		return fmt.Errorf("%s designs maps of the multiplicative rbf kernel, not %s", name, p.Kernel.Type)
	}
	if n := p.InDim(); n < 2 || n > MaxDims {
		return fmt.Errorf("%s designs maps of 2 or %d input axes; domain.dims is %d (one axis: use chum)", name, MaxDims, n)
	}
	return nil
}

// span is M_i = hi_i − lo_i.
func span(p *fmap.Problem, i int) float64 { return p.Domain.Hi[i] - p.Domain.Lo[i] }

// axisDesigns designs the per-axis 1-D maps (Chum §6.2's Ψ^i), once per
// distinct (σ_i, M_i): chum on [0, M_i] with the uniform error. It returns
// their Fourier stages and the number of LPs.
func axisDesigns(ctx context.Context, p *fmap.Problem, axisDim int, seed int64, s design.Settings) ([]*fmap.Fourier, int, error) {
	n := p.InDim()
	maps := make([]*fmap.Fourier, n)
	lps := 0
	for i := range n {
		for j := range i {
			if p.Kernel.Sigma[j] == p.Kernel.Sigma[i] && span(p, j) == span(p, i) {
				maps[i] = maps[j]
			}
		}
		if maps[i] != nil {
			continue
		}
		s.Say(fmt.Sprintf("axis %d: 1-D design, D = %d", i+1, axisDim))
		ap := &fmap.Problem{
			Kernel:  fmap.Kernel{Type: fmap.RBF, Sigma: []float64{p.Kernel.Sigma[i]}},
			Domain:  fmap.Domain{Lo: []float64{0}, Hi: []float64{span(p, i)}},
			Measure: fmap.Uniform, Norm: fmap.LInf,
		}
		c := &chum.Chum{Opts: chum.ChumOptions{FitOptions: chum.FitOptions{Seed: seed}}}
		res, err := c.DesignOne(ctx, ap, axisDim, s.Quiet())
		if err != nil {
			return nil, 0, fmt.Errorf("multidim: axis %d: %w", i+1, err)
		}
		maps[i], lps = res.Map.Fourier(), lps+res.LPs
	}
	return maps, lps, nil
}

// tensorTerms returns the Kronecker product of the per-axis designs: every
// combination of one term per axis, with α = Π α_i (Chum eq. 21).
func tensorTerms(axes []*fmap.Fourier) []fmap.Term {
	terms := []fmap.Term{{Weight: 1}}
	for _, f := range axes {
		var next []fmap.Term
		for _, t := range terms {
			for _, u := range f.Terms {
				next = append(next, fmap.Term{Freq: append(slices.Clone(t.Freq), u.Freq[0]), Weight: t.Weight * u.Weight})
			}
		}
		terms = next
	}
	return terms
}

// newMap returns the one-stage map of the terms.
func newMap(p *fmap.Problem, form fmap.Form, method string, terms []fmap.Term) *fmap.Map {
	return fmap.NewFourierMap(p.Kernel, p.Domain, method, &fmap.Fourier{Form: form, Transform: fmap.Identity, Terms: terms})
}

// tensorPoolSize is the number of frequencies of the pool built from n
// per-axis designs of axisDim dimensions, each of t = ⌈axisDim/2⌉ terms
// (a nonzero frequency gives two components, ω = 0 one) whose frequencies
// are distinct and nonnegative, ω = 0 among them when axisDim is odd: t^n
// products for modulation (tensorTerms), and for Proj ⊗ (projections) the
// sign patterns of each product with k nonzero coordinates, 2^(k−1) of
// them (projectionsOf), ((z + 2u)^n + z^n)/2 in all with u = t − z
// nonzero and z ∈ {0, 1} zero frequencies per axis. Every per-axis design
// has at least t terms, so t^n never exceeds the modulation pool;
// TestTensorPoolSize holds both counts to the pools of real designs.
func tensorPoolSize(n, axisDim int, projections bool) int {
	t := (axisDim + 1) / 2
	if !projections {
		return pow(t, n)
	}
	z := axisDim % 2
	return (pow(z+2*(t-z), n) + pow(z, n)) / 2
}

// pow is b^e for e ≥ 0.
func pow(b, e int) int {
	r := 1
	for range e {
		r *= b
	}
	return r
}

// checkTensorLP refuses, from the options alone (CheckOptions), a tensor
// pool whose discrete LP would exceed MaxLPEntries: Z's points (z_points
// per axis, on the half box for Proj ⊗) and tensorPoolSize at axis_dim,
// or at its default for D = 1, which a larger D only raises. The error
// names the key set (axis_dim, else z_points, else dflt).
func checkTensorLP(p *fmap.Problem, g Grid, projections bool, dflt, lower string) error {
	n := p.InDim()
	d := g.withDefaults(n, 1)
	return lpOptionError(gridPoints(n, d.ZPoints, projections), tensorPoolSize(n, d.AxisDim, projections), lower, dflt,
		option{"axis_dim", g.AxisDim}, option{"z_points", g.ZPoints})
}

// option is a method option's spec key and its value (0 when not set).
type option struct {
	key   string
	value int
}

// lpOptionError is lpTooLarge's refusal of the LP over z points and pool
// frequencies, as an OptionError on the first of the options set, else on
// dflt; nil when the LP is within MaxLPEntries.
func lpOptionError(z, pool int, lower, dflt string, options ...option) error {
	err := lpTooLarge(z, pool, lower)
	if err == nil {
		return nil
	}
	key := dflt
	for _, o := range options {
		if o.value > 0 {
			key = o.key
			break
		}
	}
	return &design.OptionError{Key: key, Msg: err.Error()}
}

// fitProblem builds the LP designer's problem: Z on Π[0, M_i] (half = false)
// or Π_{i<n}[−M_i, M_i] × [0, M_n] (half = true), with the pool; lower
// names the options that size them, for the refusal of an LP beyond
// MaxLPEntries.
func fitProblem(p *fmap.Problem, form fmap.Form, method string, zPoints int, pool [][]float64, half bool, lower string) (*chum.FitProblem, error) {
	n := p.InDim()
	if zPoints < 3 {
		return nil, fmt.Errorf("multidim: method.z_points %d is too small", zPoints)
	}
	if err := lpTooLarge(gridPoints(n, zPoints, half), len(pool), lower); err != nil {
		return nil, fmt.Errorf("multidim: %w", err)
	}
	var axes [][]float64
	for i := range n {
		if half && i < n-1 {
			axes = append(axes, fmap.Linspace(-span(p, i), span(p, i), axisPoints(i, n, zPoints, half)))
		} else {
			axes = append(axes, fmap.Linspace(0, span(p, i), axisPoints(i, n, zPoints, half)))
		}
	}
	z := fmap.Product(axes)
	w := make([]float64, len(z))
	for i, l := range z {
		w[i] = p.Weight(l)
	}
	fp := &chum.FitProblem{
		Form:      form,
		NewMap:    func(terms []fmap.Term) *fmap.Map { return newMap(p, form, method, terms) },
		Signature: p.Kernel.Signature,
		Z:         z,
		ZWeight:   w,
		ZOn:       fmt.Sprintf("Z: a %s grid over %s", zShape(axes), boxWords(p, half)),
		Norm:      p.Norm,
		Pool:      pool,
	}
	// The polish ends with an exchange against the grid of the midpoints
	// too (twice the intervals per axis), and designs are compared on it:
	// the verified error is measured between Z's points (docs/lp-design.md,
	// "Table 2 in two minutes").
	if zCount(axes) <= maxExactPoints>>n {
		dense := make([][]float64, n)
		for i, a := range axes {
			for k, v := range a {
				if k > 0 {
					dense[i] = append(dense[i], (a[k-1]+v)/2)
				}
				dense[i] = append(dense[i], v)
			}
		}
		fp.Exact = fmap.Product(dense)
		fp.ExactWeight = make([]float64, len(fp.Exact))
		for i, l := range fp.Exact {
			fp.ExactWeight[i] = p.Weight(l)
		}
		fp.ExchangeRounds = exchangeRounds
	}
	return fp, nil
}

// maxExactPoints bounds the grid of Z's points and midpoints that a
// design's exchange works against (2-D Proj's is 161 × 81); a larger Z
// is polished without the exchange. exchangeRounds bounds its rounds:
// each round re-polishes the whole design.
const (
	maxExactPoints = 1 << 18
	exchangeRounds = 3
)

// axisPoints is the number of Z's points on axis i of n, z_points per
// axis: on the half box (Π_{i<n}[−M_i, M_i] × [0, M_n]) the first n − 1
// axes have 2·zPoints − 1, reaching both ways.
func axisPoints(i, n, zPoints int, half bool) int {
	if half && i < n-1 {
		return 2*zPoints - 1
	}
	return zPoints
}

// gridPoints is |Z|, the product of axisPoints over the n axes.
func gridPoints(n, zPoints int, half bool) int {
	z := 1
	for i := range n {
		z *= axisPoints(i, n, zPoints, half)
	}
	return z
}

// lpTooLarge says why the discrete LP over z points of Z and a pool of
// pool frequencies — two rows a point (±), a column a frequency (ω = 0
// among them) and one for the error bound — is beyond MaxLPEntries,
// naming the options to lower;
// nil when it is not.
func lpTooLarge(z, pool int, lower string) error {
	rows, cols := 2*z, pool+1
	if rows*cols <= MaxLPEntries {
		return nil
	}
	return fmt.Errorf("the LP would have %d rows × %d columns (|Z| = %d, %d pool frequencies), more than %d entries: lower %s",
		rows, cols, z, pool, MaxLPEntries, lower)
}

// zCount is the number of points of the product of the axes.
func zCount(axes [][]float64) int {
	n := 1
	for _, a := range axes {
		n *= len(a)
	}
	return n
}

func zShape(axes [][]float64) string {
	s := ""
	for i, a := range axes {
		if i > 0 {
			s += "×"
		}
		s += fmt.Sprint(len(a))
	}
	return s
}

// boxWords names the λ box: Π_{i<n}[−M_i, M_i] × [0, M_n] (half) or
// Π[0, M_i].
func boxWords(p *fmap.Problem, half bool) string {
	s := ""
	n := p.InDim()
	for i := range n {
		if i > 0 {
			s += " × "
		}
		if half && i < n-1 {
			s += fmt.Sprintf("[−%.4g, %.4g]", span(p, i), span(p, i))
		} else {
			s += fmt.Sprintf("[0, %.4g]", span(p, i))
		}
	}
	return s
}
