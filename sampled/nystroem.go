package sampled

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/symeig"
)

// NystroemOptions tune Nyström maps.
type NystroemOptions struct {
	// Landmarks chooses the D landmarks among the data's rows to fit:
	// kmeans (Lloyd's iterations from a k-means++ start; the centroids),
	// random (D rows drawn at random, no two with equal values: see
	// distinctRows) or kmeans++ (the k-means++ seeding alone).
	// Default kmeans.
	Landmarks string `yaml:"landmarks" spec:"enum=kmeans|random|kmeans++,label"`
	// Seed seeds the choice (default 1).
	Seed int64 `yaml:"seed"`
}

// Nyström limits: the most landmarks (an eigendecomposition of D × D, whose
// time grows as D³; the shipped digits comparison's largest D is the limit:
// docs/nystroem.md, "Limits"), the most rows k-means runs on (a seeded
// sample beyond), its iterations.
const (
	MaxLandmarks   = 1024
	MaxKMeansRows  = 20_000
	KMeansMaxIters = 100
	// eigenFloor is the relative size below which eigenvalues of the
	// landmarks' kernel matrix count as 0 (dropped from the pseudo-inverse).
	eigenFloor = 1e-10
)

// Nystroem is the Nyström map (method "nystroem"; Williams and Seeger,
// 2001; with k-means landmarks, Zhang, Tsang and Kwok, 2008): Ψ(x) =
// W^{+1/2}·[K(x, l_1) … K(x, l_D)] for D landmarks learned from the data's
// rows to fit, W the landmarks' kernel matrix. It needs only the exact
// kernel: the kernels of vectors (rbf, the skewed kernels, exp-chi2) and
// the additive kernels (χ², intersection, JS, Hellinger summed over the
// coordinates of a row, K(x, y) = Σ_j k(x_j, y_j)).
//
// An additive kernel's spec domain is one axis; its Nyström map takes whole
// rows of n values, n the data's column count, and its Map.Domain is that
// axis on every coordinate (fmap.Map.WholeRows). It is verified on the
// held-out rows (the data error, the meaningful one: the map is fitted to
// the data and is good only near it) and, on the domain, on the rows
// (v, …, v) of n equal coordinates for every v of the axis's verification
// set, all pairs, the absolute error stated per coordinate, |K − Ψ·Ψ|/n
// (fmap.Verify; why these rows: docs/nystroem.md).
//
// k-means (the default) runs on at most MaxKMeansRows rows to fit: beyond,
// on a uniform sample of MaxKMeansRows of them without replacement, drawn
// by the seeded generator and kept in file order. Each Lloyd iteration
// costs D·rows·n distance terms on those rows (measured by
// BenchmarkKMeans256: docs/nystroem.md).
type Nystroem struct{ Opts NystroemOptions }

// Name returns "nystroem".
func (*Nystroem) Name() string { return "nystroem" }

// Options returns the options.
func (m *Nystroem) Options() any { return &m.Opts }

// Applies accepts the kernels of vectors on any number of axes and the
// additive kernels, with data.
func (*Nystroem) Applies(p *fmap.Problem) error {
	switch k := p.Kernel; {
	case !k.ShiftInvariant() && k.Type != fmap.ExpChi2 && !k.Homogeneous():
		return fmt.Errorf("nystroem designs maps of rbf, skewed-chi2, skewed-intersection, exp-chi2 and the additive kernels, not %s", k.Type)
	case p.Data == nil:
		return fmt.Errorf("nystroem learns its landmarks from data: the spec needs a data section")
	}
	return nil
}

// WholeRows reports true: a Nyström map of an additive kernel takes whole
// rows (its landmarks are rows), so its D is the outputs per row.
func (*Nystroem) WholeRows() bool { return true }

// Constants: D landmarks of n coordinates (an additive kernel's are
// whole rows of the data's columns) and the D × D projection.
func (*Nystroem) Constants(p *fmap.Problem, dim int) int {
	n := p.InDim()
	if p.Kernel.Homogeneous() && p.Data != nil && len(p.Data.Fit) > 0 {
		n = len(p.Data.Fit[0])
	}
	return dim*n + dim*dim
}

// Dims: any D up to MaxLandmarks (and the rows to fit, checked when
// they are read).
func (*Nystroem) Dims(*fmap.Problem) design.Dims {
	return design.Dims{Max: MaxLandmarks, MaxStated: true, Why: fmt.Sprintf("nystroem makes at most %d landmarks (an eigendecomposition of D × D)", MaxLandmarks)}
}

// Design chooses dim landmarks and builds the map.
func (m *Nystroem) Design(ctx context.Context, p *fmap.Problem, dim int, s design.Settings) (*design.Result, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if err := m.Applies(p); err != nil {
		return nil, err
	}
	if d := m.Dims(p); !d.Has(dim) {
		return nil, fmt.Errorf("multidim: %s", d.Refusal(dim))
	}
	rows := p.Data.Fit
	if len(rows) < dim {
		return nil, fmt.Errorf("multidim: %d landmarks need at least %d rows to fit; the data has %d (after the held-out rows)", dim, dim, len(rows))
	}
	seed := m.Opts.Seed
	if seed == 0 {
		seed = 1
	}
	how := m.Opts.Landmarks
	if how == "" {
		how = "kmeans"
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6e7973)) // "nys"
	var land [][]float64
	switch how {
	case "random":
		for _, i := range distinctRows(rows, dim, rng) {
			land = append(land, slices.Clone(rows[i]))
		}
	case "kmeans++":
		var err error
		if land, err = kmeansPP(ctx, rows, dim, distFor(p.Kernel), rng); err != nil {
			return nil, err
		}
	default:
		sample := rows
		if len(rows) > MaxKMeansRows {
			idx := rng.Perm(len(rows))[:MaxKMeansRows]
			slices.Sort(idx)
			sample = make([][]float64, len(idx))
			for i, j := range idx {
				sample[i] = rows[j]
			}
		}
		var iters int
		var err error
		// k-means runs where its distance is Euclidean, so that its
		// means are the centroids of that distance (kmeansSpace); the
		// centroids map back.
		space, dist := sample, distFor(p.Kernel)
		to, back := kmeansSpace(p.Kernel)
		if to != nil {
			space, dist = mapRows(sample, to), euclidean
		}
		land, iters, err = kmeans(ctx, space, dim, dist, rng)
		if err != nil {
			return nil, err
		}
		if back != nil {
			for _, l := range land {
				for j, u := range l {
					l[j] = back(u)
				}
			}
		}
		s.Say(fmt.Sprintf("nystroem: k-means of %d rows into %d landmarks in %d iterations", len(sample), dim, iters))
	}
	proj, dropped, err := invSqrt(ctx, p.Kernel, land)
	if err != nil {
		return nil, err
	}
	if dropped > 0 {
		s.Say(fmt.Sprintf("nystroem: %d of %d eigenvalues of the landmarks' kernel matrix below %g of the largest, dropped from its pseudo-inverse", dropped, dim, eigenFloor))
	}
	n := p.InDim()
	dom := p.Domain.Clone()
	if p.Kernel.Homogeneous() {
		// An additive kernel: whole rows, the domain's axis on each coordinate.
		n = len(rows[0])
		dom = fmap.Domain{Lo: slices.Repeat(dom.Lo[:1], n), Hi: slices.Repeat(dom.Hi[:1], n), Integer: dom.Integer}
	}
	flat := make([]float64, 0, dim*n)
	for _, l := range land {
		flat = append(flat, l...)
	}
	st := &fmap.Nystroem{Kernel: p.Kernel, In: n, Landmarks: flat, Proj: proj, Dropped: dropped}
	mp := &fmap.Map{Kernel: p.Kernel, InDim: n, Dim: dim, Domain: dom, Method: "nystroem", Stages: []fmap.Stage{{Nystroem: st}}}
	if err := mp.Validate(); err != nil {
		return nil, err
	}
	return &design.Result{Map: mp}, nil
}

// invSqrt returns W^{+1/2} (row-major) of the landmarks' kernel matrix W
// from its eigendecomposition: eigenvalues below eigenFloor of the largest
// are dropped (their inverse square roots set to 0) and counted.
//
// The eigendecomposition (O(D³)) gives way to ctx
// (symeig.FactorizeContext).
func invSqrt(ctx context.Context, k fmap.Kernel, land [][]float64) ([]float64, int, error) {
	d := len(land)
	w := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			w.SetSym(i, j, k.Eval(land[i], land[j]))
		}
	}
	eig, err := symeig.FactorizeContext(ctx, w)
	if errors.Is(err, symeig.ErrFailed) {
		return nil, 0, fmt.Errorf("multidim: the eigendecomposition of the %d×%d landmark kernel matrix failed", d, d)
	}
	if err != nil {
		return nil, 0, err
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	top := slices.Max(vals)
	scale := make([]float64, d)
	dropped := 0
	for i, v := range vals {
		if v > eigenFloor*top {
			scale[i] = 1 / math.Sqrt(v)
		} else {
			dropped++
		}
	}
	// W^{+1/2} = V diag(scale) Vᵀ.
	var scaled, prod mat.Dense
	scaled.Apply(func(_, c int, v float64) float64 { return v * scale[c] }, &vecs)
	prod.Mul(&scaled, vecs.T())
	out := make([]float64, d*d)
	for i := range d {
		for j := i; j < d; j++ {
			// Symmetric to the bit: the mean of the two rounded products.
			v := (prod.At(i, j) + prod.At(j, i)) / 2
			out[i*d+j], out[j*d+i] = v, v
		}
	}
	return out, dropped, nil
}
