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
	// shares its components for (polyAllocations). Default: its mean over
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
//     (polyAllocations).
type Polynomial struct {
	Opts PolynomialOptions
}

// The interfaces Polynomial implements (design/doc.go lists them).
var (
	_ design.Method = (*Polynomial)(nil)
	_ design.Sizer  = (*Polynomial)(nil)
)

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

// Dims: every D up to the exact map's, which is the largest, from the
// number of degrees of the kernel's expansion (each needs a component: its
// exact monomials or a sketch), and D = 1 below that when the expansion
// has a constant (the constant map).
func (m *Polynomial) Dims(p *fmap.Problem) design.Dims {
	n := p.InDim()
	var d design.Dims
	if c := ExactDim(p.Kernel, n); c > 0 {
		d = design.Dims{Max: c, MaxStated: true, Why: fmt.Sprintf("the polynomial kernel's exact map on %d inputs has %d components (its monomials): polynomial makes at most %d dimensions, exactly K at %d", n, c, c, c)}
	} else {
		d = design.Dims{Max: maxPolyDim, MaxStated: true, Why: fmt.Sprintf("polynomial sketches at most %d dimensions", maxPolyDim)}
	}
	if low, constant := polyMinDim(p.Kernel); low > 1 && !m.pca(p, 1) {
		d.Min = low
		what := fmt.Sprintf("polynomial makes at least one dimension for each of the kernel's %d degrees (its exact monomials or a sketch)", low)
		if constant {
			d.Below = []int{1}
			what = fmt.Sprintf("polynomial makes D = 1 (the kernel's constant term alone) or at least one dimension for each of its %d degrees 0..%d (their exact monomials or a sketch)", low, p.Kernel.Degree)
		}
		d.Why, d.MaxWhy = what, d.Why
		d.MaxStated = d.MaxStated && d.Max > 0
	}
	return d
}

// polyMinDim is the smallest D whose map has a component for every degree
// of the kernel's expansion (the degrees j of positive a_j), and whether
// the expansion has a constant (degree 0), whose map alone is D = 1.
func polyMinDim(k fmap.Kernel) (int, bool) {
	a := polyCoefs(k)
	n := 0
	for _, c := range a {
		if c > 0 {
			n++
		}
	}
	return n, a[0] > 0
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
	low, constant := polyMinDim(k)
	switch c := ExactDim(k, n); {
	case dim == 1 && constant && low > 1 && !m.pca(p, dim):
		s.Say(fmt.Sprintf("polynomial: D = 1, the constant term %.6g of the expansion alone", a[0]))
		mp.Stages = []fmap.Stage{{Kind: &fmap.Polynomial{In: n, Exact: exact.Exact[:1]}}}
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
		st, err := m.sketched(ctx, p, a, dim, s)
		if err != nil {
			return nil, err
		}
		mp.Stages = []fmap.Stage{{Kind: st}}
	}
	if err := mp.Validate(); err != nil {
		return nil, err
	}
	return &design.Result{Map: mp}, nil
}

// sketchDims is the number of components of st's sketches.
func sketchDims(st *fmap.Polynomial) int {
	n := 0
	for _, sk := range st.Sketch {
		n += sk.Dim
	}
	return n
}

// polyRho is ρ = s·E‖x‖², the typical value of s·x·y at x = y: over the
// rows to fit with data, else over typical inputs of the domain
// (TypicalPoints, drawn by a generator of the seed: the inputs the map is
// sized and shrunk for).
func polyRho(p *fmap.Problem, seed int64) float64 {
	rows := []([]float64)(nil)
	if p.Data != nil && len(p.Data.Fit) > 0 {
		rows = p.Data.Fit
	} else {
		rows = TypicalPoints(p.Domain, ShrinkPoints, rand.New(rand.NewPCG(uint64(seed), 0x72686f))) // "rho"
	}
	var e float64
	for _, x := range rows {
		for _, v := range x {
			e += v * v
		}
	}
	return p.Kernel.Scale * e / float64(len(rows))
}

// polyAlloc is one way to share a map's components between the degrees:
// which are exact, the sketch dimension of every other one, and the
// variance the model of polyAllocations gives it.
type polyAlloc struct {
	exact    []bool
	sketch   []int
	variance float64
}

// polyAllocations is every allocation of dim components between the
// degrees j of positive a_j, the least variance of the model below first
// (the order of the sets of exact degrees on a tie). The term of degree j
// weighs w_j = a_j·(ρ/s)^j = C(d, j)·c^{d−j}·ρ^j at the typical input; a
// TensorSRHT sketch of it with D_j components leaves a variance of about
// w_j²·κ_j/D_j, κ_j = 2^j − 1 (a product of j squared complex projections,
// each of relative variance 1), and its exact map of C(n + j − 1, j)
// monomials none. Given the exact degrees E, the sketched ones S share what
// is left, B, as D_j ∝ w_j·√κ_j, for a variance of (Σ_S w_j·√κ_j)²/B; every
// E is tried (degree 0, one component, is always exact), every sketched
// degree at least one component.
func polyAllocations(k fmap.Kernel, n int, a []float64, rho float64, dim int) []polyAlloc {
	d := k.Degree
	w := make([]float64, d+1) // w_j·√κ_j, 0 for a_j = 0
	cost := make([]int, d+1)
	// In logarithms, relative to the largest: ρ^j and c^{d−j} overflow
	// float64 long before their ratios do.
	logw := make([]float64, d+1)
	top := math.Inf(-1)
	for j := range w {
		cost[j] = fmap.Monomials(n, j)
		if a[j] > 0 && j > 0 {
			logw[j] = math.Log(binomial(d, j)) + float64(d-j)*math.Log(k.Offset) + float64(j)*math.Log(rho) + 0.5*math.Log(math.Exp2(float64(j))-1)
			top = math.Max(top, logw[j])
		}
	}
	for j := range w {
		if a[j] > 0 && j > 0 {
			// At least the smallest positive float64: a degree of
			// positive a_j is sketched, however light.
			w[j] = math.Max(math.Exp(logw[j]-top), 0x1p-1074)
		}
	}
	var out []polyAlloc
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
		exact, sketch := polyShares(w, cost, set, dim)
		out = append(out, polyAlloc{exact, sketch, v})
	}
	slices.SortStableFunc(out, func(x, y polyAlloc) int {
		switch {
		case x.variance < y.variance:
			return -1
		case x.variance > y.variance:
			return 1
		}
		return 0
	})
	return out
}

// polyShares is the allocation of dim components with the exact degrees
// of set (bit j: degree j), the others sharing what is left as D_j ∝ w_j
// (w_j·√κ_j of polyAllocations), every sketched degree at least one.
func polyShares(w []float64, cost []int, set, dim int) (exact []bool, sketch []int) {
	d := len(w) - 1
	exact, sketch = make([]bool, d+1), make([]int, d+1)
	left, sum := dim, 0.0
	for j := range w {
		if set>>j&1 == 1 {
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

// binomial is C(d, j).
func binomial(d, j int) float64 {
	b := 1.0
	for i := 1; i <= j; i++ {
		b = b * float64(d-j+i) / float64(i)
	}
	return b
}

// sketched is the data-free map of dim < ExactDim components: exact
// degrees and TensorSRHT sketches, the sketches' signs and rows drawn from
// the seed, each sketch shrunk by its own c² (fitShrinkage; the exact
// degrees kept). It makes the allocation of least variance
// (polyAllocations) unless its map must be shrunk to hold the box's Gram
// error (without data) — then, of the allocations weighed (at most
// maxPolyCandidates, the least variance first), the one whose shrunk map
// leaves the least Gram error on the points shrinkage fits
// (shrinkFit.Score: the typical inputs of the domain, the box's error held
// to BoxShrinkError; or the rows to fit): the variance model sizes the
// sketches, and where the box shrinks them the measurement chooses which
// degrees are exact, since a sketch shrunk towards 0 is a degree dropped,
// which the model does not weigh.
func (m *Polynomial) sketched(ctx context.Context, p *fmap.Problem, a []float64, dim int, s design.Settings) (*fmap.Polynomial, error) {
	k, n := p.Kernel, p.InDim()
	rho, from := m.Opts.Rho, "the rho option"
	if rho == 0 {
		rho, from = polyRho(p, m.Opts.Seed), "typical inputs of the domain"
		if p.Data != nil && len(p.Data.Fit) > 0 {
			from = "the rows to fit"
		}
	}
	cands := polyAllocations(k, n, a, rho, dim)
	if len(cands) == 0 {
		return nil, fmt.Errorf("sampled: no allocation of %d components to the degrees of %s (this is a bug in featmap)", dim, k.Describe())
	}
	cands = cands[:min(len(cands), maxPolyCandidates)]
	sets, err := newShrinkSets(ctx, p, k, dim*len(cands), m.Opts.Seed)
	if err != nil {
		return nil, err
	}
	var (
		best    *fmap.Polynomial
		bestFit *shrinkFit
		bestAt  int
	)
	for i, c := range cands {
		st := m.polyStage(n, a, c)
		mp := &fmap.Map{Kernel: k, InDim: n, Dim: dim, Domain: p.Domain, Method: m.Name(), Stages: []fmap.Stage{{Kind: st}}}
		var blocks []shrinkBlock
		at := dim - sketchDims(st)
		for _, sk := range st.Sketch {
			blocks = append(blocks, shrinkBlock{at, at + sk.Dim})
			at += sk.Dim
		}
		fit, err := fitShrinkage(ctx, mp, blocks, sets)
		if err != nil {
			return nil, err
		}
		if best == nil || fit.Score() < bestFit.Score() {
			best, bestFit, bestAt = st, fit, i
		}
		if i == 0 && !fit.Capped {
			// The model's allocation as drawn holds the box: kept.
			break
		}
	}
	for b := range best.Sketch {
		best.Sketch[b].Coef *= bestFit.C[b]
	}
	var ex, sk []int
	for _, e := range best.Exact {
		ex = append(ex, e.Degree)
	}
	for _, x := range best.Sketch {
		sk = append(sk, x.Degree)
	}
	s.Say(fmt.Sprintf("polynomial: exact degrees %v, TensorSRHT sketches of degrees %v (%v components; ρ = s·E‖x‖² = %.4g, from %s; allocation %d of the %d weighed)", ex, sk, cands[bestAt].sketch, rho, from, bestAt+1, len(cands)))
	s.Say("polynomial: " + bestFit.describe())
	return best, nil
}

// maxPolyCandidates bounds the allocations the polynomial method measures.
const maxPolyCandidates = 16

// polyStage is the polynomial stage of allocation c: its exact degrees,
// then TensorSRHT sketches of the others with signs and rows drawn from
// the seed (the same draws for every allocation of a seed).
func (m *Polynomial) polyStage(n int, a []float64, c polyAlloc) *fmap.Polynomial {
	st := &fmap.Polynomial{In: n}
	for j := range c.exact {
		if c.exact[j] {
			st.Exact = append(st.Exact, fmap.PolyExact{Degree: j, Coef: a[j]})
		}
	}
	size := 1 << bits.Len(uint(n-1))                              // the power of 2 at least n
	rng := rand.New(rand.NewPCG(uint64(m.Opts.Seed), 0x706f6c79)) // "poly"
	for j, dj := range c.sketch {
		if dj == 0 {
			continue
		}
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
	return st
}
