package sampled

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"

	"github.com/featmap/featmap/design"
	"github.com/featmap/featmap/design/learnplan"
	"github.com/featmap/featmap/fmap"
)

// RFFOptions tune random Fourier features.
type RFFOptions struct {
	// Sampling draws the frequencies: random (plain Monte Carlo), qmc (a
	// randomised low-discrepancy sequence through the quantile h(u)) or
	// orthogonal (blocks of orthogonal directions with χ-distributed
	// norms; the spherical laws only: Gaussian, and Matérn's Gaussian
	// scale mixture). Default: orthogonal for the spherical laws (rbf,
	// exp-chi2, Matérn), qmc for the others, products of one-axis laws
	// (the skewed kernels, laplacian: DefaultSampling).
	Sampling string `yaml:"sampling" spec:"enum=random|qmc|orthogonal,label"`
	// Features is cos-sin (pairs [cos ω·t, sin ω·t]/√m, D even; the
	// default: its Ψ(x)·Ψ(y) = (1/m) Σ cos(ω·(t_x − t_y)) is exactly
	// shift-invariant, with less variance than the phase form, and it is
	// the form in which orthogonal and low-discrepancy frequencies pay
	// off) or phase (√(2/D)·cos(ω·t + b), b uniform on [0, 2π), any D).
	Features string `yaml:"features" spec:"enum=cos-sin|phase"`
	// Seed seeds the frequencies and phases (default 1).
	Seed int64 `yaml:"seed" spec:"default=1"`
	// Inner is the χ² map of one input an exp-chi2 map applies to every
	// coordinate first (default: chum of 5 dimensions).
	Inner *design.Inner `yaml:"inner"`
}

// SetDefaults fills in the default features.
func (o *RFFOptions) SetDefaults() {
	if o.Features == "" {
		o.Features = string(fmap.CosSin)
	}
}

// MaxRFFEntries bounds the frequency matrix (frequencies × inputs) an rff
// design may draw.
const MaxRFFEntries = 1 << 24

// RFF is random Fourier features (method "rff"; Rahimi–Recht, with the
// quantile parametrisation of Băzăvan, Li & Sminchisescu, §2 and Table 1)
// for the shift-invariant kernels of vectors of any length: RBF (Gaussian
// frequencies), the Laplacian (Cauchy frequencies per axis), Matérn (the
// multivariate t law of 2ν degrees of freedom scaled by 1/σ, drawn
// whole: KernelFrequencies), skewed χ² and skewed intersection (frequencies of
// log(x + c) from their quantiles), and exp-χ² as a two-stage map (Li et
// al., Algorithm 2): the inner χ² map ψ on every coordinate, so that
// ‖ψ(x) − ψ(y)‖² ≈ Σ_j (x_j − y_j)²/(x_j + y_j), then Gaussian frequencies
// N(0, 2β) on the concatenation.
type RFF struct {
	Opts RFFOptions
	// Unshrunk draws the map without shrinkage (Random.Scale 0): the
	// features other designs build on (rf-pca's, the group lasso's
	// blocks, which fit their own scales).
	Unshrunk bool

	// An exp-χ² map's inner map is designed by one method value per RFF
	// (the default chum made once) on one inner problem per domain, so
	// that a method remembering its designs by problem (chum's chains)
	// designs the inner map once for every D a comparison asks of rff.
	innerMu       sync.Mutex
	defaultInner  *design.Inner
	innerProblems map[innerKey]*fmap.Problem
}

// innerKey is what an inner problem depends on: its interval.
type innerKey struct {
	lo, hi  float64
	integer bool
}

// The interfaces RFF implements (design/doc.go lists them).
var (
	_ design.Method        = (*RFF)(nil)
	_ design.OptionChecker = (*RFF)(nil)
	_ design.Sizer         = (*RFF)(nil)
	_ design.EvalCoster    = (*RFF)(nil)
	_ design.Defaulter     = (*RFFOptions)(nil)
)

// Name returns "rff".
func (*RFF) Name() string { return "rff" }

// Options returns the options.
func (m *RFF) Options() any { return &m.Opts }

// Applies accepts the kernels with a spectral law (spectra: the
// shift-invariant kernels and exp-chi2), on any number of axes.
func (*RFF) Applies(p *fmap.Problem) error {
	if k := p.Kernel; !k.ShiftInvariant() && k.Type != fmap.ExpChi2 {
		return fmt.Errorf("rff designs maps of %s, not %s", fmap.JoinList(drawnTypes(fmap.VectorKernels(), false), "and"), k.Type)
	}
	return nil
}

// Constants: the frequencies' coordinates, D/2 × n for cos-sin features,
// D × n and D phases for phase features, n the random features' inputs
// (inputs: an exp-chi2 map's are the inner map's n × d outputs; the inner
// map's own few constants stay Go literals and are not counted).
func (m *RFF) Constants(p *fmap.Problem, dim int) int {
	n := m.inputs(p)
	if m.features() == fmap.Phase {
		return dim*n + dim
	}
	return dim / 2 * n
}

// Dims: even dimensions for cos-sin features, any for phase, up to the
// size limits: MaxRFFEntries frequency coordinates, and MaxOrthogonalWork
// for orthogonal sampling.
func (m *RFF) Dims(p *fmap.Problem) design.Dims {
	n := m.inputs(p)
	freqs := MaxRFFEntries / n
	limit := fmt.Sprintf("%d frequency coordinates", MaxRFFEntries)
	if m.sampling(p.Kernel) == SamplingOrthogonal {
		if f := maxOrthogonal(n); f < freqs {
			freqs, limit = f, fmt.Sprintf("%.3g multiply-adds of orthogonalisation", float64(MaxOrthogonalWork))
		}
	}
	d := design.Dims{Max: max(freqs, 1), MaxStated: true}
	form := "any dimension"
	if m.features() == fmap.CosSin {
		d.Even, d.Max, form = true, 2*max(freqs, 1), "even dimensions only"
	}
	d.Why = fmt.Sprintf("rff with %s features makes %s, and on %d inputs at most %d (%s)", m.features(), form, n, d.Max, limit)
	return d
}

// inputs is the number of inputs of the random features: the kernel's
// inputs, or for exp-chi2 those of the inner map's concatenation.
func (m *RFF) inputs(p *fmap.Problem) int {
	n := max(p.InDim(), 1)
	if p.Kernel.Type == fmap.ExpChi2 {
		n *= max(m.inner().Dim, 1)
	}
	return n
}

// maxOrthogonal is the most frequencies of n inputs orthogonal sampling
// draws within MaxOrthogonalWork (m·n·min(m, n) multiply-adds).
func maxOrthogonal(n int) int {
	w := float64(MaxOrthogonalWork)
	if nn := float64(n); nn*nn*nn <= w {
		return int(w / (nn * nn))
	}
	return int(math.Sqrt(w / float64(n)))
}

var _ learnplan.Priced = (*RFF)(nil)

// SigmaFeatures are the random features a learn section learns σ on for
// rff's map of dimension dim: the map's own, its sampling, form and seed,
// so that the map designed at the learned σ is the learned one.
func (m *RFF) SigmaFeatures(dim int) (features int, sampling, form string, seed int64) {
	return dim, m.Opts.Sampling, m.Opts.Features, m.Opts.Seed
}

// LearnShape prices learning σ for rff's map of dimension D
// (learnplan.Priced): learning draws the map's own D features, and the model a
// learned map carries evaluates its D/2 frequencies (cos-sin, even D only)
// or D (phase) on the n inputs, a sine and cosine costing about 20.
func (m *RFF) LearnShape(base learnplan.CostShape) (func(dim int) learnplan.CostShape, bool) {
	cosSin := m.features() == fmap.CosSin
	return func(dim int) learnplan.CostShape {
		c := base
		c.Dim, c.CosSin, c.MapDim = dim, cosSin, dim
		freqs := float64(dim)
		if cosSin {
			freqs /= 2
		}
		c.MapEval = freqs * float64(base.Inputs+20)
		return c
	}, cosSin
}

func (m *RFF) features() fmap.Features {
	if m.Opts.Features == "" {
		return fmap.CosSin
	}
	return fmap.Features(m.Opts.Features)
}

// sampling is the sampling of the options or the kernel's default.
func (m *RFF) sampling(k fmap.Kernel) string {
	if m.Opts.Sampling != "" {
		return m.Opts.Sampling
	}
	return DefaultSampling(k)
}

// DefaultSampling is the sampling of kernel k's frequencies when the
// options name none: qmc for the skewed kernels and the Laplacian (laws
// that are products over the axes, not spherical), orthogonal for the
// spherical ones (rbf, exp-chi2, Matérn: for Matérn with radii stratified
// over the frequencies, as its law draws them: KernelFrequencies). Learning σ draws by it too, so
// that its features are rff's. The measurements behind it: docs/rff.md
// and, for the Laplacian and Matérn kernels, docs/kernels.md.
func DefaultSampling(k fmap.Kernel) string {
	if !Spherical(k) {
		return SamplingQMC
	}
	return SamplingOrthogonal
}

// inner is the inner map's method and dimension (default chum, 5).
func (m *RFF) inner() *design.Inner {
	if m.Opts.Inner != nil {
		return m.Opts.Inner
	}
	m.innerMu.Lock()
	defer m.innerMu.Unlock()
	if m.defaultInner == nil {
		if defaultInner == nil {
			panic("sampled: no default inner method for exp-chi2's map: call sampled.SetDefaultInner first (package registry gives chum)")
		}
		m.defaultInner = &design.Inner{Method: defaultInner(), Dim: DefaultInnerDim}
	}
	return m.defaultInner
}

// DefaultInnerDim is the dimension of an exp-χ² map's inner map when the
// options name none.
const DefaultInnerDim = 5

// defaultInner makes the method of an exp-χ² map's inner map when the
// options name none (SetDefaultInner).
var defaultInner func() design.Method

// SetDefaultInner gives the method of an exp-χ² map's inner map when its
// options name none (of DefaultInnerDim dimensions): a new value per RFF.
// It is given, not imported, so that sampled imports no other design
// method's package: package registry gives chum (Li et al.'s inner χ²
// map, designed), once, before any design.
func SetDefaultInner(method func() design.Method) { defaultInner = method }

// innerProblemOf is innerProblem(p), the same value for every p of the
// same inner interval.
func (m *RFF) innerProblemOf(p *fmap.Problem) *fmap.Problem {
	ip := innerProblem(p)
	d := ip.Domain
	key := innerKey{d.Lo[0], d.Hi[0], d.Integer}
	m.innerMu.Lock()
	defer m.innerMu.Unlock()
	if q, ok := m.innerProblems[key]; ok {
		return q
	}
	if m.innerProblems == nil {
		m.innerProblems = map[innerKey]*fmap.Problem{}
	}
	m.innerProblems[key] = ip
	return ip
}

// InnerLowerEnd is the lower end, relative to the upper, of the interval
// an exp-χ² map's inner χ² map is designed on when the domain starts at 0.
const InnerLowerEnd = 1e-4

// innerProblem is the one-dimensional χ² problem of an exp-χ² map's inner
// map: the χ² kernel (γ = 1) on the union of the axes' ranges, absolute
// error (its error at x = y, ψ(x)·ψ(x) against x, is what exp-χ² needs).
// An interval from 0 is designed on [10⁻⁴·hi, hi] (a χ² map needs a
// smallest nonzero input); below it both the kernel and the map's
// products are at most √(xy), so their difference is too.
func innerProblem(p *fmap.Problem) *fmap.Problem {
	lo, hi := slices.Min(p.Domain.Lo), slices.Max(p.Domain.Hi)
	if lo == 0 && !p.Domain.Integer {
		lo = InnerLowerEnd * hi
	}
	return &fmap.Problem{
		Kernel:  fmap.Kernel{Type: fmap.Chi2, Gamma: 1},
		Domain:  fmap.Domain{Integer: p.Domain.Integer, Lo: []float64{lo}, Hi: []float64{hi}},
		Measure: fmap.Absolute, Norm: fmap.LInf, Negative: fmap.NegativeSign,
	}
}

// EvalCost: an exp-χ² map applies its inner map of k outputs to each of
// the n coordinates, then draws D features of the n·k values (D·n·k + n·k
// per input); other kernels' maps cost VerifyCost's D·n per input. The
// model's price of a signature point, two evaluations (4·D·n), is what
// cos-sin features' closed form costs it (D/2 frequencies at a time,
// measured against it in docs/limits.md); phase features have D
// frequencies, all needed at the far end of the pair (fmap's dotsAlong):
// twice that, 4·D·n.
func (m *RFF) EvalCost(p *fmap.Problem) *fmap.EvalCost {
	if p.Kernel.Type != fmap.ExpChi2 {
		if m.features() != fmap.Phase || !p.Kernel.ShiftInvariant() {
			return nil
		}
		n := float64(p.InDim())
		return &fmap.EvalCost{
			Cost: func(dim int) float64 { return float64(dim) * n }, Formula: "D·n",
			Signature: func(dim int) float64 { return 4 * float64(dim) * n }, SignatureFormula: "4·D·n (phase features: twice the frequencies of cos-sin's at the same D)",
		}
	}
	nk := float64(p.InDim() * m.inner().Dim)
	return &fmap.EvalCost{Cost: func(dim int) float64 { return float64(dim)*nk + nk }, Formula: "D·n·k + n·k (k = the inner map's dimension)"}
}

// CheckOptions checks the options against the kernel: orthogonal
// frequencies are Gaussian, an inner map is exp-chi2's, and it must be a
// one-input χ² map its method makes.
func (m *RFF) CheckOptions(p *fmap.Problem) error {
	k := p.Kernel
	switch {
	case m.Opts.Sampling == SamplingOrthogonal && !Spherical(k):
		return &design.OptionError{Key: "sampling", Msg: fmt.Sprintf("orthogonal frequencies are spherical (%s); %s's are a product of one-axis laws: use random or qmc", strings.Join(drawnTypes(fmap.KernelTypes(), true), ", "), k.Type)}
	case m.Opts.Inner != nil && k.Type != fmap.ExpChi2:
		return &design.OptionError{Key: "inner", Msg: fmt.Sprintf("the inner map is exp-chi2's; %s has none", k.Type)}
	case k.Type != fmap.ExpChi2:
		return nil
	}
	in, ip := m.inner(), innerProblem(p)
	if _, ok := in.Method.(design.SeriesMethod); !ok {
		// annfm's tables, the data-driven maps (designed here on one
		// coordinate's χ² kernel, without the data) and the many-input
		// methods make no function of one input to apply per coordinate.
		return &design.OptionError{Key: "inner", Msg: fmt.Sprintf("%s cannot make exp-chi2's inner map, a Fourier or series function of one input applied to every coordinate (designed on the χ² kernel of one coordinate, without the data): use chum, vz, li or chebyshev", in.Method.Name())}
	}
	if err := ip.Check(); err != nil {
		return &design.OptionError{Key: "inner", Msg: fmt.Sprintf("the inner χ² map's domain: %v", err)}
	}
	if err := in.Method.Applies(ip); err != nil {
		return &design.OptionError{Key: "inner", Msg: err.Error()}
	}
	if d := design.DimsFor(in.Method, ip); !d.Has(in.Dim) {
		return &design.OptionError{Key: "inner", Msg: d.Refusal(in.Dim)}
	}
	return nil
}

// Design draws the map of dimension dim.
func (m *RFF) Design(ctx context.Context, p *fmap.Problem, dim int, s design.Settings) (*design.Result, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if err := m.Applies(p); err != nil {
		return nil, err
	}
	if err := m.CheckOptions(p); err != nil {
		return nil, err
	}
	feat := m.features()
	if d := m.Dims(p); !d.Has(dim) {
		return nil, fmt.Errorf("sampled: %s", d.Refusal(dim))
	}
	k := p.Kernel
	n := p.InDim()
	var stages []fmap.Stage
	rs := &fmap.Random{Features: feat, Transform: fmap.Identity}
	var laws []Law
	var sigmas []float64
	switch {
	case k.ShiftInvariant(): // drawn by its law (KernelFrequencies)
		if k.Skewed() {
			rs.Transform, rs.Offset = fmap.LogOffset, k.C
		}
		sigmas = k.Sigma
	case k.Type == fmap.ExpChi2:
		in := m.inner()
		s.Say(fmt.Sprintf("exp-chi2: the inner χ² map, %s of %d dimensions", in.Method.Name(), in.Dim))
		res, err := in.Method.Design(ctx, m.innerProblemOf(p), in.Dim, s.Quiet())
		if err != nil {
			return nil, fmt.Errorf("sampled: the inner χ² map: %w", err)
		}
		if res.Map.Fourier() == nil && res.Map.Series() == nil {
			return nil, fmt.Errorf("sampled: the inner map of %s is not a one-input Fourier or series map", in.Method.Name())
		}
		stages = append(stages, fmap.Stage{Kind: &fmap.PerCoordinate{Inner: res.Map.Stages[0]}})
		// exp(−β‖u − v‖²) is the Gaussian of width σ = 1/√(2β).
		sg := 1 / math.Sqrt(2*k.Beta)
		n *= res.Map.Dim
		laws, sigmas = slices.Repeat([]Law{GaussianLaw(sg)}, n), slices.Repeat([]float64{sg}, n)
	}
	freqs := dim
	if feat == fmap.CosSin {
		freqs = dim / 2
	}
	if freqs*n > MaxRFFEntries {
		return nil, fmt.Errorf("sampled: %d frequencies of %d inputs are %d numbers, more than %d: lower target.dim", freqs, n, freqs*n, MaxRFFEntries)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	seed := m.Opts.Seed
	if seed == 0 {
		seed = 1
	}
	sampling := m.sampling(k)
	s.Say(fmt.Sprintf("rff: %d %s frequencies of %d inputs", freqs, sampling, n))
	var err error
	rs.In = n
	if laws == nil {
		rs.Freq, err = KernelFrequencies(ctx, k, freqs, n, sigmas, sampling, seed)
	} else {
		rs.Freq, err = FrequenciesContext(ctx, freqs, n, laws, sigmas, sampling, seed)
	}
	if err != nil {
		return nil, err
	}
	if feat == fmap.Phase {
		rs.Phase = Phases(freqs, sampling, seed)
	}
	stages = append(stages, fmap.Stage{Kind: rs})
	mp := &fmap.Map{Kernel: k, InDim: p.InDim(), Dim: dim, Domain: p.Domain.Clone(), Method: "rff", Stages: stages}
	if err := mp.Validate(); err != nil {
		return nil, err
	}
	if !m.Unshrunk {
		fit, err := shrinkMap(ctx, mp, p, []shrinkBlock{{0, dim}}, seed, s)
		if err != nil {
			return nil, err
		}
		if c := fit.C[0]; c > 0 && c != 1 {
			rs.Scale = math.Sqrt(c)
		}
	}
	return &design.Result{Map: mp}, nil
}
