package codegen

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/featmap/featmap/codegen/internal/testmaps"
	"github.com/featmap/featmap/internal/fma"
)

var update = flag.Bool("update", false, "rewrite codegen/testdata/*.golden")

// goldenPlatform reports whether this build computes as the machine that
// made the golden files: amd64 without fused multiply-adds (GOAMD64 v1 or
// v2). Elsewhere — arm64, GOAMD64=v3 — math.Sin and math.Exp and the
// compiler's fused multiply-adds move the last bit of some emitted
// constants (a table entry 0.19590504298307362 → …68 at GOAMD64=v3).
func goldenPlatform() bool { return fma.Reference() }

// checkFile compares got with the file at path, or writes it with -update.
// On a platform that computes differently from the golden files' (see
// goldenPlatform) it skips the test, saying why: a comparison not made is
// not a pass. Callers check what does not depend on the platform first.
func checkFile(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if !goldenPlatform() {
			t.Fatalf("-update on %s (fused multiply-adds: %v): the golden files hold amd64's numbers without fused multiply-adds; update them on such a build", runtime.GOARCH, fma.Fused())
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !goldenPlatform() {
		t.Skipf("%s not compared: its numbers are amd64's without fused multiply-adds, this build's (%s, fused multiply-adds: %v) rounds differently", path, runtime.GOARCH, fma.Fused())
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./codegen -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is out of date: run go test ./codegen -update and review the diff\n%s", path, goldenDiff(path, want, got))
	}
}

// goldenDiffLines caps the lines goldenDiff prints of each side.
const goldenDiffLines = 40

// goldenDiff shows where got differs from want (the golden file path):
// the lines between their common first and last lines, want's with "-"
// and got's with "+" (at most goldenDiffLines each), after two lines of
// context, as the golden tests of stringer and sqlc print got against
// want.
func goldenDiff(path string, want, got []byte) string {
	w, g := strings.SplitAfter(string(want), "\n"), strings.SplitAfter(string(got), "\n")
	pre := 0
	for pre < len(w) && pre < len(g) && w[pre] == g[pre] {
		pre++
	}
	suf := 0
	for suf < len(w)-pre && suf < len(g)-pre && w[len(w)-1-suf] == g[len(g)-1-suf] {
		suf++
	}
	var b strings.Builder
	fmt.Fprintf(&b, "--- %s (want)\n+++ got\n@@ line %d: %d lines of want, %d of got @@\n", path, pre+1, len(w)-pre-suf, len(g)-pre-suf)
	for _, l := range w[max(0, pre-2):pre] {
		b.WriteString(" " + l)
	}
	side := func(sign string, ls []string) {
		for i, l := range ls {
			if i == goldenDiffLines {
				fmt.Fprintf(&b, "%s… %d more lines\n", sign, len(ls)-i)
				break
			}
			b.WriteString(sign + strings.TrimSuffix(l, "\n") + "\n")
		}
	}
	side("-", w[pre:len(w)-suf])
	side("+", g[pre:len(g)-suf])
	return b.String()
}

// TestGolden compares the emitted source of the golden test maps with
// testdata/<name>.golden.
func TestGolden(t *testing.T) {
	for _, c := range testmaps.Cases() {
		if !c.Golden {
			continue
		}
		t.Run(c.Name, func(t *testing.T) {
			src, err := Generate(c.Map(), testInfo(c.Name))
			if err != nil {
				t.Fatal(err)
			}
			checkFile(t, filepath.Join("testdata", strings.ToLower(c.Name)+".golden"), src)
		})
	}
}

// TestGoldenDiff: a golden file out of date is reported with the lines
// that differ, want's and got's, not only with its name.
func TestGoldenDiff(t *testing.T) {
	want := "package p\n\n// a\nconst A = 1\nconst B = 2\n\nfunc F() {}\n"
	got := "package p\n\n// a\nconst A = 1\nconst B = 3\nconst C = 4\n\nfunc F() {}\n"
	d := goldenDiff("testdata/p.golden", []byte(want), []byte(got))
	for _, line := range []string{"--- testdata/p.golden (want)", "@@ line 5: 1 lines of want, 2 of got @@", " const A = 1", "-const B = 2", "+const B = 3", "+const C = 4"} {
		if !strings.Contains(d, line+"\n") {
			t.Errorf("the diff lacks the line %q:\n%s", line, d)
		}
	}
	if strings.Contains(d, "func F") {
		t.Errorf("the diff shows a common line after the change:\n%s", d)
	}
	long := strings.Repeat("x\n", 100)
	if d := goldenDiff("p", []byte("a\n"), []byte(long)); !strings.Contains(d, "+… 60 more lines\n") {
		t.Errorf("a long change is not cut at %d lines:\n%s", goldenDiffLines, d)
	}
}
