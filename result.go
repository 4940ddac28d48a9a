package featmap

import (
	"math"

	"github.com/featmap/featmap/fmap"
)

// DesignJSON is the machine-readable form of a Design, as printed by
// `featmap design -json`.
type DesignJSON struct {
	Name    string      `json:"name"`
	Spec    string      `json:"spec"`
	SpecSHA string      `json:"spec_sha256"`
	Kernel  fmap.Kernel `json:"kernel"`
	Method  string      `json:"method"`
	Dim     int         `json:"dim"`
	// Errors is the verified error in the measure the spec asked for.
	Errors ErrorsJSON `json:"errors"`
	// Verification holds every measured error of the map.
	Verification *fmap.Verification `json:"verification"`
	// Stages are the steps of the design pipeline with their errors.
	Stages []StageJSON `json:"stages,omitempty"`
	Map    *fmap.Map   `json:"map"`
	// Learned is what a learn section learned (the kernel's σ) before the
	// design, nil without one.
	Learned *LearnedJSON `json:"learned,omitempty"`
	// GroupLasso is what an rff-group-lasso spec learned (nil otherwise).
	GroupLasso *GroupLassoJSON `json:"group_lasso,omitempty"`
	LPs        int             `json:"lps,omitempty"`
	Seconds    float64         `json:"seconds"`
	// LearnSeconds is learning's time before the design (absent without).
	LearnSeconds float64 `json:"learn_seconds,omitempty"`
	// Search is the target.max_error search (absent for target.dim): every
	// D tried with its error, and its wall time.
	Search *Search `json:"search,omitempty"`
	// Auto is method auto's choice (absent for a named method): the
	// winner, the runner-up and by how much, every candidate.
	Auto    *AutoChoice `json:"auto,omitempty"`
	Version string      `json:"featmap_version"`
}

// LearnedJSON is what a learn section learned: the rbf kernel's σ per
// input axis from its start, on how many rows to fit of which data, and
// the validation error (mean squared residual over the validation rows)
// before and after.
type LearnedJSON struct {
	Sigma            []float64 `json:"sigma"`
	Start            []float64 `json:"start"`
	Train            int       `json:"train_rows"`
	Validation       int       `json:"validation_rows"`
	ValidationBefore float64   `json:"validation_error_before"`
	ValidationAfter  float64   `json:"validation_error_after"`
	Iterations       int       `json:"iterations"`
	// Ridge is the ridge λ of ValidationAfter (and of the model);
	// RidgeAuto says it was chosen on the validation split (learn.ridge:
	// auto), RidgeStart the λ σ was learned with.
	Ridge      float64 `json:"ridge"`
	RidgeStart float64 `json:"ridge_start"`
	RidgeAuto  bool    `json:"ridge_auto,omitempty"`
	DataFile   string  `json:"data_file"`
	DataSHA256 string  `json:"data_sha256"`
	// Shared is the shared σ per-axis learning started from (absent for
	// a shared σ); Penalty the weight of Σ log²(σ/σ_start) it used.
	Shared  []float64 `json:"shared_sigma,omitempty"`
	Penalty float64   `json:"penalty,omitempty"`
	// Task is classification or regression (learn.task, or decided from
	// the labels); Features the random Fourier features σ was learned on.
	Task     string `json:"task,omitempty"`
	Features int    `json:"features,omitempty"`
	// AccuracyBefore and AccuracyAfter are, for classes, the validation
	// accuracy at the start and at the learned σ (ValidationBefore and
	// ValidationAfter are the squared loss learning minimised).
	AccuracyBefore *float64 `json:"validation_accuracy_before,omitempty"`
	AccuracyAfter  *float64 `json:"validation_accuracy_after,omitempty"`
	// PerAxis is how per-axis widths compared with the shared σ they were
	// learned from (absent for a shared σ): learn.PerAxisChoice.
	PerAxis *PerAxisJSON `json:"per_axis,omitempty"`
	// ModelRows is the rows the model a learned map carries was trained on
	// once σ and λ were chosen on the validation split: every row to fit
	// (learning's training and validation rows together; with
	// data.holdout 0, every row kept).
	ModelRows int `json:"model_rows"`
}

// PerAxisJSON is how per-axis widths compared with the shared σ, by the
// k-fold cross-validated error of each: kept (the per-axis σ is Sigma),
// or set aside (the shared σ is, and set_aside_sigma holds the per-axis
// widths learned).
type PerAxisJSON struct {
	Folds    int       `json:"folds"`
	Shared   *float64  `json:"cv_error_shared"`   // null: its fit failed
	PerAxis  *float64  `json:"cv_error_per_axis"` // null: its fit failed
	StdErr   *float64  `json:"cv_std_error"`
	Kept     bool      `json:"kept"`
	SetAside []float64 `json:"set_aside_sigma,omitempty"`
}

// GroupLassoJSON is what the group lasso of an rff-group-lasso spec
// learned: every kernel's weight d_g (0 for a dropped kernel, which the
// map leaves out), λ, the rows and data it learned from, and the
// validation error (mean squared residual over the validation rows,
// summed over the targets) of no kernel, of every kernel with equal
// weights (before) and of the refit on the kept kernels (after).
type GroupLassoJSON struct {
	Kernels          []GroupLassoKernelJSON `json:"kernels"`
	Lambda           float64                `json:"lambda"`
	LambdaMax        float64                `json:"lambda_max"`
	DimPerKernel     int                    `json:"dim_per_kernel"`
	Train            int                    `json:"train_rows"`
	Validation       int                    `json:"validation_rows"`
	ValidationNone   float64                `json:"validation_error_no_kernel"`
	ValidationBefore float64                `json:"validation_error_before"`
	ValidationAfter  float64                `json:"validation_error_after"`
	DataFile         string                 `json:"data_file"`
	DataSHA256       string                 `json:"data_sha256"`
	DataRows         int                    `json:"data_rows"`
}

// GroupLassoKernelJSON is one kernel of GroupLassoJSON: its data columns,
// its weight d_g and share d_g/Σd, and whether it was dropped.
type GroupLassoKernelJSON struct {
	Kernel  fmap.Kernel `json:"kernel"`
	Columns [2]int      `json:"columns"`
	Weight  float64     `json:"weight"`
	Share   float64     `json:"share"`
	Dropped bool        `json:"dropped"`
}

// ErrorsJSON is the reported error of a design.
type ErrorsJSON struct {
	LInf    float64      `json:"linf"`
	RMS     float64      `json:"rms"`
	Measure fmap.Measure `json:"measure"`
	On      string       `json:"on"`
}

// StageJSON is one step of a design with its measured error.
type StageJSON struct {
	Name string  `json:"name"`
	LInf float64 `json:"linf"`
	RMS  float64 `json:"rms"`
}

// JSON returns d in its machine-readable form.
func (d *Design) JSON() *DesignJSON {
	v := d.Verification
	out := &DesignJSON{
		Name:         d.Spec.Name,
		Spec:         d.Spec.Path,
		SpecSHA:      d.Spec.Hash,
		Kernel:       d.Map.Kernel,
		Method:       d.Method.Name(),
		Dim:          d.Map.Dim,
		Errors:       ErrorsJSON{LInf: v.Reported.LInf, RMS: v.Reported.RMS, Measure: v.Measure, On: v.Reported.On},
		Verification: &v,
		Map:          d.Map,
		LPs:          d.LPs,
		Seconds:      d.Seconds,
		LearnSeconds: d.LearnSeconds,
		Search:       d.Search,
		Auto:         d.Auto,
		Version:      Version,
	}
	if l := d.Learned; l != nil {
		data := d.Problem.Data
		out.Learned = &LearnedJSON{Sigma: l.Sigma, Start: l.Start, Train: l.Train, Validation: l.Held,
			ValidationBefore: l.ValidationBefore, ValidationAfter: l.ValidationAfter, Iterations: l.Iterations,
			Ridge: l.Ridge, RidgeStart: l.RidgeStart, RidgeAuto: d.Spec.Learn != nil && d.Spec.Learn.RidgeAuto,
			DataFile: data.File, DataSHA256: data.SHA256, Shared: l.Shared, Penalty: l.Penalty, Task: d.Spec.Learn.Task,
			Features: d.LearnDim}
		if mod := d.Map.Model; mod != nil {
			out.Learned.ModelRows = mod.Rows
		}
		if l.Classes != nil {
			before, after := l.AccuracyBefore, l.AccuracyAfter
			out.Learned.AccuracyBefore, out.Learned.AccuracyAfter = &before, &after
		}
		if c := l.PerAxis; c != nil {
			out.Learned.PerAxis = &PerAxisJSON{Folds: c.Folds, Shared: finite(c.Shared), PerAxis: finite(c.PerAxis), StdErr: finite(c.StdErr), Kept: c.Kept, SetAside: c.Sigma}
		}
	}
	out.GroupLasso = d.groupLassoJSON()
	for _, st := range d.Steps {
		out.Stages = append(out.Stages, StageJSON{Name: st.Name, LInf: st.Error.LInf, RMS: st.Error.RMS})
	}
	return out
}

// groupLassoJSON is what the group lasso learned, nil for other specs.
func (d *Design) groupLassoJSON() *GroupLassoJSON {
	s, r := d.Spec, d.GroupLasso
	if s.GroupLasso == nil || r == nil {
		return nil
	}
	data := d.Problem.Data
	out := &GroupLassoJSON{Lambda: r.Lambda, LambdaMax: r.LambdaMax, DimPerKernel: r.DimPerKernel, Train: r.Train, Validation: r.Held,
		ValidationNone: r.ValidationNone, ValidationBefore: r.ValidationAll, ValidationAfter: r.RelaxedValidation,
		DataFile: data.File, DataSHA256: data.SHA256, DataRows: data.Rows}
	for g, k := range s.GroupLasso.Kernels {
		out.Kernels = append(out.Kernels, GroupLassoKernelJSON{Kernel: k.Kernel, Columns: [2]int{k.Columns[0] + s.Data.First, k.Columns[1] + s.Data.First},
			Weight: r.KernelWeights[g], Share: r.KernelShares[g], Dropped: r.Zero[g]})
	}
	return out
}

// finite is &v, or nil for a value that is not finite (JSON has none).
func finite(v float64) *float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return nil
	}
	return &v
}
