// Command featmap designs explicit feature maps for kernels from a YAML spec,
// verifies them, and emits them as Go code or comparison reports.
//
// Usage:
//
//	featmap design [-json] [-solver purego|clp] SPEC.yaml
//	featmap gen [-o FILE [-check | -force]] [-map FILE.json] [-pkg NAME] [-solver purego|clp] SPEC.yaml
//	featmap compare [-o DIR] [-solver purego|clp] SPEC.yaml
//	featmap eval [-json] [-label-column N] MAP.json DATA
//	featmap init KERNEL
//	featmap schema
//	featmap version
//
// Exit codes: 0 success, 1 the design failed (e.g. a target error that no
// dimension up to target.max_dim reaches), 2 a bad spec or bad usage, 3 an
// internal error (a bug or a solver breakdown: please report it).
//
// Ctrl-C (SIGINT) or SIGTERM stops a running design at its next LP or
// polish step, and featmap exits 1 having written nothing. A second one
// quits at once (exit 1), once a file set being written is complete: for
// the few steps a cancel cannot interrupt (a large Cholesky factorisation,
// a write to a pipe nobody reads).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/featmap/featmap"
	"github.com/featmap/featmap/internal/atomicfile"
	"github.com/featmap/featmap/solver"
	specpkg "github.com/featmap/featmap/spec"
)

// Exit codes.
const (
	exitOK     = 0
	exitFailed = 1
	exitUsage  = 2
	// exitHelp is a command's answer to -h: its usage was printed, and
	// featmap exits 0.
	exitHelp     = -1
	exitInternal = 3
)

func main() {
	ctx, cancel := context.WithCancel(context.Background())
	// Room for two: a second signal sent before the first is read is not
	// dropped (package signal does not block to deliver).
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go interrupts(sig, cancel, os.Stderr, func(code int) {
		atomicfile.Quiesce()
		os.Exit(code)
	})
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	os.Exit(code)
}

// stoppingAfter is how long after the first interrupt a run still going
// says how to quit at once.
const stoppingAfter = time.Second

// interrupts serves the signals of sig: the first cancels the run (which
// then exits 1 at its next check); if the run goes on for stoppingAfter,
// stderr says that another interrupt quits at once, and the next one calls
// quit(1) — main's waits for any file set being written to be complete
// (atomicfile.Quiesce), so that nothing is left half written, and exits.
func interrupts(sig <-chan os.Signal, cancel context.CancelFunc, stderr io.Writer, quit func(int)) {
	<-sig
	cancel()
	select {
	case <-sig:
	case <-time.After(stoppingAfter):
		fmt.Fprintln(stderr, "featmap: stopping… (interrupt again to quit at once)")
		<-sig
	}
	fmt.Fprintln(stderr, "featmap: quit at a second interrupt")
	quit(exitFailed)
}

// failed reports a design's failure on stderr and returns its exit code:
// exitInternal for featmap's own faults; exitUsage for a spec error found
// only while designing (learning that the data cannot support, at the
// spec's key), which names the spec itself; exitFailed otherwise.
func failed(stderr io.Writer, spec string, err error) int {
	// The line starts with "featmap: SPEC:"; the package's errors, and
	// those they wrap, say "featmap: " again at each level.
	msg := strings.ReplaceAll(strings.TrimPrefix(err.Error(), "featmap: "), ": featmap: ", ": ")
	var se *specpkg.SpecError
	if errors.As(err, &se) && !errors.Is(err, context.Canceled) && !errors.Is(err, featmap.ErrInternal) {
		if strings.HasPrefix(msg, spec+":") {
			fmt.Fprintln(stderr, msg)
		} else {
			fmt.Fprintf(stderr, "featmap: %s: %s\n", spec, msg)
		}
		return exitUsage
	}
	if errors.Is(err, featmap.ErrInternal) {
		fmt.Fprintf(stderr, "featmap: %s: %s\n(this is a bug in featmap, not in the spec: please report it with the spec)\n", spec, msg)
		return exitInternal
	}
	fmt.Fprintf(stderr, "featmap: %s: %s\n", spec, msg)
	return exitFailed
}

const usage = `featmap designs explicit kernel feature maps and emits them as Go code.

Usage:
  featmap design [-json] [-solver purego|clp] SPEC.yaml
  featmap gen [-o FILE [-check | -force]] [-map FILE.json] [-pkg NAME] [-solver purego|clp] SPEC.yaml
  featmap compare [-o DIR] [-solver purego|clp] SPEC.yaml
  featmap eval [-json] [-label-column N] MAP.json DATA   (a map of gen -map on a data file)
  featmap init KERNEL        (a commented starter spec)
  featmap schema             (the JSON Schema of specs, for editors)
  featmap version

Run "featmap COMMAND -h" for a command's flags.
`

// commands maps a subcommand name to its implementation; each lives in its
// own file and registers itself from init. It receives the arguments after
// the name and returns the exit code.
var commands = map[string]func(ctx context.Context, args []string, stdout, stderr io.Writer) int{}

// checkedWriter remembers the first error of its writes, so that output
// that could not be written (a full disk, a closed pipe) is a failure, not
// a silent success.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.err = err
	return n, err
}

// run runs the command of args; a failed write to stdout turns success
// into exit code 1.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	code := runCommand(ctx, args, out, stderr)
	if code == exitHelp {
		code = exitOK
	}
	if out.err != nil && code == exitOK {
		fmt.Fprintln(stderr, "featmap: writing the output:", out.err)
		return exitFailed
	}
	return code
}

func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return exitUsage
	}
	if cmd, ok := commands[args[0]]; ok {
		// The command's progress lines (parseCommand's printer) end
		// with it: none is written once it has returned.
		p := newProgress(stderr, progressQuiet)
		defer p.stop()
		return cmd(withProgress(ctx, p), args[1:], stdout, stderr)
	}
	switch args[0] {
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if cmd, ok := commands[args[1]]; ok {
				// featmap help design: the command's own help.
				return cmd(ctx, []string{"-h"}, stdout, stdout)
			}
			// help of help (any spelling) is the usage.
			if !slices.Contains([]string{"help", "-h", "-help", "--help"}, args[1]) {
				fmt.Fprintf(stderr, "featmap: no help for unknown command %q\n\n%s", args[1], usage)
				return exitUsage
			}
		}
		fmt.Fprint(stdout, usage)
		return exitOK
	}
	fmt.Fprintf(stderr, "featmap: unknown command %q\n\n%s", args[0], usage)
	return exitUsage
}

// commonFlags are the flags every designing command takes.
type commonFlags struct {
	solver string
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.solver, "solver", solver.DefaultName, "LP backend: "+strings.Join(solver.Names(), ", ")+` ("clp" needs -tags clp)`)
}

// parseCommand parses the flags and the single spec argument, and loads
// the spec (a data file's read stops when ctx ends).
// It returns a nonzero exit code on failure (having printed why).
func parseCommand(ctx context.Context, fs *flag.FlagSet, c *commonFlags, args []string, stderr io.Writer) (*featmap.Spec, featmap.Settings, int) {
	fs.SetOutput(stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, featmap.Settings{}, exitHelp
		}
		return nil, featmap.Settings{}, exitUsage
	}
	// Flags may follow the spec too: featmap design spec.yaml -json.
	if fs.NArg() > 1 && strings.HasPrefix(fs.Arg(1), "-") {
		spec := fs.Arg(0)
		if err := fs.Parse(fs.Args()[1:]); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, featmap.Settings{}, exitHelp
			}
			return nil, featmap.Settings{}, exitUsage
		}
		if fs.NArg() > 0 {
			fmt.Fprintf(stderr, "featmap %s: want exactly one spec file, got %s and %s\n", fs.Name(), spec, strings.Join(fs.Args(), " "))
			fs.Usage()
			return nil, featmap.Settings{}, exitUsage
		}
		if err := fs.Parse([]string{spec}); err != nil {
			return nil, featmap.Settings{}, exitUsage
		}
	}
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "featmap %s: want exactly one spec file, got %d arguments\n", fs.Name(), fs.NArg())
		fs.Usage()
		return nil, featmap.Settings{}, exitUsage
	}
	if _, err := solver.Get(c.solver); err != nil {
		fmt.Fprintln(stderr, "featmap:", err)
		return nil, featmap.Settings{}, exitUsage
	}
	prog := progressOf(ctx, stderr)
	spec, err := featmap.LoadSpecContext(ctx, fs.Arg(0), prog)
	switch {
	case err != nil && ctx.Err() != nil:
		// Ctrl-C while the data file was read: stopped, as a design is.
		return nil, featmap.Settings{}, failed(stderr, fs.Arg(0), err)
	case err != nil:
		fmt.Fprintln(stderr, err)
		return nil, featmap.Settings{}, exitUsage
	}
	for _, w := range spec.Warnings {
		fmt.Fprintln(stderr, "warning:", w)
	}
	return spec, featmap.Settings{Solver: c.solver, Progress: prog}, exitOK
}
