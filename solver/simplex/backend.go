package simplex

import (
	"fmt"

	"github.com/featmap/featmap/solver"
)

// The backend "purego": Solve validates the problem, solves it scaled
// (scale.go) or as given, and falls back to the problem as given and then
// to the slack basis when a solve fails; solveOnce runs one simplex, its
// post-optimal checks and its certificate's check (certify.go).

func init() { solver.Register(pureGo{}) }

// pureGo is the backend "purego". It holds nothing: every Solve builds
// its own simplex (in pooled buffers), so it is safe for concurrent use.
type pureGo struct{}

// Name returns "purego".
func (pureGo) Name() string { return "purego" }

// maxDenseEntries bounds m·n: the backend keeps two dense copies of A.
const maxDenseEntries = 1 << 25

// Solve solves p (solver.Backend).
func (pureGo) Solve(p *solver.Problem, o solver.Options) (*solver.Solution, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	o = o.WithDefaults(p)
	if m, n := p.NumRows, p.NumCols(); m > 0 && n > maxDenseEntries/m {
		return nil, fmt.Errorf("solver: purego keeps A dense; %d×%d exceeds its limit of %d entries", m, n, maxDenseEntries)
	}
	// Solve the scaled problem (scale.go); if that ends in a
	// numerical failure (of the simplex, or of Finish's check of the
	// unscaled x), or in an optimum whose unscaled reduced costs violate
	// the optimality tolerance, solve the problem as given from the basis
	// it reached.
	warm, iters := o.WarmStart, 0
	if sc := computeScaling(p); sc != nil {
		if s := newScaledSimplex(p, sc, o); s != nil {
			sol, err := solveOnce(p, s, o, sc, o.WarmStart)
			if err != nil {
				return nil, err
			}
			if sol = solver.Finish(p, o, sol); sol.Status != solver.NumericalFailure && !(sol.Status == solver.Optimal && dualDefect(p, sol, o.OptimalityTol)) {
				return sol, nil
			}
			warm, iters = sol.Basis, sol.Iterations
		}
	}
	sol, err := solveOnce(p, newSimplex(p, o), o, nil, warm)
	if err != nil {
		return nil, err
	}
	sol.Iterations += iters
	if sol = solver.Finish(p, o, sol); sol.Status == solver.NumericalFailure && warm != nil {
		// A last try from the slack basis: the basis the failed solve
		// started from may be the trouble (on the spread LPs of solver's
		// scaling_test.go it was).
		retry, err := solveOnce(p, newSimplex(p, o), o, nil, nil)
		if err != nil {
			return nil, err
		}
		retry.Iterations += sol.Iterations
		if retry = solver.Finish(p, o, retry); retry.Status != solver.NumericalFailure {
			return retry, nil
		}
	}
	return sol, nil
}

// solveOnce runs the simplex s — on p itself (newSimplex), or on p scaled
// by sc (newScaledSimplex) — from warm, and returns its solution in p's
// units before Finish: an optimum passes the post-optimal checks
// (faintCheck, refineVertex, refineDuals; a long improving step
// faintCheck finds is taken, takeStep, and the simplex goes on from
// there), an infeasible or unbounded verdict its certificate's check
// against p (checkCertificate), or it becomes a numerical failure. The
// simplex's buffers go back to the pool after the certificate has been
// read.
func solveOnce(p *solver.Problem, s *simplex, o solver.Options, sc *scaling, warm *solver.Basis) (*solver.Solution, error) {
	if sc != nil {
		sc.tolerances(s)
	}
	s.src, s.srcScale = p, sc
	defer s.release()
	status, msg := s.run(warm)
	// An optimum whose tolerance hid a long improving step (faintCheck)
	// takes that step and goes on (at most maxFaintSteps times); one on
	// an ill-conditioned small kernel is judged exactly (exactCheck).
	for steps := 0; status == solver.Optimal && s.stopped == nil; steps++ {
		if judged, st, m := s.exactCheck(); judged {
			status, msg = st, m
			break
		}
		var step faintStep
		status, msg, step = s.faintCheck()
		if status != solver.NumericalFailure || step.v < 0 || steps == maxFaintSteps || !s.takeStep(step) {
			break
		}
		status, msg = s.iterate()
	}
	if err := s.stopped; err != nil {
		return nil, err
	}
	if status == solver.Optimal {
		s.refineVertex()
		if !s.refineDuals() {
			status, msg = solver.NumericalFailure, "duals not optimal after refinement"
		}
	}
	sol := s.solution(status, msg)
	if sc != nil {
		sc.unscale(sol)
	}
	s.checkCertificate(p, o, sc, sol)
	return sol, nil
}
