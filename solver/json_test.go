package solver_test

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/featmap/featmap/solver"
)

func TestJSONRoundTrip(t *testing.T) {
	var probs []*solver.Problem
	for _, c := range handCases() {
		probs = append(probs, c.p)
	}
	r := rand.New(rand.NewPCG(31, 0))
	for k := 0; k < 50; k++ {
		probs = append(probs, randomFamilies[k%len(randomFamilies)].generate(r).p)
	}
	for k, p := range probs {
		var buf bytes.Buffer
		if err := solver.WriteJSON(&buf, p); err != nil {
			t.Fatalf("problem %d: WriteJSON: %v", k, err)
		}
		q, err := solver.ReadJSON(bytes.NewReader(buf.Bytes()))
		if err != nil {
			t.Fatalf("problem %d: ReadJSON: %v\n%s", k, err, buf.String())
		}
		if d := problemDiff(p, q, 0); d != "" {
			t.Fatalf("problem %d: round trip changed it: %s", k, d)
		}
		// Signed zeros and infinities survive too.
		for j := range p.ColLower {
			if math.Signbit(p.ColLower[j]) != math.Signbit(q.ColLower[j]) {
				t.Fatalf("problem %d: sign of lower bound %d lost", k, j)
			}
		}
		var again bytes.Buffer
		if err := solver.WriteJSON(&again, q); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(buf.Bytes(), again.Bytes()) {
			t.Fatalf("problem %d: encoding is not stable", k)
		}
	}
}

func TestJSONFormat(t *testing.T) {
	b := solver.NewBuilder([]float64{1, math.Inf(-1)}, []float64{math.Inf(1), 0.5})
	b.AddColumn(1, 0, math.Inf(1), []int{0, 1}, []float64{1, 1})
	b.AddColumn(2, math.Inf(-1), 3, []int{0, 1}, []float64{1, -1})
	var buf bytes.Buffer
	if err := solver.WriteJSON(&buf, b.Problem()); err != nil {
		t.Fatal(err)
	}
	want := `{
  "format": "featmap-lp/1",
  "rows": 2,
  "obj": [1,2],
  "col_lower": [0,"-Inf"],
  "col_upper": ["+Inf",3],
  "row_lower": [1,"-Inf"],
  "row_upper": ["+Inf",0.5],
  "columns": [
    {"rows":[0,1],"values":[1,1]},
    {"rows":[0,1],"values":[1,-1]}
  ]
}
`
	if buf.String() != want {
		t.Errorf("WriteJSON wrote\n%s\nwant\n%s", buf.String(), want)
	}
	// Hand-written variants: other spellings of infinity, other layout.
	hand := `{"format":"featmap-lp/1","rows":1,"obj":[1],"col_lower":["-Infinity"],"col_upper":["Inf"],
	  "row_lower":[2],"row_upper":["+Infinity"],"columns":[{"rows":[0],"values":[4]}]}`
	p, err := solver.ReadJSON(strings.NewReader(hand))
	if err != nil {
		t.Fatal(err)
	}
	if !math.IsInf(p.ColLower[0], -1) || !math.IsInf(p.ColUpper[0], 1) || !math.IsInf(p.RowUpper[0], 1) || p.Value[0] != 4 {
		t.Errorf("hand-written problem read as %+v", p)
	}
}

func TestJSONRejectsBadInput(t *testing.T) {
	valid := `{"format":"featmap-lp/1","rows":1,"obj":[1],"col_lower":[0],"col_upper":["+Inf"],"row_lower":[1],"row_upper":["+Inf"],"columns":[{"rows":[0],"values":[1]}]}`
	if _, err := solver.ReadJSON(strings.NewReader(valid)); err != nil {
		t.Fatalf("valid input rejected: %v", err)
	}
	bad := map[string]string{
		"wrong format":        strings.Replace(valid, "featmap-lp/1", "featmap-lp/9", 1),
		"unknown field":       strings.Replace(valid, `"rows":1,`, `"rows":1,"colour":3,`, 1),
		"row out of range":    strings.Replace(valid, `"rows":[0]`, `"rows":[1]`, 1),
		"lower above upper":   strings.Replace(valid, `"col_upper":["+Inf"]`, `"col_upper":[-1]`, 1),
		"lower bound +Inf":    strings.Replace(valid, `"col_lower":[0]`, `"col_lower":["+Inf"]`, 1),
		"bad bound string":    strings.Replace(valid, `"col_upper":["+Inf"]`, `"col_upper":["lots"]`, 1),
		"missing bounds":      strings.Replace(valid, `"row_upper":["+Inf"],`, ``, 1),
		"costs vs columns":    strings.Replace(valid, `"obj":[1]`, `"obj":[1,2]`, 1),
		"rows vs values":      strings.Replace(valid, `"values":[1]`, `"values":[1,2]`, 1),
		"trailing data":       valid + ` {}`,
		"not JSON":            `format: featmap`,
		"infinite cost":       strings.Replace(valid, `"obj":[1]`, `"obj":["+Inf"]`, 1),
		"negative row number": strings.Replace(valid, `"rows":1`, `"rows":-1`, 1),
	}
	for name, in := range bad {
		if p, err := solver.ReadJSON(strings.NewReader(in)); err == nil {
			t.Errorf("%s: accepted as %+v", name, p)
		}
	}
	// WriteJSON refuses an invalid problem.
	p := &solver.Problem{NumRows: 1, Obj: []float64{1}, ColLower: []float64{0}, ColUpper: []float64{1},
		RowLower: []float64{2}, RowUpper: []float64{1}, ColStart: []int{0, 0}}
	if err := solver.WriteJSON(&bytes.Buffer{}, p); err == nil {
		t.Error("WriteJSON accepted a row with lower bound above its upper bound")
	}
}
