package fmap

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// cloneMap returns a deep copy of m.
func cloneMap(m *Map) *Map {
	c := *m
	c.Kernel.Sigma = slices.Clone(m.Kernel.Sigma)
	c.Domain = Domain{Integer: m.Domain.Integer, Lo: slices.Clone(m.Domain.Lo), Hi: slices.Clone(m.Domain.Hi)}
	c.Stages = nil
	for _, s := range m.Stages {
		var cs Stage
		switch k := s.Kind.(type) {
		case *Fourier:
			f := *k
			f.Terms = nil
			for _, t := range k.Terms {
				f.Terms = append(f.Terms, Term{Freq: slices.Clone(t.Freq), Weight: t.Weight})
			}
			cs.Kind = &f
		case *Series:
			sr := *k
			sr.K = slices.Clone(k.K)
			cs.Kind = &sr
		}
		c.Stages = append(c.Stages, cs)
	}
	return &c
}

// hellingerProblem is the Hellinger kernel √(xy) (γ = 1) on the integers
// {0..10} with the given measure.
func hellingerProblem(meas Measure) *Problem {
	return &Problem{
		Kernel: Kernel{Type: Hellinger, Gamma: 1}, Domain: Domain{Integer: true, Lo: []float64{0}, Hi: []float64{10}},
		Measure: meas, Norm: LInf, Negative: NegativeSign,
	}
}

// TestVerifyKnownError measures a map whose errors are known in closed
// form. The map Ψ(x) = √0.81·√x (a Fourier stage in log x with the one term
// ω = 0 of weight 0.81) has Ψ(x)·Ψ(y) = 0.81√(xy) against the Hellinger
// kernel K = √(xy) on {0..10}, so over the 121 ordered pairs
//
//   - the absolute error is 0.19√(xy): L∞ 0.19·10 = 1.9 at x = y = 10, and
//     RMS √(Σ 0.19²xy/121) = 0.19·(Σx)/11 = 0.19·55/11 = 0.95;
//   - the relative error is 0.19 on each of the 100 pairs with K > 0
//     (x, y ≥ 1), L∞ = RMS = 0.19;
//   - the signature error is |1 − 0.81| = 0.19 at every λ, weighted by
//     w_A = e^{−λ/2} for the absolute measure (L∞ 0.19 at λ = 0, RMS
//     0.19·√(Σ_i e^{−λ_i}/n), a geometric sum over the n equally spaced
//     λ_i of the dense grid), by w_R = 1/k = 1 for the relative one, and
//     not at all for the uniform one (reported L∞ = RMS = 0.19).
//
// Every kernel value is at most 10, so the pair errors are exact to a few
// ulps of 10 (1e-14 absolute); the signature errors involve values ≤ 1
// (1e-15). Verify must not change the map.
func TestVerifyKnownError(t *testing.T) {
	p := hellingerProblem(Absolute)
	m := NewFourierMap(p.Kernel, p.Domain, "test", &Fourier{
		Form: FourierForm, Transform: Log, Gamma: 1, Negative: NegativeSign,
		Terms: []Term{{Freq: []float64{0}, Weight: 0.81}},
	})
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	before := cloneMap(m)
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	v := Verify(m, ref)
	if v.Measure != Absolute || v.Reported != v.Absolute {
		t.Errorf("measure %q, reported %v, absolute %v: want the absolute error reported", v.Measure, v.Reported, v.Absolute)
	}
	if a := v.Absolute; math.Abs(a.LInf-1.9) > 1e-14 || math.Abs(a.RMS-0.95) > 1e-14 || a.Points != 121 {
		t.Errorf("absolute L∞ %v, RMS %v over %d pairs; want 1.9, 0.95 over 121", a.LInf, a.RMS, a.Points)
	}
	n := len(ref.Dense)
	M := ref.Dense[n-1][0]
	if math.Abs(M-math.Log(10)) > 1e-15 {
		t.Fatalf("dense grid ends at %v, want log 10", M)
	}
	// Σ_{i<n} e^{−iM/(n−1)} = (1 − e^{−Mn/(n−1)})/(1 − e^{−M/(n−1)}).
	h := M / float64(n-1)
	geo := -math.Expm1(-h*float64(n)) / -math.Expm1(-h)
	if s := v.Signature; math.Abs(s.LInf-0.19) > 1e-15 || math.Abs(s.RMS-0.19*math.Sqrt(geo/float64(n))) > 1e-15 || s.Points != n {
		t.Errorf("weighted signature L∞ %v, RMS %v on %d points; want 0.19, %v on %d", s.LInf, s.RMS, s.Points, 0.19*math.Sqrt(geo/float64(n)), n)
	}
	if v.Design != (Measurement{}) {
		t.Errorf("design-set error %v of a map without a design set", v.Design)
	}

	rref, err := hellingerProblem(Relative).Reference()
	if err != nil {
		t.Fatal(err)
	}
	v = Verify(m, rref)
	if r := v.Reported; math.Abs(r.LInf-0.19) > 1e-15 || math.Abs(r.RMS-0.19) > 1e-15 || r.Points != 100 {
		t.Errorf("relative L∞ %v, RMS %v over %d pairs; want 0.19, 0.19 over 100", r.LInf, r.RMS, r.Points)
	}
	if s := v.Signature; math.Abs(s.LInf-0.19) > 1e-15 || math.Abs(s.RMS-0.19) > 1e-15 {
		t.Errorf("relative-weighted signature L∞ %v, RMS %v; want 0.19, 0.19", s.LInf, s.RMS)
	}

	uref, err := hellingerProblem(Uniform).Reference()
	if err != nil {
		t.Fatal(err)
	}
	v = Verify(m, uref)
	if r := v.Reported; math.Abs(r.LInf-0.19) > 1e-15 || math.Abs(r.RMS-0.19) > 1e-15 || r.Points != n {
		t.Errorf("uniform L∞ %v, RMS %v on %d points; want 0.19, 0.19 on %d", r.LInf, r.RMS, r.Points, n)
	}
	if a := v.Absolute; math.Abs(a.LInf-1.9) > 1e-14 {
		t.Errorf("absolute L∞ %v under the uniform measure, want 1.9", a.LInf)
	}

	if !reflect.DeepEqual(m, before) {
		t.Errorf("Verify changed the map:\n%+v\nbefore:\n%+v", m, before)
	}
}

// TestVerifyNaNIsNotHidden: a map that yields NaN must not verify as exact.
// A stage weight of +Inf gives Ψ(1) = [∞·cos 0, ∞·sin 0] = [∞, NaN]. Validate
// rejects such a map, so it is built directly, bypassing NewFourierMap.
func TestVerifyNaNIsNotHidden(t *testing.T) {
	p := hellingerProblem(Absolute)
	m := &Map{
		Kernel: p.Kernel, InDim: 1, Dim: 2, Domain: p.Domain.Clone(), Method: "test",
		Stages: []Stage{{Kind: &Fourier{
			Form: FourierForm, Transform: Log, Gamma: 1, Negative: NegativeSign,
			Terms: []Term{{Freq: []float64{1}, Weight: math.Inf(1)}},
		}}},
	}
	if err := m.Validate(); err == nil {
		t.Error("Validate accepted a map with an infinite weight")
	}
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	if v := Verify(m, ref); !math.IsNaN(v.Reported.LInf) || v.Reported.Finite() {
		t.Errorf("reported %v for a map with an infinite weight, want a NaN L∞", v.Reported)
	}
}

// TestVerifyWholeRows measures a Nyström map of whole rows of the additive
// Hellinger kernel K(x, y) = Σ_j √(x_j y_j) on rows of 5 coordinates in
// {0..10} whose errors are known in closed form. With one landmark l and
// the projection 0.9/√K(l, l) (l = (3, …, 3)), Ψ(x) = 0.9·K(x, l)/√K(l, l) =
// 0.9·Σ_j √x_j/√5, so Ψ(x)·Ψ(y) = 0.81·(Σ√x_j)(Σ√y_j)/5, and on the rows
// of equal coordinates (v, …, v), (w, …, w) it is 0.81·5√(vw): per
// coordinate (divided by 5) the errors of TestVerifyKnownError's map,
// absolute L∞ 1.9 and RMS 0.95 over 121 pairs, relative 0.19, signature
// 0.19 at every λ. On held-out rows the error is |K − Ψ·Ψ| with the formula.
func TestVerifyWholeRows(t *testing.T) {
	const n = 5
	land := []float64{3, 3, 3, 3, 3}
	k := Kernel{Type: Hellinger, Gamma: 1}
	held := [][]float64{{0, 1, 2, 3, 4}, {10, 10, 0, 0, 1}, {7, 7, 7, 7, 7}, {0, 0, 0, 0, 0}}
	m := &Map{Kernel: k, InDim: n, Dim: 1, Method: "nystroem",
		Domain: Domain{Integer: true, Lo: make([]float64, n), Hi: []float64{10, 10, 10, 10, 10}},
		Stages: []Stage{{Kind: &Nystroem{Kernel: k, In: n, Landmarks: land, Proj: []float64{0.9 / math.Sqrt(k.Eval(land, land))}}}}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	if !m.WholeRows() {
		t.Fatal("WholeRows is false for a 5-input map of the Hellinger kernel")
	}
	p := hellingerProblem(Absolute)
	p.Data = &Data{File: "rows", Held: held}
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	v := Verify(m, ref)
	if a := v.Reported; math.Abs(a.LInf-1.9) > 1e-13 || math.Abs(a.RMS-0.95) > 1e-13 || a.Points != 121 {
		t.Errorf("absolute L∞ %v, RMS %v over %d pairs; want 1.9, 0.95 over 121 (per coordinate)", a.LInf, a.RMS, a.Points)
	}
	if on := v.Absolute.On; !strings.Contains(on, "rows (v, …, v) of 5 equal coordinates") || !strings.Contains(on, "per coordinate (|K − Ψ·Ψ|/5)") {
		t.Errorf("absolute error on %q: want the rows and the per-coordinate rule stated", on)
	}
	if s := v.Signature; math.Abs(s.LInf-0.19) > 1e-14 || !strings.Contains(s.On, "along those rows") {
		t.Errorf("signature L∞ %v on %q, want 0.19 along the rows", s.LInf, s.On)
	}
	var worst float64
	for _, x := range held {
		for _, y := range held {
			sx, sy := 0.0, 0.0
			for j := range x {
				sx, sy = sx+math.Sqrt(x[j]), sy+math.Sqrt(y[j])
			}
			worst = math.Max(worst, math.Abs(k.Eval(x, y)-0.81*sx*sy/n))
		}
	}
	if v.Data == nil || math.Abs(v.Data.Absolute.LInf-worst) > 1e-12 || v.Data.Absolute.Points != 16 {
		t.Errorf("data error %+v, want L∞ %v over 16 pairs", v.Data, worst)
	}

	rref, err := hellingerProblem(Relative).Reference()
	if err != nil {
		t.Fatal(err)
	}
	if r := Verify(m, rref).Reported; math.Abs(r.LInf-0.19) > 1e-14 || math.Abs(r.RMS-0.19) > 1e-14 || r.Points != 100 {
		t.Errorf("relative L∞ %v, RMS %v over %d pairs; want 0.19, 0.19 over 100", r.LInf, r.RMS, r.Points)
	}
	uref, err := hellingerProblem(Uniform).Reference()
	if err != nil {
		t.Fatal(err)
	}
	if r := Verify(m, uref).Reported; math.Abs(r.LInf-0.19) > 1e-14 || math.Abs(r.RMS-0.19) > 1e-14 {
		t.Errorf("uniform L∞ %v, RMS %v; want 0.19, 0.19", r.LInf, r.RMS)
	}
}

// TestVerifyDataOneInput: Verify of a map of one input measures it on the
// held-out rows of the problem's data too, and only then. With
// TestVerifyKnownError's map Ψ(x)·Ψ(y) = 0.81√(xy) against K = √(xy) the
// error on a pair is 0.19·K: on the one-value rows {4, 9, 1} L∞ 0.19·9 at
// x = y = 9 over 9 pairs; on the two-value rows (4, 9), (1, 0), mapped
// coordinate by coordinate (the kernel is additive), L∞ 0.19·(4 + 9) over
// 4 pairs. Without data there is no data verification.
func TestVerifyDataOneInput(t *testing.T) {
	for _, c := range []struct {
		held   [][]float64
		linf   float64
		points int
	}{
		{[][]float64{{4}, {9}, {1}}, 0.19 * 9, 9},
		{[][]float64{{4, 9}, {1, 0}}, 0.19 * 13, 4},
		{nil, 0, 0},
	} {
		p := hellingerProblem(Absolute)
		m := NewFourierMap(p.Kernel, p.Domain, "test", &Fourier{
			Form: FourierForm, Transform: Log, Gamma: 1, Negative: NegativeSign,
			Terms: []Term{{Freq: []float64{0}, Weight: 0.81}},
		})
		if c.held != nil {
			p.Data = &Data{File: "held.csv", SHA256: "abc", Rows: 7, Held: c.held}
		}
		ref, err := p.Reference()
		if err != nil {
			t.Fatal(err)
		}
		d := Verify(m, ref).Data
		if c.held == nil {
			if d != nil {
				t.Errorf("no data, but a data verification %+v", d)
			}
			continue
		}
		if d == nil {
			t.Errorf("rows %v: no data verification", c.held)
			continue
		}
		if math.Abs(d.Absolute.LInf-c.linf) > 1e-13 || d.Absolute.Points != c.points {
			t.Errorf("rows %v: data L∞ %v over %d pairs, want %v over %d", c.held, d.Absolute.LInf, d.Absolute.Points, c.linf, c.points)
		}
		if math.Abs(d.Frobenius-0.19) > 1e-14 {
			t.Errorf("rows %v: data Frobenius error %v, want 0.19 (E = 0.19·K)", c.held, d.Frobenius)
		}
		if d.File != "held.csv" || d.SHA256 != "abc" || d.Rows != 7 || !strings.Contains(d.Absolute.On, "held.csv") {
			t.Errorf("rows %v: data verification names %q %q %d (%q), want the data file's", c.held, d.File, d.SHA256, d.Rows, d.Absolute.On)
		}
	}
}

// TestGramErrors: gramErrors on a Gram matrix given by its upper triangle
// matches the definitions computed here over the full matrices: L∞ and RMS
// of |K − Ψ·Ψ| over all n² ordered pairs, the relative error over the
// pairs with K > 0, and the relative Frobenius error √(Σ E²/Σ K²). With
// no pairs, or no pair with K > 0, or K = 0 throughout, the RMS and
// Frobenius errors are 0, never NaN.
func TestGramErrors(t *testing.T) {
	for _, c := range []struct {
		psi [][]float64
		k   [][]float64 // full symmetric K
	}{
		{[][]float64{{1}, {2}}, [][]float64{{2, 1}, {1, 3}}},
		{[][]float64{{1, 0.5}, {0, 2}, {1, 1}}, [][]float64{{1, 0, 2}, {0, 5, 1}, {2, 1, 0}}},
		{[][]float64{{0.5}}, [][]float64{{0}}},
		{nil, nil},
	} {
		n := len(c.psi)
		exact := make([]float64, n*n)
		var absMax, absSq, relMax, relSq, kSq float64
		relCount := 0
		for i := range n {
			for j := range n {
				if j >= i {
					exact[i*n+j] = c.k[i][j]
				}
				e := math.Abs(c.k[i][j] - dot(c.psi[i], c.psi[j]))
				absMax, absSq, kSq = math.Max(absMax, e), absSq+e*e, kSq+c.k[i][j]*c.k[i][j]
				if c.k[i][j] > 0 {
					r := e / c.k[i][j]
					relMax, relSq, relCount = math.Max(relMax, r), relSq+r*r, relCount+1
				}
			}
		}
		rms := func(s float64, cnt int) float64 {
			if cnt == 0 {
				return 0
			}
			return math.Sqrt(s / float64(cnt))
		}
		wantFrob := 0.0
		if kSq > 0 {
			wantFrob = math.Sqrt(absSq / kSq)
		}
		abs, rel, frob, err := gramErrors(context.Background(), c.psi, exact, "pts")
		if err != nil {
			t.Fatal(err)
		}
		near := func(a, b float64) bool { return math.Abs(a-b) <= 1e-14*math.Max(1, math.Abs(b)) }
		if !near(abs.LInf, absMax) || !near(abs.RMS, rms(absSq, n*n)) || abs.Points != n*n {
			t.Errorf("n %d: absolute %+v, want L∞ %v RMS %v over %d", n, abs, absMax, rms(absSq, n*n), n*n)
		}
		if !near(rel.LInf, relMax) || !near(rel.RMS, rms(relSq, relCount)) || rel.Points != relCount || !strings.Contains(rel.On, "with K > 0 of pts") {
			t.Errorf("n %d: relative %+v, want L∞ %v RMS %v over %d pairs with K > 0", n, rel, relMax, rms(relSq, relCount), relCount)
		}
		if !near(frob, wantFrob) {
			t.Errorf("n %d: Frobenius %v, want %v", n, frob, wantFrob)
		}
	}
}

// TestRank: a verification ranks by its held-out data's Frobenius error
// when it has one (of enough distinct rows: TestRankNeedsDistinctRows),
// else by its reported L∞ error, and names which.
func TestRank(t *testing.T) {
	v := Verification{Reported: Measurement{LInf: 0.5}}
	if r, name := v.Rank(); r != 0.5 || name != "L∞ error" {
		t.Errorf("without data: %v %q, want the reported L∞ 0.5", r, name)
	}
	v.Data = &DataVerification{Frobenius: 0.125, Distinct: MinRankRows}
	if r, name := v.Rank(); r != 0.125 || !strings.Contains(name, "held-out data") {
		t.Errorf("with data: %v %q, want the data's Frobenius 0.125", r, name)
	}
}

// gramErrorsByPair is gramErrors' sums taken one pair at a time, in the
// order j = i, i+1, …, n−1 for each row i: the reference its four-pairs-
// at-a-time loop must equal bit for bit.
func gramErrorsByPair(psi [][]float64, exact []float64) []gramSums {
	n := len(psi)
	rows := make([]gramSums, n)
	for i := range n {
		for j := i; j < n; j++ {
			mult := 2.0
			if j == i {
				mult = 1
			}
			rows[i].add(exact[i*n+j], dot(psi[i], psi[j]), mult)
		}
	}
	return rows
}

// TestGramErrorsFourAtATime: on random features with n from 1 to 13 (every
// remainder of the four-pair blocks) and D from 1 to 40, gramErrors gives
// bit for bit the errors of the sums taken one pair at a time, and dot4 the
// bits of dot.
func TestGramErrorsFourAtATime(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 5))
	for n := 1; n <= 13; n++ {
		for _, d := range []int{1, 3, 7, 40} {
			psi := make([][]float64, n)
			for i := range psi {
				psi[i] = make([]float64, d)
				for k := range psi[i] {
					psi[i][k] = rng.NormFloat64() * math.Exp(8*rng.NormFloat64())
				}
			}
			exact := make([]float64, n*n)
			for i := range exact {
				exact[i] = rng.NormFloat64()
			}
			ref := gramErrorsByPair(psi, exact)
			var sa, sr, sk float64
			var absMax, relMax float64
			relCount := 0
			for _, r := range ref {
				absMax, relMax = nanMax(absMax, r.absMax), nanMax(relMax, r.relMax)
				sa, sr, sk, relCount = sa+r.absSq, sr+r.relSq, sk+r.kSq, relCount+r.relCount
			}
			abs, rel, frob, err := gramErrors(context.Background(), psi, exact, "pts")
			if err != nil {
				t.Fatal(err)
			}
			wantRel := 0.0
			if relCount > 0 {
				wantRel = math.Sqrt(sr / float64(relCount))
			}
			if abs.LInf != absMax || abs.RMS != math.Sqrt(sa/float64(n*n)) || rel.LInf != relMax ||
				rel.RMS != wantRel || rel.Points != relCount || frob != math.Sqrt(sa/sk) {
				t.Fatalf("n %d, D %d: %+v %+v %v differ from the pair-at-a-time sums", n, d, abs, rel, frob)
			}
			if n >= 5 {
				s0, s1, s2, s3 := dot4(psi[0], psi[1], psi[2], psi[3], psi[4])
				for k, s := range []float64{s0, s1, s2, s3} {
					if want := dot(psi[0], psi[k+1]); math.Float64bits(s) != math.Float64bits(want) {
						t.Fatalf("n %d, D %d: dot4's sum %d is %v, dot's %v", n, d, k, s, want)
					}
				}
			}
		}
	}
}

// BenchmarkGramErrors: 300 points of D = 1024 features (the digits Gram
// error of an rff map): gramErrors against the pair-at-a-time sums, both
// on one thread (GOMAXPROCS 1: gramErrors runs a worker per thread).
func BenchmarkGramErrors(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d = 300, 1024
	psi := make([][]float64, n)
	for i := range psi {
		psi[i] = make([]float64, d)
		for k := range psi[i] {
			psi[i][k] = rng.NormFloat64()
		}
	}
	exact := make([]float64, n*n)
	for i := range exact {
		exact[i] = rng.Float64()
	}
	b.Run("four-at-a-time", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			gramErrors(context.Background(), psi, exact, "pts")
		}
	})
	b.Run("pair-at-a-time", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			gramErrorsByPair(psi, exact)
		}
	})
}

// TestHeldPairsOnce: the exact kernel over the held-out pairs is computed
// once per reference for the maps of its problem's kernel (the same slice
// comes back), the data verification that uses it equals one computed
// afresh bit for bit, and a map of another kernel (a learned σ) gets its
// own kernel's values, not the cached ones.
func TestHeldPairsOnce(t *testing.T) {
	k := Kernel{Type: RBF, Sigma: []float64{0.5, 2}}
	p := &Problem{Kernel: k, Domain: Domain{Lo: []float64{0, 0}, Hi: []float64{1, 1}}, Measure: Absolute, Norm: LInf}
	rng := rand.New(rand.NewPCG(9, 9))
	var held [][]float64
	for range 9 {
		held = append(held, []float64{rng.Float64(), rng.Float64()})
	}
	p.Data = &Data{File: "held.csv", Held: held}
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	a, err := ref.heldPairs(ctx, k, p.Data)
	if err != nil {
		t.Fatal(err)
	}
	b, err := ref.heldPairs(ctx, k.Clone(), p.Data)
	if err != nil {
		t.Fatal(err)
	}
	if &a[0] != &b[0] {
		t.Error("the held-out pairs of the same kernel were computed twice")
	}
	m := &Map{Kernel: k, InDim: 2, Dim: 2, Domain: p.Domain, Method: "test",
		Stages: []Stage{{Kind: &Random{Features: CosSin, Transform: Identity, In: 2, Freq: []float64{1, -2}}}}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	cached, err := verifyData(ctx, m, p.Data, ref)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := VerifyDataContext(ctx, m, p.Data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cached, fresh) {
		t.Errorf("data verification from the cache %+v, afresh %+v", cached, fresh)
	}
	learned := k.Clone()
	learned.Sigma[1] = 0.25
	c, err := ref.heldPairs(ctx, learned, p.Data)
	if err != nil {
		t.Fatal(err)
	}
	if want := learned.Eval(held[0], held[3]); c[3] != want || c[3] == a[3] {
		t.Errorf("K(x_0, x_3) for σ %v: %v, want %v (σ %v gave %v)", learned.Sigma, c[3], want, k.Sigma, a[3])
	}
}
