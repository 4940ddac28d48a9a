package homogeneous

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/symeig"
)

// ANNFMOptions tune additive nearest-neighbour feature maps.
type ANNFMOptions struct {
	// Anchors places the anchors: uniform (equally spaced over the
	// domain, one table shared by every coordinate; the default) or
	// kmeans (the exact 1-D k-means of each data column, by dynamic
	// programming: one table per coordinate; needs a data section).
	Anchors string `yaml:"anchors" spec:"enum=uniform|kmeans,label"`
	// NAnchors is the number of anchors per table (default 100). Uniform
	// anchors are lo + i(hi − lo)/(n − 1), i = 0..n−1: the paper's N = 100
	// (a_i = i/100, 101 points) is n_anchors: 101. k-means makes fewer
	// anchors on a column with fewer distinct values.
	//
	// At most 512: a table's n × n eigendecomposition is O(n³) and cannot
	// be interrupted (docs/limits.md, "Landmarks, anchors and
	// eigendecompositions", gives the times measured).
	NAnchors int `yaml:"n_anchors" spec:"min=2,max=512"`
	// Assign is 1nn (the nearest anchor's features), 2nn-mean (the mean
	// of the two nearest anchors', the paper's w = ½) or 2nn-linear
	// (linear interpolation between the two bracketing anchors). Default
	// 2nn-linear: docs/formulas.md §4.2 measures it 3× more accurate.
	Assign string `yaml:"assign" spec:"enum=1nn|2nn-linear|2nn-mean,label"`
	// Energy is the least fraction of the anchor kernel matrix's trace
	// the D leading eigen-components must hold on every table (the
	// paper's "99 % of the spectral energy"; default 0.99): a D that
	// holds less is a failed design, its message naming the D that would
	// do. 0 accepts every D.
	Energy *float64 `yaml:"energy"`
}

// SetDefaults fills in the defaults.
func (o *ANNFMOptions) SetDefaults() {
	if o.Anchors == "" {
		o.Anchors = "uniform"
	}
	if o.NAnchors == 0 {
		o.NAnchors = 100
	}
	if o.Assign == "" {
		o.Assign = string(fmap.Pair2Linear)
	}
	if o.Energy == nil {
		e := 0.99
		o.Energy = &e
	}
}

// MaxKMeans1DValues bounds the values of one column the 1-D k-means runs
// on: a seeded sample of the rows beyond.
const MaxKMeans1DValues = 20_000

// ANNFM is additive nearest-neighbour feature maps (method "annfm"; Wang
// et al., §3; docs/formulas.md §4): for the additive kernels, a table of
// anchors a_i per coordinate and the features φ(a_i) = rows of V_D
// diag(√λ) from the eigendecomposition of the anchors' kernel matrix
// (not Cholesky: the matrix is numerically singular), looked up at the
// nearest anchors of an input.
type ANNFM struct{ Opts ANNFMOptions }

// The interfaces ANNFM implements (design/doc.go lists them).
var (
	_ design.Method        = (*ANNFM)(nil)
	_ design.OptionChecker = (*ANNFM)(nil)
	_ design.Sizer         = (*ANNFM)(nil)
	_ design.Defaulter     = (*ANNFMOptions)(nil)
)

// Name returns "annfm".
func (*ANNFM) Name() string { return "annfm" }

// Options returns the options.
func (m *ANNFM) Options() any { return &m.Opts }

// Applies accepts the homogeneous kernels (χ², intersection, JS,
// Hellinger) of one input, summed over the coordinates of the data.
func (m *ANNFM) Applies(p *fmap.Problem) error {
	if !p.Kernel.Homogeneous() {
		return fmt.Errorf("annfm designs maps of the additive kernels (chi2, intersection, js, hellinger), not %s", p.Kernel.Type)
	}
	return oneAxis("annfm", p)
}

// CheckOptions checks that energy is a fraction and that k-means anchors
// have data to learn from.
func (m *ANNFM) CheckOptions(p *fmap.Problem) error {
	if e := m.Opts.Energy; e != nil && !(*e >= 0 && *e <= 1) {
		return &design.OptionError{Key: "energy", Msg: fmt.Sprintf("%v is not a fraction of the trace in [0, 1]", *e)}
	}
	if m.Opts.Anchors == "kmeans" && p.Data == nil {
		return &design.OptionError{Key: "anchors", Msg: "k-means anchors are learned from data: the spec needs a data section (or anchors: uniform)"}
	}
	return nil
}

// Constants: with uniform anchors, its one table of n_anchors anchors
// with D features each; k-means anchors are as many as a column's
// distinct values allow, which only the design tells (0).
func (m *ANNFM) Constants(_ *fmap.Problem, dim int) int {
	o := m.Opts
	o.SetDefaults()
	if o.Anchors == "kmeans" {
		return 0
	}
	return o.NAnchors * (1 + dim)
}

// Dims: D up to the number of anchors.
func (m *ANNFM) Dims(*fmap.Problem) design.Dims {
	o := m.Opts
	o.SetDefaults()
	n := o.NAnchors
	return design.Dims{Max: n, MaxStated: true, Why: fmt.Sprintf("annfm with %d anchors makes at most %d dimensions (raise n_anchors)", n, n)}
}

// Design builds the tables and the map of dim components per coordinate.
func (m *ANNFM) Design(ctx context.Context, p *fmap.Problem, dim int, s design.Settings) (*design.Result, error) {
	o := m.Opts
	o.SetDefaults()
	if err := p.Check(); err != nil {
		return nil, err
	}
	if err := m.Applies(p); err != nil {
		return nil, err
	}
	if err := m.CheckOptions(p); err != nil {
		return nil, err
	}
	if d := m.Dims(p); !d.Has(dim) {
		return nil, fmt.Errorf("homogeneous: %s", d.Refusal(dim))
	}
	var points [][]float64
	uniform := o.Anchors == "uniform"
	if uniform {
		points = [][]float64{uniformAnchors(p.Domain, o.NAnchors)}
	} else {
		var err error
		if points, err = columnAnchors(ctx, p.Data.Fit, o.NAnchors); err != nil {
			return nil, err
		}
		s.Say(fmt.Sprintf("annfm: exact 1-D k-means of %d columns of %d rows into at most %d anchors each", len(points), len(p.Data.Fit), o.NAnchors))
	}
	st := &fmap.Anchors{Assign: fmap.Assign(o.Assign), Dim: dim, Negative: p.Negative, Tables: make([]fmap.AnchorTable, len(points))}
	worst, need, short, empty := 1.0, dim, 0, 0
	for j, a := range points {
		if a == nil {
			// A column the data never shows nonzero: uniform anchors.
			a = uniformAnchors(p.Domain, o.NAnchors)
			empty++
		}
		feat, kept, needed, err := anchorFeatures(p.Kernel, a, dim, *o.Energy)
		if err != nil {
			return nil, err
		}
		st.Tables[j] = fmap.AnchorTable{Uniform: uniform || points[j] == nil, Points: a, Features: feat}
		worst, need = min(worst, kept), max(need, needed)
		if len(a) < dim {
			short++
		}
	}
	if !uniform && o.NAnchors > 1 && dim > 1 && collapsed(points) {
		return nil, fmt.Errorf("homogeneous: annfm: the rows to fit of %s have at most one distinct nonzero value in every column, so k-means makes at most one anchor per column (of the %d asked), and the map is exact at that value only: use anchors: uniform, or data with more values", p.Data.File, o.NAnchors)
	}
	if empty > 0 {
		s.Say(fmt.Sprintf("annfm: %d of %d columns have no nonzero value in the data: uniform anchors on them", empty, len(points)))
	}
	if short > 0 {
		s.Say(fmt.Sprintf("annfm: %d of %d columns have fewer than %d distinct values, hence anchors: their tables are exact with fewer than D nonzero components", short, len(points), dim))
	}
	if worst < *o.Energy {
		return nil, fmt.Errorf("homogeneous: annfm at D = %d keeps %.4g of the anchor kernel matrix's trace, below energy %g: D = %d would keep enough (or lower energy)", dim, worst, *o.Energy, need)
	}
	mp := &fmap.Map{Kernel: p.Kernel, InDim: 1, Dim: dim, Domain: p.Domain.Clone(), Method: "annfm", Stages: []fmap.Stage{{Kind: st}}}
	return result(mp)
}

// collapsed reports whether every column's k-means anchors are at most
// one point (nil: no nonzero value).
func collapsed(points [][]float64) bool {
	for _, a := range points {
		if len(a) > 1 {
			return false
		}
	}
	return true
}

// anchorFeatures factors the anchors' kernel matrix K_ij = k(a_i, a_j) =
// V diag(λ) Vᵀ (λ descending, negative round-off clipped to 0) and
// returns the rows of V_D diag(√λ) (row-major len(a)×dim, zero columns
// beyond the rank), the fraction of the trace the dim leading components
// keep and the least number that keeps energy of it. The eigenvectors'
// signs are symeig's (largest entry positive), so that the tables do not
// depend on the eigensolver's choice.
func anchorFeatures(k fmap.Kernel, a []float64, dim int, energy float64) (feat []float64, kept float64, need int, err error) {
	n := len(a)
	km := mat.NewSymDense(n, nil)
	for i := range n {
		for j := i; j < n; j++ {
			km.SetSym(i, j, k.Eval1(a[i], a[j]))
		}
	}
	vals, vecs, ok := symeig.Descending(km)
	if !ok {
		return nil, 0, 0, fmt.Errorf("homogeneous: the eigendecomposition of the %d anchors' kernel matrix failed", n)
	}
	trace := 0.0
	for _, v := range vals {
		trace += max(v, 0)
	}
	feat = make([]float64, n*dim)
	sum, need := 0.0, n
	for r, v := range vals {
		lam := max(v, 0)
		sum += lam
		if r < dim {
			kept = sum
		}
		if need == n && (trace == 0 || sum >= energy*trace) {
			need = r + 1
		}
		if r >= dim {
			continue
		}
		sq := math.Sqrt(lam)
		for i := range n {
			feat[i*dim+r] = sq * vecs.At(i, r)
		}
	}
	if trace > 0 {
		kept /= trace
	} else {
		kept = 1
	}
	return feat, kept, need, nil
}

// columnAnchors returns the anchors of every column of rows: the centres
// of the exact 1-D k-means of its nonzero values |x| (at most
// MaxKMeans1DValues rows, a seeded sample beyond), at most n per column,
// increasing; nil for a column without a nonzero value. Zeros are left
// out because every additive kernel has k(0, y) = 0 and the map gives
// ψ(0) = 0 exactly (negative values follow the sign rule): on digits,
// where most pixels are 0, k-means of all values spends anchors on the
// zeros and loses to uniform anchors; of the nonzero ones it wins (χ², 6
// anchors, 2nn-linear: held-out Frobenius error 0.0080 against uniform's
// 0.0159). Columns are done in parallel.
func columnAnchors(ctx context.Context, rows [][]float64, n int) ([][]float64, error) {
	if len(rows) == 0 {
		return nil, fmt.Errorf("homogeneous: k-means anchors need data rows to fit")
	}
	sample := rows
	if len(rows) > MaxKMeans1DValues {
		rng := rand.New(rand.NewPCG(1, 0x616e6e)) // "ann"
		idx := rng.Perm(len(rows))[:MaxKMeans1DValues]
		slices.Sort(idx)
		sample = make([][]float64, len(idx))
		for i, j := range idx {
			sample[i] = rows[j]
		}
	}
	width := len(rows[0])
	out := make([][]float64, width)
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(1, runtime.GOMAXPROCS(0)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			col := make([]float64, 0, len(sample))
			for j := range next {
				col = col[:0]
				for _, r := range sample {
					if r[j] != 0 {
						col = append(col, math.Abs(r[j]))
					}
				}
				out[j] = KMeans1D(col, n)
			}
		}()
	}
	for j := range width {
		if ctx.Err() != nil {
			break
		}
		next <- j
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// uniformAnchors is n equally spaced anchors lo + i(hi − lo)/(n − 1).
func uniformAnchors(d fmap.Domain, n int) []float64 {
	lo, hi := d.Lo[0], d.Hi[0]
	a := make([]float64, n)
	for i := range a {
		a[i] = lo + (hi-lo)*float64(i)/float64(n-1)
	}
	return a
}
