package sampled

import (
	"github.com/featmap/featmap/chum"
	"github.com/featmap/featmap/design"
)

// The tests design exp-χ² maps with the inner map package registry gives.
func init() { SetDefaultInner(func() design.Method { return &chum.Chum{} }) }
