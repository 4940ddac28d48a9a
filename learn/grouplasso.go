package learn

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"

	"github.com/featmap/featmap/fmap"
)

// KernelGroup is one kernel of a group lasso: a shift-invariant kernel
// (rbf, skewed-chi2 or skewed-intersection, as LearnSigma) or exp-χ² on
// the input columns Columns[0]…Columns[1] (inclusive) of every row.
type KernelGroup struct {
	// Kernel is the group's kernel with its widths (one σ, or one per
	// column of the group) and the skewed kernels' offset C, or exp-χ²'s β.
	Kernel fmap.Kernel
	// Columns are the first and last input column of the group.
	Columns [2]int
	// Inner is an exp-chi2 kernel's per-coordinate χ² stage (the first
	// stage of rff's exp-chi2 map; nil for the other kernels). The group's
	// features are rff's of exp-χ²: the rows' columns mapped by it,
	// u = [ψ(x_1), …, ψ(x_n)], then Gaussian random features of width
	// 1/√(2β) on u (sampled.RFF.Design, Li et al. Algorithm 2) — the same
	// frequencies as rff's map of the same seed. The mapped rows are held
	// in memory (N × n·d values).
	Inner *fmap.Stage
}

// innerRows maps the rows of an exp-chi2 group by its per-coordinate
// stage and returns them with the rbf kernel of width 1/√(2β) on them.
func innerRows(sub [][]float64, kg KernelGroup) ([][]float64, fmap.Kernel, error) {
	var per bool
	if kg.Inner != nil {
		_, per = kg.Inner.Kind.(*fmap.PerCoordinate)
	}
	if !per {
		return nil, fmap.Kernel{}, errors.New("an exp-chi2 group needs its per-coordinate inner stage (KernelGroup.Inner)")
	}
	n := len(sub[0])
	m := &fmap.Map{InDim: n, Stages: []fmap.Stage{*kg.Inner}}
	d := kg.Inner.Out(n)
	out := make([][]float64, len(sub))
	for i, r := range sub {
		out[i] = make([]float64, d)
		m.Eval(out[i], r)
		for _, v := range out[i] {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmap.Kernel{}, fmt.Errorf("row %d: the inner χ² map is not finite there (an input < 0?)", i)
			}
		}
	}
	return out, fmap.Kernel{Type: fmap.RBF, Sigma: []float64{1 / math.Sqrt(2*kg.Kernel.Beta)}}, nil
}

// GroupLassoOptions say how GroupLasso learns a combination of kernels.
type GroupLassoOptions struct {
	// Kernels are the G kernels, one per column group.
	Kernels []KernelGroup
	// DimPerKernel is the number of random features of every kernel.
	DimPerKernel int
	// Progress, if not nil, hears how far the group lasso is: the moments
	// accumulated, then each λ of the path solved.
	Progress func(string)
	// Lambda is λ of the group penalty; 0 chooses it on the validation
	// split (lambda: auto) over a log grid from λ_max down.
	Lambda float64
	// Grid is the number of λ of the auto grid (default 20) and MinRatio
	// its smallest λ over λ_max (default 1e-3).
	Grid     int
	MinRatio float64
	// Validation is the held-out fraction (default 0.25): the same seeded,
	// class-stratified split as LearnSigma's.
	Validation float64
	// Sampling, Features are rff's options for every kernel. Seed seeds
	// the split and kernel g's features with Seed+g (default 1), so that
	// kernel 0's features are LearnSigma's and rff's of the same seed.
	Sampling, Features string
	Seed               int64
	// Classes treats labels as classes (one-vs-rest ±1 targets).
	Classes bool
	// Tol is the stopping tolerance of the KKT residual relative to λ
	// (default 1e-6); MaxIterations bounds the proximal iterations per λ
	// (default 20000).
	Tol           float64
	MaxIterations int
	// Chunk is the number of rows whose features are held at once
	// (default 256).
	Chunk int
}

// GroupLassoStep is one λ of the path.
type GroupLassoStep struct {
	// Lambda is λ; Validation the validation error at its solution;
	// Nonzero the number of nonzero groups; Iterations the proximal
	// iterations it took.
	Lambda, Validation float64
	// Relaxed is the validation error of the ridge refit on the step's
	// nonzero groups (see GroupLasso).
	Relaxed             float64
	Nonzero, Iterations int
}

// GroupLassoResult is what GroupLasso learned.
type GroupLassoResult struct {
	// Weights is the D×K linear model on the concatenated features
	// Z = [Z_1 … Z_G] (D = G·DimPerKernel, K targets); Intercept the K
	// training means of the targets, so that a prediction is
	// Intercept + zᵀWeights.
	Weights   *mat.Dense
	Intercept []float64
	// GroupNorms are ‖W_g‖ (Frobenius: the group's weights of every
	// output), Zero which of them are exactly zero.
	GroupNorms []float64
	Zero       []bool
	// KernelWeights are the MKL kernel weights of eq. 16 (see
	// MKLObjective): d_g = ‖W_g‖/√2, the d at which the MKL objective with
	// C = √2/λ equals the group-lasso objective. KernelShares are d_g/Σd.
	KernelWeights, KernelShares []float64
	// DimPerKernel is every kernel's number of random features.
	DimPerKernel int
	// Lambda is the λ of the solution, LambdaMax = max_g ‖Z_gᵀY‖/N the
	// smallest λ at which every group is zero.
	Lambda, LambdaMax float64
	// Objective is ½‖ZW − Y‖²/N + λ Σ_g ‖W_g‖ on the N training rows;
	// KKT the KKT residual at the solution relative to λ (above Tol when
	// MaxIterations stopped the solver).
	Objective, KKT float64
	// ValidationError is the mean over validation rows of the squared
	// residual summed over the targets, of Weights; RelaxedValidation that
	// of Refit.
	ValidationError, RelaxedValidation float64
	// ValidationNone is the validation error of no kernel (the intercept
	// alone: the training means) and ValidationAll that of the ridge refit
	// on every kernel's features with equal weights (no selection): the
	// baselines the learned combination is measured against.
	ValidationNone, ValidationAll float64
	// Refit is the relaxed model: ridge (ZᵀZ/N + 10⁻³/N·I on the training
	// rows) on the nonzero groups only, zero elsewhere — the group lasso
	// selects the kernels, the refit removes its shrinkage.
	Refit *mat.Dense
	// Iterations are the proximal iterations at the chosen λ;
	// TotalIterations those of the whole path.
	Iterations, TotalIterations int
	// Path is every λ tried (one step for a given λ).
	Path []GroupLassoStep
	// Classes are the class labels in target order (nil for regression).
	Classes []float64
	// Train and Held are the numbers of training and validation rows.
	Train, Held int
}

// glProblem is the accumulated quadratic: on the training rows
// A = ZᵀZ/N, B = ZᵀY/N, c = ‖Y‖²/N, so that ½‖ZW − Y‖²/N =
// ½tr(WᵀAW) − tr(WᵀB) + ½c; on the validation rows the same sums
// (not divided) to score a W.
type glProblem struct {
	a, av      *mat.Dense
	b, bv      *mat.Dense
	c, cv      float64
	n, nv      int
	groups     [][2]int // feature ranges [lo, hi)
	d, k       int
	tol        float64
	maxIter    int
	classes    []float64
	intercept  []float64
	lambdaMax  float64
	powerEigen float64
	ls         []*learner // the kernels' learners, with the split
}

// GroupLasso learns multiple kernels by a group lasso over their random
// Fourier features (Băzăvan, Li & Sminchisescu §3.3, eq. 10): each kernel g
// maps its column group by rff with DimPerKernel seeded features Z_g, the
// features are concatenated, Z = [Z_1 … Z_G], and
//
//	min_W ½‖ZW − Y‖²/N + λ Σ_g ‖W_g‖
//
// is solved by FISTA (Beck & Teboulle) with adaptive restart on the
// accumulated D×D matrix A = ZᵀZ/N (one pass over the rows; memory O(D²),
// nothing of size N·D). Targets are centred by their training means (the
// intercept, unpenalised). For classes the K one-vs-rest outputs share
// each group: ‖W_g‖ is the Frobenius norm of the group's D_g×K block, so a
// kernel is dropped for every class at once.
//
// Step: 1/L, L from power iteration on A (the Rayleigh quotient, a lower
// bound of the largest eigenvalue), raised by 10% whenever the quadratic
// upper bound fails on a step (backtracking; for a quadratic it fails iff
// ΔᵀAΔ > L‖Δ‖²). Stopping rule: the KKT residual relative to λ,
// max over groups of ‖G_g + λW_g/‖W_g‖‖/λ (nonzero groups) or
// max(0, ‖G_g‖ − λ)/λ (zero groups), with G = AW − B = −Z ᵀR/N, is at most
// Tol; or MaxIterations.
//
// With Lambda = 0, λ runs over a log grid from λ_max = max_g ‖B_g‖ (where
// every group is zero) down to MinRatio·λ_max, warm-started, and the λ of
// least relaxed validation error is kept (the first of equals): at each λ
// the ridge refit on the nonzero groups (relaxed lasso, Meinshausen 2007)
// is scored on the validation rows. The plain group-lasso validation error
// keeps falling as λ falls far past the λ that selects the informative
// kernels, because the penalty shrinks them (as on TestGroupLassoSelects'
// data, where it is lower with every group in than with the informative
// ones alone); the refit's error does not reward that. The path stops once every group is nonzero (smaller λ refit the
// same groups). With Lambda > 0 that λ is solved alone.
func GroupLasso(ctx context.Context, rows [][]float64, labels []float64, opts GroupLassoOptions) (GroupLassoResult, error) {
	p, err := newGLProblem(ctx, rows, labels, opts)
	if err != nil {
		return GroupLassoResult{}, err
	}
	res := GroupLassoResult{LambdaMax: p.lambdaMax, Classes: p.classes, Intercept: p.intercept, Train: p.n, Held: p.nv, DimPerKernel: opts.DimPerKernel}
	var lambdas []float64
	if opts.Lambda > 0 {
		lambdas = []float64{opts.Lambda}
	} else if opts.Lambda < 0 || math.IsNaN(opts.Lambda) {
		return res, fmt.Errorf("learn: group lasso: lambda %v, want positive or 0 (auto)", opts.Lambda)
	} else {
		grid, ratio := opts.Grid, opts.MinRatio
		if grid == 0 {
			grid = 20
		}
		if ratio == 0 {
			ratio = 1e-3
		}
		if grid < 2 || !(ratio > 0 && ratio < 1) {
			return res, fmt.Errorf("learn: group lasso: grid %d, min ratio %v (want ≥ 2 and in (0, 1))", grid, ratio)
		}
		if !(p.lambdaMax > 0) {
			return res, errors.New("learn: group lasso: λ_max is 0: the features do not correlate with the targets")
		}
		for i := range grid {
			lambdas = append(lambdas, p.lambdaMax*math.Pow(ratio, float64(i)/float64(grid-1)))
		}
	}
	say := func(format string, args ...any) {
		if opts.Progress != nil {
			opts.Progress(fmt.Sprintf(format, args...))
		}
	}
	say("group lasso: the moments of %d training and %d validation rows of %d random features accumulated", p.n, p.nv, p.d)
	w := mat.NewDense(p.d, p.k, nil)
	var best *mat.Dense
	bestVal := math.Inf(1)
	for i, lam := range lambdas {
		if err := ctx.Err(); err != nil {
			return res, err
		}
		it, kkt, err := p.solve(ctx, w, lam)
		if err != nil {
			return res, err
		}
		res.TotalIterations += it
		norms := p.norms(w)
		nz := 0
		for _, n := range norms {
			if n > 0 {
				nz++
			}
		}
		step := GroupLassoStep{Lambda: lam, Validation: p.validation(w), Nonzero: nz, Iterations: it}
		refit, err := p.refit(norms)
		if err != nil {
			return res, err
		}
		step.Relaxed = p.validation(refit)
		res.Path = append(res.Path, step)
		say("group lasso: λ %d of %d (%.4g): %d of %d groups kept, %d iterations, validation error %.4g", i+1, len(lambdas), lam, nz, len(norms), it, step.Relaxed)
		score := step.Relaxed
		if len(lambdas) == 1 {
			score = step.Validation
		}
		if score < bestVal {
			bestVal, best = score, mat.DenseCopyOf(w)
			res.Lambda, res.Iterations, res.KKT, res.ValidationError, res.RelaxedValidation = lam, it, kkt, step.Validation, step.Relaxed
			res.Refit = refit
		}
		if nz == len(norms) { // every group in: smaller λ refit the same support
			break
		}
	}
	if best == nil {
		// No λ had a finite validation error: the targets' squares
		// overflowed (labels beyond fmap.MaxNumberLabel), not the kernels.
		return res, fmt.Errorf("learn: group lasso: the validation error is not finite at any λ of the path: the labels are too large (at most ±%g)", fmap.MaxNumberLabel)
	}
	res.ValidationNone = p.validation(mat.NewDense(p.d, p.k, nil))
	all, err := p.refit(slices.Repeat([]float64{1}, len(p.groups)))
	if err != nil {
		return res, err
	}
	res.ValidationAll = p.validation(all)
	res.Weights = best
	res.Objective = p.objective(best, res.Lambda)
	res.GroupNorms = p.norms(best)
	res.KernelWeights, res.KernelShares = KernelWeights(res.GroupNorms)
	for _, n := range res.GroupNorms {
		res.Zero = append(res.Zero, n == 0)
	}
	return res, nil
}

// refit is ridge on the groups of nonzero norm: W_S = (A_SS + 10⁻³/N·I)⁻¹B_S,
// zero elsewhere.
func (p *glProblem) refit(norms []float64) (*mat.Dense, error) {
	var idx []int
	for g, n := range norms {
		if n > 0 {
			for i := p.groups[g][0]; i < p.groups[g][1]; i++ {
				idx = append(idx, i)
			}
		}
	}
	w := mat.NewDense(p.d, p.k, nil)
	if len(idx) == 0 {
		return w, nil
	}
	q := mat.NewSymDense(len(idx), nil)
	rhs := mat.NewDense(len(idx), p.k, nil)
	for a, i := range idx {
		for b, j := range idx[a:] {
			q.SetSym(a, a+b, p.a.At(i, j))
		}
		q.SetSym(a, a, q.At(a, a)+1e-3/float64(p.n))
		rhs.SetRow(a, p.b.RawRowView(i))
	}
	ok, err := choleskySolve(q, rhs)
	if !ok {
		return nil, errors.New("learn: group lasso: the refit's system is not positive definite")
	}
	if err != nil {
		return nil, fmt.Errorf("learn: group lasso: refit: %w", err)
	}
	for a, i := range idx {
		w.SetRow(i, rhs.RawRowView(a))
	}
	return w, nil
}

// choleskySolve solves q·X = rhs for the positive definite q in place: q
// becomes its Cholesky factor and rhs the solution, with the bits of
// mat.Cholesky's Factorize and SolveTo (the same LAPACK calls), but
// without their copies of q (134 MB at the group lasso's 4096 features).
// It reports false if q is not positive definite, and returns
// mat.Condition, as SolveTo, when q's condition number estimate is above
// mat.ConditionTolerance (rhs then holds the solution all the same).
func choleskySolve(q *mat.SymDense, rhs *mat.Dense) (bool, error) {
	sym := q.RawSymmetric()
	n := sym.N
	work := make([]float64, 3*n)
	norm := lapack64.Lansy(mat.CondNorm, sym, work)
	t, ok := lapack64.Potrf(sym)
	if !ok {
		return false, nil
	}
	cond := 1 / lapack64.Pocon(sym, norm, work, make([]int, n))
	lapack64.Potrs(t, rhs.RawMatrix())
	if cond > mat.ConditionTolerance {
		return true, mat.Condition(cond)
	}
	return true, nil
}

// KernelWeights are eq. 16's MKL weights of group norms: d_g = ‖w_g‖/√2,
// at which ½‖w_g‖²/d_g + d_g = √2‖w_g‖ (eq. 16 with equality; d_g = 0 for a
// zero group, the limit of the term), and the shares d_g/Σd (all zero if
// every group is).
func KernelWeights(norms []float64) (d, shares []float64) {
	var sum float64
	for _, n := range norms {
		d = append(d, n/math.Sqrt2)
		sum += n / math.Sqrt2
	}
	for _, v := range d {
		if sum > 0 {
			v /= sum
		} else {
			v = 0
		}
		shares = append(shares, v)
	}
	return d, shares
}

// MKLObjective is the MKL primal of eq. 15 scaled by 1/C with C = √2/λ:
//
//	(1/C)·Σ_g (½‖w_g‖²/d_g + d_g) + loss,
//
// given the group norms ‖w_g‖, the kernel weights d ≥ 0 and the loss
// (here ½‖ZW − Y‖²/N). A term with w_g = 0 and d_g = 0 is 0 (its limit);
// w_g ≠ 0 with d_g = 0 is +Inf. By eq. 16 it is ≥ loss + λ Σ‖w_g‖, with
// equality exactly at d_g = ‖w_g‖/√2: minimising over (w, d) is the group
// lasso.
func MKLObjective(norms, d []float64, lambda, loss float64) float64 {
	c := math.Sqrt2 / lambda
	var s float64
	for g, n := range norms {
		switch {
		case d[g] > 0:
			s += 0.5*n*n/d[g] + d[g]
		case n > 0:
			return math.Inf(1)
		}
	}
	return s/c + loss
}

// newGLProblem builds one learner per kernel on its column group (sharing
// kernel 0's split and targets) and accumulates the quadratic in one pass.
func newGLProblem(ctx context.Context, rows [][]float64, labels []float64, o GroupLassoOptions) (*glProblem, error) {
	if len(o.Kernels) == 0 {
		return nil, errors.New("learn: group lasso: no kernels")
	}
	if len(rows) == 0 {
		return nil, errors.New("learn: group lasso: no rows")
	}
	width := len(rows[0])
	seed := o.Seed
	if seed == 0 {
		seed = 1
	}
	ls := make([]*learner, len(o.Kernels))
	var train, val []int
	for g, kg := range o.Kernels {
		a, b := kg.Columns[0], kg.Columns[1]
		if a < 0 || b < a || b >= width {
			return nil, fmt.Errorf("learn: group lasso: kernel %d: columns [%d, %d] of rows of %d inputs", g, a, b, width)
		}
		sub := make([][]float64, len(rows))
		for i, r := range rows {
			if len(r) != width {
				return nil, fmt.Errorf("learn: group lasso: row %d has %d inputs, row 0 has %d", i, len(r), width)
			}
			sub[i] = r[a : b+1 : b+1]
		}
		kern := kg.Kernel
		if kern.Type == fmap.ExpChi2 {
			var err error
			if sub, kern, err = innerRows(sub, kg); err != nil {
				return nil, fmt.Errorf("learn: group lasso: kernel %d (exp-chi2, columns [%d, %d]): %w", g, a, b, err)
			}
		}
		l, err := newLearner(ctx, sub, labels, LearnOptions{Kernel: kern, Dim: o.DimPerKernel, Validation: o.Validation,
			Sampling: o.Sampling, Features: o.Features, Seed: seed + int64(g), Classes: o.Classes, Chunk: o.Chunk}, train, val)
		if err != nil {
			return nil, fmt.Errorf("learn: group lasso: kernel %d (%s, columns [%d, %d]): %w", g, kg.Kernel.Type, a, b, err)
		}
		if g == 0 {
			train, val = l.train, l.val
		}
		ls[g] = l
	}
	l0 := ls[0]
	p := &glProblem{n: len(l0.train), nv: len(l0.val), k: l0.k, classes: l0.classes, tol: o.Tol, maxIter: o.MaxIterations, ls: ls}
	if p.tol == 0 {
		p.tol = 1e-6
	}
	if p.maxIter == 0 {
		p.maxIter = 20000
	}
	if !(p.tol > 0) || p.maxIter < 0 {
		return nil, fmt.Errorf("learn: group lasso: tol %v, max iterations %d (want positive)", o.Tol, o.MaxIterations)
	}
	for _, l := range ls {
		p.groups = append(p.groups, [2]int{p.d, p.d + l.d})
		p.d += l.d
	}
	// The intercept: the training means (newLearner centred the targets;
	// recover the means from a raw target minus its centred value).
	raw := &learner{}
	raw.targets(labels, o.Classes)
	for j := range p.k {
		p.intercept = append(p.intercept, raw.y[j]-l0.y[j])
	}
	var err error
	if p.a, p.b, p.c, err = accumulate(ctx, ls, l0.train); err != nil {
		return nil, err
	}
	if p.av, p.bv, p.cv, err = accumulate(ctx, ls, l0.val); err != nil {
		return nil, err
	}
	nf := float64(p.n)
	p.a.Scale(1/nf, p.a)
	p.b.Scale(1/nf, p.b)
	p.c /= nf
	for _, gr := range p.groups {
		p.lambdaMax = math.Max(p.lambdaMax, mat.Norm(p.b.Slice(gr[0], gr[1], 0, p.k), 2))
	}
	if p.powerEigen, err = powerIteration(ctx, p.a, seed); err != nil {
		return nil, err
	}
	return p, nil
}

// accumulate sums ZᵀZ, ZᵀY and ‖Y‖² over the rows idx, a chunk at a time,
// the features of kernel g in columns of its group.
func accumulate(ctx context.Context, ls []*learner, idx []int) (*mat.Dense, *mat.Dense, float64, error) {
	d, k := 0, ls[0].k
	freqs := make([][]float64, len(ls))
	for g, l := range ls {
		d += l.d
		freqs[g] = l.freqs(make([]float64, l.params()))
	}
	chunk := ls[0].chunk
	ata := mat.NewSymDense(d, nil)
	aty := mat.NewDense(d, k, nil)
	var yy float64
	c := min(chunk, len(idx))
	z := mat.NewDense(c, d, nil)
	y := mat.NewDense(c, k, nil)
	ts, ps := make([][]float64, len(ls)), make([][]float64, len(ls))
	for g, l := range ls {
		ts[g], ps[g] = make([]float64, c*l.n), make([]float64, c*l.m)
	}
	var zy mat.Dense
	for lo := 0; lo < len(idx); lo += chunk {
		if err := ctx.Err(); err != nil {
			return nil, nil, 0, err
		}
		part := idx[lo:min(lo+chunk, len(idx))]
		r := len(part)
		zc, yc := z.Slice(0, r, 0, d).(*mat.Dense), y.Slice(0, r, 0, k).(*mat.Dense)
		off := 0
		for g, l := range ls {
			l.chunkFeatures(part, freqs[g], zc.Slice(0, r, off, off+l.d).(*mat.Dense), ts[g], ps[g])
			off += l.d
		}
		ls[0].chunkTargets(part, yc)
		ata.SymRankK(ata, 1, zc.T())
		zy.Mul(zc.T(), yc)
		aty.Add(aty, &zy)
		for i := range r {
			for j := range k {
				v := yc.At(i, j)
				yy += v * v
			}
		}
	}
	return symToDense(ata), aty, yy, nil
}

// symToDense returns the symmetric s as a dense matrix of the same values,
// in s's own storage (its lower triangle filled from the upper): at the
// group lasso's 4096 features a copy is 134 MB more at the peak. s is not
// to be used after.
func symToDense(s *mat.SymDense) *mat.Dense {
	raw := s.RawSymmetric()
	n := raw.N
	if raw.Stride != n {
		return mat.DenseCopyOf(s)
	}
	for i := range n {
		for j := i + 1; j < n; j++ {
			raw.Data[j*n+i] = raw.Data[i*n+j]
		}
	}
	return mat.NewDense(n, n, raw.Data[:n*n])
}

// powerIteration estimates the largest eigenvalue of the symmetric PSD a
// by the Rayleigh quotient of a seeded power iteration (at most 500 steps,
// until it changes by less than 1e-10 relative). It looks at ctx before
// every step (each d² multiply-adds) and returns its error once it is
// done.
func powerIteration(ctx context.Context, a *mat.Dense, seed int64) (float64, error) {
	n, _ := a.Dims()
	rng := rand.New(rand.NewPCG(uint64(seed), 0x706f776572)) // "power"
	v := mat.NewVecDense(n, nil)
	for i := range n {
		v.SetVec(i, rng.NormFloat64())
	}
	var av mat.VecDense
	rho := 0.0
	for range 500 {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		v.ScaleVec(1/mat.Norm(v, 2), v)
		av.MulVec(a, v)
		r := mat.Dot(v, &av)
		v.CopyVec(&av)
		if math.Abs(r-rho) <= 1e-10*math.Abs(r) {
			return r, nil
		}
		rho = r
	}
	return rho, nil
}

// symMul sets dst to A·W for a symmetric A (d × d) and a thin W (d × k):
// it computes (WᵀA)ᵀ, whose inner loops run along A's rows (axpys of
// length d), where A·W's run along W's rows (axpys of length k: for the
// group lasso's k = 1 or a few classes, a call per element of A, many
// times slower).
func symMul(dst, a, w *mat.Dense) {
	var t mat.Dense
	t.Mul(w.T(), a)
	dst.CloneFrom(t.T())
}

// norms are the groups' Frobenius norms of w.
func (p *glProblem) norms(w *mat.Dense) []float64 {
	out := make([]float64, len(p.groups))
	for g, gr := range p.groups {
		out[g] = mat.Norm(w.Slice(gr[0], gr[1], 0, p.k), 2)
	}
	return out
}

// loss is ½‖ZW − Y‖²/N from the accumulated quadratic, given aw = AW.
func (p *glProblem) loss(w, aw *mat.Dense) float64 {
	var s float64
	wr, ar, br := w.RawMatrix(), aw.RawMatrix(), p.b.RawMatrix()
	for i := range p.d {
		for j := range p.k {
			x := wr.Data[i*wr.Stride+j]
			s += x * (0.5*ar.Data[i*ar.Stride+j] - br.Data[i*br.Stride+j])
		}
	}
	return s + 0.5*p.c
}

// objective is the group-lasso objective at w.
func (p *glProblem) objective(w *mat.Dense, lambda float64) float64 {
	var aw mat.Dense
	symMul(&aw, p.a, w)
	f := p.loss(w, &aw)
	for _, n := range p.norms(w) {
		f += lambda * n
	}
	return f
}

// validation is the mean squared validation residual summed over targets.
func (p *glProblem) validation(w *mat.Dense) float64 {
	var aw mat.Dense
	symMul(&aw, p.av, w)
	var s float64
	for i := range p.d {
		for j := range p.k {
			s += w.At(i, j) * (aw.At(i, j) - 2*p.bv.At(i, j))
		}
	}
	return math.Max(0, s+p.cv) / float64(p.nv)
}

// kkt is the KKT residual relative to λ at w, given the gradient g = AW − B.
func (p *glProblem) kkt(w, g *mat.Dense, lambda float64) float64 {
	var worst float64
	for _, gr := range p.groups {
		wg := w.Slice(gr[0], gr[1], 0, p.k).(*mat.Dense)
		gg := g.Slice(gr[0], gr[1], 0, p.k).(*mat.Dense)
		nw := mat.Norm(wg, 2)
		var r float64
		if nw == 0 {
			r = math.Max(0, mat.Norm(gg, 2)-lambda)
		} else {
			var e mat.Dense
			e.Scale(lambda/nw, wg)
			e.Add(&e, gg)
			r = mat.Norm(&e, 2)
		}
		worst = math.Max(worst, r/lambda)
	}
	return worst
}

// prox sets out to the group soft-threshold of v at t: each group scaled
// by max(0, 1 − t/‖v_g‖), exactly zero when ‖v_g‖ ≤ t.
func (p *glProblem) prox(out, v *mat.Dense, t float64) {
	for _, gr := range p.groups {
		vg := v.Slice(gr[0], gr[1], 0, p.k).(*mat.Dense)
		og := out.Slice(gr[0], gr[1], 0, p.k).(*mat.Dense)
		n := mat.Norm(vg, 2)
		if n <= t {
			og.Zero()
		} else {
			og.Scale(1-t/n, vg)
		}
	}
}

// solve runs FISTA with adaptive restart from w (updated in place) at λ;
// it returns the iterations and the final KKT residual. It looks at ctx
// before every iteration (each at least d²·k multiply-adds, and up to
// maxIter of them per λ) and returns its error once it is done, w left
// as it was.
func (p *glProblem) solve(ctx context.Context, w *mat.Dense, lambda float64) (int, float64, error) {
	lip := p.powerEigen
	if !(lip > 0) {
		lip = 1
	}
	x := mat.DenseCopyOf(w)
	var ax mat.Dense
	symMul(&ax, p.a, x)
	g := mat.NewDense(p.d, p.k, nil)
	g.Sub(&ax, p.b)
	fx := p.loss(x, &ax)
	for _, n := range p.norms(x) {
		fx += lambda * n
	}
	kkt := p.kkt(x, g, lambda)
	y := mat.DenseCopyOf(x)
	var ay, gy, v, next, anext, delta, adelta mat.Dense
	// A·x and A·y are exact products (anext = A·next each step), y's a
	// combination of two of them: no drift over many iterations.
	ay.CloneFrom(&ax)
	t := 1.0
	it := 0
	for ; it < p.maxIter && kkt > p.tol; it++ {
		if err := ctx.Err(); err != nil {
			return it, kkt, err
		}
		gy.Sub(&ay, p.b)
		for {
			v.Scale(-1/lip, &gy)
			v.Add(&v, y)
			next.CloneFrom(&v)
			p.prox(&next, &v, lambda/lip)
			delta.Sub(&next, y)
			symMul(&anext, p.a, &next)
			adelta.Sub(&anext, &ay)
			dd := mat.Norm(&delta, 2)
			if q := mat.Sum(elemMul(&delta, &adelta)); q <= lip*dd*dd*(1+1e-12) || dd == 0 {
				break
			}
			lip *= 1.1
		}
		fn := p.loss(&next, &anext)
		for _, n := range p.norms(&next) {
			fn += lambda * n
		}
		if fn > fx && t > 1 { // restart the momentum from x
			t = 1
			y.Copy(x)
			ay.Copy(&ax)
			continue
		}
		tn := (1 + math.Sqrt(1+4*t*t)) / 2
		mom := (t - 1) / tn
		// y = next + mom (next − x)
		y.Sub(&next, x)
		ay.Sub(&anext, &ax)
		y.Scale(mom, y)
		ay.Scale(mom, &ay)
		y.Add(y, &next)
		ay.Add(&ay, &anext)
		x.Copy(&next)
		ax.Copy(&anext)
		fx, t = fn, tn
		g.Sub(&ax, p.b)
		kkt = p.kkt(x, g, lambda)
	}
	w.Copy(x)
	return it, kkt, nil
}

// elemMul is the elementwise product of a and b.
func elemMul(a, b *mat.Dense) *mat.Dense {
	var m mat.Dense
	m.MulElem(a, b)
	return &m
}
