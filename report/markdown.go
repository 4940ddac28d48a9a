package report

import (
	"bytes"
	"fmt"
	"strings"
)

// markdown renders report.md: the tables, and the plots as links to the
// SVG files beside it.
func (in *Input) markdown(figs []figure) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n# %s: %d methods compared\n\n%s.\n\n", Marker, in.Name, len(in.Methods), in.Summary)
	if w := in.winners(); w != "" {
		fmt.Fprintf(&b, "%s\n\n", w)
	}
	for _, it := range in.Spec {
		fmt.Fprintf(&b, "- **%s**: %s\n", it.Key, mdEscape(it.Value))
	}
	b.WriteString("\n")
	var detail []figure
	for _, f := range figs {
		if strings.HasPrefix(f.File, "error-") {
			fmt.Fprintf(&b, "![%s](%s)\n\n", f.Title, f.File)
		} else {
			detail = append(detail, f)
		}
	}
	for _, t := range in.tables() {
		fmt.Fprintf(&b, "## %s\n\n| method |", t.Title)
		for _, c := range t.Cols {
			fmt.Fprintf(&b, " %s |", c)
		}
		b.WriteString("\n|:--|")
		b.WriteString(strings.Repeat("--:|", len(t.Dims)))
		b.WriteString("\n")
		for _, r := range t.Rows {
			fmt.Fprintf(&b, "| %s |", mdEscape(r.Label))
			for _, c := range r.Cells {
				s := c.Status
				if s == StatusOK {
					s = t.cellText(c)
					if c.Best {
						s = "**" + s + "**"
					}
				}
				fmt.Fprintf(&b, " %s |", s)
			}
			b.WriteString("\n")
		}
		b.WriteString("\n")
	}
	b.WriteString("Bold: the smallest value in its column.\n")
	na, failed := in.notes()
	for _, n := range append(na, failed...) {
		fmt.Fprintf(&b, "- %s\n", mdEscape(n))
	}
	b.WriteString("\n")
	for _, f := range detail {
		fmt.Fprintf(&b, "## %s\n\n![%s](%s)\n\n%s\n\n", f.Title, f.Title, f.File, mdEscape(f.Caption))
	}
	b.WriteString("## How it was measured\n\n")
	for _, it := range in.measured() {
		fmt.Fprintf(&b, "- **%s.** %s\n", it.Term, mdEscape(it.Text))
	}
	b.WriteString("\n")
	if in.Generator != "" {
		fmt.Fprintf(&b, "Made by %s", in.Generator)
		if in.SpecPath != "" {
			fmt.Fprintf(&b, " from `%s`", in.SpecPath)
		}
		b.WriteString(".")
		if in.Command != "" {
			fmt.Fprintf(&b, " Regenerate with `%s`.", in.Command)
		}
		b.WriteString("\n")
	}
	return b.Bytes()
}

// mdEscape escapes the characters that would break a Markdown table or
// start emphasis.
func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "*", `\*`, "_", `\_`, "<", "&lt;").Replace(s)
}
