package codegen

import (
	"strings"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/fmap"
)

// TestNystroemHeaderRankBound: with data, the header states the rank-D
// bound on the held-out rows and the map's ratio to it; a map of fewer
// outputs than landmarks names its D × m projection Uᵀ·W^{+1/2}.
func TestNystroemHeaderRankBound(t *testing.T) {
	vm := testmaps.NysReduced()
	vm.Verification.Data = &fmap.DataVerification{File: "rows.csv", Rows: 100, SHA256: "00",
		Absolute:  fmap.Measurement{On: "all 400 ordered pairs of 20 held-out rows of rows.csv", Points: 400, LInf: 0.1, RMS: 0.01},
		Frobenius: 0.05,
		RankBound: &fmap.RankBound{Rank: 3, Rows: 20, Frobenius: 0.02, Map: 0.05, Ratio: 2.5}}
	files, err := GenerateFiles(vm, testInfo("NysReduced"))
	if err != nil {
		t.Fatal(err)
	}
	src := strings.ReplaceAll(string(files[0].Data), "\n// ", " ") // comment lines joined
	for _, want := range []string{
		"limit      rank-3 bound 0.02 on 20 held-out rows",
		"this map 2.5× it",
		"Ψ(x) = Uᵀ·W^{+1/2}·[K(x, l₁), …, K(x, l_m)] with m = 8 landmarks",
		"the 3×8 matrix Uᵀ·W^{+1/2}",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("the emitted source lacks %q", want)
		}
	}
}
