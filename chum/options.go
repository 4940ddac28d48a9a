package chum

// FitOptions tune Chum's LP designer (Fit) wherever it runs: chum and the
// multi-dimensional LP methods. Every field is optional: the zero value
// selects the documented default. The yaml tags are the spec keys and the
// spec tags their limits.
type FitOptions struct {
	// RefineIterations is the number of continuous-refinement LPs, each
	// halving d_max (Chum §4.2). Default 8.
	RefineIterations int `yaml:"refine_iterations" spec:"min=1,max=50,default=8"`
	// Polish, unless false, adds the refit and the joint (ω, α) polish
	// beyond the paper. Default true.
	Polish *bool `yaml:"polish" spec:"default=true"`
	// Starts is the number of polish starts (distinct LP candidates,
	// structured ladders and random ones). Default 16 for chum.
	Starts int `yaml:"starts" spec:"min=1,max=1000"`
	// Seed seeds every random choice of the design. 0 selects the default,
	// 1.
	Seed int64 `yaml:"seed" spec:"default=1"`
}

// polish reports whether the polish runs.
func (o FitOptions) polish() bool { return o.Polish == nil || *o.Polish }

// fitDefaults fills in the defaults of the options every fitting problem
// uses (refinement, polish starts, seed).
func (o FitOptions) fitDefaults() FitOptions {
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

// ChumOptions tune Chum's one-dimensional designer (method "chum").
type ChumOptions struct {
	// OmegaMax is the largest frequency of the discrete pool Ω. Default: 5 for
	// homogeneous kernels (signatures in log space), 5/σ for the RBF kernel.
	OmegaMax float64 `yaml:"omega_max" spec:"positive"`
	// Spacing is the step of the discrete pool and the initial trust region
	// d_max of the continuous refinement (Chum §4.2). Default 0.1.
	Spacing float64 `yaml:"spacing" spec:"positive"`
	// ZPoints is the size |Z| of the evaluation set. Default: a step of 0.01
	// on [0, M] for homogeneous kernels; for the RBF kernel at least 20
	// points per period of OmegaMax.
	ZPoints int `yaml:"z_points" spec:"min=3,max=20000"`
	// Continuation, unless false, designs every dimension below the one
	// asked for and continues from the design of D − 1 (Chum's doc
	// comment): one more dimension then never fits worse. false designs
	// D alone, without that guarantee and in a fraction of the time
	// (docs/lp-design.md, "The levels below D"). Default true.
	Continuation *bool `yaml:"continuation" spec:"default=true"`
	FitOptions   `yaml:",inline"`
}

// continuation reports whether a design continues from the one below it.
func (o ChumOptions) continuation() bool { return o.Continuation == nil || *o.Continuation }
