package codegen

import (
	"math"

	"github.com/featmap/featmap/fmap"
)

// The tests' views of a plan's kind: its emitter when it is of that kind,
// else nil, and the fast paths of a formula kind.

func (p *plan) asFourier() *fourierKind   { k, _ := p.kind.(*fourierKind); return k }
func (p *plan) asRandom() *randomKind     { k, _ := p.kind.(*randomKind); return k }
func (p *plan) asNystroem() *nystroemKind { k, _ := p.kind.(*nystroemKind); return k }
func (p *plan) asAnchors() *anchorsKind   { k, _ := p.kind.(*anchorsKind); return k }
func (p *plan) asBlocks() *blocksKind     { k, _ := p.kind.(*blocksKind); return k }

// scalar is the fast paths of a formula kind, nil for another.
func (p *plan) scalar() *scalar {
	if k, ok := p.kind.(formula); ok {
		return k.fast()
	}
	return nil
}

// table and pieces are a formula kind's fast paths (nil without them).
func (p *plan) table() *table {
	if s := p.scalar(); s != nil {
		return s.table
	}
	return nil
}

func (p *plan) pieces() *pieces {
	if s := p.scalar(); s != nil {
		return s.pieces
	}
	return nil
}

// axisPieces, hasAxisPieces, axisError, axes and perTerm are a Fourier
// map's (nothing for another).
func (p *plan) axisPieces() []*pieces {
	if k := p.asFourier(); k != nil {
		return k.axisPieces
	}
	return nil
}

func (p *plan) hasAxisPieces() bool { return p.asFourier() != nil && p.asFourier().hasAxisPieces() }

func (p *plan) axisError() (err, target, added float64) { return p.asFourier().axisError() }

func (p *plan) axes() []axis {
	if k := p.asFourier(); k != nil {
		return k.axes
	}
	return nil
}

func (p *plan) perTerm() bool { return p.asFourier() != nil && p.asFourier().perTerm }

// form is the form of a Fourier or series map, "" for another.
func (p *plan) form() fmap.Form {
	if f := p.m.Fourier(); f != nil {
		return f.Form
	}
	if s := p.m.Series(); s != nil {
		return s.Form
	}
	return ""
}

// limit is L of a Fourier map's exact path (limit.go), +Inf for a series
// or polynomial map.
func (p *plan) limit() float64 {
	if f := p.m.Fourier(); f != nil {
		return phaseLimit(f)
	}
	return math.Inf(1)
}

// randomStages returns the random stage of a random-feature map (nil for
// another) and the one-input map ψ of the per-coordinate stage before it
// (nil without one).
func randomStages(m *fmap.Map) (*fmap.Random, *fmap.Map) {
	for i, st := range m.Stages {
		r, ok := st.Kind.(*fmap.Random)
		if !ok {
			continue
		}
		if i == 0 {
			return r, nil
		}
		per := m.Stages[0].Kind.(*fmap.PerCoordinate)
		return r, &fmap.Map{Kernel: m.Kernel, InDim: 1, Dim: per.Inner.Out(1), Stages: []fmap.Stage{per.Inner}}
	}
	return nil, nil
}
