package codegen

import (
	"fmt"
	"math"

	"github.com/featmap/featmap/design/fmap"
)

// Limits and choices of the random-feature emission.
const (
	// maxLiterals caps the constants of a random stage (its frequency
	// coordinates and phases) written as Go literals: 4096 numbers are
	// about 100 kB of source, which go build compiles in a fraction of a
	// second. Beyond, they go to a little-endian data file beside the Go
	// file, embedded with //go:embed and decoded once at package init.
	maxLiterals = 4096
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
	// data is the data file of the constants (ω row-major, then the
	// phases), nil when they are Go literals.
	data *dataFile
}

// constants is the number of constants of the random stage.
func (r *randomPlan) constants() int { return len(r.r.Freq) + len(r.r.Phase) }

func newRandomPlan(p *plan) (*randomPlan, error) {
	m := p.m
	r := m.Random
	rp := &randomPlan{r: r, freqs: r.Frequencies(), args: r.In}
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
	rp.data = newDataFile(r.Freq, r.Phase)
	return rp, nil
}
