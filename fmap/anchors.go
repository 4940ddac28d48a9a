package fmap

import (
	"errors"
	"fmt"
	"math"
)

// Assign is how an anchor map turns an input into features: from its
// nearest anchor, or from two anchors (Wang et al., ANNFM, §3; see
// docs/formulas.md §4.1).
type Assign string

// The assignments.
const (
	// Nearest1 is ψ(x) = φ(a_nn(x)), ties between two anchors going to the
	// upper one.
	Nearest1 Assign = "1nn"
	// Pair2Linear interpolates between the two anchors that bracket x:
	// ψ(x) = (1 − w)φ(a_i) + wφ(a_{i+1}), w = (x − a_i)/(a_{i+1} − a_i)
	// (not in the paper; docs/formulas.md §4.2 measures it 3× more
	// accurate).
	Pair2Linear Assign = "2nn-linear"
	// Pair2Mean is the paper's ψ(x) = ½φ(a_j) + ½φ(a_k) over the two
	// nearest anchors j, k (ties to the upper one).
	Pair2Mean Assign = "2nn-mean"
)

// AnchorTable is the anchors of one coordinate and their features:
// Points a_0 < … < a_{m−1}, and Features (row-major m×D) the rows φ(a_i)
// of a factor of the anchors' kernel matrix, φ(a_i)·φ(a_j) ≈ k(a_i, a_j).
// Uniform tables have equally spaced points, and their nearest anchor
// is found by arithmetic: i = ⌊(x − a_0)(m − 1)/(a_{m−1} − a_0) + ½⌋.
type AnchorTable struct {
	Uniform  bool      `json:"uniform,omitempty"`
	Points   []float64 `json:"points"`
	Features []float64 `json:"features"`
}

// Anchors is an anchor map (ANNFM; Wang et al. §3) of one input, or of
// every coordinate of a row with a table per coordinate: Tables holds one
// table shared by every coordinate, or one per coordinate (anchors learned
// from the data's columns), and Dim is the number of components per
// coordinate. Inputs beyond the end anchors take the end anchor's
// features, x = 0 maps to 0 (an additive kernel's k(0, y) = 0) and
// x < 0 follows Negative; a non-finite input maps to 0.
type Anchors struct {
	Assign   Assign        `json:"assign"`
	Dim      int           `json:"dim"`
	Negative Negative      `json:"negative"`
	Tables   []AnchorTable `json:"tables"`
}

// Size is the number of anchors of table t.
func (t *AnchorTable) Size() int { return len(t.Points) }

// Row returns the features of anchor i of a table with dim components.
func (t *AnchorTable) Row(i, dim int) []float64 { return t.Features[i*dim : (i+1)*dim] }

func (a *Anchors) validate(in int) error {
	switch {
	case in != 1:
		return fmt.Errorf("fmap: an anchor map takes one input (a coordinate), not %d", in)
	case a.Assign != Nearest1 && a.Assign != Pair2Linear && a.Assign != Pair2Mean:
		return fmt.Errorf("fmap: unknown anchor assignment %q", a.Assign)
	case a.Dim < 1:
		return fmt.Errorf("fmap: an anchor map of dimension %d", a.Dim)
	case len(a.Tables) == 0:
		return errors.New("fmap: an anchor map without tables")
	}
	if err := checkNegative(a.Negative); err != nil {
		return err
	}
	for j := range a.Tables {
		t := &a.Tables[j]
		m := t.Size()
		if m < 1 || len(t.Features) != m*a.Dim {
			return fmt.Errorf("fmap: anchor table %d has %d points and %d features for dimension %d", j, m, len(t.Features), a.Dim)
		}
		if t.Uniform && m < 2 {
			return fmt.Errorf("fmap: uniform anchor table %d has %d point", j, m)
		}
		for i, p := range t.Points {
			if math.IsNaN(p) || math.IsInf(p, 0) || (i > 0 && !(p > t.Points[i-1])) {
				return fmt.Errorf("fmap: anchor table %d: the points are not finite and increasing at %d", j, i)
			}
		}
		for _, v := range t.Features {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return fmt.Errorf("fmap: anchor table %d has a non-finite feature", j)
			}
		}
	}
	return nil
}

// out is the number of components, Dim.
func (a *Anchors) out(int) int { return a.Dim }

// eval writes the stage's output for in to dst: ψ(in[0]) of the first
// table (a map with a table per coordinate is evaluated per coordinate,
// through Coordinate).
func (a *Anchors) eval(dst, in []float64) { a.evalTable(dst, in[0], &a.Tables[0]) }

// evalTable writes ψ(x) of table t to dst.
func (a *Anchors) evalTable(dst []float64, x float64, t *AnchorTable) {
	clear(dst)
	v, sign, ok := homogeneousInput(x, a.Negative)
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	i, j, w := t.Pick(a.Assign, v)
	for c := range dst {
		dst[c] = sign * ((1-w)*t.Features[i*a.Dim+c] + w*t.Features[j*a.Dim+c])
	}
}

// Pick returns the anchors i, j and the weight w with ψ(x) =
// (1 − w)φ(a_i) + wφ(a_j) for assignment as, x finite.
func (t *AnchorTable) Pick(as Assign, x float64) (i, j int, w float64) {
	m := t.Size()
	if m == 1 {
		return 0, 0, 0
	}
	switch as {
	case Nearest1:
		i = t.nearest(x)
		return i, i, 0
	case Pair2Linear:
		i = t.below(x)
		if t.Uniform {
			// The same arithmetic as the index: the fraction of (x − a_0)·s.
			u := (x - t.Points[0]) * t.Scale()
			return i, i + 1, math.Min(1, math.Max(0, u-float64(i)))
		}
		lo, hi := t.Points[i], t.Points[i+1]
		switch {
		case x >= hi:
			w = 1
		case x > lo:
			w = (x - lo) / (hi - lo)
		}
		return i, i + 1, w
	}
	if t.Uniform {
		i = t.below(x)
		return i, i + 1, 0.5
	}
	// The two nearest anchors: the nearest one and the nearer of its
	// neighbours (ties to the upper one).
	n := t.nearest(x)
	switch {
	case n == 0:
		return 0, 1, 0.5
	case n == m-1:
		return m - 2, m - 1, 0.5
	case x-t.Points[n-1] < t.Points[n+1]-x:
		return n - 1, n, 0.5
	}
	return n, n + 1, 0.5
}

// Scale is (m − 1)/(a_{m−1} − a_0) of a uniform table, the factor its
// anchor index is computed with; 0 for other tables.
func (t *AnchorTable) Scale() float64 {
	if !t.Uniform {
		return 0
	}
	m := t.Size()
	return float64(m-1) / (t.Points[m-1] - t.Points[0])
}

// nearest is the index of the anchor nearest to x (ties to the upper one).
func (t *AnchorTable) nearest(x float64) int {
	m := t.Size()
	if t.Uniform {
		u := math.Floor((x-t.Points[0])*t.Scale() + 0.5)
		return int(math.Min(float64(m-1), math.Max(0, u)))
	}
	// The number of midpoints (a_i + a_{i+1})/2 at or below x.
	lo, hi := 0, m-1
	for lo < hi {
		mid := (lo + hi) / 2
		if x >= (t.Points[mid]+t.Points[mid+1])/2 {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// below is the index i ≤ m − 2 of the anchor pair (i, i+1) that brackets x
// (the first or last pair beyond the ends).
func (t *AnchorTable) below(x float64) int {
	m := t.Size()
	if t.Uniform {
		u := math.Floor((x - t.Points[0]) * t.Scale())
		return int(math.Min(float64(m-2), math.Max(0, u)))
	}
	// The number of points a_1..a_{m−2} at or below x.
	lo, hi := 0, m-2
	for lo < hi {
		mid := (lo + hi) / 2
		if x >= t.Points[mid+1] {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo
}

// Anchors returns the map's anchor stage if it is a one-stage anchor map,
// else nil.
func (m *Map) Anchors() *Anchors { return stageOf[*Anchors](m) }

// Coordinates is the number of coordinates a map of one input has
// tables for: an anchor map learned from the data's columns has one per
// column; every other map is the same for every coordinate (1).
func (m *Map) Coordinates() int {
	if a := m.Anchors(); a != nil {
		return len(a.Tables)
	}
	return 1
}

// evalCoordinate writes ψ(v) of coordinate j of a map of one input to
// dst: with table j of a map with a table per coordinate, else the map
// itself.
func (m *Map) evalCoordinate(j int, dst []float64, v float64) {
	if a := m.Anchors(); a != nil && len(a.Tables) > 1 {
		a.evalTable(dst, v, &a.Tables[j])
		return
	}
	m.Eval(dst, []float64{v})
}

// Coordinate returns the map of coordinate j of a map with a table per
// coordinate (see Coordinates): a one-table map sharing m's tables; m
// itself when it is the same for every coordinate.
func (m *Map) Coordinate(j int) *Map {
	a := m.Anchors()
	if a == nil || len(a.Tables) == 1 {
		return m
	}
	aj := *a
	aj.Tables = a.Tables[j : j+1]
	mj := *m
	mj.Stages = []Stage{{Kind: &aj}}
	return &mj
}
