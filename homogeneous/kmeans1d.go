package homogeneous

import (
	"math"
	"slices"
)

// KMeans1D returns the centres of the exact k-means clustering of the
// values xs into at most k clusters: the k contiguous groups of the sorted
// values that minimise the within-group sum of squares, each centre the
// mean of its group (Wang and Song's Ckmeans.1d.dp, 2011: dynamic
// programming over the sorted distinct values, weighted by their counts,
// with the divide-and-conquer speed-up that the optimal split points are
// monotone; O(k·m·log m) for m distinct values). With m ≤ k distinct
// values the centres are the values. The centres are increasing.
func KMeans1D(xs []float64, k int) []float64 {
	// The sorted distinct values v and their counts w.
	sorted := slices.Sorted(slices.Values(xs))
	var v, w []float64
	for i, x := range sorted {
		if i == 0 || x != sorted[i-1] {
			v, w = append(v, x), append(w, 0)
		}
		w[len(w)-1]++
	}
	m := len(v)
	if m == 0 {
		return nil
	}
	if k >= m {
		return v
	}
	// Prefix sums of the weights, and of w·(v − v̄) and w·(v − v̄)²
	// about the mean v̄ (smaller round-off in the differences).
	mean := 0.0
	for i := range v {
		mean += w[i] * v[i]
	}
	mean /= float64(len(xs))
	W, S, Q := make([]float64, m+1), make([]float64, m+1), make([]float64, m+1)
	for i := range v {
		d := v[i] - mean
		W[i+1] = W[i] + w[i]
		S[i+1] = S[i] + w[i]*d
		Q[i+1] = Q[i] + w[i]*d*d
	}
	// cost is the sum of squares of the group v[j..i].
	cost := func(j, i int) float64 {
		ww, s := W[i+1]-W[j], S[i+1]-S[j]
		return max(0, Q[i+1]-Q[j]-s*s/ww)
	}
	// dp[c][i]: the least cost of c+1 groups covering v[0..i]; arg[c][i]
	// the first index of the last group.
	prev, cur := make([]float64, m), make([]float64, m)
	arg := make([][]int32, k)
	for i := range m {
		prev[i] = cost(0, i)
	}
	arg[0] = make([]int32, m)
	var solve func(c, lo, hi, jlo, jhi int)
	solve = func(c, lo, hi, jlo, jhi int) {
		if lo > hi {
			return
		}
		i := (lo + hi) / 2
		best, bj := math.Inf(1), jlo
		for j := max(jlo, c); j <= min(jhi, i); j++ {
			if e := prev[j-1] + cost(j, i); e < best {
				best, bj = e, j
			}
		}
		cur[i], arg[c][i] = best, int32(bj)
		solve(c, lo, i-1, jlo, bj)
		solve(c, i+1, hi, bj, jhi)
	}
	for c := 1; c < k; c++ {
		arg[c] = make([]int32, m)
		for i := range c {
			cur[i] = math.Inf(1)
		}
		solve(c, c, m-1, c, m-1)
		prev, cur = cur, prev
	}
	// Walk the groups back from the last value.
	centres := make([]float64, k)
	i := m - 1
	for c := k - 1; c >= 0; c-- {
		j := 0
		if c > 0 {
			j = int(arg[c][i])
		}
		s := 0.0
		for t := j; t <= i; t++ {
			s += w[t] * v[t]
		}
		centres[c] = s / (W[i+1] - W[j])
		i = j - 1
	}
	return centres
}
