package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// hostileMaxRSS is the peak memory every hostile input must stay within
// (KiB, as Rusage.Maxrss on Linux). How long a run takes is no
// assertion: a loaded machine stretches wall time at will; runHostile
// kills a run that hangs.
const hostileMaxRSS = 200 << 10

// hostileCase is one run of the built featmap binary on a hostile input.
type hostileCase struct {
	name string
	args []string // after the binary; the spec path last
	code int
	want string // a substring of stdout+stderr
	skip string // a known finding not yet fixed: why
	// maxRSS is the case's own bound on its peak memory (KiB), below
	// hostileMaxRSS; 0 for hostileMaxRSS.
	maxRSS int64
}

var (
	featmapBinOnce sync.Once
	featmapBin     string
	featmapBinErr  error
)

// TestMain removes the binary buildFeatmap built, once every test that
// runs it is done. With launchEnv set, the test binary is runHostile's
// launcher instead and runs no test.
func TestMain(m *testing.M) {
	if path := os.Getenv(launchEnv); path != "" {
		os.Exit(launch(path, os.Args[1:]))
	}
	code := m.Run()
	if featmapBin != "" {
		os.RemoveAll(filepath.Dir(featmapBin))
	}
	os.Exit(code)
}

// binaryAndSpec skips the test under -short; else it returns the built
// binary (buildFeatmap) and the path of a temporary spec file name holding
// src.
func binaryAndSpec(t *testing.T, name, src string) (bin, spec string) {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin = buildFeatmap(t)
	spec = filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(spec, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return bin, spec
}

// startCmd starts cmd and returns the channel its Wait's error comes on.
func startCmd(t *testing.T, cmd *exec.Cmd) <-chan error {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return done
}

// interruptAndWait sends cmd (started by startCmd, done its channel) an
// interrupt and waits for it to exit, at most 10 s (then kills it and
// fails the test, naming the interrupt what); it returns how long the
// exit took.
func interruptAndWait(t *testing.T, cmd *exec.Cmd, done <-chan error, what string) time.Duration {
	t.Helper()
	start := time.Now()
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("still running 10 s after the %s", what)
	}
	return time.Since(start)
}

// buildFeatmap builds the command once per test binary into a temporary
// directory (TestMain removes it).
func buildFeatmap(t *testing.T) string {
	t.Helper()
	featmapBinOnce.Do(func() {
		dir, err := os.MkdirTemp("", "featmap-hostile-")
		if err != nil {
			featmapBinErr = err
			return
		}
		featmapBin = filepath.Join(dir, "featmap")
		out, err := exec.Command("go", "build", "-o", featmapBin, ".").CombinedOutput()
		if err != nil {
			featmapBinErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if featmapBinErr != nil {
		t.Fatal(featmapBinErr)
	}
	return featmapBin
}

// wantRE is a corpus file's manifest line: # want: exit N: "substring".
var wantRE = regexp.MustCompile(`^# want: exit (\d): "(.*)"\s*$`)

// readHostileCorpus reads testdata/hostile/*.yaml: each names its expected
// exit code and message substring in a "# want:" comment among its first
// lines, runs gen instead of design if it says "# featmap: gen", with the
// flags of an "# args: …" line before the spec (paths relative to the
// run's temporary directory), and is skipped with the reason given by a
// "# skip: …" line (a finding whose fix is not done yet).
func readHostileCorpus(t *testing.T) []hostileCase {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "hostile", "*.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no hostile corpus: %v", err)
	}
	var cases []hostileCase
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
		abs, err := filepath.Abs(f)
		if err != nil {
			t.Fatal(err)
		}
		c := hostileCase{name: filepath.Base(f), code: -1}
		cmd := "design"
		var flags []string
		sc := bufio.NewScanner(bytes.NewReader(b))
		for i := 0; i < 6 && sc.Scan(); i++ {
			line := strings.TrimRight(sc.Text(), "\r")
			if line == "# featmap: gen" {
				cmd = "gen"
			}
			if r, ok := strings.CutPrefix(line, "# skip: "); ok {
				c.skip = r
			}
			if r, ok := strings.CutPrefix(line, "# args: "); ok {
				flags = strings.Fields(r)
			}
			if m := wantRE.FindStringSubmatch(line); m != nil {
				c.code, _ = strconv.Atoi(m[1])
				c.want = m[2]
			}
		}
		if c.code < 0 {
			t.Fatalf("%s: no `# want: exit N: \"substring\"` line among the first six", f)
		}
		c.args = append(append([]string{cmd}, flags...), abs)
		cases = append(cases, c)
	}
	return cases
}

// nonFiniteTemplates put a value in one numeric key of an otherwise valid
// spec; every one of .nan, .inf and -.inf must be a spec error naming the
// key.
var nonFiniteTemplates = []struct{ key, spec string }{
	{"kernel.sigma", "kernel: {type: rbf, sigma: V}\ndomain: {interval: [0, 3]}\ntarget: {dim: 5}\nmethod: {name: chum}\n"},
	{"kernel.beta", "kernel: {type: exp-chi2, beta: V}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: 8}\nmethod: {name: rff}\n"},
	{"kernel.gamma", "kernel: {type: chi2, gamma: V}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: 5}\nmethod: {name: chum}\n"},
	{"kernel.c", "kernel: {type: skewed-chi2, sigma: 1, c: V}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: 8}\nmethod: {name: rff}\n"},
	{"domain.interval", "kernel: {type: chi2}\ndomain: {interval: [V, 1]}\ntarget: {dim: 5}\nmethod: {name: chum}\n"},
	{"domain.interval", "kernel: {type: rbf, sigma: 0.3}\ndomain: {interval: [0, V]}\ntarget: {dim: 5}\nmethod: {name: chum}\n"},
	{"domain.integers", "kernel: {type: chi2}\ndomain: {integers: [0, V]}\ntarget: {dim: 5}\nmethod: {name: chum}\n"},
	{"domain.dims", "kernel: {type: rbf, sigma: 1}\ndomain: {dims: V, interval: [0, 1]}\ntarget: {dim: 8}\nmethod: {name: rff}\n"},
	{"target.dim", "kernel: {type: chi2}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: V}\nmethod: {name: chum}\n"},
	{"target.max_error", "kernel: {type: chi2}\ndomain: {interval: [0.001, 1]}\ntarget: {max_error: V}\nmethod: {name: chum}\n"},
	{"target.max_dim", "kernel: {type: chi2}\ndomain: {interval: [0.001, 1]}\ntarget: {max_error: 0.01, max_dim: V}\nmethod: {name: chum}\n"},
	{"method.omega_max", "kernel: {type: chi2}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: 5}\nmethod: {name: chum, omega_max: V}\n"},
	{"method.spacing", "kernel: {type: chi2}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: 5}\nmethod: {name: chum, spacing: V}\n"},
	{"method.energy", "kernel: {type: chi2}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: 5}\nmethod: {name: annfm, energy: V}\n"},
	{"method.seed", "kernel: {type: rbf, sigma: 1}\ndomain: {interval: [0, 1]}\ntarget: {dim: 8}\nmethod: {name: rff, seed: V}\n"},
	{"data.max_rows", "kernel: {type: rbf, sigma: 1}\ndomain: {dims: 2, interval: [0, 10]}\ntarget: {dim: 8}\ndata: {file: DATA, max_rows: V}\nmethod: {name: rff}\n"},
	{"learn.ridge", "kernel: {type: rbf, sigma: 1}\ndomain: {dims: 2, interval: [0, 10]}\ntarget: {dim: 8}\ndata: {file: DATA, label_column: 2}\nlearn: {ridge: V}\nmethod: {name: rff}\n"},
}

// TestHostile runs the featmap binary on every hostile input — the corpus
// in testdata/hostile (specs, and eval's map files: readEvalCorpus), NaN
// and ±Inf in every numeric key, and the inputs
// that cannot be committed (device nodes, FIFOs, a spec of 48 MiB) — and
// asserts each one's exit code and message (a refusal names the limit it
// met, before the work it would take), that it peaks below hostileMaxRSS
// and does not hang (runHostile), and that a successful run prints no
// non-finite number. The slowest case is logged, not bounded.
func TestHostile(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and runs about 80 designs")
	}
	bin := buildFeatmap(t)
	dir := t.TempDir()
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	cases := append(readHostileCorpus(t), evalHostileCases(t, dir)...)

	data := write("rows.csv", []byte("1,2,0\n3,4,1\n5,6,0\n6,7,1\n1,1,0\n2,2,1\n"))
	for i, tmpl := range nonFiniteTemplates {
		for _, v := range []string{".nan", ".inf", "-.inf"} {
			spec := "version: 1\nname: H\n" + strings.ReplaceAll(strings.Replace(tmpl.spec, "V", v, 1), "DATA", data)
			name := fmt.Sprintf("nonfinite-%d-%s-%s.yaml", i, tmpl.key, v)
			cases = append(cases, hostileCase{name: name, args: []string{"design", write(name, []byte(spec))}, code: exitUsage, want: tmpl.key})
		}
	}

	valid := "version: 1\nname: H\nkernel: {type: chi2}\ndomain: {interval: [0.001, 1]}\ntarget: {dim: 3}\nmethod: {name: chum}\n"
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	fifoData := write("fifo-data.yaml", []byte("version: 1\nname: H\nkernel: {type: rbf, sigma: 1}\ndomain: {dims: 2, interval: [0, 10]}\ntarget: {dim: 8}\ndata: {file: fifo}\nmethod: {name: rff}\n"))
	fifoOut := filepath.Join(dir, "fifo.go")
	if err := syscall.Mkfifo(fifoOut, 0o600); err != nil {
		t.Fatal(err)
	}
	linkOut := filepath.Join(dir, "link.go")
	if err := os.Symlink(filepath.Join(dir, "target.go"), linkOut); err != nil {
		t.Fatal(err)
	}
	validPath := write("valid.yaml", []byte(valid))
	// 10 000 rows leave 2 000 held out: verifying D = 2048 on their 2·10⁶
	// pairs is beyond the verification budget, known once the data is read.
	var manyRows bytes.Buffer
	for i := range 10000 {
		fmt.Fprintf(&manyRows, "%d,%d\n", i%17, i%13)
	}
	write("rows10000.csv", manyRows.Bytes())
	heldOut := write("held-out-budget.yaml", []byte("version: 1\nname: H\nkernel: {type: rbf, sigma: 1}\ndomain: {dims: 2, interval: [0, 16]}\ntarget: {dim: 2048}\ndata: {file: rows10000.csv}\nmethod: {name: rff, sampling: random}\n"))
	cases = append(cases,
		hostileCase{name: "gen -o FIFO", args: []string{"gen", "-o", fifoOut, validPath}, code: exitUsage, want: "-o " + fifoOut + ": not a regular file (a named pipe)"},
		hostileCase{name: "gen -o symlink", args: []string{"gen", "-o", linkOut, validPath}, code: exitUsage, want: "-o " + linkOut + ": not a regular file (a symbolic link)"},
		hostileCase{name: "48MB spec", args: []string{"design", writeBigSpec(t, filepath.Join(dir, "big.yaml"), valid, 48<<20)}, code: exitUsage, want: "more than the 1048576 a spec may have"},
		hostileCase{name: "/dev/zero", args: []string{"design", "/dev/zero"}, code: exitUsage, want: "/dev/zero: not a regular file (a character device)"},
		hostileCase{name: "/dev/urandom", args: []string{"design", "/dev/urandom"}, code: exitUsage, want: "/dev/urandom: not a regular file (a character device)"},
		hostileCase{name: "FIFO spec", args: []string{"design", fifo}, code: exitUsage, want: "fifo: not a regular file (a named pipe)"},
		hostileCase{name: "FIFO data file", args: []string{"design", fifoData}, code: exitUsage, want: "fifo: not a regular file (a named pipe)"},
		hostileCase{name: "directory spec", args: []string{"design", dir}, code: exitUsage, want: ": not a regular file (a directory)"},
		hostileCase{name: "held-out rows beyond the verification budget", args: []string{"design", heldOut}, code: exitUsage, want: "target.dim: 2048: verifying a map of D dimensions on this problem takes about 3.32e+06·D + 4.05e+06 multiply-adds, and the verification budget is 4294967296 (2^32), with the 2000 held-out rows of rows10000.csv (data.file): at most 1294"},
		hostileCase{name: "empty spec", args: []string{"design", write("empty.yaml", nil)}, code: exitUsage, want: "empty spec"},
		hostileCase{name: "binary garbage", args: []string{"design", write("garbage.yaml", garbage(4096))}, code: exitUsage, want: "invalid YAML"},
		hostileCase{name: "10^5 levels of [", args: []string{"design", write("deep.yaml", []byte("version: 1\nname: "+strings.Repeat("[", 1e5)+strings.Repeat("]", 1e5)+"\n"))}, code: exitUsage, want: "max depth"},
	)

	var mu sync.Mutex
	var slowest, largest struct {
		name string
		wall time.Duration
		rss  int64
	}
	t.Cleanup(func() {
		t.Logf("%d cases; slowest %s: %v; largest %s: %d KiB", len(cases), slowest.name, slowest.wall.Round(time.Millisecond), largest.name, largest.rss)
	})
	t.Run("cases", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				if c.skip != "" {
					t.Skip(c.skip)
				}
				t.Parallel()
				wall, rss, code, out := runHostile(t, bin, c.args)
				mu.Lock()
				if wall > slowest.wall {
					slowest.name, slowest.wall = c.name, wall
				}
				if rss > largest.rss {
					largest.name, largest.rss = c.name, rss
				}
				mu.Unlock()
				if code != c.code || !strings.Contains(out, c.want) {
					t.Errorf("featmap %s: exit %d, want %d mentioning %q; output:\n%s", strings.Join(c.args, " "), code, c.code, c.want, tail(out, 800))
				}
				if code == exitInternal || strings.Contains(out, "goroutine ") {
					t.Errorf("a panic or internal error:\n%s", tail(out, 800))
				}
				if code == exitOK && nonFiniteRE.MatchString(stripComments(out)) {
					t.Errorf("exit 0 with a non-finite number in the output:\n%s", tail(out, 800))
				}
				limit := int64(hostileMaxRSS)
				if c.maxRSS > 0 {
					limit = c.maxRSS
				}
				if rss > limit {
					t.Errorf("peak RSS %d KiB, more than %d KiB", rss, limit)
				}
			})
		}
	})
}

// launchEnv names the file the launcher writes its child's peak RSS to.
const launchEnv = "FEATMAP_TEST_LAUNCH_RUSAGE"

// runHostile runs bin with args in a temporary directory (gen writes
// there), killing it as hung after a minute (every case ends in a
// fraction of a second on an idle machine), and returns its wall time,
// peak RSS in KiB, exit code and combined output.
//
// The run goes through a launcher, this test binary started afresh
// (TestMain, launch): on Linux a child's Maxrss includes the resident
// memory of the process that forked it, up to the exec, and the test
// process grows with the tests run before; the launcher is a few MiB.
func runHostile(t *testing.T, bin string, args []string) (time.Duration, int64, int, string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	rusage := filepath.Join(t.TempDir(), "rusage")
	cmd := exec.CommandContext(ctx, self, append([]string{bin}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), launchEnv+"="+rusage)
	// The launcher and featmap share a process group, killed together.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	start := time.Now()
	err = cmd.Run()
	wall := time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("featmap %v: killed after %v (hangs)", args, wall)
	}
	if cmd.ProcessState == nil {
		t.Fatalf("featmap %v: %v", args, err)
	}
	text, err := os.ReadFile(rusage)
	if err != nil {
		t.Fatalf("featmap %v: the launcher left no peak RSS: %v; output:\n%s", args, err, tail(out.String(), 800))
	}
	rss, err := strconv.ParseInt(strings.TrimSpace(string(text)), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return wall, rss, cmd.ProcessState.ExitCode(), out.String()
}

// launch runs args[0] with args[1:] in the launcher's directory, its output
// the launcher's, writes the child's peak RSS (KiB) to path and returns
// the child's exit code (3 if it could not be run, 128 + the signal if one
// ended it).
func launch(path string, args []string) int {
	if len(args) == 0 {
		fmt.Fprintln(os.Stderr, "launch: no command")
		return 3
	}
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Run()
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "launch: could not run", args[0])
		return 3
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		fmt.Fprintln(os.Stderr, "launch: no rusage on this platform")
		return 3
	}
	if err := os.WriteFile(path, []byte(strconv.FormatInt(int64(ru.Maxrss), 10)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "launch:", err)
		return 3
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return cmd.ProcessState.ExitCode()
}

// nonFiniteRE matches a non-finite number printed or emitted as a
// constant; math.NaN() in emitted code (for non-finite inputs) is not one.
var nonFiniteRE = regexp.MustCompile(`[^.]\bNaN\b|[+-]Inf\b|math\.Inf\(`)

// writeBigSpec writes the valid spec text followed by comment lines up to
// size bytes, in chunks, so that the test process stays small.
func writeBigSpec(t *testing.T, path, valid string, size int) string {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriter(f)
	w.WriteString(valid)
	line := "# " + strings.Repeat("x", 77) + "\n"
	for n := len(valid); n < size; n += len(line) {
		w.WriteString(line)
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// garbage returns n deterministic bytes that are not YAML (a xorshift
// stream, seeded).
func garbage(n int) []byte {
	b := make([]byte, n)
	x := uint64(0x9e3779b97f4a7c15)
	for i := range b {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		b[i] = byte(x) | 0x80
	}
	return b
}

// stripComments drops Go line comments, whose prose may name NaN and Inf.
func stripComments(s string) string {
	var b strings.Builder
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// tail returns the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}

// TestInterruptStopsVerification: Ctrl-C during a long verification (an
// rff map of D = 7550 on 64 inputs, random sampling — its design is a
// draw of frequencies, its verification 4.3·10⁹ multiply-adds, just within
// the budget) stops it with exit 1 and the reason: a verification that
// ignored the interrupt would run to its end and exit 0. The interrupt
// comes 700 ms in; a machine fast enough to finish first skips the test.
// How soon after the interrupt featmap exits is logged, not bounded (a
// loaded machine stretches it); interruptAndWait fails a run still going
// 10 s after it.
func TestInterruptStopsVerification(t *testing.T) {
	bin, spec := binaryAndSpec(t, "long.yaml", "version: 1\nname: Long\nkernel: {type: rbf, sigma: 4}\ndomain: {dims: 64, interval: [0, 16]}\ntarget: {dim: 7550}\nmethod: {name: rff, sampling: random}\n")
	cmd := exec.Command(bin, "design", spec)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	done := startCmd(t, cmd)
	select {
	case <-done:
		if code := cmd.ProcessState.ExitCode(); code != exitOK {
			t.Fatalf("exit %d before the interrupt: %s", code, tail(out.String(), 800))
		}
		t.Skip("the design finished within 700 ms, before the interrupt")
	case <-time.After(700 * time.Millisecond):
	}
	took := interruptAndWait(t, cmd, done, "Ctrl-C")
	if code := cmd.ProcessState.ExitCode(); code != exitFailed || !strings.Contains(out.String(), "context canceled") {
		t.Errorf("after Ctrl-C: exit %d, want %d saying context canceled; output:\n%s", code, exitFailed, tail(out.String(), 800))
	}
	t.Logf("exited %v after Ctrl-C", took.Round(time.Millisecond))
}
