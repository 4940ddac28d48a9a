package featmap

import (
	"bytes"
	"fmt"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode"
)

// The README's commands, as printed. TestReadmeCommands runs them in a
// scratch directory that links the repository's directories (specs/,
// testdata/, …) so that a command may read them and writes only there:
//
//   - a ```yaml block whose first line is "# NAME.yaml" is written to
//     NAME.yaml first (the README's "save this as" specs);
//   - every line of a ```sh block is a command, and so is an inline code
//     span that starts with "featmap " or "go test ". A featmap command
//     ("featmap …", "go run ./cmd/featmap …", "go tool featmap …") runs
//     through sh with the featmap binary, built once for this test, first
//     on PATH, and must exit 0; the lines of one block run in order, so
//     that a later one sees what an earlier one wrote. An inline featmap
//     span with a placeholder in capitals (featmap init KERNEL) is a
//     synopsis: `featmap help SUBCOMMAND` must know its subcommand;
//   - a ```text block right after a ```sh block is an excerpt of the
//     output of that block's last command: each of its lines but "…"
//     must be a line of the output, in order, with every number masked
//     (the numbers are amd64's; another platform moves their last digits);
//   - a //go:generate line of a ```go block runs as go generate would run
//     it (its `go tool featmap` is the binary, $GOPACKAGE the block's
//     package clause);
//   - a `go test …` command is not run (it would run this test again, or
//     the whole suite): its packages must exist and its -run and -bench
//     patterns must match tests and benchmarks of those packages
//     (checkGoTestCommand). `go install` and `go get -tool` must name this
//     module's command; `go generate ./...` is the downstream run of the
//     //go:generate lines, which are run as above; apt-get installs a
//     system package and is not run.
//
// With -short, featmap compare is not run (its designs take seconds).
// Any other command fails the test, so that a command added to the README
// is either run or given a reason here.
func TestReadmeCommands(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := parseMarkdown(string(readme))
	// CI runs "the test command the README gives", and the owner the
	// design command: both stay verbatim in an sh block.
	for _, want := range []string{"go run ./cmd/featmap design specs/table1-chi2-7d.yaml", "go test -timeout 30m ./..."} {
		found := false
		for _, b := range doc.blocks {
			if b.lang == "sh" && slices.Contains(shellLines(b.text), want) {
				found = true
			}
		}
		if !found {
			t.Errorf("README.md has no sh block with the line %q", want)
		}
	}

	r := newReadmeRunner(t)
	for i, b := range doc.blocks {
		switch b.lang {
		case "yaml":
			first, _, _ := strings.Cut(b.text, "\n")
			if m := regexp.MustCompile(`^# ([\w.-]+\.yaml)$`).FindStringSubmatch(first); m != nil {
				if err := os.WriteFile(filepath.Join(r.dir, m[1]), []byte(b.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		case "go":
			pkg := regexp.MustCompile(`(?m)^package (\w+)$`).FindStringSubmatch(b.text)
			for _, line := range strings.Split(b.text, "\n") {
				cmd, ok := strings.CutPrefix(line, "//go:generate ")
				if !ok {
					continue
				}
				if pkg == nil {
					t.Errorf("README.md:%d: a //go:generate line in a go block with no package clause", b.line)
					continue
				}
				r.run(b.line, cmd, "GOPACKAGE="+pkg[1])
			}
		case "sh":
			var out string
			for _, cmd := range shellLines(b.text) {
				out = r.command(b.line, cmd)
			}
			if i+1 < len(doc.blocks) && doc.blocks[i+1].lang == "text" && !r.skipped {
				checkExcerpt(t, doc.blocks[i+1], out)
			}
		}
	}
	for _, span := range doc.spans {
		if strings.HasPrefix(span.text, "featmap ") || strings.HasPrefix(span.text, "go test ") {
			r.command(span.line, span.text)
		}
	}
}

// TestReadmeDocsGoTestCommands: every `go test …` command of README.md and
// docs/*.md names packages that exist and tests and benchmarks that they
// hold (checkGoTestCommand), so that a renamed test or a moved package
// does not leave a page pointing at nothing.
func TestReadmeDocsGoTestCommands(t *testing.T) {
	for _, path := range markdownFiles(t) {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		doc := parseMarkdown(string(b))
		for _, bl := range doc.blocks {
			if bl.lang != "sh" {
				continue
			}
			for _, cmd := range shellLines(bl.text) {
				if strings.HasPrefix(cmd, "go test ") || cmd == "go test" {
					if err := checkGoTestCommand(cmd); err != nil {
						t.Errorf("%s:%d: %s: %v", path, bl.line, cmd, err)
					}
				}
			}
		}
		for _, s := range doc.spans {
			if strings.HasPrefix(s.text, "go test ") || s.text == "go test" {
				if err := checkGoTestCommand(s.text); err != nil {
					t.Errorf("%s:%d: %s: %v", path, s.line, s.text, err)
				}
			}
		}
	}
}

// readmeRunner runs the README's commands in its scratch directory dir
// with the featmap binary in bin first on PATH.
type readmeRunner struct {
	t        *testing.T
	dir, bin string
	// skipped: the last command was passed over with -short.
	skipped bool
}

// newReadmeRunner builds featmap once and lays out the scratch directory:
// a link to each of the repository's top-level directories (not its
// files, so that gen's package clause comes from the scratch directory's
// own Go files, as in a user's package).
func newReadmeRunner(t *testing.T) *readmeRunner {
	t.Helper()
	root, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	r := &readmeRunner{t: t, dir: filepath.Join(tmp, "readme"), bin: filepath.Join(tmp, "bin")}
	for _, d := range []string{r.dir, r.bin} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", filepath.Join(r.bin, "featmap"), "./cmd/featmap")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/featmap: %v\n%s", err, out)
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !strings.HasPrefix(e.Name(), ".") {
			if err := os.Symlink(filepath.Join(root, e.Name()), filepath.Join(r.dir, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	return r
}

// featmapCommand matches the ways the README runs featmap: the binary on
// PATH, go run from a checkout, go tool in a module that declares it.
var featmapCommand = regexp.MustCompile(`(^|&& |; )(go run \./cmd/featmap|go tool featmap|featmap)( |$)`)

// placeholder is a word in capitals standing for an argument (KERNEL,
// SPEC.yaml, COMMAND) in a synopsis.
var placeholder = regexp.MustCompile(`\b[A-Z][A-Z_]+\b`)

// command handles one README command (see TestReadmeCommands) and returns
// its output if it was run.
func (r *readmeRunner) command(line int, cmd string) string {
	t := r.t
	if c, _, ok := strings.Cut(cmd, " #"); ok {
		cmd = strings.TrimSpace(c)
	}
	words := strings.Fields(cmd)
	r.skipped = false
	switch {
	case len(words) == 0:
		return ""
	case strings.HasPrefix(cmd, "go test ") || cmd == "go test":
		if err := checkGoTestCommand(cmd); err != nil {
			t.Errorf("README.md:%d: %s: %v", line, cmd, err)
		}
		return ""
	case strings.HasPrefix(cmd, "go install ") || strings.HasPrefix(cmd, "go get "):
		// Not run: it installs into the user's GOPATH or changes a
		// downstream go.mod (TestDownstreamToolsModule builds such a
		// module). It must name this module's command.
		pkg := words[len(words)-1]
		pkg, _, _ = strings.Cut(pkg, "@")
		if pkg != "./cmd/featmap" && pkg != modulePath(t)+"/cmd/featmap" {
			t.Errorf("README.md:%d: %s: installs %s, not featmap's command (%s/cmd/featmap)", line, cmd, pkg, modulePath(t))
		}
		return ""
	case cmd == "go generate ./...":
		// The downstream run of the //go:generate lines, which the test
		// runs from the go blocks.
		return ""
	case words[0] == "apt-get" || words[0] == "sudo" && len(words) > 1 && words[1] == "apt-get":
		t.Logf("README.md:%d: %s: a system package, not installed by the test", line, cmd)
		return ""
	case !featmapCommand.MatchString(cmd):
		t.Errorf("README.md:%d: %s: a command this test neither runs nor checks: teach TestReadmeCommands what to do with it", line, cmd)
		return ""
	case placeholder.MatchString(cmd):
		sub := strings.Fields(featmapCommand.ReplaceAllString(cmd, "${1}featmap "))
		if len(sub) < 2 {
			t.Errorf("README.md:%d: %s: no subcommand", line, cmd)
			return ""
		}
		out := r.run(line, "featmap help "+sub[1])
		if sub[1] != "help" && !strings.Contains(out, "usage: featmap "+sub[1]) {
			t.Errorf("README.md:%d: %s: featmap help %s does not show its usage:\n%s", line, cmd, sub[1], out)
		}
		return out
	case testing.Short() && strings.Contains(binaryScript(cmd), "featmap compare "):
		// The README's compare designs 45 maps (5 methods at 9 D); the
		// quick loop leaves it to the full run.
		t.Logf("README.md:%d: %s: not run with -short", line, cmd)
		r.skipped = true
		return ""
	default:
		return r.run(line, cmd)
	}
}

// binaryScript is cmd with each way of running featmap (featmapCommand)
// replaced by the built binary's name.
func binaryScript(cmd string) string { return featmapCommand.ReplaceAllString(cmd, "${1}featmap${3}") }

// run runs a featmap command through sh in the scratch directory, its
// featmap the built binary, and fails the test unless it exits 0.
func (r *readmeRunner) run(line int, cmd string, env ...string) string {
	t := r.t
	sh := exec.Command("sh", "-c", binaryScript(cmd))
	sh.Dir = r.dir
	sh.Env = append(os.Environ(), "PATH="+r.bin+string(os.PathListSeparator)+os.Getenv("PATH"), "FEATMAP_FORCE=")
	sh.Env = append(sh.Env, env...)
	var out bytes.Buffer
	sh.Stdout, sh.Stderr = &out, &out
	if err := sh.Run(); err != nil {
		t.Errorf("README.md:%d: %s: %v\n%s", line, cmd, err, out.String())
	} else {
		t.Logf("README.md:%d: %s: ok", line, cmd)
	}
	return out.String()
}

// number is a decimal number as featmap prints one (masked in excerpts).
var number = regexp.MustCompile(`[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]+)?`)

// checkExcerpt checks that every line of the text block want but "…" is a
// line of got, in order, numbers masked.
func checkExcerpt(t *testing.T, want mdBlock, got string) {
	t.Helper()
	mask := func(s string) string { return number.ReplaceAllString(strings.TrimRight(s, " "), "#") }
	lines := strings.Split(got, "\n")
	next := 0
	for k, w := range strings.Split(strings.TrimRight(want.text, "\n"), "\n") {
		if strings.TrimSpace(w) == "…" || strings.TrimSpace(w) == "" {
			continue
		}
		j := next
		for j < len(lines) && mask(lines[j]) != mask(w) {
			j++
		}
		if j == len(lines) {
			t.Errorf("README.md:%d: the output shown has the line %q, which the command does not print (in that order, numbers aside):\n%s", want.line+1+k, w, got)
			return
		}
		next = j + 1
	}
}

// checkGoTestCommand checks a `go test` command without running it: its
// package patterns (".", "./x", "./x/...", "./...") name directories of
// Go packages, and its -run and -bench patterns (their part before the
// first "/") match at least one test, fuzz test or example, or benchmark,
// of those packages. A -run pattern that matches the empty name ('^$',
// used to run benchmarks alone) needs no test. Flags it does not know are
// the test binary's (-update, -ledger all) and are passed over.
func checkGoTestCommand(cmd string) error {
	words := shellWords(strings.TrimPrefix(cmd, "go test"))
	valued := map[string]bool{"-run": true, "-bench": true, "-count": true, "-timeout": true, "-tags": true,
		"-benchtime": true, "-cpu": true, "-exec": true, "-modfile": true, "-coverprofile": true, "-p": true, "-parallel": true}
	var pkgs []string
	run, bench := "", ""
	for i := 0; i < len(words); i++ {
		w := words[i]
		name, value, hasValue := strings.Cut(w, "=")
		switch {
		case strings.HasPrefix(w, "-") && valued[strings.Replace(name, "--", "-", 1)]:
			if !hasValue {
				if i+1 == len(words) {
					return fmt.Errorf("%s has no value", w)
				}
				i++
				value = words[i]
			}
			switch strings.Replace(name, "--", "-", 1) {
			case "-run":
				run = value
			case "-bench":
				bench = value
			}
		case w == "." || strings.HasPrefix(w, "./") || strings.HasPrefix(w, "../"):
			pkgs = append(pkgs, w)
		}
	}
	if len(pkgs) == 0 {
		pkgs = []string{"."}
	}
	var dirs []string
	for _, p := range pkgs {
		ds, err := packageDirs(p)
		if err != nil {
			return err
		}
		dirs = append(dirs, ds...)
	}
	tests, benches, err := testNames(dirs)
	if err != nil {
		return err
	}
	for _, c := range []struct {
		flag, pattern string
		names         []string
	}{{"-run", run, tests}, {"-bench", bench, benches}} {
		if c.pattern == "" {
			continue
		}
		first, _, _ := strings.Cut(c.pattern, "/")
		re, err := regexp.Compile(first)
		if err != nil {
			return fmt.Errorf("%s %q: %v", c.flag, c.pattern, err)
		}
		if re.MatchString("") {
			continue
		}
		if !slices.ContainsFunc(c.names, re.MatchString) {
			return fmt.Errorf("%s %q matches nothing in %s", c.flag, c.pattern, strings.Join(pkgs, " "))
		}
	}
	return nil
}

// packageDirs returns the directories of the Go packages a pattern names.
func packageDirs(pattern string) ([]string, error) {
	base, recursive := strings.CutSuffix(pattern, "/...")
	if pattern == "./..." {
		base, recursive = ".", true
	}
	info, err := os.Stat(base)
	if err != nil || !info.IsDir() {
		return nil, fmt.Errorf("no package directory %s", base)
	}
	if !recursive {
		if _, err := build.ImportDir(base, build.ImportComment); err != nil {
			if _, ok := err.(*build.NoGoError); !ok || !hasTests(base) {
				return nil, fmt.Errorf("%s: %v", pattern, err)
			}
		}
		return []string{base}, nil
	}
	var dirs []string
	err = filepath.WalkDir(base, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != base && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		if d.IsDir() {
			dirs = append(dirs, path)
		}
		return nil
	})
	return dirs, err
}

// hasTests reports whether dir holds test files (a package of tests only).
func hasTests(dir string) bool {
	m, _ := filepath.Glob(filepath.Join(dir, "*_test.go"))
	return len(m) > 0
}

// testNames lists the tests, fuzz tests and examples, and the benchmarks,
// declared in the test files of dirs.
func testNames(dirs []string) (tests, benches []string, err error) {
	for _, d := range dirs {
		n, err := dirTestNames(d)
		if err != nil {
			return nil, nil, err
		}
		tests, benches = append(tests, n.tests...), append(benches, n.benches...)
	}
	return tests, benches, nil
}

// declNames are the tests (fuzz tests and examples with them) and the
// benchmarks one directory's test files declare.
type declNames struct{ tests, benches []string }

// dirNames holds dirTestNames' answers: the docs' many `go test ./...`
// commands would read every test file of the repository once each.
var dirNames struct {
	sync.Mutex
	m map[string]declNames
}

// dirTestNames returns the names the test files of directory d declare,
// read once per test binary.
func dirTestNames(d string) (declNames, error) {
	dirNames.Lock()
	defer dirNames.Unlock()
	if n, ok := dirNames.m[d]; ok {
		return n, nil
	}
	decl := regexp.MustCompile(`(?m)^func ((Test|Fuzz|Example|Benchmark)\w*)\(`)
	var n declNames
	files, _ := filepath.Glob(filepath.Join(d, "*_test.go"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return declNames{}, err
		}
		for _, m := range decl.FindAllStringSubmatch(string(b), -1) {
			if m[2] == "Benchmark" {
				n.benches = append(n.benches, m[1])
			} else {
				n.tests = append(n.tests, m[1])
			}
		}
	}
	if dirNames.m == nil {
		dirNames.m = map[string]declNames{}
	}
	dirNames.m[d] = n
	return n, nil
}

// modulePath is the module path go.mod declares.
func modulePath(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^module (\S+)`).FindSubmatch(b)
	if m == nil {
		t.Fatal("go.mod has no module line")
	}
	return string(m[1])
}

// shellLines returns the commands of an sh block: one per line, a line
// ending in a backslash joined with the next, blank lines and comment
// lines left out.
func shellLines(text string) []string {
	var cmds []string
	cur := ""
	for _, l := range strings.Split(text, "\n") {
		if c, ok := strings.CutSuffix(strings.TrimRight(l, " "), `\`); ok {
			cur += c
			continue
		}
		l = strings.TrimSpace(cur + l)
		cur = ""
		if l != "" && !strings.HasPrefix(l, "#") {
			cmds = append(cmds, strings.Join(strings.Fields(l), " "))
		}
	}
	return cmds
}

// shellWords splits a command into words as sh would for the simple
// quoting the docs use: '…' and "…" quote, no escapes inside.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case unicode.IsSpace(r):
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

// mdBlock is a fenced code block of a Markdown file: its info string, its
// text and the line of its opening fence.
type mdBlock struct {
	lang, text string
	line       int
}

// mdSpan is an inline code span (its text with line breaks as spaces) or
// a link target, and its line.
type mdSpan struct {
	text string
	line int
}

// mdDoc is what the README tests read of a Markdown file.
type mdDoc struct {
	blocks   []mdBlock
	spans    []mdSpan // inline code spans
	links    []mdSpan // link and image targets, outside code
	headings []string
}

// parseMarkdown reads the fenced blocks, inline code spans, link targets
// and headings of a Markdown file: enough of CommonMark for this
// repository's pages (fences of ```, spans of single backticks, inline
// links [text](target) and ![alt](target)).
func parseMarkdown(text string) mdDoc {
	var doc mdDoc
	lines := strings.Split(text, "\n")
	span := regexp.MustCompile("`([^`]+)`")
	link := regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)
	para, paraLine := []string{}, 0
	flush := func() {
		p := strings.Join(para, "\n")
		lineOf := func(off int) int { return paraLine + strings.Count(p[:off], "\n") }
		for _, m := range span.FindAllStringSubmatchIndex(p, -1) {
			doc.spans = append(doc.spans, mdSpan{strings.Join(strings.Fields(p[m[2]:m[3]]), " "), lineOf(m[0])})
		}
		noCode := span.ReplaceAllStringFunc(p, func(s string) string { return strings.Repeat(" ", len(s)) })
		for _, m := range link.FindAllStringSubmatchIndex(noCode, -1) {
			doc.links = append(doc.links, mdSpan{noCode[m[2]:m[3]], lineOf(m[0])})
		}
		para = para[:0]
	}
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if lang, ok := strings.CutPrefix(l, "```"); ok {
			flush()
			start := i + 1
			var body []string
			for i++; i < len(lines) && !strings.HasPrefix(lines[i], "```"); i++ {
				body = append(body, lines[i])
			}
			doc.blocks = append(doc.blocks, mdBlock{strings.TrimSpace(lang), strings.Join(body, "\n") + "\n", start})
			continue
		}
		if strings.TrimSpace(l) == "" {
			flush()
			continue
		}
		if h, ok := strings.CutPrefix(l, "#"); ok && (strings.HasPrefix(h, " ") || strings.HasPrefix(h, "#")) {
			flush()
			doc.headings = append(doc.headings, strings.TrimSpace(strings.TrimLeft(l, "#")))
			para, paraLine = append(para, strings.TrimSpace(strings.TrimLeft(l, "#"))), i+1
			flush()
			continue
		}
		if len(para) == 0 {
			paraLine = i + 1
		}
		para = append(para, l)
	}
	flush()
	return doc
}
