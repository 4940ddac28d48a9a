package fmap

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"runtime"
	"sync"
)

// Data is a sample of the user's inputs, read from a data file: its rows
// split, by a seeded shuffle, into rows a method may learn from (Fit) and
// held-out rows every design is verified on (Held), which no method sees.
type Data struct {
	// File is the data file as the spec names it; SHA256 the hex SHA-256
	// of its bytes (as stored, compressed or not) and Rows the number of
	// data rows it holds.
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	Rows   int    `json:"rows"`
	// Fit and Held are the sampled rows; FitLabels and HeldLabels their
	// labels (nil without a label column).
	Fit        [][]float64 `json:"-"`
	Held       [][]float64 `json:"-"`
	FitLabels  []float64   `json:"-"`
	HeldLabels []float64   `json:"-"`
}

// Additive reports whether m, a map of one input, maps rows of several
// values coordinate by coordinate (its kernel is additive: the
// homogeneous kernels summed over the coordinates).
func Additive(m *Map, width int) bool {
	return m.InDim == 1 && width > 1 && m.Kernel.Homogeneous()
}

// RowFeatures writes Ψ(x) of a data row to dst: m's map when the row has
// m.InDim values; for an additive map of one input (see Additive) the
// concatenation of ψ(x_j) over the row's coordinates, len(dst) =
// len(x)·m.Dim; a map with a table per coordinate (see Map.Coordinates)
// maps coordinate j with table j, and needs len(x) = m.Coordinates().
func RowFeatures(m *Map, dst, x []float64) {
	if len(x) == m.InDim {
		m.Eval(dst, x)
		return
	}
	for j, v := range x {
		m.evalCoordinate(j, dst[j*m.Dim:(j+1)*m.Dim], v)
	}
}

// DataVerification is a map's error on the held-out rows of the data.
type DataVerification struct {
	// Absolute is |K − Ψ·Ψ| over all ordered pairs of the rows, K the
	// kernel (summed over the coordinates for an additive map).
	Absolute Measurement `json:"absolute"`
	// Frobenius is the relative Frobenius error ‖K − ΨΨᵀ‖_F/‖K‖_F of
	// their Gram matrix.
	Frobenius float64 `json:"frobenius"`
	// File, SHA256 and Rows identify the data (as in Data).
	File   string `json:"file"`
	SHA256 string `json:"sha256"`
	Rows   int    `json:"rows"`
	// RankBound is the error no map of the map's outputs per row can beat
	// on the held-out rows (their Gram matrix's eigenvalues beyond the
	// D-th), and the map's ratio to it.
	RankBound *RankBound `json:"rank_bound,omitempty"`
	// Distinct is the number of distinct held-out rows: below
	// MinRankRows they cannot tell maps apart (Verification.Rank).
	Distinct int `json:"distinct_rows"`
}

// MinRankRows is the fewest distinct held-out rows whose error ranks maps
// (method auto, a comparison's best): with fewer, a map exact on those
// few rows (cos-sin random features are exact at x = y, a Nyström map at
// its landmarks) would win whatever its error elsewhere.
const MinRankRows = 10

// distinctRows counts the distinct rows of rows.
func distinctRows(rows [][]float64) int {
	seen := map[string]bool{}
	var key []byte
	for _, r := range rows {
		key = key[:0]
		for _, v := range r {
			key = binary.LittleEndian.AppendUint64(key, math.Float64bits(v))
		}
		seen[string(key)] = true
	}
	return len(seen)
}

// VerifyData measures m on the held-out rows of d (nil without any).
func VerifyData(m *Map, d *Data) *DataVerification {
	v, _ := VerifyDataContext(context.Background(), m, d)
	return v
}

// VerifyDataContext is VerifyData that stops soon after ctx is done (it
// looks at ctx before every row) and then returns ctx's error.
func VerifyDataContext(ctx context.Context, m *Map, d *Data) (*DataVerification, error) {
	return verifyData(ctx, m, d, nil)
}

// verifyData is VerifyDataContext; given the reference of d's problem, it
// takes the exact kernel over the held-out pairs from the reference's
// cache (Reference.heldPairs: computed once for every map of the problem).
func verifyData(ctx context.Context, m *Map, d *Data, ref *Reference) (*DataVerification, error) {
	if d == nil || len(d.Held) == 0 {
		return nil, nil
	}
	n, width := len(d.Held), len(d.Held[0])
	dim := m.Dim
	if Additive(m, width) {
		dim *= width
	}
	psi := make([][]float64, n)
	for i, x := range d.Held {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		psi[i] = make([]float64, dim)
		RowFeatures(m, psi[i], x)
	}
	var exact []float64
	var err error
	if ref != nil {
		exact, err = ref.heldPairs(ctx, m.Kernel, d)
	} else {
		exact, err = heldPairs(ctx, m.Kernel, d.Held)
	}
	if err != nil {
		return nil, err
	}
	on := fmt.Sprintf("%d held-out rows of %s", n, d.File)
	abs, _, frob, err := gramErrors(ctx, psi, exact, on)
	if err != nil {
		return nil, err
	}
	r := boundRows(n)
	var vals []float64
	if ref != nil {
		vals, err = ref.heldEigenvalues(ctx, exact, n, r)
	} else {
		vals, err = heldEigenvalues(ctx, exact, n, r)
	}
	if err != nil {
		return nil, err
	}
	mapErr := frob
	if r < n {
		mapErr = subFrobenius(psi, exact, n, r)
	}
	return &DataVerification{Absolute: abs, Frobenius: frob, File: d.File, SHA256: d.SHA256, Rows: d.Rows,
		RankBound: rankBound(vals, dim, r, mapErr), Distinct: distinctRows(d.Held)}, nil
}

// subFrobenius is the relative Frobenius error of the features psi on the
// first r of the n rows whose kernel values exact holds (row-major n×n,
// the upper triangle filled).
func subFrobenius(psi [][]float64, exact []float64, n, r int) float64 {
	var sums gramSums
	for i := range r {
		sums.add(exact[i*n+i], dot(psi[i], psi[i]), 1)
		for j := i + 1; j < r; j++ {
			sums.add(exact[i*n+j], dot(psi[i], psi[j]), 2)
		}
	}
	if sums.kSq == 0 {
		return 0
	}
	return math.Sqrt(sums.absSq / sums.kSq)
}

// heldPairs returns k over the ordered pairs (i, j ≥ i) of rows, row-major
// n×n, computed by a worker per thread; if ctx is done first (looked at
// before every row) it returns ctx's error.
func heldPairs(ctx context.Context, k Kernel, rows [][]float64) ([]float64, error) {
	n := len(rows)
	exact := make([]float64, n*n)
	var wg sync.WaitGroup
	workers := max(1, min(runtime.GOMAXPROCS(0), n))
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := w; i < n; i += workers {
				if ctx.Err() != nil {
					return
				}
				for j := i; j < n; j++ {
					exact[i*n+j] = k.Eval(rows[i], rows[j])
				}
			}
		}()
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return exact, nil
}
