package fmap

import (
	"math"
	"strings"
	"testing"
)

// TestVerifyPerCoordinate: a map with a table per coordinate is verified
// table by table and states its worst coordinate; the data's rows use
// coordinate j's table for value j. Table 0 is exact at its anchors (χ² on
// {1, 2}: φ(a) of the 2×2 kernel matrix's Cholesky factor), table 1 is
// zero, so coordinate 1 is the worst and a row (v, w) maps to (ψ₀(v), 0).
func TestVerifyPerCoordinate(t *testing.T) {
	k := Kernel{Type: Chi2}
	// K = [[1, 4/3], [4/3, 2]]: L = [[1, 0], [4/3, √(2 − 16/9)]].
	good := AnchorTable{Points: []float64{1, 2}, Features: []float64{1, 0, 4.0 / 3, math.Sqrt(2 - 16.0/9)}}
	zero := AnchorTable{Points: []float64{1, 2}, Features: make([]float64, 4)}
	m := &Map{Kernel: k, InDim: 1, Dim: 2, Domain: Domain{Integer: true, Lo: []float64{1}, Hi: []float64{2}}, Method: "annfm",
		Stages: []Stage{{Kind: &Anchors{Assign: Nearest1, Dim: 2, Negative: NegativeSign, Tables: []AnchorTable{good, zero}}}}}
	if err := m.Validate(); err != nil {
		t.Fatal(err)
	}
	p := &Problem{Kernel: k, Domain: m.Domain, Measure: Absolute, Norm: LInf, Negative: NegativeSign,
		Data: &Data{File: "d", Rows: 2, Held: [][]float64{{1, 2}, {2, 1}}}}
	ref, err := p.Reference()
	if err != nil {
		t.Fatal(err)
	}
	v := Verify(m, ref)
	if v.Reported.LInf != 2 || !strings.Contains(v.Reported.On, "at coordinate 1 of 2 (the worst)") {
		t.Errorf("reported %v, want L∞ 2 (k(2, 2) against 0) at coordinate 1", v.Reported)
	}
	if e := Verify(m.Coordinate(0), ref).Reported.LInf; e > 1e-15 {
		t.Errorf("coordinate 0's table: error %g, want exact", e)
	}
	dst := make([]float64, 4)
	RowFeatures(m, dst, []float64{2, 2})
	if want := []float64{4.0 / 3, math.Sqrt(2 - 16.0/9), 0, 0}; math.Abs(dst[0]-want[0]) > 1e-15 || math.Abs(dst[1]-want[1]) > 1e-15 || dst[2] != 0 || dst[3] != 0 {
		t.Errorf("row (2, 2) → %v, want %v", dst, want)
	}
	if v.Data == nil || v.Data.Rows != 2 {
		t.Errorf("data verification %+v, want one on the two rows", v.Data)
	}
}
