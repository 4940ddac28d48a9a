package spec

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// TestSeveralErrorsAtOnce: a spec's independent errors come in one run,
// one "file:line: key: message" line each: first the one featmap gave
// when it stopped at the first (its text unchanged), then the others by
// line; errors.As finds the first as a *SpecError.
func TestSeveralErrorsAtOnce(t *testing.T) {
	src := lines(
		"version: 1",
		"name: Chi2Typos",
		"kernel: {type: chi2, gama: 1}",
		"domain: {integers: [0, 255]}",
		"target: {dimm: 7}",
		"method: {name: chum, startz: 4}",
		"data: {file: d.csv, colums: [0, 3]}",
	)
	_, err := Parse("x.yaml", []byte(src))
	want := []string{
		"x.yaml:3: kernel.gama: unknown key (did you mean gamma?); kernel keys are type, gamma, sigma, c, beta, degree, scale, offset, nu",
		"x.yaml:5: target.dimm: unknown key (did you mean dim?); target keys are dim, max_error, max_dim",
		"x.yaml:6: method.startz: unknown option (did you mean starts?); chum options are omega_max, spacing, z_points, continuation, refine_iterations, polish, starts, seed",
		"x.yaml:7: data.colums: unknown key (did you mean columns?); data keys are file, columns, label_column, header, max_rows, holdout",
	}
	if err == nil || err.Error() != strings.Join(want, "\n") {
		t.Fatalf("error:\n%v\nwant:\n%s", err, strings.Join(want, "\n"))
	}
	var list *SpecErrors
	var first *SpecError
	if !errors.As(err, &list) || len(list.Errors()) != 4 || !errors.As(err, &first) || first.Field != "kernel.gama" || first.Line != 3 {
		t.Errorf("errors.As: %v %v", list, first)
	}

	// The first error met leads even when it is not the first line.
	src = lines(
		"version: 1",
		"name: X",
		"kernel: {type: chi2}",
		"domain: {integers: [0, 255]}",
		"target: {dim: 7}",
		"method: {name: chumm}",
		"emit: {tables: fastest}",
	)
	_, err = Parse("x.yaml", []byte(src))
	if err == nil || !strings.HasPrefix(err.Error(), "x.yaml:7: emit.tables: unknown choice \"fastest\"") || !strings.Contains(err.Error(), "\nx.yaml:6: method.name: unknown method \"chumm\"") {
		t.Errorf("error %v", err)
	}
}

// TestSeveralErrorsIndependence: an error stops the checks that need what
// it is about, not the others. A kernel that cannot be read stops the
// domain's and the method's checks against it (their own keys are still
// read), not the name's or the data section's; an unknown key meant for
// a section (kernal) is not followed by "missing kernel"; every compared
// method is checked; several unknown keys of one section are all named.
func TestSeveralErrorsIndependence(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		want []string // the lines, in order
	}{
		{"a bad kernel", lines(
			"version: 1",
			"name: lower",
			"kernel: {type: chi3}",
			"domain: {dims: 2, integers: [0, 9], negativ: zero}",
			"target: {dim: 7}",
			"method: {name: vz, windw: uniform}",
			"data: {file: d.csv, max_rows: 1}",
		), []string{
			`x.yaml:2: name: "lower" must start with an uppercase letter: it prefixes exported Go names`,
			`x.yaml:3: kernel.type: unknown kernel "chi3"`,
			`x.yaml:4: domain.negativ: unknown key (did you mean negative?)`,
			`x.yaml:6: method.windw: unknown option (did you mean window?)`,
			`x.yaml:7: data.max_rows: must be >= 2, not 1`,
		}},
		{"a typo of a section's key", lines(
			"version: 1",
			"name: X",
			"kernal: {type: chi2}",
			"domain: {integers: [0, 9]}",
			"target: {dim: 7, max_dim: 9}",
			"method: {name: chum}",
		), []string{
			`x.yaml:3: kernal: unknown key (did you mean kernel?)`,
			`x.yaml:5: target.max_dim: applies only with target.max_error, not with target.dim`,
		}},
		{"compared methods", lines(
			"version: 1",
			"name: X",
			"kernel: {type: chi2}",
			"domain: {integers: [0, 9]}",
			"compare:",
			"  methods:",
			"    - {name: vz, windw: uniform}",
			"    - {name: li, bins: -1}",
			"    - rff",
			"  dims: [3, 3]",
		), []string{
			`x.yaml:7: compare.methods[0].windw: unknown option (did you mean window?)`,
			`x.yaml:8: compare.methods[1].bins: must be >= `,
			`x.yaml:9: compare.methods[2]: rff`,
			`x.yaml:10: compare.dims[1]: duplicate dimension 3 (also compare.dims[0])`,
		}},
		{"unknown keys of one section", lines(
			"version: 1",
			"name: X",
			"kernel: {type: rbf, sigam: 1, gama: 2}",
			"domain: {interval: [0, 1]}",
			"target: {dim: 7}",
			"method: {name: chum}",
		), []string{
			`x.yaml:3: kernel.sigam: unknown key (did you mean sigma?)`,
			`x.yaml:3: kernel.gama: unknown key (did you mean gamma?)`,
		}},
	} {
		_, err := Parse("x.yaml", []byte(c.src))
		if err == nil {
			t.Errorf("%s: no error", c.name)
			continue
		}
		got := strings.Split(err.Error(), "\n")
		if len(got) != len(c.want) {
			t.Errorf("%s: %d errors, want %d:\n%v", c.name, len(got), len(c.want), err)
			continue
		}
		for i, w := range c.want {
			if !strings.HasPrefix(got[i], w) {
				t.Errorf("%s: line %d %q, want %q", c.name, i+1, got[i], w)
			}
		}
	}
}

// TestSeveralErrorsAtMostTen: a spec of many errors gives the first ten
// and says how many more there are.
func TestSeveralErrorsAtMostTen(t *testing.T) {
	src := "version: 1\nname: X\nkernel: {type: chi2}\ndomain: {integers: [0, 9]}\ntarget: {dim: 7}\nmethod: {name: chum}\n"
	for i := range 13 {
		src += fmt.Sprintf("junk%d: 1\n", i)
	}
	_, err := Parse("x.yaml", []byte(src))
	got := strings.Split(fmt.Sprint(err), "\n")
	if len(got) != 11 || got[10] != "x.yaml: 3 more errors not shown" || !strings.HasPrefix(got[0], "x.yaml:7: junk0: unknown key") {
		t.Errorf("error:\n%v", err)
	}
}

// TestBadIndentNamesTheLine: a spec the YAML parser cannot read because
// of a line's indentation says which line and how it is indented against
// the blocks around it, not only the parser's "did not find expected
// key" where it gave up; valid YAML of every block form is not blamed.
func TestBadIndentNamesTheLine(t *testing.T) {
	head := "version: 1\nname: X\n"
	for _, c := range []struct{ body, want string }{
		{"kernel:\n  type: rbf\n   sigma: 2\n",
			"x.yaml:5: invalid YAML: mapping values are not allowed in this context (line 5 is indented by 3 spaces, more than line 4 above it (2 spaces), where type already has its value: a key beside it is indented by 2 spaces)"},
		{"kernel: {type: rbf, sigma: 2}\ndomain:\n  dims: 2\n interval: [0, 1]\n",
			"x.yaml:6: invalid YAML: did not find expected key (line 6 is indented by 1 space, which lines up with no block above it: the keys of domain (line 4) at 2 spaces, the top-level keys at 0 spaces)"},
		{"kernel:\n    type: rbf\n  sigma: 2\n",
			"x.yaml:5: invalid YAML: did not find expected key (line 5 is indented by 2 spaces, which lines up with no block above it: the keys of kernel (line 3) at 4 spaces, the top-level keys at 0 spaces)"},
		{" kernel: {type: rbf, sigma: 2}\n",
			"x.yaml:3: invalid YAML: mapping values are not allowed in this context (line 3 is indented by 1 space, more than line 2 above it (0 spaces), where name already has its value: a key beside it is indented by 0 spaces)"},
	} {
		_, err := Parse("x.yaml", []byte(head+c.body))
		if err == nil || err.Error() != c.want {
			t.Errorf("%q:\n got %v\nwant %s", c.body, err, c.want)
		}
	}
	valid := "version: 1\nname: X\n# a comment\nkernel:\n  type: chi2   # χ²\ndomain: {integers: [0,\n    255]}\ncompare:\n  methods:\n  - vz\n  - name: li\n    bins: 10\n  -\n    name: chebyshev\n  dims:\n    - 3\n    - 5\nnotes: |\n    free text\n  indented as it likes\n"
	if l, why, ok := badIndent([]byte(valid), 1000); ok {
		t.Errorf("valid YAML blamed: line %d: %s", l, why)
	}
}
