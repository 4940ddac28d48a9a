package solver_test

import (
	"bytes"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/featmap/featmap/solver"
)

var update = flag.Bool("update", false, "regenerate the design LPs in testdata/lp")

// designSpec describes a design LP in docs/lp-design.md's cone encoding:
//
//	min  γ t + Σ_j D_j α_j   (α_0 for ω = 0; p_j, q_j for ω_j > 0, D = 1, 2, 2)
//	s.t. t + Σ_j col_ij x_j ≥  w_i k_i
//	     t − Σ_j col_ij x_j ≥ −w_i k_i        for every point z_i,
//
// with col_i = w_i for α_0 and w_i (cos ω z_i ∓ d z_i sin ω z_i) for p and
// q, all variables ≥ 0.
type designSpec struct {
	name   string
	points []float64
	weight func(z float64) float64
	kernel func(z float64) float64
	omegas []float64 // ω_0 = 0 first
	d      float64
	gammas []float64 // one file per γ; neighbours warm-start each other
}

func grid(n int, step float64) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = step * float64(i)
	}
	return v
}

func designSpecs() []designSpec {
	rbfZ := make([]float64, 316)
	for i := range rbfZ {
		rbfZ[i] = math.Pi * float64(i) / float64(len(rbfZ)-1)
	}
	return []designSpec{{
		// χ² homogeneous kernel on 8-bit data: 555 points on [0, log 255].
		name:   "chi2",
		points: grid(555, 0.01),
		weight: func(z float64) float64 { return math.Exp(-z / 2) },
		kernel: func(z float64) float64 { return 1 / math.Cosh(z/2) },
		omegas: grid(51, 0.1),
		d:      0.05,
		gammas: []float64{2000, 2000 * 1.003},
	}, {
		// 1-D RBF, σ = 0.2, 316 points on [0, π].
		name:   "rbf",
		points: rbfZ,
		weight: func(float64) float64 { return 1 },
		kernel: func(z float64) float64 { return math.Exp(-z * z / (2 * 0.2 * 0.2)) },
		omegas: grid(201, 0.1),
		d:      0.05,
		gammas: []float64{500, 500 * 1.003},
	}}
}

func (s designSpec) build(gamma float64) *solver.Problem {
	m := 2 * len(s.points)
	rl, ru := make([]float64, m), make([]float64, m)
	for i, z := range s.points {
		wk := s.weight(z) * s.kernel(z)
		rl[2*i], ru[2*i] = wk, inf
		rl[2*i+1], ru[2*i+1] = -wk, inf
	}
	b := solver.NewBuilder(rl, ru)
	add := func(cost float64, f func(i int, z float64) float64) {
		col := make([]float64, m)
		for i, z := range s.points {
			v := f(i, z)
			col[2*i], col[2*i+1] = v, -v
		}
		b.AddDenseColumn(cost, 0, inf, col)
	}
	// t enters both rows of a point with +1.
	tcol := make([]float64, m)
	for i := range tcol {
		tcol[i] = 1
	}
	b.AddDenseColumn(gamma, 0, inf, tcol)
	add(1, func(_ int, z float64) float64 { return s.weight(z) })
	for _, w := range s.omegas[1:] {
		for _, sign := range []float64{-1, 1} {
			add(2, func(_ int, z float64) float64 {
				return s.weight(z) * (math.Cos(w*z) + sign*s.d*z*math.Sin(w*z))
			})
		}
	}
	return b.Problem()
}

func designFile(name string, gamma float64) string {
	return filepath.Join("testdata", "lp", fmt.Sprintf("%s_g%.6g.json", name, gamma))
}

// TestDesignLPFiles checks that testdata/lp holds what the generator makes
// (go test ./solver/ -run DesignLPFiles -update rewrites the files).
func TestDesignLPFiles(t *testing.T) {
	t.Parallel() // pure Go only, no shared state
	for _, s := range designSpecs() {
		for _, g := range s.gammas {
			p := s.build(g)
			path := designFile(s.name, g)
			if *update {
				var buf bytes.Buffer
				if err := solver.WriteJSON(&buf, p); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				continue
			}
			q := readLP(t, path)
			if d := problemDiff(p, q, 1e-14); d != "" {
				t.Errorf("%s differs from the generator (%s); regenerate with -update", path, d)
			}
		}
	}
}

// problemDiff compares two problems entry by entry, values up to a
// tolerance relative to the larger magnitude or 1, whichever is larger (the
// generator's cosines may round differently on another architecture or
// with GOAMD64=v3, and an entry near a cosine's zero, −2.5·10⁻⁵, then moved
// by 1.3·10⁻¹⁴ of itself).
func problemDiff(p, q *solver.Problem, tol float64) string {
	if p.NumRows != q.NumRows || p.NumCols() != q.NumCols() || len(p.Value) != len(q.Value) {
		return fmt.Sprintf("shape %d×%d (%d entries) vs %d×%d (%d)", p.NumRows, p.NumCols(), len(p.Value), q.NumRows, q.NumCols(), len(q.Value))
	}
	near := func(a, b float64) bool {
		return a == b || math.Abs(a-b) <= tol*max(math.Abs(a), math.Abs(b), 1)
	}
	vecs := [][2][]float64{{p.Obj, q.Obj}, {p.ColLower, q.ColLower}, {p.ColUpper, q.ColUpper}, {p.RowLower, q.RowLower}, {p.RowUpper, q.RowUpper}, {p.Value, q.Value}}
	for k, v := range vecs {
		for i := range v[0] {
			if !near(v[0][i], v[1][i]) {
				return fmt.Sprintf("array %d entry %d: %v vs %v", k, i, v[0][i], v[1][i])
			}
		}
	}
	for j := range p.ColStart {
		if p.ColStart[j] != q.ColStart[j] {
			return fmt.Sprintf("column %d starts at %d vs %d", j, p.ColStart[j], q.ColStart[j])
		}
	}
	for k := range p.RowIndex {
		if p.RowIndex[k] != q.RowIndex[k] {
			return fmt.Sprintf("entry %d in row %d vs %d", k, p.RowIndex[k], q.RowIndex[k])
		}
	}
	return ""
}

// designLP is one LP file of testdata/lp and the file of its γ-neighbour
// (the other file with the same prefix before "_g").
type designLP struct {
	name, path, neighbour string
}

func designLPs(t testing.TB) []designLP {
	files, err := filepath.Glob(filepath.Join("testdata", "lp", "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no LP files in testdata/lp: %v", err)
	}
	sort.Strings(files)
	group := func(f string) string { b := filepath.Base(f); return b[:strings.LastIndex(b, "_g")+1] }
	var out []designLP
	for _, f := range files {
		d := designLP{name: strings.TrimSuffix(filepath.Base(f), ".json"), path: f}
		for _, g := range files {
			if g != f && group(g) == group(f) {
				d.neighbour = g
			}
		}
		out = append(out, d)
	}
	return out
}

// TestDesignLPs solves every LP in testdata/lp with every backend: optimal,
// certified, objectives agreeing across backends to 1e-9 relative, and a
// warm start from the γ-neighbour's optimal basis reaching the same optimum.
func TestDesignLPs(t *testing.T) {
	bs := backends(t)
	for _, d := range designLPs(t) {
		t.Run(d.name, func(t *testing.T) {
			p := readLP(t, d.path)
			objs := map[string]float64{}
			for _, b := range bs {
				sol := solve(t, b, p, solver.Options{})
				if e := certify(p, sol, designCert); e != "" {
					t.Errorf("%s: %s", b.Name(), e)
					continue
				}
				objs[b.Name()] = sol.Objective
				t.Logf("%s: objective %.15g after %d pivots", b.Name(), sol.Objective, sol.Iterations)
				if d.neighbour == "" {
					continue
				}
				q := readLP(t, d.neighbour)
				nb := solve(t, b, q, solver.Options{})
				if nb.Status != solver.Optimal {
					t.Errorf("%s: neighbour %s: %v", b.Name(), d.neighbour, nb.Status)
					continue
				}
				warm := solve(t, b, p, solver.Options{WarmStart: nb.Basis})
				if e := certify(p, warm, designCert); e != "" {
					t.Errorf("%s: warm from %s: %s", b.Name(), d.neighbour, e)
				} else if !relClose(warm.Objective, sol.Objective, 1e-9) {
					t.Errorf("%s: warm objective %.15g, cold %.15g", b.Name(), warm.Objective, sol.Objective)
				}
				t.Logf("%s: warm from the neighbour's basis: %d pivots", b.Name(), warm.Iterations)
			}
			for a, oa := range objs {
				for b, ob := range objs {
					if a < b && !relClose(oa, ob, 1e-9) {
						t.Errorf("objectives disagree: %s %.15g, %s %.15g", a, oa, b, ob)
					}
				}
			}
		})
	}
}

// BenchmarkDesignLP times every backend on every LP in testdata/lp, cold
// and warm-started from the optimal basis of its γ-neighbour.
func BenchmarkDesignLP(b *testing.B) {
	for _, d := range designLPs(b) {
		p := readLP(b, d.path)
		var nbBasis map[string]*solver.Basis
		if d.neighbour != "" {
			q := readLP(b, d.neighbour)
			nbBasis = map[string]*solver.Basis{}
			for _, be := range backends(b) {
				if s, err := be.Solve(q, solver.Options{}); err == nil && s.Status == solver.Optimal {
					nbBasis[be.Name()] = s.Basis
				}
			}
		}
		for _, be := range backends(b) {
			b.Run(d.name+"/"+be.Name()+"/cold", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if s, err := be.Solve(p, solver.Options{}); err != nil || s.Status != solver.Optimal {
						b.Fatalf("%v %v", err, s.Status)
					}
				}
			})
			basis := nbBasis[be.Name()]
			if basis == nil {
				continue
			}
			b.Run(d.name+"/"+be.Name()+"/warm", func(b *testing.B) {
				b.ReportAllocs()
				pivots := 0
				for b.Loop() {
					s, err := be.Solve(p, solver.Options{WarmStart: basis})
					if err != nil || s.Status != solver.Optimal {
						b.Fatalf("%v %v", err, s.Status)
					}
					pivots = s.Iterations
				}
				b.ReportMetric(float64(pivots), "pivots/op")
			})
		}
	}
}

// designCert certifies design-LP solutions. The primal tolerance is far
// below Options' 1e-9: the duals of these LPs sum to γ (10²–10³), so a
// solution that used the whole 1e-9 of room on its rows could sit ~1e-6
// below the optimum and still pass a tolerance-aware gap test, and the
// backends are required to agree to 1e-9.
var designCert = certTol{primal: 1e-11, dual: 1e-9, gap: 1e-9}
