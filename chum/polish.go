package chum

import (
	"math"
	"slices"

	"github.com/featmap/featmap/fmap"
	"github.com/featmap/featmap/solver"
)

// Polish: a minimax (or L1) trust-region sequential LP on frequencies and
// weights jointly, the support and hence D fixed (Madsen's method). Each
// step solves
//
//	min  C(r + J Δ)   s.t.  |Δω_jc| ≤ ρ,  |Δα_j| ≤ ρ·s_j,  α + Δα ≥ 0
//
// (and ω + Δω ≥ 0 where frequencies are kept nonnegative) and adapts ρ by
// the ratio of the actual to the predicted decrease.
//
// polishPhase measures the frequencies' trust region in phase instead:
// |Δω_jc| ≤ ρ/M_c, M_c the largest |λ_c| of the fitting set, so that no
// step turns a term's phase anywhere on Z by more than ρ while the weights
// move by up to ρ·s_j, the same linearisation error for both. With ρ on ω
// directly, a wide domain (λ up to 14 for relative errors over six
// decades) lets a step turn phases by radians, far beyond what the linear
// model sees, and the polish crawls: most of its 80 steps are rejected or
// tiny. On one axis the best polished starts are polished again in phase
// (polishAll) and so is the continuation (continueFrom); each keeps the
// better of the two (docs/lp-design.md, "Polishing in phase").

const (
	polishStartPerCol = 2
	polishStartMin    = 20
	polishMaxSteps    = 80
	polishRho0        = 0.05
	polishRhoMax      = 0.5
	polishRhoMin      = 1e-10
)

// polish improves (ω, α) on the fitting set and returns the best iterate and
// its objective. Coordinates that are not movable (the zero frequency, zero
// modulation factors) stay where they are. A step whose LP fails ends it
// (only a cancelled context is an error).
func (s *lpSolver) polish(omega [][]float64, alpha []float64) ([][]float64, []float64, float64, error) {
	return s.polishIn(omega, alpha, nil)
}

// polishPhase is polish with the frequencies' trust region in phase (see
// above).
func (s *lpSolver) polishPhase(omega [][]float64, alpha []float64) ([][]float64, []float64, float64, error) {
	return s.polishIn(omega, alpha, s.fit.phaseScale())
}

// phaseScale is 1/M_c for each coordinate c of the set, M_c its largest
// |λ_c| (1 where that is 0).
func (f *fitSet) phaseScale() []float64 {
	sc := make([]float64, f.n)
	for i := range f.size() {
		for c, v := range f.point(i) {
			sc[c] = math.Max(sc[c], math.Abs(v))
		}
	}
	for c, m := range sc {
		sc[c] = 1
		if m > 0 {
			sc[c] = 1 / m
		}
	}
	return sc
}

// polishIn is the polish with the frequencies' trust region ρ·freqScale[c]
// for coordinate c (ρ if freqScale is nil).
func (s *lpSolver) polishIn(omega [][]float64, alpha []float64, freqScale []float64) ([][]float64, []float64, float64, error) {
	omega, alpha = cloneFreqs(omega), slices.Clone(alpha)
	f := s.fit
	nz := f.size()
	r := make([]float64, nz)
	f.residuals(r, omega, alpha)
	F := f.normOf(r)
	rho := polishRho0
	var prev *pairWarm
	// The columns of the current iterate and the points that start its
	// row generation: a rejected step leaves both as they were, and the
	// next step solves the same LP with a smaller trust region.
	// spent is the iterate before, whose buffers the next one reuses.
	var it, spent *polishIterate
	// A 1-D Fourier set's trial residuals record their cosines and sines
	// (trial), which the accepted iterate's columns take (trig).
	var trig, trial *polishTrig
	oneD := f.n == 1 && f.form == fmap.FourierForm
	if oneD {
		trig, trial = &polishTrig{}, &polishTrig{}
	}
	for step := 0; step < polishMaxSteps && rho > polishRhoMin; step++ {
		if err := s.ctx.Err(); err != nil {
			return nil, nil, 0, err
		}
		if it == nil {
			it = s.polishColumns(omega, alpha, r, spent, trig)
		}
		// Every step variable is split into nonnegative parts Δ = Δ⁺ − Δ⁻,
		// so that the LP starts from Δ = 0 at a vertex.
		lp := newPairLP(r, 1)
		if f.n > 1 {
			// A step's LP starts from the basis of the step before on
			// columns the step has moved, neither primal nor dual
			// feasible. In 2-D the primal simplex's phase 1 took thousands
			// of pivots from there, a shifted start priced by dual Devex a
			// fraction of them (docs/lp-design.md). 1-D polish LPs, small
			// and of a few pivots, keep the default.
			lp.shifted, lp.devex, lp.devexFromStart = true, true, true
		}
		for k, ref := range it.refs {
			up, down := rho, rho
			if ref.c < 0 {
				up, down = rho*it.sj[ref.j], math.Min(rho*it.sj[ref.j], alpha[ref.j])
			} else {
				if freqScale != nil {
					up, down = rho*freqScale[ref.c], rho*freqScale[ref.c]
				}
				if f.nonneg {
					// Halving at most per step: a nonzero frequency never
					// reaches 0, where its term would lose a dimension.
					down = math.Min(down, 0.5*omega[ref.j][ref.c])
				}
			}
			lp.add(0, 0, up, it.v[2*k])
			lp.add(0, 0, down, it.v[2*k+1])
		}
		// L∞: start the row generation from the points of the largest
		// errors, a few per column (the optimum's active set has at most
		// one per column); it adds whatever else the step makes exceed.
		lp.initial = it.initial
		// The step before leaves a warm start when the LP has the same
		// columns (no weight reached or left 0): the same rows for a whole
		// LP, else its tight points and the new largest errors.
		warm := prev
		switch {
		case prev == nil || len(prev.basis.Cols) != len(lp.cost)+1:
			warm = nil
		case f.norm == fmap.LInf && nz > rowGenMin:
			warm = prev.carry(lp.initial)
		}
		x, t, w, err := s.solvePairs(lp, warm)
		prev = w
		if err != nil {
			if ctxErr := s.ctx.Err(); ctxErr != nil {
				return nil, nil, 0, ctxErr
			}
			// A step whose LP fails ends the polish at the current
			// iterate, which is never worse than the start.
			break
		}
		predicted := t
		if f.norm == fmap.L1 {
			// The L1 objective of the model: Σ_i |r_i − Σ_j v_ji x_j|.
			res := slices.Clone(r)
			for j, xj := range x {
				for i, v := range lp.v[j] {
					res[i] -= v * xj
				}
			}
			predicted = f.normOf(res)
		}
		pred := F - predicted
		if !(pred > 1e-13*F) {
			break // the linear model sees no descent: stationary
		}
		om2, al2 := cloneFreqs(omega), slices.Clone(alpha)
		for k, xk := range x {
			ref := it.refs[k/2]
			d := xk
			if k%2 == 1 {
				d = -xk
			}
			if ref.c >= 0 {
				om2[ref.j][ref.c] += d
				if f.nonneg {
					om2[ref.j][ref.c] = math.Max(om2[ref.j][ref.c], 0)
				}
			} else {
				al2[ref.j] = math.Max(al2[ref.j]+d, 0)
			}
		}
		r2 := make([]float64, nz)
		if oneD {
			f.residualsTrig(r2, om2, al2, trial)
		} else {
			f.residuals(r2, om2, al2)
		}
		F2 := f.normOf(r2)
		ratio := (F - F2) / pred
		if ratio > 0.01 {
			omega, alpha, r, F = om2, al2, r2, F2
			it, spent = nil, it
			trig, trial = trial, trig
		}
		switch {
		case ratio > 0.75:
			rho = math.Min(2*rho, polishRhoMax)
		case ratio < 0.25:
			rho /= 4
		}
	}
	return omega, alpha, F, nil
}

// polishIterate is what a polish step's LP takes from the iterate (ω, α)
// besides the trust region: for each step variable (refs) its column v[2k]
// = −∂r/∂· and the column −v[2k] of its negative part, the scales s_j of
// the weights' steps, and the points of the largest residuals.
type polishIterate struct {
	refs    []polishRef
	v       [][]float64
	sj      []float64
	initial []int
	// φ and ∂φ/∂ω at the points, scratch of polishColumns.
	phi, grad []float64
}

// polishRef names a polish step variable: the weight α_j (c < 0) or the
// frequency coordinate ω_jc.
type polishRef struct{ j, c int }

// polishColumns makes the polish LP's columns at (ω, α) with residuals r,
// in the buffers of spent (if not nil), an iterate no longer in use. trig,
// if not nil, holds the cosines and sines of a 1-D Fourier iterate's terms
// as its residuals computed them (residualsTrig; nil before the first
// accepted step: none are known); the terms it lacks are computed.
func (s *lpSolver) polishColumns(omega [][]float64, alpha []float64, r []float64, spent *polishIterate, trig *polishTrig) *polishIterate {
	f := s.fit
	nz := f.size()
	it := &polishIterate{}
	var spare [][]float64
	if spent != nil {
		it.refs, it.v, it.sj, it.phi, it.grad = spent.refs[:0], spent.v[:0], spent.sj, spent.phi, spent.grad
		spare = slices.Clone(spent.v)
	}
	it.sj = grow(it.sj, len(alpha)) // every entry set below
	if it.phi == nil {
		it.phi, it.grad = make([]float64, nz), make([]float64, nz*f.n)
	}
	phi, grad := it.phi, it.grad
	// column returns a vector of nz entries for the caller to fill.
	column := func() []float64 {
		if k := len(spare); k > 0 {
			v := spare[k-1]
			spare = spare[:k-1]
			return v
		}
		return make([]float64, nz)
	}
	scale := 0.0
	for _, a := range alpha {
		scale += a
	}
	addPair := func(j, c int, v []float64) {
		neg := column()
		for i := range v {
			neg[i] = -v[i]
		}
		it.refs = append(it.refs, polishRef{j, c})
		it.v = append(it.v, v, neg)
	}
	for j, a := range alpha {
		om := omega[j]
		if trig != nil && j < len(trig.known) && trig.known[j] {
			// phiGrads' values from the residuals' sines and cosines.
			c, sn := trig.cos[j], trig.sin[j]
			for i, z := range f.z {
				phi[i], grad[i] = c[i], -z*sn[i]
			}
		} else {
			f.phiGrads(om, phi, grad)
		}
		// −∂r/∂α_j = w φ
		v := column()
		for i := range nz {
			v[i] = f.w[i] * phi[i]
		}
		it.sj[j] = math.Max(a, 1e-3*scale)
		addPair(j, -1, v)
		if a == 0 {
			// A term without weight has no gradient in ω: its
			// frequency stays until its weight grows.
			continue
		}
		for _, c := range f.movable(om) {
			// −∂r/∂ω_jc = w α ∂φ/∂ω_c
			v := column()
			for i := range nz {
				v[i] = f.w[i] * a * grad[i*f.n+c]
			}
			addPair(j, c, v)
		}
	}
	it.initial = largest(r, polishStartPerCol*len(it.v)+polishStartMin)
	return it
}

// refitPolish refits the weights of a support and polishes the result.
func (s *lpSolver) refitPolish(omega [][]float64) (*candidate, error) {
	alpha, err := s.refit(omega)
	if err != nil {
		return nil, err
	}
	om, al, score, err := s.polish(omega, alpha)
	if err != nil {
		return nil, err
	}
	return &candidate{om, al, score}, nil
}

func cloneFreqs(omega [][]float64) [][]float64 {
	out := make([][]float64, len(omega))
	for j, om := range omega {
		out[j] = slices.Clone(om)
	}
	return out
}

// largest returns the indices of the k entries of r of largest magnitude
// (all of them if there are no more than k), in index order; of equal
// magnitudes the lower indices, as a stable sort by magnitude would have
// them (a NaN counts as smaller than every number, as cmp.Compare has it).
func largest(r []float64, k int) []int {
	if k >= len(r) {
		idx := make([]int, len(r))
		for i := range idx {
			idx[i] = i
		}
		return idx
	}
	if k <= 0 {
		return []int{}
	}
	mag := make([]float64, len(r))
	for i, v := range r {
		mag[i] = math.Abs(v)
		if v != v {
			mag[i] = -1
		}
	}
	th := kthLargest(slices.Clone(mag), k)
	ties := k
	for _, v := range mag {
		if v > th {
			ties--
		}
	}
	idx := make([]int, 0, k)
	for i, v := range mag {
		if v > th || v == th && ties > 0 {
			if v == th {
				ties--
			}
			idx = append(idx, i)
		}
	}
	return idx
}

// kthLargest returns the k-th largest of v (1 ≤ k ≤ len(v), no NaN),
// reordering v: a quickselect, linear on average, where a sort was the
// better part of largest's time.
func kthLargest(v []float64, k int) float64 {
	lo, hi, want := 0, len(v)-1, k-1 // want: the index in descending order
	for lo < hi {
		// Median of three as the pivot, then Hoare's partition into
		// [lo, j] ≥ pivot ≥ [j+1, hi].
		mid := lo + (hi-lo)/2
		a, b, c := v[lo], v[mid], v[hi]
		p := max(min(a, b), min(max(a, b), c))
		i, j := lo-1, hi+1
		for {
			for i++; v[i] > p; i++ {
			}
			for j--; v[j] < p; j-- {
			}
			if i >= j {
				break
			}
			v[i], v[j] = v[j], v[i]
		}
		if want <= j {
			hi = j
		} else {
			lo = j + 1
		}
	}
	return v[want]
}

// carry returns a warm start for an LP of the same columns on a new
// iterate: the points whose rows the solution held tight, with their
// statuses, and the given points not among them, entering basic.
func (w *pairWarm) carry(extra []int) *pairWarm {
	out := &pairWarm{basis: &solver.Basis{Cols: slices.Clone(w.basis.Cols)}}
	in := map[int]bool{}
	for k, i := range w.rows {
		a, b := w.basis.Rows[2*k], w.basis.Rows[2*k+1]
		if a == solver.Basic && b == solver.Basic {
			continue
		}
		in[i] = true
		out.rows = append(out.rows, i)
		out.basis.Rows = append(out.basis.Rows, a, b)
	}
	for _, i := range extra {
		if !in[i] {
			out.rows = append(out.rows, i)
			out.basis.Rows = append(out.basis.Rows, solver.Basic, solver.Basic)
		}
	}
	return out
}
