// Package solver holds featmap's linear-programming interface: the LP
// (Problem, built column by column by a Builder), the outcome of a solve
// (Status, Solution, Basis), the knobs (Options), the Backend contract and
// its registry (Register, Get, Default, Names), and what every backend
// shares: Finish, which measures a returned x against the problem, and
// Violation, the measure it uses. json.go holds the LP's file format.
//
// A Problem is
//
//	minimise    cᵀx
//	subject to  RowLower ≤ A x ≤ RowUpper
//	            ColLower ≤ x   ≤ ColUpper
//
// with A given by sparse columns and ±Inf allowed in every bound. A Backend
// solves it and returns a Solution whose feasibility has been measured from the
// returned x: a solution that violates a bound by more than the tolerance is
// never reported as Optimal, whatever the backend believed.
//
// The backends live in packages of their own and plug in by registering
// themselves: a backend's package calls Register with a value whose Name is
// unique in an init function, and runs Finish on every solution it returns.
// Two exist. "purego" (solver/simplex, the default, no cgo) is a bounded
// dual and primal simplex that works in the small dimension of featmap's
// LPs (many more rows than columns). "clp" (solver/clp) is a thin cgo
// binding to COIN-OR CLP, compiled only with the build tag clp; it serves as
// the reference. This package imports neither (they import it): a program
// gets them by importing solver/backends, which chum (the package that
// solves the design LPs) does, so that Default finds "purego" wherever a
// design runs.
package solver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
)

// Problem is a linear program in bounded form. A is stored in compressed
// sparse column form: the entries of column j are RowIndex[k], Value[k] for
// k in ColStart[j] .. ColStart[j+1]-1. Use Builder to assemble one column by
// column.
type Problem struct {
	NumRows  int
	Obj      []float64 // c, one entry per column
	ColLower []float64 // may be -Inf
	ColUpper []float64 // may be +Inf
	RowLower []float64 // may be -Inf
	RowUpper []float64 // may be +Inf
	ColStart []int     // len NumCols()+1
	RowIndex []int
	Value    []float64
}

// NumCols returns the number of columns (variables) of p.
func (p *Problem) NumCols() int { return len(p.Obj) }

// Validate reports the first structural defect of p: inconsistent lengths,
// out-of-range row indices, NaN or infinite matrix entries or costs, NaN
// bounds, or a lower bound above its upper bound.
func (p *Problem) Validate() error {
	n := len(p.Obj)
	if p.NumRows < 0 {
		return fmt.Errorf("solver: negative row count %d", p.NumRows)
	}
	if len(p.ColLower) != n || len(p.ColUpper) != n {
		return fmt.Errorf("solver: %d costs but %d/%d column bounds", n, len(p.ColLower), len(p.ColUpper))
	}
	if len(p.RowLower) != p.NumRows || len(p.RowUpper) != p.NumRows {
		return fmt.Errorf("solver: %d rows but %d/%d row bounds", p.NumRows, len(p.RowLower), len(p.RowUpper))
	}
	if len(p.ColStart) != n+1 {
		return fmt.Errorf("solver: ColStart has %d entries, want %d", len(p.ColStart), n+1)
	}
	if p.ColStart[0] != 0 || p.ColStart[n] != len(p.RowIndex) || len(p.RowIndex) != len(p.Value) {
		return errors.New("solver: ColStart, RowIndex and Value are inconsistent")
	}
	for j := 0; j < n; j++ {
		if p.ColStart[j+1] < p.ColStart[j] {
			return fmt.Errorf("solver: ColStart decreases at column %d", j)
		}
		if !finite(p.Obj[j]) {
			return fmt.Errorf("solver: cost of column %d is %v", j, p.Obj[j])
		}
		if err := checkBounds("column", j, p.ColLower[j], p.ColUpper[j]); err != nil {
			return err
		}
	}
	for i := 0; i < p.NumRows; i++ {
		if err := checkBounds("row", i, p.RowLower[i], p.RowUpper[i]); err != nil {
			return err
		}
	}
	// The entries are most of the work (a design LP is dense): one
	// unsigned comparison for the range, and v − v, which is 0 for a
	// finite v and NaN for NaN and ±Inf, for finiteness.
	m, val := uint(p.NumRows), p.Value[:len(p.RowIndex)]
	for k, r := range p.RowIndex {
		if uint(r) >= m {
			return fmt.Errorf("solver: row index %d out of range [0,%d)", r, p.NumRows)
		}
		if v := val[k]; v-v != 0 {
			return fmt.Errorf("solver: matrix entry in row %d is %v", r, v)
		}
	}
	return nil
}

func checkBounds(what string, i int, lo, hi float64) error {
	switch {
	case math.IsNaN(lo) || math.IsNaN(hi):
		return fmt.Errorf("solver: %s %d has a NaN bound", what, i)
	case math.IsInf(lo, 1) || math.IsInf(hi, -1):
		return fmt.Errorf("solver: %s %d has bounds [%v, %v]", what, i, lo, hi)
	case lo > hi:
		return fmt.Errorf("solver: %s %d has lower bound %v above upper bound %v", what, i, lo, hi)
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// Activity returns A x, each row's products added in column order, every
// product rounded before it is added (an explicit conversion, which the
// compiler never fuses into a multiply-add, as it may on arm64 or with
// GOAMD64=v3), so that Finish's verdict on a given x is the same on every
// platform (docs/lp-design.md, "Fused multiply-adds").
func (p *Problem) Activity(x []float64) []float64 {
	r := make([]float64, p.NumRows)
	for j := range p.Obj {
		if x[j] == 0 {
			continue
		}
		for k := p.ColStart[j]; k < p.ColStart[j+1]; k++ {
			r[p.RowIndex[k]] += float64(p.Value[k] * x[j])
		}
	}
	return r
}

// Violations returns the largest amount by which x violates a row bound and a
// column bound of p. Both are absolute (not scaled) and zero for a feasible x.
func (p *Problem) Violations(x []float64) (row, col float64) {
	for j, v := range x {
		a, _ := Violation(p.ColLower[j], p.ColUpper[j], v)
		col = math.Max(col, a)
	}
	for i, r := range p.Activity(x) {
		a, _ := Violation(p.RowLower[i], p.RowUpper[i], r)
		row = math.Max(row, a)
	}
	return row, col
}

// Builder assembles a Problem column by column.
type Builder struct{ p Problem }

// NewBuilder starts a problem with the given row bounds (which it copies).
func NewBuilder(rowLower, rowUpper []float64) *Builder {
	b := &Builder{}
	b.p.NumRows = len(rowLower)
	b.p.RowLower = append([]float64(nil), rowLower...)
	b.p.RowUpper = append([]float64(nil), rowUpper...)
	b.p.ColStart = []int{0}
	return b
}

// Reset empties b for a new problem with the given row bounds (which it
// copies), keeping its slices: a caller that builds many problems one
// after another allocates them once. The Problem b returned before must no
// longer be in use.
func (b *Builder) Reset(rowLower, rowUpper []float64) {
	b.p = Problem{
		NumRows:  len(rowLower),
		Obj:      b.p.Obj[:0],
		ColLower: b.p.ColLower[:0],
		ColUpper: b.p.ColUpper[:0],
		RowLower: append(b.p.RowLower[:0], rowLower...),
		RowUpper: append(b.p.RowUpper[:0], rowUpper...),
		ColStart: append(b.p.ColStart[:0], 0),
		RowIndex: b.p.RowIndex[:0],
		Value:    b.p.Value[:0],
	}
}

// Reserve makes room for cols more columns with nnz more nonzero entries, so
// that adding them does not reallocate.
func (b *Builder) Reserve(cols, nnz int) {
	b.p.Obj = slices.Grow(b.p.Obj, cols)
	b.p.ColLower = slices.Grow(b.p.ColLower, cols)
	b.p.ColUpper = slices.Grow(b.p.ColUpper, cols)
	b.p.ColStart = slices.Grow(b.p.ColStart, cols)
	b.p.RowIndex = slices.Grow(b.p.RowIndex, nnz)
	b.p.Value = slices.Grow(b.p.Value, nnz)
}

// AddColumn appends a column with cost c, bounds [lo, hi] and the given
// nonzero entries; zero values are skipped. It returns the column's index.
func (b *Builder) AddColumn(c, lo, hi float64, rows []int, vals []float64) int {
	for k, r := range rows {
		if vals[k] != 0 {
			b.p.RowIndex = append(b.p.RowIndex, r)
			b.p.Value = append(b.p.Value, vals[k])
		}
	}
	return b.addColumnEnd(c, lo, hi)
}

// AddDenseColumn appends a column given as a dense vector of length NumRows.
func (b *Builder) AddDenseColumn(c, lo, hi float64, col []float64) int {
	// Appending to locals keeps the slices in registers (b.p's fields
	// would be loaded and stored at every entry).
	idx, val := b.p.RowIndex, b.p.Value
	for i, v := range col {
		if v != 0 {
			idx = append(idx, i)
			val = append(val, v)
		}
	}
	b.p.RowIndex, b.p.Value = idx, val
	return b.addColumnEnd(c, lo, hi)
}

func (b *Builder) addColumnEnd(c, lo, hi float64) int {
	b.p.Obj = append(b.p.Obj, c)
	b.p.ColLower = append(b.p.ColLower, lo)
	b.p.ColUpper = append(b.p.ColUpper, hi)
	b.p.ColStart = append(b.p.ColStart, len(b.p.RowIndex))
	return len(b.p.Obj) - 1
}

// Problem returns the assembled problem. The Builder must not be used after,
// except to Reset it once the problem is no longer in use.
func (b *Builder) Problem() *Problem { return &b.p }

// Status is the outcome of a solve.
type Status int

// The possible outcomes of a solve.
const (
	Optimal          Status = iota // x is feasible within tolerance and optimal
	Infeasible                     // no x satisfies the bounds
	Unbounded                      // the objective is unbounded below
	IterationLimit                 // stopped at Options.MaxIterations
	NumericalFailure               // the backend lost accuracy, or its x violates the bounds
)

var statusNames = [...]string{"optimal", "infeasible", "unbounded", "iteration limit", "numerical failure"}

func (s Status) String() string {
	if s >= 0 && int(s) < len(statusNames) {
		return statusNames[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// VarStatus is the status of one variable (column or row activity) in a basis.
type VarStatus uint8

// Basis statuses. A nonbasic free variable sits at zero.
const (
	Basic VarStatus = iota
	AtLower
	AtUpper
	AtZero // nonbasic free variable, value 0
)

// Basis records which columns and rows are basic, for warm starts. It is
// backend-neutral: either backend accepts a basis the other returned.
type Basis struct {
	Cols []VarStatus
	Rows []VarStatus // status of the row activity (its slack)
}

// Clone returns a deep copy of b.
func (b *Basis) Clone() *Basis {
	if b == nil {
		return nil
	}
	return &Basis{Cols: append([]VarStatus(nil), b.Cols...), Rows: append([]VarStatus(nil), b.Rows...)}
}

// Solution is what a backend returns. X, the objective and the violations are
// recomputed from the problem by the package, not copied from the backend.
type Solution struct {
	Status    Status
	X         []float64 // primal values, one per column
	Objective float64   // cᵀx
	// RowDual holds the row multipliers y and ColDual the reduced costs
	// d = c − Aᵀy, with the sign convention of a minimisation: at an optimum a
	// row at its lower bound has y ≥ 0 and a column at its lower bound d ≥ 0.
	RowDual         []float64
	ColDual         []float64
	MaxRowViolation float64 // largest row-bound violation of X (absolute)
	MaxColViolation float64 // largest column-bound violation of X (absolute)
	Iterations      int
	Basis           *Basis // final basis, usable as Options.WarmStart
	Message         string // backend detail for a non-optimal status
}

// Options tune a solve. The zero value selects the defaults.
type Options struct {
	// FeasibilityTol is the largest violation of a bound, relative to
	// max(1, |bound|), that still counts as feasible. Default 1e-9.
	FeasibilityTol float64
	// OptimalityTol is the largest reduced-cost violation accepted at an
	// optimum. Default 1e-9.
	OptimalityTol float64
	// MaxIterations bounds the simplex pivots. Default 20·(rows+cols)+10000.
	MaxIterations int
	// WarmStart, if not nil, is a basis to start from (typically the Basis of
	// an earlier solve of a closely related problem of the same shape).
	WarmStart *Basis
	// Context, if not nil, stops a solve once it is done: Solve then
	// returns its error. The pure-Go backend checks it every 64 pivots;
	// CLP, which cannot be interrupted, only before it starts.
	Context context.Context
	// Devex, if set, lets the pure-Go dual simplex switch from Dantzig's
	// pricing to dual Devex once a solve has run m + n pivots (CLP ignores
	// it). It pays on LPs of many near-parallel columns (featmap's 2-D
	// continuous-refinement LPs: 2.3–7× fewer pivots) and costs pivots on
	// others, and another pricing may end at another optimal vertex.
	Devex bool
	// DevexFromStart, with Devex, prices by dual Devex from the first
	// pivot instead of after m + n (CLP ignores it). featmap's 2-D polish
	// LPs rarely run m + n pivots; priced this way from their shifted
	// starts they took 77 000 pivots in all where Dantzig's rule took
	// 222 000 (docs/lp-design.md).
	DevexFromStart bool
	// ShiftedStart lets the pure-Go backend begin a start that is neither
	// primal nor dual feasible — a warm basis on a problem whose matrix
	// has moved, as in a polish's next step — with the dual simplex on
	// shifted costs (each nonbasic boxed variable at the bound its reduced
	// cost prefers, every other wrong-signed reduced cost shifted just past
	// 0) and then the primal simplex on the true costs, instead of the
	// primal simplex's phase 1 (CLP ignores it). The optimum is the same
	// LP's; another path may end at another optimal vertex.
	ShiftedStart bool
}

// Defaults of Options.
const (
	DefaultFeasibilityTol = 1e-9
	DefaultOptimalityTol  = 1e-9
)

// WithDefaults returns o with zero fields replaced by their defaults for p.
func (o Options) WithDefaults(p *Problem) Options {
	if o.FeasibilityTol <= 0 {
		o.FeasibilityTol = DefaultFeasibilityTol
	}
	if o.OptimalityTol <= 0 {
		o.OptimalityTol = DefaultOptimalityTol
	}
	if o.MaxIterations <= 0 {
		o.MaxIterations = 20*(p.NumRows+p.NumCols()) + 10000
	}
	return o
}

// A Backend solves problems. Implementations must be safe for concurrent use.
type Backend interface {
	Name() string
	Solve(p *Problem, o Options) (*Solution, error)
}

var (
	registryMu sync.Mutex
	registry   = map[string]Backend{}
)

// Register makes a backend available by name. Backends register themselves
// from init functions; registering a name twice panics.
func Register(b Backend) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[b.Name()]; dup {
		panic("solver: backend registered twice: " + b.Name())
	}
	registry[b.Name()] = b
}

// DefaultName is the name of the default backend.
const DefaultName = "purego"

// Get returns the backend with the given name ("" means the default).
func Get(name string) (Backend, error) {
	if name == "" {
		name = DefaultName
	}
	registryMu.Lock()
	defer registryMu.Unlock()
	if b, ok := registry[name]; ok {
		return b, nil
	}
	if name == "clp" {
		return nil, errors.New(`solver: backend "clp" is not compiled in; build with -tags clp (needs cgo and coinor-libclp-dev)`)
	}
	return nil, fmt.Errorf("solver: unknown backend %q (have %v)", name, namesLocked())
}

// Default returns the default backend.
func Default() Backend {
	b, err := Get(DefaultName)
	if err != nil {
		panic(err) // solver/backends not imported: see the package doc
	}
	return b
}

// Names lists the registered backends in sorted order.
func Names() []string {
	registryMu.Lock()
	defer registryMu.Unlock()
	return namesLocked()
}

func namesLocked() []string {
	var s []string
	for n := range registry {
		s = append(s, n)
	}
	sort.Strings(s)
	return s
}

// Finish fills in the measured parts of s for problem p: the objective cᵀx,
// the row and column violations of X, and demotes an Optimal status to
// NumericalFailure when a violation exceeds the tolerance. Backends call it
// on every solution they return.
func Finish(p *Problem, o Options, s *Solution) *Solution {
	o = o.WithDefaults(p)
	if len(s.X) != p.NumCols() {
		if s.Status == Optimal {
			s.Status = NumericalFailure
			s.Message = "backend returned no primal solution"
		}
		return s
	}
	s.Objective = 0
	for j, c := range p.Obj {
		s.Objective += float64(c * s.X[j]) // as Activity: the same everywhere
	}
	r := p.Activity(s.X)
	s.MaxRowViolation, s.MaxColViolation = 0, 0
	worst := 0.0 // violation relative to max(1, |bound|)
	// violation's amounts are never NaN (≥ 0, +Inf for a non-finite v), so
	// the built-in max gives math.Max's results, without its call.
	for j, v := range s.X {
		abs, rel := Violation(p.ColLower[j], p.ColUpper[j], v)
		s.MaxColViolation = max(s.MaxColViolation, abs)
		worst = max(worst, rel)
	}
	for i, v := range r {
		abs, rel := Violation(p.RowLower[i], p.RowUpper[i], v)
		s.MaxRowViolation = max(s.MaxRowViolation, abs)
		worst = max(worst, rel)
	}
	if math.IsNaN(s.Objective) {
		worst = math.Inf(1)
	}
	if s.Status == Optimal && !(worst <= o.FeasibilityTol) {
		s.Status = NumericalFailure
		s.Message = fmt.Sprintf("returned x violates a bound by %.3g (relative), tolerance %.3g", worst, o.FeasibilityTol)
	}
	return s
}

// Violation returns how far v lies outside [lo, hi], absolutely and relative
// to max(1, |violated bound|): the measure Finish judges a solution by,
// which backends share to judge their own points alike. A non-finite v is
// infinitely far.
func Violation(lo, hi, v float64) (abs, rel float64) {
	if !finite(v) {
		return math.Inf(1), math.Inf(1)
	}
	switch {
	case v < lo:
		abs = lo - v
		return abs, abs / max(1, math.Abs(lo))
	case v > hi:
		abs = v - hi
		return abs, abs / max(1, math.Abs(hi))
	}
	return 0, 0
}
