package codegen

import (
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/fmap"
)

// blocksMap makes a map of column groups (rff-group-lasso's form) from
// test maps: block g is parts[g]'s map on the next inputs, with weight
// weights[g]; its kernel is the combined kernel Σ_g d_g K_g.
func blocksMap(v *fmap.Verification, weights []float64, parts ...fmap.Verified) fmap.Verified {
	var bs []fmap.Block
	var ks []fmap.KernelPart
	dom := fmap.Domain{}
	first, dim := 0, 0
	for g, p := range parts {
		m := p.Map
		last := first + m.InDim - 1
		bs = append(bs, fmap.Block{First: first, Last: last, Kernel: m.Kernel, Scale: math.Sqrt(weights[g]), Stages: m.Stages})
		ks = append(ks, fmap.KernelPart{Kernel: m.Kernel, First: first, Last: last, Weight: weights[g]})
		dom.Lo, dom.Hi = append(dom.Lo, m.Domain.Lo...), append(dom.Hi, m.Domain.Hi...)
		first, dim = last+1, dim+m.Dim
	}
	m := &fmap.Map{Kernel: fmap.Kernel{Type: fmap.Combined, Parts: ks}, InDim: first, Dim: dim, Domain: dom,
		Method: "rff-group-lasso", Stages: []fmap.Stage{{Kind: &fmap.Blocks{Parts: bs}}}}
	if err := m.Validate(); err != nil {
		panic(err)
	}
	return fmap.Verified{Map: m, Verification: v}
}

// blocksSmall: exp-χ² on x_0..x_3, skewed χ² (phase features) on
// x_4..x_6 and a one-input exp-χ² on x_7; 44 components, Go literals.
func blocksSmall() fmap.Verified {
	v := &fmap.Verification{Measure: fmap.Absolute,
		Reported: fmap.Measurement{On: "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)", Points: 1000000, LInf: 0.4321, RMS: 0.0987},
		Data: &fmap.DataVerification{Absolute: fmap.Measurement{On: "all 6400 ordered pairs of 80 held-out rows of d.csv", Points: 6400, LInf: 0.3012, RMS: 0.0555},
			Frobenius: 0.12, File: "d.csv", SHA256: strings.Repeat("ab", 32), Rows: 400}}
	return blocksMap(v, []float64{0.7, 0.2, 0.1}, testmaps.ExpChi2(), testmaps.RFFSkew(), testmaps.ExpChi21())
}

// blocksBig: skewed intersection on x_0..x_15 (512 phase features) and a
// Gaussian rff on x_16..x_19: 8704 + 256 constants, a data file.
func blocksBig() fmap.Verified {
	v := &fmap.Verification{Measure: fmap.Absolute,
		Reported: fmap.Measurement{On: "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)", Points: 1000000, LInf: 0.2, RMS: 0.04}}
	return blocksMap(v, []float64{1.5, 0.25}, testmaps.RFFIntersect(), testmaps.GaussianRFF(4, 32, 9, v))
}

// blocksRBF: a Gaussian rff of 300 frequencies on x_0..x_7 (two chunks
// of 256 frequencies) and a phase rff on x_8..x_11, every block of the
// input itself (the dense path of every block, and the float32 path).
func blocksRBF() fmap.Verified {
	v := &fmap.Verification{Measure: fmap.Absolute,
		Reported: fmap.Measurement{On: "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)", Points: 1000000, LInf: 0.2, RMS: 0.04}}
	return blocksMap(v, []float64{0.8, 0.3}, testmaps.GaussianRFF(8, 300, 5, v), testmaps.PhaseRFF(4, 40, 6))
}

// blocksMixed: a Gaussian rff on x_0..x_3 (dense) and an exp-χ² map on
// x_4..x_40 whose t of 259 values is computed in two chunks (staged,
// emit_dense_wide.go).
func blocksMixed() fmap.Verified {
	v := &fmap.Verification{Measure: fmap.Absolute,
		Reported: fmap.Measurement{On: "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)", Points: 1000000, LInf: 0.3, RMS: 0.05}}
	return blocksMap(v, []float64{0.6, 0.4}, testmaps.GaussianRFF(4, 16, 7, v), testmaps.ExpChi2Wide())
}

// blocksOne: one block of one input, a Gaussian rff (a map of one input:
// N takes x, not an array).
func blocksOne() fmap.Verified {
	v := &fmap.Verification{Measure: fmap.Absolute,
		Reported: fmap.Measurement{On: "all 1000000 ordered pairs of 1000 points drawn uniformly from the box (seed 1)", Points: 1000000, LInf: 0.1, RMS: 0.02}}
	return blocksMap(v, []float64{0.5}, testmaps.GaussianRFF(1, 20, 8, v))
}

// withModel returns vm with a linear model of seeded weights on its
// features: classes 0, 3, 7 or (classes nil) regression.
func withModel(vm fmap.Verified, classes []float64) fmap.Verified {
	m := *vm.Map
	r := rand.New(rand.NewPCG(11, uint64(m.Dim)))
	mod := &fmap.LinearModel{Classes: classes, Ridge: 1e-3, Rows: 300, HeldRows: 100, HeldAccuracy: 0.9, DataSHA256: strings.Repeat("cd", 32)}
	k := max(len(classes), 1)
	for range m.Dim * k {
		mod.W = append(mod.W, r.NormFloat64())
	}
	for range k {
		mod.Bias = append(mod.Bias, r.NormFloat64())
	}
	if classes == nil {
		mod.HeldAccuracy, mod.HeldRMSE = 0, 0.5
	}
	m.Model = mod
	return fmap.Verified{Map: &m, Verification: vm.Verification}
}

// TestBlocksGolden compares the emitted source of blocksSmall with
// testdata/blocks.golden.
func TestBlocksGolden(t *testing.T) {
	src, err := Generate(blocksSmall(), testInfo("Blocks"))
	if err != nil {
		t.Fatal(err)
	}
	checkImports(t, src)
	checkLiterals(t, src)
	if _, err := Generate(blocksBig(), testInfo("BlocksBig")); err == nil || !strings.Contains(err.Error(), "GenerateFiles") {
		t.Errorf("Generate of a map whose constants go to a data file: %v, want an error naming GenerateFiles", err)
	}
	checkFile(t, filepath.Join("testdata", "blocks.golden"), src)
}

// TestBlocksAgree builds the emitted code of both block maps (literals
// and a data file) in a module, runs go vet and the harness (0
// allocations for every function, the predictor's included; slice length
// panics), and checks: N
// against the reference evaluator m.Eval within 1e-14 relative to ‖Ψ(x)‖,
// or 2e-15·(32 + 4·phase) where the phases |ω·t| are large (their partial
// sums round differently; the other random maps' rule, compare), zeros exactly where the
// reference has them (a block with a non-finite input), the slices bit
// for bit equal to N and NF32, and NF32 the float64 value rounded.
func TestBlocksAgree(t *testing.T) {
	type bcase struct {
		name string
		vm   fmap.Verified
		xs   [][]float64
		huge int // xs[huge:] have every coordinate ±MaxFloat64
	}
	var cs []bcase
	for _, c := range []struct {
		name string
		vm   fmap.Verified
	}{{"Blocks", blocksSmall()}, {"BlocksBig", blocksBig()}, {"BlocksRBF", blocksRBF()}, {"BlocksMixed", blocksMixed()}, {"BlocksOne", blocksOne()},
		{"BlocksClasses", withModel(blocksSmall(), []float64{0, 3, 7})}, {"BlocksBigReg", withModel(blocksBig(), nil)}} {
		m := c.vm.Map
		r := rand.New(rand.NewPCG(3, uint64(m.InDim)))
		var xs [][]float64
		for range 200 {
			x := make([]float64, m.InDim)
			for j := range x {
				x[j] = m.Domain.Lo[j] + (m.Domain.Hi[j]-m.Domain.Lo[j])*r.Float64()
			}
			xs = append(xs, x)
		}
		// Edges: the corners, a NaN or Inf in the first block only, and
		// a NaN in the last block's first coordinate and in the last
		// coordinate (a wide block's first and last chunks of t).
		lo, hi := append([]float64(nil), m.Domain.Lo...), append([]float64(nil), m.Domain.Hi...)
		nan, inf := append([]float64(nil), xs[0]...), append([]float64(nil), xs[1]...)
		nanFirst, nanLast := append([]float64(nil), xs[2]...), append([]float64(nil), xs[3]...)
		parts := m.Blocks().Parts
		nan[0], inf[0], nanFirst[parts[len(parts)-1].First], nanLast[len(nanLast)-1] = math.NaN(), math.Inf(1), math.NaN(), math.NaN()
		xs = append([][]float64{lo, hi, nan, inf, nanFirst, nanLast}, xs...)
		huge := len(xs)
		for _, sign := range []float64{1, -1, 0} {
			x := make([]float64, m.InDim)
			for j := range x {
				x[j] = sign * math.MaxFloat64
				if sign == 0 {
					x[j] = math.Copysign(math.MaxFloat64, float64(j%2)-0.5)
				}
			}
			xs = append(xs, x)
		}
		cs = append(cs, bcase{c.name, c.vm, xs, huge})
	}
	var ems []emitted
	for _, c := range cs {
		files, err := GenerateFiles(c.vm, testInfo(c.name))
		if err != nil {
			t.Fatal(err)
		}
		own := slices.DeleteFunc(slices.Clone(files), func(f File) bool { return IsDenseFile(f.Name) })
		if big := strings.HasPrefix(c.name, "BlocksBig"); big != (len(own) == 2) {
			t.Fatalf("%s: %d files, want the Go file and a data file for the big maps only", c.name, len(files))
		}
		mod := c.vm.Map.Model
		ems = append(ems, emitted{Name: c.name, In: c.vm.Map.InDim, Src: files[0].Data, Extra: files[1:],
			Classes: mod != nil && mod.Classes != nil, Regression: mod != nil && mod.Classes == nil})
	}
	dir := writeModule(t, ems)
	dump := t.TempDir()
	for _, c := range cs {
		var flat []float64
		for _, x := range c.xs {
			flat = append(flat, x...)
		}
		writeF64(t, filepath.Join(dump, c.name+".in"), flat)
	}
	goRun(t, dir, []string{"FEATMAP_DUMP=" + dump, "FEATMAP_ALLOC_INPUTS=4"},
		"test", "-vet=all", "-count=1", "-run", "^(TestDump|TestAllocs|TestSlicePanics)$", ".")
	for _, c := range cs {
		t.Run(c.name, func(t *testing.T) {
			m := c.vm.Map
			d := m.Dim
			out64 := readF64(t, filepath.Join(dump, c.name+".out64"))
			sl64 := readF64(t, filepath.Join(dump, c.name+".slice64"))
			out32 := readF32(t, filepath.Join(dump, c.name+".out32"))
			sl32 := readF32(t, filepath.Join(dump, c.name+".slice32"))
			ref, ref32 := make([]float64, d), make([]float64, d)
			var blocks []*fmap.Map
			for g := range m.Blocks().Parts {
				blocks = append(blocks, m.BlockMap(g))
			}
			worst, worstScaled, maxPhase, worst32 := 0.0, 0.0, 0.0, 0.0
			p, err := newPlan(c.vm, testInfo(c.name))
			if err != nil {
				t.Fatal(err)
			}
			bk := p.asBlocks()
			if want := c.name == "BlocksRBF" || c.name == "BlocksOne"; bk.f32 != want {
				t.Errorf("%s: float32 path %v, want %v", c.name, bk.f32, want)
			}
			paths := map[string][]blockPath{"Blocks": {blockStaged, blockStaged, blockStaged}, "BlocksBig": {blockStaged, blockDense},
				"BlocksRBF": {blockDense, blockDense}, "BlocksMixed": {blockDense, blockStaged}, "BlocksOne": {blockDense}}
			if want, ok := paths[strings.TrimSuffix(strings.TrimSuffix(c.name, "Classes"), "Reg")]; ok && !slices.Equal(bk.paths, want) {
				t.Errorf("%s: the blocks' paths are %v, want %v", c.name, bk.paths, want)
			}
			for i, x := range c.xs[c.huge:] {
				// No phase keeps a correct digit, but the file's promise
				// holds: finite components, block g's within s_g times
				// its random features' scale.
				i += c.huge
				for j := range d {
					if !sameBits64(sl64[i*d+j], out64[i*d+j]) {
						t.Fatalf("input %d component %d: the slice differs from the scalar function", i, j)
					}
				}
				o := 0
				for g, b := range m.Blocks().Parts {
					s, _ := randomStages(blocks[g])
					scale := math.Sqrt(1 / float64(s.Frequencies()))
					if s.Features == fmap.Phase {
						scale = math.Sqrt(2 / float64(s.Frequencies()))
					}
					lim := b.Scale * scale * (1 + 1e-9)
					for j := o; j < o+b.Dim(); j++ {
						if !(math.Abs(out64[i*d+j]) <= lim) {
							t.Fatalf("%v: component %d (block %d) = %v, want a finite value within %v", x, j, g, out64[i*d+j], lim)
						}
					}
					o += b.Dim()
				}
			}
			lim32 := make([]float64, len(bk.kinds)) // each block's L32
			for g, rk := range bk.kinds {
				lim32[g] = rk.limit32()
			}
			for i, x := range c.xs[:c.huge] {
				// The phases' size bounds the rounding of any two
				// evaluations (as for the other random maps: compare).
				phase := 0.0
				for g, b := range m.Blocks().Parts {
					if p := randomPhaseSize(blocks[g], x[b.First:b.Last+1]); !math.IsInf(p, 1) {
						phase = math.Max(phase, p)
					}
				}
				maxPhase = math.Max(maxPhase, phase)
				tol := math.Max(1e-14, 2e-15*(32+4*phase))
				m.Eval(ref, x)
				x32 := make([]float64, len(x))
				for j, v := range x {
					x32[j] = float64(float32(v))
				}
				m.Eval(ref32, x32)
				got := out64[i*d : (i+1)*d]
				var n2 float64
				for _, v := range ref {
					n2 += v * v
				}
				nrm := math.Sqrt(n2)
				for j := range d {
					if (ref[j] == 0) != (got[j] == 0) && nrm > 0 && math.Abs(got[j]-ref[j]) > 1e-14*nrm {
						t.Fatalf("input %d component %d: %v, reference %v", i, j, got[j], ref[j])
					}
					e := math.Abs(got[j]-ref[j]) / nrm
					if nrm == 0 {
						e = math.Abs(got[j])
					}
					worst, worstScaled = math.Max(worst, e), math.Max(worstScaled, e/tol)
					if !sameBits64(sl64[i*d+j], got[j]) || math.Float32bits(sl32[i*d+j]) != math.Float32bits(out32[i*d+j]) {
						t.Fatalf("input %d component %d: the slices differ from the scalar functions", i, j)
					}
					// NF32 takes x rounded to float32: on the float32
					// path within the bound the file states of the
					// float64 value there (blocks32Tol), else that value
					// rounded.
					tol32 := 0x1p-24*math.Abs(ref32[j]) + 1e-14*nrm
					if bk.f32 {
						tol32 = blocks32Tol(bk, lim32, x32, j, ref32[j]) + 1e-14*nrm
					}
					if w := ref32[j]; !(math.Abs(float64(out32[i*d+j])-w) <= tol32) {
						t.Fatalf("input %d component %d: float32 %v, float64 at the rounded input %v (difference %.3g > %.3g)", i, j, out32[i*d+j], w, math.Abs(float64(out32[i*d+j])-w), tol32)
					}
					if tol32 > 0 {
						worst32 = math.Max(worst32, math.Abs(float64(out32[i*d+j])-ref32[j])/tol32)
					}
				}
			}
			// The NaN and Inf rows: zeros in the first block, the
			// reference's values elsewhere (checked above).
			b0 := m.Blocks().Parts[0].Dim()
			for _, i := range []int{2, 3} {
				for j := range b0 {
					if out64[i*d+j] != 0 {
						t.Fatalf("input %d (non-finite in block 0): component %d = %v, want 0", i, j, out64[i*d+j])
					}
				}
			}
			if mod := m.Model; mod != nil {
				checkBlocksModel(t, c.name, m, c.xs[:c.huge], dump)
			}
			t.Logf("%s: D = %d, %d inputs: max |N(x) − Eval(x)|/‖Eval(x)‖ = %.3g (largest phase %.4g); at most %.3g of the tolerance max(1e-14, 2e-15·(32 + 4·phase)); NF32 at most %.3g of its tolerance (float32 path %v)",
				c.name, d, len(c.xs), worst, maxPhase, worstScaled, worst32, bk.f32)
			if worstScaled > 1 {
				t.Errorf("N differs from the reference evaluator by %.3g of the tolerance max(1e-14, 2e-15·(32 + 4·phase)) relative to ‖Ψ(x)‖", worstScaled)
			}
		})
	}
}

// blocks32Tol is the bound a blocks map's file states for component j of
// its float32 path at the float32 input x against the float64 value ref
// there: for block g of the component, s_g·c·(2⁻²³ + (n_g + 2)·2⁻²⁴·
// (Σₗ|ωᵢₗxₗ| (+ |bᵢ|))) + 2⁻²⁴·|ref| for frequency i, or 2⁻²⁴·|ref| where
// the block's inputs are beyond its ±L32 or not finite (the float64 value
// rounded). lim32 holds each block's L32 (limit32).
func blocks32Tol(bk *blocksKind, lim32, x []float64, j int, ref float64) float64 {
	g := 0
	for g+1 < len(bk.offsets) && bk.offsets[g+1] <= j {
		g++
	}
	b, rk := &bk.b.Parts[g], bk.kinds[g]
	xg := x[b.First : b.Last+1]
	for _, v := range xg {
		if !(math.Abs(v) <= lim32[g]) {
			return 0x1p-24 * math.Abs(ref)
		}
	}
	s := phaseSum(rk, xg, (j-bk.offsets[g])/rk.perFreq())
	return math.Abs(rk.featScale())*(0x1p-23+float64(rk.args+2)*0x1p-24*s)*(1+1e-9) + 0x1p-24*math.Abs(ref) + 0x1p-149
}

// checkBlocksModel checks the emitted predictor of a blocks map with a
// model against the model's scores of the reference Ψ(x): within 1e-13
// of Σ_j |w_j Ψ_j(x)| + |b| (the sums' rounding and Ψ's), and NClass the
// label of the largest emitted score.
func checkBlocksModel(t *testing.T, name string, m *fmap.Map, xs [][]float64, dump string) {
	t.Helper()
	mod := m.Model
	k := mod.Outputs()
	sc := readF64(t, filepath.Join(dump, name+".scores"))
	var cl []float64
	if mod.Classes != nil {
		cl = readF64(t, filepath.Join(dump, name+".class"))
	}
	psi, ref := make([]float64, m.Dim), make([]float64, k)
	worst := 0.0
	for i, x := range xs {
		m.Eval(psi, x)
		mod.Scores(ref, psi)
		for c := range k {
			scale := math.Abs(mod.Bias[c])
			for j, z := range psi {
				scale += math.Abs(mod.W[j*k+c] * z)
			}
			e := math.Abs(sc[i*k+c]-ref[c]) / scale
			worst = math.Max(worst, e)
			if e > 1e-13 {
				t.Fatalf("%s: input %d score %d: %v, reference %v", name, i, c, sc[i*k+c], ref[c])
			}
		}
		if cl != nil {
			if want := mod.Class(sc[i*k : (i+1)*k]); cl[i] != want {
				t.Fatalf("%s: input %d: class %v, the largest emitted score's %v", name, i, cl[i], want)
			}
		}
	}
	t.Logf("%s: %d scores per input: max |score − reference|/(Σ|w_j Ψ_j| + |b|) = %.3g", name, k, worst)
}
