package spec

import (
	"strings"
	"testing"
)

// TestCompareDuplicatesAfterDefaults: two compared methods that are the
// same once their defaults are filled in — a default spelled out, a seed
// of 0 that stands for 1 — are refused as a duplicate at the second's
// line, as two identical ones are (they were designed twice, as two rows
// of the report); options that differ are two methods.
func TestCompareDuplicatesAfterDefaults(t *testing.T) {
	spec := func(kernel, domain, a, b string) string {
		return lines("version: 1", "name: X", "kernel: "+kernel, "domain: "+domain, "compare:", "  methods:", "    - "+a, "    - "+b, "  dims: [4]", "data: {file: d.csv}")
	}
	rbf, box := "{type: rbf, sigma: 2}", "{dims: 2, interval: [0, 10]}"
	chi2, ints := "{type: chi2}", "{integers: [0, 31]}"
	poly := "{type: poly, degree: 2}"
	for _, c := range []struct {
		kernel, domain, a, b string
		dup                  bool
	}{
		{rbf, box, "{name: nystroem, n_landmarks: 64}", "{name: nystroem, n_landmarks: 64, seed: 1}", true},
		{rbf, box, "{name: nystroem, seed: 0}", "{name: nystroem}", true},
		{rbf, box, "{name: rff}", "{name: rff, seed: 1, features: cos-sin}", true},
		{rbf, box, "{name: tensor-greedy}", "{name: tensor-greedy, seed: 1}", true},
		{chi2, ints, "{name: chum, polish: true, continuation: true}", "{name: chum}", true},
		{chi2, ints, "{name: chum, seed: 1, refine_iterations: 8}", "{name: chum}", true},
		{rbf, box, "{name: nystroem, n_landmarks: 64}", "{name: nystroem, n_landmarks: 64, seed: 2}", false},
		{rbf, box, "{name: rff}", "{name: rff, features: phase}", false},
		{chi2, ints, "{name: chum, polish: false}", "{name: chum}", false},
		// polynomial's default seed is 0: seed 1 is another sketch.
		{poly, box, "{name: polynomial}", "{name: polynomial, seed: 1}", false},
		{poly, box, "{name: polynomial}", "{name: polynomial, seed: 0}", true},
	} {
		src := spec(c.kernel, c.domain, c.a, c.b)
		_, err := Parse("x.yaml", []byte(src))
		want := "x.yaml:8: compare.methods[1]: same method and options as compare.methods[0]"
		switch {
		case c.dup && (err == nil || !strings.HasPrefix(err.Error(), want)):
			t.Errorf("%s and %s: %v, want %q", c.a, c.b, err, want)
		case !c.dup && err != nil:
			t.Errorf("%s and %s: %v, want two methods", c.a, c.b, err)
		}
	}
}

// TestMiscasedKeys: a key in the wrong case is an unknown key with the
// right one suggested, as a typo is — a compared method's or the method
// section's NAME (it was reported only as a missing name), a top-level
// KERNEL, a kernel's SIGMA.
func TestMiscasedKeys(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{lines("version: 1", "name: X", "kernel: {type: chi2}", "domain: {integers: [0, 31]}", "compare:", "  methods: [vz, {NAME: li}]", "  dims: [3]"),
			"x.yaml:6: compare.methods[1].NAME: unknown key (did you mean name?); a method is a mapping with name (one of chum,"},
		{lines("version: 1", "name: X", "kernel: {type: chi2}", "domain: {integers: [0, 31]}", "compare:", "  methods:", "    - vz", "    - Name: li", "      bins: 10", "  dims: [3]"),
			"x.yaml:8: compare.methods[1].Name: unknown key (did you mean name?)"},
		{lines("version: 1", "name: X", "kernel: {type: chi2}", "domain: {integers: [0, 31]}", "target: {dim: 3}", "method: {NAME: vz}"),
			"x.yaml:6: method.NAME: unknown key (did you mean name?)"},
		{lines("version: 1", "name: X", "KERNEL: {type: chi2}", "domain: {integers: [0, 31]}", "target: {dim: 3}", "method: {name: vz}"),
			"x.yaml:3: KERNEL: unknown key (did you mean kernel?)"},
		{lines("version: 1", "name: X", "kernel: {type: rbf, SIGMA: 1}", "domain: {interval: [0, 1]}", "target: {dim: 3}", "method: {name: chum}"),
			"x.yaml:3: kernel.SIGMA: unknown key (did you mean sigma?)"},
	} {
		_, err := Parse("x.yaml", []byte(c.src))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
}
