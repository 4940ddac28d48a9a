package spec

import (
	"bytes"
	"fmt"
	"strings"
)

// This file finds the line whose indentation broke a spec's YAML, for the
// message of a parser error ("did not find expected key") that names only
// where the parser gave up.

// indentLine is one line of block YAML as badIndent sees it.
type indentLine struct {
	num    int    // 1-based
	indent int    // leading spaces
	key    string // the key before ':', if the line has one
	opens  bool   // it ends with ':' (a key whose value is the block below) or is a bare "-"
	item   int    // for a "- " item, the column of its content, else -1
}

// indentLevel is an open block: its indentation and the line that
// started it (0 for the document's top level).
type indentLevel struct {
	indent int
	from   indentLine
}

// badIndent returns the first line (of the first upto) whose indentation
// block YAML cannot read — more than the line above when that
// line opens no block, or between two open blocks' — and why in words
// ("line 8 is indented by 1 space, …"); ok is false when it finds none
// (the parser's message alone then says what is wrong). Flow collections
// spanning lines, block scalars, comments, blank lines and lines indented
// with tabs (the tab message says so) are skipped.
func badIndent(data []byte, upto int) (line int, why string, ok bool) {
	levels := []indentLevel{{indent: -1}}
	var prev *indentLine
	flow := 0    // depth of [ and { open at the start of a line
	scalar := -1 // a block scalar's key indentation while its lines are skipped
	for i, raw := range bytes.Split(data, []byte("\n")) {
		num := i + 1
		if num > upto {
			break
		}
		s := strings.TrimRight(string(raw), "\r")
		text := strings.TrimLeft(s, " ")
		indent := len(s) - len(text)
		body := strings.TrimSpace(stripComment(text))
		switch {
		case body == "" || strings.HasPrefix(text, "\t"):
			continue
		case scalar >= 0 && indent > scalar:
			continue
		case flow > 0:
			flow = max(0, flow+flowDepth(body))
			continue
		}
		scalar = -1
		l := indentLine{num: num, indent: indent, item: -1}
		content := body
		for strings.HasPrefix(content, "- ") || content == "-" {
			if content == "-" {
				l.opens = true
				break
			}
			rest := strings.TrimLeft(content[1:], " ")
			l.item = indent + len(body) - len(rest)
			content = rest
		}
		if k, v, found := strings.Cut(content, ":"); found && !strings.ContainsAny(k, "[{\"'") {
			l.key = strings.TrimSpace(k)
			v = strings.TrimSpace(v)
			l.opens = l.opens || v == ""
			if strings.HasPrefix(v, "|") || strings.HasPrefix(v, ">") {
				scalar = indent
			}
			flow = max(0, flowDepth(v))
		} else if l.key == "" {
			flow = max(0, flowDepth(content))
		}

		top := levels[len(levels)-1]
		switch {
		case prev == nil:
			levels = append(levels, indentLevel{indent: indent, from: l})
		case indent > top.indent:
			switch {
			case prev.opens || prev.item >= 0 && indent == prev.item:
				levels = append(levels, indentLevel{indent: indent, from: *prev})
			default:
				what := fmt.Sprintf("line %d", prev.num)
				if prev.key != "" {
					what = prev.key
				}
				return num, fmt.Sprintf("line %d is indented by %s, more than line %d above it (%s), where %s already has its value: a key beside it is indented by %s",
					num, spaces(indent), prev.num, spaces(prev.indent), what, spaces(prev.indent)), true
			}
		case indent < top.indent:
			inner := top
			for len(levels) > 1 && levels[len(levels)-1].indent > indent {
				inner = levels[len(levels)-1]
				levels = levels[:len(levels)-1]
			}
			if outer := levels[len(levels)-1]; outer.indent != indent {
				return num, fmt.Sprintf("line %d is indented by %s, which lines up with no block above it: %s at %s, %s at %s",
					num, spaces(indent), blockName(inner), spaces(inner.indent), blockName(outer), spaces(outer.indent)), true
			}
		}
		if l.item >= 0 && len(levels) > 0 && levels[len(levels)-1].indent == indent && prev != nil && prev.opens && prev.indent == indent {
			// A sequence at its key's own indentation (key:\n- a).
			levels = append(levels, indentLevel{indent: indent, from: *prev})
		}
		prev = &l
	}
	return 0, "", false
}

// spaces says n spaces in words.
func spaces(n int) string {
	if n == 1 {
		return "1 space"
	}
	return fmt.Sprintf("%d spaces", n)
}

// lineKey names the key of a line for a message ("name (line 2)").
func lineKey(l indentLine) string {
	if l.key == "" {
		return fmt.Sprintf("line %d", l.num)
	}
	return fmt.Sprintf("%s (line %d)", l.key, l.num)
}

// blockName names an open block for a message: the keys of the key that
// opened it, or the top-level keys.
func blockName(b indentLevel) string {
	switch {
	case b.from.num == 0 || b.indent == 0:
		return "the top-level keys"
	case b.from.key == "":
		return fmt.Sprintf("the block of line %d", b.from.num)
	}
	return fmt.Sprintf("the keys of %s", lineKey(b.from))
}

// stripComment drops a comment from a line of YAML: a # at its start or
// after a space, outside quotes.
func stripComment(s string) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'):
			return s[:i]
		}
	}
	return s
}

// flowDepth is how many more [ and { than ] and } s opens, outside quotes.
func flowDepth(s string) int {
	d := 0
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '[' || c == '{':
			d++
		case c == ']' || c == '}':
			d--
		}
	}
	return d
}
