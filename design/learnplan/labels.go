package learnplan

import (
	"math"
	"slices"
)

// This file holds which labels learning takes as classes: a task decided
// from the labels when learn.task is not given, and the group lasso's.

// MaxClasses is the most distinct labels learning treats as classes.
const MaxClasses = 256

// Classes reports whether labels are class labels: all integers (of
// magnitude at most MaxClassLabel), at most MaxClasses distinct values.
// Others are numeric targets.
func Classes(labels []float64) bool {
	for _, v := range labels {
		if !IsClassLabel(v) {
			return false
		}
	}
	return Distinct(labels) <= MaxClasses
}

// MaxClassLabel is the largest magnitude of a class label, 2⁵³: beyond
// it every float64 is an integer, so being one says nothing (labels near
// 1e155 are numbers, not 300 classes of a row each).
const MaxClassLabel = 1 << 53

// IsClassLabel reports whether v can be a class label: an integer of
// magnitude at most MaxClassLabel.
func IsClassLabel(v float64) bool {
	return v == math.Trunc(v) && math.Abs(v) <= MaxClassLabel
}

// Distinct is the number of distinct values among labels.
func Distinct(labels []float64) int {
	return len(slices.Compact(slices.Sorted(slices.Values(labels))))
}
