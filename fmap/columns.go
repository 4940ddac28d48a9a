package fmap

import "fmt"

// DataColumns are the columns of a data file a map was designed from, as
// a spec's data section gives them: the inputs Columns = [first, last]
// (0-based, inclusive; nil for every column but the label's) and the
// LabelColumn (−1 for none). featmap eval reads a test file of the same
// layout by them.
type DataColumns struct {
	Columns     []int `json:"columns,omitempty"`
	LabelColumn int   `json:"label_column"`
}

// Check reports why c is not a data section's columns, or nil: Columns a
// pair 0 ≤ first ≤ last, LabelColumn −1 or a column outside them. Its
// errors are *FieldError values naming the key (columns, label_column).
func (c *DataColumns) Check() error {
	if c.Columns != nil {
		if len(c.Columns) != 2 || c.Columns[0] < 0 || c.Columns[1] < c.Columns[0] {
			return &FieldError{Field: "columns", Msg: fmt.Sprintf("%v: want [first, last] with 0 ≤ first ≤ last", c.Columns)}
		}
		if l := c.LabelColumn; l >= c.Columns[0] && l <= c.Columns[1] {
			return &FieldError{Field: "label_column", Msg: fmt.Sprintf("%d is inside the columns [%d, %d]: a label is never an input", l, c.Columns[0], c.Columns[1])}
		}
	}
	if c.LabelColumn < -1 {
		return &FieldError{Field: "label_column", Msg: fmt.Sprintf("%d: want a column (0, 1, …) or -1 for none", c.LabelColumn)}
	}
	return nil
}
