package main

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// evalMaxRSS is the peak memory of a map file refused by its kind or size
// (KiB): refused before it is read, it costs nothing but the binary.
const evalMaxRSS = 100 << 10

// readEvalCorpus reads testdata/hostile/*.eval: cases of featmap eval
// (or any command) on committed map and data files. A manifest holds
// comment lines — its "# want: exit N: "…"" line, an optional "# skip: …"
// — and one command line, e.g. "eval maps/rbf2-no-sigma.json
// data/rows200.csv -json", whose arguments naming a file or directory of
// testdata/hostile are made absolute (runHostile runs in a temporary
// directory). The maps and the specs that made them are in
// testdata/hostile/maps (README.md there).
func readEvalCorpus(t *testing.T) []hostileCase {
	t.Helper()
	corpus := filepath.Join("testdata", "hostile")
	files, err := filepath.Glob(filepath.Join(corpus, "*.eval"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no eval cases in the hostile corpus: %v", err)
	}
	var cases []hostileCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		c := hostileCase{name: filepath.Base(f), code: -1}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			line := strings.TrimSpace(sc.Text())
			switch {
			case line == "":
			case strings.HasPrefix(line, "#"):
				if r, ok := strings.CutPrefix(line, "# skip: "); ok {
					c.skip = r
				}
				if m := wantRE.FindStringSubmatch(line); m != nil {
					c.code, _ = strconv.Atoi(m[1])
					c.want = m[2]
				}
			case c.args != nil:
				t.Fatalf("%s: a second command line %q", f, line)
			default:
				for _, a := range strings.Fields(line) {
					if p := filepath.Join(corpus, a); !strings.HasPrefix(a, "-") && exists(p) {
						if a, err = filepath.Abs(p); err != nil {
							t.Fatal(err)
						}
					}
					c.args = append(c.args, a)
				}
			}
		}
		if c.code < 0 || c.args == nil {
			t.Fatalf("%s: want a `# want: exit N: \"substring\"` line and a command line", f)
		}
		cases = append(cases, c)
	}
	return cases
}

// exists reports whether path names a file or directory.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// evalHostileCases are the eval corpus and the map files that cannot be
// committed, made in dir: a FIFO and a symbolic link to one (read, they
// would block forever), a sparse file of 1 GiB (beyond the map size
// bound: refused by its size, unread) and /dev/zero (endless), each
// refused before it is read, within evalMaxRSS.
func evalHostileCases(t *testing.T, dir string) []hostileCase {
	t.Helper()
	cases := readEvalCorpus(t)
	data, err := filepath.Abs(filepath.Join("testdata", "hostile", "data", "rows200.csv"))
	if err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "map-fifo.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "map-link.json")
	if err := os.Symlink(fifo, link); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "map-1GiB.json")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(1 << 30); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return append(cases,
		hostileCase{name: "eval: map file a FIFO", args: []string{"eval", fifo, data}, code: exitUsage, want: "map-fifo.json: not a regular file (a named pipe)", maxRSS: evalMaxRSS},
		hostileCase{name: "eval: map file a symlink to a FIFO", args: []string{"eval", link, data}, code: exitUsage, want: "map-link.json: not a regular file (a named pipe)", maxRSS: evalMaxRSS},
		hostileCase{name: "eval: map file of 1 GiB", args: []string{"eval", big, data}, code: exitUsage, want: "1073741824 bytes, more than the 536870912 a map file may have", maxRSS: evalMaxRSS},
		hostileCase{name: "eval: map file /dev/zero", args: []string{"eval", "/dev/zero", data}, code: exitUsage, want: "/dev/zero: not a regular file (a character device)", maxRSS: evalMaxRSS},
		hostileCase{name: "eval: map file a directory", args: []string{"eval", dir, data}, code: exitUsage, want: ": not a regular file (a directory)", maxRSS: evalMaxRSS},
	)
}
