package learnplan

import "testing"

// TestLearnCost: learning's price grows with D and with per-axis widths
// and ridge: auto; MaxLearnedDim is the largest D within LearnBudget.
// The price of the measured runs (docs/limits.md, "Learning's budget"):
// wine's 143 rows per axis with ridge: auto at D = 512 within the budget,
// at D = 4096 (past 600 s before the nested cross-validation) far beyond
// it.
func TestLearnCost(t *testing.T) {
	wine := func(dim int) CostShape {
		return CostShape{Rows: 143, Inputs: 13, Targets: 3, Dim: dim, CosSin: true, PerAxis: true, RidgeAuto: true, MapDim: dim, MapEval: float64(dim/2) * 33}
	}
	if c := LearnCost(wine(512)); !(c < LearnBudget) {
		t.Errorf("D = 512: %.3g multiply-adds, want within %.3g", c, LearnBudget)
	}
	if c := LearnCost(wine(4096)); !(c > 10*LearnBudget) {
		t.Errorf("D = 4096: %.3g multiply-adds, want far beyond %.3g", c, LearnBudget)
	}
	shared := wine(1024)
	shared.PerAxis, shared.RidgeAuto = false, false
	if !(LearnCost(shared) < LearnCost(wine(1024))) || !(LearnCost(wine(512)) < LearnCost(wine(1024))) {
		t.Error("the price does not grow with per-axis widths, ridge: auto or D")
	}
	cost := func(dim int) float64 { return LearnCost(wine(dim)) }
	top := MaxLearnedDim(cost, true)
	if top%2 != 0 || !(cost(top) <= LearnBudget) || !(cost(top+2) > LearnBudget) {
		t.Errorf("MaxLearnedDim %d: cost %.3g there, %.3g at D + 2; budget %.3g", top, cost(top), cost(top+2), LearnBudget)
	}
}
