package sampled

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/internal/symeig"
)

// RFPCAOptions tune PCA of random features.
type RFPCAOptions struct {
	// Features is the number m of random features before the projection
	// (default 3·dim, even for cos-sin: the paper's "three times the final
	// approximating dimensions", Li et al. §7).
	Features int `yaml:"features" spec:"min=1,max=2048"`
	// Form is the random features' form (cos-sin or phase; see rff's
	// features).
	Form string `yaml:"form" spec:"enum=cos-sin|phase"`
	// Sampling, Seed and Inner are rff's.
	Sampling string        `yaml:"sampling" spec:"enum=random|qmc|orthogonal,label"`
	Seed     int64         `yaml:"seed" spec:"default=1"`
	Inner    *design.Inner `yaml:"inner"`
	// Center subtracts the features' mean over the data before projecting
	// (the paper's Algorithm 3, PCA of the covariance). Default false: the
	// map then approximates the centred kernel, not K, and its verified
	// error against K says so; uncentred PCA of the second moment Z′Z
	// keeps Ψ(x)·Ψ(y) ≈ K(x, y) and is the better map of K.
	Center bool `yaml:"center"`
	// ChunkRows is the number of rows whose features are in memory at
	// once while Z′Z and Z′1 are accumulated (default 256).
	ChunkRows int `yaml:"chunk_rows" spec:"min=1,max=1048576"`
}

// EvalCost: m random features of n coordinates, then their projection
// onto D, per input (m·n + m·D; m = 3D by default).
func (m *RFPCA) EvalCost(p *fmap.Problem) *fmap.EvalCost {
	n := float64(p.InDim())
	formula := "m·n + m·D (m = features)"
	if m.Opts.Features == 0 {
		formula = "m·n + m·D (m = 3·D random features)"
	}
	return &fmap.EvalCost{Cost: func(dim int) float64 { f := float64(m.features(dim)); return f*n + f*float64(dim) }, Formula: formula}
}

// MaxRFPCAFeatures bounds m: the eigendecomposition of the m × m matrix
// Z′Z is O(m³) (docs/rff.md, "Size limits"); it says so in a progress line
// first, and Ctrl-C stops it (symeig.DescendingContext).
const MaxRFPCAFeatures = 2048

// RFPCA is PCA of random features (method "rf-pca"; Li et al. §6,
// Algorithms 3–5): m random features z(x) of the kernel (rff's map), the
// second-moment matrix H = Z′Z and the sum Z′1 accumulated over the
// data's rows to fit a chunk at a time (the N × m feature matrix is never
// formed), and Ψ(x) = c·U_kᵀ z(x) with U_k the k = dim leading
// eigenvectors of H/N (of the covariance H/N − z̄z̄ᵀ, and
// Ψ(x) = c·U_kᵀ(z(x) − z̄), with center), c the shrinkage fitted on the
// rows to fit (fitShrinkage).
type RFPCA struct{ Opts RFPCAOptions }

// The interfaces RFPCA implements (design/doc.go lists them).
var (
	_ design.Method        = (*RFPCA)(nil)
	_ design.OptionChecker = (*RFPCA)(nil)
	_ design.Sizer         = (*RFPCA)(nil)
	_ design.EvalCoster    = (*RFPCA)(nil)
)

// Name returns "rf-pca".
func (*RFPCA) Name() string { return "rf-pca" }

// Options returns the options.
func (m *RFPCA) Options() any { return &m.Opts }

// rff is the random-feature method underneath.
func (m *RFPCA) rff() *RFF {
	return &RFF{Opts: RFFOptions{Sampling: m.Opts.Sampling, Features: m.Opts.Form, Seed: m.Opts.Seed, Inner: m.Opts.Inner}, Unshrunk: true}
}

// features is the number m of random features before the projection to
// output dimension dim: the features option, else 3·dim (made even for
// cos-sin), at most MaxRFPCAFeatures.
func (m *RFPCA) features(dim int) int {
	if m.Opts.Features > 0 {
		return m.Opts.Features
	}
	f := 3 * dim
	if m.rff().features() == fmap.CosSin && f%2 == 1 {
		f++
	}
	return min(f, MaxRFPCAFeatures)
}

// Applies accepts rff's kernels, with data.
func (m *RFPCA) Applies(p *fmap.Problem) error {
	if err := m.rff().Applies(p); err != nil {
		return fmt.Errorf("rf-pca: %w", err)
	}
	if p.Data == nil {
		return fmt.Errorf("rf-pca learns its projection from data: the spec needs a data section")
	}
	return nil
}

// CheckOptions checks rff's options and that the random map can have m
// features.
func (m *RFPCA) CheckOptions(p *fmap.Problem) error {
	r := m.rff()
	if err := r.CheckOptions(p); err != nil {
		return err
	}
	if f := m.Opts.Features; f > 0 {
		if d := r.Dims(p); !d.Has(f) {
			return &design.OptionError{Key: "features", Msg: d.Refusal(f)}
		}
	}
	return nil
}

// Constants: those of its m random features (RFF.Constants) and its
// D × m projection.
func (m *RFPCA) Constants(p *fmap.Problem, dim int) int {
	f := m.features(dim)
	return m.rff().Constants(p, f) + dim*f
}

// Dims: k up to the number of random features, and, once the data is
// read, up to its rows to fit (the projection's top directions are theirs:
// beyond, they are noise).
func (m *RFPCA) Dims(p *fmap.Problem) design.Dims {
	top := m.featureDims()
	if d := p.Data; d != nil && len(d.Fit) > 0 && len(d.Fit) < top.Max {
		return design.Dims{Max: len(d.Fit), Why: fmt.Sprintf("rf-pca projects onto the top D directions of the rows to fit, and %s has %d (after the %d held out)", d.File, len(d.Fit), len(d.Held))}
	}
	return top
}

// featureDims: k up to the number of random features.
func (m *RFPCA) featureDims() design.Dims {
	if f := m.Opts.Features; f > 0 {
		return design.Dims{Max: f, Why: fmt.Sprintf("rf-pca projects %d random features (features) onto at most as many dimensions", f)}
	}
	return design.Dims{Max: MaxRFPCAFeatures / 3, MaxStated: true, Why: fmt.Sprintf("rf-pca with 3·D random features makes at most %d dimensions (set features, at most %d)", MaxRFPCAFeatures/3, MaxRFPCAFeatures)}
}

// Design draws the random map, accumulates Z′Z over the data and projects.
func (m *RFPCA) Design(ctx context.Context, p *fmap.Problem, dim int, s design.Settings) (*design.Result, error) {
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
	nf := m.features(dim)
	res, err := m.rff().Design(ctx, p, nf, s)
	if err != nil {
		return nil, err
	}
	base := res.Map
	chunk := m.Opts.ChunkRows
	if chunk == 0 {
		chunk = 256
	}
	h, sum, err := SecondMoment(ctx, base, p.Data.Fit, chunk)
	if err != nil {
		return nil, err
	}
	s.Say(fmt.Sprintf("rf-pca: Z′Z of %d random features over %d rows, %d at a time", nf, len(p.Data.Fit), chunk))
	s.Say(fmt.Sprintf("rf-pca: eigendecomposition of the %d × %d moment matrix", nf, nf))
	proj, mean, kept, err := pcaProjection(ctx, h, sum, len(p.Data.Fit), dim, m.Opts.Center)
	if err != nil {
		return nil, err
	}
	s.Say(fmt.Sprintf("rf-pca: the %d leading eigenvectors keep %.4g of the trace", dim, kept))
	stages := append(append([]fmap.Stage(nil), base.Stages...), fmap.Stage{Kind: &fmap.Linear{In: nf, Proj: proj, Mean: mean}})
	mp := &fmap.Map{Kernel: p.Kernel, InDim: base.InDim, Dim: dim, Domain: p.Domain.Clone(), Method: "rf-pca", Stages: stages}
	if err := mp.Validate(); err != nil {
		return nil, err
	}
	// The projection's shrinkage, fitted on the rows to fit (shrinkMap).
	seed := m.Opts.Seed
	if seed == 0 {
		seed = 1
	}
	fit, err := shrinkMap(ctx, mp, p, []shrinkBlock{{0, dim}}, seed, s)
	if err != nil {
		return nil, err
	}
	if c := math.Sqrt(fit.C[0]); c > 0 && c != 1 {
		for i := range proj {
			proj[i] *= c
		}
	}
	return &design.Result{Map: mp}, nil
}

// SecondMoment returns H = Z′Z (m × m) and Z′1 of the features z(x) of
// base over rows, accumulated chunk rows at a time (Li et al.,
// Algorithm 3): only a chunk × m block of features is in memory.
func SecondMoment(ctx context.Context, base *fmap.Map, rows [][]float64, chunk int) (*mat.SymDense, []float64, error) {
	m := base.Dim
	h := mat.NewSymDense(m, nil)
	sum := make([]float64, m)
	z := mat.NewDense(min(chunk, max(len(rows), 1)), m, nil)
	for start := 0; start < len(rows); start += chunk {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		end := min(start+chunk, len(rows))
		zc := z.Slice(0, end-start, 0, m).(*mat.Dense)
		for i, x := range rows[start:end] {
			row := zc.RawRowView(i)
			fmap.RowFeatures(base, row, x)
			for j, v := range row {
				sum[j] += v
			}
		}
		h.SymRankK(h, 1, zc.T())
	}
	return h, sum, nil
}

// pcaProjection returns the k leading eigenvectors of H/N (or of the
// covariance H/N − z̄z̄ᵀ with center, and z̄) as the rows of a k × m
// projection, signed as symeig signs them, and the fraction of the trace
// they keep.
func pcaProjection(ctx context.Context, h *mat.SymDense, sum []float64, n, k int, center bool) (proj, mean []float64, kept float64, err error) {
	m := h.SymmetricDim()
	c := mat.NewSymDense(m, nil)
	c.ScaleSym(1/float64(n), h)
	if center {
		mean = make([]float64, m)
		for j := range mean {
			mean[j] = sum[j] / float64(n)
		}
		mv := mat.NewVecDense(m, mean)
		c.SymRankOne(c, -1, mv)
	}
	vals, vecs, err := symeig.DescendingContext(ctx, c)
	if errors.Is(err, symeig.ErrFailed) {
		return nil, nil, 0, fmt.Errorf("sampled: the eigendecomposition of the %d × %d feature moment matrix failed", m, m)
	}
	if err != nil {
		return nil, nil, 0, err
	}
	trace, top := 0.0, 0.0
	for r, v := range vals {
		trace += max(v, 0)
		if r < k {
			top += max(v, 0)
		}
	}
	proj = make([]float64, k*m)
	for r := range k {
		for i := range m {
			proj[r*m+i] = vecs.At(i, r)
		}
	}
	if trace > 0 {
		kept = top / trace
	}
	return proj, mean, kept, nil
}
