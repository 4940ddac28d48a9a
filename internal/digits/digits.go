// Package digits reads the digits data set the tests use
// (testdata/digits.csv.gz: scikit-learn's 8×8 digits, 64 pixel counts 0–16
// and a label per row; see testdata/README.md) and derives what the tests
// measure on it.
package digits

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// Inputs is the number of pixels, the inputs of a row.
const Inputs = 64

// Load returns the first rows rows of the gzip'd CSV file at path, without
// their labels.
func Load(path string, rows int) ([][]float64, error) {
	xs, _, err := LoadLabelled(path, rows)
	return xs, err
}

// LoadLabelled returns the first rows rows of the gzip'd CSV file at path
// and their labels (the last column).
func LoadLabelled(path string, rows int) ([][]float64, []float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	var out [][]float64
	var labels []float64
	sc := bufio.NewScanner(z)
	for line := 1; len(out) < rows && sc.Scan(); line++ {
		fields := strings.Split(sc.Text(), ",")
		if len(fields) != Inputs+1 {
			return nil, nil, fmt.Errorf("%s:%d: %d columns, want %d", path, line, len(fields), Inputs+1)
		}
		x := make([]float64, Inputs)
		for j := range x {
			if x[j], err = strconv.ParseFloat(fields[j], 64); err != nil {
				return nil, nil, fmt.Errorf("%s:%d: column %d: %w", path, line, j, err)
			}
		}
		y, err := strconv.ParseFloat(fields[Inputs], 64)
		if err != nil {
			return nil, nil, fmt.Errorf("%s:%d: the label: %w", path, line, err)
		}
		out, labels = append(out, x), append(labels, y)
	}
	if err := sc.Err(); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(out) < rows {
		return nil, nil, fmt.Errorf("%s: %d rows, want %d", path, len(out), rows)
	}
	return out, labels, nil
}

// L1Normalised returns the rows divided by their sums (histograms); a
// row of zeros stays zero.
func L1Normalised(xs [][]float64) [][]float64 {
	out := make([][]float64, len(xs))
	for i, x := range xs {
		var s float64
		for _, v := range x {
			s += v
		}
		out[i] = make([]float64, len(x))
		for j, v := range x {
			if s > 0 {
				out[i][j] = v / s
			}
		}
	}
	return out
}

// MedianDistance is the median Euclidean distance over the pairs i < j of
// the rows (the "median heuristic" width of a Gaussian kernel).
func MedianDistance(xs [][]float64) float64 {
	var d []float64
	for i := range xs {
		for j := i + 1; j < len(xs); j++ {
			var s float64
			for k := range xs[i] {
				s += (xs[i][k] - xs[j][k]) * (xs[i][k] - xs[j][k])
			}
			d = append(d, math.Sqrt(s))
		}
	}
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}
