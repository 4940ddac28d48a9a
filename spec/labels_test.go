package spec

import (
	"reflect"
	"testing"
)

// TestMethodLabels: labels show the options that tell methods apart or
// differ from the defaults.
func TestMethodLabels(t *testing.T) {
	const (
		chi2 = "kernel: {type: chi2}\ndomain: {integers: [0, 255]}\ncompare:\n  dims: [3]\n"
		rbf2 = "kernel: {type: rbf, sigma: 0.3}\ndomain: {dims: 2, interval: [0, 1]}\ncompare:\n  dims: [9]\n"
	)
	cases := []struct {
		setting, methods string
		want             []string
	}{
		{chi2, "[chum, vz, li, chebyshev]", []string{"chum", "vz", "li", "chebyshev"}},
		{chi2, "[vz, {name: vz, window: uniform}]", []string{"vz (rectangular)", "vz (uniform)"}},
		{chi2, "[{name: vz, window: uniform}]", []string{"vz (uniform)"}},
		{chi2, "[{name: vz, period: 0.6}, vz]", []string{"vz (period 0.6)", "vz"}},
		{chi2, "[chum, {name: chum, polish: false, starts: 4}]", []string{"chum", "chum (no polish, starts 4)"}},
		{chi2, "[li, {name: li, bins: 10}]", []string{"li (bins 100)", "li (bins 10)"}},
		{rbf2, "[projection, {name: projection, pool: tensor}, modulation, tensor-greedy]",
			[]string{"projection (pool polar)", "projection (pool tensor)", "modulation", "tensor-greedy"}},
		{rbf2, "[{name: modulation, starts: 2}, modulation]", []string{"modulation (starts 2)", "modulation"}},
		{rbf2, "[{name: projection, angles: 12}]", []string{"projection (angles 12)"}},
	}
	for _, c := range cases {
		s := parseCompare(t, "version: 1\nname: L\n"+c.setting+"  methods: "+c.methods+"\n")
		if got := MethodLabels(s.Compare.Methods); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: labels %q, want %q", c.methods, got, c.want)
		}
	}
}

// parseCompare parses a comparison spec, failing the test on an error.
func parseCompare(t *testing.T, text string) *Spec {
	t.Helper()
	s, err := Parse("compare.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}
