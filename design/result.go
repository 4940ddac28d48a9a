package design

import "github.com/featmap/featmap/fmap"

// Result is a finished design: the map and the steps that led to it.
type Result struct {
	Map *fmap.Map
	// Steps are the intermediate designs of an optimising method, in
	// order (nil for closed forms).
	Steps []Step
	// LPs is the number of linear programs solved.
	LPs int
	// DesignSet, if set, is the evaluation set Z the method optimised on,
	// named in words: the verification measures the map on it too.
	DesignSet   [][]float64
	DesignSetOn string
	// Seconds, if set, is the time the design took, for a method that
	// makes it from earlier designs it remembers (chum's designs of the
	// dimensions below): their time counts, whoever asked for them.
	Seconds float64
}

// Step is one step of a design pipeline, e.g. Chum's discrete LP.
type Step struct {
	Name string
	Map  *fmap.Map
}
