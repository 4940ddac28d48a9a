package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/optimize"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/sampled"
)

// LearnOptions say how LearnSigma learns a kernel's widths.
type LearnOptions struct {
	// Kernel is the kernel and the starting point: rbf, skewed-chi2 or
	// skewed-intersection, Sigma one value per input axis (or one value,
	// used on every axis), C the skewed kernels' offset.
	Kernel fmap.Kernel
	// PerAxis learns one σ per input axis (automatic relevance
	// determination); otherwise one factor scales every axis's σ.
	PerAxis bool
	// Validation is the held-out fraction of the rows, in (0, 1)
	// (default 0.25): a seeded split, stratified by class for class labels.
	Validation float64
	// Ridge is λ of w = (ZᵀZ + λI)⁻¹Zᵀy (default 1e-3).
	Ridge float64
	// RidgeAuto chooses λ on the validation split instead (Ridge must be
	// 0): the λ of RidgeGrid of least validation error (chooseRidge) at
	// the starting σ, which σ is then learned with, and again at the
	// learned σ, which the result reports (Ridge) and its validation error
	// is measured with. A grid point at each end, not a joint optimisation:
	// the second choice never raises the validation error, since the
	// first λ is on the grid too.
	RidgeAuto bool
	// Penalty is the weight of r(σ) = Σ_a log²(σ_a/σ0_a), σ0 the starting
	// widths (default 0). A penalty on log σ rather than on σ: it is
	// unit-free (scaling the data and the starting σ together learns the
	// same map), and it does not pull the large σ of irrelevant axes down
	// harder than the small σ of relevant ones, as ‖σ‖² (gradient 2σ) would.
	Penalty float64
	// Dim is D, the number of features (even for cos-sin features).
	Dim int
	// Sampling, Features and Seed are rff's options
	// (sampled.RFFOptions): the uniform draws u, fixed while σ moves, are
	// those an rff design of the same options draws, so that designing rff
	// with the learned σ gives the features learned with (bit for bit for
	// rbf).
	Sampling, Features string
	// Seed seeds the frequencies, the phases and the split (default 1).
	Seed int64
	// Classes treats the labels as classes: one-vs-rest ±1 targets, the
	// validation losses of the classes summed. Otherwise the labels are
	// numeric targets (regression).
	Classes bool
	// MaxIterations bounds L-BFGS's major iterations (default 100).
	MaxIterations int
	// Chunk is the number of rows whose features are held at once
	// (default 256).
	Chunk int
}

// LearnResult is what LearnSigma learned.
type LearnResult struct {
	// Sigma is the learned σ per input axis (all equal for a shared σ
	// learned from equal starting widths).
	Sigma []float64
	// Start is the starting σ per input axis.
	Start []float64
	// ValidationBefore and ValidationAfter are the validation error at the
	// start and at the learned σ: the mean over validation rows of the
	// squared residual summed over the targets.
	ValidationBefore, ValidationAfter float64
	// ObjectiveBefore and ObjectiveAfter are the minimised objective
	// ½‖Z_v w − y_v‖² + Penalty·r(σ).
	ObjectiveBefore, ObjectiveAfter float64
	// Iterations and Evaluations are L-BFGS's major iterations and
	// objective evaluations; Status is its stopping reason.
	Iterations, Evaluations int
	Status                  string
	// Classes are the class labels in target order (nil for regression).
	Classes []float64
	// Train and Held are the numbers of training and validation rows.
	Train, Held int
	// Ridge is the ridge λ of ValidationAfter: the given one, or with
	// RidgeAuto the one chosen at the learned σ; RidgeStart the λ σ was
	// learned with (chosen at the starting σ with RidgeAuto).
	Ridge, RidgeStart float64
}

// LearnSigma learns the widths σ of an rbf or skewed kernel's random
// Fourier features from labelled rows by the validation gradient of
// Băzăvan, Li & Sminchisescu (§3.2, eqs. 2–9): with the uniform draws u
// fixed the frequencies are ω_ja = h(u_j)_a/σ_a (rbf) or σ_a·h(u_j)_a
// (skewed), the features z(x; σ) are smooth in σ, the ridge weights on the
// training rows are w = (ZᵀZ + λI)⁻¹Zᵀy (targets centred by their training
// mean), and L-BFGS (gonum optimize) minimises the validation objective
// E = ½‖Z_v w − y_v‖² + Penalty·r(σ) over log σ with E's closed-form
// gradient (see gradient). labels[i] is row i's target or class.
//
// L-BFGS stops when a major iteration lowers E by less than 10⁻⁶ of |E|
// (gonum's FunctionConverge), when ‖∂E‖ < 1e-8, or after MaxIterations.
// Without the first rule it reached the optimum in 6–8 iterations and then
// spent most of its evaluations in a line search that ended in "Failure":
// 64 evaluations against 5 for the same σ (2.701) and validation error
// (0.01267) on 10⁴ generated rows (TestLearnSigmaScale).
//
// Memory: the D×D system, D×K right-hand sides and a chunk of features;
// nothing of size N·D. What grows with the rows is the caller's rows and
// the split's index lists (one int per row).
func LearnSigma(ctx context.Context, rows [][]float64, labels []float64, opts LearnOptions) (LearnResult, error) {
	l, err := newLearner(ctx, rows, labels, opts, nil, nil)
	if err != nil {
		return LearnResult{}, err
	}
	res := LearnResult{Start: slices.Clone(l.sigma0), Classes: l.classes, Train: len(l.train), Held: len(l.val)}
	theta0 := make([]float64, l.params())
	if opts.RidgeAuto {
		if opts.Ridge != 0 {
			return res, fmt.Errorf("multidim: learning σ: ridge %v with ridge auto (want 0)", opts.Ridge)
		}
		if l.lambda, _, err = l.chooseRidge(theta0); err != nil {
			return res, err
		}
	}
	res.RidgeStart = l.lambda
	obj0, mse0, err := l.eval(theta0, nil)
	if err != nil {
		return res, err
	}
	res.ObjectiveBefore, res.ValidationBefore = obj0, mse0
	// L-BFGS asks for E and ∂E at the same points: one evaluation computes
	// both, kept for the last point.
	var lastX, lastG []float64
	var lastF float64
	at := func(th []float64) bool {
		if slices.Equal(th, lastX) {
			return true
		}
		g := make([]float64, len(th))
		f, _, err := l.eval(th, g)
		if err != nil {
			l.err = err
			return false
		}
		lastX, lastF, lastG = slices.Clone(th), f, g
		return true
	}
	prob := optimize.Problem{
		Func: func(th []float64) float64 {
			if !at(th) {
				return math.Inf(1)
			}
			return lastF
		},
		Grad: func(g, th []float64) {
			if !at(th) {
				for i := range g {
					g[i] = math.NaN()
				}
				return
			}
			copy(g, lastG)
		},
	}
	iters := opts.MaxIterations
	if iters <= 0 {
		iters = 100
	}
	settings := &optimize.Settings{MajorIterations: iters, GradientThreshold: 1e-8,
		Converger: &optimize.FunctionConverge{Relative: 1e-6, Iterations: 1}}
	out, oerr := optimize.Minimize(prob, theta0, settings, &optimize.LBFGS{})
	if l.err != nil {
		return res, l.err
	}
	if out == nil {
		return res, fmt.Errorf("multidim: learning σ: %w", oerr)
	}
	best := out.X
	if !(out.F < obj0) { // L-BFGS failed to improve: keep the start
		best = theta0
	}
	if opts.RidgeAuto {
		if l.lambda, _, err = l.chooseRidge(best); err != nil {
			return res, err
		}
	}
	res.Ridge = l.lambda
	res.ObjectiveAfter, res.ValidationAfter, err = l.eval(best, nil)
	if err != nil {
		return res, err
	}
	res.Sigma = l.sigmas(best)
	res.Iterations, res.Evaluations, res.Status = out.Stats.MajorIterations, out.Stats.FuncEvaluations, out.Status.String()
	return res, nil
}

// learner holds one learning problem: the rows, their centred targets, the
// split, and the fixed standard frequencies (σ = 1) the widths scale.
type learner struct {
	ctx             context.Context
	err             error
	rows            [][]float64
	n, m, d, k      int
	y               []float64 // row i's K targets at y[i*k:], centred
	train, val      []int
	classes         []float64
	base, phase     []float64 // m×n standard frequencies; phases (phase features)
	cosSin, skewed  bool
	offset          float64
	sigma0, logSig0 []float64
	perAxis         bool
	lambda, penalty float64
	chunk           int
}

// MaxLearnDim bounds the features learning uses (the map's D): every
// evaluation forms and factors D × D matrices of the features' moments,
// memory about 5.8·D² numbers (185 MB at D = 2048, measured with 200 rows
// and ridge auto) and a D³/3 Cholesky that Ctrl-C cannot interrupt. It is
// the group lasso's bound on its features (MaxGroupLassoFeatures in
// package featmap).
const MaxLearnDim = 4096

// newLearner checks the inputs and draws the standard frequencies; train
// and val, if given, replace the seeded split. The drawing
// (sampled.FrequenciesContext) and the learner's later passes over the
// rows stop soon after ctx is done, with ctx's error.
func newLearner(ctx context.Context, rows [][]float64, labels []float64, o LearnOptions, train, val []int) (*learner, error) {
	k := o.Kernel
	if !k.ShiftInvariant() {
		return nil, fmt.Errorf("multidim: learning σ: kernel %q: want rbf, skewed-chi2 or skewed-intersection", k.Type)
	}
	if len(rows) < 4 || len(rows) != len(labels) {
		return nil, fmt.Errorf("multidim: learning σ: %d rows and %d labels (want as many, at least 4)", len(rows), len(labels))
	}
	n := len(rows[0])
	if n < 1 {
		return nil, errors.New("multidim: learning σ: rows of no inputs")
	}
	l := &learner{ctx: ctx, rows: rows, n: n, d: o.Dim, skewed: k.Skewed(), offset: k.C, perAxis: o.PerAxis,
		lambda: o.Ridge, penalty: o.Penalty, chunk: o.Chunk}
	for i, r := range rows {
		if len(r) != n {
			return nil, fmt.Errorf("multidim: learning σ: row %d has %d inputs, row 0 has %d", i, len(r), n)
		}
		for a, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) || (l.skewed && !(v+k.C > 0)) {
				return nil, fmt.Errorf("multidim: learning σ: row %d input %d: %v is not an input of %s", i, a, v, k.Type)
			}
		}
		if math.IsNaN(labels[i]) || math.IsInf(labels[i], 0) {
			return nil, fmt.Errorf("multidim: learning σ: row %d: label %v", i, labels[i])
		}
	}
	switch len(k.Sigma) {
	case 1:
		l.sigma0 = slices.Repeat(k.Sigma, n)
	case n:
		l.sigma0 = slices.Clone(k.Sigma)
	default:
		return nil, fmt.Errorf("multidim: learning σ: %d starting widths for %d inputs", len(k.Sigma), n)
	}
	for _, s := range l.sigma0 {
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("multidim: learning σ: starting width %v, want positive", s)
		}
		l.logSig0 = append(l.logSig0, math.Log(s))
	}
	if l.lambda == 0 {
		l.lambda = 1e-3
	}
	frac := o.Validation
	if frac == 0 {
		frac = 0.25
	}
	switch {
	case !(l.lambda > 0):
		return nil, fmt.Errorf("multidim: learning σ: ridge %v, want positive", o.Ridge)
	case !(o.Penalty >= 0):
		return nil, fmt.Errorf("multidim: learning σ: penalty %v, want ≥ 0", o.Penalty)
	case !(frac > 0 && frac < 1):
		return nil, fmt.Errorf("multidim: learning σ: validation %v, want in (0, 1)", o.Validation)
	}
	if l.chunk <= 0 {
		l.chunk = 256
	}
	features := o.Features
	if features == "" {
		features = string(fmap.CosSin)
	}
	l.cosSin = features == string(fmap.CosSin)
	if !l.cosSin && features != string(fmap.Phase) {
		return nil, fmt.Errorf("multidim: learning σ: unknown features %q (cos-sin or phase)", features)
	}
	if l.d < 2 || (l.cosSin && l.d%2 != 0) {
		return nil, fmt.Errorf("multidim: learning σ: dimension %d (want ≥ 2, even for cos-sin features)", l.d)
	}
	if l.d > MaxLearnDim {
		return nil, fmt.Errorf("multidim: learning σ: dimension %d, more than MaxLearnDim = %d", l.d, MaxLearnDim)
	}
	l.m = l.d
	if l.cosSin {
		l.m = l.d / 2
	}
	sampling := o.Sampling
	if sampling == "" {
		sampling = sampled.DefaultSampling(k)
	}
	if sampling == sampled.SamplingOrthogonal && l.skewed {
		return nil, fmt.Errorf("multidim: learning σ: orthogonal frequencies are Gaussian; %s's are not: use random or qmc", k.Type)
	}
	seed := o.Seed
	if seed == 0 {
		seed = 1
	}
	laws := make([]sampled.Law, n)
	for a := range laws {
		switch k.Type {
		case fmap.RBF:
			laws[a] = sampled.GaussianLaw(1)
		case fmap.SkewedChi2:
			laws[a] = sampled.SkewedChi2Law(1)
		default:
			laws[a] = sampled.SkewedIntersectionLaw(1)
		}
	}
	var err error
	if l.base, err = sampled.FrequenciesContext(ctx, l.m, n, laws, slices.Repeat([]float64{1}, n), sampling, seed); err != nil {
		return nil, fmt.Errorf("multidim: learning σ: %w", err)
	}
	if !l.cosSin {
		l.phase = sampled.Phases(l.m, sampling, seed)
	}
	l.targets(labels, o.Classes)
	if train != nil {
		l.train, l.val = train, val
	} else {
		l.split(labels, o.Classes, frac, seed)
	}
	if len(l.train) == 0 || len(l.val) == 0 {
		return nil, fmt.Errorf("multidim: learning σ: %d training and %d validation rows: want some of each", len(l.train), len(l.val))
	}
	l.centre()
	return l, nil
}

// targets fills y: the labels, or one-vs-rest ±1 per class.
func (l *learner) targets(labels []float64, classes bool) {
	l.classes, l.k, l.y = codeTargets(labels, classes)
}

// codeTargets codes labels as K targets per row (row i's at y[i*k:]): the
// labels themselves (k = 1, no classes), or for classes one-vs-rest ±1
// per class, the classes sorted.
func codeTargets(labels []float64, classes bool) (cls []float64, k int, y []float64) {
	if !classes {
		return nil, 1, slices.Clone(labels)
	}
	cls = slices.Compact(slices.Sorted(slices.Values(labels)))
	k = len(cls)
	y = make([]float64, len(labels)*k)
	for i, v := range labels {
		c, _ := slices.BinarySearch(cls, v)
		for j := range k {
			y[i*k+j] = -1
		}
		y[i*k+c] = 1
	}
	return cls, k, y
}

// split draws the validation rows: a seeded shuffle, per class for classes.
func (l *learner) split(labels []float64, classes bool, frac float64, seed int64) {
	rng := rand.New(rand.NewPCG(uint64(seed), 0x73706c6974)) // "split"
	groups := map[float64][]int{}
	keys := []float64{0}
	for i, v := range labels {
		if !classes {
			v = 0
		} else if _, ok := groups[v]; !ok {
			keys = append(keys, v)
		}
		groups[v] = append(groups[v], i)
	}
	if classes {
		keys = slices.Sorted(slices.Values(keys[1:]))
	}
	for _, c := range keys {
		g := groups[c]
		rng.Shuffle(len(g), func(i, j int) { g[i], g[j] = g[j], g[i] })
		h := int(math.Round(frac * float64(len(g))))
		l.val = append(l.val, g[:h]...)
		l.train = append(l.train, g[h:]...)
	}
	slices.Sort(l.val)
	slices.Sort(l.train)
}

// centre subtracts the training mean of every target (the ridge model's
// intercept, which does not depend on σ).
func (l *learner) centre() {
	mean := make([]float64, l.k)
	for _, i := range l.train {
		for j := range l.k {
			mean[j] += l.y[i*l.k+j]
		}
	}
	for j := range mean {
		mean[j] /= float64(len(l.train))
	}
	for i := range l.rows {
		for j := range l.k {
			l.y[i*l.k+j] -= mean[j]
		}
	}
}

// params is the number of learned parameters: 1 (shared) or n.
func (l *learner) params() int {
	if l.perAxis {
		return l.n
	}
	return 1
}

// sigmas are the widths at θ: σ_a = σ0_a·exp(θ_a) (θ_0 for a shared σ).
func (l *learner) sigmas(theta []float64) []float64 {
	s := make([]float64, l.n)
	for a := range s {
		s[a] = math.Exp(l.logSig0[a] + theta[min(a, len(theta)-1)])
	}
	return s
}

// freqs are the frequencies at θ: ω_ja = b_ja/σ_a (rbf) or b_ja·σ_a, so
// that ∂ω_ja/∂θ_a = sgn·ω_ja with sgn = −1 (rbf) or +1 (skewed).
func (l *learner) freqs(theta []float64) []float64 {
	s := l.sigmas(theta)
	w := make([]float64, len(l.base))
	for j := range l.m {
		for a := range l.n {
			if l.skewed {
				w[j*l.n+a] = l.base[j*l.n+a] * s[a]
			} else {
				w[j*l.n+a] = l.base[j*l.n+a] / s[a]
			}
		}
	}
	return w
}

// chunkFeatures fills, for the rows idx, z (len(idx)×D), the arguments t
// (len(idx)×n) and the phases p_j = ω_j·t (len(idx)×m, without b_j).
func (l *learner) chunkFeatures(idx []int, w []float64, z *mat.Dense, t, p []float64) {
	zr := z.RawMatrix()
	c := 1 / math.Sqrt(float64(l.m)) // cos-sin features' scale
	if !l.cosSin {
		c = math.Sqrt(2 / float64(l.m))
	}
	for r, i := range idx {
		tr := t[r*l.n : (r+1)*l.n]
		for a, v := range l.rows[i] {
			if l.skewed {
				v = math.Log(v + l.offset)
			}
			tr[a] = v
		}
		zi := zr.Data[r*zr.Stride : r*zr.Stride+l.d]
		for j := range l.m {
			var ph float64
			for a, wa := range w[j*l.n : (j+1)*l.n] {
				ph += wa * tr[a]
			}
			p[r*l.m+j] = ph
			if l.cosSin {
				sn, cs := math.Sincos(ph)
				zi[2*j], zi[2*j+1] = c*cs, c*sn
			} else {
				zi[j] = c * math.Cos(ph+l.phase[j])
			}
		}
	}
}

// chunkTargets copies the centred targets of the rows idx into y.
func (l *learner) chunkTargets(idx []int, y *mat.Dense) {
	for r, i := range idx {
		y.SetRow(r, l.y[i*l.k:(i+1)*l.k])
	}
}

// scratch is one chunk's buffers.
type scratch struct {
	z, y, f, v *mat.Dense
	t, p       []float64
}

func (l *learner) scratch(rows int) *scratch {
	return &scratch{z: mat.NewDense(rows, l.d, nil), y: mat.NewDense(rows, l.k, nil), f: mat.NewDense(rows, l.k, nil),
		v: mat.NewDense(rows, l.d, nil), t: make([]float64, rows*l.n), p: make([]float64, rows*l.m)}
}

// each calls fn on the rows idx a chunk at a time, with the chunk's
// features and targets filled in; on no rows, never (a part of a split
// into fitParts may have none).
func (l *learner) each(idx []int, w []float64, fn func(s *scratch)) error {
	if len(idx) == 0 {
		return l.ctx.Err()
	}
	full := l.scratch(min(l.chunk, len(idx)))
	for lo := 0; lo < len(idx); lo += l.chunk {
		if err := l.ctx.Err(); err != nil {
			return err
		}
		part := idx[lo:min(lo+l.chunk, len(idx))]
		s := full
		if c := len(part); c < full.z.RawMatrix().Rows {
			s = &scratch{z: full.z.Slice(0, c, 0, l.d).(*mat.Dense), y: full.y.Slice(0, c, 0, l.k).(*mat.Dense),
				f: full.f.Slice(0, c, 0, l.k).(*mat.Dense), v: full.v.Slice(0, c, 0, l.d).(*mat.Dense), t: full.t, p: full.p}
		}
		l.chunkFeatures(part, w, s.z, s.t, s.p)
		l.chunkTargets(part, s.y)
		fn(s)
	}
	return nil
}

// fitParts is the number of parts of the training rows whose ZᵀZ fit
// accumulates in parallel (the target machine has 2 cores).
const fitParts = 2

// fit solves the ridge system on the training rows at frequencies w: the
// Cholesky factor of Q = ZᵀZ + λI and W = Q⁻¹ZᵀY (D×K).
func (l *learner) fit(w []float64) (*mat.Cholesky, *mat.Dense, error) {
	// The training rows are split into fitParts fixed parts (SymRankK's
	// Dsyrk is serial), each accumulated by its own goroutine.
	return ridgeSolve(l.d, l.k, fitParts, l.lambda, func(p int, fn func(z, y *mat.Dense)) error {
		lo, hi := p*len(l.train)/fitParts, (p+1)*len(l.train)/fitParts
		return l.each(l.train[lo:hi], w, func(s *scratch) { fn(s.z, s.y) })
	})
}

// ridgeAccumulate sums ZᵀZ and ZᵀY over the chunks that each(p, fn)
// hands to fn for part p (see ridgeSolve), without λ.
func ridgeAccumulate(d, k, parts int, each func(p int, fn func(z, y *mat.Dense)) error) (*mat.SymDense, *mat.Dense, error) {
	qs := make([]*mat.SymDense, parts)
	ztys := make([]*mat.Dense, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for p := range parts {
		q, zty := mat.NewSymDense(d, nil), mat.NewDense(d, k, nil)
		qs[p], ztys[p] = q, zty
		wg.Add(1)
		go func() {
			defer wg.Done()
			var tmp mat.Dense
			errs[p] = each(p, func(z, y *mat.Dense) {
				q.SymRankK(q, 1, z.T())
				tmp.Mul(z.T(), y)
				zty.Add(zty, &tmp)
			})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, nil, err
	}
	q, zty := qs[0], ztys[0]
	for p := 1; p < parts; p++ {
		q.AddSym(q, qs[p])
		zty.Add(zty, ztys[p])
	}
	return q, zty, nil
}

// ridgeSolve accumulates Q = ZᵀZ + λI and ZᵀY over the chunks that
// each(p, fn) hands to fn for part p = 0 … parts−1 (a chunk's features z,
// rows×D, and targets y, rows×K: memory O(parts·D²), not O(N·D)). Every
// part runs in its own goroutine into its own Q and ZᵀY, and the parts are
// summed in part order, so the result does not depend on the number of
// cores. It returns Q's Cholesky factor and W = Q⁻¹ZᵀY (D×K).
func ridgeSolve(d, k, parts int, lambda float64, each func(p int, fn func(z, y *mat.Dense)) error) (*mat.Cholesky, *mat.Dense, error) {
	q, zty, err := ridgeAccumulate(d, k, parts, each)
	if err != nil {
		return nil, nil, err
	}
	for i := range d {
		q.SetSym(i, i, q.At(i, i)+lambda)
	}
	var ch mat.Cholesky
	if !ch.Factorize(q) {
		return nil, nil, fmt.Errorf("multidim: ridge: ZᵀZ + λI is not positive definite at λ = %g: raise the ridge", lambda)
	}
	var wt mat.Dense
	if err := ch.SolveTo(&wt, zty); err != nil {
		return nil, nil, fmt.Errorf("multidim: ridge: the solve: %w", err)
	}
	return &ch, &wt, nil
}

// RidgeModel is a linear model on features z(x) ∈ ℝᴰ: score_c(x) =
// Σ_j W[j*K+c]·z_j(x) + Bias[c] for its K outputs.
type RidgeModel struct {
	// Classes are the class labels in output order (nil for regression,
	// K = 1).
	Classes []float64
	// W is D×K, row-major; Bias has K entries.
	W, Bias []float64
}

// Ridge fits the ridge model LearnSigma fits (eq. 2), on every one of
// rows: targets coded as LearnSigma codes them (labels, or one-vs-rest ±1
// per class for classes) and centred by their mean over rows, which is
// the model's bias; W = (ZᵀZ + λI)⁻¹ZᵀY with Z the rows' features, which
// features(dst, x) writes (dim of them), accumulated a chunk of 256 rows at
// a time.
func Ridge(rows [][]float64, labels []float64, classes bool, lambda float64, dim int, features func(dst, x []float64)) (RidgeModel, error) {
	switch {
	case len(rows) == 0 || len(rows) != len(labels):
		return RidgeModel{}, fmt.Errorf("multidim: ridge: %d rows and %d labels (want as many, at least 1)", len(rows), len(labels))
	case !(lambda > 0):
		return RidgeModel{}, fmt.Errorf("multidim: ridge: λ = %v, want positive", lambda)
	case dim < 1:
		return RidgeModel{}, fmt.Errorf("multidim: ridge: dimension %d", dim)
	}
	cls, k, y := codeTargets(labels, classes)
	bias := make([]float64, k)
	for i := range rows {
		for c := range k {
			bias[c] += y[i*k+c]
		}
	}
	for c := range bias {
		bias[c] /= float64(len(rows))
	}
	const chunk = 256
	z := mat.NewDense(min(chunk, len(rows)), dim, nil)
	yc := mat.NewDense(min(chunk, len(rows)), k, nil)
	_, wt, err := ridgeSolve(dim, k, 1, lambda, func(_ int, fn func(z, y *mat.Dense)) error {
		for lo := 0; lo < len(rows); lo += chunk {
			hi := min(lo+chunk, len(rows))
			zs, ys := z.Slice(0, hi-lo, 0, dim).(*mat.Dense), yc.Slice(0, hi-lo, 0, k).(*mat.Dense)
			for r := lo; r < hi; r++ {
				features(zs.RawRowView(r-lo), rows[r])
				for c := range k {
					ys.Set(r-lo, c, y[r*k+c]-bias[c])
				}
			}
			fn(zs, ys)
		}
		return nil
	})
	if err != nil {
		return RidgeModel{}, err
	}
	return RidgeModel{Classes: cls, W: slices.Clone(wt.RawMatrix().Data), Bias: bias}, nil
}

// eval returns the objective E(θ) = ½‖F‖² + Penalty·Σ_a log²(σ_a/σ0_a),
// F = Z_v W − Y_v, and the validation error ‖F‖²/N_v; with grad non-nil
// it also writes ∂E/∂θ there.
//
// The gradient (eqs. 5–9 in matrix form, K targets at once): with
// R = Y − ZW the training residual and A = Q⁻¹Z_vᵀF (one back-solve),
//
//	dE = tr(Fᵀ dZ_v W) + tr(Aᵀ dZᵀ R) − tr(Aᵀ Zᵀ dZ W)
//	   = Σ_{validation i} dz_i·(W f_i) + Σ_{training i} dz_i·(A r_i − W Aᵀz_i),
//
// since dW = Q⁻¹(dZᵀY − dQ W) = Q⁻¹(dZᵀR − ZᵀdZ W). Every row contributes
// dz_i·v_i for a D-vector v_i, and as z's components of frequency j depend
// on θ only through its phase p_j = Σ_a ω_ja t_a, with ∂p_j/∂θ_a =
// sgn·ω_ja t_a, dz_i·v_i = sgn Σ_j e_ij Σ_a ω_ja t_ia dθ_a where e_ij =
// Σ_{components c of j} (∂z_c/∂p_j) v_ic. So one pass accumulates
// G_ja = Σ_i e_ij t_ia (per axis) or Σ_i e_ij p_ij (shared).
func (l *learner) eval(theta, grad []float64) (obj, mse float64, err error) {
	w := l.freqs(theta)
	ch, wt, err := l.fit(w)
	if err != nil {
		return 0, 0, err
	}
	var sq float64
	ztf := mat.NewDense(l.d, l.k, nil)
	G := make([]float64, len(w))
	var shared float64
	var tmp mat.Dense
	acc := func(s *scratch, G []float64, shared *float64) {
		zr, vr := s.z.RawMatrix(), s.v.RawMatrix()
		for r := range zr.Rows {
			zi, vi := zr.Data[r*zr.Stride:r*zr.Stride+l.d], vr.Data[r*vr.Stride:r*vr.Stride+l.d]
			for j := range l.m {
				var e float64
				if l.cosSin {
					e = zi[2*j]*vi[2*j+1] - zi[2*j+1]*vi[2*j]
				} else {
					e = -math.Sqrt(2/float64(l.m)) * math.Sin(s.p[r*l.m+j]+l.phase[j]) * vi[j]
				}
				if l.perAxis {
					for a, ta := range s.t[r*l.n : (r+1)*l.n] {
						G[j*l.n+a] += e * ta
					}
				} else {
					*shared += e * s.p[r*l.m+j]
				}
			}
		}
	}
	err = l.each(l.val, w, func(s *scratch) {
		s.f.Mul(s.z, wt)
		s.f.Sub(s.f, s.y)
		fr := s.f.RawMatrix()
		for r := range fr.Rows {
			for _, v := range fr.Data[r*fr.Stride : r*fr.Stride+l.k] {
				sq += v * v
			}
		}
		if grad == nil {
			return
		}
		tmp.Mul(s.z.T(), s.f)
		ztf.Add(ztf, &tmp)
		s.v.Mul(s.f, wt.T()) // v_i = W f_i
		acc(s, G, &shared)
	})
	if err != nil {
		return 0, 0, err
	}
	var pen float64
	s := l.sigmas(theta)
	for a := range s {
		d := math.Log(s[a]) - l.logSig0[a]
		pen += d * d
	}
	obj, mse = sq/2+l.penalty*pen, sq/float64(len(l.val))
	if grad == nil {
		return obj, mse, nil
	}
	var am mat.Dense
	if err := ch.SolveTo(&am, ztf); err != nil {
		return 0, 0, fmt.Errorf("multidim: learning σ: the gradient's back-solve: %w", err)
	}
	// The training rows' pass runs in fitParts parts as fit's does, each
	// with its own G (or shared sum), added in part order.
	Gs := make([][]float64, fitParts)
	shareds := make([]float64, fitParts)
	errs := make([]error, fitParts)
	var wg sync.WaitGroup
	for p := range fitParts {
		lo, hi := p*len(l.train)/fitParts, (p+1)*len(l.train)/fitParts
		Gs[p] = make([]float64, len(w))
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[p] = l.each(l.train[lo:hi], w, func(s *scratch) {
				s.f.Mul(s.z, wt)
				s.f.Sub(s.y, s.f) // r_i = y_i − Wᵀz_i
				s.v.Mul(s.f, am.T())
				var qa, qw mat.Dense
				qa.Mul(s.z, &am) // q_i = Aᵀz_i
				qw.Mul(&qa, wt.T())
				s.v.Sub(s.v, &qw) // v_i = A r_i − W q_i
				acc(s, Gs[p], &shareds[p])
			})
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return 0, 0, err
	}
	for p := range fitParts {
		for i, v := range Gs[p] {
			G[i] += v
		}
		shared += shareds[p]
	}
	sgn := -1.0
	if l.skewed {
		sgn = 1
	}
	if l.perAxis {
		for a := range l.n {
			var g float64
			for j := range l.m {
				g += w[j*l.n+a] * G[j*l.n+a]
			}
			grad[a] = sgn*g + 2*l.penalty*theta[a]
		}
	} else {
		grad[0] = sgn*shared + 2*l.penalty*float64(l.n)*theta[0]
	}
	return obj, mse, nil
}

// scores fits the ridge model on the training rows at θ and returns the
// validation rows' scores (N_v×K, the centred targets' scale).
func (l *learner) scores(theta []float64) (*mat.Dense, error) {
	w := l.freqs(theta)
	_, wt, err := l.fit(w)
	if err != nil {
		return nil, err
	}
	out := mat.NewDense(len(l.val), l.k, nil)
	row := 0
	err = l.each(l.val, w, func(s *scratch) {
		c, _ := s.z.Dims()
		dst := out.Slice(row, row+c, 0, l.k).(*mat.Dense)
		dst.Mul(s.z, wt)
		row += c
	})
	return out, err
}
