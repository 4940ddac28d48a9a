package sampled

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/design/learnplan"
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
	Seed int64 `yaml:"seed" spec:"default=1"`
	// NLandmarks is the number m of landmarks (default D: the map of D
	// landmarks). With m > D the map keeps the top D directions of its m
	// Nyström features on the rows to fit (the leading eigenvectors of
	// their uncentred second moment), folded into the stage's D × m
	// projection: D outputs exactly, nearer the kernel-PCA limit than D
	// landmarks (docs/nystroem.md, "More landmarks than D").
	NLandmarks int `yaml:"n_landmarks" spec:"min=1,max=1024"`
}

// Nyström limits: the most landmarks (an eigendecomposition of D × D, whose
// time grows as D³; the shipped digits comparison's largest D is the limit:
// docs/nystroem.md, "Limits"), the most rows k-means runs on (a seeded
// sample beyond), its iterations.
const (
	MaxLandmarks   = 1024
	MaxKMeansRows  = 20_000
	KMeansMaxIters = 100
	// MaxLandmarkValues bounds m × inputs, the landmarks' coordinates (the
	// map's constants, 2²³ float64 numbers at most).
	MaxLandmarkValues = 1 << 23
)

// eigenFloor is the size, relative to the largest, below which an
// eigenvalue of a kernel matrix counts as 0 and is dropped from its
// pseudo-inverse (or from kernel PCA's directions): ε = 2⁻⁵², the rounding
// of float64 and about the absolute error the eigendecomposition leaves on
// eigenvalues, relative to the largest. Above it a direction's rounding,
// amplified by 1/√λ, adds at most about ε·K to Ψ(x)·Ψ(y); a larger floor
// drops directions that are measured, not noise, which the top D
// directions of a kernel of wide range need (docs/nystroem.md, "More
// landmarks than D").
const eigenFloor = 0x1p-52

// Nystroem is the Nyström map (method "nystroem"; Williams and Seeger,
// 2001; with k-means landmarks, Zhang, Tsang and Kwok, 2008): Ψ(x) =
// W^{+1/2}·[K(x, l_1) … K(x, l_D)] for D landmarks learned from the data's
// rows to fit, W the landmarks' kernel matrix. It needs only the exact
// kernel: the kernels of vectors (fmap.VectorKernels: rbf, laplacian,
// Matérn, poly, the skewed kernels, exp-chi2) and the additive kernels (χ², intersection,
// JS, Hellinger summed over the coordinates of a row, K(x, y) =
// Σ_j k(x_j, y_j)).
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

// The interfaces Nystroem implements (design/doc.go lists them).
var (
	_ design.Method        = (*Nystroem)(nil)
	_ design.OptionChecker = (*Nystroem)(nil)
	_ design.TargetChecker = (*Nystroem)(nil)
	_ design.Sizer         = (*Nystroem)(nil)
	_ design.AutoVarier    = (*Nystroem)(nil)
	_ design.WholeRows     = (*Nystroem)(nil)
	_ design.EvalCoster    = (*Nystroem)(nil)
)

// Name returns "nystroem".
func (*Nystroem) Name() string { return "nystroem" }

// Options returns the options.
func (m *Nystroem) Options() any { return &m.Opts }

// Applies accepts the kernels of vectors on any number of axes and the
// additive kernels, with data.
func (*Nystroem) Applies(p *fmap.Problem) error {
	switch k := p.Kernel; {
	case !k.ShiftInvariant() && k.Type != fmap.ExpChi2 && k.Type != fmap.Poly && !k.Homogeneous():
		return fmt.Errorf("nystroem designs maps of %s and the additive kernels, not %s", strings.Join(fmap.VectorKernels(), ", "), k.Type)
	case p.Data == nil:
		return fmt.Errorf("nystroem learns its landmarks from data: the spec needs a data section")
	}
	return nil
}

// WholeRows reports true: a Nyström map of an additive kernel takes whole
// rows (its landmarks are rows), so its D is the outputs per row.
func (*Nystroem) WholeRows() bool { return true }

var _ learnplan.Priced = (*Nystroem)(nil)

// SigmaFeatures are the random features a learn section learns σ on for a
// Nyström map of dim landmarks: learnplan.NystroemLearnDim(dim) of the kernel's
// default sampling and form, with the map's seed; the landmarks are then
// chosen and their kernel matrix factored at the learned σ.
func (m *Nystroem) SigmaFeatures(dim int) (features int, sampling, form string, seed int64) {
	return learnplan.NystroemLearnDim(dim), "", "", m.Opts.Seed
}

// LearnShape prices learning σ for a Nyström map of D landmarks
// (learnplan.Priced): σ is learned on learnplan.NystroemLearnDim(D) random features,
// the model a learned map carries evaluates D kernel values on the n
// inputs and a D × D product, and ridge: auto chooses λ again on the
// map's own features.
func (m *Nystroem) LearnShape(base learnplan.CostShape) (func(dim int) learnplan.CostShape, bool) {
	return func(dim int) learnplan.CostShape {
		c := base
		c.Dim, c.MapDim, c.ModelRidge = learnplan.NystroemLearnDim(dim), dim, base.RidgeAuto
		c.MapEval = float64(dim)*float64(base.Inputs+20) + float64(dim)*float64(dim)
		return c
	}, false
}

// landmarks is the number m of landmarks of a map of dimension dim: the
// n_landmarks option, else dim.
func (m *Nystroem) landmarks(dim int) int {
	if m.Opts.NLandmarks > 0 {
		return m.Opts.NLandmarks
	}
	return dim
}

// rowWidth is the number of coordinates of a landmark: the problem's
// inputs, or the data's columns for an additive kernel (whole rows).
func rowWidth(p *fmap.Problem) int {
	n := p.InDim()
	if p.Kernel.Homogeneous() && p.Data != nil && len(p.Data.Fit) > 0 {
		n = len(p.Data.Fit[0])
	}
	return n
}

// Constants: m landmarks of n coordinates (an additive kernel's are
// whole rows of the data's columns) and the D × m projection.
func (m *Nystroem) Constants(p *fmap.Problem, dim int) int {
	l := m.landmarks(dim)
	return l*rowWidth(p) + dim*l
}

// CheckOptions refuses n_landmarks whose landmarks would hold more than
// MaxLandmarkValues coordinates, naming the largest m that fits; and, once
// the data is read, more landmarks than its rows to fit (each landmark is
// one, or a centre of some), naming them.
func (m *Nystroem) CheckOptions(p *fmap.Problem) error {
	l, n := m.Opts.NLandmarks, rowWidth(p)
	if l > 0 && l*n > MaxLandmarkValues {
		return &design.OptionError{Key: "n_landmarks", Msg: fmt.Sprintf("%d landmarks of %d inputs hold %d coordinates, more than the %d a Nyström map may hold: at most %d landmarks of %d inputs", l, n, l*n, MaxLandmarkValues, MaxLandmarkValues/n, n)}
	}
	if d := p.Data; l > 0 && d != nil && len(d.Fit) > 0 && l > len(d.Fit) {
		return &design.OptionError{Key: "n_landmarks", Msg: fmt.Sprintf("%d: nystroem's landmarks are rows of the data, and %s has %d rows to fit (after the %d held out): at most %d", l, d.File, len(d.Fit), len(d.Held), len(d.Fit))}
	}
	return nil
}

// CheckTarget refuses a D above n_landmarks: the map keeps D of the m
// landmarks' directions.
func (m *Nystroem) CheckTarget(dim int) error {
	if l := m.Opts.NLandmarks; l > 0 && dim > l {
		return &design.OptionError{Key: "n_landmarks", Msg: fmt.Sprintf("%d landmarks make at most %d dimensions, not %d (set n_landmarks to at least the target's dim)", l, l, dim)}
	}
	return nil
}

// EvalCost: the kernel at m landmarks of n coordinates, then the D × m
// projection (W^{+1/2}, with the top directions folded in), per input
// (m·n + m·D; m = D without n_landmarks).
func (m *Nystroem) EvalCost(p *fmap.Problem) *fmap.EvalCost {
	n := float64(rowWidth(p))
	formula := "D·n + D²"
	if m.Opts.NLandmarks > 0 {
		formula = "m·n + m·D (m = n_landmarks)"
	}
	return &fmap.EvalCost{Cost: func(dim int) float64 { l := float64(m.landmarks(dim)); return l*n + l*float64(dim) }, Formula: formula}
}

// Dims: any D up to MaxLandmarks, or up to n_landmarks, and, once the
// data is read, up to its rows to fit (each landmark is one, or a centre
// of some).
func (m *Nystroem) Dims(p *fmap.Problem) design.Dims {
	if d := p.Data; d != nil && len(d.Fit) > 0 && len(d.Fit) < MaxLandmarks && (m.Opts.NLandmarks == 0 || len(d.Fit) < m.Opts.NLandmarks) {
		return design.Dims{Max: len(d.Fit), Why: fmt.Sprintf("nystroem's D landmarks are rows of the data, and %s has %d rows to fit (after the %d held out)", d.File, len(d.Fit), len(d.Held))}
	}
	if l := m.Opts.NLandmarks; l > 0 {
		return design.Dims{Max: l, Why: fmt.Sprintf("nystroem keeps at most the %d directions of its %d landmarks (n_landmarks)", l, l)}
	}
	return design.Dims{Max: MaxLandmarks, MaxStated: true, Why: fmt.Sprintf("nystroem makes at most %d landmarks (an eigendecomposition of D × D)", MaxLandmarks)}
}

// AutoLandmarksPerDim is the landmarks per output of the variant method
// auto tries besides D landmarks: m = AutoLandmarksPerDim·D, at most
// MaxLandmarks and the rows to fit (docs/nystroem.md, "More landmarks
// than D": within a few per cent of the kernel-PCA limit on the digits).
const AutoLandmarksPerDim = 8

// AutoVariants offers method auto n_landmarks m = AutoLandmarksPerDim·D
// (at most MaxLandmarks and the rows to fit) when that is more than D and
// the landmarks fit MaxLandmarkValues.
func (m *Nystroem) AutoVariants(p *fmap.Problem, dim int) []design.Method {
	if p.Data == nil || m.Opts.NLandmarks > 0 {
		return nil
	}
	nl := min(AutoLandmarksPerDim*dim, MaxLandmarks, len(p.Data.Fit))
	v := &Nystroem{Opts: m.Opts}
	v.Opts.NLandmarks = nl
	if nl <= dim || v.CheckOptions(p) != nil {
		return nil
	}
	return []design.Method{v}
}

// Design chooses m landmarks and builds the map; with m > dim it keeps the
// top dim directions of their features on the rows to fit.
func (m *Nystroem) Design(ctx context.Context, p *fmap.Problem, dim int, s design.Settings) (*design.Result, error) {
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
		return nil, fmt.Errorf("sampled: %s", d.Refusal(dim))
	}
	rows := p.Data.Fit
	nl := m.landmarks(dim)
	seed := m.Opts.Seed
	if seed == 0 {
		seed = 1
	}
	var (
		land    [][]float64
		proj    []float64
		dropped int
		err     error
	)
	if nl >= len(rows) {
		// As many landmarks as rows to fit: the landmarks are the rows,
		// and the map of D < m outputs is kernel PCA of them.
		nl, land = len(rows), rows
		s.Say(fmt.Sprintf("nystroem: %d landmarks, the %d rows to fit themselves", nl, nl))
		if nl > dim {
			s.Say(fmt.Sprintf("nystroem: kernel PCA of the %d rows to fit, the top %d eigenvectors of their %d × %d kernel matrix", nl, dim, nl, nl))
			proj, dropped, err = kernelPCA(ctx, p.Kernel, land, dim)
		} else {
			proj, dropped, err = invSqrt(ctx, p.Kernel, land)
		}
	} else {
		if land, err = m.choose(ctx, p, nl, seed, s); err != nil {
			return nil, err
		}
		proj, dropped, err = invSqrt(ctx, p.Kernel, land)
	}
	if err != nil {
		return nil, err
	}
	if dropped == nl {
		return nil, fmt.Errorf("nystroem: the kernel matrix of the %d landmarks is zero (rank 0): the kernel is 0 at every landmark the rows to fit of %s give (are they all zero?), so no Nyström map of them represents it", nl, p.Data.File)
	}
	if dropped > 0 {
		s.Say(fmt.Sprintf("nystroem: %d of %d eigenvalues of the landmarks' kernel matrix below %.3g of the largest, dropped from its pseudo-inverse", dropped, nl, eigenFloor))
	}
	n := p.InDim()
	dom := p.Domain.Clone()
	if p.Kernel.Homogeneous() {
		// An additive kernel: whole rows, the domain's axis on each coordinate.
		n = len(rows[0])
		dom = fmap.Domain{Lo: slices.Repeat(dom.Lo[:1], n), Hi: slices.Repeat(dom.Hi[:1], n), Integer: dom.Integer}
	}
	flat := make([]float64, 0, nl*n)
	for _, l := range land {
		flat = append(flat, l...)
	}
	st := &fmap.Nystroem{Kernel: p.Kernel, In: n, Landmarks: flat, Proj: proj, Dropped: dropped}
	mp := &fmap.Map{Kernel: p.Kernel, InDim: n, Dim: len(proj) / nl, Domain: dom, Method: "nystroem", Stages: []fmap.Stage{{Kind: st}}}
	if mp.Dim > dim {
		if st.Proj, err = topDirections(ctx, mp, pcaRows(rows, seed), dim, s); err != nil {
			return nil, err
		}
		mp.Dim = dim
	}
	if err := mp.Validate(); err != nil {
		return nil, err
	}
	return &design.Result{Map: mp}, nil
}

// choose returns nl landmarks among the rows to fit, as the landmarks
// option says.
func (m *Nystroem) choose(ctx context.Context, p *fmap.Problem, nl int, seed int64, s design.Settings) ([][]float64, error) {
	rows := p.Data.Fit
	how := m.Opts.Landmarks
	if how == "" {
		how = "kmeans"
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x6e7973)) // "nys"
	switch how {
	case "random":
		var land [][]float64
		for _, i := range distinctRows(rows, nl, rng) {
			land = append(land, slices.Clone(rows[i]))
		}
		return land, nil
	case "kmeans++":
		return kmeansPP(ctx, rows, nl, distFor(p.Kernel), rng)
	}
	sample := rows
	if len(rows) > MaxKMeansRows {
		idx := rng.Perm(len(rows))[:MaxKMeansRows]
		slices.Sort(idx)
		sample = make([][]float64, len(idx))
		for i, j := range idx {
			sample[i] = rows[j]
		}
	}
	// k-means runs where its distance is Euclidean, so that its means are
	// the centroids of that distance (kmeansSpace); the centroids map
	// back.
	space, dist := sample, distFor(p.Kernel)
	to, back := kmeansSpace(p.Kernel)
	if to != nil {
		space, dist = mapRows(sample, to), euclidean
	}
	land, iters, err := kmeans(ctx, space, nl, dist, rng)
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
	s.Say(fmt.Sprintf("nystroem: k-means of %d rows into %d landmarks in %d iterations", len(sample), nl, iters))
	return land, nil
}

// pcaRows are the rows to fit the directions are found on: all of them, or
// a seeded uniform sample of MaxKMeansRows without replacement (kept in
// file order) beyond.
func pcaRows(rows [][]float64, seed int64) [][]float64 {
	if len(rows) <= MaxKMeansRows {
		return rows
	}
	rng := rand.New(rand.NewPCG(uint64(seed), 0x706361)) // "pca"
	idx := rng.Perm(len(rows))[:MaxKMeansRows]
	slices.Sort(idx)
	out := make([][]float64, len(idx))
	for i, j := range idx {
		out[i] = rows[j]
	}
	return out
}

// topDirections returns the D × m projection Uᵀ·W^{+1/2} of the Nyström
// map base of m landmarks (one stage, Proj = W^{+1/2}): U the dim leading
// eigenvectors of the uncentred second moment of its m features over rows
// (PCA of the features, as rf-pca's, signed as symeig signs them), folded
// into the stage's projection so that the map stays one stage.
func topDirections(ctx context.Context, base *fmap.Map, rows [][]float64, dim int, s design.Settings) ([]float64, error) {
	st := base.Stages[0].Kind.(*fmap.Nystroem)
	nl := st.Size()
	h, _, err := SecondMoment(ctx, base, rows, 256)
	if err != nil {
		return nil, err
	}
	s.Say(fmt.Sprintf("nystroem: the top %d directions of %d Nyström features over %d rows (an eigendecomposition of %d × %d)", dim, nl, len(rows), nl, nl))
	u, _, kept, err := pcaProjection(ctx, h, nil, len(rows), dim, false)
	if err != nil {
		return nil, err
	}
	s.Say(fmt.Sprintf("nystroem: the %d leading directions keep %.4g of the features' second moment", dim, kept))
	proj := make([]float64, dim*nl)
	for r := range dim {
		ur := u[r*nl : (r+1)*nl]
		out := proj[r*nl : (r+1)*nl]
		for i, c := range ur {
			row := st.Proj[i*nl : (i+1)*nl]
			for j, w := range row {
				out[j] += c * w
			}
		}
	}
	return proj, nil
}

// kernelPCA returns the dim × m projection Λ_D^{−1/2}·U_Dᵀ of kernel PCA
// of the m rows land (uncentred, as the map approximates K itself): U_D
// the dim leading eigenvectors of their kernel matrix W, Λ_D its
// eigenvalues, so that Ψ(x)·Ψ(y) = k_xᵀ U_D Λ_D⁻¹ U_Dᵀ k_y, on the rows
// the best rank-dim approximation of W (Eckart–Young). It is the map
// topDirections makes of these landmarks in exact arithmetic (the second
// moment of the features W^{+1/2}·k over the rows is W), computed without
// that second moment, whose rounding the pseudo-inverse square root
// amplifies in the directions of small eigenvalues. A direction whose
// eigenvalue is below eigenFloor of the largest is a zero row, counted in
// dropped with every other such eigenvalue of W.
func kernelPCA(ctx context.Context, k fmap.Kernel, land [][]float64, dim int) ([]float64, int, error) {
	d := len(land)
	w := mat.NewSymDense(d, nil)
	for i := range d {
		for j := i; j < d; j++ {
			w.SetSym(i, j, k.Eval(land[i], land[j]))
		}
	}
	vals, vecs, err := symeig.DescendingContext(ctx, w)
	if errors.Is(err, symeig.ErrFailed) {
		return nil, 0, fmt.Errorf("sampled: the eigendecomposition of the %d×%d kernel matrix of the rows to fit failed", d, d)
	}
	if err != nil {
		return nil, 0, err
	}
	floor := eigenFloor * vals[0]
	dropped := 0
	for _, v := range vals {
		if !(v > floor) {
			dropped++
		}
	}
	if dropped == d {
		return nil, dropped, nil
	}
	proj := make([]float64, dim*d)
	for r := range dim {
		if !(vals[r] > floor) {
			continue
		}
		s := 1 / math.Sqrt(vals[r])
		for i := range d {
			proj[r*d+i] = vecs.At(i, r) * s
		}
	}
	return proj, dropped, nil
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
