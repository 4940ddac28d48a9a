package solver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
)

// The JSON form of a Problem, written by WriteJSON and read by ReadJSON:
//
//	{
//	  "format": "featmap-lp/1",
//	  "rows": 2,
//	  "obj":       [1, 2],
//	  "col_lower": [0, 0],
//	  "col_upper": ["+Inf", "+Inf"],
//	  "row_lower": [1, "-Inf"],
//	  "row_upper": ["+Inf", 0.5],
//	  "columns": [
//	    {"rows": [0, 1], "values": [1, 1]},
//	    {"rows": [0, 1], "values": [1, -1]}
//	  ]
//	}
//
// Numbers are written in the shortest form that reads back to the same
// float64, so a round trip is exact. Infinite bounds are the strings "+Inf"
// and "-Inf" (JSON has no infinity); ReadJSON also accepts "Inf" and
// "Infinity" with either sign. Each column lists its nonzero entries.

// jsonFormat names the encoding; ReadJSON rejects other formats.
const jsonFormat = "featmap-lp/1"

type jsonColumn struct {
	Rows   []int     `json:"rows"`
	Values []float64 `json:"values"`
}

type jsonProblem struct {
	Format   string       `json:"format"`
	Rows     int          `json:"rows"`
	Obj      []float64    `json:"obj"`
	ColLower []jsonBound  `json:"col_lower"`
	ColUpper []jsonBound  `json:"col_upper"`
	RowLower []jsonBound  `json:"row_lower"`
	RowUpper []jsonBound  `json:"row_upper"`
	Columns  []jsonColumn `json:"columns"`
}

// jsonBound is a float64 that may be infinite, written as "+Inf"/"-Inf".
type jsonBound float64

func (b jsonBound) MarshalJSON() ([]byte, error) {
	v := float64(b)
	switch {
	case math.IsInf(v, 1):
		return []byte(`"+Inf"`), nil
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`), nil
	case math.IsNaN(v):
		return nil, fmt.Errorf("solver: NaN bound")
	}
	return json.Marshal(v)
}

func (b *jsonBound) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && data[0] == '"' {
		var s string
		if err := json.Unmarshal(data, &s); err != nil {
			return err
		}
		switch s {
		case "+Inf", "Inf", "+Infinity", "Infinity", "inf", "+inf":
			*b = jsonBound(math.Inf(1))
		case "-Inf", "-Infinity", "-inf":
			*b = jsonBound(math.Inf(-1))
		default:
			return fmt.Errorf("solver: bound %q is neither a number nor ±Inf", s)
		}
		return nil
	}
	var v float64
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("solver: bound %s: %w", data, err)
	}
	*b = jsonBound(v)
	return nil
}

func toBounds(v []float64) []jsonBound {
	out := make([]jsonBound, len(v))
	for i, x := range v {
		out[i] = jsonBound(x)
	}
	return out
}

func fromBounds(v []jsonBound) []float64 {
	out := make([]float64, len(v))
	for i, x := range v {
		out[i] = float64(x)
	}
	return out
}

// WriteJSON writes p to w in featmap's JSON LP format (see ReadJSON), one
// array or column per line so that diffs stay readable. It rejects an
// invalid problem.
func WriteJSON(w io.Writer, p *Problem) error {
	if err := p.Validate(); err != nil {
		return err
	}
	cols := make([]jsonColumn, p.NumCols())
	for j := range cols {
		s, e := p.ColStart[j], p.ColStart[j+1]
		cols[j] = jsonColumn{Rows: append([]int{}, p.RowIndex[s:e]...), Values: append([]float64{}, p.Value[s:e]...)}
	}
	var buf bytes.Buffer
	field := func(name string, v any, last bool) error {
		data, err := json.Marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintf(&buf, "  %q: %s", name, data)
		if !last {
			buf.WriteByte(',')
		}
		buf.WriteByte('\n')
		return nil
	}
	buf.WriteString("{\n")
	for _, f := range []struct {
		name string
		v    any
	}{
		{"format", jsonFormat},
		{"rows", p.NumRows},
		{"obj", append([]float64{}, p.Obj...)},
		{"col_lower", toBounds(p.ColLower)},
		{"col_upper", toBounds(p.ColUpper)},
		{"row_lower", toBounds(p.RowLower)},
		{"row_upper", toBounds(p.RowUpper)},
	} {
		if err := field(f.name, f.v, false); err != nil {
			return err
		}
	}
	buf.WriteString("  \"columns\": [")
	for j, c := range cols {
		data, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if j > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString("\n    ")
		buf.Write(data)
	}
	if len(cols) > 0 {
		buf.WriteString("\n  ")
	}
	buf.WriteString("]\n}\n")
	_, err := w.Write(buf.Bytes())
	return err
}

// ReadJSON reads a problem written by WriteJSON (or by hand in the same
// format) and validates it. Unknown fields are an error, so that a typo does
// not silently drop data.
func ReadJSON(r io.Reader) (*Problem, error) {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	var jp jsonProblem
	if err := dec.Decode(&jp); err != nil {
		return nil, fmt.Errorf("solver: reading JSON LP: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("solver: reading JSON LP: data after the problem")
	}
	if jp.Format != jsonFormat {
		return nil, fmt.Errorf("solver: JSON LP format %s, want %q", strconv.Quote(jp.Format), jsonFormat)
	}
	if len(jp.Columns) != len(jp.Obj) {
		return nil, fmt.Errorf("solver: JSON LP has %d costs but %d columns", len(jp.Obj), len(jp.Columns))
	}
	p := &Problem{
		NumRows:  jp.Rows,
		Obj:      append([]float64{}, jp.Obj...),
		ColLower: fromBounds(jp.ColLower),
		ColUpper: fromBounds(jp.ColUpper),
		RowLower: fromBounds(jp.RowLower),
		RowUpper: fromBounds(jp.RowUpper),
		ColStart: make([]int, 1, len(jp.Columns)+1),
	}
	for j, c := range jp.Columns {
		if len(c.Rows) != len(c.Values) {
			return nil, fmt.Errorf("solver: JSON LP column %d has %d rows but %d values", j, len(c.Rows), len(c.Values))
		}
		p.RowIndex = append(p.RowIndex, c.Rows...)
		p.Value = append(p.Value, c.Values...)
		p.ColStart = append(p.ColStart, len(p.RowIndex))
	}
	if p.RowIndex == nil {
		p.RowIndex, p.Value = []int{}, []float64{}
	}
	if err := p.Validate(); err != nil {
		return nil, err
	}
	return p, nil
}
