package fmap

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// oldStage is the struct of optional pointers a Stage was before the kinds
// became types: the JSON every map file on disk has.
type oldStage struct {
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

// stageOfEveryKind returns a stage of each kind, in stageJSON's order, and
// the same stage as the old struct would hold it.
func stageOfEveryKind() ([]Stage, []oldStage) {
	four := &Fourier{Form: FourierForm, Transform: Log, Gamma: 1, Negative: NegativeSign, Terms: []Term{{Freq: []float64{0}, Weight: 0.5}, {Freq: []float64{0.7}, Weight: 0.25}}}
	ser := &Series{Form: Chebyshev, Dim: 3, Negative: NegativeZero}
	rnd := &Random{Features: CosSin, Transform: Identity, In: 2, Freq: []float64{1, -2}}
	nys := &Nystroem{Kernel: Kernel{Type: RBF, Sigma: []float64{1}}, In: 1, Landmarks: []float64{0.5}, Proj: []float64{1}}
	anc := &Anchors{Assign: Nearest1, Dim: 1, Negative: NegativeSign, Tables: []AnchorTable{{Points: []float64{1}, Features: []float64{1}}}}
	lin := &Linear{In: 2, Proj: []float64{0.5, 0.5}}
	blk := &Blocks{Parts: []Block{{First: 0, Last: 1, Kernel: Kernel{Type: RBF, Sigma: []float64{1, 1}}, Scale: 1, Stages: []Stage{{Kind: rnd}}}}}
	poly := &Polynomial{In: 1, Exact: []PolyExact{{Degree: 1, Coef: 1}}}
	per := &PerCoordinate{Inner: Stage{Kind: four}}
	kinds := []Stage{{four}, {ser}, {per}, {rnd}, {nys}, {anc}, {lin}, {blk}, {poly}}
	old := []oldStage{{Fourier: four}, {Series: ser}, {PerCoordinate: per}, {Random: rnd}, {Nystroem: nys}, {Anchors: anc}, {Linear: lin}, {Blocks: blk}, {Polynomial: poly}}
	return kinds, old
}

// TestStageJSON: every kind marshals to the bytes the old struct of
// optional pointers marshalled to (so maps, gen -map files and design
// -json do not change), reads back from them as the same kind and value,
// and is named by its key.
func TestStageJSON(t *testing.T) {
	kinds, old := stageOfEveryKind()
	if len(kinds) != reflect.TypeFor[stageJSON]().NumField() {
		t.Fatalf("%d kinds tested, stageJSON has %d", len(kinds), reflect.TypeFor[stageJSON]().NumField())
	}
	for i, st := range kinds {
		got, err := json.Marshal(st)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(old[i])
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != string(want) {
			t.Errorf("%T: %s, the old form %s", st.Kind, got, want)
		}
		key := stageKeys[i]
		if st.Name() != key || !strings.HasPrefix(string(got), `{"`+key+`":`) {
			t.Errorf("%T is named %q, its JSON %s; want the key %q", st.Kind, st.Name(), got, key)
		}
		var back Stage
		if err := json.Unmarshal(want, &back); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(back, st) {
			t.Errorf("%s read back as %#v, want %#v", want, back.Kind, st.Kind)
		}
	}
	if b, err := json.Marshal(Stage{}); err != nil || string(b) != "{}" || (Stage{}).Name() != "" {
		t.Errorf("a stage without a kind: %s, %v, named %q; want {}", b, err, Stage{}.Name())
	}
}

// TestStageJSONReadsAsBefore: what encoding/json accepted of the old
// struct it still accepts the same way — a key in another case, an
// unknown key, a null kind beside a set one — and an object of no kind or
// of two is read as a stage that Validate refuses, with the old message.
func TestStageJSONReadsAsBefore(t *testing.T) {
	for _, c := range []struct {
		js   string
		kind string // "" for none
	}{
		{`{"Random": {"features": "cos-sin", "transform": "identity", "in": 1, "freq": [1]}}`, "random"},
		{`{"random": {"features": "cos-sin", "transform": "identity", "in": 1, "freq": [1]}, "wavelet": 3}`, "random"},
		{`{"fourier": null, "random": {"features": "cos-sin", "transform": "identity", "in": 1, "freq": [1]}}`, "random"},
		{`{}`, ""},
		{`{"series": {"form": "chebyshev", "dim": 3, "negative": "sign"}, "random": {"features": "cos-sin", "transform": "identity", "in": 1, "freq": [1]}}`, ""},
	} {
		var st Stage
		if err := json.Unmarshal([]byte(c.js), &st); err != nil {
			t.Fatalf("%s: %v", c.js, err)
		}
		if st.Name() != c.kind {
			t.Errorf("%s reads as a %q stage, want %q", c.js, st.Name(), c.kind)
		}
		m := &Map{InDim: 1, Dim: 2, Domain: Domain{Lo: []float64{0}, Hi: []float64{1}}, Stages: []Stage{st}}
		err := m.Validate()
		if c.kind == "" && (err == nil || !strings.Contains(err.Error(), "exactly one of fourier, series, per_coordinate, random, nystroem, anchors, linear, blocks and polynomial")) {
			t.Errorf("%s: Validate %v, want the exactly-one error", c.js, err)
		}
		if c.kind != "" && err != nil {
			t.Errorf("%s: Validate %v", c.js, err)
		}
	}
	var st Stage
	if err := json.Unmarshal([]byte(`3`), &st); err == nil {
		t.Error("a number read as a stage")
	}
}

// TestStageKinds: every field of the wire form holds a stage kind, so
// that a kind added to the set is read and written.
func TestStageKinds(t *testing.T) {
	kind := reflect.TypeFor[StageKind]()
	ty := reflect.TypeFor[stageJSON]()
	for i := range ty.NumField() {
		if f := ty.Field(i); !f.Type.Implements(kind) {
			t.Errorf("stageJSON.%s (%s) is not a StageKind", f.Name, f.Type)
		}
	}
}
