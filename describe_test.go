package featmap

import (
	"reflect"
	"testing"
)

// TestMethodLabels: labels show the options that tell methods apart or
// differ from the defaults.
func TestMethodLabels(t *testing.T) {
	cases := []struct {
		methods string
		want    []string
	}{
		{"[chum, vz, li, chebyshev]", []string{"chum", "vz", "li", "chebyshev"}},
		{"[vz, {name: vz, window: uniform}]", []string{"vz (rectangular)", "vz (uniform)"}},
		{"[{name: vz, window: uniform}]", []string{"vz (uniform)"}},
		{"[{name: vz, period: 0.6}, vz]", []string{"vz (period 0.6)", "vz"}},
		{"[chum, {name: chum, polish: false, starts: 4}]", []string{"chum", "chum (no polish, starts 4)"}},
		{"[li, {name: li, bins: 10}]", []string{"li (bins 100)", "li (bins 10)"}},
	}
	multi := []struct {
		methods string
		want    []string
	}{
		{"[projection, {name: projection, pool: tensor}, modulation, tensor-greedy]",
			[]string{"projection (pool polar)", "projection (pool tensor)", "modulation", "tensor-greedy"}},
		{"[{name: modulation, starts: 2}, modulation]", []string{"modulation (starts 2)", "modulation"}},
		{"[{name: projection, angles: 12}]", []string{"projection (angles 12)"}},
	}
	check := func(spec, methods string, want []string) {
		t.Helper()
		s := parseCompare(t, spec)
		if got := MethodLabels(s.Compare.Methods); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: labels %q, want %q", methods, got, want)
		}
	}
	for _, c := range cases {
		check("version: 1\nname: L\nkernel: {type: chi2}\ndomain: {integers: [0, 255]}\ncompare:\n  methods: "+c.methods+"\n  dims: [3]\n", c.methods, c.want)
	}
	for _, c := range multi {
		check("version: 1\nname: L\nkernel: {type: rbf, sigma: 0.3}\ndomain: {dims: 2, interval: [0, 1]}\ncompare:\n  methods: "+c.methods+"\n  dims: [9]\n", c.methods, c.want)
	}
}
