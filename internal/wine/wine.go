// Package wine reads the second real data set the tests measure on
// (testdata/wine.csv: the UCI wine recognition data as scikit-learn ships
// it, 178 rows of 13 chemical measurements and a class; see
// testdata/README.md) and standardises it as the measurements do.
package wine

import (
	"bufio"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
)

// Inputs is the number of measurements, the inputs of a row; Rows the
// number of rows of the file.
const (
	Inputs = 13
	Rows   = 178
)

// Load returns the rows of the CSV file at path (13 measurements and a
// class per line, no header) without their classes, and the classes.
func Load(path string) ([][]float64, []float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var xs [][]float64
	var ys []float64
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Split(sc.Text(), ",")
		if len(fields) != Inputs+1 {
			return nil, nil, fmt.Errorf("%s:%d: %d columns, want %d", path, line, len(fields), Inputs+1)
		}
		x := make([]float64, Inputs+1)
		for j := range x {
			if x[j], err = strconv.ParseFloat(fields[j], 64); err != nil {
				return nil, nil, fmt.Errorf("%s:%d: column %d: %w", path, line, j, err)
			}
		}
		xs, ys = append(xs, x[:Inputs]), append(ys, x[Inputs])
	}
	if err := sc.Err(); err != nil {
		return nil, nil, err
	}
	if len(xs) != Rows {
		return nil, nil, fmt.Errorf("%s: %d rows, want %d", path, len(xs), Rows)
	}
	return xs, ys, nil
}

// Standardised returns the rows with every column centred and divided by
// its standard deviation over the rows (the population one, as
// scikit-learn's StandardScaler; a constant column is only centred).
func Standardised(xs [][]float64) [][]float64 {
	n := len(xs[0])
	mean, sd := make([]float64, n), make([]float64, n)
	for _, x := range xs {
		for j, v := range x {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(len(xs))
	}
	for _, x := range xs {
		for j, v := range x {
			sd[j] += (v - mean[j]) * (v - mean[j])
		}
	}
	out := make([][]float64, len(xs))
	for j := range sd {
		sd[j] = math.Sqrt(sd[j] / float64(len(xs)))
		if sd[j] == 0 {
			sd[j] = 1
		}
	}
	for i, x := range xs {
		out[i] = make([]float64, n)
		for j, v := range x {
			out[i][j] = (v - mean[j]) / sd[j]
		}
	}
	return out
}

// Split returns the rows to fit and the held-out rows of the
// measurements: every fourth row (i % 4 == 3) held out, so that the three
// classes, which follow each other in the file, are in both.
func Split(xs [][]float64) (fit, held [][]float64) {
	for i, x := range xs {
		if i%4 == 3 {
			held = append(held, x)
		} else {
			fit = append(fit, x)
		}
	}
	return fit, held
}
