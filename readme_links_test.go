package featmap

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// markdownFiles is README.md and the pages of docs/ (not the generated
// reports under docs/reports/).
func markdownFiles(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, files...)
}

// TestReadmeLinks: every relative link and image of README.md and
// docs/*.md resolves — its file or directory exists, and an anchor
// (page.md#section, or #section on the same page) names a heading of that
// page, as GitHub makes anchors from headings.
func TestReadmeLinks(t *testing.T) {
	anchors := map[string]map[string]bool{} // page path → its headings' anchors
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := map[string]bool{}
		seen := map[string]int{}
		for _, h := range parseMarkdown(string(b)).headings {
			s := headingAnchor(h)
			if n := seen[s]; n > 0 {
				a[s+"-"+strconv.Itoa(n)] = true
			} else {
				a[s] = true
			}
			seen[s]++
		}
		anchors[path] = a
		return a
	}
	for _, page := range markdownFiles(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		links := parseMarkdown(string(b)).links
		for _, l := range links {
			target := l.text
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, anchor, _ := strings.Cut(target, "#")
			path := page
			if file != "" {
				path = filepath.Clean(filepath.Join(filepath.Dir(page), file))
			}
			if _, err := os.Stat(path); err != nil {
				t.Errorf("%s:%d: link %s: no file %s", page, l.line, target, path)
				continue
			}
			if anchor == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			if !anchorsOf(path)[anchor] {
				t.Errorf("%s:%d: link %s: %s has no heading with the anchor #%s", page, l.line, target, path, anchor)
			}
		}
	}
}

// headingAnchor is the anchor GitHub gives a heading: lower case, every
// character but letters, digits, spaces, hyphens and underscores dropped,
// spaces turned into hyphens.
func headingAnchor(h string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(h) {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
			b.WriteRune(r)
		case r == ' ':
			b.WriteByte('-')
		}
	}
	return b.String()
}
