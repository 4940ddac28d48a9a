package report

import (
	"reflect"
	"slices"
	"testing"
)

// TestDimAxisLabels: the x axis has a tick at every compared value and a
// label where labels do not collide — each at least an eighth of the axis
// from the one before, the largest value always labelled — so dense
// dimensions keep every label and widths 16, 32, 64, … 704 drop the
// crowded ones.
func TestDimAxisLabels(t *testing.T) {
	cases := []struct {
		dims   []int
		labels []string
	}{
		{[]int{3, 4, 5, 6, 7, 8, 9, 10, 11}, []string{"3", "4", "5", "6", "7", "8", "9", "10", "11"}},
		{[]int{16, 64, 256, 1024}, []string{"16", "", "256", "1024"}},
		{[]int{16, 32, 64, 128, 192, 256, 320, 384, 448, 512, 576, 640, 704},
			[]string{"16", "", "", "128", "", "256", "", "384", "", "512", "", "", "704"}},
		{[]int{5}, []string{"5"}},
	}
	for _, c := range cases {
		in := &Input{Dims: c.dims}
		ticks, lo, hi := in.dimTicks()
		if want := float64(slices.Min(c.dims)) - 0.5; lo != want {
			t.Errorf("%v: axis from %v, want %v", c.dims, lo, want)
		}
		if want := float64(slices.Max(c.dims)) + 0.5; hi != want {
			t.Errorf("%v: axis to %v, want %v", c.dims, hi, want)
		}
		var labels []string
		for i, tk := range ticks {
			if tk.Value != float64(c.dims[i]) {
				t.Errorf("%v: tick %d at %v", c.dims, i, tk.Value)
			}
			labels = append(labels, tk.Label)
		}
		if !reflect.DeepEqual(labels, c.labels) {
			t.Errorf("%v: labels %q, want %q", c.dims, labels, c.labels)
		}
	}
}

// TestWidthsNames: a comparison by widths names its columns "width W" and
// its axis "width"; by dimensions "D = d".
func TestWidthsNames(t *testing.T) {
	in := &Input{}
	if in.at(7) != "D = 7" || in.atList([]int{3, 4, 5}) != "D = 3..5" || in.axis() != "D" {
		t.Errorf("by D: %q, %q, %q", in.at(7), in.atList([]int{3, 4, 5}), in.axis())
	}
	in.Widths = true
	if in.at(64) != "width 64" || in.atListPlain([]int{16, 32}) != "width 16, 32" || in.axis() != "width" {
		t.Errorf("by width: %q, %q, %q", in.at(64), in.atListPlain([]int{16, 32}), in.axis())
	}
}
