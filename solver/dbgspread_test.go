package solver_test

import (
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/featmap/featmap/solver"
)

func TestDbgSpread(t *testing.T) {
	_, nSpread := countSizes()
	r := rand.New(rand.NewPCG(32, 0xfea7))
	tally := map[string]int{}
	for k := 0; k < nSpread; k++ {
		p := spreadLP(r)
		want := exactSolve(p)
		for _, b := range backends(t) {
			sol := solve(t, b, p, solver.Options{})
			v := verdict(p, sol, want)
			tally[b.Name()+" "+v]++
			if v == "wrong" || v == "gave up" {
				tally[fmt.Sprintf("%s %s got %v want %v", b.Name(), v, sol.Status, want.status)]++
				if b.Name() == "purego" && v == "wrong" {
					fmt.Fprintf(os.Stderr, "WRONG %d %v %v\n", k, sol.Status, want.status)
				}
			}
		}
	}
	for k, v := range tally {
		fmt.Println("TALLY", k, v)
	}
}
