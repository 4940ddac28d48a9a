package featmap

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/featmap/featmap/registry"
	"github.com/featmap/featmap/spec"
)

// TestReadmeMethodTable: the README's table of methods lists exactly the
// registry's methods, in its order, and its options column quotes (in
// backticks) exactly the option keys each method decodes from a spec.
func TestReadmeMethodTable(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(b), "| method | kernels | dimensions | options (defaults) |")
	if !ok {
		t.Fatal("README.md has no method table (header | method | kernels | dimensions | options (defaults) |)")
	}
	row := regexp.MustCompile("^\\| `([a-z0-9-]+)` \\|")
	code := regexp.MustCompile("`([a-z_0-9]+)`")
	var names []string
	for _, line := range strings.Split(table, "\n")[2:] {
		m := row.FindStringSubmatch(line)
		if m == nil {
			break
		}
		names = append(names, m[1])
		method := registry.New(m[1])
		if method == nil {
			continue
		}
		want := spec.OptionKeys(method)
		cells := strings.Split(strings.ReplaceAll(line, `\|`, "/"), "|")
		var got []string
		for _, c := range code.FindAllStringSubmatch(cells[len(cells)-2], -1) {
			if !slices.Contains(got, c[1]) {
				got = append(got, c[1])
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("README row %s names options %v; the method decodes %v", m[1], got, want)
		}
	}
	if !slices.Equal(names, registry.Names()) {
		t.Errorf("README methods %v, registry %v", names, registry.Names())
	}
}
