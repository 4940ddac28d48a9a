package codegen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"
)

// formatFloat returns the shortest decimal that parses back to v at the
// given bit size (64 or 32), as a Go floating-point constant: it always has
// a '.' or an exponent, so that it is never taken for an integer. Negative
// zero is written 0 (Go constants have no signed zero). It returns an error
// for NaN and ±Inf, which have no literal.
func formatFloat(v float64, bits int) (string, error) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "", fmt.Errorf("codegen: non-finite constant %v", v)
	}
	if v == 0 {
		return "0.0", nil
	}
	s := strconv.FormatFloat(v, 'g', -1, bits)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s, nil
}

// lits collects the first error of the float literals of one file, so
// that the emitters can write lit(v) inline and Generate checks once.
type lits struct{ err error }

// f64 returns v as a round-trip float64 literal.
func (l *lits) f64(v float64) jen.Code { return l.lit(v, 64) }

// f32 returns v (a float32 value) as a round-trip float32 literal.
func (l *lits) f32(v float32) jen.Code { return l.lit(float64(v), 32) }

func (l *lits) lit(v float64, bits int) jen.Code {
	s, err := formatFloat(v, bits)
	if err != nil {
		if l.err == nil {
			l.err = err
		}
		s = "0.0"
	}
	return jen.Id(s)
}

// hex returns v as a hexadecimal integer literal.
func hex(v uint64) jen.Code { return jen.Id(fmt.Sprintf("%#x", v)) }

// integer returns v as a decimal integer literal.
func integer(v int) jen.Code { return jen.Id(strconv.Itoa(v)) }

// multiLine is a composite literal with one element (here: one line of
// numbers) per line.
var multiLine = jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}

// literalRows splits vs into rows of rowLen numbers, and every row into
// lines of at most 8 numbers (whole groups of group numbers when a group
// fits), as round-trip float64 literals.
func (e *emitter) literalRows(vs []float64, rowLen, group int) []jen.Code {
	perLine := 8
	if group <= perLine {
		perLine -= perLine % group
	}
	var lines []jen.Code
	for start := 0; start < len(vs); start += rowLen {
		row := vs[start:min(start+rowLen, len(vs))]
		for a := 0; a < len(row); a += perLine {
			var items []jen.Code
			for _, v := range row[a:min(a+perLine, len(row))] {
				items = append(items, e.lit.f64(v))
			}
			lines = append(lines, jen.List(items...))
		}
	}
	return lines
}
