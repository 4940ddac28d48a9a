package design

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/featmap/featmap/solver"
)

// withDefaults fills in the documented defaults of o for p.
func (o ChumOptions) withDefaults(p *Problem) ChumOptions {
	if o.OmegaMax <= 0 {
		o.OmegaMax = p.OmegaMax
	}
	if o.Spacing <= 0 {
		o.Spacing = 0.1
	}
	if o.ZPoints <= 0 {
		o.ZPoints = int(math.Ceil(p.M/p.ZStep)) + 1
	}
	return o.fitDefaults()
}

// fitDefaults fills in the defaults of the options every fitting problem
// uses (refinement, polish starts, seed).
func (o ChumOptions) fitDefaults() ChumOptions {
	if o.RefineIterations <= 0 {
		o.RefineIterations = 8
	}
	if o.Starts <= 0 {
		o.Starts = 16
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	return o
}

// MaxPool and MaxZ bound the LP sizes a 1-D design accepts.
const (
	MaxPool = 2000
	MaxZ    = 20000
)

// Chum designs a one-dimensional map of dimension dim for p with Chum's LP
// method (Fit): the pool is ω = 0, s, 2s, … up to opt.OmegaMax with s =
// opt.Spacing, Z is a grid of opt.ZPoints points on [0, M] (or, when the
// problem has an exact set, its heaviest point in each grid cell), and the
// polish also starts from evenly spaced and geometric frequency ladders.
func Chum(p *Problem, dim int, opt ChumOptions, sv solver.Backend, progress func(string)) (*Result, error) {
	if err := p.Check(); err != nil {
		return nil, err
	}
	if dim < 1 {
		return nil, fmt.Errorf("design: dimension %d", dim)
	}
	opt = opt.withDefaults(p)
	poolSize := int(math.Floor(opt.OmegaMax/opt.Spacing+1e-9)) + 1
	switch {
	case poolSize > MaxPool:
		return nil, fmt.Errorf("design: the pool has %d frequencies (omega_max %g / spacing %g), more than %d: raise method.spacing or lower method.omega_max", poolSize, opt.OmegaMax, opt.Spacing, MaxPool)
	case opt.ZPoints > MaxZ:
		return nil, fmt.Errorf("design: |Z| = %d exceeds %d: lower method.z_points", opt.ZPoints, MaxZ)
	case opt.ZPoints < 3:
		return nil, fmt.Errorf("design: |Z| = %d is too small", opt.ZPoints)
	}
	fp := &FitProblem{
		Template:  *p.newMap("chum"),
		Signature: func(l []float64) float64 { return p.Signature(l[0]) },
		Norm:      p.Norm,
		Spacing:   opt.Spacing,
		Ladders:   ladders(opt.OmegaMax),
		Reference: p.Reference,
	}
	for j := range poolSize {
		fp.Pool = append(fp.Pool, []float64{float64(j) * opt.Spacing})
	}
	var z, w []float64
	if p.Exact != nil {
		z, w = p.Exact.cells(p.M, p.M/float64(opt.ZPoints-1))
		fp.ZOn = fmt.Sprintf("Z: the heaviest of the domain's %d attainable λ in each of %d cells of [0, %.6g]", len(p.Exact.Lambda), opt.ZPoints-1, p.M)
		fp.Exact, fp.ExactWeight = points(p.Exact.Lambda), p.Exact.Weight
	} else {
		z = grid(p.M, opt.ZPoints-1)
		fp.ZOn = fmt.Sprintf("Z: %d equally spaced λ in [0, %.6g]", len(z), p.M)
		w = make([]float64, len(z))
		for i, l := range z {
			w[i] = p.Weight(l)
		}
	}
	fp.Z, fp.ZWeight = points(z), w
	return Fit(fp, dim, opt, sv, progress)
}

// points turns scalars into one-dimensional points.
func points(v []float64) [][]float64 {
	out := make([][]float64, len(v))
	for i, x := range v {
		out[i] = []float64{x}
	}
	return out
}

// ladders returns the structured and random 1-D polish starts: evenly
// spaced and geometric ladders topping at the best candidate's largest
// frequency and at twice it, and log-uniform random frequencies in
// [scale/10, 3·scale]. A map of odd dimension keeps its constant term.
func ladders(omegaMax float64) func(best [][]float64, dim int, rng *rand.Rand) ([][][]float64, [][][]float64) {
	return func(best [][]float64, dim int, rng *rand.Rand) ([][][]float64, [][][]float64) {
		p := dim / 2
		if p == 0 {
			return nil, nil
		}
		scale := 0.0
		for _, om := range best {
			scale = math.Max(scale, om[0])
		}
		if scale == 0 {
			scale = omegaMax / 2
		}
		set := func(freqs []float64) [][]float64 {
			s := slices.Clone(freqs)
			slices.Sort(s)
			if dim%2 == 1 {
				s = append([]float64{0}, s...)
			}
			return points(s)
		}
		var structured, random [][][]float64
		ladder := make([]float64, p)
		for _, top := range []float64{1, 2} {
			for _, f := range []float64{1, 0.7} { // evenly spaced
				for j := range ladder {
					ladder[j] = f * top * scale * float64(j+1) / float64(p)
				}
				structured = append(structured, set(ladder))
			}
			for _, r := range []float64{2, 3} { // geometric
				for j := range ladder {
					ladder[j] = top * scale * math.Pow(r, float64(j+1-p))
				}
				structured = append(structured, set(ladder))
			}
		}
		for range 32 {
			for j := range ladder {
				ladder[j] = scale * math.Exp(math.Log(0.1)+rng.Float64()*math.Log(30))
			}
			random = append(random, set(ladder))
		}
		return structured, random
	}
}
