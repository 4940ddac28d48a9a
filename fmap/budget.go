package fmap

import (
	"fmt"
	"math"
)

// VerifyBudget is the most multiply-adds one verification of a map may take,
// as VerifyCost estimates them: seconds, not minutes (docs/limits.md, "The
// verification budget", gives what it allows and what a verification of
// 10⁹ multiply-adds took). The largest verification a test and
// docs/limits.md promise, rff at D = 4096 on 64 inputs (2.3·10⁹), is
// within it. A
// spec whose target needs more is an error naming the key and the
// largest D (or input dimension) within it: target.dim, target.max_dim,
// domain.dims.
const VerifyBudget = 1 << 32

// referenceSize returns how many verification inputs and dense signature
// points newReference builds for p, without building them (a reference of
// 65 536 inputs alone would be 0.5 GB).
func referenceSize(p *Problem) (inputs, dense float64) {
	d := p.Domain
	n := p.InDim()
	if n == 0 {
		return 0, 0
	}
	lo, hi := d.Lo[0], d.Hi[0]
	switch {
	case p.Kernel.Homogeneous():
		inputs = HomogeneousInputs + 1
		if d.Integer {
			inputs = math.Floor(hi-lo) + 1
		}
		m, err := p.SmallestNonzero()
		if err != nil {
			return inputs, 0
		}
		return inputs, math.Max(DenseMinPoints, math.Ceil(math.Log(hi/m)/DenseStep)+1)
	case n == 1 && p.Kernel.Type == RBF:
		inputs = RBFInputs
		if d.Integer {
			inputs = math.Floor(hi-lo) + 1
		}
		step := RBFZStep(p.Kernel.Sigma[0], lo, hi, d.Integer)
		return inputs, math.Max(2000, math.Ceil(10*(hi-lo)/step)) + 1
	case n == 1:
		inputs = RBFInputs
		if d.Integer && hi-lo < MaxRBFIntegers {
			inputs = math.Floor(hi-lo) + 1
		}
		if p.Kernel.ShiftInvariant() {
			dense = DenseMinPoints
		}
		return inputs, dense
	case n <= MaxGridAxes:
		g, z, denser := gridSizes(n)
		inputs = math.Pow(float64(g), float64(n))
		if p.Kernel.ShiftInvariant() {
			dense = 1
			for i := range n {
				k := float64(denseAxisPoints(p.Kernel.T(d.Hi[i])-p.Kernel.T(d.Lo[i]), z, denser))
				if i < n-1 {
					k = 2*k - 1
				}
				dense *= k
			}
		}
		return inputs, dense
	}
	return SampledPoints, 0
}

// VerifyCost estimates the multiply-adds of verifying a map of dimension
// dim for p (Verify, with VerifyData on p.Data's held-out rows when it has
// any): for N verification inputs of n coordinates, P = N(N+1)/2 pairs and
// G dense signature points,
//
//	(N + 2G)·D·n  evaluating Ψ and the signature (twice for the uniform measure),
//	P·(D + n)     the dot products and the exact kernel of every pair,
//
// and the same for the held-out rows, whose features have D·w values for
// an additive map of w columns. It is an estimate for a map whose stages
// each cost about D·n per input (every method's but nystroem's W^{-1/2},
// D², and rf-pca's projection); a map with a table per coordinate (annfm)
// is verified once per coordinate.
func VerifyCost(p *Problem, dim int) float64 {
	return VerifyCostOf(p, dim, nil)
}

// EvalCost is the multiply-adds of evaluating a map of dimension dim on
// one input (or one data row), for a map whose stages cost more than
// VerifyCost's D·n per input: its Cost, and Formula in words ("D·n + D²");
// and, for a map whose signature costs more than two evaluations, that.
type EvalCost struct {
	Cost    func(dim int) float64
	Formula string
	// Signature, when set, is the multiply-adds of the map's signature
	// at one dense point, in place of 2·Cost(D) (Ψ at both ends of a
	// pair), and SignatureFormula says it in words ("4·D·n").
	Signature        func(dim int) float64
	SignatureFormula string
}

// signature is the multiply-adds of a map's signature at one dense point
// of dimension dim: e's Signature, else twice eval (Ψ at both ends).
func (e *EvalCost) signature(dim int, eval float64) float64 {
	if e != nil && e.Signature != nil {
		return e.Signature(dim)
	}
	return 2 * eval
}

// VerifyCostOf is VerifyCost for a map whose Ψ costs e.Cost(D) per input
// and per held-out row in place of D·n (D·w for a row of w columns), and
// whose signature costs e.Signature(D) per dense point when it is set in
// place of 2·e.Cost(D); a nil e is VerifyCost's.
func VerifyCostOf(p *Problem, dim int, e *EvalCost) float64 {
	N, G := referenceSize(p)
	n, D := float64(p.InDim()), float64(dim)
	eval := D * n
	if e != nil {
		eval = e.Cost(dim)
	}
	cost := N*eval + G*e.signature(dim, eval) + N*(N+1)/2*(D+n)
	if p.Data != nil && len(p.Data.Held) > 0 {
		H, w := float64(len(p.Data.Held)), float64(len(p.Data.Held[0]))
		rowDim := D
		if p.InDim() == 1 && w > 1 && p.Kernel.Homogeneous() {
			rowDim = D * w
		}
		rowEval := D * w
		if e != nil {
			rowEval = e.Cost(dim)
		}
		cost += H*rowEval + H*(H+1)/2*(rowDim+w)
	}
	return cost
}

// MaxVerifiedDim returns the largest D whose VerifyCost is within
// VerifyBudget (0 if not even D = 1 is), and why a larger one is not, in
// words naming the budget.
func MaxVerifiedDim(p *Problem) (int, string) {
	c0, c1 := VerifyCost(p, 0), VerifyCost(p, 1)
	per := c1 - c0
	why := fmt.Sprintf("verifying a map of D dimensions on this problem takes about %.3g·D + %.3g multiply-adds, and the verification budget is %d (2^32)", per, c0, int64(VerifyBudget))
	if c1 > VerifyBudget || per <= 0 {
		return 0, why
	}
	return int(min(math.Floor((VerifyBudget-c0)/per), math.MaxInt32)), why
}

// MaxVerifiedDimOf is MaxVerifiedDim for a map whose Ψ costs e per input
// (nil: MaxVerifiedDim's): the largest D whose VerifyCostOf is within
// VerifyBudget (e.Cost grows with D), and why a larger one is not.
func MaxVerifiedDimOf(p *Problem, e *EvalCost) (int, string) {
	if e == nil {
		return MaxVerifiedDim(p)
	}
	within := func(d int) bool { return VerifyCostOf(p, d, e) <= VerifyBudget }
	lo, hi := 0, 1 // within(lo); hi is not, once found
	for hi < math.MaxInt32 && within(hi) {
		lo, hi = hi, min(2*hi, math.MaxInt32)
	}
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; within(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	N, G := referenceSize(p)
	rows := ""
	if p.Data != nil && len(p.Data.Held) > 0 {
		rows = fmt.Sprintf(" and %d held-out rows", len(p.Data.Held))
	}
	if e.Signature != nil && G > 0 {
		why := fmt.Sprintf("verifying this map of D dimensions evaluates Ψ at %.3g inputs%s, at %s multiply-adds each, and its signature at %.3g points, at %s multiply-adds each (%.3g at D = %d), and the verification budget is %d (2^32)",
			N, rows, e.Formula, G, e.SignatureFormula, VerifyCostOf(p, hi, e), hi, int64(VerifyBudget))
		return lo, why
	}
	why := fmt.Sprintf("verifying this map of D dimensions evaluates Ψ at %.3g inputs and signature points%s, at %s multiply-adds each (%.3g at D = %d), and the verification budget is %d (2^32)",
		N+2*G, rows, e.Formula, VerifyCostOf(p, hi, e), hi, int64(VerifyBudget))
	return lo, why
}

// MaxVerifiedInputs is the largest input dimension n of the sampled
// reference (more than MaxGridAxes axes: SampledPoints inputs) whose
// verification at D = 1 is within VerifyBudget.
func MaxVerifiedInputs() int {
	N := float64(SampledPoints)
	P := N * (N + 1) / 2
	// VerifyCost at D = 1: N·n + P·(1 + n) ≤ VerifyBudget.
	return int((VerifyBudget - P) / (N + P))
}
