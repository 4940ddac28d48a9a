package fmap

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
)

// Stage is one step of a map's pipeline: a value of one of the stage kinds.
// In JSON it is an object of one key that names the kind, {"fourier": {…}},
// {"random": {…}}, … (stageJSON).
type Stage struct {
	// Kind is the stage: *Fourier, *Series, *PerCoordinate, *Random,
	// *Nystroem, *Anchors, *Linear, *Blocks or *Polynomial. A stage
	// without one (nil) is invalid (Map.Validate says so).
	Kind StageKind
}

// StageKind is the closed set of stage kinds. Its methods are unexported,
// so only this package implements it (as text/template/parse.Node's): a
// new kind is a type of this package with its own file, a field of
// stageJSON, and an emitter in codegen.
type StageKind interface {
	// out is the stage's output dimension for in inputs.
	out(in int) int
	// validate checks the stage for in inputs.
	validate(in int) error
	// eval writes the stage's output for in to dst (out(len(in))
	// components): the reference evaluator.
	eval(dst, in []float64)
}

// stageJSON is a stage's wire form: one field per kind, exactly one set.
// Its JSON is the JSON a Stage has always had, so maps written before the
// kinds were types read as they did; the field's key names the kind
// (Stage.Name).
type stageJSON struct {
	Fourier       *Fourier       `json:"fourier,omitempty"`
	Series        *Series        `json:"series,omitempty"`
	PerCoordinate *PerCoordinate `json:"per_coordinate,omitempty"`
	Random        *Random        `json:"random,omitempty"`
	Nystroem      *Nystroem      `json:"nystroem,omitempty"`
	Anchors       *Anchors       `json:"anchors,omitempty"`
	Linear        *Linear        `json:"linear,omitempty"`
	Blocks        *Blocks        `json:"blocks,omitempty"`
	Polynomial    *Polynomial    `json:"polynomial,omitempty"`
}

// stageField is the index of the stageJSON field of each kind's type, and
// stageKeys the fields' JSON keys, in field order.
var stageField, stageKeys = stageFields()

func stageFields() (map[reflect.Type]int, []string) {
	t := reflect.TypeFor[stageJSON]()
	field := make(map[reflect.Type]int, t.NumField())
	keys := make([]string, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		field[f.Type] = i
		keys[i], _, _ = strings.Cut(f.Tag.Get("json"), ",")
	}
	return field, keys
}

// errNoKind is Validate's error for a stage without exactly one kind.
var errNoKind = errors.New("fmap: a stage must hold exactly one of " + strings.Join(stageKeys[:len(stageKeys)-1], ", ") + " and " + stageKeys[len(stageKeys)-1])

// Name is the name of the stage's kind, its JSON key: fourier, series,
// per_coordinate, random, nystroem, anchors, linear, blocks or polynomial
// ("" for a stage without a kind).
func (s Stage) Name() string {
	if s.Kind == nil {
		return ""
	}
	return stageKeys[stageField[reflect.TypeOf(s.Kind)]]
}

// MarshalJSON writes the stage as its wire form, {"<kind>": {…}} ({} for a
// stage without a kind).
func (s Stage) MarshalJSON() ([]byte, error) {
	var w stageJSON
	if s.Kind != nil {
		reflect.ValueOf(&w).Elem().Field(stageField[reflect.TypeOf(s.Kind)]).Set(reflect.ValueOf(s.Kind))
	}
	return json.Marshal(w)
}

// UnmarshalJSON reads the wire form as encoding/json always read it (keys
// matched as it matches them, unknown keys ignored). An object that sets
// no kind or several leaves Kind nil, which Validate refuses.
func (s *Stage) UnmarshalJSON(b []byte) error {
	var w stageJSON
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	s.Kind = nil
	v := reflect.ValueOf(w)
	set := 0
	for i := range v.NumField() {
		if f := v.Field(i); !f.IsNil() {
			s.Kind = f.Interface().(StageKind)
			set++
		}
	}
	if set != 1 {
		s.Kind = nil
	}
	return nil
}

// Out is the number of the stage's outputs for in inputs.
func (s Stage) Out(in int) int { return s.out(in) }

// out is the output dimension of the stage for in inputs (0 without a
// kind).
func (s Stage) out(in int) int {
	if s.Kind == nil {
		return 0
	}
	return s.Kind.out(in)
}

// validate checks the stage for in inputs.
func (s Stage) validate(in int) error {
	if s.Kind == nil {
		return errNoKind
	}
	return s.Kind.validate(in)
}

// eval writes the stage's output for in to dst.
func (s Stage) eval(dst, in []float64) { s.Kind.eval(dst, in) }

// onlyStage returns the kind of a one-stage map's stage, nil for a map of
// several stages.
func (m *Map) onlyStage() StageKind {
	if len(m.Stages) == 1 {
		return m.Stages[0].Kind
	}
	return nil
}

// stageOf returns a one-stage map's stage if it is of kind K (a pointer
// type of a stage kind), else nil.
func stageOf[K StageKind](m *Map) K {
	k, _ := m.onlyStage().(K)
	return k
}
