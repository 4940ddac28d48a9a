package fmap

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// MaxNumberLabel is the largest magnitude of a label taken as a number (a
// regression's target): the squared errors of larger labels, which
// learning, a model's RMSE and eval sum over the rows, overflow float64
// (labels near 1e155 did).
const MaxNumberLabel = 1e150

// LinearModel is a linear model on a map's features Ψ(x) ∈ ℝᴰ with K
// outputs: score_c(x) = Σ_j W[j*K+c]·Ψ_j(x) + Bias[c]. For classes
// (Classes not nil, K = len(Classes)) score c is class Classes[c]'s
// one-vs-rest score and the predicted class is the one of the largest
// score; for regression (Classes nil) K = 1 and the score is the
// prediction. It is plain data and round-trips through encoding/json.
type LinearModel struct {
	// Classes are the class labels in output order, sorted (nil for
	// regression).
	Classes []float64 `json:"classes,omitempty"`
	// W is D×K, row-major; Bias has K entries.
	W    []float64 `json:"w"`
	Bias []float64 `json:"bias"`
	// Ridge is the λ of the ridge fit that made it; RidgeFrom says where
	// it came from (one of the Ridge… constants; "" when not recorded).
	Ridge     float64 `json:"ridge"`
	RidgeFrom string  `json:"ridge_from,omitempty"`
	// Rows is the number of rows it was trained on, from the data file
	// whose SHA-256 is DataSHA256.
	Rows       int    `json:"train_rows"`
	DataSHA256 string `json:"data_sha256,omitempty"`
	// HeldRows is the number of held-out rows (never trained on) it was
	// measured on: HeldAccuracy is the fraction classified right
	// (classes), HeldRMSE the root mean squared error (regression).
	HeldRows     int     `json:"held_rows"`
	HeldAccuracy float64 `json:"held_accuracy,omitempty"`
	HeldRMSE     float64 `json:"held_rmse,omitempty"`
}

// Where a model's ridge λ came from (LinearModel.RidgeFrom): the learn
// section's default, the value it gave, chosen on the validation split
// (learn.ridge: auto), or the fixed λ of a kernels section's model.
const (
	RidgeDefault    = "default"
	RidgeGiven      = "given"
	RidgeValidation = "validation"
	RidgeFixed      = "fixed"
)

// Outputs is the number K of scores.
func (l *LinearModel) Outputs() int { return len(l.Bias) }

// Scores writes the K scores of the features z = Ψ(x) to dst.
func (l *LinearModel) Scores(dst, z []float64) {
	k := len(l.Bias)
	copy(dst, l.Bias)
	for j, zj := range z {
		for c := range k {
			dst[c] += l.W[j*k+c] * zj
		}
	}
}

// Class is the label of the largest of the scores (the first on ties);
// NaN for a regression model.
func (l *LinearModel) Class(scores []float64) float64 {
	if l.Classes == nil {
		return math.NaN()
	}
	best := 0
	for c, v := range scores {
		if v > scores[best] {
			best = c
		}
	}
	return l.Classes[best]
}

func (l *LinearModel) validate(dim int) error {
	k := len(l.Bias)
	switch {
	case k == 0:
		return errors.New("fmap: model without outputs")
	case l.Classes == nil && k != 1:
		return fmt.Errorf("fmap: regression model with %d outputs, want 1", k)
	case l.Classes != nil && len(l.Classes) != k:
		return fmt.Errorf("fmap: model with %d classes and %d outputs", len(l.Classes), k)
	case len(l.W) != dim*k:
		return fmt.Errorf("fmap: model with %d weights, want D×K = %d×%d", len(l.W), dim, k)
	case l.Rows < 0 || l.HeldRows < 0:
		return fmt.Errorf("fmap: model of %d rows, %d held out", l.Rows, l.HeldRows)
	}
	if l.Classes != nil && (!slices.IsSorted(l.Classes) || len(slices.Compact(slices.Clone(l.Classes))) != k) {
		return errors.New("fmap: model classes are not sorted and distinct")
	}
	for _, vs := range [][]float64{l.Classes, l.W, l.Bias, {l.Ridge, l.HeldAccuracy, l.HeldRMSE}} {
		for _, v := range vs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("fmap: model has a non-finite value %v", v)
			}
		}
	}
	return nil
}
