package design

// ChumOptions tune Chum's LP designer (method "chum"). Every field is
// optional: the zero value selects the documented default.
type ChumOptions struct {
	// OmegaMax is the largest frequency of the discrete pool Ω. Default: 5 for
	// homogeneous kernels (signatures in log space), 5/σ for the RBF kernel.
	OmegaMax float64 `json:"omega_max,omitempty"`
	// Spacing is the step of the discrete pool and the initial trust region
	// d_max of the continuous refinement (Chum §4.2). Default 0.1.
	Spacing float64 `json:"spacing,omitempty"`
	// ZPoints is the size |Z| of the evaluation set. Default: a step of 0.01
	// on [0, M] for homogeneous kernels; for the RBF kernel at least 20
	// points per period of OmegaMax.
	ZPoints int `json:"z_points,omitempty"`
	// RefineIterations is the number of continuous-refinement LPs, each
	// halving d_max (Chum §4.2). Default 8.
	RefineIterations int `json:"refine_iterations,omitempty"`
	// NoPolish skips the refit and the joint (ω, α) polish beyond the paper.
	NoPolish bool `json:"no_polish,omitempty"`
	// Starts is the number of polish starts (distinct LP candidates,
	// structured ladders and random ones). Default 16.
	Starts int `json:"starts,omitempty"`
	// Seed seeds every random choice of the design. 0 selects the default,
	// 1.
	Seed int64 `json:"seed,omitempty"`
}
