// Package homogeneous holds the γ-homogeneous additive kernels (χ²,
// intersection, Jensen–Shannon, Hellinger): their kernels, signatures and
// spectra, the log-domain design problem with the error weights w_A and w_R,
// and the closed-form maps of Vedaldi–Zisserman, Li's direct χ² series and
// the Chebyshev χ² series. Every method here returns a design.Map.
package homogeneous

// Window is the spectral window of the Vedaldi–Zisserman map.
type Window string

// The windows of VLFeat's vl_homkermap.
const (
	Uniform     Window = "uniform"
	Rectangular Window = "rectangular"
)

// VZOptions tune the Vedaldi–Zisserman homogeneous kernel map (method "vz").
type VZOptions struct {
	// Period is Λ; 0 selects VLFeat's default formula for the kernel,
	// window and order.
	Period float64 `json:"period,omitempty"`
	// Window is the spectral window; "" means Rectangular (VLFeat's MATLAB
	// default).
	Window Window `json:"window,omitempty"`
}

// LiOptions tune Li's direct χ² series (method "li"). At most one of K and
// Values is set; with neither, Algorithm 1 runs on a log-uniform density
// over the domain.
type LiOptions struct {
	// K gives the parameters k_1..k_N explicitly (N must equal the target
	// dimension).
	K []float64 `json:"k,omitempty"`
	// Bins is the number of logarithmic histogram bins of Algorithm 1.
	// Default 100.
	Bins int `json:"bins,omitempty"`
	// Values are data samples (nonnegative) for the data-driven variant of
	// Algorithm 1, read from the spec's method.data file.
	Values []float64 `json:"-"`
	// Data is the file the values came from, as written in the spec.
	Data string `json:"data,omitempty"`
}
