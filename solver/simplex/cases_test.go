package simplex

import "testing"

// cases returns how many random cases a property test draws: n, or a
// quarter of it with -short (the quick loop; the full run draws all n).
func cases(n int) int {
	if testing.Short() {
		return n / 4
	}
	return n
}
