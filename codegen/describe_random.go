package codegen

import (
	"fmt"
	"strings"

	"github.com/featmap/featmap/fmap"
)

// randomFormText describes a random-feature map's functional form (and
// the projection after it of an rf-pca map).
func randomFormText(m *shape) string {
	t := randomFeaturesText(m)
	if l := m.Linear; l != nil {
		t = strings.Replace(t, "Ψ(x) = ", "z(x) = ", 1)
		if len(l.Mean) > 0 {
			return fmt.Sprintf("PCA of random features (Li et al. §6): Ψ(x) = P·(z(x) − μ), P the %d×%d projection onto the leading eigenvectors of the features' covariance over the data and μ their mean, of the %d %s", l.Dim(), l.In, l.In, t)
		}
		return fmt.Sprintf("PCA of random features (Li et al. §6): Ψ(x) = P·z(x), P the %d×%d projection onto the leading eigenvectors of the features' second moment over the data, of the %d %s", l.Dim(), l.In, l.In, t)
	}
	return t
}

// randomFeaturesText describes the random stage (with the per-coordinate
// map before it).
func randomFeaturesText(m *shape) string {
	r := m.Random
	feat := func(t string) string {
		if r.Features == fmap.CosSin {
			return fmt.Sprintf("[cos(ωᵢ·%s), sin(ωᵢ·%s)]/√m", t, t)
		}
		return fmt.Sprintf("√(2/m)·cos(ωᵢ·%s + bᵢ)", t)
	}
	per := fmt.Sprintf("for the m = %d frequencies ωᵢ ∈ ℝ%s", r.Frequencies(), sup(r.In))
	if r.Features == fmap.Phase {
		per += " and phases bᵢ"
	}
	switch {
	case m.Inner != nil:
		inner := strings.Replace(formText(m.Inner), "Ψ(x)", "ψ(x)", 1)
		return fmt.Sprintf("per-coordinate map u = [ψ(x₁), …, ψ(xₙ)] ∈ ℝ%s with ψ the %d-dimensional %s, then random Fourier features of u (Rahimi–Recht): Ψ(x) = %s %s",
			sup(r.In), m.Inner.Dim, inner, feat("u"), per)
	case r.Transform == fmap.LogOffset:
		return fmt.Sprintf("random Fourier features (Rahimi–Recht) in tⱼ = log(max(xⱼ + c, 2⁻¹⁰²²)), c = %s: Ψ(x) = %s %s", num(r.Offset), feat("t"), per)
	}
	return fmt.Sprintf("random Fourier features (Rahimi–Recht): Ψ(x) = %s %s", feat("x"), per)
}

// componentBound is the largest |Ψ_j| of a random map: 1/√m or √(2/m).
func componentBound(r *fmap.Random) string {
	if r.Features == fmap.CosSin {
		return "1/√m"
	}
	return "√(2/m)"
}

// randomNegativeText says what non-finite, huge and (after a
// per-coordinate map) zero or negative inputs give.
func randomNegativeText(m *shape) string {
	s := "An input with a NaN or ±Inf coordinate gives zeros in every component, as featmap's reference evaluator does."
	if m.Inner != nil {
		s = "An input with a NaN or ±Inf coordinate, or one whose ψ is not finite, gives zeros in every component, as featmap's reference evaluator does."
		switch {
		case !m.Inner.Homogeneous():
		case m.Inner.Negative == fmap.NegativeZero:
			s = "Every coordinate goes through ψ, with ψ(0) = 0 and ψ(x) = 0 for x < 0. " + s
		default:
			s = "Every coordinate goes through ψ, with ψ(0) = 0 and ψ(x) = −ψ(|x|) for x < 0. " + s
		}
	}
	if l := m.Linear; l != nil {
		s = strings.Replace(s, "gives zeros in every component", "gives zero random features", 1)
		bound := "‖Ψ‖ ≤ ‖z‖"
		if len(l.Mean) > 0 {
			s += " Ψ is then P·(0 − μ)."
			bound = "‖Ψ‖ ≤ ‖z‖ + ‖μ‖"
		} else {
			s += " Ψ is then 0."
		}
		zn := "‖z‖ = 1"
		if m.Random.Features == fmap.Phase {
			zn = "‖z‖ ≤ √2"
		}
		return s + fmt.Sprintf(" Very large inputs, where ωᵢ·t keeps no correct digit, still give bounded components (%s, %s) but not meaningful ones", bound, zn) + randomLimitText(m)
	}
	return s + fmt.Sprintf(" Very large inputs, where ωᵢ·t keeps no correct digit, still give bounded components (|Ψ_j| ≤ %s) but not meaningful ones", componentBound(m.Random)) + randomLimitText(m)
}

// randomLimitText ends the sentence on very large inputs with the limit L
// of the random features' arguments (limit.go), if any.
func randomLimitText(m *shape) string {
	what := "an input coordinate"
	if m.Inner != nil {
		what = "a value of ψ"
	}
	return limitText(randomLimit(m.Random), what, "max Σⱼ|ωᵢⱼ| over the frequencies", "ωᵢ·t")
}

// randomParameterLines lists the per-coordinate map's parameters and says
// where the random stage's constants are.
func (e *emitter) randomParameterLines() []string {
	rp := e.p.rnd
	var lines []string
	if ip := rp.inner; ip != nil {
		lines = append(lines, fmt.Sprintf("Per-coordinate map ψ (%s, d = %d):", ip.name, ip.dim), "")
		lines = append(lines, (&emitter{p: ip}).parameterLines()...)
		lines = append(lines, "")
	}
	where := fmt.Sprintf("the Go literals of %s", e.wName())
	if rp.r.Features == fmap.Phase {
		where += " and " + e.bName()
	}
	if rp.data != nil {
		where = rp.data.where(e.p.info.File, e.dataLayout())
	}
	s := fmt.Sprintf("Random features: m = %d frequencies ωᵢ ∈ ℝ%s", rp.freqs, sup(rp.args))
	if rp.r.Features == fmap.Phase {
		s += " and phases bᵢ"
	}
	if l := rp.lin; l != nil {
		if rp.centred() {
			s += fmt.Sprintf(", the %d×%d projection P and the features' mean μ", l.Dim(), l.In)
		} else {
			s += fmt.Sprintf(" and the %d×%d projection P", l.Dim(), l.In)
		}
		if rp.data == nil {
			where += " and " + e.projName()
			if rp.centred() {
				where += " and " + e.meanName()
			}
		}
	}
	s += fmt.Sprintf(" (%d numbers) are in %s.", rp.constants(), where)
	return append(lines, wrap(s)...)
}

// randomEvaluationLines describes the evaluation of a random map.
func (e *emitter) randomEvaluationLines() []string {
	p := e.p
	rp := p.rnd
	var parts []string
	if ip := rp.inner; ip != nil {
		parts = append(parts, fmt.Sprintf("ψ of every coordinate by its formula (%s), no fast path", (&emitter{p: ip}).formulaText()))
	}
	if rp.r.Transform == fmap.LogOffset {
		parts = append(parts, "one log per input")
	}
	if rp.args < seqTerms {
		parts = append(parts, fmt.Sprintf("the m = %d dot products ωᵢ·t of %d terms, each one sum in the reference evaluator's order", rp.freqs, rp.args))
	} else {
		parts = append(parts, fmt.Sprintf("the m = %d dot products ωᵢ·t of %d terms, each as %d independent partial sums added pairwise", rp.freqs, rp.args, accumulators))
	}
	if rp.r.Features == fmap.CosSin {
		parts = append(parts, "the sine and cosine of every phase by math.Sincos's own reduction and polynomials written out without its branches (math.Sincos itself for NaN, ±Inf and |ωᵢ·t| ≥ 2²⁹)")
	} else {
		parts = append(parts, "the cosine of every phase ωᵢ·t + bᵢ by math.Cos's own reduction and polynomials written out without its branches (math.Sincos for NaN, ±Inf and |ωᵢ·t + bᵢ| ≥ 2²⁹)")
	}
	if l := rp.lin; l != nil {
		z := "P_ij·z_j"
		if rp.centred() {
			z = "P_ij·(z_j − μ_j)"
		}
		parts = append(parts, fmt.Sprintf("then, as each random feature z_j is computed, %s added to each of the %d outputs (each output one sum over the %d features in the reference evaluator's order; no scratch of the features)", z, l.Dim(), l.In))
	}
	return []string{
		fmt.Sprintf("Ψ(x) is the formula, computed with: %s. Nothing is approximated: the sines and cosines are the standard library's values (bit for bit unless the compiler fuses multiply-adds), and the phases differ from the reference evaluator's by the rounding of the sums.", strings.Join(parts, "; ")),
		fmt.Sprintf("%s and %s evaluate the same way in float64 and round each component to float32.", e.name32(), e.slice32Name()),
	}
}
