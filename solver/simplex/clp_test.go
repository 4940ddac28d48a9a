//go:build clp

package simplex

// The tests that compare the pure-Go backend with CLP (TestProj2DLP,
// TestTable2D73LPsAgree) and the benchmarks over every backend find it
// registered under the tag.
import _ "github.com/featmap/featmap/solver/clp"
