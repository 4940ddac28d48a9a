package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/design/learnplan"
	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/sampled"
)

// learner holds one learning problem: the rows, their centred targets, the
// split, and the fixed standard frequencies (σ = 1) the widths scale.
type learner struct {
	ctx             context.Context
	err             error
	rows            [][]float64
	n, m, d, k      int
	y               []float64 // row i's K targets at y[i*k:], centred
	class           []int     // row i's class index (classes only)
	mean            []float64 // the targets' training means, taken out of y
	scale           float64   // y's scale: the centred labels times it (scaleTargets), 1 else
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

// newLearner checks the inputs and draws the standard frequencies; train
// and val, if given, replace the seeded split. The drawing
// (sampled.FrequenciesContext) and the learner's later passes over the
// rows stop soon after ctx is done, with ctx's error.
func newLearner(ctx context.Context, rows [][]float64, labels []float64, o LearnOptions, train, val []int) (*learner, error) {
	k := o.Kernel
	if !k.ShiftInvariant() {
		return nil, fmt.Errorf("learn: learning σ: kernel %q: want %s", k.Type, fmap.JoinList(fmap.SigmaKernels(), "or"))
	}
	if len(rows) < 4 || len(rows) != len(labels) {
		return nil, fmt.Errorf("learn: learning σ: %d rows and %d labels (want as many, at least 4)", len(rows), len(labels))
	}
	n := len(rows[0])
	if n < 1 {
		return nil, errors.New("learn: learning σ: rows of no inputs")
	}
	l := &learner{ctx: ctx, rows: rows, n: n, d: o.Dim, skewed: k.Skewed(), offset: k.C, perAxis: o.PerAxis,
		lambda: o.Ridge, penalty: o.Penalty, chunk: o.Chunk, scale: 1}
	for i, r := range rows {
		if len(r) != n {
			return nil, fmt.Errorf("learn: learning σ: row %d has %d inputs, row 0 has %d", i, len(r), n)
		}
		for a, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) || (l.skewed && !(v+k.C > 0)) {
				return nil, fmt.Errorf("learn: learning σ: row %d input %d: %v is not an input of %s", i, a, v, k.Type)
			}
		}
		if math.IsNaN(labels[i]) || math.IsInf(labels[i], 0) {
			return nil, fmt.Errorf("learn: learning σ: row %d: label %v", i, labels[i])
		}
	}
	switch len(k.Sigma) {
	case 1:
		l.sigma0 = slices.Repeat(k.Sigma, n)
	case n:
		l.sigma0 = slices.Clone(k.Sigma)
	default:
		return nil, fmt.Errorf("learn: learning σ: %d starting widths for %d inputs", len(k.Sigma), n)
	}
	for _, s := range l.sigma0 {
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, fmt.Errorf("learn: learning σ: starting width %v, want positive", s)
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
		return nil, fmt.Errorf("learn: learning σ: ridge %v, want positive", o.Ridge)
	case !(o.Penalty >= 0):
		return nil, fmt.Errorf("learn: learning σ: penalty %v, want ≥ 0", o.Penalty)
	case !(frac > 0 && frac < 1):
		return nil, fmt.Errorf("learn: learning σ: validation %v, want in (0, 1)", o.Validation)
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
		return nil, fmt.Errorf("learn: learning σ: unknown features %q (cos-sin or phase)", features)
	}
	if l.d < 2 || (l.cosSin && l.d%2 != 0) {
		return nil, fmt.Errorf("learn: learning σ: dimension %d (want ≥ 2, even for cos-sin features)", l.d)
	}
	if l.d > learnplan.MaxLearnDim {
		return nil, fmt.Errorf("learn: learning σ: dimension %d, more than MaxLearnDim = %d", l.d, learnplan.MaxLearnDim)
	}
	l.m = l.d
	if l.cosSin {
		l.m = l.d / 2
	}
	sampling := o.Sampling
	if sampling == "" {
		sampling = sampled.DefaultSampling(k)
	}
	if sampling == sampled.SamplingOrthogonal && !sampled.Spherical(k) {
		return nil, fmt.Errorf("learn: learning σ: orthogonal frequencies are Gaussian; %s's are not: use random or qmc", k.Type)
	}
	seed := o.Seed
	if seed == 0 {
		seed = 1
	}
	// The standard frequencies (σ = 1), which the widths scale.
	var err error
	if l.base, err = sampled.KernelFrequencies(ctx, k, l.m, n, slices.Repeat([]float64{1}, n), sampling, seed); err != nil {
		return nil, fmt.Errorf("learn: learning σ: %w", err)
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
		return nil, fmt.Errorf("learn: learning σ: %d training and %d validation rows: want some of each", len(l.train), len(l.val))
	}
	l.centre()
	return l, nil
}

// targets fills y: the labels, or one-vs-rest ±1 per class (and every
// row's class index).
func (l *learner) targets(labels []float64, classes bool) {
	l.classes, l.k, l.y = codeTargets(labels, classes)
	if classes {
		l.class = make([]int, len(labels))
		for i, v := range labels {
			l.class[i], _ = slices.BinarySearch(l.classes, v)
		}
	}
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
// intercept, which does not depend on σ), kept in l.mean.
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
	l.mean = mean
}

// scaleTargets scales a regression's centred targets by a power of two
// when they are far from 1 (targetScale), and the penalty by its square,
// so that the objective is the labels' objective times that square,
// exactly: labels near 1e150 no longer overflow the squared residuals or
// the gradient, tiny ones no longer underflow, and learning, whose
// results are then stated in the labels' units (unscaled), learns the
// same σ whatever power of two the labels are multiplied by. Class
// targets (±1) are never scaled.
func (l *learner) scaleTargets() {
	if l.classes != nil {
		return
	}
	l.scale = targetScale(l.y)
	if l.scale == 1 {
		return
	}
	for i := range l.y {
		l.y[i] *= l.scale
	}
	// Times the scale twice: its square may overflow (a penalty of 0 must
	// stay 0, and a huge one finite, or 0·∞ at the start is NaN).
	l.penalty = min(l.penalty*l.scale*l.scale, math.MaxFloat64)
}

// targetScale is the power of two that brings the largest |y| into
// [1, 2) when it lies outside [2⁻³², 2³²], else 1 (targets of an ordinary
// scale are left as they are, bit for bit). Multiplying by a power of two
// is exact, short of the float64 range's ends.
func targetScale(y []float64) float64 {
	var top float64
	for _, v := range y {
		top = math.Max(top, math.Abs(v))
	}
	if top == 0 || math.IsInf(top, 0) || math.IsNaN(top) || (top >= 0x1p-32 && top <= 0x1p32) {
		return 1
	}
	_, e := math.Frexp(top) // top = f·2^e, f in [½, 1)
	return math.Ldexp(1, 1-e)
}

// unscaled is a mean squared residual of the scaled targets in the
// labels' units.
func (l *learner) unscaled(mse float64) float64 {
	return mse / l.scale / l.scale
}

// accuracy is, for classes, the fraction of the validation rows whose
// largest score (the ridge fit on the training rows at θ, plus the
// targets' training means) is their class; 0 for regression.
func (l *learner) accuracy(theta []float64) (float64, error) {
	if l.classes == nil || len(l.val) == 0 {
		return 0, nil
	}
	sc, err := l.scores(theta)
	if err != nil {
		return 0, err
	}
	right := 0
	for r, i := range l.val {
		best := 0
		for c := range l.k {
			if sc.At(r, c)+l.mean[c] > sc.At(r, best)+l.mean[best] {
				best = c
			}
		}
		if best == l.class[i] {
			right++
		}
	}
	return float64(right) / float64(len(l.val)), nil
}

// params is the number of learned parameters: 1 (shared) or n.
func (l *learner) params() int {
	if l.perAxis {
		return l.n
	}
	return 1
}

// sigmas are the widths at θ: σ_a = σ0_a·exp(θ_a) (θ_0 for a shared σ),
// each kept within [fmap.MinSigma, fmap.MaxSigma], the widths a kernel
// may have (an irrelevant axis's σ grows without bound, and a line
// search's trial step may overflow or underflow it; at those ends an
// axis's features no longer change with σ for inputs of any sane size).
func (l *learner) sigmas(theta []float64) []float64 {
	s := make([]float64, l.n)
	for a := range s {
		s[a] = min(max(math.Exp(l.logSig0[a]+theta[min(a, len(theta)-1)]), fmap.MinSigma), fmap.MaxSigma)
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
