package codegen

import (
	"fmt"
	"math"

	"github.com/featmap/featmap/fmap"
)

// Limits and choices of the random-feature emission.
const (
	// MaxLiterals caps the constants of a map written as Go literals (a
	// random stage's frequency coordinates and phases and what follows
	// them in the data file, a Nyström map's landmarks and projection, an
	// anchor map's tables): 4096 numbers are about 100 kB of source, which
	// go build compiles in a fraction of a second. Beyond, they go to a
	// little-endian data file beside the Go file, embedded with
	// //go:embed and decoded once at package init.
	MaxLiterals = 4096
	// maxArgs caps the length of the random stage's argument t (n, or n·d
	// after a per-coordinate stage): the emitted code keeps it in a stack
	// array of that many float64, 64 KiB, half of the largest variable the
	// Go compiler keeps on the stack (128 KiB; larger ones would be
	// allocated on the heap at every call).
	maxArgs = 8192
	// seqTerms: dot products of fewer terms are one sum in the reference
	// evaluator's order; longer ones are `accumulators` independent
	// partial sums (added pairwise at the end), so that the additions of
	// one row overlap instead of waiting for each other. Four keep the
	// floating-point adder busy without FMA; eight, or two rows at a time,
	// measured no faster (BenchmarkRFF64).
	seqTerms     = 8
	accumulators = 4
)

// randomPlan is what Generate decided for a random-feature map: the
// random stage, the per-coordinate map before it, and where its constants
// go. Every component is computed by the formula, the sines and cosines
// by math.Sincos's own arithmetic (emitter.sincos): no fast path, no
// error beyond rounding.
type randomPlan struct {
	r     *fmap.Random
	freqs int // m
	args  int // the random stage's inputs: n, or n·d after a per-coordinate stage
	// scale is the factor of every component: 1/√m (cos-sin) or √(2/m)
	// (phase), computed as the reference evaluator does.
	scale float64
	// inner is the plan of the per-coordinate map ψ (nil for a random
	// stage alone): its formula, without fast paths.
	inner *plan
	// lin is the projection of an rf-pca map (nil otherwise); projT is its
	// matrix transposed, row j (projT[j*k:(j+1)*k]) the k coefficients of
	// random feature z_j, so that N adds P_ij·(z_j − μ_j) to every output
	// as feature j is computed (no scratch of the m features) while each
	// output is still one sum over j in the reference evaluator's order.
	lin   *fmap.Linear
	projT []float64
	// data is the data file of the constants (ω row-major, then the
	// phases, then projT and the mean of an rf-pca map), nil when they are
	// Go literals.
	data *dataFile
	// model is the map's linear model (nil without one): its weights and
	// biases follow the other constants in the data file.
	model *fmap.LinearModel
}

// constants is the number of constants of the random stage (and of the
// projection after it).
func (r *randomPlan) constants() int {
	n := len(r.r.Freq) + len(r.r.Phase)
	if r.lin != nil {
		n += len(r.lin.Proj) + len(r.lin.Mean)
	}
	if r.model != nil {
		n += len(r.model.W) + len(r.model.Bias)
	}
	return n
}

// centred reports whether an rf-pca map subtracts a mean before projecting.
func (r *randomPlan) centred() bool { return r.lin != nil && len(r.lin.Mean) > 0 }

func newRandomPlan(p *plan) (*randomPlan, error) {
	m := p.m
	r := m.Random
	if err := checkPhases(m); err != nil {
		return nil, err
	}
	rp := &randomPlan{r: r, freqs: r.Frequencies(), args: r.In, model: m.Model}
	if rp.args > maxArgs {
		return nil, fmt.Errorf("codegen: the random features take %d inputs; the emitted code keeps them in a stack array of at most %d", rp.args, maxArgs)
	}
	if r.Features == fmap.CosSin {
		rp.scale = math.Sqrt(1 / float64(rp.freqs))
	} else {
		rp.scale = math.Sqrt(2 / float64(rp.freqs))
	}
	if in := m.Inner; in != nil {
		ip := &plan{m: in, info: p.info, name: p.priv + "Inner", priv: p.priv + "Inner", dim: in.Dim, in: 1}
		if in.Form == fmap.FourierForm || in.Form == fmap.Modulation {
			ip.axes = axesOf(in)
		}
		rp.inner = ip
	}
	if l := m.Linear; l != nil {
		k := l.Dim()
		rp.lin = l
		rp.projT = make([]float64, len(l.Proj))
		for i := range k {
			for j := range l.In {
				rp.projT[j*k+i] = l.Proj[i*l.In+j]
			}
		}
	}
	var modelW, modelB []float64
	if mod := m.Model; mod != nil {
		modelW, modelB = mod.W, mod.Bias
	}
	rp.data = newDataFile(r.Freq, r.Phase, rp.projT, rp.centredMean(), modelW, modelB)
	return rp, nil
}

// centredMean is the mean μ of a centred rf-pca map, nil otherwise.
func (r *randomPlan) centredMean() []float64 {
	if r.centred() {
		return r.lin.Mean
	}
	return nil
}
