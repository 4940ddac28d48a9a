package sampled

import (
	"context"
	"encoding/binary"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/featmap/featmap/fmap"
)

// kmeansSpace returns the maps into and back out of the space where
// kernel k's k-means distance (distFor) is Euclidean, or nil ones when it
// is on x itself (rbf scales it by σ_j, and its means are centroids):
// √x for exp-χ², t = log(x + c) for the skewed kernels. k-means runs on
// the mapped rows, at most MaxKMeansRows of them, and its centroids map
// back to landmarks.
//
// Why √x for exp-χ²: its χ² distance Σ (x−y)²/(x+y) equals
// Σ (√x−√y)²·(√x+√y)²/(x+y), which is 2·Σ (√x−√y)² to second order where
// x ≈ y, so Euclidean k-means on √x follows the kernel's own geometry
// while keeping centroids (means) that the χ² distance has no form for;
// the centroids c are mapped back to landmarks c². On the digits k-means
// on √x left a smaller held-out Gram error than k-means on x and than
// random rows (TestNystroemKMeansBeatsRandom holds it), and the χ²
// distance itself on x did worse than the Euclidean one on x; the skewed
// kernels' centroids in t did better than means of x. The measurements:
// docs/nystroem.md, "Landmarks and the k-means sample".
func kmeansSpace(k fmap.Kernel) (to, back func(float64) float64) {
	switch {
	case k.Type == fmap.ExpChi2:
		return math.Sqrt, func(u float64) float64 { return u * u }
	case k.Skewed():
		c := k.C
		return func(x float64) float64 { return math.Log(x + c) }, func(t float64) float64 { return math.Exp(t) - c }
	}
	return nil, nil
}

// mapRows returns new rows holding f of every coordinate of rows.
func mapRows(rows [][]float64, f func(float64) float64) [][]float64 {
	out := make([][]float64, len(rows))
	for i, r := range rows {
		out[i] = make([]float64, len(r))
		for j, v := range r {
			out[i][j] = f(v)
		}
	}
	return out
}

// euclidean is the squared Euclidean distance.
func euclidean(a, b []float64) float64 {
	var s float64
	for i := range a {
		d := a[i] - b[i]
		s += d * d
	}
	return s
}

// distFor returns the squared distance k-means++ and k-means use for
// kernel k on its inputs: the Euclidean distance of the kernel's
// arguments, scaled by σ_j for the shift-invariant kernels of x (rbf,
// laplacian, Matérn: the Laplacian's L1 distance has no mean; the scaled
// Euclidean one keeps centroids as landmarks), in t = log(x + c) for the skewed
// kernels and in √x for exp-χ² (k-means runs on √x and on t with the
// plain Euclidean distance, which equals this: kmeansSpace).
func distFor(k fmap.Kernel) func(a, b []float64) float64 {
	switch {
	case k.Skewed():
		return func(a, b []float64) float64 {
			var s float64
			for i := range a {
				d := math.Log((a[i] + k.C) / (b[i] + k.C))
				s += d * d
			}
			return s
		}
	case k.Type == fmap.ExpChi2:
		return func(a, b []float64) float64 {
			var s float64
			for i := range a {
				d := math.Sqrt(a[i]) - math.Sqrt(b[i])
				s += d * d
			}
			return s
		}
	case k.ShiftInvariant(): // x/σ: the shift-invariant kernels but the skewed
		return func(a, b []float64) float64 {
			var s float64
			for i := range a {
				d := (a[i] - b[i]) / k.Sigma[i]
				s += d * d
			}
			return s
		}
	}
	return euclidean
}

// distinctRows returns the indices, in row order, of k rows drawn without
// replacement in a seeded random order, passing over a row whose values
// equal those of one drawn already (−0 equal to 0): the random landmarks.
// A row repeated in the data is thus as likely to be drawn as its copies
// together, and drawn once; two equal landmarks would make W singular and
// waste a component (docs/nystroem.md). With fewer than k distinct rows,
// the rest are copies, in the same order. Without equal rows the indices
// are the first k of the order, as before the check.
func distinctRows(rows [][]float64, k int, rng *rand.Rand) []int {
	var idx, copies []int
	seen := make(map[string]bool, k)
	key := make([]byte, 0, 8*len(rows[0]))
	for _, i := range rng.Perm(len(rows)) {
		if len(idx) == k {
			break
		}
		key = key[:0]
		for _, v := range rows[i] {
			if v == 0 {
				v = 0 // −0 is 0
			}
			key = binary.LittleEndian.AppendUint64(key, math.Float64bits(v))
		}
		if seen[string(key)] {
			if len(copies) < k {
				copies = append(copies, i)
			}
			continue
		}
		seen[string(key)] = true
		idx = append(idx, i)
	}
	idx = append(idx, copies[:k-len(idx)]...)
	slices.Sort(idx)
	return idx
}

// kmeansPP picks k centres among rows by k-means++ seeding (Arthur and
// Vassilvitskii, 2007): the first uniformly, each next with probability
// proportional to its distance dist (a squared distance) to the nearest
// centre so far. It looks at ctx before every centre (a pass over the
// rows each) and returns its error once it is done.
func kmeansPP(ctx context.Context, rows [][]float64, k int, dist func(a, b []float64) float64, rng *rand.Rand) ([][]float64, error) {
	d := make([]float64, len(rows))
	for i := range d {
		d[i] = math.Inf(1)
	}
	var centres [][]float64
	next := rng.IntN(len(rows))
	for len(centres) < k {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		c := slices.Clone(rows[next])
		centres = append(centres, c)
		var total float64
		for i, x := range rows {
			d[i] = math.Min(d[i], dist(x, c))
			total += d[i]
		}
		if total == 0 { // fewer distinct rows than centres: repeat one
			next = rng.IntN(len(rows))
			continue
		}
		u := rng.Float64() * total
		next = len(rows) - 1
		for i, di := range d {
			if u -= di; u < 0 {
				next = i
				break
			}
		}
	}
	return centres, nil
}

// kmeans runs Lloyd's iterations from a k-means++ start until no row
// changes its centre (or KMeansMaxIters): rows go to the nearest centre by
// dist, centres move to the mean of their rows; a centre left without rows
// keeps its place. It returns the centres and the iterations run. It looks
// at ctx every 64 rows of an iteration (k·n distance terms a row) and
// returns its error once it is done.
func kmeans(ctx context.Context, rows [][]float64, k int, dist func(a, b []float64) float64, rng *rand.Rand) ([][]float64, int, error) {
	centres, err := kmeansPP(ctx, rows, k, dist, rng)
	if err != nil {
		return nil, 0, err
	}
	assign := make([]int, len(rows))
	for i := range assign {
		assign[i] = -1
	}
	n := len(rows[0])
	for it := 1; it <= KMeansMaxIters; it++ {
		changed := 0
		for i, x := range rows {
			if i%64 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, 0, err
				}
			}
			best, bd := 0, math.Inf(1)
			for j, c := range centres {
				if d := dist(x, c); d < bd {
					best, bd = j, d
				}
			}
			if assign[i] != best {
				assign[i] = best
				changed++
			}
		}
		if changed == 0 {
			return centres, it, nil
		}
		sum := make([][]float64, k)
		count := make([]int, k)
		for i, x := range rows {
			j := assign[i]
			if sum[j] == nil {
				sum[j] = make([]float64, n)
			}
			for a, v := range x {
				sum[j][a] += v
			}
			count[j]++
		}
		for j := range centres {
			if count[j] == 0 {
				continue
			}
			for a := range centres[j] {
				centres[j][a] = sum[j][a] / float64(count[j])
			}
		}
	}
	return centres, KMeansMaxIters, nil
}
