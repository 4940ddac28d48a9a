package sampled

import (
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
)

// PolynomialOptions tune the polynomial kernel's maps.
type PolynomialOptions struct {
	// Seed seeds the sketches' random signs and rows (a D below the
	// number of monomials without data).
	Seed int64 `yaml:"seed"`
	// PCA, with data, projects the exact monomials onto their top D
	// principal directions over the rows to fit (the rank-D limit of the
	// kernel on them): auto (the default: when the monomials are at most
	// MaxPolyPCAMonomials) or off (the data-free map).
	PCA string `yaml:"pca" spec:"enum=auto|off,label"`
	// Rho is ρ, the typical value of scale·‖x‖² that the sketched map
	// shares its components for (polyAllocation). Default: its mean over
	// the data's rows to fit, or over the domain's box without data (an
	// overestimate where the rows fill a small part of the box).
	Rho float64 `yaml:"rho" spec:"positive"`
}

// MaxPolyPCAMonomials is the largest number of exact monomials the
// polynomial method projects onto D principal directions with data: their
// second-moment matrix is held and decomposed whole.
const MaxPolyPCAMonomials = 2048

// Polynomial is the polynomial kernel's map (method "polynomial"): for
// (s·x·y + c)^d = Σ_j a_j (x·y)^j with a_j = C(d, j)·s^j·c^{d−j},
//
//   - at D = C(n + d, d) (the monomials of every degree j with a_j > 0:
//     ExactDim), the exact map: every monomial weighted by
//     √(multinomial·a_j), Ψ(x)·Ψ(y) = K(x, y) to rounding; a larger D is
//     refused naming that number;
//   - below it, with data and at most MaxPolyPCAMonomials monomials, the
//     exact monomials projected onto their top D principal directions over
//     the rows to fit (the rank-D limit of the kernel on them);
//   - below it otherwise, a map of its own per degree: the exact monomials
//     of the degrees they are cheap for, complex-to-real TensorSRHT
//     sketches of the others, the D left shared between them in proportion
//     to a_j·ρ^j, ρ = s·E‖x‖² over the rows to fit, or over the domain
//     (polyAllocation).
type Polynomial struct {
	Opts PolynomialOptions
}

// Name is "polynomial".
func (*Polynomial) Name() string { return "polynomial" }

// Options returns the options.
func (m *Polynomial) Options() any { return &m.Opts }

// Applies accepts the polynomial kernel, on any number of inputs.
func (*Polynomial) Applies(p *fmap.Problem) error {
	if p.Kernel.Type != fmap.Poly {
		return fmt.Errorf("polynomial designs maps of the polynomial kernel poly, not %s", p.Kernel.Type)
	}
	return nil
}

// polyCoefs returns a_j = C(d, j)·s^j·c^{d−j} for j = 0..d.
func polyCoefs(k fmap.Kernel) []float64 {
	a := make([]float64, k.Degree+1)
	binom := 1.0
	for j := 0; j <= k.Degree; j++ {
		if j > 0 {
			binom = binom * float64(k.Degree-j+1) / float64(j)
		}
		a[j] = binom * math.Pow(k.Scale, float64(j)) * math.Pow(k.Offset, float64(k.Degree-j))
	}
	return a
}

// ExactDim is the number of components of the polynomial kernel's exact
// map on n inputs: the monomials of every degree j whose coefficient a_j
// is positive, C(n + d, d) for an offset > 0, C(n + d − 1, d) for offset
// 0; −1 beyond fmap.MaxPolyMonomials.
func ExactDim(k fmap.Kernel, n int) int {
	total := 0
	for j, a := range polyCoefs(k) {
		if a <= 0 {
			continue
		}
		c := fmap.Monomials(n, j)
		if c < 0 || total+c > fmap.MaxPolyMonomials {
			return -1
		}
		total += c
	}
	return total
}

// maxPolyDim bounds the sketched map's D when the exact map is beyond
// fmap.MaxPolyMonomials.
const maxPolyDim = 1 << 16

// Dims: every D up to the exact map's, which is the largest.
func (*Polynomial) Dims(p *fmap.Problem) design.Dims {
	n := p.InDim()
	if c := ExactDim(p.Kernel, n); c > 0 {
		return design.Dims{Max: c, MaxStated: true, Why: fmt.Sprintf("the polynomial kernel's exact map on %d inputs has %d components (its monomials): polynomial makes at most %d dimensions, exactly K at %d", n, c, c, c)}
	}
	return design.Dims{Max: maxPolyDim, MaxStated: true, Why: fmt.Sprintf("polynomial sketches at most %d dimensions", maxPolyDim)}
}

// Constants: the sketches' signs and rows are about D·d each; the exact
// monomials hold none; a projection D·C.
func (m *Polynomial) Constants(p *fmap.Problem, dim int) int {
	if m.pca(p, dim) {
		return dim * ExactDim(p.Kernel, p.InDim())
	}
	return 0
}

// pca reports whether the design of dim projects the exact monomials.
func (m *Polynomial) pca(p *fmap.Problem, dim int) bool {
	c := ExactDim(p.Kernel, p.InDim())
	return p.Data != nil && m.Opts.PCA != "off" && c > 0 && dim < c && c <= MaxPolyPCAMonomials
}

// Design makes the exact map, its projection or the sketched map (see
// Polynomial).
func (m *Polynomial) Design(ctx context.Context, p *fmap.Problem, dim int, s design.Settings) (*design.Result, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if err := m.Applies(p); err != nil {
		return nil, err
	}
	if d := m.Dims(p); !d.Has(dim) {
		return nil, fmt.Errorf("sampled: %s", d.Refusal(dim))
	}
	k, n := p.Kernel, p.InDim()
	a := polyCoefs(k)
	exact := &fmap.Polynomial{In: n}
	for j, c := range a {
		if c > 0 {
			exact.Exact = append(exact.Exact, fmap.PolyExact{Degree: j, Coef: c})
		}
	}
	mp := &fmap.Map{Kernel: k, InDim: n, Dim: dim, Domain: p.Domain.Clone(), Method: m.Name()}
	switch c := ExactDim(k, n); {
	case dim == c:
		s.Say(fmt.Sprintf("polynomial: the exact map, %d monomials of degrees up to %d", c, k.Degree))
		mp.Stages = []fmap.Stage{{Kind: exact}}
	case m.pca(p, dim):
		base := &fmap.Map{Kernel: k, InDim: n, Dim: c, Domain: p.Domain.Clone(), Method: m.Name(), Stages: []fmap.Stage{{Kind: exact}}}
		h, sum, err := SecondMoment(ctx, base, p.Data.Fit, 256)
		if err != nil {
			return nil, err
		}
		s.Say(fmt.Sprintf("polynomial: the %d exact monomials' second moment over %d rows, its top %d eigenvectors", c, len(p.Data.Fit), dim))
		proj, _, kept, err := pcaProjection(ctx, h, sum, len(p.Data.Fit), dim, false)
		if err != nil {
			return nil, err
		}
		s.Say(fmt.Sprintf("polynomial: the %d leading eigenvectors keep %.4g of the trace", dim, kept))
		// Without centring, Ψ·Ψ is the projection of the exact features
		// onto the top subspace of their second moment: the rank-D
		// approximation of the kernel on the rows to fit.
		mp.Stages = []fmap.Stage{{Kind: exact}, {Kind: &fmap.Linear{In: c, Proj: proj}}}
	default:
		st, say := m.sketched(p, a, dim)
		s.Say(say)
		mp.Stages = []fmap.Stage{{Kind: st}}
	}
	if err := mp.Validate(); err != nil {
		return nil, err
	}
	return &design.Result{Map: mp}, nil
}

// polyRho is ρ = s·E‖x‖², the typical value of s·x·y at x = y: over the
// rows to fit with data, else over the domain's box taken as uniform
// (Σ_i (lo_i² + lo_i·hi_i + hi_i²)/3).
func polyRho(p *fmap.Problem) float64 {
	var e float64
	if p.Data != nil && len(p.Data.Fit) > 0 {
		for _, x := range p.Data.Fit {
			for _, v := range x {
				e += v * v
			}
		}
		e /= float64(len(p.Data.Fit))
	} else {
		for i := range p.Domain.Lo {
			lo, hi := p.Domain.Lo[i], p.Domain.Hi[i]
			e += (lo*lo + lo*hi + hi*hi) / 3
		}
	}
	return p.Kernel.Scale * e
}

// polyAllocation shares dim components between the degrees j of positive
// a_j. The term of degree j weighs w_j = a_j·(ρ/s)^j = C(d, j)·c^{d−j}·ρ^j
// at the typical input; a TensorSRHT sketch of it with D_j components
// leaves a variance of about w_j²·κ_j/D_j, κ_j = 2^j − 1 (a product of j
// squared complex projections, each of relative variance 1), and its
// exact map of C(n + j − 1, j) monomials none. Given the exact degrees E,
// the sketched ones S share what is left, B, as D_j ∝ w_j·√κ_j, for a
// variance of (Σ_S w_j·√κ_j)²/B; polyAllocation tries every E (degree 0,
// one component, is always exact) and keeps the least. It returns the
// exact degrees and the sketch dimension of every degree (0 for the exact
// ones), every sketched degree at least one component.
func polyAllocation(k fmap.Kernel, n int, a []float64, rho float64, dim int) (exact []bool, sketch []int) {
	d := k.Degree
	w := make([]float64, d+1) // w_j·√κ_j, 0 for a_j = 0
	cost := make([]int, d+1)
	for j := range w {
		cost[j] = fmap.Monomials(n, j)
		if a[j] > 0 && j > 0 {
			w[j] = a[j] / math.Pow(k.Scale, float64(j)) * math.Pow(rho, float64(j)) * math.Sqrt(math.Exp2(float64(j))-1)
		}
	}
	best, bestSet := math.Inf(1), -1
	for set := 0; set < 1<<(d+1); set++ {
		left, sum, sketched := dim, 0.0, 0
		for j := range w {
			switch in := set>>j&1 == 1; {
			case j == 0 && a[0] > 0 && !in, a[j] == 0 && in:
				left = -1 // degree 0 exact; no map of a zero term
			case in && cost[j] < 0:
				left = -1
			case in:
				left -= cost[j]
			case a[j] > 0:
				sum += w[j]
				sketched++
			}
			if left < 0 {
				break
			}
		}
		if left < sketched || left < 0 || (sketched == 0 && left > 0) {
			continue
		}
		v := 0.0
		if sketched > 0 {
			v = sum * sum / float64(left)
		}
		if v < best {
			best, bestSet = v, set
		}
	}
	exact, sketch = make([]bool, d+1), make([]int, d+1)
	if bestSet < 0 {
		return exact, sketch
	}
	left, sum := dim, 0.0
	for j := range w {
		if bestSet>>j&1 == 1 {
			exact[j] = true
			left -= cost[j]
		} else {
			sum += w[j]
		}
	}
	type rem struct {
		j int
		r float64
	}
	var rems []rem
	given := 0
	for j := range w {
		if exact[j] || w[j] == 0 {
			continue
		}
		share := float64(left) * w[j] / sum
		sketch[j] = int(share)
		given += sketch[j]
		rems = append(rems, rem{j, share - math.Floor(share)})
	}
	slices.SortStableFunc(rems, func(x, y rem) int {
		switch {
		case x.r > y.r:
			return -1
		case x.r < y.r:
			return 1
		}
		return 0
	})
	for i := 0; given < left; i++ {
		sketch[rems[i%len(rems)].j]++
		given++
	}
	for j := range sketch {
		if w[j] > 0 && !exact[j] && sketch[j] == 0 {
			top := slices.Index(sketch, slices.Max(sketch))
			sketch[top]--
			sketch[j]++
		}
	}
	return exact, sketch
}

// sketched is the data-free map of dim < ExactDim components: exact
// degrees and TensorSRHT sketches as polyAllocation shares them, the
// sketches' signs and rows drawn from the seed.
func (m *Polynomial) sketched(p *fmap.Problem, a []float64, dim int) (*fmap.Polynomial, string) {
	k, n := p.Kernel, p.InDim()
	rho := m.Opts.Rho
	if rho == 0 {
		rho = polyRho(p)
	}
	exact, sketch := polyAllocation(k, n, a, rho, dim)
	st := &fmap.Polynomial{In: n}
	var ex, sk []int
	for j := range exact {
		if exact[j] {
			st.Exact = append(st.Exact, fmap.PolyExact{Degree: j, Coef: a[j]})
			ex = append(ex, j)
		}
	}
	size := 1 << bits.Len(uint(n-1))                              // the power of 2 at least n
	rng := rand.New(rand.NewPCG(uint64(m.Opts.Seed), 0x706f6c79)) // "poly"
	for j, dj := range sketch {
		if dj == 0 {
			continue
		}
		sk = append(sk, j)
		ps := fmap.PolySketch{Degree: j, Coef: a[j], Dim: dj, Size: size}
		f, b := ps.Features(), ps.Blocks()
		ps.Signs = make([]int8, j*b*n)
		for i := range ps.Signs {
			ps.Signs[i] = int8(rng.IntN(4))
		}
		ps.Rows = make([]int32, j*f)
		for kk := range j {
			for bb := range b {
				perm := rng.Perm(size)
				for fi := bb * size; fi < min((bb+1)*size, f); fi++ {
					ps.Rows[kk*f+fi] = int32(perm[fi-bb*size])
				}
			}
		}
		st.Sketch = append(st.Sketch, ps)
	}
	return st, fmt.Sprintf("polynomial: exact degrees %v, TensorSRHT sketches of degrees %v (%v components; ρ = s·E‖x‖² = %.4g)", ex, sk, sketch, rho)
}
