package sampled

import (
	"context"
	"encoding/binary"
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

// EvalCost: the kernel at D landmarks of n coordinates, then the D × D
// projection W^{-1/2}, per input (D·n + D²).
func (*Nystroem) EvalCost(p *fmap.Problem) *fmap.EvalCost {
	n := float64(p.InDim())
	if p.Kernel.Homogeneous() && p.Data != nil && len(p.Data.Fit) > 0 {
		n = float64(len(p.Data.Fit[0]))
	}
	return &fmap.EvalCost{Cost: func(dim int) float64 { D := float64(dim); return D*n + D*D }, Formula: "D·n + D²"}
}

// Dims: any D up to MaxLandmarks, and, once the data is read, up to its
// rows to fit (each landmark is one, or a centre of some).
func (*Nystroem) Dims(p *fmap.Problem) design.Dims {
	if d := p.Data; d != nil && len(d.Fit) > 0 && len(d.Fit) < MaxLandmarks {
		return design.Dims{Max: len(d.Fit), Why: fmt.Sprintf("nystroem's D landmarks are rows of the data, and %s has %d rows to fit (after the %d held out)", d.File, len(d.Fit), len(d.Held))}
	}
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
		return nil, fmt.Errorf("sampled: %s", d.Refusal(dim))
	}
	rows := p.Data.Fit
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
	if dropped == dim {
		return nil, fmt.Errorf("nystroem: the kernel matrix of the %d landmarks is zero (rank 0): the kernel is 0 at every landmark the rows to fit of %s give (are they all zero?), so no Nyström map of them represents it", dim, p.Data.File)
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

// kmeansSpace returns the maps into and back out of the space where
// kernel k's k-means distance (distFor) is Euclidean, or nil ones when it
// is on x itself (rbf scales it by σ_j, and its means are centroids):
// √x for exp-χ², t = log(x + c) for the skewed kernels. k-means runs on
// the mapped rows, at most MaxKMeansRows of them, and its centroids map
// back to landmarks.
//
// Why √x for exp-χ²: its χ² distance Σ (x−y)²/(x+y) equals
// Σ (√x−√y)²·(√x+√y)²/(x+y), which is 2·Σ (√x−√y)² to second order where
// x ≈ y, so Euclidean k-means on √x follows the kernel's own geometry
// while keeping centroids (means) that the χ² distance has no form for;
// the centroids c are mapped back to landmarks c². On the digits k-means
// on √x left a smaller held-out Gram error than k-means on x and than
// random rows (TestNystroemKMeansBeatsRandom holds it), and the χ²
// distance itself on x did worse than the Euclidean one on x; the skewed
// kernels' centroids in t did better than means of x. The measurements:
// docs/nystroem.md, "Landmarks and the k-means sample".
func kmeansSpace(k fmap.Kernel) (to, back func(float64) float64) {
	switch {
	case k.Type == fmap.ExpChi2:
		return math.Sqrt, func(u float64) float64 { return u * u }
	case k.Skewed():
		c := k.C
		return func(x float64) float64 { return math.Log(x + c) }, func(t float64) float64 { return math.Exp(t) - c }
	}
	return nil, nil
}

// mapRows returns new rows holding f of every coordinate of rows.
func mapRows(rows [][]float64, f func(float64) float64) [][]float64 {
	out := make([][]float64, len(rows))
	for i, r := range rows {
		out[i] = make([]float64, len(r))
		for j, v := range r {
			out[i][j] = f(v)
		}
	}
	return out
}

// euclidean is the squared Euclidean distance.
func euclidean(a, b []float64) float64 {
	var s float64
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return s
}

// distFor returns the squared distance k-means++ and k-means use for
// kernel k on its inputs: the Euclidean distance of the kernel's
// arguments, scaled by σ_j for rbf, in t = log(x + c) for the skewed
// kernels and in √x for exp-χ² (k-means runs on √x and on t with the
// plain Euclidean distance, which equals this: kmeansSpace).
func distFor(k fmap.Kernel) func(a, b []float64) float64 {
	switch {
	case k.Skewed():
		return func(a, b []float64) float64 {
			var s float64
			for i := range a {
				d := math.Log((a[i] + k.C) / (b[i] + k.C))
				s += d * d
			}
			return s
		}
	case k.Type == fmap.ExpChi2:
		return func(a, b []float64) float64 {
			var s float64
			for i := range a {
				d := math.Sqrt(a[i]) - math.Sqrt(b[i])
				s += d * d
			}
			return s
		}
	case k.Type == fmap.RBF:
		return func(a, b []float64) float64 {
			var s float64
			for i := range a {
				d := (a[i] - b[i]) / k.Sigma[i]
				s += d * d
			}
			return s
		}
	}
	return euclidean
}

// distinctRows returns the indices, in row order, of k rows drawn without
// replacement in a seeded random order, passing over a row whose values
// equal those of one drawn already (−0 equal to 0): the random landmarks.
// A row repeated in the data is thus as likely to be drawn as its copies
// together, and drawn once; two equal landmarks would make W singular and
// waste a component (docs/nystroem.md). With fewer than k distinct rows,
// the rest are copies, in the same order. Without equal rows the indices
// are the first k of the order, as before the check.
func distinctRows(rows [][]float64, k int, rng *rand.Rand) []int {
	var idx, copies []int
	seen := make(map[string]bool, k)
	key := make([]byte, 0, 8*len(rows[0]))
	for _, i := range rng.Perm(len(rows)) {
		if len(idx) == k {
			break
		}
		key = key[:0]
		for _, v := range rows[i] {
			if v == 0 {
				v = 0 // −0 is 0
			}
			key = binary.LittleEndian.AppendUint64(key, math.Float64bits(v))
		}
		if seen[string(key)] {
			if len(copies) < k {
				copies = append(copies, i)
			}
			continue
		}
		seen[string(key)] = true
		idx = append(idx, i)
	}
	idx = append(idx, copies[:k-len(idx)]...)
	slices.Sort(idx)
	return idx
}

// kmeansPP picks k centres among rows by k-means++ seeding (Arthur and
// Vassilvitskii, 2007): the first uniformly, each next with probability
// proportional to its distance dist (a squared distance) to the nearest
// centre so far. It looks at ctx before every centre (a pass over the
// rows each) and returns its error once it is done.
func kmeansPP(ctx context.Context, rows [][]float64, k int, dist func(a, b []float64) float64, rng *rand.Rand) ([][]float64, error) {
	d := make([]float64, len(rows))
	for i := range d {
		d[i] = math.Inf(1)
	}
	var centres [][]float64
	next := rng.IntN(len(rows))
	for len(centres) < k {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := slices.Clone(rows[next])
		centres = append(centres, c)
		var total float64
		for i, x := range rows {
			d[i] = math.Min(d[i], dist(x, c))
			total += d[i]
		}
		if total == 0 { // fewer distinct rows than centres: repeat one
			next = rng.IntN(len(rows))
			continue
		}
		u := rng.Float64() * total
		next = len(rows) - 1
		for i, di := range d {
			if u -= di; u < 0 {
				next = i
				break
			}
		}
	}
	return centres, nil
}

// kmeans runs Lloyd's iterations from a k-means++ start until no row
// changes its centre (or KMeansMaxIters): rows go to the nearest centre by
// dist, centres move to the mean of their rows; a centre left without rows
// keeps its place. It returns the centres and the iterations run. It looks
// at ctx every 64 rows of an iteration (k·n distance terms a row) and
// returns its error once it is done.
func kmeans(ctx context.Context, rows [][]float64, k int, dist func(a, b []float64) float64, rng *rand.Rand) ([][]float64, int, error) {
	centres, err := kmeansPP(ctx, rows, k, dist, rng)
	if err != nil {
		return nil, 0, err
	}
	assign := make([]int, len(rows))
	for i := range assign {
		assign[i] = -1
	}
	n := len(rows[0])
	for it := 1; it <= KMeansMaxIters; it++ {
		changed := 0
		for i, x := range rows {
			if i%64 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, 0, err
				}
			}
			best, bd := 0, math.Inf(1)
			for j, c := range centres {
				if d := dist(x, c); d < bd {
					best, bd = j, d
				}
			}
			if assign[i] != best {
				assign[i] = best
				changed++
			}
		}
		if changed == 0 {
			return centres, it, nil
		}
		sum := make([][]float64, k)
		count := make([]int, k)
		for i, x := range rows {
			j := assign[i]
			if sum[j] == nil {
				sum[j] = make([]float64, n)
			}
			for a, v := range x {
				sum[j][a] += v
			}
			count[j]++
		}
		for j := range centres {
			if count[j] == 0 {
				continue
			}
			for a := range centres[j] {
				centres[j][a] = sum[j][a] / float64(count[j])
			}
		}
	}
	return centres, KMeansMaxIters, nil
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
		return nil, 0, fmt.Errorf("sampled: the eigendecomposition of the %d×%d landmark kernel matrix failed", d, d)
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
